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
