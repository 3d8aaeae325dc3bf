#!/usr/bin/python3
"""A float32 Conv and two implementations of it, for `sonnx-ref check` (README, "Computed values").

    /usr/bin/python3 examples/conv_accuracy.py DIR

writes into DIR: conv.onnx (Conv-13 of X [1, 16, 20, 20] by W [32, 16, 3, 3], bias, pads 1; W and B
initializers), inputs.npz (X), and the outputs of two implementations written here with numpy, tap by
tap, the bias first:
  iut_f16acc.npz  products and sums in float16, the result widened to float32 — a float32 Conv
                  accumulated in float16, a fault the accuracy model must catch ([Acc.hyp]);
  iut_f64.npz     the same order in float64, rounded once to float32 — an evaluation in a wider
                  format, which [Acc.hyp] allows: it must conform.
Seeded (numpy's default_rng(7)): the same files on every run.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7)
    X = rng.standard_normal((1, 16, 20, 20)).astype(np.float32)
    W = (rng.standard_normal((32, 16, 3, 3)) / 12).astype(np.float32)
    B = rng.standard_normal(32).astype(np.float32)
    node = helper.make_node("Conv", ["X", "W", "B"], ["Y"], name="conv1", pads=[1, 1, 1, 1])
    graph = helper.make_graph([node], "conv", [helper.make_tensor_value_info("X", TensorProto.FLOAT, X.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(W, "W"), numpy_helper.from_array(B, "B")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(out, "conv.onnx"))
    np.savez(os.path.join(out, "inputs.npz"), X=X)

    def conv(acc):
        xp = np.pad(X, ((0, 0), (0, 0), (1, 1), (1, 1))).astype(acc)
        Y = np.zeros((1, 32, 20, 20), acc) + B.astype(acc)[None, :, None, None]
        for c in range(16):
            for i in range(3):
                for j in range(3):
                    Y = (Y + W[:, c, i, j].astype(acc)[None, :, None, None] * xp[:, c:c + 1, i:i + 20, j:j + 20]).astype(acc)
        return Y.astype(np.float32)

    np.savez(os.path.join(out, "iut_f16acc.npz"), Y=conv(np.float16))
    np.savez(os.path.join(out, "iut_f64.npz"), Y=conv(np.float64))


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    main(sys.argv[1])
