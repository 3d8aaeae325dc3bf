"""The measured facts: small hand-picked cases run on onnxruntime-node, numpy and sonnx-ref.
`measure` prints them as the README table; `reproduce ID` prints the ones that demonstrate ID.

Each fact names the divergence ID it demonstrates (or 'agree' / 'ort-refuses'); the runner
classifies the measured outputs with lib/classify.py and reports any fact whose measured class no
longer matches what the README says (a changed peer or a changed spec).
"""
from __future__ import annotations

import dataclasses
from typing import Callable, List, Optional

import numpy as np

import model as M
from classify import classify, classify_numpy
from onnxcase import Case, fmt_value, from_bits, storage
from peers import Outcome, run_ort, run_sonnx_ref, sonnx_ref_binary, sonnx_ref_has_run

# Bit patterns used below, per float type.
B = {
    "float": dict(p0=0x00000000, n0=0x80000000, one=0x3F800000, two=0x40000000, m1=0xBF800000,
                  nan=0x7FC00000, nan1=0x7FC00001, nan2=0x7FC00002, snan=0x7F800001, ninf=0xFF800000),
    "float16": dict(p0=0x0000, n0=0x8000, one=0x3C00, two=0x4000, m1=0xBC00,
                    nan=0x7E00, nan1=0x7E01, nan2=0x7E02, snan=0x7C01, ninf=0xFC00),
    "double": dict(p0=0, n0=1 << 63, one=0x3FF0000000000000, two=0x4000000000000000, m1=0xBFF0000000000000,
                   nan=0x7FF8000000000000, nan1=0x7FF8000000000001, nan2=0x7FF8000000000002,
                   snan=0x7FF0000000000001, ninf=0xFFF0000000000000),
    "bfloat16": dict(p0=0x0000, n0=0x8000, one=0x3F80, two=0x4000, m1=0xBF80,
                     nan=0x7FC0, nan1=0x7FC1, nan2=0x7FC2, snan=0x7F81, ninf=0xFF80),
}


def T(dtype: str, names, shape=None) -> np.ndarray:
    """A float tensor from symbolic names ('p0', 'nan1', ...), optionally reshaped."""
    names = names if isinstance(names, list) else [names]
    arr = from_bits(dtype, [B[dtype][n] for n in names])
    return arr.reshape(shape if shape is not None else [len(names)])


@dataclasses.dataclass
class Fact:
    label: str              # what the case is, for the table
    case: Case
    expect: str             # 'agree', 'ort-refuses' or a divergence ID: what README states
    numpy: Optional[Callable[[Case], np.ndarray]] = None
    tags: List[str] = dataclasses.field(default_factory=list)  # further IDs this fact illustrates
    valid: bool = True      # False: the spec refuses the model (the fact records what ORT does)


def np_max(c: Case):
    """np.maximum folded over the inputs, left to right (how numpy-based evaluators write Max).
    onnx's reference evaluator (op_max.py, not runnable with onnx 1.12) is this fold: its ±0 ties are
    [Max.div.pyref-signed-zero]; np.maximum broadcasts at every opset: [Max.div.pyref-same-shape]."""
    with np.errstate(all="ignore"):
        y = np.broadcast_to(c.inputs[0], np.broadcast_shapes(*[x.shape for x in c.inputs])).copy()
        for x in c.inputs[1:]:
            y = np.maximum(y, x)
    return y


def np_reducemax(c: Case):
    axes = M.resolve_reduce(c)
    x = c.inputs[0]
    if axes is None:
        return x.copy()
    with np.errstate(all="ignore"):
        if x.size == 0 or any(x.shape[a] == 0 for a in axes):
            return np.max(x, axis=tuple(axes), keepdims=bool(c.attrs.get("keepdims", 1)), initial=M.empty_value(c.dtype))
        return np.max(x, axis=tuple(axes), keepdims=bool(c.attrs.get("keepdims", 1)))


def np_hardmax(c: Case):
    """One-hot of np.argmax along the (coerced) axis: what numpy-based evaluators do."""
    rows, back = M.hardmax_rows(c)
    n, d = rows.shape
    if n == 0 or d == 0:
        return c.inputs[0].copy()
    with np.errstate(all="ignore"):
        h = np.argmax(M.View(c.dtype, rows).val, axis=1)
    return back(M.one_hot(c.dtype, n, d, h))


