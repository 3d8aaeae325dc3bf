"""Classification of one differential case.

  agree         ORT's output equals sonnx-ref's bit for bit (any NaN equals any NaN; ±0 distinguished)
  divergence    they differ, and every differing element is predicted by a divergence clause of
                spec/ (the peer's value equals what the clause says the peer computes) -- the IDs are listed
  ort-refuses   ORT produced no output (no kernel, type rejected at load, run-time error, crash)
  unexplained   anything else; also: sonnx-ref's output is not the spec value (checked against the
                independent model in model.py), or sonnx-ref refused a valid case

A divergence classifier never excuses sonnx-ref: sonnx-ref must equal the spec model first.
"""
from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np

import model as M
from onnxcase import FLOATS, Case, bits_view, from_bits, is_nan_bits, out_dtype
from peers import Outcome

DIV = {
    "max_ort_zero": "Max.div.ort-signed-zero",
    "max_np_zero": "Max.div.numpy-signed-zero",
    "rm_ort_nan": "ReduceMax.div.ort-nan",
    "rm_ort_zero": "ReduceMax.div.ort-signed-zero",
    "rm_np_zero": "ReduceMax.div.numpy-signed-zero",
    "hm_ort_nan": "Hardmax.div.ort-nan",
    "hm_ort_zero": "Hardmax.div.ort-signed-zero",
    # [ReduceMax.div.ort-empty-negative-axes], [ReduceMax.div.ort-bool-empty] (spec/ops/reducemax.md):
    "rm_ort_empty_neg": "ReduceMax.div.ort-empty-negative-axes",
    "rm_ort_bool_empty": "ReduceMax.div.ort-bool-empty",
    # The second family. spec/ops/{relu,clip,maxpool,globalmaxpool}.md define theirs; the Min,
    # ReduceMin, ArgMax and ArgMin ones are the duals of the Max / ReduceMax clauses, named here
    # as those specs are to name them (README.md, "Second family").
    "min_ort_zero": "Min.div.ort-signed-zero",
    "rmin_ort_nan": "ReduceMin.div.ort-nan",
    "rmin_ort_zero": "ReduceMin.div.ort-signed-zero",
    "rmin_ort_empty_neg": "ReduceMin.div.ort-empty-negative-axes",
    "rmin_ort_bool_empty": "ReduceMin.div.ort-bool-empty",
    "argmax_ort_nan": "ArgMax.div.ort-nan",
    "argmax_ort_zero": "ArgMax.div.ort-signed-zero",
    "argmin_ort_nan": "ArgMin.div.ort-nan",
    "argmin_ort_zero": "ArgMin.div.ort-signed-zero",
    "relu_ort_zero": "Relu.div.ort-signed-zero",
    "cast_nan_payload": "Cast.div.nan-payload",  # issue 33
    "clip_ort_zero": "Clip.div.ort-signed-zero",
    "clip_ort_nan_bound": "Clip.div.ort-nan-bound",
    "clip_ort_default_inf": "Clip.div.ort-default-inf",
    "mp_ort_nan": "MaxPool.div.ort-nan",
    "mp_ort_zero": "MaxPool.div.ort-signed-zero",
    "mp_ort_neg_inf": "MaxPool.div.ort-neg-inf",
    "mp_ort_same_dil": "MaxPool.div.ort-same-dilation",
    "mp_ort_valid_ceil": "MaxPool.div.ort-valid-ceil",
    "mp_ort_same_neg_pad": "MaxPool.div.ort-same-negative-pad",
    "mp_ort_empty_window": "MaxPool.div.ort-empty-window",
    "gmp_ort_nan": "GlobalMaxPool.div.ort-nan",
    "gmp_ort_zero": "GlobalMaxPool.div.ort-signed-zero",
    "gmp_ort_neg_inf": "GlobalMaxPool.div.ort-neg-inf",
    "gmp_ort_empty": "GlobalMaxPool.div.ort-empty",
}


