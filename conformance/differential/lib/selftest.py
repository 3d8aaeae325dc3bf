"""Self-test of the classifiers: they must not explain what the divergence clauses do not say.

Feeds lib/classify.py with synthetic peer outputs built from the spec model (no ORT, no sonnx-ref):
  - peer = spec                                   -> agree
  - one element's NaN-ness flipped                -> unexplained
  - sonnx-ref off the spec (same wrong peer)      -> unexplained (a shared bug is never excused)
  - Max: a ±0 tie answered -0                     -> divergence Max.div.ort-signed-zero
  - ReduceMax: a NaN set answered by an element   -> divergence ReduceMax.div.ort-nan
  - ReduceMax: a NaN set answered by a non-member -> unexplained
  - Hardmax: the 1 moved in a NaN-free row        -> unexplained unless it is ORT's first-zero rule
Run: /usr/bin/python3 lib/selftest.py [N]   (exit 1 on any failure)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import model as M  # noqa: E402
from classify import classify  # noqa: E402
from generate import generate  # noqa: E402
from onnxcase import ARG_OPS, FLOATS, from_bits, out_dtype, storage  # noqa: E402
from peers import Outcome  # noqa: E402


def flip_nan(dtype, y, k):
    z = y.copy().reshape(-1)
    if dtype in FLOATS:
        is_nan = M.View(dtype, z[k:k + 1]).nan[0]
        # 1.1-ish: a value the generator never draws except by a 1-in-2^16..2^64 accident
        one = {"float16": 0x3C66, "bfloat16": 0x3F8D, "float": 0x3F8CCCCD, "double": 0x3FF199999999999A}[dtype]
        nan = {"float16": 0x7E00, "bfloat16": 0x7FC0, "float": 0x7FC00000, "double": 0x7FF8000000000000}[dtype]
        z[k] = from_bits(dtype, [one if is_nan else nan])[0]
    elif dtype == "bool":
        z[k] = not z[k]
    else:
        z[k] = z[k] + np.array(1, dtype=storage(dtype))
    return z.reshape(y.shape)


def main(n):
    failures = []
    counts = {}

    def expect(case, ort_y, ref_y, want_class, want_ids=None, why=""):
        extra = M.spec_outputs(case)[1:] or None  # MaxPool's Indices: the spec's, on both sides
        r = classify(case, Outcome(True, ort_y, extra=extra), Outcome(True, ref_y, extra=extra))
        ok = r["class"] == want_class and (want_ids is None or r["ids"] == sorted(want_ids))
        counts[why] = counts.get(why, 0) + 1
        if not ok:
            failures.append(f"{case.id} [{why}]: got {r['class']} {r['ids']} ({r['detail']}), want {want_class} {want_ids or ''}")

    with np.errstate(all="ignore"):
        for case in generate(20240601, n):
            spec = M.spec_output(case)
            expect(case, spec, spec, "agree", why="peer = spec")
            if spec.size == 0:
                continue
            if case.op in ARG_OPS:  # a position no row has
                bad = spec.copy().reshape(-1)
                bad[0] = -1
                bad = bad.reshape(spec.shape)
            else:
                bad = flip_nan(out_dtype(case), spec, 0)
            expect(case, bad, spec, "unexplained", why="NaN-ness flipped")
            expect(case, bad, bad, "unexplained", why="sonnx-ref off the spec")
            if case.dtype not in FLOATS:
                continue
            if case.op == "Max":
                tie = M.max_tie_zero_mask(case.dtype, case.inputs)
                if tie.any():
                    y = spec.copy()
                    y[tie] = from_bits(case.dtype, [{"float16": 0x8000, "bfloat16": 0x8000, "float": 0x80000000,
                                                     "double": 1 << 63}[case.dtype]])[0]
                    expect(case, y, spec, "divergence", ["Max.div.ort-signed-zero"], why="Max tie -> -0")
            elif case.op == "ReduceMax":
                axes = M.resolve_reduce(case)
                if axes is None:
                    continue
                rows, _ = M.reduce_layout(case.inputs[0], axes)
                if rows.shape[1] == 0:
                    continue
                nan_t, _ = M.row_triggers(case.dtype, rows)
                v = M.View(case.dtype, rows)
                for j in np.nonzero(nan_t & ~v.nan.all(axis=1))[0][:1]:
                    k = int(np.nonzero(~v.nan[j])[0][0])
                    y = spec.copy().reshape(-1)
                    y[j] = rows[j, k]
                    expect(case, y.reshape(spec.shape), spec, "divergence", ["ReduceMax.div.ort-nan"], why="NaN set -> member")
                    vals = set(v.val[j][~v.nan[j]].tolist())
                    for cand in (3.0, -3.0, 0.25, 65504.0):
                        if cand not in vals:
                            y[j] = np.array([cand]).astype(np.float32).view(np.uint32).__rshift__(16).astype(np.uint16)[0] \
                                if case.dtype == "bfloat16" else np.array(cand, storage(case.dtype))
                            expect(case, y.reshape(spec.shape), spec, "unexplained", why="NaN set -> non-member")
                            break
            elif case.op == "Hardmax":
                rows, back = M.hardmax_rows(case)
                n_rows, d = rows.shape
                if d < 2 or n_rows == 0:
                    continue
                nan_t, zero_t = M.row_triggers(case.dtype, rows)
                srows, _ = M.hardmax_rows(M.Case_like(case, spec))
                for i in np.nonzero(~nan_t & ~zero_t)[0][:1]:
                    v = M.View(case.dtype, rows[i])
                    h = int(np.argmax(M.View(case.dtype, srows[i]).val))
                    others = [j for j in range(d) if v.val[j] != v.val[h]]
                    if not others:
                        continue
                    moved = srows.copy()
                    moved[i] = srows[i][::-1] if h != d - 1 - h else np.roll(srows[i], 1)
                    if M.View(case.dtype, moved[i]).val.argmax() in [j for j in range(d) if v.val[j] == v.val[h]]:
                        continue
                    expect(case, back(moved), spec, "unexplained", why="Hardmax 1 moved (no NaN, no ±0 tie)")
    for k, v in sorted(counts.items()):
        print(f"selftest: {v:5d} x {k}")
    for f in failures[:30]:
        print("selftest: FAIL " + f)
    print(f"selftest: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 600))