def build_facts() -> List[Fact]:
    facts: List[Fact] = []
    n = [0]

    def add(label, op, opset, dtype, inputs, expect, attrs=None, axes=None, numpy=None, tags=None,
            axes_as="initializer", valid=True):
        n[0] += 1
        cid = f"fact{n[0]:03d}-{op}-{opset}-{dtype}"
        facts.append(Fact(label, Case(cid, op, opset, dtype, inputs, dict(attrs or {}), axes, axes_as),
                          expect, numpy if valid else None, list(tags or []), valid))

    # ------------------------------------------------------------------------------- Max
    for o in (6, 8, 12, 13):
        # Max-6's kernel returns the first operand on a scalar tie, Max-8+ the second (README).
        add("Max(+0, -0), shapes [1],[1]", "Max", o, "float", [T("float", "p0"), T("float", "n0")],
            "agree" if o == 6 else "Max.div.ort-signed-zero", numpy=np_max)
        add("Max(-0, +0), shapes [1],[1]", "Max", o, "float", [T("float", "n0"), T("float", "p0")],
            "Max.div.ort-signed-zero" if o == 6 else "agree", numpy=np_max)
        add("Max(+0, -0), shapes [8],[8]", "Max", o, "float", [T("float", ["p0"] * 8), T("float", ["n0"] * 8)],
            "Max.div.ort-signed-zero", numpy=np_max)
        add("Max(-0, +0), shapes [2],[2]", "Max", o, "float", [T("float", ["n0"] * 2), T("float", ["p0"] * 2)],
            "Max.div.ort-signed-zero", numpy=np_max)
        add("Max(NaN 0x7fc00000, 1)", "Max", o, "float", [T("float", "nan"), T("float", "one")], "agree", numpy=np_max)
        add("Max(1, NaN 0x7fc00000)", "Max", o, "float", [T("float", "one"), T("float", "nan")], "agree", numpy=np_max)
        add("Max(NaN 0x7fc00001, NaN 0x7fc00002)", "Max", o, "float", [T("float", "nan1"), T("float", "nan2")],
            "agree", numpy=np_max, tags=["Common.order.nan-payload"])
        add("Max(sNaN 0x7f800001, 1)", "Max", o, "float", [T("float", "snan"), T("float", "one")], "agree", numpy=np_max)
        add("Max(1, sNaN 0x7f800001)", "Max", o, "float", [T("float", "one"), T("float", "snan")], "agree", numpy=np_max)
    for o in (8, 13):
        add("Max(+0 scalar, -0 x4): shapes [],[4]", "Max", o, "float", [T("float", "p0", []), T("float", ["n0"] * 4)],
            "agree", numpy=np_max)
        add("Max(+0 scalar, -0 x5): shapes [],[5]", "Max", o, "float", [T("float", "p0", []), T("float", ["n0"] * 5)],
            "Max.div.ort-signed-zero", numpy=np_max)
        add("Max(+0 x4, -0 scalar): shapes [4],[]", "Max", o, "float", [T("float", ["p0"] * 4), T("float", "n0", [])],
            "Max.div.ort-signed-zero", numpy=np_max)
        add("Max(+0, -0, +0), shapes [1] x3", "Max", o, "float", [T("float", "p0"), T("float", "n0"), T("float", "p0")],
            "agree", numpy=np_max)
    for dt in ("float16", "double"):
        for o in (8, 13):
            add(f"{dt} Max(+0, -0) [1]", "Max", o, dt, [T(dt, "p0"), T(dt, "n0")], "Max.div.ort-signed-zero", numpy=np_max)
            add(f"{dt} Max(-0, +0) [1]", "Max", o, dt, [T(dt, "n0"), T(dt, "p0")], "agree", numpy=np_max)
            add(f"{dt} Max(NaN1, NaN2) [1]", "Max", o, dt, [T(dt, "nan1"), T(dt, "nan2")], "agree", numpy=np_max)
            add(f"{dt} Max(sNaN, 1) [1]", "Max", o, dt, [T(dt, "snan"), T(dt, "one")], "agree", numpy=np_max)
    add("bfloat16 Max(+0, -0)", "Max", 13, "bfloat16", [T("bfloat16", "p0"), T("bfloat16", "n0")], "ort-refuses")
    add("Max-1 float (no kernel)", "Max", 1, "float", [T("float", "one"), T("float", "two")], "ort-refuses")
    add("Max-6 double (no kernel)", "Max", 6, "double", [T("double", "one"), T("double", "two")], "ort-refuses")
    for dt in ("int16", "uint16"):
        add(f"Max-13 {dt} (no kernel)", "Max", 13, dt, [np.array([1], storage(dt)), np.array([2], storage(dt))], "ort-refuses")
    for dt in ("int8", "uint8", "int32", "int64", "uint32", "uint64"):
        add(f"Max-12 {dt} [min, max]", "Max", 12, dt, [np.array([np.iinfo(storage(dt)).min, 0], storage(dt)),
                                                     np.array([0, np.iinfo(storage(dt)).max], storage(dt))], "agree", numpy=np_max)

    # ------------------------------------------------------------------------- ReduceMax
    def rm(label, o, dt, x, expect, axes=None, keepdims=0, noop=None, tags=None, axes_as="initializer", valid=True):
        attrs = {"keepdims": keepdims}
        if noop is not None:
            attrs["noop_with_empty_axes"] = noop
        if o < 18:
            if axes is not None:
                attrs["axes"] = axes
            add(label, "ReduceMax", o, dt, [x], expect, attrs, None, np_reducemax, tags, valid=valid)
        else:
            add(label, "ReduceMax", o, dt, [x], expect, attrs, axes, np_reducemax, tags, axes_as, valid=valid)

    for o in (11, 13, 18, 20):
        # numpy column 0x7fc00000, the payload of the leading NaN lost: [ReduceMax.div.numpy-nan-payload]
        rm("[NaN, 1, 2]", o, "float", T("float", ["nan1", "one", "two"]), "agree")
        rm("[1, NaN, 2]", o, "float", T("float", ["one", "nan1", "two"]), "ReduceMax.div.ort-nan")
        rm("[1, 2, NaN]", o, "float", T("float", ["one", "two", "nan1"]), "ReduceMax.div.ort-nan")
        rm("[NaN1, NaN2]", o, "float", T("float", ["nan1", "nan2"]), "agree")
        rm("[-0, +0]", o, "float", T("float", ["n0", "p0"]), "ReduceMax.div.ort-signed-zero")
        rm("[+0, -0]", o, "float", T("float", ["p0", "n0"]), "agree")
        rm("[-0, -0, -0]", o, "float", T("float", ["n0"] * 3), "agree")
        rm("shape [0,3] axis 0 keepdims 1", o, "float", np.zeros((0, 3), "<f4"), "agree", axes=[0], keepdims=1)
        rm("shape [0,3] axis 0 keepdims 0", o, "float", np.zeros((0, 3), "<f4"), "agree", axes=[0], keepdims=0)
        rm("int32 shape [0,3] axis 0", o, "int32", np.zeros((0, 3), "<i4"), "agree", axes=[0])
        if o >= 12:
            rm("uint8 shape [0,3] axis 0", o, "uint8", np.zeros((0, 3), "u1"), "agree", axes=[0])
        rm("shape [0,3] axis -1 keepdims 0", o, "float", np.zeros((0, 3), "<f4"), "ReduceMax.div.ort-empty-negative-axes", axes=[-1])
        rm("uint32 [1, 2]", o, "uint32", np.array([1, 2], "<u4"), "ort-refuses")
    rm("float16 [-0, +0]", 13, "float16", T("float16", ["n0", "p0"]), "ReduceMax.div.ort-signed-zero")
    rm("float16 [NaN1, 1]", 13, "float16", T("float16", ["nan1", "one"]), "agree")
    rm("double [1, NaN, 2]", 13, "double", T("double", ["one", "nan1", "two"]), "ReduceMax.div.ort-nan")
    rm("[0, NaN, -0, 0, -0] (double)", 13, "double", T("double", ["p0", "nan1", "n0", "p0", "n0"]), "ReduceMax.div.ort-nan")
    rm("[2,5] double, both rows [0, NaN, -0, 0, -0], axis 1", 13, "double",
       T("double", ["p0", "nan1", "n0", "p0", "n0"] * 2, [2, 5]), "ReduceMax.div.ort-nan", axes=[1])
    rm("rows [NaN,-0,+0,1,+0] (double, row 2 of [2,5])", 13, "double",
       T("double", ["p0"] * 5 + ["nan1", "n0", "p0", "one", "p0"], [2, 5]), "ReduceMax.div.ort-nan", axes=[1])
    rm("[[-2, NaN, -2, 0.5, NaN]], all axes (a non-maximal element)", 13, "float",
       from_bits("float", [0xC0000000, 0x7FC00001, 0xC0000000, 0x3F000000, 0x7FC00002], [1, 5]), "ReduceMax.div.ort-nan")
    rm("bool [[F,T,F],[F,F,F]] axis 1", 20, "bool", np.array([[0, 1, 0], [0, 0, 0]], bool), "agree", axes=[1])
    # [ReduceMax.div.ort-bool-empty]; onnx's reference evaluator would give all True here (source only,
    # not runnable with onnx 1.12): [ReduceMax.div.pyref-empty-bool]
    rm("bool shape [0,3] axis 0", 20, "bool", np.zeros((0, 3), bool), "ReduceMax.div.ort-bool-empty", axes=[0])
    rm("bool at opset 18 (type)", 18, "bool", np.array([True]), "both-refuse", valid=False)
    x23 = from_bits("float", [0x3F800000, 0x40000000, 0x40400000, 0x40800000, 0x40A00000, 0], [2, 3])
    for o in (18, 20):
        rm("noop=1, axes absent", o, "float", x23, "agree", None, 1, noop=1)
        rm("noop=1, axes = [] (initializer)", o, "float", x23, "agree", [], 1, noop=1)
        rm("noop=0, axes = [] (fed)", o, "float", x23, "agree", [], 0, noop=0, axes_as="feed")
        rm("noop=1, axes = [1]", o, "float", x23, "agree", [1], 0, noop=1)
    rm("rank 0, axes absent", 13, "float", np.array(5, "<f4"), "agree")
    # Models the spec refuses: what ORT does with them ('ort-accepts': [ReduceMax.div.ort-accepts-refused]).
    rm("ReduceMax-1 axes=[-1] (v1: no negative axes)", 1, "float", x23, "ort-accepts", [-1], valid=False)
    rm("duplicate axes [1, -1]", 13, "float", x23, "ort-accepts", [1, -1], valid=False)
    rm("duplicate axes [1, -1] (input)", 18, "float", x23, "ort-accepts", [1, -1], valid=False)
    rm("axes=[2] on rank 2", 13, "float", x23, "both-refuse", [2], valid=False)
    rm("keepdims=2", 13, "float", x23, "ort-accepts", [1], keepdims=2, valid=False)
    rm("noop_with_empty_axes=2", 18, "float", x23, "ort-accepts", [1], noop=2, valid=False)
    rm("axes attribute at opset 18", 18, "float", x23, "both-refuse", None, valid=False)
    facts[-1].case.attrs["axes"] = [1]
    rm("bfloat16 [1, 2]", 13, "bfloat16", T("bfloat16", ["one", "two"]), "ort-refuses")

    # --------------------------------------------------------------------------- Hardmax
    def hm(label, o, dt, x, expect, axis=None, tags=None, valid=True):
        add(label, "Hardmax", o, dt, [x], expect, {} if axis is None else {"axis": axis}, None, np_hardmax, tags,
            valid=valid)

    for o in (1, 11, 13):
        hm("[[1, NaN, 2]]", o, "float", T("float", ["one", "nan1", "two"], [1, 3]), "Hardmax.div.ort-nan")
        hm("[[NaN, 1, 2]]", o, "float", T("float", ["nan1", "one", "two"], [1, 3]), "Hardmax.div.ort-nan")
        hm("[[1, 2, NaN]]", o, "float", T("float", ["one", "two", "nan1"], [1, 3]), "Hardmax.div.ort-nan")
        hm("[[NaN, NaN]]", o, "float", T("float", ["nan1", "nan2"], [1, 2]), "Hardmax.div.ort-nan")
        # numpy column (argmax one-hot): the 1 at index 0, [Hardmax.div.numpy-signed-zero]
        hm("[[-0, +0]]", o, "float", T("float", ["n0", "p0"], [1, 2]), "Hardmax.div.ort-signed-zero")
        hm("[[+0, -0]]", o, "float", T("float", ["p0", "n0"], [1, 2]), "agree")
        hm("[[-0, -0, +0, 1]] (no zero tie at the max)", o, "float", T("float", ["n0", "n0", "p0", "one"], [1, 4]), "agree")
        x = np.array([0, 5, 1, 2, 9, 3, 4, 0, 7, 1, 8, 2, 6, 3, 0, 1, 2, 8, 4, 5, 9, 7, 3, 1], "<f4").reshape(2, 3, 4)
        # the input `reproduce` uses to show [Hardmax.div.pyref-coercion] (single axis vs coerced rows)
        hm("rank 3 [2,3,4], axis=1", o, "float", x, "agree", axis=1, tags=["Hardmax.coerce"])
        hm("zero-sized axis [2,0,3], axis=1", o, "float", np.zeros((2, 0, 3), "<f4"), "agree", axis=1)
        hm("float16 [[-0, +0]]", o, "float16", T("float16", ["n0", "p0"], [1, 2]),
           "ort-refuses" if o == 1 else "Hardmax.div.ort-signed-zero")
        hm("rank 0", o, "float", np.array(1, "<f4"), "both-refuse", valid=False)
        hm("rank 1, default axis", o, "float", T("float", ["one", "two"]), "agree" if o == 13 else "both-refuse",
           valid=(o == 13))
    # [Hardmax.div.ort-accepts-refused]
    hm("Hardmax-1 axis=-1 (v1: no negative axis)", 1, "float", T("float", ["one", "two"], [1, 2]), "ort-accepts",
       axis=-1, valid=False)
    for o in (11, 13):
        hm("float16 [[-0, NaN, -2, 2]] (1 on a non-maximal element)", o, "float16",
           from_bits("float16", [0x8000, 0x7E01, 0xC000, 0x4000], [1, 4]), "Hardmax.div.ort-nan")
    hm("double [[1, 2]]", 13, "double", T("double", ["one", "two"], [1, 2]), "ort-refuses")
    hm("bfloat16 [[1, 2]]", 13, "bfloat16", T("bfloat16", ["one", "two"], [1, 2]), "ort-refuses")
    return facts