def same_elements(dtype: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Elementwise agreement: bitwise, except that any NaN equals any NaN."""
    if dtype in FLOATS:
        na, nb = is_nan_bits(dtype, a), is_nan_bits(dtype, b)
        return (na & nb) | (~na & ~nb & (bits_view(dtype, a) == bits_view(dtype, b)))
    return np.asarray(a == b)


def same(dtype: str, a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all(same_elements(dtype, a, b)))


def is_neg_zero(dtype: str, a: np.ndarray) -> np.ndarray:
    if dtype not in FLOATS:
        return np.zeros(a.shape, bool)
    return M.View(dtype, a).neg0


def _result(cls: str, ids: Optional[List[str]] = None, detail: str = "") -> Dict:
    return {"class": cls, "ids": sorted(set(ids or [])), "detail": detail}


# ----------------------------------------------------------------------------- ORT refusals

def ort_refusal_reason(out: Outcome) -> str:
    e = out.error
    if out.stage in ("crash", "timeout"):
        return out.stage
    if "Could not find an implementation" in e:
        return "no-kernel"
    if "InsertedPrecisionFreeCast" in e:
        return "fp16-cast-insertion-fails"  # ORT computes float16 in float; its inserted Cast is invalid below opset 6
    if "Type Error" in e:
        return "type-constraint"
    if out.stage == "run":
        return "run-error"
    return "load-error"


def is_bool_empty_refusal(case: Case, out: Outcome) -> bool:
    """[ReduceMax.div.ort-bool-empty] Measured: ORT 1.30 fails at run time ('ReduceMax is not defined for empty set with bool type')
    on ReduceMax-20 bool when a reduced set R(j) is empty, where the spec gives False."""
    if case.op != "ReduceMax" or case.dtype != "bool" or out.stage != "run":
        return False
    if "not defined for empty set with bool" not in out.error:
        return False
    axes = M.resolve_reduce(case)
    x = case.inputs[0]
    return axes is not None and any(x.shape[a] == 0 for a in axes)


# ------------------------------------------------------------------------ divergence models

def explain_max(case: Case, peer: np.ndarray, spec: np.ndarray, which: str) -> Dict:
    """[Max.div.ort-signed-zero] / [Max.div.numpy-signed-zero]: on a ±0 tie (maximum zero, both
    signs among the operands, no NaN) the peer returns -0 where the spec says +0; nothing else."""
    diff = ~same_elements(case.dtype, peer, spec)
    tie = M.max_tie_zero_mask(case.dtype, case.inputs)
    if np.all(tie[diff]) and np.all(is_neg_zero(case.dtype, peer)[diff]):
        return _result("divergence", [DIV["max_ort_zero" if which == "ort" else "max_np_zero"]],
                       f"{int(diff.sum())} element(s) -0 on a ±0 tie")
    return _result("unexplained", detail=f"{int((diff & ~tie).sum())} differing element(s) outside ±0 ties")


def _explain_by_triggers(case: Case, peer: np.ndarray, spec: np.ndarray, allowed: np.ndarray,
                         nan_t: np.ndarray, zero_t: np.ndarray, nan_id: str, zero_id: str) -> Dict:
    diff = ~same_elements(case.dtype, peer, spec)
    bad = diff & ~allowed
    if bad.any():
        return _result("unexplained", detail=f"{int(bad.sum())} element(s) outside the divergence model")
    nan_part = diff & nan_t
    zero_part = diff & ~nan_t & zero_t
    other = diff & ~nan_t & ~zero_t
    if other.any():
        return _result("unexplained", detail=f"{int(other.sum())} differing element(s) without NaN or ±0 trigger")
    ids = ([nan_id] if nan_part.any() else []) + ([zero_id] if zero_part.any() else [])
    return _result("divergence", ids, f"{int(nan_part.sum())} NaN-triggered, {int(zero_part.sum())} ±0-triggered")


def explain_reducemax_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    if peer.shape != spec.shape:
        return explain_reducemax_empty_negative(case, peer)
    nan_t, zero_t = M.reduce_triggers(case)
    return _explain_by_triggers(case, peer, spec, M.ort_reduce_allowed(case, peer), nan_t, zero_t,
                                DIV["rm_ort_nan"], DIV["rm_ort_zero"])


def explain_reducemax_empty_negative(case: Case, peer: np.ndarray) -> Dict:
    """[ReduceMax.div.ort-empty-negative-axes] Measured: on an input with a zero-sized dimension ORT 1.30 drops the negative entries of
    axes (they are not reduced; if none is left the input is returned unchanged)."""
    x = case.inputs[0]
    given = case.attrs.get("axes") if case.opset < 18 else case.axes
    if x.size != 0 or not given or not any(a < 0 for a in given):
        return _result("unexplained", detail=f"output shape {list(peer.shape)} != spec shape")
    kept = [a for a in given if a >= 0]
    pred = x.copy() if not kept else M._reduce(case.dtype, x, sorted(set(kept)), case.attrs.get("keepdims", 1), M._fold_spec)  # every R(j) is empty here
    if same(case.dtype, peer, pred):
        return _result("divergence", [DIV["rm_ort_empty_neg"]], f"negative axes ignored: shape {list(peer.shape)}")
    return _result("unexplained", detail=f"output shape {list(peer.shape)} matches no model")


def explain_hardmax_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    if peer.shape != spec.shape:
        return _result("unexplained", detail=f"output shape {list(peer.shape)} != spec {list(spec.shape)}")
    nan_t, zero_t = M.hardmax_triggers(case)
    return _explain_by_triggers(case, peer, spec, M.ort_hardmax_allowed(case, peer), nan_t, zero_t,
                                DIV["hm_ort_nan"], DIV["hm_ort_zero"])


# ----------------------------------------------------------------------------------- numpy

def numpy_output(case: Case) -> Optional[np.ndarray]:
    """numpy's answer where it is cheap: np.maximum folded over the inputs (Max), np.max with the
    resolved axes (ReduceMax). None for Hardmax (numpy has no Hardmax) and for bfloat16."""
    if case.dtype == "bfloat16" or case.op not in ("Max", "ReduceMax"):
        return None
    with np.errstate(all="ignore"):
        if case.op == "Max":  # np.maximum folded left to right, as numpy-based evaluators write it
            y = np.broadcast_to(case.inputs[0], np.broadcast_shapes(*[x.shape for x in case.inputs])).copy()
            for x in case.inputs[1:]:
                y = np.maximum(y, x)
            return y
        axes = M.resolve_reduce(case)
        x = case.inputs[0]
        if axes is None:
            return x.copy()
        init = M.empty_value(case.dtype)
        return np.max(x, axis=tuple(axes), keepdims=bool(case.attrs.get("keepdims", 1)), initial=init)


def classify_numpy(case: Case, spec: np.ndarray) -> Optional[Dict]:
    npy = numpy_output(case)
    if npy is None:
        return None
    npy = np.asarray(npy, dtype=spec.dtype)
    if npy.shape != spec.shape:
        return _result("unexplained", detail=f"numpy shape {list(npy.shape)}")
    if same(case.dtype, npy, spec):
        return _result("agree")
    if case.op == "Max":
        return explain_max(case, npy, spec, "numpy")
    # [ReduceMax.div.numpy-signed-zero]: np.max may return -0 where R(j) has no NaN and its maximum is a ±0 tie
    diff = ~same_elements(case.dtype, npy, spec)
    nan_t, zero_t = M.reduce_triggers(case)
    if np.all((zero_t & ~nan_t)[diff]) and np.all(is_neg_zero(case.dtype, npy)[diff]):
        return _result("divergence", [DIV["rm_np_zero"]], f"{int(diff.sum())} element(s) -0 on a ±0 tie")
    return _result("unexplained", detail="numpy differs outside ±0 ties")


# ------------------------------------------------------------------------------------ case

def classify(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    if case.op in M.COMPUTING:
        return classify_computed(case, ort, ref)
    if case.op in M.ARITH:
        with np.errstate(all="ignore"):
            return classify_arith(case, ort, ref)
    if case.op in M.SUMS:  # Sum, Mean, ReduceSum, ReduceMean (below)
        return classify_sums(case, ort, ref)
    if case.op in M.MOVEMENT:
        return classify_movement(case, ort, ref)
    if case.op not in ("Max", "ReduceMax", "Hardmax"):
        with np.errstate(all="ignore"):
            return classify_second(case, ort, ref)
    with np.errstate(all="ignore"):
        spec = M.spec_output(case)
        if not ref.ok:
            return _result("unexplained", detail=f"sonnx-ref {ref.stage}: {ref.error}")
        if not same(case.dtype, ref.y, spec):
            return _result("unexplained", detail="sonnx-ref output differs from the spec model (model.py)")
        if not ort.ok:
            if is_bool_empty_refusal(case, ort):
                return _result("divergence", [DIV["rm_ort_bool_empty"]], "ORT run-time error on an empty bool set")
            return _result("ort-refuses", detail=ort_refusal_reason(ort) + ": " + ort.error[:200])
        if same(case.dtype, ort.y, ref.y):
            return _result("agree")
        if case.op == "Max":
            if ort.y.shape != spec.shape:
                return _result("unexplained", detail=f"ORT shape {list(ort.y.shape)}")
            return explain_max(case, ort.y, spec, "ort")
        if case.op == "ReduceMax":
            return explain_reducemax_ort(case, ort.y, spec)
        return explain_hardmax_ort(case, ort.y, spec)


# ======================================================================= the second family

def _lowest_finite(dtype: str):
    """The lowest finite value of T as ORT's pooling kernels start from it (float16: -Inf)."""
    bits = {"float16": 0xFC00, "bfloat16": 0xFF7F, "float": 0xFF7FFFFF, "double": 0xFFEFFFFFFFFFFFFF}[dtype]
    return from_bits(dtype, [bits])[0]


def explain_min_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    """[Min.div.ort-signed-zero]: on a ±0 tie (minimum a zero of both signs, no NaN) ORT may give +0."""
    if peer.shape != spec.shape:
        return _result("unexplained", detail=f"ORT shape {list(peer.shape)}")
    diff = ~same_elements(case.dtype, peer, spec)
    tie = M.min_tie_zero_mask(case.dtype, case.inputs)
    pv = M.View(case.dtype, peer)
    if np.all(tie[diff]) and np.all(((pv.val == 0) & ~pv.neg0)[diff]):
        return _result("divergence", [DIV["min_ort_zero"]], f"{int(diff.sum())} element(s) +0 on a ±0 tie")
    return _result("unexplained", detail=f"{int((diff & ~tie).sum())} differing element(s) outside ±0 ties")


def explain_reducemin_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    """[ReduceMin.div.ort-signed-zero] either zero on a ±0 tie; [ReduceMin.div.ort-nan] a NaN set
    answered by a NaN or one of its elements; [ReduceMin.div.ort-empty-negative-axes]."""
    dtype = case.dtype
    axes = M.resolve_reduce(case)
    x = case.inputs[0]
    if peer.shape != spec.shape:
        given = case.attrs.get("axes") if case.opset < 18 else case.axes
        if x.size == 0 and given and any(a < 0 for a in given):
            kept = [a for a in given if a >= 0]
            pred = x.copy() if not kept else M.reduce_with(dtype, x, sorted(set(kept)), case.attrs.get("keepdims", 1),
                                                           M._fold_min, M.full_value(dtype))
            if same(dtype, peer, pred):
                return _result("divergence", [DIV["rmin_ort_empty_neg"]], f"negative axes ignored: shape {list(peer.shape)}")
        return _result("unexplained", detail=f"output shape {list(peer.shape)} != spec shape")
    if axes is None:
        return _result("unexplained", detail="identity differs")
    rows, _ = M.reduce_layout(x, axes)
    diff = ~same_elements(dtype, peer, spec).reshape(-1)
    if dtype not in FLOATS or rows.shape[1] == 0:
        return _result("unexplained", detail=f"{int(diff.sum())} differing element(s)")
    nan_t, zero_t = M.row_triggers_min(dtype, rows)
    p = M.View(dtype, contig_flat(peer))
    member = (bits_view(dtype, rows) == bits_view(dtype, contig_flat(peer))[:, None]).any(axis=1)
    ok = (nan_t & (p.nan | member)) | (~nan_t & zero_t & ~p.nan & (p.val == 0))
    if np.any(diff & ~ok):
        return _result("unexplained", detail=f"{int((diff & ~ok).sum())} element(s) outside the divergence model")
    ids = ([DIV["rmin_ort_nan"]] if (diff & nan_t).any() else []) + \
          ([DIV["rmin_ort_zero"]] if (diff & ~nan_t & zero_t).any() else [])
    return _result("divergence", ids, f"{int((diff & nan_t).sum())} NaN-triggered, {int((diff & ~nan_t).sum())} ±0-triggered")


def contig_flat(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).reshape(-1)


def explain_arg_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    """[ArgMax.div.ort-nan] / [ArgMax.div.ort-signed-zero] (and ArgMin's): ORT's position is that of
    its running IEEE comparison (M.ort_arg); allowed only in rows holding a NaN, or whose extreme is
    a zero met with both signs. [ArgMax.div.ort-empty-negative-axis], [ArgMin.div.ort-empty-negative-axis] (spec/ops/argmax.md, argmin.md), on an empty input with a
    negative axis ORT returns an empty output of the input's shape (the axis not reduced)."""
    if peer.shape != spec.shape:
        x = case.inputs[0]
        if x.size == 0 and case.attrs.get("axis", 0) < 0 and list(peer.shape) == list(x.shape):
            return _result("divergence", [f"{case.op}.div.ort-empty-negative-axis"],
                           f"negative axis ignored on an empty input: shape {list(peer.shape)}")
        return _result("unexplained", detail=f"ORT shape {list(peer.shape)}")
    rows, _ = M.arg_rows(case)
    diff = (peer != spec).reshape(-1)
    if case.dtype not in FLOATS:
        return _result("unexplained", detail=f"{int(diff.sum())} differing position(s) (integers)")
    nan_t, zero_t = (M.row_triggers if case.op == "ArgMax" else M.row_triggers_min)(case.dtype, rows)
    model = M.ort_arg(case).reshape(-1)
    ok = (nan_t | zero_t) & (contig_flat(peer) == model)
    if np.any(diff & ~ok):
        return _result("unexplained", detail=f"{int((diff & ~ok).sum())} position(s) outside the divergence model")
    pre = "argmax" if case.op == "ArgMax" else "argmin"
    ids = ([DIV[pre + "_ort_nan"]] if (diff & nan_t).any() else []) + \
          ([DIV[pre + "_ort_zero"]] if (diff & ~nan_t & zero_t).any() else [])
    return _result("divergence", ids, f"{int(diff.sum())} position(s) of ORT's IEEE comparison")


def explain_relu_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    """[Relu.div.ort-signed-zero]: ORT returns -0 for -0."""
    if peer.shape != spec.shape:
        return _result("unexplained", detail=f"ORT shape {list(peer.shape)}")
    diff = ~same_elements(case.dtype, peer, spec)
    if case.dtype in FLOATS:
        xneg0 = M.View(case.dtype, case.inputs[0]).neg0
        if np.all((xneg0 & is_neg_zero(case.dtype, peer))[diff]):
            return _result("divergence", [DIV["relu_ort_zero"]], f"{int(diff.sum())} -0 kept")
    return _result("unexplained", detail=f"{int(diff.sum())} differing element(s)")


def explain_clip_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    """ORT's Clip is a running IEEE comparison (M.ort_clip): [Clip.div.ort-signed-zero] where a zero
    decides, [Clip.div.ort-nan-bound] where a bound is a NaN, [Clip.div.ort-default-inf] for the
    infinities under an absent bound (float16 at Clip-11, bfloat16 at Clip-13 with no bound)."""
    dtype = case.dtype
    if peer.shape != spec.shape:
        return _result("unexplained", detail=f"ORT shape {list(peer.shape)}")
    diff = ~same_elements(dtype, peer, spec)
    if dtype not in FLOATS:
        return _result("unexplained", detail=f"{int(diff.sum())} differing element(s) (integers)")
    lo, hi, lo_given, hi_given = M.clip_bounds(case)
    inf_rule = case.opset >= 11 and ((dtype == "float16" and case.opset == 11)
                                     or (dtype == "bfloat16" and not lo_given and not hi_given))
    model = M.ort_clip(case, default_inf=inf_rule)
    ok = same_elements(dtype, peer, model).reshape(-1)
    diff = diff.reshape(-1)
    if np.any(diff & ~ok):
        return _result("unexplained", detail=f"{int((diff & ~ok).sum())} element(s) outside ORT's model")
    bl, bh = M.View(dtype, np.array([lo])), M.View(dtype, np.array([hi]))
    x = M.View(dtype, case.inputs[0].reshape(-1))
    nan_bound = bool(bl.nan[0] or bh.nan[0])
    inf_x = np.isinf(x.val) & inf_rule
    zero_involved = (x.val == 0) | (bl.val[0] == 0) | (bh.val[0] == 0)
    ids, bad = [], diff.copy()
    if nan_bound and diff.any():
        ids.append(DIV["clip_ort_nan_bound"])
        bad[:] = False
    if (diff & inf_x & bad).any():
        ids.append(DIV["clip_ort_default_inf"])
        bad &= ~inf_x
    if (diff & zero_involved & bad).any():
        ids.append(DIV["clip_ort_zero"])
        bad &= ~zero_involved
    if bad.any():
        return _result("unexplained", detail=f"{int(bad.sum())} element(s) without a NaN bound, ±Inf default or zero")
    return _result("divergence", ids, f"{int(diff.sum())} element(s) of ORT's IEEE comparison")


def _pool_allowed(dtype, members_vals, peer_y, spec_y, pooled_path_neg_inf: bool):
    """Per window: (allowed, trigger) for ORT's Y: NaN windows ([*.div.ort-nan]) give a NaN, a
    member or the lowest finite value; ±0 ties ([*.div.ort-signed-zero]) either zero; windows of
    -Inf ([*.div.ort-neg-inf]) the lowest finite float."""
    v = M.View(dtype, members_vals)
    p = M.View(dtype, np.array([peer_y]))
    pbits = bits_view(dtype, np.array([peer_y]))[0]
    if v.nan.any():
        member = bool((bits_view(dtype, members_vals) == pbits).any())
        low = pbits == bits_view(dtype, np.array([_lowest_finite(dtype)]))[0]
        return bool(p.nan[0] or member or low), "nan"
    finite = v.val
    mx = finite.max()
    if mx == 0 and v.neg0.any() and ((finite == 0) & ~v.neg0).any():
        return bool(p.val[0] == 0 and not p.nan[0]), "zero"
    if mx == -np.inf and pooled_path_neg_inf:
        return bool(pbits == bits_view(dtype, np.array([_lowest_finite(dtype)]))[0]), "neg_inf"
    return False, None


def _judge_pool(case: Case, ort, windows, y_ref, i_ref, empty, fast: bool):
    """(number of windows ORT's values are not excused for, the IDs that excuse the others)."""
    dtype = case.dtype
    x = case.inputs[0]
    flat = np.ascontiguousarray(x).reshape(-1)
    py, sy = contig_flat(ort.y), contig_flat(y_ref)
    with_i = case.n_outputs == 2
    if with_i and (not ort.extra or ort.extra[0].shape != i_ref.shape):
        return 1, set()
    pi = contig_flat(ort.extra[0]) if with_i else None
    si = contig_flat(i_ref)
    dy = ~same_elements(dtype, py, sy) if dtype in FLOATS else (py != sy)
    di = (pi != si) if with_i else np.zeros_like(dy)
    dy = dy | empty
    ids, bad = set(), 0
    order = case.attrs.get("storage_order", 0)
    for j in np.nonzero(dy | di)[0]:
        members = windows[j]
        if empty[j]:  # [MaxPool.div.ort-empty-window]: the type's lowest value, a negative index
            low = _lowest_finite(dtype) if dtype in FLOATS else np.iinfo(flat.dtype).min
            ok = same_elements(dtype, py[j:j + 1], np.array([low], dtype=flat.dtype))[0] if dtype in FLOATS \
                else py[j] == low
            if ok and (not with_i or pi[j] < 0):
                ids.add(DIV["mp_ort_empty_window"])
            else:
                bad += 1
            continue
        vals = flat[members]
        if dtype not in FLOATS:
            bad += 1
            continue
        if dy[j]:
            ok, trig = _pool_allowed(dtype, vals, py[j], sy[j], fast)
        else:  # Y agrees (NaN = any NaN): only the member the index designates differs
            vv = M.View(dtype, vals)
            if vv.nan.any():
                ok, trig = True, "nan"
            elif M.View(dtype, sy[j:j + 1]).val[0] == 0 and vv.neg0.any() and ((vv.val == 0) & ~vv.neg0).any():
                ok, trig = True, "zero"
            else:
                ok = False
        if ok and with_i:
            cand = [m if order == 0 else M.storage_order_index(x.shape, m) for m in members]
            if int(pi[j]) not in cand:
                ok = False
            else:
                m = members[cand.index(int(pi[j]))]
                pv = flat[m:m + 1]
                ok = bool(same_elements(dtype, pv, py[j:j + 1])[0]
                          or (M.View(dtype, pv).val[0] == 0 and M.View(dtype, py[j:j + 1]).val[0] == 0))
        if not ok:
            bad += 1
            continue
        ids.add(DIV[{"nan": "mp_ort_nan", "zero": "mp_ort_zero", "neg_inf": "mp_ort_neg_inf"}[trig]])
    return bad, ids


def explain_maxpool_ort(case: Case, ort, spec_y: np.ndarray, spec_i) -> Dict:
    """Per window [MaxPool.div.ort-nan], [MaxPool.div.ort-signed-zero], [MaxPool.div.ort-neg-inf];
    where ORT's geometry is not the spec's (SAME_*, VALID with ceil_mode) the windows of
    M.ort_pool_geometry: [MaxPool.div.ort-same-dilation], [MaxPool.div.ort-same-negative-pad],
    [MaxPool.div.ort-valid-ceil], [MaxPool.div.ort-empty-window]. Indices: where Y is excused, ORT's
    index must designate a member of the window holding ORT's value (a NaN for a NaN)."""
    x = case.inputs[0]
    a = case.attrs
    fast = case.dtype == "float" and case.n_outputs == 1 and max(a.get("dilations", [1])) == 1
    bad = None
    if ort.y.shape == spec_y.shape:
        _, _, windows = M.maxpool_eval(case, M.pool_geometry(x.shape, a))
        bad, ids = _judge_pool(case, ort, windows, spec_y, spec_i, np.zeros(spec_y.size, bool), fast)
        if not bad:
            return _result("divergence", sorted(ids), "windows differ")
    auto = a.get("auto_pad", "NOTSET")
    if auto.startswith("SAME") or (auto == "VALID" and a.get("ceil_mode", 0) == 1):
        geom = M.ort_pool_geometry(x.shape, a)
        y_o, i_o, windows, empty = M.maxpool_eval_loose(case, geom)
        if ort.y.shape == y_o.shape:
            bad2, ids = _judge_pool(case, ort, windows, y_o, i_o, empty.reshape(-1), fast)
            if not bad2:
                if auto.startswith("SAME") and max(a.get("dilations", [1])) > 1:
                    ids.add(DIV["mp_ort_same_dil"])
                if auto.startswith("SAME") and geom[5]:
                    ids.add(DIV["mp_ort_same_neg_pad"])
                if auto == "VALID":
                    ids.add(DIV["mp_ort_valid_ceil"])
                return _result("divergence", sorted(ids), "ORT's geometry")
            return _result("unexplained", detail=f"{bad2} window(s) of ORT's geometry outside the divergence model")
        return _result("unexplained", detail=f"ORT shape {list(ort.y.shape)} matches no geometry model")
    if bad is None:
        return _result("unexplained", detail=f"ORT shape {list(ort.y.shape)} != spec {list(spec_y.shape)}")
    return _result("unexplained", detail=f"{bad} window(s) outside the divergence model")


def explain_gmp_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    """[GlobalMaxPool.div.ort-nan], [GlobalMaxPool.div.ort-signed-zero], [GlobalMaxPool.div.ort-neg-inf]."""
    dtype = case.dtype
    if peer.shape != spec.shape:
        return _result("unexplained", detail=f"ORT shape {list(peer.shape)}")
    x = case.inputs[0]
    rows = np.ascontiguousarray(x).reshape(x.shape[0] * x.shape[1], int(np.prod(x.shape[2:], dtype=np.int64)))
    py, sy = contig_flat(peer), contig_flat(spec)
    diff = ~same_elements(dtype, py, sy)
    ids, bad = set(), 0
    for j in np.nonzero(diff)[0]:
        ok, trig = _pool_allowed(dtype, rows[j], py[j], sy[j], dtype == "float")
        if not ok:
            bad += 1
            continue
        ids.add(DIV["gmp_ort_" + {"nan": "nan", "zero": "zero", "neg_inf": "neg_inf"}[trig]])
    if bad:
        return _result("unexplained", detail=f"{bad} element(s) outside the divergence model")
    return _result("divergence", sorted(ids), f"{int(diff.sum())} element(s) differ")


def classify_second(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    specs = M.spec_outputs(case)
    odt = out_dtype(case)
    if not ref.ok:
        return _result("unexplained", detail=f"sonnx-ref {ref.stage}: {ref.error}")
    ref_all = [ref.y] + list(ref.extra or [])
    if len(ref_all) != len(specs) or not all(same(d, r, s) for r, s, d in
                                             zip(ref_all, specs, [odt] + ["int64"] * (len(specs) - 1))):
        return _result("unexplained", detail="sonnx-ref output differs from the spec model (model.py)")
    if not ort.ok:
        if case.op == "GlobalMaxPool" and ort.stage == "run" and "Only N can be zero" in ort.error \
                and 0 in case.inputs[0].shape[2:] and case.inputs[0].shape[1] > 0:
            return _result("divergence", [DIV["gmp_ort_empty"]], "ORT refuses an empty spatial set at run time")
        if case.op == "ReduceMin" and case.dtype == "bool" and ort.stage == "run" and "empty set" in ort.error:
            return _result("divergence", [DIV["rmin_ort_bool_empty"]], "ORT run-time error on an empty bool set")
        return _result("ort-refuses", detail=ort_refusal_reason(ort) + ": " + ort.error[:200])
    ort_all = [ort.y] + list(ort.extra or [])
    if len(ort_all) == len(specs) and all(same(d, o, r) for o, r, d in
                                          zip(ort_all, ref_all, [odt] + ["int64"] * (len(specs) - 1))):
        return _result("agree")
    spec = specs[0]
    if case.op == "Squeeze" and case.axes == []:  # [Squeeze.div.ort-empty-axes]: ORT reads the empty input as absent
        x = case.inputs[0]
        every = x.reshape([d for d in x.shape if d != 1])
        if ort.y.shape == every.shape and same(odt, ort.y, every):
            return _result("divergence", ["Squeeze.div.ort-empty-axes"], "ORT removes every axis of size 1")
    if case.op == "Min":
        return explain_min_ort(case, ort.y, spec)
    if case.op == "ReduceMin":
        return explain_reducemin_ort(case, ort.y, spec)
    if case.op in ("ArgMax", "ArgMin"):
        return explain_arg_ort(case, ort.y, spec)
    if case.op == "Relu":
        return explain_relu_ort(case, ort.y, spec)
    if case.op == "Clip":
        return explain_clip_ort(case, ort.y, spec)
    if case.op == "MaxPool":
        return explain_maxpool_ort(case, ort, spec, specs[1] if len(specs) > 1 else spec)
    if case.op in ("Cast", "ConstantOfShape", "Shape"):  # issue 33
        return explain_move_ort(case, ort.y, spec)
    return explain_gmp_ort(case, ort.y, spec)


def explain_move_ort(case: Case, peer: np.ndarray, spec: np.ndarray) -> Dict:
    """[Cast.div.nan-payload]: a NaN of the same sign with another payload or quiet bit."""
    odt = out_dtype(case)
    if peer.shape != spec.shape:
        return _result("unexplained", detail=f"ORT shape {list(peer.shape)}")
    diff = ~same_elements(odt, peer, spec)
    if case.op == "Cast" and odt in FLOATS:
        w = {"float16": 15, "bfloat16": 15, "float": 31, "double": 63}[odt]
        sign = lambda a: (bits_view(odt, a).astype(np.uint64) >> np.uint64(w)) & np.uint64(1)  # noqa: E731
        both = is_nan_bits(odt, peer) & is_nan_bits(odt, spec) & (sign(peer) == sign(spec))
        if np.all(both[diff]):
            return _result("divergence", [DIV["cast_nan_payload"]], f"{int(diff.sum())} NaN(s) with another payload")
    return _result("unexplained", detail=f"{int(diff.sum())} differing element(s)")


# ===================================================================== the computing family
# Conv, Gemm, MatMul: every element is judged by the accuracy model of spec/common/accuracy.md
# (lib/model.py judge_output), never bit for bit (integers excepted, [Acc.int]). sonnx-ref's output
# must conform element by element; ORT's elements conform (agree), or are predicted by a divergence
# clause (the peer's value is the one, or within the bound of the one, the clause computes), or the
# case is unexplained. An ORT refusal is "ort-refuses" only when a clause states it.

COMP_DIV = {
    "conv_padded_inf": "Conv.div.ort-padded-inf",
    "conv_same_dil": "Conv.div.ort-same-dilation",
    "conv_refuses": "Conv.div.ort-refuses",
    "conv_empty_channels": "Conv.div.ort-empty-channels",
    "gemm_empty_k": "Gemm.div.ort-empty-k",
    "gemm_refuses": "Gemm.div.ort-refuses",
    "gemm_int": "Gemm.div.ort-int",
    "matmul_refuses": "MatMul.div.ort-refuses",
    "conv_np_padded_inf": "Conv.div.numpy-padded-inf",
    "gemm_np_beta0": "Gemm.div.numpy-beta-zero",
    "batchnorm_refuses": "BatchNormalization.div.ort-refuses",
    # spec/ops/averagepool.md, globalaveragepool.md
    "avg_ort_geometry": "AveragePool.div.ort-geometry",
    "avg_refuses": "AveragePool.div.ort-refuses",
    "gavg_refuses": "GlobalAveragePool.div.ort-refuses",
}


def _fmt_elem(case: Case, y: np.ndarray, j: int) -> str:
    from onnxcase import fmt_value
    return fmt_value(out_dtype(case), contig_flat(y)[j:j + 1])


def _first_bad(case: Case, y: np.ndarray, ok: np.ndarray, allowed, shape) -> str:
    bad = np.nonzero(~ok)[0]
    if not len(bad):
        return ""
    j = int(bad[0])
    idx = list(np.unravel_index(j, shape)) if shape else []
    want = allowed[j].text() if allowed is not None else "the exact integer " + \
        _fmt_elem(case, M.int_exact(case), j)
    return f"{len(bad)} element(s) outside the model, first at {[int(i) for i in idx]}: " \
           f"{_fmt_elem(case, y, j)}, allowed {want}"


def computed_refusal(case: Case, out: Outcome) -> Optional[str]:
    """The clause that states ORT's refusal of this valid model, or None (measured, spec/ops/*.md):
    [Conv.div.ort-refuses] double at every version, bfloat16 at Conv-22 (no kernel), float16 at Conv-1
    (ORT's inserted float16->float Cast is invalid there), M = 0 with W an initializer (2-D: its NCHWc
    ReorderOutput node fails shape inference), a SAME_* spatial size 0 (run-time error); [Conv.div.ort-same-dilation] SAME_* with a
    dilation above 1 (run-time error); [Gemm.div.ort-refuses] Gemm-1 and Gemm-6 for every type,
    bfloat16 at Gemm-13; [Gemm.div.ort-int] every integer Gemm; [MatMul.div.ort-refuses] float16 at
    MatMul-1, bfloat16 at MatMul-13."""
    e = out.error
    no_kernel = "Could not find an implementation" in e or "Failed to find kernel" in e
    cast = "InsertedPrecisionFreeCast" in e
    dt, o, a = case.dtype, case.opset, case.attrs
    if out.stage == "load" and (no_kernel or cast):
        if case.op == "Conv" and (dt in ("double", "bfloat16") and no_kernel or dt == "float16" and o < 11 and cast):
            return COMP_DIV["conv_refuses"]
        if case.op == "Gemm" and (o < 7 and (no_kernel or (cast and dt == "float16")) or dt == "bfloat16" and no_kernel):
            return COMP_DIV["gemm_refuses"]
        if case.op == "Gemm" and dt in M.INT_TYPES_COMPUTING and no_kernel:
            return COMP_DIV["gemm_int"]
        if case.op == "MatMul" and (dt == "float16" and o < 9 and cast or dt == "bfloat16" and no_kernel):
            return COMP_DIV["matmul_refuses"]
        # [BatchNormalization.div.ort-refuses] no kernel below version 7, none for bfloat16
        if case.op == "BatchNormalization" and (o < 7 and (no_kernel or cast) or dt == "bfloat16" and no_kernel):
            return COMP_DIV["batchnorm_refuses"]
    if case.op in M.AVERAGES:  # measured (/work/measure t10_avgpool.py, t11_avgpool_same.py)
        div = COMP_DIV["avg_refuses"] if case.op == "AveragePool" else COMP_DIV["gavg_refuses"]
        if out.stage == "load" and no_kernel and (dt in ("double", "bfloat16") or o < 7):
            return div                                        # no double, bfloat16 or AveragePool-1 kernel
        if out.stage == "load" and cast and dt == "float16" and o < 6:
            return div                                        # the float16 -> float Cast invalid below opset 6
        if out.stage == "load" and "Pad should be smaller than kernel" in e:
            return div                                        # pads >= kernel_shape, < the effective kernel
        if out.stage == "run" and ("Invalid input shape" in e or "Unsupported pooling size" in e):
            return div                                        # C = 0 or a spatial size 0; four spatial axes or more
        if out.stage == "load" and "invalid channel count" in e and case.inputs[0].shape[1] == 0:
            return div                                        # C = 0: the NCHWc ReorderOutput node fails shape inference
        if out.stage == "run" and "padding values must be non-negative" in e and a.get("auto_pad", "NOTSET").startswith("SAME"):
            return div                                        # a negative SAME_* pad of ORT's own geometry
        if out.stage == "run" and "out_size >= 0" in e and a.get("auto_pad", "NOTSET").startswith("SAME") \
                and max(a.get("dilations", [1])) > 1:
            return div                                        # SAME_* with a dilation: ORT's output size below 0
        return None
    if case.op == "Conv" and out.stage == "run" and a.get("auto_pad", "NOTSET").startswith("SAME") \
            and max(a.get("dilations", [1])) > 1 and "Dilation not supported for AutoPadType::SAME" in e:
        return COMP_DIV["conv_same_dil"]
    if case.op == "Conv" and out.stage == "load" and case.inputs[1].shape[0] == 0 and 1 in case.initializers \
            and "invalid channel count" in e:
        return COMP_DIV["conv_refuses"]                      # M = 0, W an initializer: the NCHWc ReorderOutput
    if case.op == "Conv" and out.stage == "run" and 0 in case.inputs[0].shape[2:] and "Invalid input shape" in e:
        return COMP_DIV["conv_refuses"]                      # a zero spatial size: run-time error
    if case.op == "Conv" and out.stage == "timeout" and case.inputs[0].shape[1] == 0:
        return COMP_DIV["conv_empty_channels"]               # C = 0 with padding: onnxruntime never returns
    return None


def _judge(case, y, **kw):
    with np.errstate(all="ignore"):
        return M.judge_output(case, y, **kw)


def explain_computed_peer(case: Case, y: np.ndarray, who: str) -> Dict:
    """An output that does not conform everywhere: the clauses that predict every other element."""
    ok, allowed, shape = _judge(case, y)
    ids = set()
    if case.op == "Conv" and who == "ort" and ok is not None and case.inputs[0].shape[1] == 0:
        # [Conv.div.ort-empty-channels]: with C = 0 onnxruntime's Y is not written (its bits vary)
        return _result("divergence", [COMP_DIV["conv_empty_channels"]],
                       f"C = 0: {int((~ok).sum())} element(s) of uninitialised memory")
    if case.op == "Conv" and case.dtype in FLOATS:
        trig_id = COMP_DIV["conv_padded_inf"] if who == "ort" else COMP_DIV["conv_np_padded_inf"]
        if ok is not None:
            trig = M.conv_padded_nonfinite(case)
            nan = M.View(case.dtype, contig_flat(y)).nan
            fixed = ~ok & trig & nan
            if fixed.any():
                ids.add(trig_id)
                ok = ok | fixed
            if ok.all():
                return _result("divergence", sorted(ids), f"{int(fixed.sum())} NaN(s) of 0 * inf/NaN at padded positions")
    if case.op == "Gemm" and ok is not None:
        a, b, c = M.gemm_abc(case)
        beta = float(np.float32(case.attrs.get("beta", 1.0)))
        if who == "ort" and a.shape[1] == 0 and c is not None and beta != 0:
            # [Gemm.div.ort-empty-k]: with K = 0 onnxruntime returns C (broadcast), not beta * C
            cy = np.ascontiguousarray(np.broadcast_to(case.inputs[2], y.shape))
            fixed = ~ok & same_elements(case.dtype, contig_flat(y), contig_flat(cy))
            if fixed.any():
                ids.add(COMP_DIV["gemm_empty_k"])
                ok = ok | fixed
        if who == "numpy" and c is not None and beta == 0 and case.dtype in FLOATS:
            # [Gemm.div.numpy-beta-zero]: A'B' * alpha + C * beta reads C under beta = 0: 0 * inf, NaN
            cv = M.values_of(case.dtype, np.broadcast_to(case.inputs[2], y.shape)).reshape(-1)
            fixed = ~ok & ~np.isfinite(cv) & M.View(case.dtype, contig_flat(y)).nan
            if fixed.any():
                ids.add(COMP_DIV["gemm_np_beta0"])
                ok = ok | fixed
        if ok.all():
            return _result("divergence", sorted(ids), "")
    if case.op == "AveragePool" and who == "ort":
        # [AveragePool.div.ort-geometry] onnxruntime's windows: MaxPool's measured geometry (SAME_* pads
        # from the undilated kernel, negative SAME pads, VALID with ceil_mode), the divisor its own
        a = case.attrs
        differs = (a.get("auto_pad", "NOTSET") != "NOTSET" and
                   M.average_geometry(case.inputs[0].shape, a, ort=True)[3:] != list(M.average_geometry(case.inputs[0].shape, a)[3:]))
        ok2, _, shape2 = _judge(case, y, geom="ort")
        if differs and ok2 is not None and ok2.all():
            return _result("divergence", [COMP_DIV["avg_ort_geometry"]], f"ORT's geometry: Y {list(shape2)} (spec {list(shape)})")
    if ok is None:
        return _result("unexplained", detail=f"{who} shape {list(y.shape)} != spec {list(shape)}")
    return _result("unexplained", detail=f"{who}: " + _first_bad(case, y, ok, allowed, shape))


def classify_computed(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    if not ref.ok:
        return _result("unexplained", detail=f"sonnx-ref {ref.stage} on a valid model: {ref.error[-300:]}")
    ok, allowed, shape = _judge(case, ref.y)
    if ok is None:
        return _result("unexplained", detail=f"sonnx-ref shape {list(ref.y.shape)} != spec {list(shape)}")
    if not ok.all():
        return _result("unexplained", detail="sonnx-ref outside the accuracy model: " +
                       _first_bad(case, ref.y, ok, allowed, shape))
    if not ort.ok:
        cid = computed_refusal(case, ort)
        if cid:
            return _result("ort-refuses", [cid], ort_refusal_reason(ort) + ": " + ort.error[:200])
        return _result("unexplained", detail="ORT refuses a valid model, no clause states it: "
                       + ort_refusal_reason(ort) + ": " + ort.error[:300])
    ok, allowed, shape = _judge(case, ort.y)
    if ok is not None and ok.all():
        r = _result("agree")
    else:
        r = explain_computed_peer(case, ort.y, "ort")
    with np.errstate(all="ignore"):  # the largest error as a fraction of the bound (conforming outputs)
        r["fraction"] = {"ort": M.max_fraction(case, ort.y) if r["class"] == "agree" else None,
                         "ref": M.max_fraction(case, ref.y)}
    return r


def numpy_computed(case: Case) -> Optional[np.ndarray]:
    """numpy's answer as numpy-based evaluators write it: np.matmul (MatMul); A' @ B' * alpha + C *
    beta (Gemm, alpha and beta Python floats, so numpy keeps T); Conv by im2col over np.pad's zero
    padding, one np.matmul per group, + B. None for bfloat16 (numpy has no bfloat16)."""
    if case.dtype == "bfloat16":
        return None
    x = [np.asarray(t) for t in case.inputs]
    st = x[0].dtype
    with np.errstate(all="ignore"):
        if case.op == "MatMul":
            return np.asarray(np.matmul(x[0], x[1])).astype(st)
        if case.op == "BatchNormalization":  # (x - mean) / np.sqrt(var + eps) * scale + B, per channel
            eps = st.type(np.float32(case.attrs.get("epsilon", 1e-5)))
            spatial = case.opset >= 9 or case.attrs.get("spatial", 1) != 0
            shp = ([1, x[1].size] + [1] * (x[0].ndim - 2)) if spatial and x[0].ndim >= 2 else [1] + list(x[1].shape)
            p = [t.reshape(shp) for t in x[1:5]] if x[0].ndim >= 2 else x[1:5]
            return np.asarray((x[0] - p[2]) / np.sqrt(p[3] + eps) * p[0] + p[1]).astype(st)
        if case.op == "Gemm":
            a = x[0].T if case.attrs.get("transA", 0) else x[0]
            b = x[1].T if case.attrs.get("transB", 0) else x[1]
            alpha = float(np.float32(case.attrs.get("alpha", 1.0)))
            beta = float(np.float32(case.attrs.get("beta", 1.0)))
            if case.dtype in FLOATS:
                y = np.dot(a, b) * alpha
                if len(x) > 2:
                    y = y + x[2] * beta
            else:
                w = st.itemsize * 8
                cast = lambda v: np.array(int(v) % (1 << w), dtype=np.uint64).astype(st)  # noqa: E731
                y = np.dot(a, b) * cast(alpha)
                if len(x) > 2:
                    y = y + x[2] * cast(beta)
            return np.asarray(y).astype(st)
        if case.op in M.AVERAGES:
            return numpy_average(case)
        return numpy_conv(case)


def numpy_average(case: Case) -> np.ndarray:
    """numpy's float64 equivalent of AveragePool / GlobalAveragePool: each window's members summed in
    float64 (np.sum) and divided by d, then converted to T (the spec's windows and divisor)."""
    members, divisors, shape = M.average_windows(case)
    x = M.values_of(case.dtype, case.inputs[0]).reshape(-1)
    y = np.array([np.sum(x[m]) / d if m else 0.0 for m, d in zip(members, divisors)], np.float64)
    return y.reshape(shape).astype(case.inputs[0].dtype)


def numpy_conv(case: Case) -> np.ndarray:
    """im2col: X padded with np.pad (zeros), the window columns gathered, Y = W_g @ cols + B."""
    x, w = case.inputs[0], case.inputs[1]
    b = case.inputs[2] if len(case.inputs) > 2 else None
    k, s, dil, pb, O = M.conv_geometry(x.shape, w.shape, case.attrs)[:5]
    N, C = x.shape[:2]
    Mo, Cg = w.shape[:2]
    G = int(case.attrs.get("group", 1))
    ell = x.ndim - 2
    pe = []
    for d in range(ell):
        e = (k[d] - 1) * dil[d] + 1
        pe.append(max(0, (O[d] - 1) * s[d] + e - x.shape[2 + d] - pb[d]))
    xp = np.zeros((N, C) + tuple(x.shape[2 + d] + pb[d] + pe[d] for d in range(ell)), dtype=x.dtype)
    xp[(slice(None), slice(None)) + tuple(slice(pb[d], pb[d] + x.shape[2 + d]) for d in range(ell))] = x  # np.pad
    Ot = int(np.prod(O, dtype=np.int64))
    Kt = int(np.prod(k, dtype=np.int64))
    cols = np.zeros((N, C, Kt, Ot), dtype=x.dtype)
    for oi, o in enumerate(np.ndindex(*O)):
        for qi, q in enumerate(np.ndindex(*k)):
            pos = tuple(o[d] * s[d] + q[d] * dil[d] for d in range(ell))
            cols[:, :, qi, oi] = xp[(slice(None), slice(None)) + pos]
    y = np.zeros((N, Mo, Ot), dtype=x.dtype)
    Mg = Mo // G if G else 0
    for g in range(G):
        wg = w[g * Mg:(g + 1) * Mg].reshape(Mg, Cg * Kt)
        cg = cols[:, g * Cg:(g + 1) * Cg].reshape(N, Cg * Kt, Ot)
        y[:, g * Mg:(g + 1) * Mg] = np.matmul(wg, cg)
    if b is not None:
        y = y + b[None, :, None]
    return y.astype(x.dtype).reshape([N, Mo] + list(O))


def classify_numpy_computed(case: Case) -> Optional[Dict]:
    """numpy's class on a Conv / Gemm / MatMul case: agree, or the numpy clauses
    [Conv.div.numpy-padded-inf] (im2col over np.pad's zeros: NaN where an infinite or NaN weight meets
    the padding) and [Gemm.div.numpy-beta-zero] (C read under beta = 0), or unexplained. Counted, not
    gating."""
    try:
        y = numpy_computed(case)
    except Exception as e:  # noqa: BLE001 - numpy refusing a valid model is its class, not a crash
        return _result("unexplained", detail=f"numpy raises {type(e).__name__}: {e}")
    if y is None:
        return None
    ok, allowed, shape = _judge(case, y)
    if ok is not None and ok.all():
        r = _result("agree")
        with np.errstate(all="ignore"):
            r["fraction"] = M.max_fraction(case, y)
        return r
    return explain_computed_peer(case, y, "numpy")


# ===================================================================== element-wise arithmetic
# Add, Sub, Mul, Div: bit for bit, any NaN equal to any NaN ([Check.nan-payload.free]). sonnx-ref must
# equal the model (lib/model.py spec_arith) first; ORT agrees, or refuses (no kernel before opset 7, no
# bfloat16 or 8/16-bit kernel where measured), or the case is unexplained: no divergence clause of the
# four operators applies to the cases the generator draws.

def classify_arith(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    spec = M.spec_arith(case)
    if not ref.ok:
        return _result("unexplained", detail=f"sonnx-ref {ref.stage}: {ref.error}")
    if not same(case.dtype, ref.y, spec):
        return _result("unexplained", detail="sonnx-ref output differs from the spec model (model.py)")
    if not ort.ok:
        return _result("ort-refuses", detail=ort_refusal_reason(ort) + ": " + ort.error[:200])
    if same(case.dtype, ort.y, ref.y):
        return _result("agree")
    if ort.y.shape != spec.shape:
        return _result("unexplained", detail=f"ORT shape {list(ort.y.shape)}")
    diff = ~same_elements(case.dtype, ort.y, spec)
    j = int(np.flatnonzero(diff.reshape(-1))[0])
    return _result("unexplained", detail=f"{int(diff.sum())} element(s) differ; first at {j}: ORT "
                   f"{_fmt_elem(case, ort.y, j)}, spec {_fmt_elem(case, spec, j)}")
# ======================================================== Sum, Mean, ReduceSum, ReduceMean
# Judged by the accuracy model (lib/model.py sums_judge) for the float types, bit for bit for the
# integers and the identity of noop_with_empty_axes. ORT's measured divergences (spec/ops/*.md):

SUMS_DIV = {
    "sum_refuses": "Sum.div.ort-refuses",
    "mean_refuses": "Mean.div.ort-refuses",
    "rs_refuses": "ReduceSum.div.ort-refuses",
    "rm_refuses": "ReduceMean.div.ort-refuses",
    "rs_int": "ReduceSum.div.ort-int",
    "rm_int": "ReduceMean.div.ort-int",
    "rm_empty": "ReduceMean.div.ort-empty",
    "rs_empty_neg": "ReduceSum.div.ort-empty-negative-axes",
    "rm_empty_neg": "ReduceMean.div.ort-empty-negative-axes",
}


def _ort_int_value(case: Case, xs) -> List[int]:
    """[ReduceSum.div.ort-int] [ReduceMean.div.ort-int] what onnxruntime's integer reduction can give: the sum
    accumulated in binary64 (each addition rounded to nearest; every order: bounded by n * 2^-52 * sum |x|),
    for the mean divided in binary64, truncated toward zero and saturated to T's range. Returns
    (lowest, highest) of the values that accounting allows."""
    info = np.iinfo(M.storage(case.dtype))
    n = max(len(xs), 1)
    d = n if case.op == "ReduceMean" else 1
    s = sum(xs)
    err = (len(xs) + 2) * sum(abs(x) for x in xs) / 2 ** 52 / d + 2
    lo, hi = s / d - err, s / d + err
    clamp = lambda v: int(min(max(v, info.min), info.max))  # noqa: E731
    return clamp(lo), clamp(hi)


def sums_refusal(case: Case, out: Outcome) -> Optional[str]:
    """The clause that states ORT's refusal of this valid model, or None: no Sum-1 / Mean-1 kernel
    (float16: the inserted Cast), no double Mean, no bfloat16 kernel, no uint32 / uint64 reduction, no
    float16 ReduceSum-1 / ReduceMean-1 (the inserted Cast)."""
    e = out.error
    no_kernel = "Could not find an implementation" in e or "Failed to find kernel" in e
    cast = "InsertedPrecisionFreeCast" in e
    dt, o = case.dtype, case.opset
    if out.stage != "load" or not (no_kernel or cast):
        return None
    if case.op in ("Sum", "Mean"):
        key = "sum_refuses" if case.op == "Sum" else "mean_refuses"
        if (o == 1 and (no_kernel or cast)) or (dt == "bfloat16" and no_kernel) or (case.op == "Mean" and dt == "double" and no_kernel):
            return SUMS_DIV[key]
        return None
    key = "rs_refuses" if case.op == "ReduceSum" else "rm_refuses"
    if (dt in ("uint32", "uint64", "bfloat16") and no_kernel) or (dt == "float16" and o == 1 and cast):
        return SUMS_DIV[key]
    return None


def explain_sums_peer(case: Case, y: np.ndarray, ok: np.ndarray, shape) -> Dict:
    ids, fixed_n = set(), 0
    if list(y.shape) == list(shape):
        terms, n, _ = M.sums_terms(case)
        flat = contig_flat(y)
        if case.op == "ReduceMean" and terms is not None:
            # [ReduceMean.div.ort-empty]: +0 where R(j) is empty
            for j, xs in enumerate(terms):
                if not ok[j] and not xs:
                    v = M.values_of(case.dtype, flat[j:j + 1])[0] if case.dtype in FLOATS else int(flat[j])
                    if v == 0 and not (case.dtype in FLOATS and np.signbit(v)):
                        ok[j] = True
                        ids.add(SUMS_DIV["rm_empty"])
                        fixed_n += 1
        if case.dtype not in FLOATS and terms is not None:
            # [ReduceSum.div.ort-int] [ReduceMean.div.ort-int]: binary64 accumulation, saturated to T's range
            for j, xs in enumerate(terms):
                lo, hi = _ort_int_value(case, xs)
                if not ok[j] and xs and lo <= int(flat[j]) <= hi:
                    ok[j] = True
                    ids.add(SUMS_DIV["rs_int" if case.op == "ReduceSum" else "rm_int"])
                    fixed_n += 1
    if ok is not None and list(y.shape) == list(shape) and ok.all():
        return _result("divergence", sorted(ids), f"{fixed_n} element(s) predicted by the clause")
    if list(y.shape) != list(shape):
        # [ReduceSum.div.ort-empty-negative-axes] [ReduceMean.div.ort-empty-negative-axes]: on an input with a
        # zero-sized dimension onnxruntime drops the negative entries of axes (the input itself if none is left)
        x = case.inputs[0] if case.op in ("ReduceSum", "ReduceMean") else None
        since = 13 if case.op == "ReduceSum" else 18
        given = (case.attrs.get("axes") if case.opset < since else case.axes) if x is not None else None
        if x is not None and x.size == 0 and given and any(a < 0 for a in given):
            import copy
            alt = copy.copy(case)
            alt.attrs = dict(case.attrs)
            alt.id = case.id + "-nonneg-axes"
            kept = [a for a in given if a >= 0]
            if case.opset < since:
                alt.attrs["axes"] = kept
            else:
                alt.axes = kept
            if not kept:
                pred = np.asarray(x)
            else:
                with np.errstate(all="ignore"):
                    try:
                        pred = M.sums_spec_output(alt)
                    except M.SumsRefused:
                        pred = None
            if pred is not None and list(pred.shape) == list(y.shape):
                with np.errstate(all="ignore"):
                    good = (not kept and y.size == 0) or (kept and (M.sums_judge(alt, y)[0] is not None and M.sums_judge(alt, y)[0].all()))
                if good:
                    key = "rs_empty_neg" if case.op == "ReduceSum" else "rm_empty_neg"
                    # the reductions over the non-negative axes alone, empty sets included: ReduceMean's empty sets as ORT's 0
                    return _result("divergence", [SUMS_DIV[key]], f"negative axes ignored: shape {list(y.shape)}")
                if case.op == "ReduceMean" and kept:
                    ok2, _, _ = M.sums_judge(alt, y)
                    if ok2 is not None:
                        terms2, _, _ = M.sums_terms(alt)
                        flat2 = contig_flat(y)
                        fine = all(ok2[j] or (not terms2[j] and (M.values_of(case.dtype, flat2[j:j + 1])[0] == 0
                                                                 if case.dtype in FLOATS else int(flat2[j]) == 0))
                                   for j in range(len(terms2)))
                        if fine:
                            return _result("divergence", [SUMS_DIV["rm_empty_neg"], SUMS_DIV["rm_empty"]],
                                           f"negative axes ignored, empty means 0: shape {list(y.shape)}")
        return _result("unexplained", detail=f"ORT shape {list(y.shape)} != spec {list(shape)}")
    bad = int(np.nonzero(~ok)[0][0])
    return _result("unexplained", detail=f"ORT: {int((~ok).sum())} element(s) outside the model, first at flat {bad}")


def classify_sums(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    try:
        with np.errstate(all="ignore"):
            M.sums_spec_output(case)
        spec_refuses = None
    except M.SumsRefused as e:
        spec_refuses = str(e)
    if spec_refuses:  # [ReduceMean.err.int-empty]
        if ref.ok or spec_refuses not in ref.error:
            return _result("unexplained", detail=f"sonnx-ref should refuse with {spec_refuses}: {'ran' if ref.ok else ref.error[-200:]}")
        if ort.ok and ort.y is not None and not np.asarray(ort.y).any():
            return _result("divergence", [SUMS_DIV["rm_empty"]], "ORT gives 0 for the integer mean of an empty set")
        return _result("ort-refuses", detail=ort_refusal_reason(ort) + ": " + ort.error[:200]) if not ort.ok else \
            _result("unexplained", detail="ORT gives a non-zero integer mean of an empty set")
    if not ref.ok:
        return _result("unexplained", detail=f"sonnx-ref {ref.stage} on a valid model: {ref.error[-300:]}")
    with np.errstate(all="ignore"):
        ok, allowed, shape = M.sums_judge(case, ref.y)
    if ok is None or not ok.all():
        return _result("unexplained", detail="sonnx-ref outside the model: " +
                       ("shape" if ok is None else f"{int((~ok).sum())} element(s)"))
    if not ort.ok:
        cid = sums_refusal(case, ort)
        if cid:
            return _result("ort-refuses", [cid], ort_refusal_reason(ort) + ": " + ort.error[:200])
        return _result("unexplained", detail="ORT refuses a valid model, no clause states it: "
                       + ort_refusal_reason(ort) + ": " + ort.error[:300])
    with np.errstate(all="ignore"):
        ok, allowed, shape = M.sums_judge(case, ort.y)
    if ok is not None and ok.all():
        return _result("agree")
    return explain_sums_peer(case, ort.y, ok if ok is not None else np.zeros(0, bool), shape)
# ======================================================================= issue 33: data movement
# Concat, Transpose, Gather, Slice move bits ([Check.bitwise]): sonnx-ref must equal the spec model
# (lib/model.py) bit for bit, onnxruntime must equal sonnx-ref; no divergence is known, so any
# difference, or an ORT refusal of a model the spec accepts, is unexplained.

def classify_movement(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    spec = M.spec_output(case)
    if not ref.ok:
        return _result("unexplained", detail=f"sonnx-ref {ref.stage}: {ref.error}")
    if ref.y.shape != spec.shape or not same(case.dtype, ref.y, spec):
        return _result("unexplained", detail="sonnx-ref output differs from the spec model (model.py)")
    if not ort.ok:
        return _result("ort-refuses", detail=ort_refusal_reason(ort) + ": " + ort.error[:200])
    if ort.y.shape == ref.y.shape and same(case.dtype, ort.y, ref.y):
        return _result("agree")
    if case.op == "Slice":
        alt = M.spec_slice(case, ort_int_max_end=True)
        if ort.y.shape == alt.shape and same(case.dtype, ort.y, alt):
            return _result("divergence", ["Slice.div.ort-int-max-end"],
                           "ORT reads an end of INT32_MAX or INT64_MAX with a negative step as 'through the first element'")
    return _result("unexplained", detail=f"ORT output differs (shape {list(ort.y.shape)})")
# ======================================================================= issue 32: the elementary functions
# Exp, Log, Tanh, Sigmoid, judged by the accuracy model of spec/common/elementary.md (lib/model.py elem_judge):
# sonnx-ref's output must conform at every element and be fl_T of the ideal ([Elem.run]); ORT's elements
# conform (agree), or each one that does not is what [Log.div.ort], [Tanh.div.ort] or [Sigmoid.div.ort] states
# (model.ort_elem_explains: within the measured maximum; for float16, a float within it rounded to float16),
# or the case is unexplained ([Exp.div.ort]: no divergence, so any Exp element outside B is unexplained).
# ORT refuses: version 1 (no kernel; for float16 its inserted Cast is invalid below opset 6) and bfloat16 (no
# kernel): ort-refuses, as measured (no clause of the four operators states a refusal); any other refusal
# is unexplained.


def elem_refusal(case: Case, out: Outcome) -> Optional[str]:
    e = out.error
    if out.stage != "load":
        return None
    no_kernel = "Could not find an implementation" in e
    cast = "InsertedPrecisionFreeCast" in e
    if case.opset < 6 and (no_kernel or (cast and case.dtype == "float16")):
        return "no kernel before opset 6"
    if case.dtype == "bfloat16" and no_kernel:
        return "no bfloat16 kernel"
    return None


def classify_elementary(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    if not ref.ok:
        return _result("unexplained", detail=f"sonnx-ref {ref.stage} on a valid model: {ref.error[-300:]}")
    with np.errstate(all="ignore"):
        ok, allowed, shape = M.elem_judge(case, ref.y)
        if ok is None:
            return _result("unexplained", detail=f"sonnx-ref shape {list(ref.y.shape)} != {shape}")
        if not ok.all():
            return _result("unexplained", detail="sonnx-ref outside the accuracy model: " +
                           _first_bad(case, ref.y, ok, allowed, shape))
        run = M.elem_run_value(case)
        same_run = same_elements(case.dtype, contig_flat(ref.y), contig_flat(run)) | \
            (M.values_of(case.dtype, contig_flat(ref.y)) == 0) & (M.values_of(case.dtype, contig_flat(run)) == 0) | \
            M.elem_run_ambiguous(case)
        if not same_run.all():
            j = int(np.nonzero(~same_run)[0][0])
            return _result("unexplained", detail=f"sonnx-ref is not fl_T(y) ([Elem.run]) at flat {j}: "
                           f"{_fmt_elem(case, ref.y, j)}, fl_T(y) {_fmt_elem(case, run, j)}")
        if not ort.ok:
            why = elem_refusal(case, ort)
            if why:
                return _result("ort-refuses", detail=f"{ort_refusal_reason(ort)} ({why}): {ort.error[:200]}")
            return _result("unexplained", detail="ORT refuses a valid model: " + ort_refusal_reason(ort) + ": "
                           + ort.error[:300])
        ok, allowed, shape = M.elem_judge(case, ort.y)
        if ok is None:
            return _result("unexplained", detail=f"ORT shape {list(ort.y.shape)} != {shape}")
        fraction = {"ort": None, "ref": M.elem_max_fraction(case, ref.y),
                    "ort_ulps": M.elem_error_ulps(case, ort.y)}
        if ok.all():
            fraction["ort"] = M.elem_max_fraction(case, ort.y)
            r = _result("agree")
        else:
            xs = M.values_of(case.dtype, contig_flat(case.inputs[0])).tolist()
            ys = M.values_of(case.dtype, contig_flat(ort.y)).tolist()
            bad = np.nonzero(~ok)[0]
            fixed = [j for j in bad if M.ort_elem_explains(case, xs[j], allowed[j], ys[j])]
            if len(fixed) == len(bad):
                r = _result("divergence", [M.ORT_ELEM_DIV[case.op]],
                            f"{len(bad)} element(s) outside B, each within the measured maximum of ORT's kernel")
            else:
                left = np.array(sorted(set(bad.tolist()) - set(fixed)))
                ok2 = np.ones(len(allowed), bool)
                ok2[left] = False
                r = _result("unexplained", detail=f"ORT: {len(left)} element(s) outside B and the clause, " +
                            _first_bad(case, ort.y, ok2, allowed, shape) + f" (argument {xs[int(left[0])]!r})")
        r["fraction"] = fraction
        return r


_classify_before_elementary = classify


def classify(case: Case, ort: Outcome, ref: Outcome) -> Dict:  # noqa: F811 - the elementary functions added
    if case.op in M.ELEMENTARY:
        return classify_elementary(case, ort, ref)
    return _classify_before_elementary(case, ort, ref)


# ======================================================================= issue 32, second part: Sqrt, HardSigmoid,
# Softmax, LogSoftmax, LRN. sonnx-ref's output must be fl_T of the ideal, bit for bit (lib/model.py
# norm_run_values: computed independently of sonnx-ref; an element within 2^-100 |y| of a midpoint of T not decided;
# any NaN equals any NaN; the sign of a zero free but for Sqrt, whose -0 is -0). ORT: its refusals are ort-refuses
# when they are the measured ones (NORM_REFUSALS; no clause of the five operators states a refusal, as for Exp ...
# Sigmoid), any other refusal unexplained; Sqrt bit for bit against the model ([Sqrt.div.ort]: no divergence); the
# four others agree when bitwise equal to sonnx-ref's output, else are judged by `sonnx-ref check` (the bound of
# [HardSigmoid.bound], [Softmax.bound], [LogSoftmax.bound], [LRN.bound] with the default K of [Elem.ulps]):
# conforming is agree ([Softmax.div.ort] and [LogSoftmax.div.ort] state that ORT conforms; HardSigmoid and LRN
# have no clause), anything else unexplained.
import math  # noqa: E402
import os  # noqa: E402
from fractions import Fraction  # noqa: E402
import subprocess as _subprocess  # noqa: E402
import tempfile as _tempfile  # noqa: E402

# (op, version) -> the types ORT 1.30 has no kernel for (measured: "Could not find an implementation"); float16 at
# version 1 fails on ORT's inserted Cast (invalid below opset 6) for every operator. bfloat16: no kernel anywhere
# (Softmax-13 and LogSoftmax-13 bfloat16: ORT expands the function body, whose ReduceMax-13 has none).
NORM_REFUSALS = {("Sqrt", 1): {"float", "double"}, ("Sqrt", 13): {"bfloat16"},
                 ("HardSigmoid", 1): {"float", "double"}, ("HardSigmoid", 6): {"double"},
                 ("HardSigmoid", 22): {"double", "bfloat16"},
                 ("Softmax", 13): {"bfloat16"}, ("LogSoftmax", 13): {"bfloat16"},
                 ("LRN", 1): {"double"}, ("LRN", 13): {"double", "bfloat16"}}


def lrn_ort_refusal(case: Case, out: Outcome) -> Optional[str]:
    """[LRN.div.ort-refuses]: ORT's LRN kernel takes only 4-D inputs (a run-time error
    "X_shape.NumDimensions() == 4 was false" for rank 3 and 5), an odd `size` ("size_ % 2 == 1 was false") and
    `beta` > 0 ("beta_ > 0.0f was false"), both at load."""
    if case.op != "LRN":
        return None
    e = out.error
    if out.stage == "run" and case.inputs[0].ndim != 4 and "NumDimensions() == 4 was false" in e:
        return "rank other than 4"
    if out.stage == "load" and case.attrs["size"] % 2 == 0 and "size_ % 2 == 1 was false" in e:
        return "even size"
    if out.stage == "load" and M._f32(case.attrs.get("beta", 0.75)) <= 0 and "beta_ > 0.0f was false" in e:
        return "beta <= 0"
    return None


# [LogSoftmax.div.ort-double-nan]: onnxruntime's double LogSoftmax (every version), on a
# row holding a NaN or +Inf (the spec: a NaN at every element), writes at each other element
# fl(fl(x_j - m') + 46.051701891615394), m' the row maximum its scan found (the NaN, +Inf or some element: a NaN
# first in the row gives NaN everywhere), 46.051701891615394 = -ln(fl_float(1e-20)): the logarithm of the sum
# (a NaN) replaced by that of a floor 1e-20f. Each such element must be a NaN or that value for some element m' of
# the row.
ORT_LOGSOFTMAX_FLOOR = 46.051701891615394


def logsoftmax_double_nan_explained(case: Case, y: np.ndarray):
    """(patched y with the elements the clause explains set to NaN, how many) or (None, 0) when an element of a
    NaN / +Inf row is not what the clause says."""
    x = M.values_of("double", case.inputs[0])
    rows, back = M.norm_rows(case, x)
    yr, _ = M.norm_rows(case, M.values_of("double", y))
    yr = yr.copy()
    hit = 0
    for i in range(rows.shape[0]):
        row = rows[i]
        if not (np.isnan(row).any() or (row == np.inf).any()):
            continue
        cands = [m for m in row.tolist() if not math.isnan(m)]
        for j in range(len(row)):
            r = yr[i, j]
            if math.isnan(r):
                continue
            if not any((np.float64(row[j]) - np.float64(m)) + np.float64(ORT_LOGSOFTMAX_FLOOR) == r for m in cands):
                return None, 0
            yr[i, j] = math.nan
            hit += 1
    return back(yr), hit


def ort_lrn_emulated(case: Case) -> np.ndarray:
    """onnxruntime's LRN (Caffe's algorithm, onnxruntime/core/providers/cpu/nn/lrn.cc), in float: the squares
    padded with zeros, scale[c=0] = bias + sum_{i < size} (alpha/size) sq[i], then for c >= 1 a running sum
    scale[c] = scale[c-1] + (alpha/size) sq[c + post] - (alpha/size) sq[c - 1 - pre] (each step rounded to float),
    Y = pow(scale, -beta) * X. Returns float64 values of the float result."""
    x = M.values_of(case.dtype, case.inputs[0]).astype(np.float32)
    size = case.attrs["size"]
    a = np.float32(np.float32(M._f32(case.attrs.get("alpha", 1e-4))) / np.float32(size))
    beta, bias = np.float32(M._f32(case.attrs.get("beta", 0.75))), np.float32(M._f32(case.attrs.get("bias", 1.0)))
    pre = (size - 1) // 2
    N, C = x.shape[0], x.shape[1]
    if x.size == 0:
        return x.astype(np.float64)
    with np.errstate(all="ignore"):
        sq = np.zeros((N, C + size - 1) + x.shape[2:], np.float32)
        sq[:, pre:pre + C] = x * x
        scale = np.empty(x.shape, np.float32)
        s0 = np.full((N,) + x.shape[2:], bias, np.float32)
        for c in range(size):
            s0 = (s0 + a * sq[:, c]).astype(np.float32)
        scale[:, 0] = s0
        for c in range(1, C):
            t = (scale[:, c - 1] + a * sq[:, c + size - 1]).astype(np.float32)
            scale[:, c] = (t - a * sq[:, c - 1]).astype(np.float32)
        return (np.power(scale.astype(np.float64), -np.float64(beta)).astype(np.float32) * x).astype(np.float64)


ORT_LRN_ULPS = 2  # ORT's pow and product against the float emulation above: at most 2.0 ulps measured (143 float cases, 4900 elements, seed 1)


def lrn_running_sum_explained(case: Case, y: np.ndarray, want: np.ndarray):
    """[LRN.div.ort-running-sum]: onnxruntime sums the window's squares as a running sum
    along the channels, in float (ort_lrn_emulated): a large square that entered and left the window leaves its
    rounding error (or, when not finite in float, inf - inf = NaN) in every later channel's sum; a square that
    overflows float in the window gives x / pow(+Inf, beta) = 0. Each element of y that differs from `want` (the
    spec's fl_T(y)) is explained when it is within ORT_LRN_ULPS ulps of float of the emulation (a NaN where the
    emulation is a NaN; for float16, a float within that distance rounds to it). Returns (y with each explained
    element replaced by `want`'s, how many), (None, 0) if none."""
    emu = ort_lrn_emulated(case).reshape(-1)
    yv = M.values_of(case.dtype, contig_flat(y))
    wv = M.values_of(case.dtype, contig_flat(want))
    out = contig_flat(y).copy()
    wf = contig_flat(want)
    hit = 0
    for j in range(len(yv)):
        r, e = yv[j], emu[j]
        if (math.isnan(r) and math.isnan(wv[j])) or r == wv[j]:
            continue
        if math.isnan(r) or math.isnan(e):
            ok = math.isnan(r) and math.isnan(e)
        elif math.isinf(e) or math.isinf(r):
            ok = r == e
        else:
            tol = ORT_LRN_ULPS * float(M.ulp32(Fraction(e))) if e != 0 else ORT_LRN_ULPS * 2.0 ** -149
            if case.dtype == "float16":
                lo, hi = M._f16_rounding_interval(r)
                ok = float(lo) <= e + tol and e - tol <= float(hi)
            else:
                ok = abs(r - e) <= tol
        if ok:
            out[j] = wf[j]
            hit += 1
    return (out.reshape(y.shape), hit) if hit else (None, 0)


def norm_refusal(case: Case, out: Outcome) -> Optional[str]:
    e = out.error
    if out.stage != "load":
        return None
    if case.dtype == "float16" and case.opset < 6 and "InsertedPrecisionFreeCast" in e:
        return "float16 below opset 6: the inserted Cast is invalid"
    if case.dtype in NORM_REFUSALS.get((case.op, case.opset), ()) and "Could not find an implementation" in e:
        return f"no {case.dtype} kernel"
    return None


CHECK_BINARY: Optional[str] = None  # set by the campaign / self-test: the sonnx-ref whose `check` judges ORT


def sonnx_ref_check(case: Case, y: np.ndarray, binary: Optional[str] = None) -> Dict:
    """`sonnx-ref check` of the output y on the case: {'conforms': bool, 'mismatches': int, 'worst': dict or None,
    'error': str}. An exit other than 0 and 1 is an error (reported, never a verdict)."""
    import json as _json
    from onnxcase import write_case_folder
    binary = binary or CHECK_BINARY
    if binary is None:
        from peers import sonnx_ref_binary
        binary = sonnx_ref_binary()
    if binary is None:
        return {"conforms": False, "mismatches": -1, "worst": None, "error": "no sonnx-ref binary for check"}
    with _tempfile.TemporaryDirectory(prefix="norm-check-") as d:
        write_case_folder(case, d)
        np.savez(os.path.join(d, "actual.npz"), y=y)
        extra = ["--assume-opset-reviewed"] if case.opset > 21 else []
        p = _subprocess.run([binary, "check", os.path.join(d, "model.onnx"), os.path.join(d, "test_data_set_0"),
                             os.path.join(d, "actual.npz"), "--json", "--max-listed", "1"] + extra,
                            capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):
        return {"conforms": False, "mismatches": -1, "worst": None,
                "error": f"check exit {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}"}
    try:
        j = _json.loads(p.stdout)
        outs = j["cases"][0]["outputs"]
        acc = outs[0].get("accuracy") or {}
        return {"conforms": bool(j["conforms"]), "mismatches": int(j["summary"]["mismatches"]),
                "worst": acc.get("worst"), "error": ""}
    except Exception as ex:  # noqa: BLE001 - an unreadable report is an error, not a verdict
        return {"conforms": False, "mismatches": -1, "worst": None, "error": f"unreadable check report: {ex}"}


def _norm_same(case: Case, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    fa, fb = contig_flat(a), contig_flat(b)
    s = same_elements(case.dtype, fa, fb)
    if case.op != "Sqrt":
        s |= (M.values_of(case.dtype, fa) == 0) & (M.values_of(case.dtype, fb) == 0)
    return s


def classify_norm(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    if not ref.ok:
        return _result("unexplained", detail=f"sonnx-ref {ref.stage} on a valid model: {ref.error[-300:]}")
    with np.errstate(all="ignore"):
        want, amb, alts = M.norm_run_values(case)
        if list(ref.y.shape) != list(want.shape):
            return _result("unexplained", detail=f"sonnx-ref shape {list(ref.y.shape)} != {list(want.shape)}")
        ok = _norm_same(case, ref.y, want) | amb
        if not ok.all():
            rv = M.values_of(case.dtype, contig_flat(ref.y)).tolist()
            for j in np.nonzero(~ok)[0]:
                ok[j] = any(rv[j] == t for t in alts[j])
        if not ok.all():
            j = int(np.nonzero(~ok)[0][0])
            return _result("unexplained", detail=f"sonnx-ref is not fl_T(y) ([Elem.run]) at flat {j}: "
                           f"{_fmt_elem(case, ref.y, j)}, fl_T(y) {_fmt_elem(case, want, j)} "
                           f"({int((~ok).sum())} element(s))")
        if not ort.ok:
            why = norm_refusal(case, ort)
            if why:
                return _result("ort-refuses", detail=f"{ort_refusal_reason(ort)} ({why}): {ort.error[:200]}")
            why = lrn_ort_refusal(case, ort)
            if why:
                return _result("ort-refuses", ["LRN.div.ort-refuses"], f"{ort_refusal_reason(ort)} ({why}): "
                               f"{ort.error[:200]}")
            return _result("unexplained", detail="ORT refuses a valid model: " + ort_refusal_reason(ort) + ": "
                           + ort.error[:300])
        if list(ort.y.shape) != list(want.shape):
            return _result("unexplained", detail=f"ORT shape {list(ort.y.shape)} != {list(want.shape)}")
        fraction = {"ort": None, "ref": None, "ort_ulps": M.norm_error_ulps(case, ort.y)}
        if case.op == "Sqrt":  # [Sqrt.float.formula]: bit for bit ([Sqrt.div.ort]: no divergence)
            same_o = _norm_same(case, ort.y, want)
            if same_o.all():
                r = _result("agree")
            else:
                j = int(np.nonzero(~same_o)[0][0])
                r = _result("unexplained", detail=f"ORT's Sqrt is not correctly rounded at flat {j}: "
                            f"{_fmt_elem(case, ort.y, j)}, fl_T(sqrt x) {_fmt_elem(case, want, j)} "
                            f"(argument {_fmt_elem(case, case.inputs[0], j)}; {int((~same_o).sum())} element(s))")
            r["fraction"] = fraction
            return r
        if _norm_same(case, ort.y, ref.y).all():
            r = _result("agree", detail="bitwise equal to sonnx-ref's fl_T(y)")
        else:
            c = sonnx_ref_check(case, ort.y)
            w = c["worst"] or {}
            acc = w.get("accuracy") or {}
            fraction["ort"] = acc.get("fraction")
            if c["error"]:
                r = _result("unexplained", detail="sonnx-ref check failed: " + c["error"])
            elif c["conforms"]:
                r = _result("agree", detail="within the bound (sonnx-ref check)")
            elif case.op == "LRN" and lrn_running_sum_explained(case, ort.y, want)[1] > 0:
                patched, hit = lrn_running_sum_explained(case, ort.y, want)
                c2 = sonnx_ref_check(case, patched)
                if not c2["error"] and c2["conforms"]:
                    r = _result("divergence", ["LRN.div.ort-running-sum"],
                                f"{hit} NaN(s) after a non-finite square entered the running sum (the rest conforms)")
                else:
                    r = _result("unexplained", detail=f"ORT: outside the bound beyond [LRN.div.ort-running-sum] "
                                f"({c2['mismatches']} element(s) left; {c2['error']})")
            elif case.op == "LogSoftmax" and case.dtype == "double" and \
                    logsoftmax_double_nan_explained(case, ort.y)[1] > 0:
                patched, hit = logsoftmax_double_nan_explained(case, ort.y)
                c2 = sonnx_ref_check(case, M.from_float64("double", patched))
                if not c2["error"] and c2["conforms"]:
                    r = _result("divergence", ["LogSoftmax.div.ort-double-nan"],
                                f"{hit} element(s) of rows holding a NaN or +Inf are x - m' + 46.0517 (the rest conforms)")
                else:
                    r = _result("unexplained", detail=f"ORT: outside the bound beyond [LogSoftmax.div.ort-double-nan] "
                                f"({c2['mismatches']} element(s) left; {c2['error']})")
            else:
                r = _result("unexplained", detail=f"ORT: {c['mismatches']} element(s) outside the bound (sonnx-ref "
                            f"check), worst at {w.get('index')}: {w.get('actual')} ({w.get('actual_bits')}), "
                            f"ideal {acc.get('ideal')}, bound {acc.get('bound')}, {acc.get('ulps')} ulps, "
                            f"argument {_fmt_elem(case, case.inputs[0], int(w.get('offset', 0)))}")
        r["fraction"] = fraction
        return r


_classify_before_norm = classify


def classify(case: Case, ort: Outcome, ref: Outcome) -> Dict:  # noqa: F811 - Sqrt ... LRN added
    if case.op in M.NORM:
        return classify_norm(case, ort, ref)
    return _classify_before_norm(case, ort, ref)


# ======================================================================= Pow (spec/ops/pow.md)
# sonnx-ref must write lib/model.py pow_model's value bit for bit: fl_T(x^y) for a float base ([Elem.run]; the rows
# of [Pow.special] as stated; any NaN equals any NaN; an element within POW_EPS of a midpoint of T not decided), the
# truncated power for an integer base ([Pow.int.formula]); and refuse with [Pow.err.int-value] exactly where the
# model says an integer base has no value. ORT: the refusals measured (POW_ORT_REFUSES) are ort-refuses; where the
# spec refuses an integer case, ORT's output is C++ undefined behaviour ([Pow.div.ort-int]: it casts std::pow's
# double to T) and is never a disagreement: the case is `divergence Pow.div.ort-int`. Otherwise a float output
# agrees when bitwise equal to sonnx-ref's (a zero of either sign where the value is a zero, [Acc.zero]) or when
# `sonnx-ref check` finds it within the bound of [Pow.bound] with the default K ([Pow.div.ort]: within
# K_pow = 7 for float); an integer output must be the exact value, but for an int64 element beyond 2^53, where
# [Pow.div.ort-int] lets it be std::pow's double truncated (a double within 1 ulp of binary64 of x^y).


def pow_ort_refusal(case: Case, out: Outcome) -> Optional[str]:
    """The refusals of ORT 1.30 measured on valid Pow models (all at load time)."""
    e = out.error
    if out.stage != "load":
        return None
    no_kernel = "Could not find an implementation" in e or "Failed to find kernel" in e
    t1 = case.in_dtype(1)
    if case.opset == 1 and (no_kernel or (case.dtype == "float16" and "InsertedPrecisionFreeCast" in e)):
        return "no Pow-1 kernel; float16 the inserted Cast is invalid below opset 6"
    if case.dtype == "bfloat16" and no_kernel:
        return "no bfloat16 kernel"
    if no_kernel and t1 not in ("float", "double", "int32", "int64", "float16"):
        return f"no kernel for an exponent of type {t1} (ORT's T1 is float, double, int32, int64)"
    return None


def _pow_same(case: Case, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    fa, fb = contig_flat(a), contig_flat(b)
    s = same_elements(case.dtype, fa, fb)
    if case.dtype in ("float16", "bfloat16", "float", "double"):
        s |= (M.values_of(case.dtype, fa) == 0) & (M.values_of(case.dtype, fb) == 0)
    return s


def _ort_int_pow_explained(ideal: Optional[Fraction], r: int) -> bool:
    """[Pow.div.ort-int]: r is a double within 1 ulp of binary64 of x^y (|x^y| > 2^53), truncated to the integer."""
    if ideal is None or abs(ideal) <= 2 ** 53:
        return False
    d = float(ideal)  # within half an ulp
    cands = {d, math.nextafter(d, math.inf), math.nextafter(d, -math.inf)}
    return any(math.isfinite(c) and int(c) == r for c in cands)


def _pow_double_exponent_patch(case: Case, y: np.ndarray, ref_y: np.ndarray):
    """(ORT's output with the elements the proposed [Pow.div.ort-exponent-double] predicts exactly -- the value for
    the exponent rounded to binary64, where that differs from the spec's -- replaced by sonnx-ref's, their count)."""
    alt = M.pow_double_exponent_values(case)
    got = M.values_of(case.dtype, contig_flat(y)).tolist()
    want = M.values_of(case.dtype, contig_flat(ref_y)).tolist()
    out = contig_flat(y).copy()
    hit = 0
    for j, a in enumerate(alt):
        if a is None or got[j] == want[j] or (math.isnan(got[j]) and math.isnan(want[j])):
            continue
        if a == got[j] or (math.isnan(a) and math.isnan(got[j])):
            out[j] = contig_flat(ref_y)[j]
            hit += 1
    return out.reshape(y.shape), hit


def classify_pow(case: Case, ort: Outcome, ref: Outcome) -> Dict:
    with np.errstate(all="ignore"):
        want, amb, ideal, refusal = M.pow_model(case)
        if refusal is not None:
            if ref.ok or ref.spec_id != "Pow.err.int-value":
                return _result("unexplained", detail=f"sonnx-ref does not refuse with [Pow.err.int-value] where the "
                               f"model does ({refusal}): " + ("it wrote an output" if ref.ok else
                                                               f"{ref.stage} {ref.spec_id}: {ref.error[-200:]}"))
            if not ort.ok:
                why = pow_ort_refusal(case, ort)
                if why:
                    return _result("ort-refuses", detail=f"{ort_refusal_reason(ort)} ({why}); the spec refuses too "
                                   f"({refusal})")
                return _result("unexplained", detail="ORT refuses: " + ort_refusal_reason(ort) + ": " + ort.error[:300])
            return _result("divergence", ["Pow.div.ort-int"], f"the spec refuses ({refusal}); ORT's value there is "
                           f"the undefined cast of std::pow's double")
        if not ref.ok:
            return _result("unexplained", detail=f"sonnx-ref {ref.stage} on a valid model: {ref.error[-300:]}")
        if list(ref.y.shape) != list(want.shape):
            return _result("unexplained", detail=f"sonnx-ref shape {list(ref.y.shape)} != {list(want.shape)}")
        ok = _pow_same(case, ref.y, want) | amb
        if not ok.all():
            j = int(np.nonzero(~ok)[0][0])
            xs, ys, _ = M.pow_operands(case)
            return _result("unexplained", detail=f"sonnx-ref is not the model's value at flat {j}: "
                           f"{_fmt_elem(case, ref.y, j)}, model {_fmt_elem(case, want, j)} (x = {xs[j]!r}, y = "
                           f"{ys[j]!r}; {int((~ok).sum())} element(s))")
        if not ort.ok:
            why = pow_ort_refusal(case, ort)
            if why:
                return _result("ort-refuses", detail=f"{ort_refusal_reason(ort)} ({why}): {ort.error[:200]}")
            return _result("unexplained", detail="ORT refuses a valid model: " + ort_refusal_reason(ort) + ": "
                           + ort.error[:300])
        if list(ort.y.shape) != list(want.shape):
            return _result("unexplained", detail=f"ORT shape {list(ort.y.shape)} != {list(want.shape)}")
        fraction = {"ort": None, "ref": None, "ort_ulps": M.pow_error_ulps(case, ort.y)}
        same_o = _pow_same(case, ort.y, ref.y)
        if same_o.all():
            r = _result("agree", detail="bitwise equal to sonnx-ref")
        elif case.dtype in ("int32", "int64"):
            got = contig_flat(ort.y).tolist()
            bad = np.nonzero(~same_o)[0]
            left = [j for j in bad if not _ort_int_pow_explained(ideal[j], int(got[j]))]
            alt = M.pow_double_exponent_values(case) if left else []
            left2 = [j for j in left if alt[j] is None or alt[j] != int(got[j])]
            if not left:
                r = _result("divergence", ["Pow.div.ort-int"], f"{len(bad)} element(s) beyond 2^53: std::pow's "
                            f"double truncated")
            elif not left2:
                ids = ["Pow.div.ort-exponent-double"] + (["Pow.div.ort-int"] if len(left) < len(bad) else [])
                r = _result("divergence", ids, f"{len(left)} element(s) whose int64 exponent beyond 2^53 ORT rounds "
                            f"to binary64 (proposed clause)")
            else:
                j = int(left[0])
                xs, ys, _ = M.pow_operands(case)
                r = _result("unexplained", detail=f"ORT's integer Pow differs at flat {j}: {_fmt_elem(case, ort.y, j)}"
                            f", spec {_fmt_elem(case, want, j)} (x = {xs[j]!r}, y = {ys[j]!r}; {len(left)} element(s))")
        else:
            c = sonnx_ref_check(case, ort.y)
            w = c["worst"] or {}
            acc = w.get("accuracy") or {}
            fraction["ort"] = acc.get("fraction")
            if c["error"]:
                r = _result("unexplained", detail="sonnx-ref check failed: " + c["error"])
            elif c["conforms"]:
                r = _result("agree", detail="within the bound (sonnx-ref check)")
            elif _pow_double_exponent_patch(case, ort.y, ref.y)[1]:
                patched, hit = _pow_double_exponent_patch(case, ort.y, ref.y)
                c2 = sonnx_ref_check(case, patched)
                if not c2["error"] and c2["conforms"]:
                    r = _result("divergence", ["Pow.div.ort-exponent-double"], f"{hit} element(s) whose int64 "
                                f"exponent beyond 2^53 ORT rounds to binary64 (its parity lost; proposed clause); the "
                                f"rest conforms")
                else:
                    r = _result("unexplained", detail=f"ORT: outside the bound beyond [Pow.div.ort-exponent-double] "
                                f"({c2['mismatches']} element(s) left; {c2['error']})")
            else:
                xs, ys, _ = M.pow_operands(case)
                j = int(w.get("offset", 0))
                r = _result("unexplained", detail=f"ORT: {c['mismatches']} element(s) outside the bound (sonnx-ref "
                            f"check), worst at {w.get('index')}: {w.get('actual')} ({w.get('actual_bits')}), "
                            f"ideal {acc.get('ideal')}, bound {acc.get('bound')}, {acc.get('ulps')} ulps "
                            f"(x = {xs[j]!r}, y = {ys[j]!r})")
        r["fraction"] = fraction
        return r


_classify_before_pow = classify


def classify(case: Case, ort: Outcome, ref: Outcome) -> Dict:  # noqa: F811 - Pow added
    if case.op == "Pow":
        return classify_pow(case, ort, ref)
    return _classify_before_pow(case, ort, ref)
