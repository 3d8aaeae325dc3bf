"""How ORT 1.30 answers rows that hold a NaN (the evidence behind the wording of
[ReduceMax.div.ort-nan] and [Hardmax.div.ort-nan] in README.md).

  /usr/bin/python3 lib/nanstats.py SEED N

Runs the ReduceMax and Hardmax float cases among the first N campaign cases of SEED on ORT and
counts, over the reduced sets / rows holding a NaN: ReduceMax -> NaN kept / the non-NaN maximum /
another element; Hardmax -> no 1 / the 1 at the first non-NaN maximum / the 1 elsewhere.
"""
import collections
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import model as M  # noqa: E402
from generate import OP_WEIGHTS, generate  # noqa: E402
from onnxcase import FLOATS  # noqa: E402
from peers import run_ort  # noqa: E402


def main(seed: int, n: int) -> int:
    cases = [c for c in generate(seed, n, list(OP_WEIGHTS)) if c.op in ("ReduceMax", "Hardmax") and c.dtype in FLOATS]
    res = run_ort(cases, tempfile.mkdtemp(prefix="sonnx-nanstats-"))
    count = collections.Counter()
    with np.errstate(all="ignore"):
        for c in cases:
            r = res[c.id]
            if not r.ok:
                continue
            if c.op == "ReduceMax":
                axes = M.resolve_reduce(c)
                if axes is None or r.y.shape != M.spec_reducemax(c).shape:
                    continue
                rows, _ = M.reduce_layout(c.inputs[0], axes)
                if rows.shape[1] == 0:
                    continue
                v, p = M.View(c.dtype, rows), M.View(c.dtype, r.y.reshape(-1))
                for j in np.nonzero(v.nan.any(axis=1))[0]:
                    nn = v.val[j][~v.nan[j]]
                    count["ReduceMax: NaN kept" if p.nan[j] else
                          "ReduceMax: the non-NaN maximum" if nn.size and p.val[j] == nn.max() else
                          "ReduceMax: another element"] += 1
            else:
                rows, _ = M.hardmax_rows(c)
                if rows.size == 0:
                    continue
                prow, _ = M.hardmax_rows(M.Case_like(c, r.y))
                v, pv = M.View(c.dtype, rows), M.View(c.dtype, prow)
                for i in np.nonzero(v.nan.any(axis=1))[0]:
                    ones = np.nonzero(pv.val[i] == 1)[0]
                    nn = np.where(v.nan[i], -np.inf, v.val[i])
                    first_max = int(np.argmax(nn == nn.max()))
                    count["Hardmax: no 1" if ones.size == 0 else
                          "Hardmax: 1 at the first non-NaN maximum" if ones[0] == first_max else
                          "Hardmax: 1 elsewhere"] += 1
    for k in sorted(count):
        print(f"{count[k]:6d}  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
