#!/usr/bin/python3
"""sonnx-ref's own outputs that the accuracy model of lib/model.py rejects: the minimal cases of the
defects the differential campaign found (README.md, "sonnx-ref outside the model"). Each case is run
on sonnx-ref ($SONNX_REF, else <repo>/build/sonnx-ref) and on onnxruntime, next to the value `run`
should write ([Acc.run], lib/model.py) and the classifier's verdict.

  SONNX_REF=build/sonnx-ref /usr/bin/python3 conformance/differential/lib/ref_findings.py

Exit 1 while some sonnx-ref output is outside the model (a defect of sonnx-ref), 0 once all conform,
77 when ORT is unavailable, 2 without a sonnx-ref binary.
"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import model as M  # noqa: E402
from classify import classify  # noqa: E402
from onnxcase import Case, fmt_tensor  # noqa: E402
from peers import ort_available, run_ort, run_sonnx_ref, sonnx_ref_binary  # noqa: E402

CASES = [
    # A product beyond the binary64 range: only -Inf conforms ([Acc.overflow], [Acc.verdict]: "a finite
    # r never conforms when s^ or R is not finite"); `run` writes -0.
    (Case("refA-MatMul-13-double", "MatMul", 13, "double",
          [np.array([[1.7976931348623157e308]]), np.array([[-1.0539751749069493]])], {}),
     "double, a term beyond the binary64 range: the oracle drops it"),
    # The same inside a sum: s = 1e310 + 2, only +Inf conforms; `run` writes 2, the other term.
    (Case("refA2-Gemm-13-double", "Gemm", 13, "double", [np.array([[1e300, 1.0]]), np.array([[1e10], [2.0]])], {}),
     "double, a term beyond the binary64 range in a sum"),
    # A window in the end padding with a dilation: row 3 of Y lies wholly in the padding ([Conv.window]:
    # no term, Y = 0); sonnx-ref takes X[0, 1, 0, :] (the next channel's first row) as terms.
    (Case("refB-Conv-11-float", "Conv", 11, "float",
          [np.arange(1, 13, dtype=np.float32).reshape(1, 2, 3, 2), np.ones((1, 2, 1, 1), np.float32)],
          {"dilations": [2, 1], "pads": [0, 0, 1, 0]}),
     "Conv, dilations > 1 and a kernel offset in the end padding: read as a term"),
]


def main():
    why = ort_available()
    if why:
        print(f"ref_findings: SKIPPED: {why}", file=sys.stderr)
        return 77
    if not sonnx_ref_binary():
        print("ref_findings: no sonnx-ref binary (set SONNX_REF)", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="sonnx-ref-findings-")
    cases = [c for c, _ in CASES]
    ort, ref = run_ort(cases, work + "/ort"), run_sonnx_ref(cases, work + "/cases")
    bad = 0
    for c, what in CASES:
        with np.errstate(all="ignore"):
            r = classify(c, ort[c.id], ref[c.id])
        outside = r["detail"].startswith("sonnx-ref")
        bad += outside
        print(f"== {c.id}: {what}")
        print(f"   attributes : {c.attrs}")
        for k, x in enumerate(c.inputs):
            print(f"   input x{k}   : {fmt_tensor(c.dtype, x, 12)}")
        print("   ORT 1.30   : " + (fmt_tensor(c.dtype, ort[c.id].y, 12) if ort[c.id].ok else ort[c.id].error[:120]))
        print("   sonnx-ref  : " + (fmt_tensor(c.dtype, ref[c.id].y, 12) if ref[c.id].ok else ref[c.id].error[-160:]))
        print("   [Acc.run]  : " + fmt_tensor(c.dtype, M.spec_output(c), 12))
        print(f"   verdict    : {r['class']} {r['ids'] or ''} {r['detail']}")
    print(f"ref_findings: {bad} of {len(CASES)} sonnx-ref outputs outside the accuracy model")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
