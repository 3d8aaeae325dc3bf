#!/usr/bin/env python3
"""Stand-in faulty implementations of the max family, to show what a golden set catches.

Each FAULT is a way real implementations get the family wrong. The IUT evaluates a one-node model
(Min, ReduceMin, ArgMax, ArgMin, Relu, Clip, MaxPool, GlobalMaxPool, and Max, ReduceMax, Hardmax)
the spec's way except for that one fault, and writes its outputs where `sonnx-ref check MODEL
GOLDEN_DIR IUT_DIR` reads them (IUT_DIR/test_data_set_K/output_J.pb). Everything not faulty here is
computed from the bits, independently of sonnx-ref: the total order decided on the patterns, the first
NaN kept, the first extreme on ties.

  numpy         numpy's functions as a user would call them: np.minimum / np.maximum folded, np.min /
                np.max with the identity as `initial`, np.argmin / np.argmax (np.flip for
                select_last_index), np.maximum(x, 0), np.clip(x, lo, hi), windows of
                sliding_window_view with -inf padding reduced by np.max (Indices by np.argmax)
  nan-ignored   NaN never wins: np.fmin / np.fmax semantics, a C loop `if (x[i] > best) best = x[i]`
                for positions, `x > 0 ? x : 0` for Relu, a NaN bound ignored by Clip
  last          the last extreme on ties (positions, Indices), the last NaN for values
  zero-flipped  in the min order, +0 below -0 (Min, ReduceMin, ArgMin, Clip's upper bound)
  ftz           subnormal inputs flushed to zero (sign kept) before anything is compared
  empty-zero    the value of an empty set is 0 (ReduceMin, ReduceMax, GlobalMaxPool)
  pad-zero      MaxPool: a padded position holds 0 and competes
  indices-order MaxPool: Indices in the other storage order
  none          no fault: the spec's own values (the runner's control: it must conform)

Usage: /usr/bin/python3 examples/faulty_iut.py FAULT GOLDEN_DIR IUT_DIR
bfloat16 has no numpy type: such cases are left without outputs (check reports them missing).
"""
import glob
import itertools
import os
import sys

import numpy as np
import onnx
from onnx import numpy_helper

FAULTS = ["numpy", "nan-ignored", "last", "zero-flipped", "ftz", "empty-zero", "pad-zero", "indices-order", "none"]


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


# ---- the order on the bits ------------------------------------------------------------------------

UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def isnan(x):
    return np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool)


def key(x):
    """A key that sorts the non-NaN elements by the total order (-0 below +0): integers as they are,
    floats by their bits (the magnitude for positives, its complement for negatives)."""
    if x.dtype.kind != "f":
        return x.astype(object)
    u = x.view(UINT[x.itemsize]).astype(object)
    sign = 1 << (8 * x.itemsize - 1)
    return np.vectorize(lambda b: b if b < sign else -1 - (b - sign), otypes=[object])(u)


def select(xs, minimum, fault):
    """The fold of max_of (min_of with `minimum`) over the list of equal-shaped arrays xs, elementwise."""
    out = xs[0].copy()
    for x in xs[1:]:
        out = pick(out, x, minimum, fault)
    return out


def pick(a, b, minimum, fault):
    na, nb = isnan(a), isnan(b)
    ka, kb = key(a), key(b)
    if fault == "zero-flipped" and minimum and a.dtype.kind == "f":  # +0 taken as below -0
        za, zb = (a == 0), (b == 0)
        ka = np.where(za, np.where(np.signbit(a), 0, -1), ka)
        kb = np.where(zb, np.where(np.signbit(b), 0, -1), kb)
    better = (kb < ka) if minimum else (kb > ka)
    if fault == "nan-ignored":
        take_b = ~nb & (na | better)
    elif fault == "last":
        take_b = nb | (~na & better)  # a later NaN replaces an earlier one
    else:
        take_b = ~na & (nb | better)
    return np.where(take_b, b, a)


def flush(x):
    if x.dtype.kind != "f":
        return x
    tiny = np.finfo(x.dtype).tiny
    return np.where((x != 0) & (np.abs(x) < tiny), np.copysign(np.zeros_like(x), x), x)


def position(v, minimum, last, fault):
    """The position the order selects in the 1-D sequence v."""
    n = len(v)
    nan = isnan(v)
    if fault == "nan-ignored":  # C loop: best = v[0]; if (v[i] > best) ...
        best = 0
        for i in range(1, n):
            if (v[i] < v[best]) if minimum else (v[i] > v[best]):
                best = i
        return best
    if fault == "numpy":
        f = np.argmin if minimum else np.argmax
        return n - 1 - int(f(v[::-1])) if last else int(f(v))
    if fault == "last":
        last = not last
    if nan.any():
        idx = np.nonzero(nan)[0]
        return int(idx[-1] if last else idx[0])
    k = key(v) if fault != "zero-flipped" or not minimum else key(np.where(v == 0, -v, v))
    best = min(k) if minimum else max(k)
    idx = [i for i in range(n) if k[i] == best]
    return idx[-1] if last else idx[0]


