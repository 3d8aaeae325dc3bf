#!/usr/bin/python3
"""A float32 Softmax on logits near 110 and two implementations of it, for `sonnx-ref check` (issue 32's acceptance).

    /usr/bin/python3 examples/softmax_accuracy.py DIR

writes into DIR: softmax.onnx (Softmax-13, node 'head', axis -1, logits [4, 1000]), inputs.npz (logits:
110 + N(0, 1), seeded), and the outputs of two implementations written here with numpy in float32:
  iut_naive.npz       exp(x) / sum(exp(x)) without the maximum subtracted: e^110 is beyond float's range,
                      every element is +Inf/+Inf, a NaN where the ideal is finite ([Softmax.hyp]); the
                      accuracy model must reject it;
  iut_subtracted.npz  e = exp(x - max(x)), e / sum(e), in float32 (numpy's float32 exp, its pairwise
                      float32 sum): [Softmax.hyp]'s evaluation, it must conform.
Seeded (numpy's default_rng(32)): the same files on every run.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(32)
    x = (110 + rng.standard_normal((4, 1000))).astype(np.float32)
    node = helper.make_node("Softmax", ["logits"], ["probs"], name="head", axis=-1)
    graph = helper.make_graph([node], "softmax", [helper.make_tensor_value_info("logits", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("probs", TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(out, "softmax.onnx"))
    np.savez(os.path.join(out, "inputs.npz"), logits=x)
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(x)  # float32: +Inf for every logit above 88.72
        naive = e / e.sum(axis=-1, keepdims=True)
    e = np.exp(x - x.max(axis=-1, keepdims=True))  # float32 throughout
    subtracted = e / e.sum(axis=-1, keepdims=True)
    np.savez(os.path.join(out, "iut_naive.npz"), probs=naive.astype(np.float32))
    np.savez(os.path.join(out, "iut_subtracted.npz"), probs=subtracted.astype(np.float32))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
