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
from onnxcase import FLOATS, Case, bits_view, is_nan_bits
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
    if out.stage == "crash":
        return "crash"
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
    if case.dtype == "bfloat16" or case.op == "Hardmax":
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
