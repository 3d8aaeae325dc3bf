"""Self-test of the classifiers: they must not explain what the divergence clauses do not say.

Feeds lib/classify.py with synthetic peer outputs built from the spec model (no ORT, no sonnx-ref):
  - peer = spec                                   -> agree
  - one element's NaN-ness flipped                -> unexplained
  - sonnx-ref off the spec (same wrong peer)      -> unexplained (a shared bug is never excused)
  - Max: a ±0 tie answered -0                     -> divergence Max.div.ort-signed-zero
  - ReduceMax: a NaN set answered by an element   -> divergence ReduceMax.div.ort-nan
  - ReduceMax: a NaN set answered by a non-member -> unexplained
  - Hardmax: the 1 moved in a NaN-free row        -> unexplained unless it is ORT's first-zero rule
  Conv, Gemm, MatMul (the accuracy model, lib/model.py):
  - an element moved just outside its bound, or to a NaN / an infinity the model does not allow
                                                  -> unexplained (and for sonnx-ref too)
  - the element farthest inside the bound (the last value of T within B of s)  -> agree
  - NaN at a padded position of an infinite weight -> divergence Conv.div.ort-padded-inf
  - K = 0 answered by C unscaled                  -> divergence Gemm.div.ort-empty-k
  - mutants of the model (a dropped bias, C read under beta = 0, padding as terms, alpha ignored,
    the bound halved) judging correct outputs     -> unexplained in the cases where they matter
  Exp, Log, Tanh, Sigmoid (the elementary functions, lib/model.py elem_judge):
  - peer = fl_T(y)                                -> agree; sonnx-ref one ulp off fl_T(y) -> unexplained
  - an element just outside B: Exp                -> unexplained ([Exp.div.ort]: no divergence)
  - an element beyond B and beyond ORT's measured maximum, or a NaN for a finite y  -> unexplained
  - a float Log / Tanh / Sigmoid element outside B within the measured maximum -> divergence <Op>.div.ort
  Pow (lib/model.py pow_model, lib/classify.py classify_pow):
  - peer = the model                              -> agree; sonnx-ref one ulp / one unit off -> unexplained
  - a special value of [Pow.special] changed, a NaN for a finite ideal, ORT 2^-6 off (check) -> unexplained
  - an integer element off by one, sonnx-ref writing where [Pow.err.int-value] refuses, or refusing a valid
    case                                          -> unexplained; ORT's value where the spec refuses -> Pow.div.ort-int
  - an int64 exponent beyond 2^53 read as its binary64 neighbour -> Pow.div.ort-exponent-double; anything else
    there unexplained
  - the model mutated (sigma dropped; floor(x^y) rounded) judging sonnx-ref's correct value -> unexplained in
    at least 3/4 of the cases it changes
Run: /usr/bin/python3 lib/selftest.py [N]   (exit 1 on any failure)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import model as M  # noqa: E402
from classify import classify  # noqa: E402
from generate import COMP_WEIGHTS, OP_WEIGHTS, generate  # noqa: E402
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
        for case in generate(20240601, n, list(OP_WEIGHTS)):  # the selecting family, as before
            spec = M.spec_output(case)
            expect(case, spec, spec, "agree", why="peer = spec")
            if spec.size == 0 or case.op in M.COMPUTING:  # the computing family: computing_selftest
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
        computing_selftest(generate(20240601, max(1, n // 4), list(COMP_WEIGHTS)), expect, failures, counts)
        elementary_selftest(generate(20240601, max(1, n // 6), ["Exp", "Log", "Tanh", "Sigmoid"]), expect, failures,
                            counts)
        norm_selftest(generate(20240601, max(1, n // 15), ["Sqrt", "HardSigmoid", "Softmax", "LogSoftmax", "LRN"]),
                      expect, counts)
        pow_selftest(generate(20240601, max(1, n // 5), ["Pow"]), failures, counts)
    for k, v in sorted(counts.items()):
        print(f"selftest: {v:5d} x {k}")
    for f in failures[:30]:
        print("selftest: FAIL " + f)
    print(f"selftest: {len(failures)} failure(s)")
    return 1 if failures else 0


def _edge_value(dtype, al, outward: bool):
    """A value of T just outside (outward) or farthest inside the bound B around s: the value of T
    nearest s + B, stepped one unit out or in."""
    import math
    from fractions import Fraction
    target = al.s + al.B
    v = M.round_exact(target, dtype)
    if math.isinf(v):
        return None
    step = lambda x, d: float(np.nextafter(np.array(x, storage(dtype) if dtype != "bfloat16" else np.float32),  # noqa: E731
                                            np.array(d, storage(dtype) if dtype != "bfloat16" else np.float32)))
    if dtype == "bfloat16":
        return None
    for _ in range(4):
        inside = abs(Fraction(v) - al.s) <= al.B
        if outward and not inside:
            return v
        if not outward and inside:
            return v
        v = step(v, math.inf if outward else -math.inf)
        if math.isinf(v):
            return None
    return None


def computing_selftest(cases, expect, failures, counts):
    """The classifier on Conv, Gemm, MatMul: wrong peers unexplained, clause-shaped peers classified
    by their IDs, and mutants of the model noticed."""
    import math
    mutants = {"drop-bias": "Conv", "padded-terms": "Conv", "ignore-alpha": "Gemm", "ignore-beta": "Gemm",
               "half-bound": None}
    noticed = {m: [0, 0] for m in mutants}
    for case in cases:
        if case.op not in M.COMPUTING:
            continue
        spec = M.spec_output(case)
        expect(case, spec, spec, "agree", why="computing: peer = spec ([Acc.run]'s value)")
        if spec.size == 0:
            continue
        dt = case.dtype
        if dt not in FLOATS:
            bad = spec.copy().reshape(-1)
            bad[0] = bad[0] + np.array(1, dtype=storage(dt))
            expect(case, bad.reshape(spec.shape), spec, "unexplained", why="computing: an integer off by one")
            expect(case, bad.reshape(spec.shape), bad.reshape(spec.shape), "unexplained",
                   why="computing: sonnx-ref off the spec")
            continue
        allowed, _ = M.computed_allowed(case)
        if case.op == "Conv" and case.inputs[0].shape[1] == 0:
            continue  # C = 0: [Conv.div.ort-empty-channels] excuses any value of ORT (checked below)
        trig = M.conv_padded_nonfinite(case) if case.op == "Conv" else np.zeros(len(allowed), bool)
        # one wrong element, just outside the model at the first finite element
        for j, al in enumerate(allowed):
            y = spec.copy().reshape(-1)
            if al.fin and dt != "bfloat16" and not trig[j]:
                v = _edge_value(dt, al, outward=True)
                if v is None:
                    continue
                y[j] = np.array(v, storage(dt))
                expect(case, y.reshape(spec.shape), spec, "unexplained", why="computing: an element just outside B")
                expect(case, y.reshape(spec.shape), y.reshape(spec.shape), "unexplained",
                       why="computing: sonnx-ref off the spec")
                w = _edge_value(dt, al, outward=False)
                if w is not None:
                    y[j] = np.array(w, storage(dt))
                    expect(case, y.reshape(spec.shape), spec, "agree", why="computing: the farthest value inside B")
                    # the half-bound mutant must reject it (unless B/2 still reaches it)
                    from fractions import Fraction
                    if abs(Fraction(w) - al.s) > al.B / 2 + al.B / 2 ** 30:
                        noticed["half-bound"][1] += 1
                        M.MUTATION = "half-bound"
                        try:
                            r = classify(case, Outcome(True, y.reshape(spec.shape)), Outcome(True, spec))
                        finally:
                            M.MUTATION = ""
                        noticed["half-bound"][0] += r["class"] == "unexplained"
                break
        for j, al in enumerate(allowed):
            if not al.nan and not trig[j]:
                y = spec.copy().reshape(-1)
                y[j] = M.from_float64(dt, np.array([math.nan]))[0]
                expect(case, y.reshape(spec.shape), spec, "unexplained", why="computing: a NaN the model does not allow")
                break
        for j, al in enumerate(allowed):
            if not al.pinf and not trig[j]:
                y = spec.copy().reshape(-1)
                y[j] = M.from_float64(dt, np.array([math.inf]))[0]
                expect(case, y.reshape(spec.shape), spec, "unexplained", why="computing: +Inf the model does not allow")
                break
        # clause-shaped peers
        if case.op == "Conv" and case.inputs[0].shape[1] > 0:
            trig = M.conv_padded_nonfinite(case)
            if trig.any():
                y = spec.copy().reshape(-1)
                y[trig] = M.from_float64(dt, np.array([math.nan]))[0]
                want = "agree" if all(allowed[j].nan for j in np.nonzero(trig)[0]) else "divergence"
                expect(case, y.reshape(spec.shape), spec, want, ["Conv.div.ort-padded-inf"] if want != "agree" else None,
                       why="computing: NaN at a padded inf/NaN weight")
        if case.op == "Gemm":
            a, b, c = M.gemm_abc(case)
            beta = float(np.float32(case.attrs.get("beta", 1.0)))
            if a.shape[1] == 0 and c is not None and beta not in (0.0, 1.0):
                y = np.ascontiguousarray(np.broadcast_to(case.inputs[2], spec.shape)).copy()
                ok, _, _ = M.judge_output(case, y)
                want = "agree" if ok.all() else "divergence"
                expect(case, y, spec, want, ["Gemm.div.ort-empty-k"] if want != "agree" else None,
                       why="computing: K = 0 answered by C")
        # mutants of the model: correct outputs judged by them
        for mut, op in mutants.items():
            if mut == "half-bound" or op != case.op:
                continue
            with np.errstate(all="ignore"):  # the mutant's run value differs as a number (NaN = NaN, -0 = +0)
                a = M.values_of(dt, M.computed_spec_output(case, mut)).reshape(-1) if dt in FLOATS else \
                    M.computed_spec_output(case, mut).reshape(-1)
                b = M.values_of(dt, spec).reshape(-1) if dt in FLOATS else spec.reshape(-1)
                differs = a.shape != b.shape or not np.all((a == b) | (np.isnan(a) & np.isnan(b)) if dt in FLOATS
                                                           else a == b)
            if not differs:
                continue
            noticed[mut][1] += 1
            M.MUTATION = mut
            try:
                r = classify(case, Outcome(True, spec), Outcome(True, spec))
            finally:
                M.MUTATION = ""
            noticed[mut][0] += r["class"] == "unexplained"
    for mut, (hit, total) in noticed.items():
        counts[f"computing mutant {mut}: noticed in {hit} of {total} cases where it changes the output"] = 1
        if total == 0 or hit < max(1, (3 * total) // 4):
            failures.append(f"mutant {mut} of the accuracy model noticed in {hit} of {total} cases (want >= 3/4, >= 1)")


def elementary_selftest(cases, expect, failures, counts):
    """The classifier on Exp, Log, Tanh, Sigmoid: wrong peers unexplained, the measured ORT errors classified."""
    import math
    from fractions import Fraction
    for case in cases:
        if case.op not in M.ELEMENTARY or case.inputs[0].size == 0:
            continue
        dt = case.dtype
        run = M.elem_run_value(case)
        expect(case, run, run, "agree", why="elementary: peer = fl_T(y)")
        allowed = M.elem_allowed(case)
        xs = M.values_of(dt, case.inputs[0]).reshape(-1).tolist()
        fin = [j for j, al in enumerate(allowed) if al.fin and al.B > 0 and al.s != 0 and
               math.isfinite(M.round_exact(al.s, dt))]
        if not fin:
            continue
        j = fin[0]
        al = allowed[j]
        st = storage(dt)

        def with_value(v):
            z = run.copy().reshape(-1)
            z[j] = np.array(v, st)
            return z.reshape(run.shape)
        r0 = float(M.values_of(dt, run.reshape(-1)[j:j + 1])[0])
        one_up = float(np.nextafter(np.array(r0, st), np.array(math.inf, st)))
        if math.isfinite(one_up):
            expect(case, run, with_value(one_up), "unexplained", why="elementary: sonnx-ref one ulp off fl_T(y)")
        expect(case, with_value(math.nan), run, "unexplained", why="elementary: a NaN for a finite ideal")
        tol = M.ort_elem_tolerance(case.op, xs[j], al.s)
        far = al.s + 2 * max(al.B, tol or 0) + 4 * abs(al.s) / 2 ** 10 + 2 * M.fmt_of(dt).eta
        v = M.round_exact(far, dt)
        if math.isfinite(v) and not al.accepts(v):
            expect(case, with_value(v), run, "unexplained", why="elementary: beyond B and ORT's measured maximum")
        out = _edge_value(dt, al, True)
        if out is None or not math.isfinite(out):
            continue
        if case.op == "Exp":
            expect(case, with_value(out), run, "unexplained", why="elementary: Exp just outside B")
        elif dt == "float" and tol is not None and abs(Fraction(out) - al.s) <= tol:
            expect(case, with_value(out), run, "divergence", [M.ORT_ELEM_DIV[case.op]],
                   why=f"elementary: {case.op} float outside B, within the measured maximum")


def norm_selftest(cases, expect, counts):
    """Sqrt, HardSigmoid, Softmax, LogSoftmax, LRN: fl_T(y) agrees; sonnx-ref one ulp off fl_T(y), ORT one ulp off
    for Sqrt (bit for bit), and ORT far outside the bound (2^-6 relatively, judged by sonnx-ref check) unexplained.
    The check-judged expectations need the sonnx-ref binary (skipped without it)."""
    import math
    from peers import sonnx_ref_binary
    have_check = sonnx_ref_binary() is not None
    for case in cases:
        if case.inputs[0].size == 0:
            continue
        dt = case.dtype
        want = M.norm_run_value(case)
        vals = M.values_of(dt, want).reshape(-1)
        fin = [j for j, v in enumerate(vals.tolist()) if math.isfinite(v) and v != 0]
        if case.op == "Sqrt" or have_check:
            expect(case, want, want, "agree", why="norm: peer = fl_T(y)")
        if not fin:
            continue
        j = fin[0]
        st = storage(dt)

        def with_value(v):
            z = want.copy().reshape(-1)
            z[j] = from_bits(dt, [int(M.from_float64(dt, np.array([v]))[0].view(
                {"float16": np.uint16, "bfloat16": np.uint16, "float": np.uint32, "double": np.uint64}[dt]))])[0] \
                if dt == "bfloat16" else np.array(v, st)
            return z.reshape(want.shape)
        if dt == "bfloat16":
            off = want.copy().reshape(-1)
            off[j] = off[j] + 1
            off = off.reshape(want.shape)
        else:
            off = with_value(float(np.nextafter(np.array(vals[j], st), np.array(math.inf, st))))
        ambiguous = M.norm_run_values(case)[1].reshape(-1)[j]
        if not ambiguous and not (case.op == "HardSigmoid"):
            expect(case, want, off, "unexplained", why="norm: sonnx-ref one ulp off fl_T(y)")
        if case.op == "Sqrt":
            expect(case, off, want, "unexplained", why="norm: Sqrt one ulp off (bit for bit)")
        elif have_check and dt != "bfloat16":
            far = vals[j] * (1 + 2.0 ** -6) + math.copysign(2.0 ** -6, vals[j])
            expect(case, with_value(far), want, "unexplained", why="norm: ORT far outside the bound (check)")


def pow_selftest(cases, failures, counts):
    import math
    from onnxcase import Case
    from peers import sonnx_ref_binary
    have_check = sonnx_ref_binary() is not None

    def expect(case, ort, ref, want_class, want_ids=None, why=""):
        r = classify(case, ort, ref)
        counts[why] = counts.get(why, 0) + 1
        if r["class"] != want_class or (want_ids is not None and r["ids"] != sorted(want_ids)):
            failures.append(f"{case.id} [{why}]: got {r['class']} {r['ids']} ({r['detail']}), want {want_class} "
                            f"{want_ids or ''}")

    def ok(y):
        return Outcome(True, y)

    refused = Outcome(False, stage="refused", error="error: [Pow.err.int-value] ...", spec_id="Pow.err.int-value")
    mutants = {"drop-sign": [0, 0], "int-round": [0, 0]}
    for case in cases:
        dt = case.dtype
        want, amb, ideal, refusal = M.pow_model(case)
        if refusal is not None:
            garbage = np.zeros(np.broadcast_shapes(case.inputs[0].shape, case.inputs[1].shape) if case.opset >= 7
                               else case.inputs[0].shape, storage(dt))
            expect(case, ok(garbage), refused, "divergence", ["Pow.div.ort-int"], why="pow: ORT's value where the spec refuses")
            expect(case, ok(garbage), ok(garbage), "unexplained", why="pow: sonnx-ref writes where the spec refuses")
            continue
        expect(case, ok(want), ok(want), "agree", why="pow: peer = model")
        if want.size == 0:
            continue
        expect(case, ok(want), refused, "unexplained", why="pow: sonnx-ref refuses a valid case")
        for mut in mutants:
            M.POW_MUTATION = mut
            try:
                mwant = M.pow_model(case)[0]
            finally:
                M.POW_MUTATION = ""
            if mwant is not None and not np.array_equal(contig_bits(dt, mwant), contig_bits(dt, want)):
                mutants[mut][1] += 1
                M.POW_MUTATION = mut
                try:
                    r = classify(case, Outcome(True, want), Outcome(True, want))
                finally:
                    M.POW_MUTATION = ""
                mutants[mut][0] += r["class"] == "unexplained"
        flat = want.reshape(-1)
        if dt not in FLOATS:
            z = flat.copy()
            z[0] = z[0] + np.array(1, storage(dt)) if z[0] < np.iinfo(storage(dt)).max else z[0] - 1
            expect(case, ok(z.reshape(want.shape)), ok(want), "unexplained", why="pow: integer ORT off by one")
            expect(case, ok(want), ok(z.reshape(want.shape)), "unexplained", why="pow: integer sonnx-ref off by one")
            for j, s in enumerate(ideal):
                if s is not None and abs(s) > 2 ** 53 and dt == "int64":
                    d = math.nextafter(float(s), math.inf)
                    if int(d) != int(s):
                        z = want.copy().reshape(-1)
                        z[j] = int(d)
                        expect(case, ok(z.reshape(want.shape)), ok(want), "divergence", ["Pow.div.ort-int"],
                               why="pow: int64 beyond 2^53 as std::pow's double")
                    break
            continue
        vals = M.values_of(dt, flat).tolist()
        st = storage(dt)
        fin = [j for j, v in enumerate(vals) if ideal[j] is not None and math.isfinite(v) and v != 0 and not amb[j]]
        spec_j = [j for j, v in enumerate(vals) if ideal[j] is None and not math.isnan(v)]
        if fin and dt != "bfloat16":
            j = fin[0]
            z = flat.copy()
            z[j] = np.nextafter(np.array(vals[j], st), np.array(math.inf, st))
            expect(case, ok(want), ok(z.reshape(want.shape)), "unexplained", why="pow: sonnx-ref one ulp off fl_T(x^y)")
            if have_check:
                if dt == "float":  # K_pow,float = 7 (float16 and double have K = 1: one ulp from fl_T may exceed it)
                    expect(case, ok(z.reshape(want.shape)), ok(want), "agree", why="pow: float ORT one ulp off (within K = 7, check)")
                z[j] = np.array(vals[j] * (1 + 2.0 ** -6) + math.copysign(2.0 ** -6, vals[j]), st)
                expect(case, ok(z.reshape(want.shape)), ok(want), "unexplained", why="pow: ORT 2^-6 off (check)")
                z[j] = np.array(math.nan, st)
                expect(case, ok(z.reshape(want.shape)), ok(want), "unexplained", why="pow: ORT NaN for a finite ideal")
        if spec_j and have_check and dt != "bfloat16":
            j = spec_j[0]
            z = flat.copy()
            z[j] = np.array(0.5 if vals[j] != 0.5 else 0.25, st)
            expect(case, ok(z.reshape(want.shape)), ok(want), "unexplained", why="pow: a [Pow.special] value changed")
    for mut, (hit, total) in mutants.items():
        counts[f"pow: model mutant {mut} noticed ({hit} of {total})"] = 1
        if total == 0 or hit < max(1, (3 * total) // 4):
            failures.append(f"pow: mutant {mut} of the model noticed in {hit} of {total} cases (want >= 3/4, >= 1)")
    # the proposed [Pow.div.ort-exponent-double]: x = -1, y = 2^53 + 1 (odd) in int64
    for dt in (("float", "int64") if have_check else ("int64",)):  # float: judged through sonnx-ref check
        c = Case(f"pow-parity-{dt}", "Pow", 15, dt, [np.array([-1, -5, 2], storage(dt)),
                                                    np.array([2 ** 53 + 1, 2 ** 53 + 1, 2], np.int64)],
                 input_dtypes=[dt, "int64"])
        if dt == "int64":
            c.inputs[0][1] = 3
            c.inputs[1][1] = 5
        w = M.pow_model(c)[0]
        parity = w.copy()
        parity[0] = 1
        if dt == "float":
            parity[1] = np.inf
        expect(c, ok(parity), ok(w), "divergence", ["Pow.div.ort-exponent-double"], why="pow: int64 exponent's parity lost")
        bad = w.copy()
        bad[0] = 0
        expect(c, ok(bad), ok(w), "unexplained", why="pow: int64 exponent beyond 2^53, another value")


def contig_bits(dt, a):
    from onnxcase import bits_view, contig
    return bits_view(dt, a) if dt in FLOATS and dt != "bfloat16" else contig(a)


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 600))
