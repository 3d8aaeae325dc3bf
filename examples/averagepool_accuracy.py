#!/usr/bin/python3
"""A float32 AveragePool and four implementations of it, for `sonnx-ref check` (README, "Computed values").

    /usr/bin/python3 examples/averagepool_accuracy.py DIR

writes into DIR: averagepool.onnx (AveragePool-19 named "pool1": X [1, 4, 9, 9], kernel 3 x 3, pads 1,
count_include_pad 1), inputs.npz (X), and the outputs of implementations written here with numpy:
  iut_flipped.npz  the mean with count_include_pad flipped (the border windows divided by their
                   members only) — a fault the model must catch ([AveragePool.divisor]): exit 1;
  iut_f64.npz      each window summed in float64 and divided by d, rounded once to float32 — an
                   evaluation in a wider format ([Acc.hyp]): conforms, exit 0;
  iut_recip.npz    each window summed in float32, right to left, times fl32(1/d) — another order and
                   the reciprocal of [Acc.divisor]: conforms, exit 0.
The divisor at the border is 9 (the padding counted) where the flipped engine uses 4 or 6. Seeded
(numpy's default_rng(11)): the same files on every run.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(11)
    X = (rng.standard_normal((1, 4, 9, 9)) + 2).astype(np.float32)
    node = helper.make_node("AveragePool", ["X"], ["Y"], name="pool1", kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                            count_include_pad=1)
    graph = helper.make_graph([node], "averagepool", [helper.make_tensor_value_info("X", TensorProto.FLOAT, X.shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 8
    onnx.save(model, os.path.join(out, "averagepool.onnx"))
    np.savez(os.path.join(out, "inputs.npz"), X=X)

    def pool(count_pads, acc, reverse=False, reciprocal=False):
        Y = np.zeros((1, 4, 9, 9), np.float32)
        for c in range(4):
            for i in range(9):
                for j in range(9):
                    members = [X[0, c, a, b] for a in range(i - 1, i + 2) for b in range(j - 1, j + 2)
                               if 0 <= a < 9 and 0 <= b < 9]
                    d = 9 if count_pads else len(members)
                    s = acc(0)
                    for v in (members[::-1] if reverse else members):
                        s = acc(s + acc(v))
                    Y[0, c, i, j] = np.float32(s * np.float32(1 / d)) if reciprocal else np.float32(s / acc(d))
        return Y

    np.savez(os.path.join(out, "iut_flipped.npz"), Y=pool(False, np.float64))
    np.savez(os.path.join(out, "iut_f64.npz"), Y=pool(True, np.float64))
    np.savez(os.path.join(out, "iut_recip.npz"), Y=pool(True, np.float32, reverse=True, reciprocal=True))


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    main(sys.argv[1])
