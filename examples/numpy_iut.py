#!/usr/bin/env python3
"""An implementation under test (IUT) with numpy's semantics, for the certification walkthrough.

It evaluates a model of Max, ReduceMax, Hardmax and Constant nodes the way a numpy user would
write them — np.maximum folded over the inputs, np.max over the axes, np.argmax for Hardmax — and
writes its outputs in the layout `sonnx-ref check MODEL GOLDEN_DIR IUT_DIR` reads:
IUT_DIR/test_data_set_K/output_J.pb for every GOLDEN_DIR/test_data_set_K/input_*.pb.

numpy's rules are not the SONNX ones (spec/ops/*.md, Divergences): on a tie between -0 and +0,
np.maximum keeps its first operand and np.argmax counts -0 equal to +0, so a golden set that
exercises the signed-zero clauses makes this IUT fail. bfloat16 has no numpy type: such cases are
left without outputs.

With --mark-all, every value of the graph is also saved, by name, in
IUT_DIR/test_data_set_K/values.npz (as tools that mark every tensor as an output do), so that
`check` can judge each node on the values this IUT gave it ([Check.attribution]).

Usage: /usr/bin/python3 examples/numpy_iut.py GOLDEN_DIR IUT_DIR [--mark-all]
"""
import functools
import glob
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def hardmax(x, axis, version):
    axis = axis + x.ndim if axis < 0 else axis
    if version >= 13:  # along one axis
        h = np.argmax(x, axis=axis)
        y = np.zeros_like(x)
        np.put_along_axis(y, np.expand_dims(h, axis), 1, axis=axis)
        return y
    rows = int(np.prod(x.shape[:axis], dtype=np.int64))  # versions 1, 11: the [N, D] view
    v = x.reshape(rows, -1)
    y = np.zeros_like(v)
    y[np.arange(rows), np.argmax(v, axis=1)] = 1
    return y.reshape(x.shape)


def run(model, feeds, everything=None):
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    values = dict(feeds)
    for t in model.graph.initializer:
        values.setdefault(t.name, numpy_helper.to_array(t))
    for node in model.graph.node:
        ins = [values[n] if n else None for n in node.input]
        if node.op_type == "Constant":
            out = numpy_helper.to_array(attr(node, "value", None))
        elif node.op_type == "Max":
            out = functools.reduce(np.maximum, ins)
        elif node.op_type == "ReduceMax":
            axes = attr(node, "axes", None) if opset < 18 else (list(ins[1]) if len(ins) > 1 and ins[1] is not None else None)
            keep = bool(attr(node, "keepdims", 1))
            if not axes and opset >= 18 and attr(node, "noop_with_empty_axes", 0):
                out = ins[0]
            else:
                axis = None if not axes else tuple(int(a) for a in axes)
                initial = -np.inf if ins[0].dtype.kind == "f" else np.iinfo(ins[0].dtype).min if ins[0].dtype.kind in "iu" else False
                out = np.max(ins[0], axis=axis, keepdims=keep, initial=initial)
        elif node.op_type == "Hardmax":
            version = 13 if opset >= 13 else 11 if opset >= 11 else 1
            out = hardmax(ins[0], attr(node, "axis", -1 if version >= 13 else 1), version)
        else:
            raise SystemExit(f"numpy_iut.py: operator {node.op_type} is not in this IUT")
        values[node.output[0]] = np.asarray(out)
    if everything is not None:
        everything.update({n: values[n] for node in model.graph.node for n in node.output if n})
    return [values[o.name] for o in model.graph.output]


def main():
    args = [a for a in sys.argv[1:] if a != "--mark-all"]
    mark_all = len(args) != len(sys.argv) - 1
    if len(args) != 2:
        raise SystemExit(__doc__)
    golden, iut = args
    model = onnx.load(os.path.join(golden, "model.onnx"))
    fed = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
    written = 0
    for case in sorted(glob.glob(os.path.join(golden, "test_data_set_*"))):
        feeds = {}
        for k, path in enumerate(sorted(glob.glob(os.path.join(case, "input_*.pb")),
                                        key=lambda p: int(p.rsplit("_", 1)[1][:-3]))):
            t = onnx.TensorProto()
            with open(path, "rb") as f:
                t.ParseFromString(f.read())
            if t.data_type == onnx.TensorProto.BFLOAT16:
                break  # no numpy type: this IUT cannot run the case
            feeds[t.name or fed[k]] = numpy_helper.to_array(t)
        else:
            out_dir = os.path.join(iut, os.path.basename(case))
            os.makedirs(out_dir, exist_ok=True)
            everything = {} if mark_all else None
            for j, y in enumerate(run(model, feeds, everything)):
                with open(os.path.join(out_dir, f"output_{j}.pb"), "wb") as f:
                    f.write(numpy_helper.from_array(y, model.graph.output[j].name).SerializeToString())
            if mark_all:
                np.savez(os.path.join(out_dir, "values.npz"), **everything)
            written += 1
    print(f"numpy_iut.py: wrote the outputs of {written} case(s) to {iut}")


if __name__ == "__main__":
    main()