# ---- the operators ------------------------------------------------------------------------------------

def version_of(model):
    return next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))


def reduce(x, axes, keep, minimum, fault):
    axes = tuple(range(x.ndim)) if axes is None else tuple(a + x.ndim if a < 0 else a for a in axes)
    kept = [d for d in range(x.ndim) if d not in axes]
    moved = np.moveaxis(x, kept + list(axes), list(range(x.ndim)))
    rows = int(np.prod([x.shape[d] for d in kept], dtype=np.int64))
    flat = moved.reshape(rows, int(np.prod([x.shape[d] for d in axes], dtype=np.int64)))
    if x.dtype.kind == "f":
        ident = np.array(np.inf if minimum else -np.inf, x.dtype)
    elif x.dtype == bool:
        ident = np.array(minimum)
    else:
        ident = np.array((np.iinfo(x.dtype).max if minimum else np.iinfo(x.dtype).min), x.dtype)
    if fault == "empty-zero":
        ident = np.zeros((), x.dtype)
    res = np.empty(flat.shape[0], x.dtype)
    for r in range(flat.shape[0]):
        row = flat[r]
        if fault == "numpy":
            f = np.min if minimum else np.max
            res[r] = f(row, initial=ident) if len(row) == 0 else f(row)
        else:
            res[r] = ident if len(row) == 0 else select([row[i:i + 1] for i in range(len(row))], minimum, fault)[0]
    out = res.reshape([x.shape[d] for d in kept])
    if keep:
        out = out.reshape([1 if d in axes else x.shape[d] for d in range(x.ndim)])
    return out


