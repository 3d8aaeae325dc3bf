#!/usr/bin/python3
"""A float32 BatchNormalization and two implementations of it, for `sonnx-ref check` (issue 31's acceptance).

    /usr/bin/python3 examples/batchnorm_accuracy.py DIR

writes into DIR: batchnorm.onnx (BatchNormalization-15, node 'bn1', X [1, 8, 10, 10]; scale, B, mean and
var initializers, var about 1e-3, epsilon the default 1e-5), inputs.npz (X), and the outputs of two
implementations written here with numpy in float32:
  iut_no_eps.npz   (X - mean) / sqrt(var) * scale + B — epsilon left out: a relative change near
                   0.5% (epsilon / (2 var)), a fault the accuracy model must catch;
  iut_folded.npz   a = scale / sqrt(var + epsilon), b = B - mean * a, Y = X * a + b — the folded form
                   engines use (spec/ops/batchnormalization.md, [BatchNormalization.hyp] form 4): it
                   must conform.
Seeded (numpy's default_rng(31)): the same files on every run.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(31)
    C = 8
    X = rng.standard_normal((1, C, 10, 10)).astype(np.float32)
    scale = (1 + rng.standard_normal(C) / 4).astype(np.float32)
    B = rng.standard_normal(C).astype(np.float32)
    mean = (rng.standard_normal(C) / 10).astype(np.float32)
    var = rng.uniform(0.5e-3, 2e-3, C).astype(np.float32)
    eps = np.float32(1e-5)  # the attribute's default, a binary32 value
    node = helper.make_node("BatchNormalization", ["X", "scale", "B", "mean", "var"], ["Y"], name="bn1")
    graph = helper.make_graph([node], "batchnorm", [helper.make_tensor_value_info("X", TensorProto.FLOAT, X.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(scale, "scale"), numpy_helper.from_array(B, "B"),
                               numpy_helper.from_array(mean, "mean"), numpy_helper.from_array(var, "var")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)]), os.path.join(out, "batchnorm.onnx"))
    np.savez(os.path.join(out, "inputs.npz"), X=X)

    per_channel = (1, C, 1, 1)
    s, b, m, v = (t.reshape(per_channel) for t in (scale, B, mean, var))
    no_eps = (X - m) / np.sqrt(v) * s + b
    a = s / np.sqrt(v + eps)
    folded = X * a + (b - m * a)
    assert no_eps.dtype == np.float32 and folded.dtype == np.float32
    np.savez(os.path.join(out, "iut_no_eps.npz"), Y=no_eps)
    np.savez(os.path.join(out, "iut_folded.npz"), Y=folded)


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    main(sys.argv[1])