def reference_side(cases: List[Case], workdir: str, invalid=frozenset()):
    """sonnx-ref when its binary runs, else the spec model (which refuses the `invalid` case ids
    without an ID: the spec model does not check models); returns (label, {id: Outcome})."""
    binary = sonnx_ref_binary()
    if binary and sonnx_ref_has_run(binary):
        return f"sonnx-ref ({binary})", run_sonnx_ref(cases, workdir, binary)
    with np.errstate(all="ignore"):
        return None, {c.id: Outcome(False, stage="refused", error="the spec refuses this model",
                                    spec_id="spec refuses") if c.id in invalid else Outcome(True, M.spec_output(c))
                      for c in cases}


def run_facts(facts: List[Fact], workdir: str):
    cases = [f.case for f in facts]
    ort = run_ort(cases, workdir + "/ort")
    label, ref = reference_side(cases, workdir + "/cases", {f.case.id for f in facts if not f.valid})
    rows = []
    for f in facts:
        c = f.case
        with np.errstate(all="ignore"):
            spec = M.spec_output(c) if f.valid else None
            np_y = f.numpy(c) if f.numpy and c.dtype != "bfloat16" else None
        cls = classify(c, ort[c.id], ref[c.id]) if f.valid else invalid_class(ort[c.id], ref[c.id])
        npc = classify_numpy(c, spec) if f.valid and np_y is not None and c.op != "Hardmax" else None
        if f.valid and np_y is not None and c.op == "Hardmax":  # no catalogue ID: shown, not classified
            from classify import same
            npc = {"class": "agree" if same(c.dtype, np_y, spec) else "differs (no ID)", "ids": []}
        measured = cls["ids"][0] if cls["class"] == "divergence" and len(cls["ids"]) == 1 else cls["class"]
        rows.append(dict(fact=f, spec=spec, ort=ort[c.id], ref=ref[c.id], numpy=np_y, cls=cls, numpy_cls=npc,
                         measured=measured))
    return label, rows