def pool_windows(x, node, version):
    """MaxPool's windows: for every output index, the list of (flat index in X, value) in row-major
    order of the kernel offsets (padding excluded), and the output shape (spec/ops/maxpool.md)."""
    k = attr(node, "kernel_shape", None)
    sp = x.shape[2:]
    r = len(sp)
    s = attr(node, "strides", [1] * r)
    dil = attr(node, "dilations", [1] * r)
    pads = attr(node, "pads", [0] * (2 * r))
    auto = attr(node, "auto_pad", b"NOTSET")
    auto = auto.decode() if isinstance(auto, bytes) else auto
    ceil = attr(node, "ceil_mode", 0)
    pb, pe, out = list(pads[:r]), list(pads[r:]), []
    for d in range(r):
        e = (k[d] - 1) * dil[d] + 1
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            o = -(-sp[d] // s[d])
            total = max(0, (o - 1) * s[d] + e - sp[d])
            pb[d] = total // 2 if auto == "SAME_UPPER" else total - total // 2
            pe[d] = total - pb[d]
        else:
            if auto == "VALID":
                pb[d] = pe[d] = 0
            span = sp[d] + pb[d] + pe[d] - e
            o = span // s[d] + 1
            if ceil and auto == "NOTSET" and span % s[d] and o * s[d] < sp[d] + pb[d]:
                o += 1
        out.append(o)
    return k, s, dil, pb, out


def maxpool(x, node, version, outputs, fault):
    k, s, dil, pb, out = pool_windows(x, node, version)
    order = attr(node, "storage_order", 0)
    if fault == "indices-order":
        order = 1 - order
    sp = x.shape[2:]
    planes = x.shape[0] * x.shape[1]
    plane = int(np.prod(sp))
    xf = x.reshape(planes, plane)
    y = np.empty((planes,) + tuple(out), x.dtype)
    ind = np.empty((planes,) + tuple(out), np.int64)
    for p in range(planes):
        for o in itertools.product(*[range(n) for n in out]):
            members, positions, indices = [], [], []
            for q in itertools.product(*[range(n) for n in k]):
                xd = [o[d] * s[d] - pb[d] + q[d] * dil[d] for d in range(len(sp))]
                if all(0 <= xd[d] < sp[d] for d in range(len(sp))):
                    flat = int(np.ravel_multi_index(xd, sp))
                    col = sum(xd[d] * int(np.prod(sp[:d])) for d in range(len(sp)))
                    members.append(xf[p, flat])
                    indices.append(p * plane + (col if order else flat))
                elif fault == "pad-zero":
                    members.append(np.zeros((), x.dtype)[()])
                    indices.append(-1)
            v = np.array(members, x.dtype)
            if fault == "numpy":
                h = int(np.argmax(v))
                y[(p,) + o] = np.max(v)
            else:
                h = position(v, False, False, "none" if fault in ("pad-zero", "indices-order") else fault)
                y[(p,) + o] = v[h]
            ind[(p,) + o] = indices[h]
    shape = x.shape[:2] + tuple(out)
    res = [y.reshape(shape)]
    if outputs > 1:
        res.append(ind.reshape(shape))
    return res


def run(model, feeds, fault):
    version = version_of(model)
    values = dict(feeds)
    for t in model.graph.initializer:
        values.setdefault(t.name, numpy_helper.to_array(t))
    node = model.graph.node[0]
    ins = [values[n] if n else None for n in node.input]
    op = node.op_type
    if fault == "ftz":
        ins = [flush(x) if x is not None else None for x in ins]
        fault = "none"
    minimum = op in ("Min", "ReduceMin", "ArgMin")
    if op in ("Max", "Min"):
        shape = np.broadcast_shapes(*[x.shape for x in ins])
        xs = [np.broadcast_to(x, shape) for x in ins]
        if fault == "numpy":
            out = xs[0].copy()
            for x in xs[1:]:
                out = (np.minimum if minimum else np.maximum)(out, x)
        else:
            out = select(xs, minimum, fault)
        return [out]
    if op in ("ReduceMax", "ReduceMin"):
        if version >= 18:
            axes = list(ins[1]) if len(ins) > 1 and ins[1] is not None and len(ins[1]) else None
            if axes is None and attr(node, "noop_with_empty_axes", 0):
                return [ins[0]]
        else:
            axes = attr(node, "axes", None)
        return [reduce(ins[0], axes, attr(node, "keepdims", 1), minimum, fault)]
    if op in ("ArgMax", "ArgMin"):
        x = ins[0]
        axis = attr(node, "axis", 0)
        axis = axis + x.ndim if axis < 0 else axis
        last = attr(node, "select_last_index", 0) == 1
        moved = np.moveaxis(x, axis, -1)
        flat = moved.reshape(-1, x.shape[axis])
        h = np.array([position(row, minimum, last, fault) for row in flat], np.int64).reshape(moved.shape[:-1])
        return [np.expand_dims(h, axis) if attr(node, "keepdims", 1) else h]
    if op == "Relu":
        x = ins[0]
        zero = np.zeros((), x.dtype)
        if fault == "numpy":
            return [np.maximum(x, zero)]
        if fault == "nan-ignored":
            return [np.where(x > 0, x, zero)]
        return [select([x, np.broadcast_to(zero, x.shape)], False, fault)]
    if op == "Clip":
        x = ins[0]
        info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
        lo = ins[1] if len(ins) > 1 and ins[1] is not None else None
        hi = ins[2] if len(ins) > 2 and ins[2] is not None else None
        if version < 11:
            lo, hi = attr(node, "min", None), attr(node, "max", None)
            lo = np.array(lo if lo is not None else np.finfo(np.float32).min).astype(x.dtype)
            hi = np.array(hi if hi is not None else np.finfo(np.float32).max).astype(x.dtype)
        if fault == "numpy":
            return [np.clip(x, lo, hi)]
        lo = np.array(info.min, x.dtype) if lo is None else lo
        hi = np.array(info.max, x.dtype) if hi is None else hi
        if fault == "nan-ignored":  # C: if (x < lo) x = lo; if (x > hi) x = hi; a NaN bound compares false
            y = np.where(x < lo, lo, x)
            return [np.where(y > hi, hi, y)]
        lo_, hi_ = np.broadcast_to(lo, x.shape), np.broadcast_to(hi, x.shape)
        return [pick(pick(x, lo_, False, fault), hi_, True, fault)]
    if op == "MaxPool":
        return maxpool(ins[0], node, version, len([o for o in node.output if o]), fault)
    if op == "GlobalMaxPool":
        return [reduce(ins[0], list(range(2, ins[0].ndim)), 1, False, fault)]
    if op == "Hardmax":
        x = ins[0]
        axis = attr(node, "axis", -1 if version >= 13 else 1)
        axis = axis + x.ndim if axis < 0 else axis
        moved = np.moveaxis(x, axis, -1) if version >= 13 else x.reshape(int(np.prod(x.shape[:axis])), -1)
        flat = moved.reshape(-1, moved.shape[-1])
        y = np.zeros_like(flat)
        for r in range(flat.shape[0]):
            y[r, position(flat[r], False, False, fault)] = 1
        y = y.reshape(moved.shape)
        return [np.moveaxis(y, -1, axis) if version >= 13 else y.reshape(x.shape)]
    raise SystemExit(f"faulty_iut.py: operator {op} is not in this IUT")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in FAULTS:
        raise SystemExit(__doc__)
    fault, golden, iut = sys.argv[1:]
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
                break
            feeds[t.name or fed[k]] = numpy_helper.to_array(t)
        else:
            out_dir = os.path.join(iut, os.path.basename(case))
            os.makedirs(out_dir, exist_ok=True)
            with np.errstate(all="ignore"):
                outs = run(model, feeds, fault)
            for j, y in enumerate(outs):
                y = np.asarray(y).astype(numpy_helper.to_array(onnx.load_tensor(os.path.join(case, f"output_{j}.pb"))).dtype)
                with open(os.path.join(out_dir, f"output_{j}.pb"), "wb") as f:
                    f.write(numpy_helper.from_array(y, model.graph.output[j].name).SerializeToString())
            written += 1
    print(f"faulty_iut.py: {fault}: wrote the outputs of {written} case(s) to {iut}")


if __name__ == "__main__":
    main()
