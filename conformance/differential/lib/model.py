"""Executable models used to classify differential results, written from the catalogue/spec clauses
and from measurements of onnxruntime 1.30 CPU -- independent of sonnx-ref's C++ code.

  spec_*  : what spec/ defines ([Max.float.formula], [ReduceMax.float.formula], [Hardmax.float.formula]...).
            Used to check that sonnx-ref's side of a disagreement is the spec value, so that a bug in
            sonnx-ref can never be "explained" by a divergence clause.
  ort_*   : what ORT 1.30 CPU does, one switch per divergence clause (see README.md, "Measured facts").
            With every switch off an ort_* model equals the spec model.

Values travel as numpy arrays of the case's storage type (bfloat16 = uint16 bits); comparisons use
the exact numeric value (float64 holds every float16/bfloat16/float value exactly; doubles compare as
doubles), so nothing here rounds or quiets a NaN.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

import numpy as np

from onnxcase import FLOATS, FLOAT_BITS, bits_view, contig, from_bits, is_nan_bits, storage, to_float64


# ------------------------------------------------------------------------------- element views

class View:
    """Numeric view of a tensor: values for ordering, NaN mask, negative-zero mask."""

    def __init__(self, dtype: str, arr: np.ndarray):
        self.dtype = dtype
        self.arr = arr
        if dtype in FLOATS:
            with np.errstate(invalid="ignore"):  # casting a signalling NaN is not an error here
                self.val = arr.astype(np.float64) if dtype == "double" else to_float64(dtype, arr)
            self.nan = is_nan_bits(dtype, arr)
            width = FLOAT_BITS[dtype][0].itemsize * 8
            self.neg0 = (bits_view(dtype, arr).astype(np.uint64) == np.uint64(1 << (width - 1)))
        elif dtype == "bool":
            self.val = arr.astype(np.int64)
            self.nan = np.zeros(arr.shape, bool)
            self.neg0 = self.nan
        else:
            self.val = arr  # integers compare exactly in their own type
            self.nan = np.zeros(arr.shape, bool)
            self.neg0 = self.nan


def greater(b: View, a: View, idx_b=..., idx_a=...) -> np.ndarray:
    """b > a under [Common.order.total] (NaN excluded by the callers): -0 < +0."""
    vb, va = b.val[idx_b], a.val[idx_a]
    return (vb > va) | ((vb == va) & a.neg0[idx_a] & ~b.neg0[idx_b])


def max_of(dtype: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """[Common.order.max] elementwise: a if a is NaN; else b if b is NaN; else the greater; a on ties."""
    va, vb = View(dtype, a), View(dtype, b)
    take_b = ~va.nan & (vb.nan | greater(vb, va))
    return np.where(take_b, b, a)


def ieee_gt(dtype: str, b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """b > a as the hardware compares (NaN compares false, -0 == +0)."""
    return View(dtype, b).val > View(dtype, a).val


# ----------------------------------------------------------------------------------------- Max

def broadcast_all(inputs: Sequence[np.ndarray]) -> List[np.ndarray]:
    """[Common.broadcast.map]; numpy's broadcasting is the same index map."""
    return list(np.broadcast_arrays(*inputs))


def spec_max(dtype: str, inputs: Sequence[np.ndarray]) -> np.ndarray:
    """[Max.float.formula] / [Max.int.formula]: fold max_of in m order."""
    xs = broadcast_all(inputs)
    y = np.array(xs[0], copy=True)
    for x in xs[1:]:
        y = max_of(dtype, y, x)
    return contig(y)


def max_tie_zero_mask(dtype: str, inputs: Sequence[np.ndarray]) -> np.ndarray:
    """Elements where no input is NaN, the maximum is a zero and both +0 and -0 occur among the
    inputs: the only places where [Max.div.ort-signed-zero] lets ORT return -0 instead of +0."""
    if dtype not in FLOATS:
        return np.zeros(np.broadcast_shapes(*[x.shape for x in inputs]), bool)
    vs = [View(dtype, x) for x in broadcast_all(inputs)]
    anynan = np.logical_or.reduce([v.nan for v in vs])
    vals = np.stack([v.val for v in vs])
    mx = np.max(np.where(np.stack([v.nan for v in vs]), -np.inf, vals), axis=0)
    has_neg0 = np.logical_or.reduce([v.neg0 for v in vs])
    has_pos0 = np.logical_or.reduce([(v.val == 0) & ~v.neg0 for v in vs])
    return ~anynan & (mx == 0) & has_neg0 & has_pos0


# ----------------------------------------------------------------------------------- ReduceMax

def normalise_axes(axes: Optional[Sequence[int]], rank: int) -> List[int]:
    return sorted({a + rank if a < 0 else a for a in axes})


def reduce_layout(x: np.ndarray, axes: List[int]):
    """Rows = output elements (kept axes row-major), columns = R(j) in row-major order."""
    r = x.ndim
    kept = [a for a in range(r) if a not in axes]
    t = np.transpose(x, kept + axes)
    kshape = [x.shape[a] for a in kept]
    n_rows = int(np.prod(kshape, dtype=np.int64)) if kshape else 1
    n_cols = int(np.prod([x.shape[a] for a in axes], dtype=np.int64)) if axes else 1
    return contig(t).reshape(n_rows, n_cols), kshape


def empty_value(dtype: str):
    """[ReduceMax.float.empty] -Inf, [ReduceMax.int.empty] type minimum, [ReduceMax.bool.empty] False."""
    if dtype in FLOATS:
        neg_inf = {"float16": 0xFC00, "bfloat16": 0xFF80, "float": 0xFF800000, "double": 0xFFF0000000000000}
        return from_bits(dtype, [neg_inf[dtype]])[0]
    if dtype == "bool":
        return False
    return np.iinfo(storage(dtype)).min


def reduce_output_shape(shape, axes: List[int], keepdims: int):
    if keepdims:
        return [1 if a in axes else d for a, d in enumerate(shape)]
    return [d for a, d in enumerate(shape) if a not in axes]


def resolve_reduce(case) -> Optional[List[int]]:
    """The reduced axes of a ReduceMax case, normalised; None = identity ([ReduceMax.axes.noop])."""
    x = case.inputs[0]
    axes = case.attrs.get("axes") if case.opset < 18 else case.axes
    if not axes:
        if case.opset >= 18 and case.attrs.get("noop_with_empty_axes", 0) == 1:
            return None
        return list(range(x.ndim))  # [ReduceMax.axes.default]
    return normalise_axes(axes, x.ndim)


def _reduce(dtype: str, x: np.ndarray, axes: Optional[List[int]], keepdims: int, fold) -> np.ndarray:
    if axes is None:
        return x.copy()
    rows, _ = reduce_layout(x, axes)
    out = np.empty(rows.shape[0], dtype=storage(dtype))
    if rows.shape[1] == 0:
        out[:] = empty_value(dtype)
    else:
        out[:] = fold(dtype, rows)
    return out.reshape(reduce_output_shape(x.shape, axes, keepdims))


def _fold_spec(dtype, rows):
    """[ReduceMax.float.formula]: max_of folded in row-major order of R(j)."""
    acc = rows[:, 0].copy()
    for k in range(1, rows.shape[1]):
        acc = max_of(dtype, acc, rows[:, k])
    return acc


def spec_reducemax(case) -> np.ndarray:
    return _reduce(case.dtype, case.inputs[0], resolve_reduce(case), case.attrs.get("keepdims", 1), _fold_spec)


def ort_reduce_allowed(case, peer: np.ndarray) -> np.ndarray:
    """Per output element, whether `peer` is a value ORT 1.30 CPU may return under the divergence
    clauses (measured, README.md):
      [ReduceMax.div.ort-signed-zero]  R(j) without NaN whose maximum is a zero: +0 or -0;
      [ReduceMax.div.ort-nan]          R(j) holding a NaN: a NaN, or any element of R(j) (ORT's
                                       SIMD max drops or keeps a NaN depending on its lane).
    Elsewhere: the spec value (NaN = any NaN)."""
    dtype = case.dtype
    axes = resolve_reduce(case)
    x = case.inputs[0]
    spec = spec_reducemax(case)
    if axes is None or peer.shape != spec.shape:
        return np.zeros(spec.shape, bool) if peer.shape != spec.shape else np.ones(spec.shape, bool)
    rows, _ = reduce_layout(x, axes)
    p = View(dtype, contig(peer).reshape(-1))
    s = View(dtype, contig(spec).reshape(-1))
    ok = (p.nan & s.nan) | (~p.nan & ~s.nan & (p.val == s.val) & (p.neg0 == s.neg0))
    if dtype not in FLOATS or rows.shape[1] == 0:
        return ok.reshape(spec.shape)
    nan_t, zero_t = row_triggers(dtype, rows)
    # ±0: same value, either sign
    ok |= zero_t & ~nan_t & ~p.nan & (p.val == 0)
    # NaN rows: NaN, or bitwise one of the row's elements
    pb = bits_view(dtype, contig(peer).reshape(-1))
    member = (bits_view(dtype, rows) == pb[:, None]).any(axis=1)
    ok |= nan_t & (p.nan | member)
    return ok.reshape(spec.shape)


def reduce_triggers(case):
    """Per output element: (R(j) holds a NaN, R(j)'s non-NaN maximum is a zero met with both signs)."""
    axes = resolve_reduce(case)
    x = case.inputs[0]
    if axes is None:
        z = np.zeros(x.shape, bool)
        return z, z
    rows, _ = reduce_layout(x, axes)
    shape = reduce_output_shape(x.shape, axes, case.attrs.get("keepdims", 1))
    nan, zero = row_triggers(case.dtype, rows)
    return nan.reshape(shape), zero.reshape(shape)


def row_triggers(dtype: str, rows: np.ndarray):
    if dtype not in FLOATS or rows.shape[1] == 0:
        z = np.zeros(rows.shape[0], bool)
        return z, z
    v = View(dtype, rows)
    nan = v.nan.any(axis=1)
    mx = np.max(np.where(v.nan, -np.inf, v.val), axis=1)
    has_neg0 = (v.neg0 & ~v.nan).any(axis=1)
    has_pos0 = ((v.val == 0) & ~v.neg0 & ~v.nan).any(axis=1)
    return nan, (mx == 0) & has_neg0 & has_pos0


# ------------------------------------------------------------------------------------- Hardmax

def hardmax_rows(case):
    """(rows [N, D], back) -- v13: one axis moved last ([Hardmax.float.formula]); v1/v11: the 2-D
    coercion [Hardmax.coerce]. `back(rows)` restores the input layout."""
    x = case.inputs[0]
    r = x.ndim
    axis = case.attrs.get("axis", -1 if case.opset >= 13 else 1)
    axis = axis + r if axis < 0 else axis
    if case.opset >= 13:
        perm = [a for a in range(r) if a != axis] + [axis]
        t = contig(np.transpose(x, perm))
        rows = t.reshape(-1, x.shape[axis]) if x.size else t.reshape(0, x.shape[axis])
        inv = np.argsort(perm)
        return rows, lambda y: contig(np.transpose(y.reshape(t.shape), inv))
    n = int(np.prod(x.shape[:axis], dtype=np.int64))
    d = int(np.prod(x.shape[axis:], dtype=np.int64))
    return x.reshape(n, d), lambda y: y.reshape(x.shape)


def one_hot(dtype: str, n: int, d: int, h: np.ndarray) -> np.ndarray:
    """[Hardmax.float.values]: exactly 1 and +0 of the type; h = -1 writes no 1 (ORT's NaN row)."""
    one = {"float16": 0x3C00, "bfloat16": 0x3F80, "float": 0x3F800000, "double": 0x3FF0000000000000}[dtype]
    y = np.zeros((n, d), dtype=storage(dtype))
    rows = np.nonzero(h >= 0)[0]
    y[rows, h[rows]] = from_bits(dtype, [one])[0]
    return y


def _argmax_spec(dtype, rows):
    """[Hardmax.float.first-max] + [Hardmax.float.nan]: first NaN, else first maximum (total order)."""
    n, d = rows.shape
    h = np.zeros(n, dtype=np.int64)
    best = rows[:, 0].copy()
    for j in range(1, d):
        vb, vx = View(dtype, best), View(dtype, rows[:, j])
        take = ~vb.nan & (vx.nan | greater(vx, vb))
        h = np.where(take, j, h)
        best = np.where(take, rows[:, j], best)
    return h


def ort_hardmax_allowed(case, peer: np.ndarray) -> np.ndarray:
    """Per element, whether `peer` is what ORT 1.30 CPU may output (measured, README.md): ORT takes
    the row maximum m with its SIMD max and writes the 1 at the first j with x[j] == m (hardware ==).
      rows without NaN ([Hardmax.div.ort-signed-zero]): m is the maximum up to the sign of a zero,
          so the 1 is at the first j with x[j] == max (a -0 before a +0 takes it);
      rows with NaN ([Hardmax.div.ort-nan]): m is a NaN (then the row has no 1 at all) or some
          element of the row: the row is all +0, or one-hot at a j holding a non-NaN value that
          occurs nowhere before j (under ==).
    Whole rows are judged; the mask is per element (every element of a bad row is False)."""
    dtype = case.dtype
    rows, back = hardmax_rows(case)
    n, d = rows.shape
    if n == 0 or d == 0:
        return np.ones(case.inputs[0].shape, bool)
    prow, _ = hardmax_rows(Case_like(case, peer))
    spec_rows, _ = hardmax_rows(Case_like(case, spec_hardmax(case)))
    v = View(dtype, rows)
    nan_t, _ = row_triggers(dtype, rows)
    pv = View(dtype, prow)
    zeros_row = np.all((pv.val == 0) & ~pv.neg0, axis=1)
    ones = (pv.val == 1)
    one_hot_row = (ones.sum(axis=1) == 1) & np.all(ones | ((pv.val == 0) & ~pv.neg0), axis=1)
    j = np.argmax(ones, axis=1)
    xj = v.val[np.arange(n), j]
    xj_nan = v.nan[np.arange(n), j]
    first_occurrence = np.array([not np.any(v.val[i, :j[i]] == xj[i]) for i in range(n)])
    # NaN-free rows: exactly one 1 at the first j with x[j] == max
    mx = np.max(np.where(v.nan, -np.inf, v.val), axis=1)
    first_max = np.argmax(v.val == mx[:, None], axis=1)
    ok_row = np.where(nan_t,
                      zeros_row | (one_hot_row & ~xj_nan & first_occurrence),
                      one_hot_row & (j == first_max))
    spec_ok = np.all(View(dtype, spec_rows).val == pv.val, axis=1) & np.all(View(dtype, spec_rows).neg0 == pv.neg0, axis=1)
    ok_row |= spec_ok
    return back(np.repeat(ok_row[:, None], d, axis=1)).astype(bool)


class Case_like:
    """The same case with another tensor in place of its input (to lay a peer output out in rows)."""
    def __init__(self, case, x):
        self.inputs, self.opset, self.attrs, self.dtype = [x], case.opset, case.attrs, case.dtype


def _hardmax(case, argmax) -> np.ndarray:
    rows, back = hardmax_rows(case)
    n, d = rows.shape
    if n == 0 or d == 0:
        return case.inputs[0].copy()  # [Hardmax.empty]
    return back(one_hot(case.dtype, n, d, argmax(case.dtype, rows)))


def spec_hardmax(case) -> np.ndarray:
    return _hardmax(case, _argmax_spec)


def hardmax_triggers(case):
    """Per output element (broadcast over its row): (row holds a NaN, row's non-NaN max is a ±0 tie)."""
    rows, back = hardmax_rows(case)
    n, d = rows.shape
    if n == 0 or d == 0:
        z = np.zeros(case.inputs[0].shape, bool)
        return z, z
    nan, zero = row_triggers(case.dtype, rows)
    return (back(np.repeat(nan[:, None], d, axis=1)).astype(bool),
            back(np.repeat(zero[:, None], d, axis=1)).astype(bool))


# ----------------------------------------------------------------------------------- dispatch

def spec_output(case) -> np.ndarray:
    if case.op == "Max":
        return spec_max(case.dtype, case.inputs)
    if case.op == "ReduceMax":
        return spec_reducemax(case)
    return spec_hardmax(case)


# ===================================================================== the second family
# Min, ReduceMin, ArgMax, ArgMin, Relu, Clip, MaxPool, GlobalMaxPool: the spec (spec/ops/*.md; the
# min order is the dual of the max order, [Common.order.min]) and the measured onnxruntime models.