def invalid_class(ort: Outcome, ref: Outcome):
    """A model the spec refuses: sonnx-ref must refuse it (with an ID); ORT may refuse or accept."""
    if ref.ok or not ref.spec_id:
        return {"class": "unexplained", "ids": [], "detail": "sonnx-ref did not refuse a model the spec refuses"}
    return {"class": "both-refuse" if not ort.ok else "ort-accepts", "ids": [ref.spec_id],
            "detail": ort.error[:200] if not ort.ok else "ORT computed an output"}


ONE_BITS = {"float16": 0x3C00, "bfloat16": 0x3F80, "float": 0x3F800000, "double": 0x3FF0000000000000}


def short(dtype: str, arr: Optional[np.ndarray], limit: int = 8, onehot: bool = False) -> str:
    """Compact exact rendering for the table. onehot: a tensor of only +0 and 1 is shown as the
    flat positions of its 1s (with the 1's bit pattern)."""
    if arr is None:
        return "—"
    flat = arr.reshape(-1)
    if flat.size == 0:
        return f"empty {list(arr.shape)}"
    if onehot and dtype in ONE_BITS and flat.size > 2:
        from onnxcase import bits_view
        b = bits_view(dtype, flat)
        if np.all((b == 0) | (b == ONE_BITS[dtype])):
            ones = np.nonzero(b == ONE_BITS[dtype])[0].tolist()
            if not ones:
                return f"{list(arr.shape)} all +0 (no 1)"
            return f"{list(arr.shape)} 0x{ONE_BITS[dtype]:x} at flat {ones}, +0 elsewhere"
    vals = [fmt_value(dtype, flat[i:i + 1]).replace(" (", "(") for i in range(flat.size)]
    shape = "" if arr.shape == (1,) else f"{list(arr.shape)} "
    if flat.size > 1 and len(set(vals)) == 1:
        return shape + "all " + vals[0]
    more = ", …" if flat.size > limit else ""
    return shape + ", ".join(vals[:limit]) + more


