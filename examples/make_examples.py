#!/usr/bin/python3
"""Writes the example model and inputs of the README's quick start (run with Debian's python3,
which has python3-onnx and python3-numpy).

Graph (default-domain opset 18):
    M = Max(X, B)                      Max-13: X is [2, 3], B is [3] (broadcast)
    axes = Constant([1])
    R = ReduceMax(M, axes, keepdims=0) ReduceMax-18: row maxima, shape [2]
    H = Hardmax(M)                     Hardmax-13, axis -1: one-hot of each row's first maximum
The inputs hold the values the spec decides: a NaN, a -0 against a +0, a -Inf.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))

X = np.array([[1.0, -0.0, np.nan], [-np.inf, 2.5, -0.0]], dtype=np.float32)
B = np.array([0.5, 0.0, -1.0], dtype=np.float32)

nodes = [
    helper.make_node("Max", ["X", "B"], ["M"], name="max"),
    helper.make_node("Constant", [], ["axes"], name="axes",
                     value=helper.make_tensor("axes", TensorProto.INT64, [1], [1])),
    helper.make_node("ReduceMax", ["M", "axes"], ["R"], name="reduce", keepdims=0),
    helper.make_node("Hardmax", ["M"], ["H"], name="hardmax"),
]
graph = helper.make_graph(
    nodes, "max_reduce_hardmax",
    inputs=[helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("B", TensorProto.FLOAT, [3])],
    outputs=[helper.make_tensor_value_info("M", TensorProto.FLOAT, [2, 3]),
             helper.make_tensor_value_info("R", TensorProto.FLOAT, [2]),
             helper.make_tensor_value_info("H", TensorProto.FLOAT, [2, 3])])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)],
                          producer_name="sonnx-ref examples")
model.ir_version = 8
onnx.save(model, os.path.join(here, "max_reduce_hardmax.onnx"))
np.savez(os.path.join(here, "inputs.npz"), X=X, B=B)
print("wrote examples/max_reduce_hardmax.onnx and examples/inputs.npz")