def min_of(dtype: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """[Common.order.min] elementwise: a if a is NaN; else b if b is NaN; else the lesser; a on ties."""
    va, vb = View(dtype, a), View(dtype, b)
    take_b = ~va.nan & (vb.nan | greater(va, vb))
    return np.where(take_b, b, a)


def spec_min(dtype: str, inputs: Sequence[np.ndarray]) -> np.ndarray:
    """[Min.float.formula] / [Min.int.formula]: fold min_of in input order."""
    xs = broadcast_all(inputs)
    y = np.array(xs[0], copy=True)
    for x in xs[1:]:
        y = min_of(dtype, y, x)
    return contig(y)


def min_tie_zero_mask(dtype: str, inputs: Sequence[np.ndarray]) -> np.ndarray:
    """No NaN, the minimum is a zero, both +0 and -0 occur (the dual of max_tie_zero_mask)."""
    if dtype not in FLOATS:
        return np.zeros(np.broadcast_shapes(*[x.shape for x in inputs]), bool)
    vs = [View(dtype, x) for x in broadcast_all(inputs)]
    anynan = np.logical_or.reduce([v.nan for v in vs])
    vals = np.stack([v.val for v in vs])
    mn = np.min(np.where(np.stack([v.nan for v in vs]), np.inf, vals), axis=0)
    has_neg0 = np.logical_or.reduce([v.neg0 for v in vs])
    has_pos0 = np.logical_or.reduce([(v.val == 0) & ~v.neg0 for v in vs])
    return ~anynan & (mn == 0) & has_neg0 & has_pos0


def full_value(dtype: str):
    """[ReduceMin.float.empty] +Inf, [ReduceMin.int.empty] the type's maximum, [ReduceMin.bool.empty] True."""
    if dtype in FLOATS:
        inf = {"float16": 0x7C00, "bfloat16": 0x7F80, "float": 0x7F800000, "double": 0x7FF0000000000000}
        return from_bits(dtype, [inf[dtype]])[0]
    if dtype == "bool":
        return True
    return np.iinfo(storage(dtype)).max


def _fold_min(dtype, rows):
    acc = rows[:, 0].copy()
    for k in range(1, rows.shape[1]):
        acc = min_of(dtype, acc, rows[:, k])
    return acc


def reduce_with(dtype, x, axes, keepdims, fold, empty):
    if axes is None:
        return x.copy()
    rows, _ = reduce_layout(x, axes)
    out = np.empty(rows.shape[0], dtype=storage(dtype))
    if rows.shape[1] == 0:
        out[:] = empty
    else:
        out[:] = fold(dtype, rows)
    return out.reshape(reduce_output_shape(x.shape, axes, keepdims))


def spec_reducemin(case) -> np.ndarray:
    return reduce_with(case.dtype, case.inputs[0], resolve_reduce(case), case.attrs.get("keepdims", 1), _fold_min,
                       full_value(case.dtype))


def row_triggers_min(dtype: str, rows: np.ndarray):
    """Per row: (holds a NaN, the non-NaN minimum is a zero met with both signs)."""
    if dtype not in FLOATS or rows.shape[1] == 0:
        z = np.zeros(rows.shape[0], bool)
        return z, z
    v = View(dtype, rows)
    nan = v.nan.any(axis=1)
    mn = np.min(np.where(v.nan, np.inf, v.val), axis=1)
    has_neg0 = (v.neg0 & ~v.nan).any(axis=1)
    has_pos0 = ((v.val == 0) & ~v.neg0 & ~v.nan).any(axis=1)
    return nan, (mn == 0) & has_neg0 & has_pos0


def arg_rows(case):
    """ArgMax / ArgMin: X with the axis moved last, as rows; and the output shape."""
    x = case.inputs[0]
    r = x.ndim
    axis = case.attrs.get("axis", 0)
    axis = axis + r if axis < 0 else axis
    perm = [a for a in range(r) if a != axis] + [axis]
    t = contig(np.transpose(x, perm))
    rows = t.reshape(-1, x.shape[axis])
    keep = case.attrs.get("keepdims", 1)
    shape = [1 if a == axis else d for a, d in enumerate(x.shape)] if keep else \
        [d for a, d in enumerate(x.shape) if a != axis]
    return rows, shape


def _positions(case, rows, nan_first: bool):
    """Per row, the spec's position: [ArgMax.float.nan] the first (last) NaN; else [ArgMax.float.formula]
    the first (last with [ArgMax.last-index]) element bitwise equal to the extreme of the total order."""
    dtype = case.dtype
    last = case.attrs.get("select_last_index", 0) == 1
    fold = _fold_spec if case.op == "ArgMax" else _fold_min
    ext = fold(dtype, rows)
    if dtype in FLOATS:
        eq = bits_view(dtype, rows) == bits_view(dtype, ext)[:, None]
        v = View(dtype, rows)
        eq = np.where(v.nan.any(axis=1)[:, None], v.nan, eq)
    else:
        eq = rows == ext[:, None]
    d = rows.shape[1]
    return np.where(last, d - 1 - np.argmax(eq[:, ::-1], axis=1), np.argmax(eq, axis=1)).astype(np.int64)


def spec_arg(case) -> np.ndarray:
    rows, shape = arg_rows(case)
    if rows.shape[0] == 0:
        return np.zeros(shape, np.int64)
    return _positions(case, rows, True).reshape(shape)


def ort_arg(case) -> np.ndarray:
    """onnxruntime's measured ArgMax / ArgMin: a running comparison of IEEE numbers from the first
    element, taking a later element when it compares strictly better (>= / <= with
    select_last_index = 1); a NaN compares false, -0 == +0."""
    rows, shape = arg_rows(case)
    last = case.attrs.get("select_last_index", 0) == 1
    v = View(case.dtype, rows).val if case.dtype in FLOATS else rows
    n, d = rows.shape
    best = np.zeros(n, np.int64)
    for j in range(1, d):
        cur = v[np.arange(n), best]
        if case.op == "ArgMax":
            take = (v[:, j] >= cur) if last else (v[:, j] > cur)
        else:
            take = (v[:, j] <= cur) if last else (v[:, j] < cur)
        best = np.where(take, j, best)
    return best.reshape(shape)


def spec_relu(case) -> np.ndarray:
    """[Relu.float.formula] max_of(X[i], +0), [Relu.int.formula]."""
    x = case.inputs[0]
    return contig(max_of(case.dtype, x, np.zeros_like(x)))


def finite_extremes(dtype: str):
    """[Clip.bounds.default] item 1: the least and greatest finite values of T."""
    if dtype in FLOATS:
        lo = {"float16": 0xFBFF, "bfloat16": 0xFF7F, "float": 0xFF7FFFFF, "double": 0xFFEFFFFFFFFFFFFF}[dtype]
        hi = {"float16": 0x7BFF, "bfloat16": 0x7F7F, "float": 0x7F7FFFFF, "double": 0x7FEFFFFFFFFFFFFF}[dtype]
        return from_bits(dtype, [lo])[0], from_bits(dtype, [hi])[0]
    info = np.iinfo(storage(dtype))
    return storage(dtype).type(info.min), storage(dtype).type(info.max)


def f32_to(dtype: str, value: float):
    """[Clip.bounds.convert] a (non-NaN) binary32 attribute in T; NaN attributes only for float."""
    f = np.float32(value)
    if dtype == "float":
        return f
    if dtype == "double":
        return np.float64(f)
    with np.errstate(over="ignore"):
        return f.astype(np.float16)


def clip_bounds(case, ort_default_inf: bool = False):
    """(lo, hi, lo_given, hi_given) of a Clip case as scalars of the storage type."""
    dtype = case.dtype
    if case.opset < 11:
        lo = case.attrs.get("min", float(np.float32(-3.4028234663852886e38)))
        hi = case.attrs.get("max", float(np.float32(3.4028234663852886e38)))
        if case.attrs.get("min_bits") is not None:
            raise AssertionError("bit attributes not used")
        return f32_to(dtype, lo), f32_to(dtype, hi), "min" in case.attrs, "max" in case.attrs
    names = case.node_inputs if case.node_inputs is not None else case.input_names()
    given = {}
    k = 1
    for pos, n in enumerate(names[1:], start=1):
        if n:
            given[pos] = case.inputs[k].reshape(-1)[0]
            k += 1
    dlo, dhi = finite_extremes(dtype)
    if ort_default_inf:
        dlo, dhi = from_bits(dtype, [{"float16": 0xFC00, "bfloat16": 0xFF80}[dtype]])[0], \
            from_bits(dtype, [{"float16": 0x7C00, "bfloat16": 0x7F80}[dtype]])[0]
    return given.get(1, dlo), given.get(2, dhi), 1 in given, 2 in given


def spec_clip(case) -> np.ndarray:
    """[Clip.float.formula] min_of(max_of(X[i], lo), hi) [Clip.float.nan] [Clip.bounds.crossed]."""
    x = case.inputs[0]
    lo, hi, _, _ = clip_bounds(case)
    los = np.full(x.shape, lo, dtype=x.dtype)
    his = np.full(x.shape, hi, dtype=x.dtype)
    return contig(min_of(case.dtype, max_of(case.dtype, x, los), his))


def ort_clip(case, default_inf: bool) -> np.ndarray:
    """onnxruntime's measured Clip: t = lo if X[i] < lo else X[i]; then hi if t > hi else t, IEEE
    comparisons (a NaN compares false, -0 == +0): [Clip.div.ort-signed-zero], [Clip.div.ort-nan-bound];
    default_inf: absent bounds are -Inf / +Inf ([Clip.div.ort-default-inf])."""
    x = case.inputs[0]
    lo, hi, _, _ = clip_bounds(case, default_inf)
    los = np.full(x.shape, lo, dtype=x.dtype)
    his = np.full(x.shape, hi, dtype=x.dtype)
    vx, vl, vh = View(case.dtype, x), View(case.dtype, los), View(case.dtype, his)
    t = np.where(vx.val < vl.val, los, x)
    return contig(np.where(View(case.dtype, t).val > vh.val, his, t))


# ------------------------------------------------------------------------------------- MaxPool

class PoolRefused(Exception):
    pass


def pool_geometry(shape, a, same_pad_with_kernel=False, valid_ceil=False):
    """[MaxPool.shape] [MaxPool.shape.ceil] [MaxPool.pads.auto] and the window checks; returns
    (k, s, dil, pb, O) or raises PoolRefused(ID). same_pad_with_kernel: onnxruntime's SAME_* pads
    ([MaxPool.div.ort-same-dilation]); valid_ceil: onnxruntime's VALID with ceil_mode
    ([MaxPool.div.ort-valid-ceil])."""
    ell = len(shape) - 2
    D = list(shape[2:])
    k = a["kernel_shape"]
    s = a.get("strides", [1] * ell)
    dil = a.get("dilations", [1] * ell)
    pads = a.get("pads")
    auto = a.get("auto_pad", "NOTSET")
    ceil = a.get("ceil_mode", 0)
    e = [(k[d] - 1) * dil[d] + 1 for d in range(ell)]
    pb, pe, O = [0] * ell, [0] * ell, [0] * ell
    for d in range(ell):
        if auto == "NOTSET" and pads is not None:
            pb[d], pe[d] = pads[d], pads[ell + d]
            if pb[d] >= e[d] or pe[d] >= e[d]:
                raise PoolRefused("MaxPool.err.pads-kernel")
        if auto.startswith("SAME"):
            O[d] = -(-D[d] // s[d])
            P = max(0, (O[d] - 1) * s[d] + (k[d] if same_pad_with_kernel else e[d]) - D[d])
            small, big = P // 2, P - P // 2
            pb[d], pe[d] = (small, big) if auto == "SAME_UPPER" else (big, small)
            if same_pad_with_kernel:
                O[d] = (D[d] + P - e[d]) // s[d] + 1 if D[d] + P >= e[d] else 0
        else:
            span = D[d] + pb[d] + pe[d] - e[d]
            if span < 0:
                raise PoolRefused("MaxPool.err.window")
            f = span // s[d]
            up = ceil == 1 and (auto == "NOTSET" or valid_ceil)
            O[d] = f + 2 if up and span % s[d] and (f + 1) * s[d] < D[d] + pb[d] else f + 1
        for o in range(O[d]):
            if not any(0 <= o * s[d] - pb[d] + q * dil[d] < D[d] for q in range(k[d])):
                raise PoolRefused("MaxPool.err.window")
    return k, s, dil, pb, O


def pool_windows(shape, geom):
    """Per output index (row-major), the members of its window as flat row-major offsets in X, in
    the row-major order of the kernel offsets ([MaxPool.window], [MaxPool.window.padding])."""
    k, s, dil, pb, O = geom
    N, C, D = shape[0], shape[1], list(shape[2:])
    ell = len(D)
    plane = int(np.prod(D, dtype=np.int64))
    strides_x = [int(np.prod(D[d + 1:], dtype=np.int64)) for d in range(ell)]
    offs = list(np.ndindex(*k))
    out = []
    for n in range(N):
        for c in range(C):
            for o in np.ndindex(*O):
                members = []
                for q in offs:
                    pos = [o[d] * s[d] - pb[d] + q[d] * dil[d] for d in range(ell)]
                    if all(0 <= pos[d] < D[d] for d in range(ell)):
                        members.append((n * C + c) * plane + sum(p * st for p, st in zip(pos, strides_x)))
                out.append(members)
    return out, (N, C) + tuple(O)


def storage_order_index(shape, flat: int) -> int:
    """[MaxPool.indices.storage-order] the column-major-within-the-plane index of a row-major offset."""
    D = list(shape[2:])
    plane = int(np.prod(D, dtype=np.int64))
    nc, rest = divmod(flat, plane)
    pos = list(np.unravel_index(rest, D)) if D else []
    return nc * plane + sum(int(p) * int(np.prod(D[:d], dtype=np.int64)) for d, p in enumerate(pos))


def maxpool_eval(case, geom):
    """(Y, I) over the windows of `geom`: [MaxPool.float.formula] the fold of max_of,
    [MaxPool.indices] the first member bitwise equal to Y."""
    x = case.inputs[0]
    windows, shape = pool_windows(x.shape, geom)
    flat = contig(x).reshape(-1)
    y = np.empty(len(windows), dtype=x.dtype)
    idx = np.zeros(len(windows), np.int64)
    for j, members in enumerate(windows):
        vals = flat[members]
        acc = vals[0:1]
        for t in range(1, len(members)):
            acc = max_of(case.dtype, acc, vals[t:t + 1])
        y[j] = acc[0]
        if case.dtype in FLOATS:
            first = int(np.argmax(bits_view(case.dtype, vals) == bits_view(case.dtype, acc)[0]))
        else:
            first = int(np.argmax(vals == acc[0]))
        idx[j] = members[first]
    if case.attrs.get("storage_order", 0) == 1:
        idx = np.array([storage_order_index(x.shape, int(i)) for i in idx], np.int64)
    return y.reshape(shape), idx.reshape(shape), windows


def spec_maxpool(case):
    y, i, _ = maxpool_eval(case, pool_geometry(case.inputs[0].shape, case.attrs))
    return y, i


def spec_globalmaxpool(case) -> np.ndarray:
    """[GlobalMaxPool.float.formula] the fold over the spatial set, [GlobalMaxPool.empty] -Inf."""
    x = case.inputs[0]
    n, c = x.shape[0], x.shape[1]
    rows = contig(x).reshape(n * c, int(np.prod(x.shape[2:], dtype=np.int64)))
    out = np.empty(n * c, dtype=x.dtype)
    if rows.shape[1] == 0:
        out[:] = empty_value(case.dtype)
    elif rows.shape[0]:
        out[:] = _fold_spec(case.dtype, rows)
    return out.reshape([n, c] + [1] * (x.ndim - 2))


def spec_outputs(case) -> List[np.ndarray]:
    """Every output of the case (MaxPool with Indices: two)."""
    if case.op == "MaxPool":
        y, i = spec_maxpool(case)
        return [y, i][:case.n_outputs]
    return [spec_output(case)]


_SPEC = {
    "Min": lambda c: spec_min(c.dtype, c.inputs), "ReduceMin": spec_reducemin, "ArgMax": spec_arg,
    "ArgMin": spec_arg, "Relu": spec_relu, "Clip": spec_clip, "MaxPool": lambda c: spec_maxpool(c)[0],
    "GlobalMaxPool": spec_globalmaxpool,
}
_spec_output_first_family = spec_output


# ------------------------------------------------------------------ issue 33: data movement (wt-gather)
# spec/ops/concat.md, transpose.md, gather.md, slice.md on the storage arrays: numpy's concatenate,
# transpose, take and basic slicing move elements without arithmetic, so they move the bits exactly;
# the indices, axes and bounds are normalised and clamped here, from the clauses.

def spec_concat(case) -> np.ndarray:
    r = case.inputs[0].ndim
    axis = case.attrs.get("axis", 1)  # [Concat.v1] default 1
    return np.concatenate(case.inputs, axis=axis + r if axis < 0 else axis)  # [Concat.formula]


def spec_transpose(case) -> np.ndarray:
    x = case.inputs[0]
    perm = case.attrs.get("perm", list(range(x.ndim - 1, -1, -1)))  # [Transpose.perm.default]
    return np.transpose(x, perm).copy()  # [Transpose.formula] (a copy keeps rank 0)


def spec_gather(case) -> np.ndarray:
    x, idx = case.inputs[0], case.params[0][1].astype(np.int64)
    axis = case.attrs.get("axis", 0)
    k = axis + x.ndim if axis < 0 else axis
    idx = np.where(idx < 0, idx + x.shape[k], idx)  # [Gather.index.normalise]
    return np.take(x, idx, axis=k)  # [Gather.formula]


def slice_lists(case):
    """(starts, ends, axes, steps) of a Slice case ([Slice.params] [Slice.axes.default])."""
    if case.opset < 10:
        s, e = case.attrs["starts"], case.attrs["ends"]
        return s, e, case.attrs.get("axes", list(range(len(s)))), [1] * len(s)
    p = {n: [int(v) for v in a] for n, a in case.params}
    n = len(p["starts"])
    return p["starts"], p["ends"], p.get("axes", list(range(n))), p.get("steps", [1] * n)


def spec_slice(case, ort_int_max_end: bool = False) -> np.ndarray:
    """ort_int_max_end: onnxruntime's reading instead ([Slice.div.ort-int-max-end]): an end equal to
    INT32_MAX or INT64_MAX means "through the first element" when the step is negative."""
    x = case.inputs[0]
    r = x.ndim
    index = [slice(None)] * r
    for s, e, a, p in zip(*slice_lists(case)):
        k = a + r if a < 0 else a
        d = x.shape[k]
        if ort_int_max_end and p < 0 and e in (2**31 - 1, 2**63 - 1):
            e = -1 - d  # becomes -1 below: before the first element
        s, e = (s + d if s < 0 else s), (e + d if e < 0 else e)  # [Slice.bounds]
        if p > 0:
            s, e = min(max(s, 0), d), min(max(e, 0), d)
        else:
            s, e = min(max(s, 0), d - 1), min(max(e, -1), d - 1)
        index[k] = slice(s, None if e < 0 else e, p) if d > 0 else slice(0, 0, 1)
    return x[tuple(index)].copy()  # [Slice.formula]


MOVEMENT = ("Concat", "Transpose", "Gather", "Slice")
_SPEC.update({"Concat": spec_concat, "Transpose": spec_transpose, "Gather": spec_gather, "Slice": spec_slice})


def spec_output(case) -> np.ndarray:  # noqa: F811 - extends the dispatch above to the second family
    if case.op in _SPEC:
        return _SPEC[case.op](case)
    return _spec_output_first_family(case)


def _trunc_div(a: int, b: int) -> int:
    """C++ integer division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def ort_pool_geometry(shape, a):
    """onnxruntime 1.30's MaxPool geometry (measured, spec/ops/maxpool.md divergences): SAME_* pads
    from the kernel without its dilation and without max(0, .) ([MaxPool.div.ort-same-dilation],
    [MaxPool.div.ort-same-negative-pad]), halves truncated towards zero; the output size
    (D + pb + pe - e) / s + 1 in C++ integer division, rounded up under ceil_mode, VALID included
    ([MaxPool.div.ort-valid-ceil]), with the drop rule of [MaxPool.shape.ceil]. Windows may be
    empty ([MaxPool.div.ort-empty-window]). Returns (k, s, dil, pb, O, negative_pad)."""
    ell = len(shape) - 2
    D = list(shape[2:])
    k = a["kernel_shape"]
    s = a.get("strides", [1] * ell)
    dil = a.get("dilations", [1] * ell)
    pads = a.get("pads")
    auto = a.get("auto_pad", "NOTSET")
    ceil = a.get("ceil_mode", 0)
    pb, O, negative = [0] * ell, [0] * ell, False
    for d in range(ell):
        if auto.startswith("SAME"):
            legacy = -(-D[d] // s[d])
            P = (legacy - 1) * s[d] + k[d] - D[d]
            negative |= P < 0
            pb[d] = _trunc_div(P, 2) if auto == "SAME_UPPER" else _trunc_div(P + 1, 2)
            total = P
        else:
            pb[d] = pads[d] if (auto == "NOTSET" and pads) else 0
            total = (pads[d] + pads[ell + d]) if (auto == "NOTSET" and pads) else 0
        num = D[d] + total - dil[d] * (k[d] - 1) - 1
        O[d] = _trunc_div(num, s[d]) + 1
        if ceil == 1 and num % s[d] != 0 and num > 0:
            O[d] += 1
            if (O[d] - 1) * s[d] >= D[d] + pb[d]:
                O[d] -= 1
        O[d] = max(O[d], 0)
    return k, s, dil, pb, O, negative


def maxpool_eval_loose(case, geom):
    """maxpool_eval over windows that may be empty: an empty window gets Y = None, I = -1."""
    x = case.inputs[0]
    windows, shape = pool_windows(x.shape, geom[:5])
    flat = contig(x).reshape(-1)
    y = np.zeros(len(windows), dtype=x.dtype)
    idx = np.full(len(windows), -1, np.int64)
    empty = np.zeros(len(windows), bool)
    for j, members in enumerate(windows):
        if not members:
            empty[j] = True
            continue
        vals = flat[members]
        acc = vals[0:1]
        for t in range(1, len(members)):
            acc = max_of(case.dtype, acc, vals[t:t + 1])
        y[j] = acc[0]
        eq = (bits_view(case.dtype, vals) == bits_view(case.dtype, acc)[0]) if case.dtype in FLOATS else (vals == acc[0])
        idx[j] = members[int(np.argmax(eq))]
        if case.attrs.get("storage_order", 0) == 1:
            idx[j] = storage_order_index(x.shape, int(idx[j]))
    return y.reshape(shape), idx.reshape(shape), windows, empty


# =========================================================== the computing operators (accuracy)
# Conv, Gemm, MatMul compute: their float elements are judged by spec/common/accuracy.md, not bit
# for bit. This section transcribes that page and the terms of spec/ops/conv.md, gemm.md and
# matmul.md, independently of sonnx-ref's C++ (src/core/accuracy.cpp is not read here):
#   [Acc.terms]       the terms t_k of an element, f_k factors each, e_k = (f_k - 1) + c_k roundings,
#                     D = (n - 1) + max e_k; a factor 1 or -1 from an attribute is no factor;
#   [Acc.ideal]       s = sum of the exact products (integers scaled by a power of two, exact);
#   [Acc.bound]       B = theta(D) S + U, theta(D) = (1 + v)^D - 1, v = u + u^2 (1 + u);
#   [Acc.bound.underflow]  U = (1 + theta(n - 1)) (sum lambda_k + (n - 1) eta), eta = eta_T,
#                     lambda_k = 0 (e_k = 0), e_k eta ((1 + v) M_k)^(e_k - 1);
#   [Acc.overflow]    +Inf when S+ + theta S + U >= Omega or P >= Omega, -Inf likewise with S-,
#                     a NaN when both; P = (1 + v) M_k^2 + eta over the three-factor terms;
#   [Acc.nonfinite]   a NaN factor or inf * 0: NaN only; infinite terms of both signs: NaN; of one
#                     sign: that infinity (and a NaN when the finite terms can overflow to the other
#                     one, or a three-factor term holds the infinity);
#   [Acc.zero]        a zero conforms when 0 is within B of s, whatever its sign;
#   [Acc.int]         integers: the sum modulo 2^w, bit for bit.
# Every comparison is exact: s, S, S+, S- are integers at the scale 2^K of the case's type, theta(D)
# is (1 + v)^D - 1 computed exactly and rounded up at 2^-400 (a relative excess below 2^-340), and
# B is compared with |r - s| as a Fraction. The model is judged itself by lib/selftest.py (its
# mutations: a dropped bias, padding as terms, alpha ignored, beta ignored, a bound halved).

from fractions import Fraction  # noqa: E402
import dataclasses as _dc  # noqa: E402
import math  # noqa: E402

COMPUTING = ("Conv", "Gemm", "MatMul", "BatchNormalization")
# The model under mutation (lib/selftest.py only): "" the spec; "drop-bias", "read-c-beta0",
# "padded-terms", "ignore-alpha", "ignore-beta", "half-bound" the mutants the classifier must notice.
MUTATION = ""
INT_TYPES_COMPUTING = ("int32", "int64", "uint32", "uint64")

# (p, emin, emax, log2 eta_T): spec/common/accuracy.md, Notation.
_FMT = {"float16": (11, -14, 15, -24), "bfloat16": (8, -126, 127, -133),
        "float": (24, -126, 127, -149), "double": (53, -1022, 1023, -1074)}


class Fmt:
    def __init__(self, dtype: str):
        p, emin, emax, leta = _FMT[dtype]
        self.dtype, self.p, self.emin, self.emax = dtype, p, emin, emax
        self.u = Fraction(1, 2 ** p)
        self.v = self.u + self.u * self.u * (1 + self.u)          # [Acc.hyp] 4.
        self.eta = Fraction(1, 2 ** -leta)                        # eta_bar = eta_T ([Acc.bound.underflow])
        self.lam = Fraction(1, 2 ** -emin)                        # lambda_T
        self.omega = (2 - self.u) * Fraction(2) ** emax           # Omega_T = (2 - 2^-p) 2^emax
        # every tensor value of T, and every binary32 attribute, is an integer times 2^-149 (2^-1074 for double)
        self.tscale = 1074 if dtype == "double" else 149
        self.K = 2 * self.tscale + 149                            # the scale of a term of at most 3 factors


_FMTS = {}


def fmt_of(dtype: str) -> Fmt:
    if dtype not in _FMTS:
        _FMTS[dtype] = Fmt(dtype)
    return _FMTS[dtype]


_THETA = {}
_THETA_G = 400


def theta(dtype: str, D: int) -> Fraction:
    """theta(D) = (1 + v)^D - 1, exactly, rounded up to a multiple of 2^-400 (cached)."""
    key = (dtype, D)
    if key not in _THETA:
        if D <= 0:
            _THETA[key] = Fraction(0)
        else:
            f = fmt_of(dtype)
            den = 2 ** (3 * f.p)                                  # v = V / 2^(3p)
            V = f.v * den
            assert V.denominator == 1
            num = pow(den + int(V), D) - pow(den, D)              # theta = num / den^D
            shift = 3 * f.p * D
            up = -((-num << _THETA_G) >> shift)                    # ceil(theta * 2^G)
            _THETA[key] = Fraction(up, 1 << _THETA_G)
    return _THETA[key]


def exact_int(x: float, scale: int) -> int:
    """x * 2^scale as an exact integer (x finite, a multiple of 2^-scale)."""
    n, d = float(x).as_integer_ratio()
    t = d.bit_length() - 1
    assert d == 1 << t and t <= scale, (x, scale)
    return n << (scale - t)


def values_of(dtype: str, arr: np.ndarray) -> np.ndarray:
    """The exact values of a float tensor as float64 (NaN bits not kept)."""
    with np.errstate(invalid="ignore"):
        return to_float64(dtype, np.asarray(arr)).astype(np.float64)


def representable(dtype: str, a: float) -> bool:
    """Is the binary32 attribute value a a value of T ([Acc.terms]: otherwise its conversion rounds once)?"""
    if dtype in ("float", "double") or not math.isfinite(a):
        return True
    return round_exact(Fraction(a), dtype) == a


def round_exact(fr: Fraction, dtype: str) -> float:
    """fl_T(fr): the rational fr rounded to nearest, ties to even, in T, as a float (+-inf on overflow;
    a zero result carries the sign of fr)."""
    f = fmt_of(dtype)
    if fr == 0:
        return 0.0
    neg = fr < 0
    a = -fr if neg else fr
    if a >= f.omega:
        return -math.inf if neg else math.inf
    n, d = a.numerator, a.denominator
    e = n.bit_length() - d.bit_length()                          # floor(log2 a) is e or e - 1
    if (n << max(0, -e)) < (d << max(0, e)):
        e -= 1
    q = max(e, f.emin) - (f.p - 1)                                # the spacing of T near a: 2^q
    num, den = (n << -q, d) if q < 0 else (n, d << q)
    m, rem = divmod(num, den)
    if 2 * rem > den or (2 * rem == den and m % 2 == 1):
        m += 1
    v = math.ldexp(m, q)
    return -v if neg else v


@_dc.dataclass
class Group:
    """Terms of one kind for every element: P elements, up to n terms each. vals: the tensor factors,
    float64 arrays of shape (P, n); mask (P, n): the term exists; scalars: attribute factors
    (value, is a factor ([Acc.terms]: not for 1 or -1), rounds on conversion to T); mk: the factor
    bound M_k of each element's terms (P,), used when e >= 2."""
    name: str
    vals: List[np.ndarray]
    mask: np.ndarray
    scalars: List[tuple] = _dc.field(default_factory=list)
    mk: Optional[np.ndarray] = None

    @property
    def f(self) -> int:
        return len(self.vals) + sum(1 for _, counted, _ in self.scalars if counted)

    @property
    def e(self) -> int:
        return (self.f - 1) + sum(1 for _, counted, conv in self.scalars if counted and conv)


@_dc.dataclass
class Allowed:
    """What conforms at one element: a finite r with |r - s| <= B (when fin), +Inf, -Inf, a NaN."""
    fin: bool
    pinf: bool
    ninf: bool
    nan: bool
    s: Fraction = Fraction(0)
    B: Fraction = Fraction(0)
    n: int = 0
    D: int = 0
    S: Fraction = Fraction(0)
    all_neg_zero: bool = False
    why: str = ""

    def accepts(self, r: float) -> bool:
        if math.isnan(r):
            return self.nan
        if math.isinf(r):
            return self.pinf if r > 0 else self.ninf
        return self.fin and abs(Fraction(r) - self.s) <= self.B

    def text(self) -> str:
        kinds = ([f"finite within {_fr(self.B, 3)} of {_fr(self.s, 9)}"] if self.fin else []) + \
                (["+Inf"] if self.pinf else []) + (["-Inf"] if self.ninf else []) + (["NaN"] if self.nan else [])
        return " or ".join(kinds) + f" (n={self.n}, D={self.D}, {self.why})"


def _fr(x: Fraction, digits: int) -> str:
    """A rational in decimal, also beyond the binary64 range."""
    if x == 0:
        return "0"
    e = (abs(x.numerator).bit_length() - x.denominator.bit_length())
    if abs(e) < 1000:
        return f"{float(x):.{digits}g}"
    import decimal
    with decimal.localcontext() as ctx:
        ctx.prec = digits + 5
        return f"{decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator):.{digits - 1}e}"


def _terms_info(dtype: str, groups: List[Group], P: int):
    """Per element: (nan term, +inf term, -inf term, inf in a three-factor term) from the float64
    values; and the finite terms' exact values (integers at scale 2^K), sign of zero terms."""
    f = fmt_of(dtype)
    K = f.K
    out = []
    for g in groups:
        vals = [np.broadcast_to(v, g.mask.shape) for v in g.vals]
        with np.errstate(invalid="ignore"):
            anynan = np.zeros(g.mask.shape, bool)
            anyinf = np.zeros(g.mask.shape, bool)
            anyzero = np.zeros(g.mask.shape, bool)
            neg = np.zeros(g.mask.shape, bool)
            for v in vals:
                anynan |= np.isnan(v)
                anyinf |= np.isinf(v)
                anyzero |= (v == 0)
                neg ^= np.signbit(v)
            for a, _, _ in g.scalars:
                anynan |= math.isnan(a)
                anyinf |= math.isinf(a)
                anyzero |= (a == 0)
                neg ^= math.copysign(1.0, a) < 0
        nan_t = g.mask & (anynan | (anyinf & anyzero))
        inf_t = g.mask & anyinf & ~nan_t
        fin_t = g.mask & ~anynan & ~anyinf
        out.append(dict(g=g, vals=vals, nan=nan_t, inf=inf_t, fin=fin_t, neg=neg, zero=anyzero))
    # exact values of the finite terms
    for t in out:
        g = t["g"]
        scale_sc = sum(149 for _ in g.scalars)
        scal = 1
        for a, _, _ in g.scalars:
            if math.isfinite(a):
                scal *= exact_int(a, 149)
        rest = K - f.tscale * len(g.vals) - scale_sc            # every term brought to the scale 2^K
        ints = np.zeros(g.mask.shape, dtype=object)
        ints[...] = 0
        idx = np.nonzero(t["fin"])
        if len(idx[0]):
            prod = np.full(len(idx[0]), scal << rest, dtype=object)
            for v in t["vals"]:
                col = v[idx]
                prod = prod * np.array([exact_int(x, f.tscale) for x in col.tolist()], dtype=object)
            ints[idx] = prod
        t["ints"] = ints
    return out


def judge_groups(dtype: str, groups: List[Group], P: int, mutation: str = "") -> List[Allowed]:
    """[Acc.verdict] per element of the sum of the groups' terms: what conforms."""
    f = fmt_of(dtype)
    K = f.K
    scaleK = Fraction(1, 1 << K)
    info = _terms_info(dtype, groups, P)
    res = []
    for j in range(P):
        n = 0
        emax = None
        nan_term = pinf = ninf = inf3 = False
        s = Splus = Sminus = 0
        lam = Fraction(0)
        Pbound = Fraction(0)
        all_neg0 = True
        n_fin = 0
        emax_fin = None
        for t in info:
            g = t["g"]
            mask = g.mask[j]
            cnt = int(mask.sum())
            if not cnt:
                continue
            n += cnt
            e = g.e
            emax = e if emax is None else max(emax, e)
            if t["nan"][j].any():
                nan_term = True
            infs = t["inf"][j]
            if infs.any():
                negs = t["neg"][j][infs]
                pinf |= bool((~negs).any())
                ninf |= bool(negs.any())
                if g.f == 3:
                    inf3 = True
            fin = t["fin"][j]
            nf = int(fin.sum())
            if nf:
                n_fin += nf
                emax_fin = e if emax_fin is None else max(emax_fin, e)
                vals = t["ints"][j][fin]
                pos = sum(int(x) for x in vals if x > 0)
                negv = -sum(int(x) for x in vals if x < 0)
                Splus += pos
                Sminus += negv
                zero_terms = (vals == 0)
                if (vals != 0).any() or (zero_terms & ~t["neg"][j][fin]).any():
                    all_neg0 = False
                if e >= 1:
                    mk = Fraction(g.mk[j]) if (g.mk is not None and e >= 2) else Fraction(1)
                    lam += nf * e * f.eta * ((1 + f.v) * mk) ** (e - 1)
                if g.f == 3:
                    mk = Fraction(g.mk[j]) if g.mk is not None else Fraction(1)
                    Pbound = max(Pbound, (1 + f.v) * mk * mk + f.eta)
            if t["nan"][j].any() or infs.any():
                all_neg0 = False
        s = Splus - Sminus
        S = Splus + Sminus

        def bound(nn, ee, SS):
            D = 0 if nn == 0 else (nn - 1) + ee
            th = theta(dtype, D)
            U = (1 + theta(dtype, max(nn - 1, 0))) * (lam + max(nn - 1, 0) * f.eta) if nn else Fraction(0)
            if mutation == "half-bound":
                th, U = th / 2, U / 2
            return D, th * SS * scaleK + U
        if nan_term:
            res.append(Allowed(False, False, False, True, n=n, why="a NaN factor or inf*0 [Acc.nonfinite] 1"))
            continue
        if pinf and ninf:
            res.append(Allowed(False, False, False, True, n=n, why="+Inf and -Inf terms [Acc.nonfinite] 2"))
            continue
        D, B = bound(n_fin, emax_fin or 0, S)
        Sp, Sm = Splus * scaleK, Sminus * scaleK
        thS = theta(dtype, D) * S * scaleK
        if mutation == "half-bound":
            thS = thS / 2
        U = B - thS
        over_p = Sp + thS + U >= f.omega or Pbound >= f.omega
        over_m = Sm + thS + U >= f.omega or Pbound >= f.omega
        if pinf or ninf:
            other = over_m if pinf else over_p
            res.append(Allowed(False, pinf, ninf, other or inf3, n=n, D=D,
                               why="infinite terms of one sign [Acc.nonfinite] 3"))
            continue
        D, B = bound(n, emax or 0, S)
        res.append(Allowed(True, over_p, over_m, over_p and over_m, s=Fraction(s) * scaleK, B=B, n=n, D=D,
                           S=S * scaleK, all_neg_zero=(n > 0 and all_neg0),
                           why="[Acc.bound]" + (" [Acc.overflow]" if over_p or over_m else "")))
    return res


# ---------------------------------------------------------------------------------- Conv terms

class ConvRefused(Exception):
    pass


def conv_geometry(xshape, wshape, a):
    """[Conv.shape]: (k, s, dil, pb, O) of MaxPool's geometry with ceil_mode 0 and k the spatial
    shape of W; SAME_* from the effective kernel; NOTSET / VALID need e <= D + pb + pe ([Conv.err.window])."""
    ell = len(xshape) - 2
    D = list(xshape[2:])
    k = list(wshape[2:])
    s = list(a.get("strides", [1] * ell))
    dil = list(a.get("dilations", [1] * ell))
    pads = a.get("pads")
    auto = a.get("auto_pad", "NOTSET")
    pb, O = [0] * ell, [0] * ell
    for d in range(ell):
        e = (k[d] - 1) * dil[d] + 1
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            O[d] = -(-D[d] // s[d])
            P = max(0, (O[d] - 1) * s[d] + e - D[d])
            pb[d] = P // 2 if auto == "SAME_UPPER" else P - P // 2
        else:
            b, en = (pads[d], pads[ell + d]) if (auto == "NOTSET" and pads) else (0, 0)
            if e > D[d] + b + en:
                raise ConvRefused("Conv.err.window")
            pb[d] = b
            O[d] = (D[d] + b + en - e) // s[d] + 1
    return k, s, dil, pb, O


def conv_groups(case, geom=None, padded_terms=False, mutation=""):
    """The terms of [Conv.window] / [Conv.float.formula] for every element of Y (row-major):
    X[n, g(m) C_g + c', x(o, q)] * W[m, c', q] for c' ascending then q in row-major order, the kernel
    offsets inside X only ([Conv.window.padding]); B[m] last. padded_terms: the zero-padded copy's
    terms instead (a padded position is the term (+0) * W[m, c', q]: [Conv.div.ort-padded-inf]).
    Returns (groups, P, out_shape)."""
    dtype = case.dtype
    x = values_of(dtype, case.inputs[0])
    w = values_of(dtype, case.inputs[1])
    bias = values_of(dtype, case.inputs[2]) if len(case.inputs) > 2 else None
    if mutation == "drop-bias":
        bias = None
    if mutation == "padded-terms":
        padded_terms = True
    k, s, dil, pb, O = (geom or conv_geometry(x.shape, w.shape, case.attrs))[:5]
    N, C = x.shape[0], x.shape[1]
    M, Cg = w.shape[0], w.shape[1]
    G = int(case.attrs.get("group", 1))
    Mg = M // G if G else 0
    D = list(x.shape[2:])
    ell = len(D)
    Ot = int(np.prod(O, dtype=np.int64)) if O else 1
    Kt = int(np.prod(k, dtype=np.int64)) if k else 1
    idx = np.full((Ot, Kt), -1, np.int64)
    inside = np.zeros((Ot, Kt), bool)
    for oi, o in enumerate(np.ndindex(*O)):
        for qi, q in enumerate(np.ndindex(*k)):
            pos = [o[d] * s[d] - pb[d] + q[d] * dil[d] for d in range(ell)]
            if all(0 <= pos[d] < D[d] for d in range(ell)):
                inside[oi, qi] = True
                idx[oi, qi] = int(np.ravel_multi_index(pos, D)) if ell else 0
    xs = x.reshape(N, C, -1) if x.size else np.zeros((N, C, max(1, int(np.prod(D, dtype=np.int64)))))
    P = N * M * Ot
    n = Cg * Kt
    xv = np.zeros((N, M, Ot, Cg, Kt))
    wv = np.zeros((N, M, Ot, Cg, Kt))
    safe = np.where(inside, idx, 0)
    for m in range(M):
        g = m // Mg if Mg else 0
        chans = [g * Cg + c for c in range(Cg)]
        for ci, c in enumerate(chans):
            if N and xs.shape[-1]:
                xv[:, m, :, ci, :] = np.where(inside[None], xs[:, c, :][:, safe], 0.0)
            wv[:, m, :, ci, :] = w[m, ci].reshape(-1)[None, None, :]
    mask = np.broadcast_to(inside[None, None, :, None, :], (N, M, Ot, Cg, Kt))
    if padded_terms:
        mask = np.ones_like(mask)
    groups = [Group("products", [xv.reshape(P, n), wv.reshape(P, n)], np.ascontiguousarray(mask).reshape(P, n))]
    if bias is not None:
        bv = np.broadcast_to(bias[None, :, None], (N, M, Ot)).reshape(P, 1)
        groups.append(Group("bias", [bv], np.ones((P, 1), bool)))
    return groups, P, [N, M] + list(O)


def conv_padded_nonfinite(case, geom=None):
    """Per element of Y: a kernel offset in the padding whose weight W[m, c', q] is an infinity or a
    NaN, for some c' (the trigger of [Conv.div.ort-padded-inf])."""
    dtype = case.dtype
    x = case.inputs[0]
    w = values_of(dtype, case.inputs[1])
    k, s, dil, pb, O = (geom or conv_geometry(x.shape, w.shape, case.attrs))[:5]
    N, M, Cg = x.shape[0], w.shape[0], w.shape[1]
    D = list(x.shape[2:])
    ell = len(D)
    bad_w = ~np.isfinite(w.reshape(M, Cg, -1)).all(axis=1)           # (M, Kt)
    res = np.zeros((N, M) + tuple(O), bool)
    for o in np.ndindex(*O):
        for qi, q in enumerate(np.ndindex(*k)):
            pos = [o[d] * s[d] - pb[d] + q[d] * dil[d] for d in range(ell)]
            if not all(0 <= pos[d] < D[d] for d in range(ell)):
                res[(slice(None), slice(None)) + o] |= bad_w[:, qi][None, :]
    return res.reshape(-1)


# ---------------------------------------------------------------------------------- Gemm terms

def gemm_abc(case):
    """A', B' ([Gemm.trans]) and C broadcast to (M, N) ([Gemm.c]), as float64 values (or the storage
    ints for integer types); C None when absent."""
    dtype = case.dtype
    conv = (lambda a: values_of(dtype, a)) if dtype in FLOATS else (lambda a: np.asarray(a))
    a = conv(case.inputs[0])
    b = conv(case.inputs[1])
    if case.attrs.get("transA", 0):
        a = a.T
    if case.attrs.get("transB", 0):
        b = b.T
    Mm, Nn = a.shape[0], b.shape[1]
    c = None
    if len(case.inputs) > 2 and case.inputs[2] is not None:
        c = np.broadcast_to(conv(case.inputs[2]), (Mm, Nn))
    return a, b, c


def gemm_groups(case, mutation=""):
    """[Gemm.float.formula]: the terms alpha * A'[i, k] * B'[k, j] (k ascending; alpha no factor when
    1 or -1, a factor otherwise, 0 included ([Gemm.scalars])) and beta * C[i, j] (none when beta = 0
    or C is absent); M_ij = max(1, |alpha|, max_k |A'[i, k]|, max_k |B'[k, j]|)."""
    dtype = case.dtype
    a, b, c = gemm_abc(case)
    alpha = float(np.float32(case.attrs.get("alpha", 1.0)))
    beta = float(np.float32(case.attrs.get("beta", 1.0)))
    if mutation == "ignore-alpha":
        alpha = 1.0
    if mutation == "ignore-beta":
        beta = 1.0
    Mm, K = a.shape
    Nn = b.shape[1]
    P = Mm * Nn
    av = np.broadcast_to(a[:, None, :], (Mm, Nn, K)).reshape(P, K)
    bv = np.broadcast_to(b.T[None, :, :], (Mm, Nn, K)).reshape(P, K)
    sc = [(alpha, alpha not in (1.0, -1.0), not representable(dtype, alpha))]
    with np.errstate(invalid="ignore"):
        ra = np.max(np.abs(np.where(np.isfinite(a), a, 0)), axis=1) if K else np.zeros(Mm)
        cb = np.max(np.abs(np.where(np.isfinite(b), b, 0)), axis=0) if K else np.zeros(Nn)
    mk = np.maximum(np.maximum(1.0, abs(alpha)), np.maximum(ra[:, None], cb[None, :])).reshape(P)
    groups = [Group("products", [av, bv], np.ones((P, K), bool), sc, mk)]
    use_c = c is not None and (beta != 0 or mutation == "read-c-beta0")
    if use_c:
        cv = np.ascontiguousarray(c).reshape(P, 1)
        with np.errstate(invalid="ignore"):
            mkc = np.maximum(np.maximum(1.0, abs(beta)), np.abs(np.where(np.isfinite(cv[:, 0]), cv[:, 0], 0)))
        groups.append(Group("C", [cv], np.ones((P, 1), bool),
                            [(beta, beta not in (1.0, -1.0), not representable(dtype, beta))], mkc))
    return groups, P, [Mm, Nn]


# -------------------------------------------------------------------------------- MatMul terms

def matmul_operands(case):
    """[MatMul.shape]: A as (..., M, K), B as (..., K, N) broadcast over the batch; the output shape."""
    dtype = case.dtype
    conv = (lambda t: values_of(dtype, t)) if dtype in FLOATS else (lambda t: np.asarray(t))
    a, b = conv(case.inputs[0]), conv(case.inputs[1])
    a1, b1 = a.ndim == 1, b.ndim == 1
    a2 = a[None, :] if a1 else a
    b2 = b[:, None] if b1 else b
    batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    A = np.broadcast_to(a2, tuple(batch) + a2.shape[-2:])
    Bm = np.broadcast_to(b2, tuple(batch) + b2.shape[-2:])
    out = list(batch) + ([] if a1 else [a2.shape[-2]]) + ([] if b1 else [b2.shape[-1]])
    return A, Bm, out


def matmul_groups(case, mutation=""):
    """[MatMul.float.formula]: A[b, i, k] * B[b, k, j], k ascending."""
    A, Bm, out = matmul_operands(case)
    batch = A.shape[:-2]
    Mm, K = A.shape[-2:]
    Nn = Bm.shape[-1]
    nb = int(np.prod(batch, dtype=np.int64)) if batch else 1
    A3 = A.reshape(nb, Mm, K)
    B3 = Bm.reshape(nb, K, Nn)
    P = nb * Mm * Nn
    av = np.broadcast_to(A3[:, :, None, :], (nb, Mm, Nn, K)).reshape(P, K)
    bv = np.broadcast_to(np.swapaxes(B3, 1, 2)[:, None, :, :], (nb, Mm, Nn, K)).reshape(P, K)
    return [Group("products", [av, bv], np.ones((P, K), bool))], P, out


# ------------------------------------------------------------------- AveragePool, GlobalAveragePool
# spec/ops/averagepool.md, globalaveragepool.md and [Acc.divisor]: Y = (1/d) sum of the window's members,
# the terms x/d one factor each, e_k = c_d, M_k = 1, D = (n - 1) + c_d, S = sum |x| / d; [Acc.overflow]
# with the partial sums taken d times. The windows: MaxPool's geometry ([AveragePool.window]); d: the
# members (count_include_pad 0) or the kernel positions inside [-pb, D + pe) (1) ([AveragePool.divisor]).
# ORT's own geometry (SAME_* pads from the undilated kernel, negative SAME pads, VALID with ceil_mode;
# measured for MaxPool, ort_pool_geometry) gives [AveragePool.div.ort-geometry].
AVERAGES = ("AveragePool", "GlobalAveragePool")


def divisor_roundings(dtype: str, d: int) -> int:
    """[Acc.divisor] c_d = 0 for d = 1, else 1 + max([1/d not in T], 2 [d not in T])."""
    if d <= 1:
        return 0
    f = fmt_of(dtype)
    recip_in = d & (d - 1) == 0 and Fraction(1, d) >= f.eta
    d_in = round_exact(Fraction(d), dtype) == d
    return 1 + max(0 if recip_in else 1, 0 if d_in else 2)


def average_geometry(shape, a, ort=False):
    """(k, s, dil, pb, pe, O) of an AveragePool node, the spec's ([MaxPool.shape], [MaxPool.shape.ceil],
    [MaxPool.pads.auto]) or onnxruntime's (ort=True). Raises PoolRefused(AveragePool.err.*) for the
    window clauses ([AveragePool.err.window], [AveragePool.err.pads-kernel], [AveragePool.err.empty])."""
    ell = len(shape) - 2
    D = list(shape[2:])
    k = list(a["kernel_shape"])
    s = list(a.get("strides", [1] * ell))
    dil = list(a.get("dilations", [1] * ell))
    pads = a.get("pads")
    auto = a.get("auto_pad", "NOTSET")
    if ort:
        k, s, dil, pb, O, _ = ort_pool_geometry(shape, a)
        pe = []
        for d in range(ell):
            if auto.startswith("SAME"):
                total = (-(-D[d] // s[d]) - 1) * s[d] + k[d] - D[d]
            else:
                total = (pads[d] + pads[ell + d]) if (auto == "NOTSET" and pads) else 0
            pe.append(total - pb[d])
        return k, s, dil, list(pb), pe, list(O)
    e = [(k[d] - 1) * dil[d] + 1 for d in range(ell)]
    pb, pe, O = [0] * ell, [0] * ell, [0] * ell
    for d in range(ell):
        if auto.startswith("SAME"):
            O[d] = -(-D[d] // s[d])
            P = max(0, (O[d] - 1) * s[d] + e[d] - D[d])
            pb[d] = P // 2 if auto == "SAME_UPPER" else P - P // 2
            pe[d] = P - pb[d]
            continue
        if auto == "NOTSET" and pads is not None:
            pb[d], pe[d] = pads[d], pads[ell + d]
        span = D[d] + pb[d] + pe[d] - e[d]
        if span < 0:
            raise PoolRefused("AveragePool.err.window")
        f = span // s[d]
        up = a.get("ceil_mode", 0) == 1 and auto == "NOTSET"
        O[d] = f + 2 if up and span % s[d] and (f + 1) * s[d] < D[d] + pb[d] else f + 1
    for d in range(ell):
        if pb[d] >= e[d] or pe[d] >= e[d]:
            raise PoolRefused("AveragePool.err.pads-kernel")
    if a.get("count_include_pad", 0) != 1:
        for d in range(ell):
            for o in range(O[d]):
                if not any(0 <= o * s[d] - pb[d] + q * dil[d] < D[d] for q in range(k[d])):
                    raise PoolRefused("AveragePool.err.empty")
    return k, s, dil, pb, pe, O


def average_windows(case, ort=False, flip=False):
    """Per element of Y (row-major): the members (flat offsets in X, row-major order of the kernel
    offsets) and the divisor; and Y's shape. flip: the other count_include_pad (a faulty engine)."""
    x = case.inputs[0]
    shape = x.shape
    if case.op == "GlobalAveragePool":
        a = {"kernel_shape": list(shape[2:])}
    else:
        a = case.attrs
    cip = a.get("count_include_pad", 0) ^ (1 if flip else 0)
    k, s, dil, pb, pe, O = average_geometry(shape, a, ort)
    N, C, D = shape[0], shape[1], list(shape[2:])
    ell = len(D)
    plane = int(np.prod(D, dtype=np.int64))
    strides_x = [int(np.prod(D[d + 1:], dtype=np.int64)) for d in range(ell)]
    members, divisors = [], []
    for n in range(N):
        for c in range(C):
            for o in np.ndindex(*O):
                mem, padded = [], 0
                for q in np.ndindex(*k):
                    pos = [o[d] * s[d] - pb[d] + q[d] * dil[d] for d in range(ell)]
                    if all(0 <= pos[d] < D[d] for d in range(ell)):
                        mem.append((n * C + c) * plane + sum(p * st for p, st in zip(pos, strides_x)))
                    if all(-pb[d] <= pos[d] < D[d] + pe[d] for d in range(ell)):
                        padded += 1
                members.append(mem)
                divisors.append(padded if cip == 1 else len(mem))
    oshape = [N, C] + ([1] * ell if case.op == "GlobalAveragePool" else list(O))
    return members, divisors, oshape


def mean_allowed(dtype: str, xv: np.ndarray, members, divisors, mutation: str = "") -> List[Allowed]:
    """[Acc.verdict] of (1/d) sum over each window ([AveragePool.float.formula], [Acc.divisor])."""
    f = fmt_of(dtype)
    res = []
    for mem, d in zip(members, divisors):
        vals = [float(xv[i]) for i in mem]
        n = len(vals)
        if d == 0:  # no position at all: an engine's own geometry only (ORT's empty windows give 0)
            res.append(Allowed(True, False, False, False, s=Fraction(0), B=Fraction(0), n=0, why="d = 0"))
            continue
        nan = any(math.isnan(v) for v in vals)
        pinf = any(v == math.inf for v in vals)
        ninf = any(v == -math.inf for v in vals)
        fin = [Fraction(v) for v in vals if math.isfinite(v)]
        cd = divisor_roundings(dtype, d)
        Sp = sum((v for v in fin if v > 0), Fraction(0)) / d
        Sm = -sum((v for v in fin if v < 0), Fraction(0)) / d
        S = Sp + Sm
        sv = sum(fin, Fraction(0)) / d

        def bound(nn):
            if nn == 0:
                return 0, Fraction(0), Fraction(0)
            D = (nn - 1) + cd
            lam = nn * cd * f.eta * (1 + f.v) ** (cd - 1) if cd >= 1 else Fraction(0)
            U = (1 + theta(dtype, nn - 1)) * (lam + (nn - 1) * f.eta)
            th = theta(dtype, D)
            if mutation == "half-bound":
                th, U = th / 2, U / 2
            return D, th * S + U, th * S + U
        if nan:
            res.append(Allowed(False, False, False, True, n=n, why="a NaN member [Acc.nonfinite] 1"))
            continue
        if pinf and ninf:
            res.append(Allowed(False, False, False, True, n=n, why="+Inf and -Inf members [Acc.nonfinite] 2"))
            continue
        D, B, G = bound(len(fin))
        over_p = d * (Sp + G) >= f.omega   # [Acc.divisor] a partial sum of undivided members: d times
        over_m = d * (Sm + G) >= f.omega
        if pinf or ninf:
            other = over_m if pinf else over_p
            res.append(Allowed(False, pinf, ninf, other, n=n, D=D, why="infinite members of one sign [Acc.nonfinite] 3"))
            continue
        D, B, G = bound(n)
        all_neg0 = n > 0 and all(v == 0 and math.copysign(1.0, v) < 0 for v in vals)
        res.append(Allowed(True, over_p, over_m, over_p and over_m, s=sv, B=B, n=n, D=D, S=S, all_neg_zero=all_neg0,
                           why="[Acc.bound] [Acc.divisor]" + (" [Acc.overflow]" if over_p or over_m else "")))
    return res


def average_allowed(case, mutation="", ort=False):
    """(per-element Allowed list, output shape) of an AveragePool / GlobalAveragePool case; mutation
    "flip-cip": count_include_pad flipped (lib/selftest.py: a faulty engine the classifier must notice)."""
    members, divisors, shape = average_windows(case, ort=ort, flip=(mutation == "flip-cip"))
    return mean_allowed(case.dtype, values_of(case.dtype, case.inputs[0]).reshape(-1), members, divisors, mutation), shape


# ------------------------------------------------------------------------------ the judgement

def computed_groups(case, mutation="", geom=None, padded_terms=False):
    if case.op == "Conv":
        return conv_groups(case, geom, padded_terms, mutation)
    if case.op == "Gemm":
        return gemm_groups(case, mutation)
    return matmul_groups(case, mutation)


_ALLOWED_MEMO: dict = {}


def computed_allowed(case, mutation="", geom=None, padded_terms=False):
    """(per-element Allowed list, output shape) of a float Conv / Gemm / MatMul case. The last few
    are kept (keyed by the case object and the options): the classifier judges several outputs of one case."""
    key = (id(case), case.id, mutation, None if geom is None else repr(geom), padded_terms)
    if case.op == "BatchNormalization" and key not in _ALLOWED_MEMO:
        _ALLOWED_MEMO[key] = batchnorm_allowed(case, mutation)
    if key not in _ALLOWED_MEMO:
        if len(_ALLOWED_MEMO) > 16:
            _ALLOWED_MEMO.clear()
        if case.op in AVERAGES:  # [Acc.divisor]
            _ALLOWED_MEMO[key] = average_allowed(case, mutation, ort=geom == "ort")
            return _ALLOWED_MEMO[key]
        groups, P, shape = computed_groups(case, mutation, geom, padded_terms)
        _ALLOWED_MEMO[key] = (judge_groups(case.dtype, groups, P, mutation), shape)
    return _ALLOWED_MEMO[key]


def int_exact(case, mutation=""):
    """[Acc.int], [Gemm.int.formula], [MatMul.int.formula]: the exact sum modulo 2^w in T."""
    st = storage(case.dtype)
    w = st.itemsize * 8
    if case.op == "MatMul":
        A, Bm, out = matmul_operands(case)
        Ai = A.astype(object)
        Bi = Bm.astype(object)
        y = np.matmul(Ai, Bi) if A.shape[-1] else np.zeros(tuple(A.shape[:-1]) + (Bm.shape[-1],), dtype=object)
        y = np.asarray(y, dtype=object).reshape(out) if out else np.asarray(y, dtype=object).reshape([])
    else:
        a, b, c = gemm_abc(case)
        alpha = int(np.float32(case.attrs.get("alpha", 1.0)))
        beta = int(np.float32(case.attrs.get("beta", 1.0)))
        if mutation == "ignore-alpha":
            alpha = 1
        if mutation == "ignore-beta":
            beta = 1
        y = np.dot(a.astype(object), b.astype(object)) if a.shape[1] else np.zeros((a.shape[0], b.shape[1]), dtype=object)
        y = np.asarray(y, dtype=object) * alpha
        if c is not None and (beta != 0 or mutation == "read-c-beta0"):
            y = y + c.astype(object) * beta
    flat = [int(v) % (1 << w) for v in np.asarray(y, dtype=object).reshape(-1).tolist()]
    if np.iinfo(st).min < 0:
        flat = [v - (1 << w) if v >= (1 << (w - 1)) else v for v in flat]
    return np.array(flat, dtype=st).reshape(np.shape(y))


def computed_spec_output(case, mutation="") -> np.ndarray:
    """[Acc.run] what `run` writes: fl_T of the ideal; -0 when every term is -0, +0 for the empty sum;
    the canonical quiet NaN; the infinity of [Acc.nonfinite]; fl_T(s) under [Acc.overflow]."""
    dtype = case.dtype
    if dtype not in FLOATS:
        return int_exact(case, mutation)
    allowed, shape = computed_allowed(case, mutation)
    vals = []
    for al in allowed:
        if not al.fin:
            vals.append(math.inf if al.pinf and not al.ninf else -math.inf if al.ninf and not al.pinf else math.nan)
        elif al.s == 0:
            vals.append(-0.0 if al.all_neg_zero else 0.0)
        else:
            vals.append(round_exact(al.s, dtype))
    v = np.array(vals, dtype=np.float64).reshape(shape)
    return from_float64(dtype, v)


def from_float64(dtype: str, v: np.ndarray) -> np.ndarray:
    """Values of T held as float64 (exact) -> the storage type (canonical quiet NaN for a NaN)."""
    nan = np.isnan(v)
    if dtype == "bfloat16":
        bits = (v.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
        bits[nan] = 0x7FC0
        return bits
    out = v.astype(storage(dtype))
    canon = {"float16": 0x7E00, "float": 0x7FC00000, "double": 0x7FF8000000000000}[dtype]
    out[nan] = from_bits(dtype, [canon])[0]
    return out


def judge_output(case, y: np.ndarray, mutation="", geom=None, padded_terms=False):
    """(ok mask per element (flat), the Allowed list or None for integers, expected shape) of an
    output y of a computing case."""
    dtype = case.dtype
    mutation = mutation or MUTATION
    if dtype not in FLOATS:
        want = int_exact(case, mutation)
        if y.shape != want.shape:
            return None, None, list(want.shape)
        return (np.asarray(y).reshape(-1) == want.reshape(-1)), None, list(want.shape)
    allowed, shape = computed_allowed(case, mutation, geom, padded_terms)
    if list(y.shape) != list(shape):
        return None, allowed, shape
    vals = values_of(dtype, y).reshape(-1)
    ok = np.array([al.accepts(float(r)) for al, r in zip(allowed, vals.tolist())], bool)
    return ok, allowed, shape


COMPUTING = COMPUTING + AVERAGES  # [Acc.divisor] the averages are judged by the accuracy model too
_SPEC.update({op: computed_spec_output for op in COMPUTING})


def max_fraction(case, y: np.ndarray) -> Optional[float]:
    """The largest error of a conforming output as a fraction of its bound, |r - s| / B over the
    finite elements with B > 0 ([Acc.verdict]: the error reported as a fraction of the radius); None
    for integers, another shape, or no such element."""
    if case.dtype not in FLOATS:
        return None
    allowed, shape = computed_allowed(case, MUTATION)
    if list(y.shape) != list(shape):
        return None
    best = None
    for al, r in zip(allowed, values_of(case.dtype, y).reshape(-1).tolist()):
        if al.fin and math.isfinite(r) and al.B > 0:
            f = abs(Fraction(r) - al.s) / al.B
            best = f if best is None or f > best else best
    return None if best is None else float(best)


# ===================================================================== element-wise arithmetic
# Add, Sub, Mul, Div (spec/common/arithmetic.md): C[i] = fl_T(A'[i] op B'[i]), bit for bit but for NaN
# payloads. Written from the clauses with numpy, independent of sonnx-ref's kernel: float and double by
# numpy's own IEEE operation in that type; float16 in binary64 rounded once by numpy's double-to-half
# conversion; bfloat16 in binary64 rounded once by bf16_round below ([Common.arith.rounding]); integers
# as Python integers modulo 2^w, Div truncated toward zero ([Common.arith.int], [Div.int.formula]).

ARITH = ("Add", "Sub", "Mul", "Div")


def legacy_b(case) -> np.ndarray:
    """[Common.arith.legacy] B reshaped so that numpy's broadcasting reads it as versions 1 and 6 do."""
    a, b = case.inputs
    if not case.attrs.get("broadcast", 0) or b.shape == a.shape:
        return b
    if b.size == 1 and b.ndim <= a.ndim:
        return b.reshape([1] * a.ndim)
    s = case.attrs.get("axis", a.ndim - b.ndim)
    return b.reshape([1] * s + list(b.shape) + [1] * (a.ndim - s - b.ndim))


def bf16_round(x: np.ndarray) -> np.ndarray:
    """Binary64 values rounded once to bfloat16 (to nearest, ties to even, gradual underflow from 2^-126,
    overflow from (2 - 2^-8)·2^127), as bfloat16 bit patterns; NaN the canonical 0x7FC0."""
    x = np.asarray(x, np.float64)
    out = np.empty(x.shape, np.float64)
    with np.errstate(all="ignore"):
        m, e = np.frexp(x)                                   # x = m·2^e, 0.5 <= |m| < 1
        normal = np.ldexp(np.rint(np.ldexp(m, 8)), e - 8)    # 8 significant bits, rint: ties to even
        sub = np.rint(np.ldexp(x, 133)) * 2.0 ** -133        # the subnormal grid 2^-133
        out = np.where(np.abs(x) < 2.0 ** -126, sub, normal)
        out = np.where(np.abs(out) >= 2.0 ** 128, np.copysign(np.inf, x), out)
        out = np.where(np.isinf(x), x, out)
        bits = (out.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), np.uint16(0x7FC0), bits)


def _int_op(op: str, a: int, b: int, bits: int, signed: bool) -> int:
    if op == "Add":
        x = a + b
    elif op == "Sub":
        x = a - b
    elif op == "Mul":
        x = a * b
    else:
        q = abs(a) // abs(b)
        x = q if (a < 0) == (b < 0) else -q
    x %= 1 << bits
    return x - (1 << bits) if signed and x >= 1 << (bits - 1) else x


def spec_arith(case) -> np.ndarray:
    a = case.inputs[0]
    b = legacy_b(case) if case.opset < 7 else case.inputs[1]
    A, B = np.broadcast_arrays(a, b)
    dt = case.dtype
    with np.errstate(all="ignore"):
        if dt in ("float", "double"):
            fn = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}[case.op]
            return np.array(fn(A, B), dtype=A.dtype).reshape(A.shape)  # (not ascontiguousarray: it makes rank 0 rank 1)
        if dt in FLOATS:
            x, y = to_float64(dt, A), to_float64(dt, B)
            fn = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}[case.op]
            r = fn(x, y)
            if dt == "float16":
                return np.array(r, dtype=np.float64).astype(np.float16).reshape(A.shape)
            return from_bits("bfloat16", bf16_round(r).reshape(-1), A.shape)
    info = np.iinfo(A.dtype)
    bits, signed = info.bits, info.min < 0
    flat = [_int_op(case.op, int(p), int(q), bits, signed) for p, q in zip(A.reshape(-1), B.reshape(-1))]
    return np.array(flat, dtype=A.dtype).reshape(A.shape)


_SPEC.update({op: spec_arith for op in ARITH})  # spec_output dispatches the arithmetic too
# ================================================================ Sum, Mean, ReduceSum, ReduceMean
# spec/ops/sum.md, mean.md, reducesum.md, reducemean.md, transcribed independently of src/ops/sums.cpp:
# the terms of an element are one-factor terms (the inputs' elements through the broadcast map; the
# members of R(j)), e_k = c_d for the means ([Acc.divisor]: c_d = 0 for d = 1, else
# 1 + max([1/d not in T], 2 [d not in T])), D = (n - 1) + c_d, s = sum / d, S = sum |x| / d,
# U = (1 + theta(n - 1)) (n lambda + (n - 1) eta), lambda = c_d eta (1 + v)^(c_d - 1); [Acc.overflow]
# with the undivided partial sums (d times); [Acc.nonfinite] on the terms. Empty sets: ReduceSum +0,
# ReduceMean a NaN (float) or a refusal ([ReduceMean.err.int-empty]). Integers: ReduceSum modulo 2^w,
# ReduceMean the exact mean truncated toward zero.

SUMS = ("Sum", "Mean", "ReduceSum", "ReduceMean")


def sums_axes(case):
    """The reduced axes of a ReduceSum / ReduceMean case (normalised), or None for the identity."""
    r = case.inputs[0].ndim
    since = 13 if case.op == "ReduceSum" else 18
    axes = case.attrs.get("axes") if case.opset < since else case.axes
    if not axes:
        if case.opset >= since and case.attrs.get("noop_with_empty_axes", 0) == 1:
            return None
        return list(range(r))
    return sorted(a + r if a < 0 else a for a in axes)


def sums_terms(case):
    """(per element: the list of its terms' float64 values, or of ints; d; the output shape)."""
    x = case.inputs
    if case.op in ("Sum", "Mean"):
        conv = (lambda t: values_of(case.dtype, t))
        vals = [conv(t) for t in x]
        shape = list(np.broadcast_shapes(*[v.shape for v in vals]))
        b = [np.broadcast_to(v, shape).reshape(-1) for v in vals]
        P = int(np.prod(shape, dtype=np.int64))
        return [[float(b[m][j]) for m in range(len(b))] for j in range(P)], len(b), shape
    t = x[0]
    v = values_of(case.dtype, t) if case.dtype in FLOATS else np.asarray(t).astype(object)
    axes = sums_axes(case)
    if axes is None:
        return None, 1, list(t.shape)
    kept = [k for k in range(t.ndim) if k not in axes]
    moved = np.transpose(v, kept + axes) if t.ndim else v
    kshape = [t.shape[k] for k in kept]
    n = int(np.prod([t.shape[k] for k in axes], dtype=np.int64))
    rows = np.asarray(moved).reshape(int(np.prod(kshape, dtype=np.int64)), n)   # R(j) in row-major order
    keep = int(case.attrs.get("keepdims", 1))
    shape = [1 if k in axes else t.shape[k] for k in range(t.ndim)] if keep else kshape
    conv = float if case.dtype in FLOATS else int
    return [[conv(e) for e in row] for row in rows.tolist()], n, shape


def divisor_roundings(dtype: str, d: int) -> int:
    """[Acc.divisor] c_d."""
    if d == 1:
        return 0
    f = fmt_of(dtype)
    d_in = Fraction(round_exact(Fraction(d), dtype)) == d and d < f.omega
    r_in = d & (d - 1) == 0 and Fraction(1, d) >= f.eta
    return 1 + max(0 if r_in else 1, 0 if d_in else 2)


def sums_allowed(case):
    """(per-element Allowed list, output shape) of a float Sum / Mean / ReduceSum / ReduceMean case."""
    key = (id(case), case.id, "sums")
    if key in _ALLOWED_MEMO:
        return _ALLOWED_MEMO[key]
    f = fmt_of(case.dtype)
    terms, n, shape = sums_terms(case)
    mean = case.op in ("Mean", "ReduceMean")
    out = []
    for xs in terms:
        nn = len(xs)
        d = nn if mean else 1
        if nn == 0:
            out.append(Allowed(False, False, False, True, n=0, why="0/0 [ReduceMean.float.empty]") if mean else
                       Allowed(True, False, False, False, s=Fraction(0), B=Fraction(0), n=0, why="the empty sum"))
            continue
        if any(math.isnan(x) for x in xs) or (math.inf in xs and -math.inf in xs):
            out.append(Allowed(False, False, False, True, n=nn, why="[Acc.nonfinite] 1, 2"))
            continue
        cd = divisor_roundings(case.dtype, d) if mean else 0
        fin = [Fraction(x) for x in xs if math.isfinite(x)]
        Sp = sum((x for x in fin if x > 0), Fraction(0)) / d
        Sm = -sum((x for x in fin if x < 0), Fraction(0)) / d
        S = Sp + Sm
        D = (nn - 1) + cd
        lam = cd * f.eta * (1 + f.v) ** (cd - 1) if cd >= 1 else Fraction(0)
        U = (1 + theta(case.dtype, nn - 1)) * (nn * lam + (nn - 1) * f.eta)
        thS = theta(case.dtype, D) * S
        over_p = d * (Sp + thS + U) >= f.omega        # [Acc.divisor] the undivided partial sums
        over_m = d * (Sm + thS + U) >= f.omega
        if math.inf in xs or -math.inf in xs:
            pinf = math.inf in xs
            out.append(Allowed(False, pinf, not pinf, over_m if pinf else over_p, n=nn, D=D, why="[Acc.nonfinite] 3"))
            continue
        all_neg0 = all(x == 0 and math.copysign(1.0, x) < 0 for x in xs)
        out.append(Allowed(True, over_p, over_m, over_p and over_m, s=(Sp - Sm), B=thS + U, n=nn, D=D, S=S,
                           all_neg_zero=all_neg0, why="[Acc.bound]" + (" [Acc.divisor]" if mean else "")))
    if len(_ALLOWED_MEMO) > 16:
        _ALLOWED_MEMO.clear()
    _ALLOWED_MEMO[key] = (out, shape)
    return out, shape


class SumsRefused(Exception):
    """The spec refuses the case ([ReduceMean.err.int-empty])."""


def sums_int_exact(case) -> np.ndarray:
    terms, n, shape = sums_terms(case)
    st = storage(case.dtype)
    if terms is None:
        return np.asarray(case.inputs[0]).copy()
    w = st.itemsize * 8
    out = []
    for xs in terms:
        s = sum(xs)
        if case.op == "ReduceMean":
            if not xs:
                raise SumsRefused("ReduceMean.err.int-empty")
            out.append(_trunc_div(s, len(xs)))
        else:
            v = s % (1 << w)
            out.append(v - (1 << w) if np.iinfo(st).min < 0 and v >= 1 << (w - 1) else v)
    return np.array(out, dtype=object).astype(st).reshape(shape)


def sums_spec_output(case) -> np.ndarray:
    """What `run` writes ([Acc.run]); the identity of noop_with_empty_axes bit for bit."""
    if case.dtype not in FLOATS:
        return sums_int_exact(case)
    if case.op in ("ReduceSum", "ReduceMean") and sums_axes(case) is None:
        return np.asarray(case.inputs[0]).copy()
    allowed, shape = sums_allowed(case)
    vals = []
    for al in allowed:
        if not al.fin:
            vals.append(math.inf if al.pinf and not al.ninf else -math.inf if al.ninf and not al.pinf else math.nan)
        elif al.s == 0:
            vals.append(-0.0 if al.all_neg_zero else 0.0)
        else:
            vals.append(round_exact(al.s, case.dtype))
    # (flat first: from_float64 assigns the NaNs element by element, which a rank-0 bfloat16 array does not allow)
    return np.asarray(from_float64(case.dtype, np.array(vals, dtype=np.float64))).reshape(shape)


def sums_judge(case, y: np.ndarray):
    """(ok per element (flat), Allowed list or None, expected shape) of an output y."""
    if case.dtype not in FLOATS or (case.op in ("ReduceSum", "ReduceMean") and sums_axes(case) is None):
        want = sums_spec_output(case)
        if list(y.shape) != list(want.shape):
            return None, None, list(want.shape)
        if case.dtype in FLOATS:  # the identity: bit for bit
            return bits_view(case.dtype, contig(y)).reshape(-1) == bits_view(case.dtype, contig(want)).reshape(-1), None, list(want.shape)
        return np.asarray(y).reshape(-1) == want.reshape(-1), None, list(want.shape)
    allowed, shape = sums_allowed(case)
    if list(y.shape) != list(shape):
        return None, allowed, shape
    vals = values_of(case.dtype, y).reshape(-1)
    ok = [al.accepts(r) for al, r in zip(allowed, vals.tolist())]
    return np.array(ok, bool), allowed, shape


_SPEC.update({op: sums_spec_output for op in SUMS})
# ---------------------------------------------------------------------------------- BatchNormalization
# spec/ops/batchnormalization.md, transcribed independently of src/ops/batchnormalization.cpp:
#   [BatchNormalization.float.formula]  terms a·x, −a·μ, β with a = γ/√(σ² + ε); S = |a|(|x| + |μ|) + |β|;
#   [BatchNormalization.counts]  ξ = max(v|ε|, η) when ε is not a value of T, r = ξ/w, c_in = 0, 1 (r <= v)
#                     or ⌈r/((1 − r)v)⌉; D = c_in + 8; B = θ(D)·S + U, U = (1 + θ)²·η·(6 + |γ| + |a| +
#                     χ(|x| + |μ|)·max(1, 1/√w)), χ when 0 < |a|(1 − θ) < 2λ; P of [Acc.overflow];
#   [BatchNormalization.edge]  NaN parameters, w <= ξ, γ infinite, σ² = ±Inf.
# √w is enclosed by integer square roots to 2^-200; the enclosure's width is added to B.

def _sqrt_enclosure(w: Fraction, bits: int = 200):
    n, d = w.numerator, w.denominator
    r = math.isqrt(n * d * (4 ** bits))
    return Fraction(r, d * 2 ** bits), Fraction(r + 1, d * 2 ** bits)


def _bn_element(dtype: str, x: float, g: float, b: float, m: float, var: float, eps: float, mutation: str) -> Allowed:
    f = fmt_of(dtype)
    NAN = Allowed(False, False, False, True, why="NaN [BatchNormalization.edge]")
    NONFIN = Allowed(False, True, True, True, why="a = ±Inf or 1/0 [BatchNormalization.edge]")
    if any(math.isnan(t) for t in (x, g, b, m, var)) or var == -math.inf:
        return NAN
    E = Fraction(eps)
    xi = Fraction(0) if representable(dtype, eps) else max(f.v * abs(E), f.eta)
    if var == math.inf:
        if math.isinf(g) or math.isinf(x) or math.isinf(m):
            return NAN                                   # ∞/∞, or 0·∞
        a_zero = True
        w = None
    else:
        w = Fraction(var) + E
        if w <= xi:
            if w < 0 and -w > xi:
                return NAN
            if w == 0 and xi == 0:
                return NONFIN
            return Allowed(True, True, True, True, s=Fraction(0), B=Fraction(2) ** 2000, why="any value [BatchNormalization.edge]")
        if math.isinf(g):
            return NONFIN
        a_zero = g == 0
    c_in = 0
    if w is not None:
        r = xi / w
        c_in = 0 if r == 0 else 1 if r <= f.v else math.ceil(r / ((1 - r) * f.v))
    D = c_in + 8
    th = theta(dtype, D)
    if w is None or a_zero:
        a_lo = a_hi = Fraction(0)
        inv_s = Fraction(0)
    else:
        lo, hi = _sqrt_enclosure(w)
        G = Fraction(g)
        a_lo, a_hi = sorted([G / hi, G / lo])
        inv_s = 1 / lo
    A = max(abs(a_lo), abs(a_hi))
    chi = (not a_zero) and A * (1 - th) < 2 * f.lam
    sign_a = 0 if a_zero else (1 if g > 0 else -1)
    if math.isinf(x) or math.isinf(m) or math.isinf(b):
        if a_zero and (math.isinf(x) or math.isinf(m)):
            return NAN
        signs = set()
        if math.isinf(x):
            signs.add(sign_a * (1 if x > 0 else -1))
        if math.isinf(m):
            signs.add(-sign_a * (1 if m > 0 else -1))
        if math.isinf(b):
            signs.add(1 if b > 0 else -1)
        if len(signs) == 2:
            return Allowed(False, False, False, True, why="+Inf and -Inf terms [Acc.nonfinite] 2")
        pos = signs.pop() > 0
        return Allowed(False, pos, not pos, chi, why="an infinite term [Acc.nonfinite] 3")
    X, Mu, Bb = Fraction(x), Fraction(m), Fraction(b)
    t = [X * a_lo, X * a_hi, -Mu * a_lo, -Mu * a_hi]
    s_lo = min(t[0], t[1]) + min(t[2], t[3]) + Bb
    s_hi = max(t[0], t[1]) + max(t[2], t[3]) + Bb
    S = A * (abs(X) + abs(Mu)) + abs(Bb)
    U = (1 + th) ** 2 * f.eta * (6 + abs(Fraction(g)) + A + (abs(X) + abs(Mu)) * max(1, inv_s) * (1 if chi else 0))
    B = th * S + U
    if mutation == "half-bound":
        B = B / 2
    Pb = (1 + th) * max(A, inv_s, (abs(X) + abs(Mu)) * max(1, inv_s, A)) + f.eta
    Sp = sum(v for v in (max(t[0], t[1]), max(t[2], t[3]), Bb) if v > 0)
    Sm = -sum(v for v in (min(t[0], t[1]), min(t[2], t[3]), Bb) if v < 0)
    over_p = Sp + th * S + U >= f.omega or Pb >= f.omega
    over_m = Sm + th * S + U >= f.omega or Pb >= f.omega
    mid = (s_lo + s_hi) / 2
    return Allowed(True, over_p, over_m, over_p and over_m, s=mid, B=B + (s_hi - s_lo), n=3, D=D, S=S,
                   why="[BatchNormalization.counts]" + (" [Acc.overflow]" if over_p or over_m else ""))


def batchnorm_allowed(case, mutation=""):
    """(per-element Allowed list, output shape) of a float BatchNormalization case."""
    x = values_of(case.dtype, case.inputs[0])
    g, b, m, v = (values_of(case.dtype, t).reshape(-1) for t in case.inputs[1:5])
    eps = float(np.float32(case.attrs.get("epsilon", 1e-5)))
    spatial = case.opset >= 9 or case.attrs.get("spatial", 1) != 0
    shape = list(x.shape)
    inner = int(np.prod(shape[2:], dtype=np.int64)) if len(shape) > 2 else 1
    per = int(np.prod(shape[1:], dtype=np.int64)) if len(shape) > 1 else 1
    out = []
    for k, xv in enumerate(x.reshape(-1).tolist()):
        j = k % per if len(shape) > 1 else 0
        c = j // inner if spatial else j
        out.append(_bn_element(case.dtype, xv, g[c], b[c], m[c], v[c], eps, mutation))
    return out, shape
# ====================================================================== data movement (issue 33)
# Cast ([Cast.formula] and its clauses), ConstantOfShape, Shape: restated with numpy on the exact
# float64 values (every value of the four float types is one), the NaN rule on the bit patterns.

def _cast_nan_bits(src: str, dst: str, b: int) -> int:
    """[Cast.float.nan] sign, the top payload bits, the quiet bit."""
    widths = {"float16": (16, 10), "bfloat16": (16, 7), "float": (32, 23), "double": (64, 52)}
    ws, fs = widths[src]
    wd, fd = widths[dst]
    sign = b >> (ws - 1)
    frac = b & ((1 << fs) - 1)
    payload = frac >> (fs - fd) if fs >= fd else frac << (fd - fs)
    _, e, _, q = FLOAT_BITS[dst]
    return (sign << (wd - 1)) | e | q | payload


def spec_cast(case) -> np.ndarray:
    from onnxcase import CODE_TO_NAME, INTS
    src, dst = case.dtype, CODE_TO_NAME[case.attrs["to"]]
    x = case.inputs[0]
    if src == dst:
        return x.copy()  # [Cast.same]
    if src == "bool":  # [Cast.from-bool]
        return x.astype(np.uint8).astype(storage(dst)) if dst != "bfloat16" else np.where(x, 0x3F80, 0).astype(np.uint16)
    if src in FLOATS:
        v = to_float64(src, x)
        nan = is_nan_bits(src, x)
        if dst == "bool":  # [Cast.to-bool]
            return (v != 0) | nan
        if dst in FLOATS:  # [Cast.float.float] float64 -> float16 / float: numpy rounds once, to nearest even
            assert dst != "bfloat16"
            y = contig(v.astype(storage(dst)))
            ub = bits_view(dst, y).reshape(-1)
            sb = bits_view(src, x).reshape(-1)
            for k in np.flatnonzero(nan.reshape(-1)):
                ub[k] = _cast_nan_bits(src, dst, int(sb[k]))
            return y
        assert not nan.any()  # [Cast.err.range]: the generator draws defined conversions only
        return np.trunc(v).astype(storage(dst))  # [Cast.float.int]
    if dst == "bool":
        return x != 0
    if dst in FLOATS:  # [Cast.int.float]
        return x.astype(storage(dst))
    return x.astype(storage(dst))  # [Cast.int.int] numpy wraps modulo 2^n


def spec_shape(case) -> np.ndarray:
    """[Shape.range] [Shape.formula]"""
    r = case.inputs[0].ndim
    s, e = case.attrs.get("start", 0), case.attrs.get("end", r)
    s = min(max(s + r if s < 0 else s, 0), r)
    e = min(max(e + r if e < 0 else e, 0), r)
    return np.array(case.inputs[0].shape[s:max(s, e)], dtype=np.int64)


def spec_constantofshape(case) -> np.ndarray:
    """[ConstantOfShape.formula] [ConstantOfShape.value]"""
    shape = [int(d) for d in case.inputs[0]]
    if "value" not in case.attrs:
        return np.zeros(shape, dtype=np.float32)
    dt = case.attrs["value"]["dtype"]
    v = np.frombuffer(bytes.fromhex(case.attrs["value"]["hex"]), dtype=storage(dt))[0]
    return np.full(shape, v, dtype=storage(dt))


_SPEC.update({"Cast": spec_cast, "Shape": spec_shape, "ConstantOfShape": spec_constantofshape})
# ===================================================================== the views (issue 33)
# [Reshape.shape] [Flatten.shape] [Squeeze.shape] [Unsqueeze.shape] [Identity.formula] [Dropout.formula]:
# the input's elements in row-major order with the shape the clauses give (numpy's reshape moves bits
# exactly; the shape is computed here from the clauses' words, not by numpy's -1).

def _view_shape(case):
    x = case.inputs[0]
    r = x.ndim
    if case.op == "Reshape":
        az = case.attrs.get("allowzero") or 0
        out = [x.shape[k] if s == 0 and not az else s for k, s in enumerate(case.axes)]
        if -1 in out:
            k = out.index(-1)
            others = int(np.prod([d for j, d in enumerate(out) if j != k], dtype=np.int64))
            out[k] = x.size // others
        return out
    if case.op == "Flatten":
        a = case.attrs.get("axis")
        a = 1 if a is None else a
        a = a + r if a < 0 else a
        return [int(np.prod(x.shape[:a], dtype=np.int64)), int(np.prod(x.shape[a:], dtype=np.int64))]
    axes = case.axes if case.axes is not None else case.attrs.get("axes")
    if case.op == "Squeeze":
        gone = [k for k in range(r) if x.shape[k] == 1] if axes is None else [a + r if a < 0 else a for a in axes]
        return [d for k, d in enumerate(x.shape) if k not in gone]
    if case.op == "Unsqueeze":
        rr = r + len(axes)
        at = [a + rr if a < 0 else a for a in axes]
        rest = iter(x.shape)
        return [1 if k in at else next(rest) for k in range(rr)]
    return list(x.shape)  # Identity, Dropout


def spec_view(case):
    return np.ascontiguousarray(case.inputs[0]).reshape(_view_shape(case))


for _op in ("Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Dropout"):
    _SPEC[_op] = spec_view


# ===================================================================== issue 32: the elementary functions
# Exp, Log, Tanh, Sigmoid (spec/ops/exp.md, log.md, tanh.md, sigmoid.md; spec/common/elementary.md): judged
# by the accuracy model of the elementary functions ([Elem.verdict]), never bit for bit. For each element,
# what conforms: the special values of [Elem.special] and the edge clauses, exactly; else a finite r with
# |r - y| <= B, y the ideal and B the operator's bound ([Exp.bound], [Log.bound], [Tanh.bound],
# [Sigmoid.bound]) with the default K of [Elem.K]; +Inf where [Exp.overflow] allows it. The ideal is
# computed here with Python's decimal module at ELEM_DIGITS digits (Decimal.exp and Decimal.ln are
# correctly rounded; tanh and sigma written from exp, the precision raised by the digits a subtraction
# cancels): independent of sonnx-ref's oracle (binary64 polynomials and MPFR). Its own error (below
# 10^-37 relatively) is covered by widening B by 2^-100 |y|, far below any ulp.

import decimal as _decimal  # noqa: E402

ELEMENTARY = ("Exp", "Log", "Tanh", "Sigmoid")
ELEM_FUNCTION = {"Exp": "exp", "Log": "log", "Tanh": "tanh", "Sigmoid": "exp"}  # the function whose K applies
ELEM_DIGITS = 40
# [Elem.K] the defaults: float and double from glibc's libm-test-ulps; float16 and bfloat16 1
_ELEM_K = {("exp", "float"): 1, ("exp", "double"): 1, ("log", "float"): 1, ("log", "double"): 1,
           ("tanh", "float"): 2, ("tanh", "double"): 3}


def elem_K(op: str, dtype: str) -> int:
    return _ELEM_K.get((ELEM_FUNCTION[op], dtype), 1)


def _dctx(prec: int):
    return _decimal.Context(prec=prec, rounding=_decimal.ROUND_HALF_EVEN, Emin=-10 ** 9, Emax=10 ** 9, traps=[])


def elem_ideal(op: str, x: float):
    """y = op(x) for a finite x (x > 0 for Log), as a Decimal within 10^-37 relatively; Infinity where the
    value exceeds the decimal range (e^x of x beyond 10^9: beyond every T's range)."""
    P = ELEM_DIGITS
    ctx = _dctx(P)
    if op in ("Exp", "Sigmoid") and abs(x) > 1000:
        # Beyond every T's range: e^x > Omega_double for x > 1000; for x < -1000, e^x < 2^-1442 and sigma(x)
        # within 2^-1442 of 0 or 1, which the model's absolute margin (2^-1200) covers. Clamped, so that no
        # decimal with a huge exponent is converted to a fraction.
        if op == "Exp" and x > 0:
            return _decimal.Decimal("Infinity")
        x = math.copysign(1000.0, x)
    d = _decimal.Decimal(x)  # exact
    if op == "Exp":
        return ctx.exp(d)
    if op == "Log":
        return ctx.ln(d)
    if op == "Tanh":
        a = abs(d)
        if a == 0:
            return d
        a = min(a, _decimal.Decimal(400))  # 1 - tanh(400) < 1e-347
        c2 = _dctx(P + max(0, -a.adjusted()) + 5)
        e = c2.exp(2 * a)
        t = ctx.divide(c2.subtract(e, 1), c2.add(e, 1))
        return t if x > 0 else -t
    if x >= 0:  # Sigmoid
        return ctx.divide(1, ctx.add(1, ctx.exp(-d)))
    e = ctx.exp(d)
    return ctx.divide(e, ctx.add(1, e))


def _elem_exact(value: float, why: str) -> Allowed:
    """Exactly one value conforms (a zero of either sign, [Acc.zero])."""
    if math.isnan(value):
        return Allowed(fin=False, pinf=False, ninf=False, nan=True, why=why)
    if math.isinf(value):
        return Allowed(fin=False, pinf=value > 0, ninf=value < 0, nan=False, why=why)
    return Allowed(fin=True, pinf=False, ninf=False, nan=False, s=Fraction(value), B=Fraction(0), why=why)


def elem_allowed_one(op: str, dtype: str, x: float, mutation: str = "") -> Allowed:
    """What conforms at one element of argument x (the exact value of the input element)."""
    if math.isnan(x):
        return _elem_exact(math.nan, f"[{op}.edge] a NaN argument")
    if math.isinf(x):
        v = {"Exp": math.inf if x > 0 else 0.0, "Log": math.inf if x > 0 else math.nan,
             "Tanh": math.copysign(1.0, x), "Sigmoid": 1.0 if x > 0 else 0.0}[op]
        return _elem_exact(v, f"[{op}.edge] [Elem.special]")
    if op == "Log" and x <= 0:
        return _elem_exact(-math.inf if x == 0 else math.nan, "[Log.edge] [Elem.special]")
    if op == "Tanh" and x == 0:
        return _elem_exact(0.0, "[Tanh.edge] tanh(+-0) = +-0")
    f = fmt_of(dtype)
    K = elem_K(op, dtype)
    if mutation == "half-bound-elem":
        K = Fraction(K, 2)
    kappa, alpha = 2 * K * f.u, K * f.eta                  # [Elem.hyp]
    y = elem_ideal(op, x)
    if y.is_infinite():                                    # e^x beyond the decimal range: only +Inf
        return Allowed(fin=False, pinf=True, ninf=False, nan=False, why="[Exp.overflow] e^x beyond every range")
    s = Fraction(y)
    margin = abs(s) / 2 ** 100 + Fraction(1, 2 ** 1200)   # the model's own error and clamping, covered
    why = f"K_{ELEM_FUNCTION[op]} = {K}"
    if op == "Sigmoid":                                    # [Sigmoid.bound]
        v = f.v
        phi = (1 + v) ** 2 / (1 - v) - 1
        c = 1 - kappa - alpha
        B = s * (phi + kappa * (1 + phi) / c ** 2) + alpha * (1 + phi) / c ** 2 + f.eta / 2
        # [Sigmoid.overflow]: e^-x in form 1 may overflow (certainly for x < -1000: e^1000 > Omega_double)
        # (and never for x > 1000, where e^-x < 1)
        em = _decimal.Decimal(0) if x > 1000 else \
            _dctx(ELEM_DIGITS).exp(-_decimal.Decimal(x)) if x > -1000 else _decimal.Decimal("Infinity")
        if em.is_infinite() or Fraction(em) * (1 + kappa) + alpha + 1 >= f.omega:
            B = max(B, s)
            why += ", [Sigmoid.overflow]: 0 conforms"
        return Allowed(fin=True, pinf=False, ninf=False, nan=False, s=s, B=B + margin, why=why)
    B = kappa * abs(s) + alpha                             # [Exp.bound] [Log.bound] [Tanh.bound]
    if op == "Exp":
        pinf = s * (1 + kappa) + alpha >= f.omega           # [Exp.overflow]
        if dtype == "double" and s > f.omega:               # beyond binary64's range: only +Inf
            return Allowed(fin=False, pinf=True, ninf=False, nan=False, s=s, why="[Exp.overflow] beyond binary64")
        return Allowed(fin=True, pinf=pinf, ninf=False, nan=False, s=s, B=B + margin,
                       why=why + (", [Exp.overflow]: +Inf conforms" if pinf else ""))
    return Allowed(fin=True, pinf=False, ninf=False, nan=False, s=s, B=B + margin, why=why)


_ELEM_MEMO: dict = {}


def elem_allowed(case, mutation: str = "") -> List[Allowed]:
    """Per element of the case (flat), what conforms; memoised per (operator, type, input bytes, mutation)."""
    key = (case.op, case.dtype, np.asarray(case.inputs[0]).tobytes(), mutation)
    if key not in _ELEM_MEMO:
        if len(_ELEM_MEMO) > 4096:
            _ELEM_MEMO.clear()
        x = values_of(case.dtype, case.inputs[0]).reshape(-1)
        _ELEM_MEMO[key] = [elem_allowed_one(case.op, case.dtype, float(v), mutation) for v in x.tolist()]
    return _ELEM_MEMO[key]


def elem_judge(case, y: np.ndarray, mutation: str = ""):
    """(ok mask (flat) or None for another shape, the Allowed list, the expected shape)."""
    shape = list(case.inputs[0].shape)
    allowed = elem_allowed(case, mutation)
    if list(np.shape(y)) != shape:
        return None, allowed, shape
    vals = values_of(case.dtype, y).reshape(-1)
    return np.array([al.accepts(float(r)) for al, r in zip(allowed, vals.tolist())], bool), allowed, shape


def elem_run_value(case) -> np.ndarray:
    """[Elem.run] what `run` writes: fl_T(y) (the special values as they are; a canonical NaN). Where y lies
    within the model's error of a midpoint of T, both neighbours are possible: run_ambiguous says where."""
    vals = []
    for al in elem_allowed(case):
        if not al.fin:
            vals.append(math.nan if al.nan else math.inf if al.pinf else -math.inf)
        else:
            vals.append(round_exact(al.s, case.dtype) if al.s != 0 else 0.0)
    return from_float64(case.dtype, np.array(vals, np.float64).reshape(case.inputs[0].shape))


def elem_run_ambiguous(case) -> np.ndarray:
    """Elements whose y is within 2^-100 |y| of a midpoint of T (fl_T not decided by the model)."""
    out = []
    for al in elem_allowed(case):
        if not al.fin or al.s == 0:
            out.append(False)
            continue
        d = al.s / 2 ** 100
        out.append(round_exact(al.s - abs(d), case.dtype) != round_exact(al.s + abs(d), case.dtype))
    return np.array(out, bool)


def ulp32(s: Fraction) -> Fraction:
    """ulp_float(s) = 2^(max(floor(log2 |s|), -126) - 23); 2^-149 at 0 (the measurement's unit)."""
    if s == 0:
        return Fraction(1, 2 ** 149)
    a = abs(s)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    return Fraction(2) ** (max(e, -126) - 23)


def elem_error_ulps(case, y: np.ndarray) -> Optional[float]:
    """The largest |r - y| in ulps of T (spacing of T at y, eta_T below lambda_T) over the finite elements of
    a finite ideal; None when there is none."""
    f = fmt_of(case.dtype)
    best = None
    for al, r in zip(elem_allowed(case), values_of(case.dtype, y).reshape(-1).tolist()):
        if al.fin and al.B > 0 and math.isfinite(r):
            a = abs(al.s)
            if a == 0:
                u = f.eta
            else:
                e = a.numerator.bit_length() - a.denominator.bit_length()
                if Fraction(2) ** e > a:
                    e -= 1
                u = Fraction(2) ** (max(e, f.emin) - f.p + 1)
            err = float(abs(Fraction(r) - al.s) / u)
            best = err if best is None or err > best else best
    return best


def elem_max_fraction(case, y: np.ndarray) -> Optional[float]:
    best = None
    for al, r in zip(elem_allowed(case), values_of(case.dtype, y).reshape(-1).tolist()):
        if al.fin and al.B > 0 and math.isfinite(r):
            fr = float(abs(Fraction(r) - al.s) / al.B)
            best = fr if best is None or fr > best else best
    return best


_SPEC.update({op: elem_run_value for op in ELEMENTARY})


# onnxruntime 1.30's float kernels, measured against a binary64 / MPFR evaluation over 10^6 arguments per range
# (/work/scratch/ort-elem/RESULTS.md and table.md; spec/ops/log.md, tanh.md, sigmoid.md, "Divergences"). Each
# constant is the measured maximum, rounded up at its last printed digit; "ulp" is ulp_float(y) of ulp32.
ORT_LOG_ULPS = Fraction(315, 100)        # [Log.div.ort]: 3.14 ulps (2^20 floats around 1; 2.96 over every binade)
ORT_TANH_ULPS = Fraction(547, 100)       # [Tanh.div.ort]: 5.46 ulps on [-20, 20] (the +-1.0000002 of |x| in 8..10 included)
# [Tanh.div.ort]: 103 eta (2^-149) on subnormal x (tanh(x)/x from 0 to 1.9), and, measured here on 2e5 patterns
# of the binades below 2^-96 (tanh x = x to 2^-290), the same absolute error in the lowest normal binades: at
# most 2 ulps + 102 eta for |x| < 2^-120 (104 eta = 104 ulps in [2^-126, 2^-125), 160 eta = 5 ulps in
# [2^-121, 2^-120)), 2 ulps above. The clause's text names the subnormal arguments only.
ORT_TANH_TINY = Fraction(207, 2)         # eta's, beside 2 ulps, for |x| < 2^-120
ORT_TANH_TINY_BELOW = 2.0 ** -120
ORT_SIGMOID_POS_ULPS = Fraction(294, 100)  # [Sigmoid.div.ort]: 2.93 ulps for x >= 0
ORT_SIGMOID_NEG_ABS = Fraction(1395, 10 ** 10)  # [Sigmoid.div.ort]: 1.39e-7 absolutely for x < 0 (0 below -18)
ORT_ELEM_DIV = {"Log": "Log.div.ort", "Tanh": "Tanh.div.ort", "Sigmoid": "Sigmoid.div.ort"}


def ort_elem_tolerance(op: str, x: float, s: Fraction) -> Optional[Fraction]:
    """How far from y = op(x) onnxruntime's float kernel was measured to go, at this argument (None: Exp,
    which has no divergence, [Exp.div.ort])."""
    if op == "Log":
        return ORT_LOG_ULPS * ulp32(s)
    if op == "Tanh":
        if x != 0 and abs(x) < ORT_TANH_TINY_BELOW:
            return 2 * ulp32(s) + ORT_TANH_TINY * Fraction(1, 2 ** 149)
        return ORT_TANH_ULPS * ulp32(s)
    if op == "Sigmoid":
        return ORT_SIGMOID_POS_ULPS * ulp32(s) if x >= 0 else ORT_SIGMOID_NEG_ABS
    return None


def _f16_rounding_interval(r: float):
    """The reals that round to the float16 value r (to nearest): [lo, hi] with the half-spacings each side."""
    h = np.float16(r)
    up = float(np.nextafter(h, np.float16(np.inf)))
    dn = float(np.nextafter(h, np.float16(-np.inf)))
    v = Fraction(float(h))
    hi = v + (Fraction(up) - v) / 2 if math.isfinite(up) else fmt_of("float16").omega
    lo = v - (v - Fraction(dn)) / 2 if math.isfinite(dn) else -fmt_of("float16").omega
    return lo, hi


def ort_elem_explains(case, x: float, al: Allowed, r: float) -> bool:
    """Is ORT's element r (not conforming) what the clause states? float: |r - y| within the measured maximum
    at x; float16 (which ORT computes with the float kernel between inserted Casts, Kernel table): some float
    within that maximum of y rounds to r."""
    if case.dtype not in ("float", "float16") or not al.fin or not math.isfinite(r) or not math.isfinite(x):
        return False
    tol = ort_elem_tolerance(case.op, x, al.s)
    if tol is None:
        return False
    if case.dtype == "float":
        return abs(Fraction(r) - al.s) <= tol
    lo, hi = _f16_rounding_interval(r)
    return al.s - tol <= hi and al.s + tol >= lo


# ===================================================================== issue 32, second part: Sqrt, HardSigmoid,
# Softmax, LogSoftmax, LRN (spec/ops/sqrt.md, hardsigmoid.md, softmax.md, logsoftmax.md, lrn.md). What `run` writes
# ([Elem.run], [Sqrt.float.formula], [HardSigmoid.bound]'s last sentences): fl_T of the ideal, computed here
# independently of sonnx-ref: Sqrt by the binary64 square root (correctly rounded; the double rounding to float,
# float16, bfloat16 innocuous), HardSigmoid exactly in rationals (also fl_T(c(fl_64(s))): the binary64 centre
# may double-round), Softmax / LogSoftmax / LRN with Python's decimal module at NORM_DIGITS digits (exp, ln
# correctly rounded), the special rows and windows of [Softmax.edge], [LogSoftmax.edge], [LRN.edge] exactly.
# ORT's outputs of the four computed operators are judged by `sonnx-ref check` (lib/classify.py classify_norm),
# Sqrt's bit for bit against this model.

NORM = ("Sqrt", "HardSigmoid", "Softmax", "LogSoftmax", "LRN")
NORM_DIGITS = 45


def _f32(v) -> float:
    return float(np.float32(v))


def norm_axis(case) -> int:
    r = case.inputs[0].ndim
    a = case.attrs.get("axis", -1 if case.opset >= 13 else 1)
    return a + r if a < 0 else a


def norm_rows(case, x: np.ndarray):
    """(rows (N, n) of float64 values, back: rows-shaped array -> x-shaped) per [Softmax.float.formula] /
    [Softmax.coerce]."""
    k = norm_axis(case)
    if case.opset >= 13:
        moved = np.moveaxis(x, k, -1)
        n = x.shape[k]
        rows = moved.reshape(-1, n)

        def back(y):
            return np.moveaxis(y.reshape(moved.shape), -1, k)
        return rows, back
    N = int(np.prod(x.shape[:k], dtype=np.int64))
    rows = x.reshape(N, -1)
    return rows, (lambda y: y.reshape(x.shape))


def _dec(v) -> "_decimal.Decimal":
    return _decimal.Decimal(v)


def _softmax_row(op: str, row: List[float]):
    """Per element: ('x', float) exact special value or ('r', Fraction) the ideal."""
    n = len(row)
    if any(math.isnan(v) or v == math.inf for v in row) or all(v == -math.inf for v in row):
        return [("x", math.nan)] * n
    fin = [v for v in row if math.isfinite(v)]
    m = max(fin)
    big = _dctx(2000)
    ctx = _dctx(NORM_DIGITS)
    d = [big.subtract(_dec(v), _dec(m)) if math.isfinite(v) else None for v in row]
    w = [ctx.exp(max(t, _decimal.Decimal(-3000))) if t is not None else None for t in d]
    # W = 1 + t, t the sum of every term but the first maximum's (each relative to NORM_DIGITS; no cancellation)
    first = next(q for q, v in enumerate(row) if v == m)
    t = _decimal.Decimal(0)
    for q, wq in enumerate(w):
        if wq is not None and q != first:
            t = ctx.add(t, wq)
    W = ctx.add(1, t)
    if op == "LogSoftmax":
        if t < _decimal.Decimal("1e-12"):  # ln(1 + t) = t - t^2/2 + t^3/3 - t^4/4 + t^5/5: t^6 / t below 1e-60
            lnW = _decimal.Decimal(0)
            for k in range(5, 0, -1):  # Horner: t (1 - t (1/2 - t (1/3 - ...)))
                lnW = ctx.subtract(ctx.divide(1, k), ctx.multiply(t, lnW))
            lnW = ctx.multiply(t, lnW)
        else:
            lnW = ctx.ln(W)
    out = []
    for dq, wq in zip(d, w):
        if dq is None:
            out.append(("x", 0.0 if op == "Softmax" else -math.inf))
        elif op == "Softmax":
            out.append(("r", Fraction(ctx.divide(wq, W))))
        else:
            out.append(("r", Fraction(ctx.subtract(dq, lnW))))
    return out


def _lrn_ideals(case, x: np.ndarray):
    a = case.attrs
    size = a["size"]
    alpha, beta, bias = _f32(a.get("alpha", 1e-4)), _f32(a.get("beta", 0.75)), _f32(a.get("bias", 1.0))
    C = x.shape[1]
    lo_w, hi_w = (size - 1) // 2, -(-(size - 1) // 2)
    ctx = _dctx(NORM_DIGITS + 10)
    out = np.empty(x.shape, object)
    for idx in np.ndindex(*x.shape):
        c = idx[1]
        win = [x[(idx[0], i) + idx[2:]] for i in range(max(0, c - lo_w), min(C - 1, c + hi_w) + 1)]
        xv = float(x[idx])
        if not all(math.isfinite(v) for v in win):
            with np.errstate(all="ignore"):
                S = np.float64(0)
                for v in win:
                    S = S + np.float64(v) * np.float64(v)
                q = np.float64(bias) + np.float64(alpha) / np.float64(size) * S
                out[idx] = ("x", float(np.float64(xv) / np.power(q, np.float64(beta))))
            continue
        if xv == 0:
            out[idx] = ("x", xv)
            continue
        S = sum((Fraction(v) ** 2 for v in win), Fraction(0))
        q = Fraction(bias) + Fraction(alpha) / size * S
        qd = ctx.divide(_dec(q.numerator), _dec(q.denominator))
        y = ctx.multiply(_dec(xv), ctx.exp(ctx.multiply(_dec(-beta), ctx.ln(qd))))
        out[idx] = ("r", Fraction(y))
    return out.reshape(-1).tolist()


def norm_ideals(case):
    """Per element (flat): ('x', value) a value fixed exactly, or ('r', Fraction) the ideal y; and per element a
    set of further values `run` may write (HardSigmoid: c(fl_T(fl_64(s))), the binary64 centre rounded)."""
    dt = case.dtype
    x = values_of(dt, case.inputs[0])
    flat = x.reshape(-1).tolist()
    alts = [()] * len(flat)
    if case.op == "Sqrt":
        out = []
        for v in flat:
            if math.isnan(v) or v < 0:
                out.append(("x", math.nan))
            elif v == 0 or math.isinf(v):
                out.append(("x", v))
            else:
                r = math.sqrt(v)  # correctly rounded in binary64; to T innocuous ([Sqrt.float.formula])
                out.append(("x", r if dt == "double" else round_exact(Fraction(r), dt)))
        return out, alts
    if case.op == "HardSigmoid":
        al, be = _f32(case.attrs.get("alpha", 0.2)), _f32(case.attrs.get("beta", 0.5))
        out, alts = [], []
        for v in flat:
            if math.isnan(v) or (math.isinf(v) and al == 0):
                out.append(("x", math.nan))
                alts.append(())
            elif math.isinf(v):
                out.append(("x", 1.0 if (al > 0) == (v > 0) else 0.0))
                alts.append(())
            else:
                s = Fraction(al) * Fraction(v) + Fraction(be)
                out.append(("r", min(Fraction(1), max(Fraction(0), s))))
                try:
                    s64 = float(s)  # fl_64(s) (Fraction -> float rounds correctly)
                except OverflowError:
                    s64 = math.inf
                s64b = al * v + be  # binary64 product and sum, each rounded
                alts.append(tuple(min(1.0, max(0.0, round_exact(Fraction(t), dt))) for t in (s64, s64b)
                                  if math.isfinite(t)))
        return out, alts
    if case.op in ("Softmax", "LogSoftmax"):
        if x.size == 0:
            return [], []
        rows, back = norm_rows(case, x)
        res = np.empty(rows.shape, object)
        for i in range(rows.shape[0]):
            for j, e in enumerate(_softmax_row(case.op, rows[i].tolist())):
                res[i, j] = e
        return back(res).reshape(-1).tolist(), alts
    return _lrn_ideals(case, x), alts


def norm_run_values(case):
    """(expected: storage array of fl_T(y) per [Elem.run], ambiguous mask, alternatives: list of tuples of
    floats `run` may also write)."""
    ideals, alts = norm_ideals(case)
    vals, amb = [], []
    for kind, v in ideals:
        if kind == "x":
            vals.append(v)
            amb.append(False)
            continue
        vals.append(round_exact(v, case.dtype) if v != 0 else 0.0)
        d = abs(v) / 2 ** 100
        amb.append(v != 0 and round_exact(v - d, case.dtype) != round_exact(v + d, case.dtype))
    y = from_float64(case.dtype, np.array(vals, np.float64).reshape(-1)).reshape(case.inputs[0].shape)
    return y, np.array(amb, bool), alts


def norm_run_value(case) -> np.ndarray:
    return norm_run_values(case)[0]


_SPEC.update({op: norm_run_value for op in NORM})


def norm_error_ulps(case, y: np.ndarray) -> Optional[float]:
    """The largest |r - y| in ulps of T over the finite elements of finite ideals (None: none)."""
    f = fmt_of(case.dtype)
    best = None
    ideals, _ = norm_ideals(case)
    for (kind, s), r in zip(ideals, values_of(case.dtype, y).reshape(-1).tolist()):
        if kind == "x":
            s = Fraction(s) if math.isfinite(s) else None
        if s is None or not math.isfinite(r):
            continue
        a = abs(s)
        if a == 0:
            u = f.eta
        else:
            e = a.numerator.bit_length() - a.denominator.bit_length()
            if Fraction(2) ** e > a:
                e -= 1
            u = Fraction(2) ** (max(e, f.emin) - f.p + 1)
        err = float(abs(Fraction(r) - s) / u)
        best = err if best is None or err > best else best
    return best


# ===================================================================== Pow (spec/ops/pow.md)
# What `run` writes, computed independently of sonnx-ref (whose float oracle is binary64 exp/log polynomials
# and MPFR): per element the table of [Pow.special] as stated, else the ideal x^y of [Pow.float.formula] rounded
# once to T ([Elem.run]), or for an integer base [Pow.int.formula]'s truncation and [Pow.err.int-value]. The ideal:
# - an integer exponent: exactly, in rationals (Fraction(x) ** n), when its size is moderate; its binary magnitude
#   first (n log2|x| in binary64, 4 binades of margin) for what overflows or underflows past half of eta_T;
# - otherwise |x|^y = exp(y ln|x|) with Python's decimal module at POW_DIGITS digits (ln, exp correctly rounded;
#   the product one more rounding): |t| <= 800 where it matters, so t errs by less than 800 * 10^-(POW_DIGITS-2)
#   and x^y by less than 10^-(POW_DIGITS-6) relatively. fl_T is decided when x^y (1 - POW_EPS) and
#   x^y (1 + POW_EPS) round to one value (POW_EPS = 10^-(POW_DIGITS-10), far above that error); if not, the
#   exact power is tried (y = n / 2^k a dyadic rational and |x| a perfect 2^k-th power: 16^0.25 = 2); if that
#   fails too the element is ambiguous (both neighbours accepted; never met so far). For an integer base the
#   same decides floor(x^y) (x > 0, y not an integer).
POW_DIGITS = 80
POW_MUTATION = ""  # lib/selftest.py: "drop-sign" (sigma = 1), "int-round" (floor(x^y) rounded): must be noticed
POW_EPS = Fraction(1, 10 ** (POW_DIGITS - 10))


class PowRefused(Exception):
    """[Pow.err.int-value] at the flat output index `index`."""

    def __init__(self, index: int, why: str):
        super().__init__(f"[Pow.err.int-value] at flat index {index}: {why}")
        self.index, self.why = index, why


def pow_operands(case):
    """(X, E) broadcast to the output shape ([Pow.shape]: multidirectional from version 7, legacy in 1), as
    exact Python numbers: float (NaN/Inf kept) for a float type, int for an integer type."""
    x, e = case.inputs
    if case.opset < 7:
        e = legacy_b(case)
    X, E = np.broadcast_arrays(x, e)

    def vals(dt, a):
        if dt in FLOATS:
            return values_of(dt, a).reshape(-1).tolist()
        return [int(v) for v in np.asarray(a).reshape(-1).tolist()]
    return vals(case.in_dtype(0), X), vals(case.in_dtype(1), E), list(X.shape)


def _is_int(y) -> bool:
    return isinstance(y, int) or (math.isfinite(y) and y == math.floor(y))


def _is_odd(y) -> bool:
    return _is_int(y) and int(y) % 2 == 1


def _pow_special(x: float, y) -> Optional[float]:
    """[Pow.special], in its order: the value, or None when the formula applies."""
    yf = float(y) if not isinstance(y, int) else None
    if y == 0:
        return 1.0
    if x == 1:
        return 1.0
    if math.isnan(x):
        return math.nan
    if yf is not None and math.isnan(yf):
        return math.nan
    if yf is not None and math.isinf(yf):
        if x == -1:
            return 1.0
        if abs(x) < 1:
            return math.inf if yf < 0 else 0.0
        return 0.0 if yf < 0 else math.inf
    if x == 0:
        neg = math.copysign(1.0, x) < 0
        if y < 0:
            return -math.inf if (_is_odd(y) and neg) else math.inf
        return -0.0 if (_is_odd(y) and neg) else 0.0
    if x == -math.inf:
        if y < 0:
            return -0.0 if _is_odd(y) else 0.0
        return -math.inf if _is_odd(y) else math.inf
    if x == math.inf:
        return 0.0 if y < 0 else math.inf
    if x < 0 and not _is_int(y):
        return math.nan
    if x == -1:
        return -1.0 if _is_odd(y) else 1.0
    return None


def _iroot(n: int, k: int) -> Optional[int]:
    """The integer r >= 0 with r^k == n, or None."""
    if n < 0:
        return None
    if n < 2:
        return n
    r = int(round(n ** (1.0 / k))) if n.bit_length() < 1000 else 1 << (n.bit_length() // k)
    # Newton from above
    r = max(r, 1)
    while True:
        r2 = ((k - 1) * r + n // r ** (k - 1)) // k
        if r2 >= r:
            break
        r = r2
    for c in (r - 1, r, r + 1):
        if c >= 0 and c ** k == n:
            return c
    return None


def _pow_exact_dyadic(a: Fraction, y: float) -> Optional[Fraction]:
    """a^y exactly when y = n / 2^k and a is a perfect 2^k-th power of a rational (else None)."""
    n, d = Fraction(y).numerator, Fraction(y).denominator
    if d > 1 << 12:
        return None
    p, q = _iroot(a.numerator, d), _iroot(a.denominator, d)
    if p is None or q is None:
        return None
    return Fraction(p, q) ** n


_POW_MEMO: dict = {}


def pow_magnitude(a: Fraction, y):
    """|x|^y for a = |x| finite, non-zero, != 1 and y finite non-zero: ('big', sign of log) when its binary
    logarithm is beyond +-(1100 + 4) (outside every T's range, past half of eta_double), else ('exact', Fraction)
    or ('approx', Fraction within POW_EPS / 10^4 relatively)."""
    key = (a, y if isinstance(y, int) else float(y))
    if key in _POW_MEMO:
        return _POW_MEMO[key]
    L = float(y) * math.log2(a) if isinstance(y, float) else y * math.log2(a)
    if abs(L) > 1104:
        out = ("big", 1 if L > 0 else -1)
    elif _is_int(y) and abs(int(y)) * max(a.numerator.bit_length(), a.denominator.bit_length()) <= 1 << 17:
        out = ("exact", a ** int(y))
    else:
        ctx = _dctx(POW_DIGITS)
        t = ctx.multiply(_decimal.Decimal(y) if isinstance(y, int) else _decimal.Decimal(float(y)),
                         ctx.ln(_decimal.Decimal(a.numerator) if a.denominator == 1 else
                                _decimal.Decimal(float(a))))  # a is a binary64 value here: exact
        out = ("approx", Fraction(ctx.exp(t)))
    if len(_POW_MEMO) > 200000:
        _POW_MEMO.clear()
    _POW_MEMO[key] = out
    return out


def pow_float_element(dtype: str, x: float, y):
    """(fl_T value as float, ambiguous, the ideal as a Fraction or None for a special value)."""
    sp = _pow_special(x, y)
    if sp is not None:
        return sp, False, None
    sign = -1 if (x < 0 and _is_odd(y) and POW_MUTATION != "drop-sign") else 1
    a = Fraction(abs(x))
    kind, v = pow_magnitude(a, y)
    if kind == "big":
        return (sign * math.inf if v > 0 else math.copysign(0.0, sign)), False, None
    s = sign * v
    r = round_exact(s, dtype)
    if kind == "exact":
        return r, False, s
    lo, hi = round_exact(s * (1 - POW_EPS), dtype), round_exact(s * (1 + POW_EPS), dtype)
    if lo == hi:
        return r, False, s
    ex = _pow_exact_dyadic(a, float(y))
    if ex is not None:
        return round_exact(sign * ex, dtype), False, sign * ex
    return r, True, s


def pow_int_element(dtype: str, x: int, y, index: int):
    """[Pow.int.formula]: the exact value (a Python int) and the exact real x^y (a Fraction, None when it is
    not a finite real); raises PowRefused ([Pow.err.int-value])."""
    lo, hi = (-(1 << 31), (1 << 31) - 1) if dtype == "int32" else (-(1 << 63), (1 << 63) - 1)

    def ok(v: int, exact):
        if not lo <= v <= hi:
            raise PowRefused(index, f"{x}^{y} = {v} is outside {dtype}")
        return v, exact
    yf = None if isinstance(y, int) else float(y)
    if y == 0 or x == 1:
        return 1, Fraction(1)
    if yf is not None and math.isnan(yf):
        raise PowRefused(index, f"{x}^NaN")
    if yf is not None and math.isinf(yf):
        if x == -1:
            return 1, None
        if x == 0:
            if yf > 0:
                return 0, Fraction(0)
            raise PowRefused(index, "0^-Inf = +Inf")
        if yf < 0:
            return 0, Fraction(0)
        raise PowRefused(index, f"{x}^+Inf")
    if _is_int(y):
        n = int(y)
        if n >= 0:
            if abs(x) >= 2 and n > 64:
                raise PowRefused(index, f"{x}^{n} beyond 2^64")
            v = x ** n
            return ok(v, Fraction(v))
        if x == 0:
            raise PowRefused(index, f"0^{n} = Inf")
        if x == -1:
            return (-1 if n % 2 else 1), Fraction(-1 if n % 2 else 1)
        return 0, Fraction(1, x ** -n) if -n < 4096 else None
    # y finite, not an integer
    if x < 0:
        raise PowRefused(index, f"{x}^{y} = NaN")
    if x == 0:
        if yf > 0:
            return 0, Fraction(0)
        raise PowRefused(index, f"0^{y} = Inf")
    a = Fraction(x)
    kind, v = pow_magnitude(a, yf)
    if kind == "big":
        if v > 0:
            raise PowRefused(index, f"{x}^{y} beyond 2^1100")
        return 0, Fraction(0)
    if kind == "approx":
        f_lo, f_hi = math.floor(v * (1 - POW_EPS)), math.floor(v * (1 + POW_EPS))
        if f_lo != f_hi:
            ex = _pow_exact_dyadic(a, yf)
            if ex is None:
                raise AssertionError(f"Pow model: floor({x}^{y}) not decided")
            v = ex
    return ok(math.floor(v + (Fraction(1, 2) if POW_MUTATION == "int-round" else 0)), v)


def pow_model(case):
    """(expected output as a storage array, ambiguous mask (flat), ideals (flat: Fraction or None), refusal:
    PowRefused or None -- the first refusing index in row-major order)."""
    xs, ys, shape = pow_operands(case)
    dt = case.dtype
    if dt in FLOATS:
        out, amb, ideal = [], [], []
        for x, y in zip(xs, ys):
            v, a, s = pow_float_element(dt, x, y)
            out.append(v)
            amb.append(a)
            ideal.append(s)
        return from_float64(dt, np.array(out, np.float64)).reshape(shape), np.array(amb, bool), ideal, None
    out, ideal = [], []
    for j, (x, y) in enumerate(zip(xs, ys)):
        try:
            v, s = pow_int_element(dt, x, y, j)
        except PowRefused as e:
            return None, None, None, e
        out.append(v)
        ideal.append(s)
    return np.array(out, dtype=storage(dt)).reshape(shape), np.zeros(len(out), bool), ideal, None


def pow_run_value(case) -> np.ndarray:
    y, _, _, ref = pow_model(case)
    if ref is not None:
        raise ref
    return y


def pow_error_ulps(case, y: np.ndarray) -> Optional[float]:
    """The largest |r - x^y| in ulps of T over the finite elements of finite non-special ideals (float bases)."""
    if case.dtype not in FLOATS:
        return None
    f = fmt_of(case.dtype)
    _, _, ideal, _ = pow_model(case)
    best = None
    for s, r in zip(ideal, values_of(case.dtype, y).reshape(-1).tolist()):
        if s is None or not math.isfinite(r) or abs(s) >= f.omega:
            continue
        a = abs(s)
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** e > a:
            e -= 1
        u = Fraction(2) ** (max(e, f.emin) - f.p + 1)
        err = float(abs(Fraction(r) - s) / u)
        best = err if best is None or err > best else best
    return best


_SPEC["Pow"] = pow_run_value


def pow_double_exponent_values(case) -> list:
    """Per flat element, where the exponent is an int64 / uint64 integer that binary64 does not hold (|y| > 2^53):
    the model's value for the exponent rounded to binary64 (its parity lost: the even neighbour), as a float
    (float base) or an int (integer base; None where that would refuse); None elsewhere. ORT's std::pow takes a
    double exponent (the proposed [Pow.div.ort-exponent-double])."""
    xs, ys, _ = pow_operands(case)
    out = []
    for j, (x, y) in enumerate(zip(xs, ys)):
        if not isinstance(y, int) or float(y) == y:
            out.append(None)
            continue
        if case.dtype in FLOATS:
            out.append(pow_float_element(case.dtype, x, float(y))[0])
        else:
            try:
                out.append(pow_int_element(case.dtype, x, float(y), j)[0])
            except PowRefused:
                out.append(None)
    return out