def describe_inputs(c: Case) -> str:
    parts = [f"X{k} {short(c.dtype, x, 6)}" for k, x in enumerate(c.inputs)]
    extra = {k: v for k, v in c.attrs.items()}
    if c.axes is not None:
        extra["axes(input)"] = c.axes
    return "; ".join(parts) + (f"; {extra}" if extra else "")


def numpy_facts() -> List[tuple]:
    """(expression, result) rows measured on this machine's numpy, bit patterns in hex."""
    def hx(dtype, a):
        a = np.asarray(a)
        return ", ".join(fmt_value(dtype, a.reshape(-1)[i:i + 1]).split(" ")[0] for i in range(a.size))
    rows = []
    with np.errstate(all="ignore"):
        for dt in ("float16", "float", "double"):
            p0, n0 = T(dt, "p0"), T(dt, "n0")
            rows.append((f"np.maximum(+0, -0) {dt}", hx(dt, np.maximum(p0, n0))))
            rows.append((f"np.maximum(-0, +0) {dt}", hx(dt, np.maximum(n0, p0))))
            rows.append((f"np.maximum(+0 x9, -0 x9) {dt}", hx(dt, np.maximum(T(dt, ["p0"] * 9), T(dt, ["n0"] * 9)))))
            rows.append((f"np.maximum(NaN1, NaN2) {dt}", hx(dt, np.maximum(T(dt, "nan1"), T(dt, "nan2")))))
            rows.append((f"np.maximum(1, NaN1) {dt}", hx(dt, np.maximum(T(dt, "one"), T(dt, "nan1")))))
            rows.append((f"np.maximum(sNaN, 1) {dt}", hx(dt, np.maximum(T(dt, "snan"), T(dt, "one")))))
            # float/double: a leading NaN comes back as the default NaN, [ReduceMax.div.numpy-nan-payload]
            rows.append((f"np.maximum.reduce([NaN1, NaN2]) {dt}", hx(dt, np.maximum.reduce(T(dt, ["nan1", "nan2"])))))
            rows.append((f"np.max([1, NaN1, 2]) {dt}", hx(dt, np.max(T(dt, ["one", "nan1", "two"])))))
            rows.append((f"np.max([NaN1, 1, 2]) {dt}", hx(dt, np.max(T(dt, ["nan1", "one", "two"])))))
            rows.append((f"np.max([-0, +0]) {dt}", hx(dt, np.max(T(dt, ["n0", "p0"])))))
            rows.append((f"np.max([+0, -0]) {dt}", hx(dt, np.max(T(dt, ["p0", "n0"])))))
            for k in (8, 9, 17):
                rows.append((f"np.max([-0] x{k // 2} + [+0] x{k - k // 2}) {dt}",
                             hx(dt, np.max(T(dt, ["n0"] * (k // 2) + ["p0"] * (k - k // 2))))))
        rows.append(("np.argmax([1, NaN, 2, NaN]) float", str(np.argmax(T("float", ["one", "nan1", "two", "nan2"])))))
        rows.append(("np.argmax([-0, +0]) float", str(np.argmax(T("float", ["n0", "p0"])))))  # [Hardmax.div.numpy-signed-zero]
        rows.append(("np.argmax([+0, -0]) float", str(np.argmax(T("float", ["p0", "n0"])))))
    return rows
