"""The measured facts: small hand-picked cases run on onnxruntime-node, numpy and sonnx-ref.
`measure` prints them as the README table; `reproduce ID` prints the ones that demonstrate ID.

Each fact names the divergence ID it demonstrates (or 'agree' / 'ort-refuses'); the runner
classifies the measured outputs with lib/classify.py and reports any fact whose measured class no
longer matches what the README says (a changed peer or a changed spec).
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Dict, List, Optional

import numpy as np

import model as M
from classify import classify, classify_numpy
from onnxcase import FLOAT_BITS, Case, fmt_value, from_bits, storage
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


class PeerRefuses(Exception):
    """A peer transcription refuses the model (numpy raises, a draft's restriction excludes it)."""


@dataclasses.dataclass
class PeerFact:
    """Another peer on the same case: numpy, onnx's reference evaluator (a numpy transcription of its
    source) or the SONNX working group's draft (a transcription of its rule). `stated` is the value
    the divergence clause states for that peer (written by hand from spec/ops/*.md): a list with one
    entry per output (None: that output not stated), or 'refuses:<text in the refusal>'."""
    peer: str
    fn: Callable[[Case], object]
    expect: str             # 'agree' or the divergence ID the clause gives
    stated: object = None


@dataclasses.dataclass
class Fact:
    label: str              # what the case is, for the table
    case: Case
    expect: str             # 'agree', 'ort-refuses' or a divergence ID: what README states
    numpy: Optional[Callable[[Case], np.ndarray]] = None
    tags: List[str] = dataclasses.field(default_factory=list)  # further IDs this fact illustrates
    valid: bool = True      # False: the spec refuses the model (the fact records what ORT does)
    peers: List[PeerFact] = dataclasses.field(default_factory=list)
    # What the clause states ORT gives: a list of outputs (None: not stated) or a text its error holds.
    stated_ort: object = None
    # Conv, Gemm, MatMul: numpy's class as the README states it (classify_numpy_computed), when checked.
    numpy_expect: Optional[str] = None


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


# ============================================================= other peers of the second family
# Each function is a peer: numpy as numpy-based evaluators call it, onnx's reference evaluator
# transcribed from its source (onnx 1.12 has no onnx.reference: not runnable here), or the SONNX
# working group's draft transcribed from ../shared/reference/sonnx/ops/*.md. They return a list of
# outputs or raise PeerRefuses.

for _dt, _extra in {
        "float": dict(inf=0x7F800000, max=0x7F7FFFFF, lowest=0xFF7FFFFF, dmin=0x00000001, ndmin=0x80000001,
                      nan5=0x7FC00005, nan6=0x7FC00006, h15=0x3FC00000, m15=0xBFC00000),
        "float16": dict(inf=0x7C00, max=0x7BFF, lowest=0xFBFF, dmin=0x0001, ndmin=0x8001, nan5=0x7E05, nan6=0x7E06,
                        h15=0x3E00, m15=0xBE00),
        "double": dict(inf=0x7FF0000000000000, max=0x7FEFFFFFFFFFFFFF, lowest=0xFFEFFFFFFFFFFFFF, dmin=1,
                       ndmin=0x8000000000000001, nan5=0x7FF8000000000005, nan6=0x7FF8000000000006,
                       h15=0x3FF8000000000000, m15=0xBFF8000000000000)}.items():
    B[_dt].update(_extra)


def V(dtype: str, vals, shape=None) -> np.ndarray:
    """A tensor from symbolic names of B ('n0', 'inf', 'm15', ...) and plain numbers."""
    st = storage(dtype)
    bits = []
    for v in vals:
        if isinstance(v, str):
            bits.append(B[dtype][v])
        else:
            bits.append(int(np.array([v], st).view(FLOAT_BITS[dtype][0])[0]))
    return from_bits(dtype, bits, shape if shape is not None else [len(bits)])


def I64(vals, shape=None) -> np.ndarray:
    a = np.array(vals, np.int64)
    return a.reshape(shape) if shape is not None else a


def _keep(c: Case, r: np.ndarray, axis: int) -> np.ndarray:
    return np.expand_dims(r, axis) if c.attrs.get("keepdims", 1) else r


def np_arg(c: Case):
    """numpy.argmax / numpy.argmin along `axis` ([ArgMax.div.numpy-signed-zero], [ArgMin.div.numpy-signed-zero])."""
    x = c.inputs[0]
    axis = c.attrs.get("axis", 0)
    f = np.argmax if c.op == "ArgMax" else np.argmin
    with np.errstate(all="ignore"):
        return [_keep(c, np.asarray(f(x, axis=axis)), axis % x.ndim).astype(np.int64)]


def pyref_arg(c: Case):
    """onnx/reference/ops/op_argmax.py (commit 04cc106) and op_argmin.py (commit 18282da), read, not run:
    numpy.argmax/argmin along axis; with select_last_index = 1 (versions 12, 13) X flipped along the
    axis and D - 1 - that position ([ArgMax.div.pyref-signed-zero], [ArgMin.div.pyref-signed-zero])."""
    x = c.inputs[0]
    axis = c.attrs.get("axis", 0) % x.ndim
    f = np.argmax if c.op == "ArgMax" else np.argmin
    with np.errstate(all="ignore"):
        if c.opset >= 12 and c.attrs.get("select_last_index", 0) == 1:
            r = x.shape[axis] - np.asarray(f(np.flip(x, axis), axis=axis)) - 1
        else:
            r = np.asarray(f(x, axis=axis))
    return [_keep(c, r, axis).astype(np.int64)]


def draft_argmax(c: Case):
    """The SONNX draft ../shared/reference/sonnx/ops/argmax.md, section "ArgMax (float)": a row with a
    NaN gives its first (last with select_last_index = 1) NaN; else M_k, the IEEE maximum, and the
    smallest (greatest) j with S_k(j) = M_k under IEEE equality ([ArgMax.div.sonnx-signed-zero]).
    Restrictions [R1]-[R3]: axis, keepdims and select_last_index must be set."""
    for a in ("axis", "keepdims", "select_last_index"):
        if a not in c.attrs:
            raise PeerRefuses(f"[R1]-[R3] attribute {a} not set")
    rows, shape = M.arg_rows(c)
    v = M.View(c.dtype, rows)
    last = c.attrs["select_last_index"] == 1
    out = []
    for j in range(rows.shape[0]):
        hit = v.nan[j] if v.nan[j].any() else (v.val[j] == np.max(v.val[j]))
        pos = np.nonzero(hit)[0]
        out.append(pos[-1] if last else pos[0])
    return [np.array(out, np.int64).reshape(shape)]


def np_clip(c: Case):
    """numpy.clip with None for an absent bound, X itself when both are absent (onnx's reference
    evaluator op_clip.py, read: Clip_6 takes the schema defaults as numpy.float32, Clip_1 None for an
    absent attribute, Clip_11 None for an absent input) ([Clip.div.numpy-default],
    [Clip.div.numpy-nan-bound], [Clip.div.numpy-signed-zero])."""
    x = c.inputs[0]
    if c.opset < 11:
        big = np.float32(3.4028234663852886e38)
        lo = c.attrs.get("min", -big if c.opset == 6 else None)
        hi = c.attrs.get("max", big if c.opset == 6 else None)
    else:
        names = c.node_inputs if c.node_inputs is not None else c.input_names()
        given, k = {}, 1
        for pos, nm in enumerate(names[1:], start=1):
            if nm:
                given[pos] = c.inputs[k]
                k += 1
        lo, hi = given.get(1), given.get(2)
    if lo is None and hi is None:
        return [x.copy()]
    with np.errstate(all="ignore"):
        return [np.asarray(np.clip(x, lo, hi)).astype(x.dtype)]


def np_min_fold(c: Case):
    """numpy.minimum folded from the left; onnx's reference evaluator op_min.py (commit 1e9bf6e, read)
    is this fold and broadcasts at every version ([Min.div.numpy-signed-zero], [Min.div.pyref-signed-zero])."""
    with np.errstate(all="ignore"):
        y = np.broadcast_to(c.inputs[0], np.broadcast_shapes(*[x.shape for x in c.inputs])).copy()
        for x in c.inputs[1:]:
            y = np.minimum(y, x)
    return [y]


def np_reducemin(c: Case):
    """numpy.min over the resolved axes ([ReduceMin.div.numpy-signed-zero], [ReduceMin.div.numpy-nan-payload],
    [ReduceMin.div.numpy-empty]: an empty reduced set raises ValueError)."""
    axes = M.resolve_reduce(c)
    x = c.inputs[0]
    if axes is None:
        return [x.copy()]
    try:
        with np.errstate(all="ignore"):
            return [np.asarray(np.min(x, axis=tuple(axes), keepdims=bool(c.attrs.get("keepdims", 1))))]
    except ValueError as e:
        raise PeerRefuses(f"ValueError: {e}") from None


def pyref_reducemin(c: Case):
    """onnx/reference/ops/op_reduce_min.py (commit 0c0e139, read): an input with no element gives
    numpy.full of +Inf, or iinfo(T).max when numpy classes T as an integer type; else
    numpy.minimum.reduce ([ReduceMin.div.numpy-empty])."""
    axes = M.resolve_reduce(c)
    x = c.inputs[0]
    keep = c.attrs.get("keepdims", 1)
    if x.size == 0:
        fill = np.iinfo(x.dtype).max if np.issubdtype(x.dtype, np.integer) else np.inf
        return [np.full(M.reduce_output_shape(x.shape, axes, keep), fill, dtype=x.dtype)]
    with np.errstate(all="ignore"):
        return [np.asarray(np.minimum.reduce(x, axis=tuple(axes), keepdims=bool(keep)))]


def np_relu(c: Case):
    """numpy.maximum(x, 0).astype(x.dtype), also onnx's reference op_relu.py (commit 1e9bf6e, read)
    ([Relu.div.numpy-signed-zero])."""
    x = c.inputs[0]
    with np.errstate(all="ignore"):
        return [np.maximum(x, 0).astype(x.dtype)]


def draft_maxpool(c: Case):
    """The SONNX draft ../shared/reference/sonnx/ops/maxpool.md and maxpool.formal.mlw, transcribed:
    Restrictions [R1] two spatial axes, [R2] every attribute set, [R3] auto_pad NOTSET, [R4]
    ceil_mode 0, [R5] storage_order 0 ([MaxPool.div.wg-scope]); `pads` [C2] each pad below the
    dilated kernel; Y the max over X_p, X padded with -Inf (float) or the type's minimum, section
    "MaxPool (float)" / "(int)" and `coords_from_X_p` ([MaxPool.div.wg-padding]), Max_F ordering
    -0 < 0 (max.md); Indices as `find_in_line` / `find_in_row`: the first kernel position, padding
    included, whose value equals Y (a numeric equality: -0 = +0), its index from the padded
    coordinates minus the pads ([MaxPool.div.wg-padding], [MaxPool.div.wg-indices])."""
    x = c.inputs[0]
    a = c.attrs
    if x.ndim != 4:
        raise PeerRefuses("[R1] X has 2 spatial axes")
    if a.get("auto_pad", "NOTSET") != "NOTSET":
        raise PeerRefuses("[R3] auto_pad is NOTSET")
    if a.get("ceil_mode", 0) != 0:
        raise PeerRefuses("[R4] ceil_mode is 0")
    if a.get("storage_order", 0) != 0:
        raise PeerRefuses("[R5] storage_order is 0")
    for k in ("auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads", "storage_order", "strides"):
        if k not in a:
            raise PeerRefuses(f"[R2] attribute {k} not set")
    kh, kw = a["kernel_shape"]
    sh, sw = a["strides"]
    dh, dw = a["dilations"]
    pt, pl, pb, pr = a["pads"]
    keh, kew = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    if max(pt, pb) >= keh or max(pl, pr) >= kew:
        raise PeerRefuses("pads [C2] Ke_i > max(pads[i], pads[i+2])")
    N, C, H, W = x.shape
    OH, OW = (H + pt + pb - keh) // sh + 1, (W + pl + pr - kew) // sw + 1
    floats = c.dtype in ("float16", "float", "double")
    pad = np.array(-np.inf if floats else np.iinfo(x.dtype).min, x.dtype)
    y = np.empty((N, C, OH, OW), x.dtype)
    ind = np.empty((N, C, OH, OW), np.int64)

    def val(b, ch, h, w):  # coords_from_X_p
        return x[b, ch, h - pt, w - pl] if 0 <= h - pt < H and 0 <= w - pl < W else pad

    def num(v):
        return float(v)

    for b, ch, m, n in np.ndindex(N, C, OH, OW):
        pos = [(m * sh + i * dh, n * sw + j * dw) for i in range(kh) for j in range(kw)]
        vals = [val(b, ch, h, w) for h, w in pos]
        acc = vals[0]
        for v in vals[1:]:
            fa, fv = num(acc), num(v)
            if fa != fa:
                continue
            if fv != fv or fv > fa or (fv == fa == 0 and np.signbit(acc) and not np.signbit(v)):
                acc = v
        y[b, ch, m, n] = acc
        fa = num(acc)
        first = next(t for t, v in enumerate(vals) if (num(v) == fa) or (fa != fa and num(v) != num(v)))
        h, w = pos[first]
        ind[b, ch, m, n] = b * (C * H * W) + ch * (H * W) + (h - pt) * W + (w - pl)
    return [y, ind][:c.n_outputs]


def bit_same(dtype: str, a: np.ndarray, b: np.ndarray) -> bool:
    """Same shape and the same bits (NaN payloads and zero signs count)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if dtype in ("float16", "float", "double", "bfloat16"):
        from onnxcase import bits_view
        return bool(np.array_equal(bits_view(dtype, a.astype(storage(dtype))), bits_view(dtype, b.astype(storage(dtype)))))
    return bool(np.array_equal(a, b))


def output_dtypes(c: Case) -> List[str]:
    from onnxcase import out_dtype
    return [out_dtype(c)] + ["int64"] * (c.n_outputs - 1)


def stated_matches(c: Case, stated, outs, refusal: str) -> bool:
    """Does a peer's result (outs, or the text of its refusal) equal what the clause states?"""
    if isinstance(stated, str):
        want = stated.split(":", 1)[1] if stated.startswith("refuses:") else stated
        return outs is None and want in refusal
    if outs is None:
        return False
    return len(outs) >= len(stated) and all(s is None or bit_same(d, o, s)
                                            for d, o, s in zip(output_dtypes(c), outs, stated))


def classify_peer(f: Fact, pf: PeerFact) -> Dict:
    """The class of another peer on a fact's case: the divergence ID when its result is the one the
    clause states and differs from the spec bit for bit; 'agree' when it equals the spec (any NaN
    equals any NaN, [Check.bitwise]); 'both-refuse'; else 'unexplained'."""
    from classify import same
    c = f.case
    try:
        with np.errstate(all="ignore"):
            outs = list(pf.fn(c))
        refusal = ""
    except PeerRefuses as e:
        outs, refusal = None, str(e)
    with np.errstate(all="ignore"):
        spec = M.spec_outputs(c) if f.valid else None
    dts = output_dtypes(c)
    bit_equal = spec is not None and outs is not None and len(outs) == len(spec) and \
        all(bit_same(d, o, s) for d, o, s in zip(dts, outs, spec))
    stated_ok = pf.stated is not None and stated_matches(c, pf.stated, outs, refusal)
    if stated_ok and not bit_equal and pf.expect != "agree":
        cls = pf.expect
    elif spec is not None and outs is not None and len(outs) == len(spec) and \
            all(np.asarray(o).shape == s.shape and same(d, np.asarray(o).astype(s.dtype), s)
                for d, o, s in zip(dts, outs, spec)) and (pf.stated is None or stated_ok):
        cls = "agree"
    elif spec is None and outs is None:
        cls = "both-refuse"
    else:
        cls = "unexplained"
    return dict(cls=cls, outs=outs, refusal=refusal, spec=spec)


def build_facts() -> List[Fact]:
    facts: List[Fact] = []
    n = [0]

    def add(label, op, opset, dtype, inputs, expect, attrs=None, axes=None, numpy=None, tags=None,
            axes_as="initializer", valid=True, peers=None, stated_ort=None, node_inputs=None, n_outputs=1,
            initializers=(), symbolic_dims=False, numpy_expect=None, params=()):
        n[0] += 1
        cid = f"fact{n[0]:03d}-{op}-{opset}-{dtype}"
        case = Case(cid, op, opset, dtype, inputs, dict(attrs or {}), axes, axes_as)
        case.node_inputs = node_inputs
        case.n_outputs = n_outputs
        case.initializers = frozenset(initializers)
        case.symbolic_dims = symbolic_dims
        case.params = list(params)
        tags = list(tags or []) + ([numpy_expect] if numpy_expect not in (None, "agree") else [])
        facts.append(Fact(label, case, expect, numpy if valid else None, sorted(set(tags)), valid,
                          list(peers or []), stated_ort, numpy_expect))

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
    second_family_facts(add)
    computing_facts(add)
    arith_facts(add)
    sums_facts(add)
    movement_facts(add)
    elementary_facts(add)
    return facts


def sums_facts(add) -> None:
    """Facts of the divergence clauses of Sum, Mean, ReduceSum and ReduceMean (spec/ops/sum.md, mean.md,
    reducesum.md, reducemean.md): measured with /work/measure-sum (t_sum.py, t_int.py) and this folder's
    campaign (seed 1, --ops Sum,Mean,ReduceSum,ReduceMean)."""
    f32 = np.float32
    i32, i64 = np.iinfo(np.int32), np.iinfo(np.int64)

    def red(label, op, o, dt, x, axes, expect, keepdims=0, stated_ort=None):
        since = 13 if op == "ReduceSum" else 18
        attrs = {"keepdims": keepdims}
        if o < since:
            attrs["axes"] = axes
            add(label, op, o, dt, [x], expect, attrs, stated_ort=stated_ort)
        else:
            add(label, op, o, dt, [x], expect, attrs, axes=axes, stated_ort=stated_ort)

    x = np.array([1, 2, 3], f32)
    # [Sum.div.ort-refuses] [Mean.div.ort-refuses]
    add("Sum-1 float (no kernel)", "Sum", 1, "float", [x, x], "Sum.div.ort-refuses", stated_ort="Could not find an implementation for Sum(1)")
    add("Mean-1 float (no kernel)", "Mean", 1, "float", [x, x], "Mean.div.ort-refuses", stated_ort="Could not find an implementation for Mean(1)")
    add("Mean-13 double (no kernel)", "Mean", 13, "double", [x.astype("<f8")] * 2, "Mean.div.ort-refuses",
        stated_ort="Could not find an implementation for Mean(13)")
    add("Sum-13 float16 1 + 2^-11 + 2^-11 (computed in float)", "Sum", 13, "float16",
        [np.array([1], "<f2"), np.array([2 ** -11], "<f2"), np.array([2 ** -11], "<f2")], "agree")
    add("Mean-13 float16 of 60000 and 60000 (computed in float)", "Mean", 13, "float16", [np.array([60000], "<f2")] * 2, "agree")
    # [ReduceSum.div.ort-refuses] [ReduceMean.div.ort-refuses]
    red("ReduceSum-13 uint32 (no kernel)", "ReduceSum", 13, "uint32", np.array([[1, 2]], "<u4"), [1], "ReduceSum.div.ort-refuses",
        stated_ort="Could not find an implementation for ReduceSum(13)")
    red("ReduceMean-13 uint64 (no kernel)", "ReduceMean", 13, "uint64", np.array([[1, 2]], "<u8"), [1], "ReduceMean.div.ort-refuses",
        stated_ort="Could not find an implementation for ReduceMean(13)")
    # [ReduceSum.div.ort-int]: saturated, int64 through binary64
    for o in (11, 13):
        red("ReduceSum int32 [2^31-1, 2] (saturates)", "ReduceSum", o, "int32", np.array([[i32.max, 2]], "<i4"), [1],
            "ReduceSum.div.ort-int", stated_ort=[np.array([i32.max], "<i4")])
        red("ReduceSum int64 [2^63-1, 2] (saturates)", "ReduceSum", o, "int64", np.array([[i64.max, 2]], "<i8"), [1],
            "ReduceSum.div.ort-int", stated_ort=[np.array([i64.max], "<i8")])
    red("ReduceSum int32 [5, 6] (exact)", "ReduceSum", 13, "int32", np.array([[5, 6]], "<i4"), [1], "agree")
    # [ReduceMean.div.ort-int]: int64 beyond 2^53
    red("ReduceMean int64 [-2, -3, 5182022966547290419, 0, 2]", "ReduceMean", 11, "int64",
        np.array([[-2, -3, 5182022966547290419, 0, 2]], "<i8"), [1], "ReduceMean.div.ort-int",
        stated_ort=[np.array([1036404593309458048], "<i8")])
    red("ReduceMean int32 [-7, 0, 0] (truncated: -2)", "ReduceMean", 13, "int32", np.array([[-7, 0, 0]], "<i4"), [1], "agree",
        stated_ort=[np.array([-2], "<i4")])
    # [ReduceMean.div.numpy-int]: onnx's reference (np.mean(...).astype(T)): the binary64 mean 2^63 out of range
    def np_mean_astype(c: Case):
        with np.errstate(all="ignore"):
            return [np.mean(c.inputs[0], axis=1).astype(c.inputs[0].dtype)]
    add("ReduceMean int64 [2^63-1, 2^63-1] (ORT and the spec: 2^63-1)", "ReduceMean", 13, "int64",
        [np.array([[i64.max, i64.max]], "<i8")], "agree", {"keepdims": 0, "axes": [1]},
        stated_ort=[np.array([i64.max], "<i8")],
        peers=[PeerFact("numpy", np_mean_astype, "ReduceMean.div.numpy-int", [np.array([i64.min], "<i8")])])
    # [ReduceMean.div.ort-empty]: 0 for the mean of an empty set
    for o in (1, 11, 13, 18):
        red("ReduceMean float X [2, 0] over axis 1 (0, not NaN)", "ReduceMean", o, "float", np.zeros((2, 0), f32), [1],
            "ReduceMean.div.ort-empty", stated_ort=[np.zeros(2, f32)])
    red("ReduceSum float X [2, 0] over axis 1 (the empty sum)", "ReduceSum", 13, "float", np.zeros((2, 0), f32), [1], "agree")
    # [ReduceSum.div.ort-empty-negative-axes] [ReduceMean.div.ort-empty-negative-axes]
    red("ReduceSum X [0, 3, 4], axes [0, -1]", "ReduceSum", 11, "float", np.zeros((0, 3, 4), f32), [0, -1],
        "ReduceSum.div.ort-empty-negative-axes", stated_ort=[np.zeros((3, 4), f32)])
    red("ReduceMean X [0, 3], axes [-1]", "ReduceMean", 13, "float", np.zeros((0, 3), f32), [-1],
        "ReduceMean.div.ort-empty-negative-axes", stated_ort=[np.zeros((0, 3), f32)])


def computing_facts(add) -> None:
    """Facts of the divergence clauses of Conv, Gemm and MatMul (spec/ops/conv.md, gemm.md,
    matmul.md): ORT's class under the accuracy model, the values the clauses state (typed in by hand),
    numpy's class where it is stated. Measured with /work/measure (t1-t5) and this folder's campaign."""
    f32, NAN1 = np.float32, np.array([0x7FC00001], "<u4").view("<f4")[0]
    ones = lambda *s: np.ones(s, f32)  # noqa: E731
    NPC = lambda c: numpy_computed_peer(c)  # noqa: E731

    def conv(label, o, dt, x, w, b, attrs, expect, init=(), stated_ort=None, numpy_expect=None, valid=True,
             symbolic=False, tags=None):
        ins = [x, w] + ([b] if b is not None else [])
        add(label, "Conv", o, dt, ins, expect, attrs, initializers=init, stated_ort=stated_ort,
            numpy=NPC if numpy_expect else None, numpy_expect=numpy_expect, valid=valid, symbolic_dims=symbolic,
            tags=tags)

    # [Conv.div.ort-padded-inf]: W[0,0,0,0] = +Inf (or NaN) at a position the padding of the first
    # row and column reaches: W a graph input gives NaN there (0 * inf of the padded copy), W an
    # initializer (the NCHWc kernel, 2-D only) the spec's values; 1-D and 3-D take im2col either way.
    for special, name in ((np.inf, "+Inf"), (NAN1, "NaN 0x7fc00001")):
        w = ones(1, 1, 3, 3)
        w[0, 0, 0, 0] = special
        for o in (11, 22):
            conv(f"X ones [1,1,3,3], W[0,0,0,0] = {name}, pads 1, W fed", o, "float", ones(1, 1, 3, 3), w, None,
                 {"pads": [1, 1, 1, 1]}, "Conv.div.ort-padded-inf", numpy_expect="Conv.div.numpy-padded-inf",
                 stated_ort=[from_bits("float", [0xFFC00000] * 4 + [0x7F800000] * 2 + [0xFFC00000] + [0x7F800000] * 2, [1, 1, 3, 3])
                             if special == np.inf else from_bits("float", [0x7FC00001] * 9, [1, 1, 3, 3])])
            conv(f"X ones [1,1,3,3], W[0,0,0,0] = {name}, pads 1, W an initializer", o, "float", ones(1, 1, 3, 3), w,
                 None, {"pads": [1, 1, 1, 1]}, "agree", init=(1,))
        w1 = ones(1, 1, 3)
        w1[0, 0, 0] = special
        conv(f"1-D X ones [1,1,5], W[0] = {name}, pads 1, W an initializer", 11, "float", ones(1, 1, 5), w1, None,
             {"pads": [1, 1]}, "Conv.div.ort-padded-inf", init=(1,))
    wd = ones(8, 1, 3, 3)
    wd[:, 0, 0, 0] = np.inf
    conv("depthwise X ones [1,8,8,8], W[:,0,0,0] = +Inf, group 8, pads 1, W fed", 11, "float", ones(1, 8, 8, 8), wd,
         None, {"pads": [1, 1, 1, 1], "group": 8}, "Conv.div.ort-padded-inf")
    ws = ones(1, 1, 3, 3)
    ws[0, 0, 0, 0] = np.inf
    conv("SAME_UPPER, W[0,0,0,0] = +Inf, W fed", 11, "float", ones(1, 1, 3, 3), ws, None,
         {"auto_pad": "SAME_UPPER"}, "Conv.div.ort-padded-inf")
    # [Conv.div.ort-same-dilation]: SAME_* with a dilation above 1 fails at run time
    for auto in ("SAME_UPPER", "SAME_LOWER"):
        for init in ((), (1,)):
            conv(f"{auto}, dilations [2, 2], X [1,1,5,5], W [1,1,3,3]" + (", W an initializer" if init else ""), 11,
                 "float", ones(1, 1, 5, 5), ones(1, 1, 3, 3), None, {"auto_pad": auto, "dilations": [2, 2]},
                 "Conv.div.ort-same-dilation", init=init,
                 stated_ort="Dilation not supported for AutoPadType::SAME_UPPER or AutoPadType::SAME_LOWER")
    conv("SAME_UPPER, dilations [1, 1] written out", 11, "float", ones(1, 1, 5, 5), ones(1, 1, 3, 3), None,
         {"auto_pad": "SAME_UPPER", "dilations": [1, 1]}, "agree")
    # SAME_* with a stride above the kernel (a negative ONNX pad): ORT's Conv agrees (unlike its MaxPool)
    x3 = np.arange(1, 4, dtype=f32).reshape(1, 1, 3)
    for auto in ("SAME_UPPER", "SAME_LOWER"):
        conv(f"X [1,2,3], kernel [1], strides [3], {auto} (ONNX pad -2)", 11, "float", x3, ones(1, 1, 1), None,
             {"auto_pad": auto, "strides": [3]}, "agree", stated_ort=[np.array([[[1]]], f32)])
    # [Conv.div.ort-refuses]
    conv("double Conv-11", 11, "double", np.ones((1, 1, 3), "<f8"), np.ones((1, 1, 2), "<f8"), None, {},
         "Conv.div.ort-refuses", stated_ort="Could not find an implementation for Conv(11)")
    conv("float16 Conv-1", 1, "float16", np.ones((1, 1, 3), "<f2"), np.ones((1, 1, 2), "<f2"), None, {},
         "Conv.div.ort-refuses", stated_ort="InsertedPrecisionFreeCast")
    conv("bfloat16 Conv-22", 22, "bfloat16", T("bfloat16", ["one"] * 3, [1, 1, 3]), T("bfloat16", ["one"] * 2, [1, 1, 2]),
         None, {}, "Conv.div.ort-refuses", stated_ort="Could not find an implementation for Conv(22)")
    conv("SAME_UPPER on a spatial size 0: X [1,1,0], W [1,1,3]", 11, "float", ones(1, 1, 0), ones(1, 1, 3), None,
         {"auto_pad": "SAME_UPPER"}, "Conv.div.ort-refuses", stated_ort="Invalid input shape: {0}")
    conv("M = 0: X [1,3,4,4], W [0,3,3,3] an initializer", 11, "float", ones(1, 3, 4, 4), ones(0, 3, 3, 3), None, {},
         "Conv.div.ort-refuses", init=(1,), stated_ort="[ShapeInferenceError] invalid channel count")
    conv("M = 0: X [1,3,4,4], W [0,3,3,3] fed", 11, "float", ones(1, 3, 4, 4), ones(0, 3, 3, 3), None, {}, "agree")
    conv("float16 Conv-11 (computed in float)", 11, "float16", np.ones((1, 1, 3), "<f2"), np.ones((1, 1, 2), "<f2"),
         None, {}, "agree")
    # [Conv.div.ort-empty-channels]: C = 0. W an initializer (2-D): Y is not written; with padding: ORT
    # never returns. (Every input fed, ORT mostly gives the bias, but not always: no fact, its class varies.)
    conv("C = 0: X [1,0,4,4], W [2,0,3,3], B = 1, W and B initializers", 11, "float", ones(1, 0, 4, 4),
         ones(2, 0, 3, 3), ones(2), {}, "Conv.div.ort-empty-channels", init=(1, 2))
    conv("C = 0: X [1,0,4], W [2,0,3], pads [1, 1]", 11, "float", ones(1, 0, 4), ones(2, 0, 3), None, {"pads": [1, 1]},
         "Conv.div.ort-empty-channels", stated_ort="no result after")
    # [Conv.div.ort-accepts-refused]: negative pads accepted when the input's dims are symbolic
    x55 = np.arange(25, dtype=f32).reshape(1, 1, 5, 5)
    conv("pads [-1,-1,-1,-1], W [1,1,1,1] of 1, X 0..24 [1,1,5,5], symbolic dims", 11, "float", x55, ones(1, 1, 1, 1),
         None, {"pads": [-1, -1, -1, -1]}, "ort-accepts", valid=False, symbolic=True,
         stated_ort=[np.array([6, 7, 8, 11, 12, 13, 16, 17, 18], f32).reshape(1, 1, 3, 3)],
         tags=["Conv.div.ort-accepts-refused"])
    conv("pads [-1,0,0,0], W [1,1,3,3] of 1, X 0..24, symbolic dims", 11, "float", x55, ones(1, 1, 3, 3), None,
         {"pads": [-1, 0, 0, 0]}, "ort-accepts", valid=False, symbolic=True,
         stated_ort=[np.array([99, 108, 117, 144, 153, 162], f32).reshape(1, 1, 2, 3)],
         tags=["Conv.div.ort-accepts-refused"])
    conv("pads [-1,-1,-1,-1], concrete dims", 11, "float", x55, ones(1, 1, 1, 1), None, {"pads": [-1, -1, -1, -1]},
         "both-refuse", valid=False, stated_ort="pads must not contain negative values")

    # ---------------------------------------------------------------------- AveragePool, GlobalAveragePool
    # spec/ops/averagepool.md, globalaveragepool.md (measured first by /work/measure/t10_avgpool.py, t11_avgpool_same.py)
    def avg(label, o, dt, x, attrs, expect, op="AveragePool", stated_ort=None, valid=True, tags=None):
        add(label, op, o, dt, [x], expect, attrs, stated_ort=stated_ort, valid=valid, tags=tags)

    p6 = np.array([[[1, 2, 4, 8, 16, 32]]], f32)
    p7 = np.array([[[1, 2, 4, 8, 16, 32, 64]]], f32)
    for cip in (0, 1):  # the divisor at a border, both values (averagepool.md Examples 1 and 2): ORT agrees
        avg(f"[1,2,4,8,16,32], kernel [3], pads [1,1], count_include_pad {cip}", 7, "float", p6,
            {"kernel_shape": [3], "pads": [1, 1], "count_include_pad": cip}, "agree")
        avg(f"[1,2,4,8,16,32], kernel [3], strides [2], pads [1,1], ceil_mode 1, count_include_pad {cip}", 19, "float", p6,
            {"kernel_shape": [3], "strides": [2], "pads": [1, 1], "ceil_mode": 1, "count_include_pad": cip}, "agree")
        avg(f"[1,...,64], kernel [3], dilations [2], pads [1,1], count_include_pad {cip}", 19, "float", p7,
            {"kernel_shape": [3], "dilations": [2], "pads": [1, 1], "count_include_pad": cip}, "agree")
    # [AveragePool.div.ort-empty]: no member, count_include_pad 0: ORT writes 0, the spec refuses
    avg("[1,2], kernel [2], dilations [3], pads [1,1]: no member", 19, "float", np.array([[[1, 2]]], f32),
        {"kernel_shape": [2], "dilations": [3], "pads": [1, 1]}, "ort-accepts", valid=False,
        stated_ort=[np.array([[[0]]], f32)], tags=["AveragePool.div.ort-empty"])
    # [AveragePool.div.ort-geometry]: MaxPool's measured geometry (SAME_* with a dilation; VALID with ceil_mode)
    p5 = np.array([[[1, 2, 4, 8, 16]]], f32)
    avg("[1,2,4,8,16], kernel [2], dilations [2], SAME_UPPER, count_include_pad 1", 19, "float", p5,
        {"kernel_shape": [2], "dilations": [2], "auto_pad": "SAME_UPPER", "count_include_pad": 1},
        "AveragePool.div.ort-geometry", stated_ort=[np.array([[[2.5, 5, 10, 4]]], f32)])
    avg("[1,2,4,8,16], kernel [2], strides [2], VALID, ceil_mode 1", 19, "float", p5,
        {"kernel_shape": [2], "strides": [2], "auto_pad": "VALID", "ceil_mode": 1},
        "AveragePool.div.ort-geometry", stated_ort=[np.array([[[1.5, 6, 16]]], f32)])
    # [AveragePool.div.ort-refuses]
    avg("double AveragePool-19", 19, "double", p6.astype("<f8"), {"kernel_shape": [3]}, "AveragePool.div.ort-refuses",
        stated_ort="Could not find an implementation for AveragePool(19)")
    avg("AveragePool-1", 1, "float", p6, {"kernel_shape": [3]}, "AveragePool.div.ort-refuses",
        stated_ort="Could not find an implementation for AveragePool(1)")
    avg("pads [2,2] >= kernel [2] (dilations [3]: effective kernel 4)", 19, "float", p7,
        {"kernel_shape": [2], "dilations": [3], "pads": [2, 2]}, "AveragePool.div.ort-refuses",
        stated_ort="Pad should be smaller than kernel")
    avg("C = 0: X [1,0,3]", 19, "float", np.zeros((1, 0, 3), f32), {"kernel_shape": [2]}, "AveragePool.div.ort-refuses",
        stated_ort="Invalid input shape")
    avg("four spatial axes", 19, "float", np.ones((1, 1, 2, 2, 2, 2), f32), {"kernel_shape": [1, 1, 1, 1]},
        "AveragePool.div.ort-refuses", stated_ort="Unsupported pooling size")
    # [GlobalAveragePool.div.ort-refuses]; the empty spatial set refused by both
    avg("double GlobalAveragePool-1", 1, "double", p6.astype("<f8"), {}, "GlobalAveragePool.div.ort-refuses",
        op="GlobalAveragePool", stated_ort="Could not find an implementation for GlobalAveragePool(1)")
    avg("X [1,2,0]: an empty spatial set", 1, "float", np.zeros((1, 2, 0), f32), {}, "both-refuse", op="GlobalAveragePool",
        valid=False)
    avg("[1, NaN, +Inf], [+Inf, -Inf, 1]: NaN, NaN", 1, "float", np.array([[[1, np.nan, np.inf], [np.inf, -np.inf, 1]]], f32),
        {}, "agree", op="GlobalAveragePool")

    # ---------------------------------------------------------------------------------- Gemm
    def gemm(label, o, dt, a, b, c, attrs, expect, init=(), stated_ort=None, numpy_expect=None, valid=True, tags=None):
        ins = [a, b] + ([c] if c is not None else [])
        add(label, "Gemm", o, dt, ins, expect, attrs, initializers=init, stated_ort=stated_ort,
            numpy=NPC if numpy_expect else None, numpy_expect=numpy_expect, valid=valid, tags=tags)

    c3 = np.array([1, 2, 3], f32)
    for o in (7, 11, 13):
        # [Gemm.div.ort-empty-k]: K = 0 gives C, not beta * C
        gemm("K = 0: A [2,0], B [0,3], C [1,2,3], beta 2", o, "float", ones(2, 0), ones(0, 3), c3, {"beta": 2.0},
             "Gemm.div.ort-empty-k", stated_ort=[np.array([[1, 2, 3], [1, 2, 3]], f32)], numpy_expect="agree")
        gemm("K = 0: A [2,0], B [0,3], C [1,2,3], beta -1, alpha 3", o, "float", ones(2, 0), ones(0, 3), c3,
             {"beta": -1.0, "alpha": 3.0}, "Gemm.div.ort-empty-k", stated_ort=[np.array([[1, 2, 3], [1, 2, 3]], f32)])
        gemm("K = 0, beta 1", o, "float", ones(2, 0), ones(0, 3), c3, {}, "agree")
        gemm("K = 0, beta 0", o, "float", ones(2, 0), ones(0, 3), c3, {"beta": 0.0}, "agree",
             stated_ort=[np.zeros((2, 3), f32)])
    gemm("K = 0, C absent", 13, "float", ones(2, 0), ones(0, 3), None, {"beta": 2.0}, "agree")
    # beta = 0 reads no C, alpha = 0 is a factor: ORT as the spec; numpy's formula reads C
    cn = np.array([[np.nan, np.inf], [-np.inf, 1]], f32)
    a2 = np.array([[1, 2, 3], [4, 5, 6]], f32)
    b2 = np.array([[1, 0], [0, 1], [1, 1]], f32)
    gemm("beta 0, C = [[NaN, Inf], [-Inf, 1]]", 13, "float", a2, b2, cn, {"beta": 0.0}, "agree",
         stated_ort=[np.array([[4, 5], [10, 11]], f32)], numpy_expect="Gemm.div.numpy-beta-zero",
         tags=["Gemm.div.numpy-beta-zero"])
    an = np.array([[np.nan, 2, 3], [np.inf, 5, 6]], f32)
    gemm("alpha 0, A = [[NaN, 2, 3], [Inf, 5, 6]], C = 1", 13, "float", an, b2, np.ones(1, f32), {"alpha": 0.0},
         "agree", numpy_expect="agree")
    # [Gemm.div.ort-refuses]
    for o, dt in ((1, "float"), (6, "float"), (1, "double"), (6, "double"), (1, "float16"), (6, "float16")):
        st = storage(dt)
        gemm(f"Gemm-{o} {dt}", o, dt, np.ones((2, 2), st), np.ones((2, 2), st), np.ones((2, 2), st), {},
             "Gemm.div.ort-refuses", stated_ort="InsertedPrecisionFreeCast" if (o, dt) == (1, "float16") else
             "Failed to find kernel for Gemm(6)" if dt == "float16" else f"Could not find an implementation for Gemm({o})")
    gemm("Gemm-13 bfloat16", 13, "bfloat16", T("bfloat16", ["one"] * 4, [2, 2]), T("bfloat16", ["one"] * 4, [2, 2]),
         None, {}, "Gemm.div.ort-refuses", stated_ort="Could not find an implementation for Gemm(13)")
    gemm("Gemm-7 float16 (computed in float)", 7, "float16", np.ones((2, 2), "<f2"), np.ones((2, 2), "<f2"),
         np.ones((2, 2), "<f2"), {}, "agree")
    # [Gemm.div.ort-int]: no integer kernel
    for o in (9, 11, 13):
        for dt in ("int32", "int64", "uint32", "uint64"):
            st = storage(dt)
            gemm(f"Gemm-{o} {dt}, alpha 1, beta 1", o, dt, np.array([[3, 5]], st), np.array([[1], [1]], st),
                 np.array([[3]], st), {}, "Gemm.div.ort-int", stated_ort=f"Could not find an implementation for Gemm({o})")
    gemm("Gemm-13 int32, alpha 0.5, beta 2.5 (the spec refuses)", 13, "int32", np.array([[3, 5]], "<i4"),
         np.array([[1], [1]], "<i4"), np.array([[3]], "<i4"), {"alpha": 0.5, "beta": 2.5}, "both-refuse", valid=False,
         tags=["Gemm.div.ort-int"])

    # -------------------------------------------------------------------------------- MatMul
    def mm(label, o, dt, a, b, expect, init=(), stated_ort=None, numpy_expect=None):
        add(label, "MatMul", o, dt, [a, b], expect, {}, initializers=init, stated_ort=stated_ort,
            numpy=NPC if numpy_expect else None, numpy_expect=numpy_expect)

    mm("MatMul-1 float16", 1, "float16", np.ones((2, 2), "<f2"), np.ones((2, 2), "<f2"), "MatMul.div.ort-refuses",
       stated_ort="InsertedPrecisionFreeCast")
    mm("MatMul-13 bfloat16", 13, "bfloat16", T("bfloat16", ["one"] * 4, [2, 2]), T("bfloat16", ["one"] * 4, [2, 2]),
       "MatMul.div.ort-refuses", stated_ort="Could not find an implementation for MatMul(13)")
    mm("MatMul-9 float16 (computed in float)", 9, "float16", np.ones((2, 2), "<f2"), np.ones((2, 2), "<f2"), "agree")
    mm("K = 0: A [2,0], B [0,3]", 13, "float", ones(2, 0), ones(0, 3), "agree", numpy_expect="agree",
       stated_ort=[np.zeros((2, 3), f32)])
    mm("int32 46341 * 46341 wraps", 13, "int32", np.array([[46341]], "<i4"), np.array([[46341]], "<i4"), "agree",
       numpy_expect="agree", stated_ort=[np.array([[-2147479015]], "<i4")])
    # float16: computed in float and rounded once (1 + 2^-11 + 2^-11 * 2^-... rounds to 1, not 0x3c01)
    mm("float16 1 + 2^-11 + 2^-12 + 2^-13 (ORT sums in float, rounds once: 0x3c01)", 13, "float16",
       np.array([[1.0, 2.0 ** -11, 2.0 ** -12, 2.0 ** -13]], "<f2"), np.ones((4, 1), "<f2"), "agree",
       numpy_expect="agree")


def numpy_computed_peer(c: Case):
    from classify import numpy_computed
    return numpy_computed(c)


def second_family_facts(add) -> None:
    """Facts of the divergence clauses of Min, ReduceMin, ArgMax, ArgMin, Relu, Clip, MaxPool and
    GlobalMaxPool that the random campaign does not classify: numpy, onnx's reference evaluator and
    the SONNX drafts (PeerFact), ORT's refusals and what ORT runs where the spec refuses. Every
    `stated` value is the one the clause writes (spec/ops/*.md), typed in by hand."""
    NP, PY, WG = "numpy 1.24", "onnx pyref (transcribed)", "SONNX draft (transcribed)"
    P = PeerFact

    # ------------------------------------------------------------------------ ArgMax / ArgMin
    def arg(label, op, o, dt, x, expect, attrs=None, peers=None, valid=True, stated_ort=None, tags=None):
        add(label, op, o, dt, [x], expect, attrs, peers=peers, valid=valid, stated_ort=stated_ort, tags=tags)

    full = dict(axis=0, keepdims=1, select_last_index=0)
    last = dict(axis=0, keepdims=1, select_last_index=1)
    for dt in ("float", "double", "float16"):
        # [ArgMax.div.numpy-signed-zero] [ArgMax.div.pyref-signed-zero] [ArgMax.div.sonnx-signed-zero]:
        # argmax([-0, +0]) is 0 for all three, this specification 1 (ORT: [ArgMax.div.ort-signed-zero])
        arg("[-0, +0]", "ArgMax", 13, dt, V(dt, ["n0", "p0"]), "ArgMax.div.ort-signed-zero", full,
            [P(NP, np_arg, "ArgMax.div.numpy-signed-zero", [I64([0])]),
             P(PY, pyref_arg, "ArgMax.div.pyref-signed-zero", [I64([0])]),
             P(WG, draft_argmax, "ArgMax.div.sonnx-signed-zero", [I64([0])])])
        # [ArgMax.div.numpy-signed-zero]: argmax([-0, +0, -0, +0]) 0, this specification 1
        arg("[-0, +0, -0, +0]", "ArgMax", 13, dt, V(dt, ["n0", "p0", "n0", "p0"]), "ArgMax.div.ort-signed-zero", full,
            [P(NP, np_arg, "ArgMax.div.numpy-signed-zero", [I64([0])]),
             P(PY, pyref_arg, "ArgMax.div.pyref-signed-zero", [I64([0])]),
             P(WG, draft_argmax, "ArgMax.div.sonnx-signed-zero", [I64([0])])])
        arg("[+0, -0]", "ArgMax", 13, dt, V(dt, ["p0", "n0"]), "agree", full,
            [P(NP, np_arg, "agree"), P(PY, pyref_arg, "agree"), P(WG, draft_argmax, "agree")])
        # with select_last_index = 1, [+0, -0] gives 1 in the evaluator and the draft, 0 here
        arg("[+0, -0], select_last_index 1", "ArgMax", 13, dt, V(dt, ["p0", "n0"]), "ArgMax.div.ort-signed-zero", last,
            [P(PY, pyref_arg, "ArgMax.div.pyref-signed-zero", [I64([1])]),
             P(WG, draft_argmax, "ArgMax.div.sonnx-signed-zero", [I64([1])])])
        # NaN positions agree: first NaN (last with select_last_index, the flip); ORT ([ArgMax.div.ort-nan])
        # scans rows of shape [1, n] and gives 0 for both
        row = dict(full, axis=1)
        arg("[[1, NaN, NaN, -1]], axis 1", "ArgMax", 13, dt, V(dt, [1, "nan1", "nan2", -1], [1, 4]), "ArgMax.div.ort-nan",
            row, [P(NP, np_arg, "agree"), P(PY, pyref_arg, "agree"), P(WG, draft_argmax, "agree")], stated_ort=[I64([[0]])])
        arg("[[1, NaN, NaN, -1]], axis 1, select_last_index 1", "ArgMax", 13, dt, V(dt, [1, "nan1", "nan2", -1], [1, 4]),
            "ArgMax.div.ort-nan", dict(row, select_last_index=1), [P(PY, pyref_arg, "agree"), P(WG, draft_argmax, "agree")],
            stated_ort=[I64([[0]])])
    # the draft has no defaults ([R1]-[R3]): sonnx-ref applies ONNX's ([ArgMax.div.sonnx-signed-zero])
    arg("[1, 3, 2], no attribute", "ArgMax", 13, "float", V("float", [1, 3, 2]), "agree", None,
        [P(NP, np_arg, "agree"), P(WG, draft_argmax, "ArgMax.div.sonnx-signed-zero", "refuses:[R1]-[R3]")])
    x120 = V("float", [1, 2, 0], [1, 3])
    x122 = V("float", [1, 2, 2], [1, 3])
    # [ArgMax.div.ort-accepts-refused]: ORT runs what this specification refuses
    arg("ArgMax-1 axis=-1 (v1: no negative axis)", "ArgMax", 1, "float", x120, "ort-accepts", dict(axis=-1),
        valid=False, stated_ort=[I64([[1]])], tags=["ArgMax.div.ort-accepts-refused"])
    arg("keepdims=2, axis=1", "ArgMax", 13, "float", x120, "ort-accepts", dict(axis=1, keepdims=2),
        valid=False, stated_ort=[I64([1])], tags=["ArgMax.div.ort-accepts-refused"])
    arg("select_last_index=2, axis=1", "ArgMax", 13, "float", x122, "ort-accepts", dict(axis=1, select_last_index=2),
        valid=False, stated_ort=[I64([[2]])], tags=["ArgMax.div.ort-accepts-refused"])
    arg("axis=2 on rank 2", "ArgMax", 13, "float", x120, "both-refuse", dict(axis=2), valid=False,
        tags=["ArgMax.div.ort-accepts-refused"])
    arg("uint64 [2^64-1, 0, 2^63]", "ArgMax", 13, "uint64", np.array([2**64 - 1, 0, 2**63], "<u8"), "ort-refuses",
        stated_ort="Could not find an implementation", tags=["ArgMax.div.ort-accepts-refused"])

    # [ArgMin.div.ort-nan]: ORT skips a NaN unless it comes first, on rows of shape [1, n] (axis 1)
    def row(vals, dt="float"):
        return V(dt, vals, [1, len(vals)])
    ax1, ax1last = dict(axis=1), dict(axis=1, select_last_index=1)
    for o in (11, 12, 13):
        arg("[[1, NaN, 2]], axis 1", "ArgMin", o, "float", row([1, "nan1", 2]), "ArgMin.div.ort-nan", ax1,
            stated_ort=[I64([[0]])])
        arg("[[1, 2, NaN]], axis 1", "ArgMin", o, "float", row([1, 2, "nan1"]), "ArgMin.div.ort-nan", ax1,
            stated_ort=[I64([[0]])])
        arg("[[1, NaN, NaN, -1]], axis 1", "ArgMin", o, "float", row([1, "nan1", "nan2", -1]), "ArgMin.div.ort-nan", ax1,
            stated_ort=[I64([[3]])])
        arg("[[NaN, 1, 2]], axis 1", "ArgMin", o, "float", row(["nan1", 1, 2]), "agree", ax1, stated_ort=[I64([[0]])])
        # rank 1 along axis 0, select_last_index 0: ORT gives the first NaN, in agreement (the clause's scope)
        arg("[1, NaN, 2] (rank 1)", "ArgMin", o, "float", V("float", [1, "nan1", 2]), "agree",
            stated_ort=[I64([1])], tags=["ArgMin.div.ort-nan"])
        arg("[1, NaN, NaN, -1] (rank 1)", "ArgMin", o, "float", V("float", [1, "nan1", "nan2", -1]), "agree",
            stated_ort=[I64([1])], tags=["ArgMin.div.ort-nan"])
    for o in (12, 13):
        arg("[[1, NaN, NaN, -1]], axis 1, select_last_index 1", "ArgMin", o, "float", row([1, "nan1", "nan2", -1]),
            "ArgMin.div.ort-nan", ax1last, stated_ort=[I64([[3]])])
        arg("[[NaN, 1, NaN, 2]], axis 1, select_last_index 1", "ArgMin", o, "float", row(["nan1", 1, "nan2", 2]),
            "ArgMin.div.ort-nan", ax1last, stated_ort=[I64([[0]])])
        arg("[1, NaN, 2] (rank 1), select_last_index 1", "ArgMin", o, "float", V("float", [1, "nan1", 2]),
            "ArgMin.div.ort-nan", dict(select_last_index=1), stated_ort=[I64([0])])
    for dt in ("double", "float16"):
        arg("[[1, NaN, 2]], axis 1", "ArgMin", 13, dt, row([1, "nan1", 2], dt), "ArgMin.div.ort-nan", ax1,
            stated_ort=[I64([[0]])])
    for o in (11, 13):  # ArgMax likewise: rank 1 gives the first NaN, rows of shape [1, n] the scan
        arg("[1, NaN, 2] (rank 1)", "ArgMax", o, "float", V("float", [1, "nan1", 2]), "agree", stated_ort=[I64([1])],
            tags=["ArgMax.div.ort-nan"])
        arg("[1, NaN, NaN, -1] (rank 1)", "ArgMax", o, "float", V("float", [1, "nan1", "nan2", -1]), "agree",
            stated_ort=[I64([1])], tags=["ArgMax.div.ort-nan"])
        arg("[[1, NaN, 2]], axis 1", "ArgMax", o, "float", row([1, "nan1", 2]), "ArgMax.div.ort-nan", ax1,
            stated_ort=[I64([[2]])])
    for dt in ("float", "double", "float16"):
        # [ArgMin.div.ort-signed-zero] [ArgMin.div.numpy-signed-zero] [ArgMin.div.pyref-signed-zero]:
        # argmin([+0, -0]) is 0 in all three, this specification 1
        arg("[+0, -0]", "ArgMin", 13, dt, V(dt, ["p0", "n0"]), "ArgMin.div.ort-signed-zero", None,
            [P(NP, np_arg, "ArgMin.div.numpy-signed-zero", [I64([0])]),
             P(PY, pyref_arg, "ArgMin.div.pyref-signed-zero", [I64([0])])], stated_ort=[I64([0])])
        arg("[-0, +0]", "ArgMin", 13, dt, V(dt, ["n0", "p0"]), "agree", None,
            [P(NP, np_arg, "agree"), P(PY, pyref_arg, "agree")], stated_ort=[I64([0])])
        arg("[-0, +0, -0, +0]", "ArgMin", 13, dt, V(dt, ["n0", "p0", "n0", "p0"]), "agree", None,
            [P(NP, np_arg, "agree"), P(PY, pyref_arg, "agree")], stated_ort=[I64([0])])
        # with select_last_index = 1: ORT and the evaluator 1 on [-0, +0], this specification 0
        arg("[-0, +0], select_last_index 1", "ArgMin", 13, dt, V(dt, ["n0", "p0"]), "ArgMin.div.ort-signed-zero",
            dict(select_last_index=1), [P(PY, pyref_arg, "ArgMin.div.pyref-signed-zero", [I64([1])])],
            stated_ort=[I64([1])])
        arg("[-0, +0, -0, +0], select_last_index 1", "ArgMin", 13, dt, V(dt, ["n0", "p0", "n0", "p0"]),
            "ArgMin.div.ort-signed-zero", dict(select_last_index=1), stated_ort=[I64([3])])
        arg("[+0, -0], select_last_index 1", "ArgMin", 13, dt, V(dt, ["p0", "n0"]), "agree",
            dict(select_last_index=1), [P(PY, pyref_arg, "agree")], stated_ort=[I64([1])])
        arg("[[1, NaN, 2]], axis 1 (numpy: first NaN)", "ArgMin", 13, dt, row([1, "nan1", 2], dt), "ArgMin.div.ort-nan",
            ax1, [P(NP, np_arg, "agree"), P(PY, pyref_arg, "agree")])
    # [ArgMin.div.ort-accepts-refused]
    arg("ArgMin-1 axis=-1 (v1: no negative axis)", "ArgMin", 1, "float", x120, "ort-accepts", dict(axis=-1),
        valid=False, stated_ort=[I64([[2]])], tags=["ArgMin.div.ort-accepts-refused"])
    arg("keepdims=2, axis=1", "ArgMin", 13, "float", x120, "ort-accepts", dict(axis=1, keepdims=2),
        valid=False, stated_ort=[I64([2])], tags=["ArgMin.div.ort-accepts-refused"])
    arg("select_last_index=2, axis=1", "ArgMin", 13, "float", x122, "ort-accepts", dict(axis=1, select_last_index=2),
        valid=False, stated_ort=[I64([[0]])], tags=["ArgMin.div.ort-accepts-refused"])
    arg("rank 0", "ArgMin", 13, "float", np.array(1, "<f4"), "both-refuse", valid=False,
        tags=["ArgMin.div.ort-accepts-refused"])

    # ------------------------------------------------------------------------------- Min
    for dt in ("float", "double"):
        # [Min.div.numpy-signed-zero] [Min.div.pyref-signed-zero]: float/double take the second operand
        add("Min(-0, +0) [1]", "Min", 13, dt, [V(dt, ["n0"]), V(dt, ["p0"])], "Min.div.ort-signed-zero",
            peers=[P(NP, np_min_fold, "Min.div.numpy-signed-zero", [V(dt, ["p0"])]),
                   P(PY, np_min_fold, "Min.div.pyref-signed-zero", [V(dt, ["p0"])])])
        add("Min(+0, -0) [1]", "Min", 13, dt, [V(dt, ["p0"]), V(dt, ["n0"])], "agree",
            peers=[P(NP, np_min_fold, "agree"), P(PY, np_min_fold, "agree")])
    add("Min([-0] x9, [+0] x9)", "Min", 13, "float", [V("float", ["n0"] * 9), V("float", ["p0"] * 9)],
        "Min.div.ort-signed-zero", peers=[P(NP, np_min_fold, "Min.div.numpy-signed-zero", [V("float", ["p0"] * 9)])])
    add("Min(-0 rank 0, [+0] x4)", "Min", 13, "float", [V("float", ["n0"], []), V("float", ["p0"] * 4)],
        "agree", peers=[P(NP, np_min_fold, "Min.div.numpy-signed-zero", [V("float", ["p0"] * 4)])])
    # float16: the first operand
    add("Min(+0, -0) [1]", "Min", 13, "float16", [V("float16", ["p0"]), V("float16", ["n0"])], "agree",
        peers=[P(NP, np_min_fold, "Min.div.numpy-signed-zero", [V("float16", ["p0"])]),
               P(PY, np_min_fold, "Min.div.pyref-signed-zero", [V("float16", ["p0"])])])
    add("Min([+0] x9, [-0] x9)", "Min", 13, "float16", [V("float16", ["p0"] * 9), V("float16", ["n0"] * 9)],
        "Min.div.ort-signed-zero", peers=[P(NP, np_min_fold, "Min.div.numpy-signed-zero", [V("float16", ["p0"] * 9)])])
    add("Min(-0, +0) [1]", "Min", 13, "float16", [V("float16", ["n0"]), V("float16", ["p0"])], "Min.div.ort-signed-zero",
        peers=[P(NP, np_min_fold, "agree")])
    # [Min.div.pyref-signed-zero]: the evaluator broadcasts at Min-6, which refuses different shapes
    add("Min-6 shapes [2],[1] (refused: [Min.err.same-shape])", "Min", 6, "float",
        [V("float", [1, 3]), V("float", [2])], "both-refuse", valid=False, tags=["Min.div.pyref-signed-zero"],
        peers=[P(PY, np_min_fold, "Min.div.pyref-signed-zero", [V("float", [1, 2])])])

    # -------------------------------------------------------------------------- ReduceMin
    def rmin(label, o, dt, x, expect, axes=None, keepdims=0, noop=None, peers=None, valid=True, stated_ort=None,
             tags=None, axes_as="initializer"):
        attrs = {"keepdims": keepdims}
        if noop is not None:
            attrs["noop_with_empty_axes"] = noop
        if o < 18:
            if axes is not None:
                attrs["axes"] = axes
            axes = None
        add(label, "ReduceMin", o, dt, [x], expect, attrs, axes, peers=peers, valid=valid, stated_ort=stated_ort,
            tags=tags, axes_as=axes_as)

    for dt in ("float", "double"):
        # [ReduceMin.div.numpy-signed-zero]: [-0, +0] gives +0 (float, double)
        rmin("[-0, +0]", 13, dt, V(dt, ["n0", "p0"]), "agree",
             peers=[P(NP, np_reducemin, "ReduceMin.div.numpy-signed-zero", [V(dt, ["p0"], [])])])
        rmin("[-0, +0 x8]", 13, dt, V(dt, ["n0"] + ["p0"] * 8), "agree",
             peers=[P(NP, np_reducemin, "ReduceMin.div.numpy-signed-zero", [V(dt, ["p0"], [])])])
        rmin("[+0, -0]", 13, dt, V(dt, ["p0", "n0"]), "ReduceMin.div.ort-signed-zero",
             peers=[P(NP, np_reducemin, "agree")])
        # [ReduceMin.div.numpy-nan-payload]: a leading NaN comes back as the default NaN
        rmin("[NaN1, 1, 2]", 13, dt, V(dt, ["nan1", 1, 2]), "agree",
             peers=[P(NP, np_reducemin, "ReduceMin.div.numpy-nan-payload", [V(dt, ["nan"], [])])])
        rmin("[1, NaN1, 2]", 13, dt, V(dt, [1, "nan1", 2]), "ReduceMin.div.ort-nan",
             peers=[P(NP, np_reducemin, "agree", [V(dt, ["nan1"], [])])])
    rmin("[+0, -0]", 13, "float16", V("float16", ["p0", "n0"]), "ReduceMin.div.ort-signed-zero",
         peers=[P(NP, np_reducemin, "ReduceMin.div.numpy-signed-zero", [V("float16", ["p0"], [])])])
    rmin("[+0 x8, -0]", 13, "float16", V("float16", ["p0"] * 8 + ["n0"]), "ReduceMin.div.ort-signed-zero",
         peers=[P(NP, np_reducemin, "ReduceMin.div.numpy-signed-zero", [V("float16", ["p0"], [])])])
    rmin("[NaN1, 1]", 13, "float16", V("float16", ["nan1", 1]), "agree",
         peers=[P(NP, np_reducemin, "agree", [V("float16", ["nan1"], [])])])
    # [ReduceMin.div.numpy-empty]: numpy refuses, onnx's evaluator fills (+Inf, iinfo max, True)
    for dt, x, o in (("float", np.zeros((0, 3), "<f4"), 13), ("int32", np.zeros((0, 3), "<i4"), 13),
                     ("bool", np.zeros((0, 3), bool), 20)):
        rmin(f"{dt} shape [0,3] axes [0]", o, dt, x, "ReduceMin.div.ort-bool-empty" if dt == "bool" else "agree",
             axes=[0], peers=[P(NP, np_reducemin, "ReduceMin.div.numpy-empty", "refuses:zero-size array to reduction"),
                              P(PY, pyref_reducemin, "agree")],
             stated_ort="ReduceMin is not defined for empty set with bool type" if dt == "bool" else None)
    # [ReduceMin.div.ort-bool-empty]: non-empty bool sets agree
    rmin("bool [[T,F,T],[T,T,T]] axes [1]", 20, "bool", np.array([[1, 0, 1], [1, 1, 1]], bool), "agree", axes=[1],
         stated_ort=[np.array([False, True])])
    # [ReduceMin.div.ort-accepts-refused]
    x23 = V("float", [1, 2, 3, 4, 5, 0], [2, 3])
    for o in (11, 13, 18, 20):
        rmin("duplicate axes [1, -1]", o, "float", x23, "ort-accepts", [1, -1], valid=False,
             stated_ort=[V("float", [1, 0])], tags=["ReduceMin.div.ort-accepts-refused"])
        rmin("axes [1], keepdims=2", o, "float", x23, "ort-accepts", [1], keepdims=2, valid=False,
             stated_ort=[V("float", [1, 0])], tags=["ReduceMin.div.ort-accepts-refused"])
    rmin("noop_with_empty_axes=2, axes [1]", 18, "float", x23, "ort-accepts", [1], noop=2, valid=False,
         stated_ort=[V("float", [1, 0])], tags=["ReduceMin.div.ort-accepts-refused"])
    rmin("ReduceMin-1 axes=[-1] (v1: no negative axes)", 1, "float", x23, "ort-accepts", [-1], valid=False,
         stated_ort=[V("float", [1, 0])], tags=["ReduceMin.div.ort-accepts-refused"])
    rmin("uint8 at ReduceMin-11 (type)", 11, "uint8", np.array([1, 2], "u1"), "both-refuse", [0], valid=False,
         tags=["ReduceMin.div.ort-accepts-refused"])

    # ------------------------------------------------------------------------------ Relu
    # [Relu.div.numpy-signed-zero]: numpy.maximum(x, 0) keeps a float16 -0 at shapes [14], [16]
    x14 = ["n0", "p0", "h15", "m15", "inf", "ninf", "dmin", "ndmin", "max", "lowest", "nan1", "snan", "nan2", "one"]
    y14 = ["n0", "p0", "h15", "p0", "inf", "p0", "dmin", "p0", "max", "p0", "nan1", "snan", "nan2", "one"]
    for o in (6, 13, 14):
        add("float16 [14], -0 at position 0", "Relu", o, "float16", [V("float16", x14)], "Relu.div.ort-signed-zero",
            peers=[P(NP, np_relu, "Relu.div.numpy-signed-zero", [V("float16", y14)])])
    add("float16 [-0] x16", "Relu", 14, "float16", [V("float16", ["n0"] * 16)], "Relu.div.ort-signed-zero",
        peers=[P(NP, np_relu, "Relu.div.numpy-signed-zero", [V("float16", ["n0"] * 16)])])
    add("float16 -0 rank 0", "Relu", 14, "float16", [V("float16", ["n0"], [])], "Relu.div.ort-signed-zero",
        peers=[P(NP, np_relu, "agree", [V("float16", ["p0"], [])])])
    for dt in ("float", "double"):
        add(f"{dt} [14], -0 at position 0", "Relu", 14, dt, [V(dt, x14)], "Relu.div.ort-signed-zero",
            peers=[P(NP, np_relu, "agree")])

    # ------------------------------------------------------------------------------ Clip
    def clip(label, o, dt, x, lo, hi, expect, peers=None, valid=True, stated_ort=None, tags=None, attrs=None):
        """lo / hi: None absent, else a tensor (an attribute value at Clip-1/6 via attrs)."""
        inputs, names = [x], ["x0"]
        for b in (lo, hi):
            if b is None:
                names.append("")
            else:
                inputs.append(b)
                names.append(f"x{len(inputs) - 1}")
        while names[-1] == "":
            names.pop()
        add(label, "Clip", o, dt, inputs, expect, attrs, peers=peers, valid=valid, stated_ort=stated_ort, tags=tags,
            node_inputs=names if o >= 11 else None)

    def S(dt, v):
        return V(dt, [v], [])

    for o, dts in ((11, ("float", "double", "float16")), (12, ("float", "double", "float16")),
                   (13, ("float", "double", "float16"))):
        for dt in dts:
            # [Clip.div.numpy-default]: absent bounds leave the infinities in numpy / the evaluator
            ort = "ort-refuses" if (dt, o) == ("double", 11) else \
                "Clip.div.ort-default-inf" if (dt, o) == ("float16", 11) else "agree"
            clip("no bound, X = [+Inf, -Inf, 1]", o, dt, V(dt, ["inf", "ninf", 1]), None, None, ort,
                 [P(NP, np_clip, "Clip.div.numpy-default", [V(dt, ["inf", "ninf", 1])])])
            clip("min = +0 alone, X = [+Inf]", o, dt, V(dt, ["inf"]), S(dt, "p0"), None, ort,
                 [P(NP, np_clip, "Clip.div.numpy-default", [V(dt, ["inf"])])])
            clip("max = -0 alone, X = [-Inf]", o, dt, V(dt, ["ninf"]), None, S(dt, "n0"), ort,
                 [P(NP, np_clip, "Clip.div.numpy-default", [V(dt, ["ninf"])])])
    # Clip-1: the evaluator's None for an absent attribute
    clip("Clip-1 no attribute, X = [+Inf, -Inf]", 1, "float", V("float", ["inf", "ninf"]), None, None, "ort-refuses",
         [P(NP, np_clip, "Clip.div.numpy-default", [V("float", ["inf", "ninf"])])])
    clip("Clip-1 no attribute, X = [+Inf, -Inf, max, lowest]", 1, "double", V("double", ["inf", "ninf", "max", "lowest"]),
         None, None, "ort-refuses", [P(NP, np_clip, "Clip.div.numpy-default", [V("double", ["inf", "ninf", "max", "lowest"])])])
    for dt in ("float", "double", "float16"):  # Clip-6: schema defaults as numpy.float32, agreement
        clip("Clip-6 no attribute, X = [+Inf, -Inf, 1]", 6, dt, V(dt, ["inf", "ninf", 1]), None, None,
             "ort-refuses" if dt == "double" else "agree", [P(NP, np_clip, "agree")])
    xs = ["h15", "inf", "max", "m15", "ninf", "lowest", "nan1"]
    for o, dt in ((13, "float"), (12, "float"), (11, "float"), (13, "double"), (12, "double"), (13, "float16")):
        # [Clip.div.numpy-nan-bound] (ORT: [Clip.div.ort-nan-bound]): the NaN bound ignored
        clip("lo = NaN5, hi = 1", o, dt, V(dt, xs), S(dt, "nan5"), S(dt, 1), "Clip.div.ort-nan-bound",
             [P(NP, np_clip, "Clip.div.numpy-nan-bound", [V(dt, [1, 1, 1, "m15", "ninf", "lowest", "nan1"])])],
             stated_ort=[V(dt, [1, 1, 1, "m15", "ninf", "lowest", "nan1"])])
        clip("lo = -1, hi = NaN6", o, dt, V(dt, xs), S(dt, -1), S(dt, "nan6"), "Clip.div.ort-nan-bound",
             [P(NP, np_clip, "Clip.div.numpy-nan-bound", [V(dt, ["h15", "inf", "max", -1, -1, -1, "nan1"])])],
             stated_ort=[V(dt, ["h15", "inf", "max", -1, -1, -1, "nan1"])])
        clip("lo = NaN5, hi = NaN6", o, dt, V(dt, xs), S(dt, "nan5"), S(dt, "nan6"), "Clip.div.ort-nan-bound",
             [P(NP, np_clip, "Clip.div.numpy-nan-bound", [V(dt, xs)])], stated_ort=[V(dt, xs)])
    neg = ["n0", "m15", "ninf", "ndmin", "lowest"]
    for dt in ("float", "double"):
        # [Clip.div.numpy-signed-zero]: float / double, the bound on a tie
        clip("lo = -0, hi = +0, X <= -0", 13, dt, V(dt, neg), S(dt, "n0"), S(dt, "p0"), "agree",
             [P(NP, np_clip, "Clip.div.numpy-signed-zero", [V(dt, ["p0"] * 5)])])
        clip("Clip(-0, lo = +0)", 13, dt, V(dt, ["n0"]), S(dt, "p0"), None, "Clip.div.ort-signed-zero",
             [P(NP, np_clip, "agree", [V(dt, ["p0"])])])
        clip("Clip(+0, hi = -0)", 13, dt, V(dt, ["p0"]), None, S(dt, "n0"), "Clip.div.ort-signed-zero",
             [P(NP, np_clip, "agree", [V(dt, ["n0"])])])
    # float16: the element on a tie, as ORT
    clip("float16 Clip(-0, lo = +0)", 13, "float16", V("float16", ["n0"]), S("float16", "p0"), None,
         "Clip.div.ort-signed-zero", [P(NP, np_clip, "Clip.div.numpy-signed-zero", [V("float16", ["n0"])])],
         stated_ort=[V("float16", ["n0"])])
    clip("float16 Clip(+0, hi = -0)", 13, "float16", V("float16", ["p0"]), None, S("float16", "n0"),
         "Clip.div.ort-signed-zero", [P(NP, np_clip, "Clip.div.numpy-signed-zero", [V("float16", ["p0"])])],
         stated_ort=[V("float16", ["p0"])])
    xf16 = ["p0", "m15", "ninf", "ndmin", "lowest"]
    clip("float16 lo = +0, hi = -0", 13, "float16", V("float16", xf16), S("float16", "p0"), S("float16", "n0"),
         "Clip.div.ort-signed-zero", [P(NP, np_clip, "Clip.div.numpy-signed-zero", [V("float16", ["p0"] * 5)])],
         stated_ort=[V("float16", ["p0"] * 5)])
    clip("float16 lo = -0, hi = +0", 13, "float16", V("float16", neg), S("float16", "n0"), S("float16", "p0"),
         "agree", [P(NP, np_clip, "agree")])
    # [Clip.div.ort-bound-rank]: bounds of shape [1] run in ORT, refused here ([Clip.err.bound-rank])
    for o, dts in ((11, ("float", "float16")), (12, ("float", "double", "float16")), (13, ("float", "double", "float16"))):
        for dt in dts:
            clip("min = [-1], max = [1] (shape [1])", o, dt, V(dt, [-2, 0.5, 2]), V(dt, [-1]), V(dt, [1]), "ort-accepts",
                 valid=False, stated_ort=[V(dt, [-1, 0.5, 1])], tags=["Clip.div.ort-bound-rank"])
            clip("X shape [0], min = [-1], max = [1]", o, dt, V(dt, []), V(dt, [-1]), V(dt, [1]), "ort-accepts",
                 valid=False, stated_ort=[V(dt, [])], tags=["Clip.div.ort-bound-rank"])
    clip("min of shape [2]", 13, "float", V("float", [-2, 0.5, 2]), V("float", [-1, -1]), S("float", 1), "both-refuse",
         valid=False, stated_ort="min should be a scalar", tags=["Clip.div.ort-bound-rank"])
    # [Clip.div.ort-v6-refusals]: crossed or NaN attributes at Clip-6
    nan5 = float(np.array([0x7FC00005], "<u4").view("<f4")[0])
    for dt in ("float", "float16"):
        clip("Clip-6 min = 2, max = 1 (crossed)", 6, dt, V(dt, [0, 1.5, 3]), None, None, "ort-refuses",
             attrs=dict(min=2.0, max=1.0), stated_ort="min_ <= max_ was false", tags=["Clip.div.ort-v6-refusals"])
    clip("Clip-6 min = NaN 0x7fc00005", 6, "float", V("float", [0, 1.5, 3]), None, None, "ort-refuses",
         attrs=dict(min=nan5), stated_ort="min_ <= max_ was false", tags=["Clip.div.ort-v6-refusals"])
    for dt in ("float", "double", "float16"):
        clip("Clip-11 lo = 2, hi = 1 (crossed)", 13 if dt == "double" else 11, dt, V(dt, [0, 1.5, 3]), S(dt, 2), S(dt, 1),
             "agree", stated_ort=[V(dt, [1, 1, 1])], tags=["Clip.div.ort-v6-refusals"])

    # ---------------------------------------------------------------------- GlobalMaxPool
    def gmp(label, o, dt, x, expect, stated_ort=None, tags=None):
        add(label, "GlobalMaxPool", o, dt, [x], expect, stated_ort=stated_ort, tags=tags)

    # [GlobalMaxPool.div.ort-empty]
    for o in (1, 22):
        gmp("shape (1, 2, 0)", o, "float", np.zeros((1, 2, 0), "<f4"), "GlobalMaxPool.div.ort-empty",
            stated_ort="Only N can be zero")
        gmp("shape (1, 2, 3, 0)", o, "float", np.zeros((1, 2, 3, 0), "<f4"), "GlobalMaxPool.div.ort-empty",
            stated_ort="Only N can be zero")
        gmp("shape (0, 2, 3)", o, "float", np.zeros((0, 2, 3), "<f4"), "agree", tags=["GlobalMaxPool.div.ort-empty"])
    # [GlobalMaxPool.div.ort-refuses]
    x123 = V("double", [1, 2, 3], [1, 1, 3])
    for o in (1, 22):
        gmp("double", o, "double", x123, "ort-refuses", "Could not find an implementation",
            ["GlobalMaxPool.div.ort-refuses"])
    gmp("bfloat16", 22, "bfloat16", from_bits("bfloat16", [0x3F80, 0x4000], [1, 1, 2]), "ort-refuses",
        "Could not find an implementation", ["GlobalMaxPool.div.ort-refuses"])
    gmp("float16 at version 1", 1, "float16", V("float16", [1, 2], [1, 1, 2]), "ort-refuses",
        "Mismatched attribute type", ["GlobalMaxPool.div.ort-refuses"])
    gmp("four spatial axes (rank 6)", 22, "float", V("float", [1, 2], [1, 1, 1, 1, 1, 2]), "ort-refuses",
        "Unsupported pooling size", ["GlobalMaxPool.div.ort-refuses"])

    # ---------------------------------------------------------------------------- MaxPool
    def mp(label, o, dt, x, attrs, expect, n_out=2, peers=None, valid=True, stated_ort=None, tags=None):
        add(label, "MaxPool", o, dt, [x], expect, attrs, peers=peers, valid=valid, stated_ort=stated_ort, tags=tags,
            n_outputs=n_out)

    x5 = V("float", [1, 9, 2, 8, 3], [1, 1, 5])
    x12345 = V("float", [1, 2, 3, 4, 5], [1, 1, 5])
    x12 = V("float", [1, 2], [1, 1, 2])
    # [MaxPool.div.ort-accepts-refused]
    acc = ["MaxPool.div.ort-accepts-refused"]
    mp("auto_pad = \"\"", 12, "float", x5, dict(kernel_shape=[2], auto_pad=""), "ort-accepts", valid=False,
       stated_ort=[V("float", [9, 9, 8, 8], [1, 1, 4]), None], tags=acc)
    mp("VALID with pads [1, 1]", 12, "float", x5, dict(kernel_shape=[2], auto_pad="VALID", pads=[1, 1]), "ort-accepts",
       valid=False, stated_ort=[V("float", [9, 9, 8, 8], [1, 1, 4]), None], tags=acc)
    mp("SAME_UPPER with pads [0, 0]", 12, "float", x5, dict(kernel_shape=[2], auto_pad="SAME_UPPER", pads=[0, 0]),
       "ort-accepts", valid=False, stated_ort=[V("float", [9, 9, 8, 8, 3], [1, 1, 5]), None], tags=acc)
    mp("ceil_mode = 2, strides [2]", 12, "float", x12345, dict(kernel_shape=[2], strides=[2], ceil_mode=2),
       "ort-accepts", valid=False, stated_ort=[V("float", [2, 4], [1, 1, 2]), None], tags=acc)
    mp("kernel_shape [3] on X = [1, 2]", 12, "float", x12, dict(kernel_shape=[3]), "ort-accepts", valid=False,
       stated_ort=[V("float", [], [1, 1, 0]), None], tags=acc)
    mp("kernel [4], strides [2], pads [1, 0], ceil_mode 1 on [1, 2]", 12, "float", x12,
       dict(kernel_shape=[4], strides=[2], pads=[1, 0], ceil_mode=1), "ort-accepts", valid=False,
       stated_ort=[V("float", [2], [1, 1, 1]), I64([1], [1, 1, 1])], tags=acc)
    # [MaxPool.div.ort-refuses]
    ref = ["MaxPool.div.ort-refuses"]
    mp("kernel [2], dilations [3], pads [2, 2] (pad >= kernel, < effective kernel)", 12, "float", x5,
       dict(kernel_shape=[2], dilations=[3], pads=[2, 2]), "ort-refuses", stated_ort="Pad should be smaller than kernel",
       tags=ref)
    mp("C = 0: shape (1, 0, 3)", 12, "float", np.zeros((1, 0, 3), "<f4"), dict(kernel_shape=[2]), "ort-refuses",
       stated_ort="Only N can be zero", tags=ref)
    mp("N = 0: shape (0, 1, 3)", 12, "float", np.zeros((0, 1, 3), "<f4"), dict(kernel_shape=[2]), "agree", tags=ref)
    for n_out in (1, 2):
        mp("four spatial axes (rank 6)", 12, "float", V("float", [1, 2], [1, 1, 1, 1, 1, 2]),
           dict(kernel_shape=[1, 1, 1, 2]), "ort-refuses", n_out, stated_ort="Unsupported pooling size", tags=ref)
    mp("bfloat16 at version 22", 22, "bfloat16", from_bits("bfloat16", [0x3F80, 0x4000], [1, 1, 2]),
       dict(kernel_shape=[2]), "ort-refuses", 1, stated_ort="Could not find an implementation", tags=ref)

    # The SONNX draft: [MaxPool.div.wg-scope], [MaxPool.div.wg-padding], [MaxPool.div.wg-indices]
    written = dict(auto_pad="NOTSET", ceil_mode=0, dilations=[1, 1], pads=[0, 0, 0, 0], storage_order=0,
                   strides=[1, 1])
    x33 = V("float", [1, 5, 2, 7, 3, 9, 4, 8, 6], [1, 1, 3, 3])
    mp("3x3, kernel [2, 2], every attribute written", 12, "float", x33, dict(written, kernel_shape=[2, 2]), "agree",
       peers=[P(WG, draft_maxpool, "agree", [V("float", [7, 9, 8, 9], [1, 1, 2, 2]), I64([3, 5, 7, 5], [1, 1, 2, 2])])])
    scope = [("1 spatial axis", x5, dict(kernel_shape=[2], strides=[1]), "[R1]"),
             ("attributes left to their defaults", x33, dict(kernel_shape=[2, 2]), "[R2]"),
             ("auto_pad SAME_UPPER", x33, dict(written, kernel_shape=[2, 2], auto_pad="SAME_UPPER", pads=None), "[R3]"),
             ("ceil_mode 1", x33, dict(written, kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1), "[R4]"),
             ("storage_order 1", x33, dict(written, kernel_shape=[2, 2], storage_order=1), "[R5]")]
    for label, x, attrs, r in scope:
        mp(label, 12, "float", x, {k: v for k, v in attrs.items() if v is not None}, "agree",
           peers=[P(WG, draft_maxpool, "MaxPool.div.wg-scope", "refuses:" + r)])
    # a window with no element of X: the draft pads with -Inf (int8: -128), this specification refuses
    for dt in ("float", "int8"):
        low = V(dt, ["ninf"], [1, 1, 1, 1]) if dt == "float" else np.array([-128], "i1").reshape(1, 1, 1, 1)
        xx = V(dt, [1, 2], [1, 1, 1, 2]) if dt == "float" else np.array([1, 2], "i1").reshape(1, 1, 1, 2)
        mp("X [[1, 2]], kernel [1, 2], dilations [1, 3], pads [0, 1, 0, 1]", 12, dt, xx,
           dict(written, kernel_shape=[1, 2], dilations=[1, 3], pads=[0, 1, 0, 1]), "ort-accepts", valid=False,
           peers=[P(WG, draft_maxpool, "MaxPool.div.wg-padding", [low, None])])
    # the draft's float Example 4 (double, pads [1, 1, 1, 1], X[0, 0] = -Inf): its formal model's
    # Indices -4 at [0, 0, 0, 0], where its informal example and this specification give 0
    ex4 = V("double", ["ninf", 9.57875561, 4.56432533, 2.72844928, 3.54234851, 2.55354471, 2.83691720, 3.46789489,
                       5.23979851], [1, 1, 3, 3])
    mp("draft float Example 4 (double), pads [1, 1, 1, 1]", 12, "double", ex4, dict(written, kernel_shape=[2, 2],
       pads=[1, 1, 1, 1]), "agree",
       peers=[P(WG, draft_maxpool, "MaxPool.div.wg-padding",
                [None, I64([-4, 1, 1, 2, 3, 1, 1, 2, 6, 4, 8, 8, 6, 7, 8, 8], [1, 1, 4, 4])])],
       stated_ort=[None, I64([0, 1, 1, 2, 3, 1, 1, 2, 6, 4, 8, 8, 6, 7, 8, 8], [1, 1, 4, 4])])
    # Indices by numeric equality: the window [-0, +0] gives the position of -0 (0), here 1
    for dt in ("float", "double", "float16"):
        mp("window [-0, +0], kernel [1, 2]", 12, dt, V(dt, ["n0", "p0"], [1, 1, 1, 2]), dict(written, kernel_shape=[1, 2]),
           "MaxPool.div.ort-signed-zero",
           peers=[P(WG, draft_maxpool, "MaxPool.div.wg-indices", [V(dt, ["p0"], [1, 1, 1, 1]), I64([0], [1, 1, 1, 1])])])
        mp("window [+0, -0], kernel [1, 2]", 12, dt, V(dt, ["p0", "n0"], [1, 1, 1, 2]), dict(written, kernel_shape=[1, 2]),
           "agree", peers=[P(WG, draft_maxpool, "agree")])
    mp("window [1, NaN1, NaN2], kernel [1, 3]", 12, "float", V("float", [1, "nan1", "nan2"], [1, 1, 1, 3]),
       dict(written, kernel_shape=[1, 3]), "MaxPool.div.ort-nan", peers=[P(WG, draft_maxpool, "agree")])


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
        npc = classify_numpy(c, spec) if f.valid and np_y is not None and c.op not in ("Hardmax",) + M.COMPUTING \
            else None
        if f.valid and np_y is not None and c.op in M.COMPUTING:
            from classify import classify_numpy_computed
            npc = classify_numpy_computed(c)
        if f.valid and np_y is not None and c.op == "Hardmax":  # no catalogue ID: shown, not classified
            from classify import same
            npc = {"class": "agree" if same(c.dtype, np_y, spec) else "differs (no ID)", "ids": []}
        measured = cls["ids"][0] if cls["class"] == "divergence" and len(cls["ids"]) == 1 else cls["class"]
        if cls["class"] == "ort-refuses" and len(cls["ids"]) == 1:  # a refusal a clause states (Conv, Gemm, MatMul)
            measured = cls["ids"][0]
        if f.stated_ort is not None and not ort_as_stated(c, f.stated_ort, ort[c.id]):
            measured += " (ORT's result is not the clause's)"
        peers = [(pf, classify_peer(f, pf)) for pf in f.peers]
        rows.append(dict(fact=f, spec=spec, ort=ort[c.id], ref=ref[c.id], numpy=np_y, cls=cls, numpy_cls=npc,
                         measured=measured, peers=peers))
    return label, rows


def ort_as_stated(c: Case, stated, o: Outcome) -> bool:
    """ORT's outputs (or its error) are the ones the clause states."""
    if isinstance(stated, str):
        return not o.ok and stated in o.error
    return o.ok and stated_matches(c, stated, [o.y] + list(o.extra or []), "")


def mismatches(rows) -> List[str]:
    """Every fact (ORT class) or peer fact whose measured class is not the expected one."""
    bad = []
    for r in rows:
        f = r["fact"]
        if r["measured"] != f.expect:
            bad.append(f"{f.case.id} {f.label}: README says {f.expect}, measured {r['measured']} ({r['cls']['detail']})")
        if f.numpy_expect is not None:
            npc = r["numpy_cls"] or {"class": "n/a", "ids": []}
            got = npc["ids"][0] if npc["class"] == "divergence" and len(npc["ids"]) == 1 else npc["class"]
            if got != f.numpy_expect:
                bad.append(f"{f.case.id} {f.label}: README says numpy {f.numpy_expect}, measured {got}")
        for pf, res in r["peers"]:
            if res["cls"] != pf.expect:
                got = res["refusal"] or ("no output" if res["outs"] is None else
                                         "; ".join(short(d, np.asarray(o)) for d, o in zip(output_dtypes(f.case), res["outs"])))
                bad.append(f"{f.case.id} {f.label}: {pf.peer} expected {pf.expect}, measured {res['cls']} ({got})")
    return bad


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


def np_div_int(c: Case):
    """numpy's integer division as numpy-based evaluators write it: `a // b` (np.floor_divide; also
    onnx's reference evaluator op_div.py in its later releases, read) ([Div.div.numpy-floor]); 5 // 0
    gives 0 with a RuntimeWarning ([Div.div.numpy-zero])."""
    with np.errstate(all="ignore"):
        return [c.inputs[0] // c.inputs[1]]


def arith_facts(add) -> None:
    """Facts of Add, Sub, Mul, Div (spec/ops/{add,sub,mul,div}.md, issue 31): ORT's integer wrap and
    truncation agree; numpy's floor division and its x // 0 are the divergence clauses; an integer
    division by zero is refused by both ORT and the spec. (min / -1 in int32 and int64 crashes ORT's
    process, SIGFPE: measured by hand, /tmp/am/run1.mjs, not a fact the runner can survive.)"""
    NP = "numpy 1.24"
    P = PeerFact
    i32 = lambda v, shape=None: np.array(v, dtype=np.int32).reshape(shape if shape is not None else [len(v)])
    add("Div int32 [7, -7, 7, -7] / [2, 2, -2, -2] (truncation)", "Div", 14, "int32",
        [i32([7, -7, 7, -7]), i32([2, 2, -2, -2])], "agree",
        peers=[P(NP, np_div_int, "Div.div.numpy-floor", [i32([3, -4, -4, 3])])], stated_ort=[i32([3, -3, -3, 3])])
    add("Div int8 [-128, -7] / [-1, 2] (min / -1 wraps)", "Div", 14, "int8",
        [np.array([-128, -7], np.int8), np.array([-1, 2], np.int8)], "agree",
        peers=[P(NP, np_div_int, "Div.div.numpy-floor", [np.array([-128, -4], np.int8)])])
    add("Div int32 [5] / [0] (division by zero)", "Div", 14, "int32", [i32([5]), i32([0])], "both-refuse", valid=False,
        tags=["Div.div.numpy-zero"], stated_ort="Integer division by zero")
    add("Div uint8 [5] / [0] (division by zero)", "Div", 14, "uint8", [np.array([5], np.uint8), np.array([0], np.uint8)],
        "both-refuse", valid=False, tags=["Div.div.numpy-zero"], stated_ort="Integer division by zero")
    add("Add int8 [127, -128] + [1, -1] (wrap)", "Add", 14, "int8",
        [np.array([127, -128], np.int8), np.array([1, -1], np.int8)], "agree")
    add("Sub uint8 [0] - [1] (wrap)", "Sub", 14, "uint8", [np.array([0], np.uint8), np.array([1], np.uint8)], "agree")
    add("Mul int32 [2^31 - 1] * [2] (wrap)", "Mul", 14, "int32", [i32([2 ** 31 - 1]), i32([2])], "agree")
    add("Div float [5, 1] / [3, -0] (5/3 a reciprocal misses; 1 / -0)", "Div", 14, "float",
        [np.array([5, 1], np.float32), np.array([3, -0.0], np.float32)], "agree")
    add("Add float [NaN 0x7fc00001, +Inf] + [1, -Inf] (NaN payloads free)", "Add", 14, "float",
        [from_bits("float", [0x7FC00001, 0x7F800000]),
         from_bits("float", [0x3F800000, 0xFF800000])], "agree")
    add("Add float16 [65504] + [16] (overflow at Ω)", "Add", 13, "float16",
        [from_bits("float16", [0x7BFF]), from_bits("float16", [0x4C00])], "agree")
    add("Add-6 float (2, 2) + [10, 20], broadcast 1, axis 0 (no ORT kernel before opset 7)", "Add", 6, "float",
        [np.array([[1, 2], [3, 4]], np.float32), np.array([10, 20], np.float32)], "ort-refuses",
        attrs={"broadcast": 1, "axis": 0})


def movement_facts(add) -> None:
    """Facts of the data-movement operators where a version's range and onnxruntime's kernel differ
    (spec/ops/gather.md, slice.md, squeeze.md, flatten.md, issue 33): onnxruntime's kernels are shared
    by every version, so it accepts at version 1 what only later versions define; a Squeeze-13 axes
    input given empty is read by onnxruntime as absent."""
    f = lambda v, shape=None: np.array(v, np.float32).reshape(shape if shape is not None else [len(v)])  # noqa: E731
    I = lambda name, v: (name, np.array(v, np.int64))  # noqa: E731,E741
    x3, x23 = f([10, 20, 30]), f([1, 2, 3, 4, 5, 6], [2, 3])
    # [Gather.v1] [Gather.div.ort-v1-negative]
    add("Gather-1 [10, 20, 30] at index -1 (v1: indices in [0, s-1])", "Gather", 1, "float", [x3], "ort-accepts",
        valid=False, params=[I("indices", [-1])], stated_ort=[f([30])], tags=["Gather.div.ort-v1-negative"])
    add("Gather-11 [10, 20, 30] at index -1", "Gather", 11, "float", [x3], "agree", params=[I("indices", [-1])],
        stated_ort=[f([30])], peers=[PeerFact("numpy 1.24", lambda c: [np.take(c.inputs[0], [-1])], "agree")])
    # [Slice.v1] [Slice.v10] [Slice.div.ort-v1-negative-axes]
    add("Slice-1 (2, 3) starts 1 ends 3 axes -1 (v1: axes in [0, r-1])", "Slice", 1, "float", [x23], "ort-accepts",
        attrs={"starts": [1], "ends": [3], "axes": [-1]}, valid=False, stated_ort=[f([2, 3, 5, 6], [2, 2])],
        tags=["Slice.div.ort-v1-negative-axes"])
    add("Slice-10 (2, 3) starts 1 ends 3 axes -1 (v10: axes in [0, r-1])", "Slice", 10, "float", [x23], "ort-accepts",
        valid=False, params=[I("starts", [1]), I("ends", [3]), I("axes", [-1])], stated_ort=[f([2, 3, 5, 6], [2, 2])],
        tags=["Slice.div.ort-v1-negative-axes"])
    add("Slice-11 (2, 3) starts 1 ends 3 axes -1", "Slice", 11, "float", [x23], "agree",
        params=[I("starts", [1]), I("ends", [3]), I("axes", [-1])], stated_ort=[f([2, 3, 5, 6], [2, 2])])
    # [Squeeze.all] [Squeeze.div.ort-empty-axes]
    ones = f([1, 2], [1, 2, 1])
    for how in ("initializer", "feed"):
        add(f"Squeeze-13 (1, 2, 1) with an empty axes input ({how})", "Squeeze", 13, "float", [ones],
            "Squeeze.div.ort-empty-axes", axes=[], axes_as=how, stated_ort=[f([1, 2])],
            peers=[PeerFact("numpy 1.24", lambda c: [np.squeeze(c.inputs[0], axis=())], "agree")])
    # [Flatten.shape] [Flatten.err.axis]: rank 0 with axis 0 is (1, 1) in both; the default axis 1 is out of range
    add("Flatten-13 rank 0 [7], axis 0", "Flatten", 13, "float", [np.array(7, np.float32)], "agree", attrs={"axis": 0},
        stated_ort=[f([7], [1, 1])])
    add("Flatten-13 rank 0 [7], axis absent (1 > r)", "Flatten", 13, "float", [np.array(7, np.float32)], "both-refuse",
        valid=False, stated_ort="Invalid value(1) for attribute 'axis'")


def elementary_facts(add) -> None:
    """Facts of Exp, Log, Tanh, Sigmoid (spec/ops/exp.md, log.md, tanh.md, sigmoid.md, "Divergences"; issue 32):
    onnxruntime's float kernels against the accuracy model (lib/model.py elem_judge, the default K of [Elem.K]);
    the arguments are the worst ones of /work/scratch/ort-elem (RESULTS.md, investigate.txt) and of this folder's
    campaign, ORT's bits typed in as the clauses state them. float16 is computed by the float kernel between
    inserted Casts (Kernel table) and conforms; version 1 has no kernel."""
    fb = lambda bits: from_bits("float", bits)  # noqa: E731
    f32 = lambda v: np.array(v, np.float32)  # noqa: E731
    f16 = lambda v: np.array(v, np.float16)  # noqa: E731
    for o in (6, 13):
        # [Exp.div.ort]: no divergence: within 0.86 ulp, subnormal results and the overflow edge included
        add("Exp float: subnormal results, 0, e, the overflow edge, +Inf, specials", "Exp", o, "float",
            [fb([0xC2D00000, 0xC2CFF1AA, 0xC2C80000, 0xC2AECCCD, 0, 0x3F800000, 0x42B170A4, 0x42B20000, 0x7FC00000,
                 0xFF800000, 0x7F800000])], "agree", tags=["Exp.div.ort", "Exp.overflow", "Exp.edge"],
            stated_ort=[fb([0, 1, 0x1B, 0x00782140, 0x3F800000, 0x402DF854, 0x7F7F4648, 0x7F800000, 0x7FC00000, 0,
                            0x7F800000])])
    add("Exp float16 (computed in float): subnormal results, the overflow edge", "Exp", 13, "float16",
        [f16([-18.0, -15.0, 0.0, 1.0, 11.0859375, 11.09375])], "agree", tags=["Exp.div.ort"])
    add("Exp-1 float (no kernel)", "Exp", 1, "float", [f32([0.0, 1.0])], "ort-refuses")
    # [Log.div.ort]: 3.14 ulps at 0x1.07e0e2p+0 (K_log = 1: B = 2 u |ln x|, 1.94 ulps there), 2.96 at 0x1.43666ap+0.
    # Only in ORT's blocks of four elements: the n mod 4 last elements of a tensor take another path, here correctly
    # rounded (x = 0x1.07e0e2p+0 alone gives 0x3cf84f0c = fl(ln x); four or five copies give 0x3cf84f09, the fifth 0x3cf84f0c)
    add("Log float x = 0x1.07e0e2p+0 x4 (3.14 ulps)", "Log", 13, "float", [fb([0x3F83F071] * 4)], "Log.div.ort",
        stated_ort=[fb([0x3CF84F09] * 4)])
    add("Log float x = 0x1.07e0e2p+0 x5 (the fifth, in the tail, correctly rounded)", "Log", 13, "float",
        [fb([0x3F83F071] * 5)], "Log.div.ort", stated_ort=[fb([0x3CF84F09] * 4 + [0x3CF84F0C])])
    add("Log float x = 0x1.07e0e2p+0 alone (the tail path: correctly rounded)", "Log", 13, "float", [fb([0x3F83F071])],
        "agree", stated_ort=[fb([0x3CF84F0C])], tags=["Log.div.ort"])
    add("Log float x = 0x1.43666ap+0 x4 (2.96 ulps)", "Log", 6, "float", [fb([0x3FA1B335] * 4)], "Log.div.ort",
        stated_ort=[fb([0x3E6F525D] * 4)])
    add("Log float: 1, 2, eta, lambda, FLT_MAX, +-0, -1, +Inf, NaN", "Log", 13, "float",
        [fb([0x3F800000, 0x40000000, 0x00000001, 0x00800000, 0x7F7FFFFF, 0, 0x80000000, 0xBF800000, 0x7F800000,
             0x7FC00000])], "agree", tags=["Log.edge"])
    add("Log float16 next to 1 (computed in float)", "Log", 13, "float16", [f16([1.0009765625, 0.99951171875, 1.0625])],
        "agree", tags=["Log.div.ort"])
    # [Tanh.div.ort]: 5.46 ulps and -1.0000002 at -0x1.0f37ap+3 (K_tanh = 2: B = 4 u |tanh x| + 2 eta)
    add("Tanh float x = -0x1.0f37ap+3 (-1.0000002, 5.46 ulps)", "Tanh", 13, "float", [fb([0xC1079BD0])],
        "Tanh.div.ort", stated_ort=[fb([0xBF800002])])
    add("Tanh float x = 8.443472 (1.0000001, within B)", "Tanh", 13, "float", [f32([8.443472])], "agree",
        stated_ort=[fb([0x3F800001])], tags=["Tanh.div.ort"])
    add("Tanh float subnormal x = 106 eta (204 eta, 98 eta off)", "Tanh", 13, "float", [fb([0x0000006A])],
        "Tanh.div.ort", stated_ort=[fb([0x000000CC])])
    add("Tanh float subnormal x = 29 eta (+0)", "Tanh", 6, "float", [fb([0x0000001D])], "Tanh.div.ort",
        stated_ort=[fb([0])])
    # measured by this folder's campaign and a sweep (lib/model.py ORT_TANH_TINY): the lowest normal binades too
    add("Tanh float x = 2^-126 (lambda + 28 eta)", "Tanh", 13, "float", [fb([0x00800000])], "Tanh.div.ort",
        stated_ort=[fb([0x0080001C])])
    add("Tanh float: 0.5, -1, 3, 20, +-Inf, +-0, NaN", "Tanh", 13, "float",
        [f32([0.5, -1.0, 3.0, 20.0, np.inf, -np.inf, 0.0, -0.0, np.nan])], "agree", tags=["Tanh.edge"])
    add("Tanh float16 (computed in float): 4.5, -0.001, a subnormal", "Tanh", 13, "float16",
        [f16([4.5, -0.001, 6e-08])], "agree", tags=["Tanh.div.ort"])
    # [Sigmoid.div.ort]: 0 below -18, multiples of 2^-25 between -18 and -16 (decreasing as x grows)
    add("Sigmoid float x = -80, -17, -16 (0, 3 * 2^-25, 2^-24)", "Sigmoid", 13, "float", [f32([-80.0, -17.0, -16.0])],
        "Sigmoid.div.ort", stated_ort=[fb([0, 0x33C00000, 0x33800000])])
    add("Sigmoid float x = -10 (1.4e-7 absolutely)", "Sigmoid", 6, "float", [f32([-10.0])], "Sigmoid.div.ort",
        stated_ort=[fb([0x383E6000])])
    add("Sigmoid float x = 17.868923 (1.0000001, within B) and 0x1.81511ep+3 (2.93 ulps, within B)", "Sigmoid", 13,
        "float", [fb([0x418EF38E, 0x4140A88F])], "agree", stated_ort=[fb([0x3F800001, 0x3F7FFFA0])],
        tags=["Sigmoid.div.ort"])
    add("Sigmoid float: 0, +-1e-4, +-Inf, NaN", "Sigmoid", 13, "float", [f32([0.0, 1e-4, -1e-4, np.inf, -np.inf, np.nan])],
        "agree", tags=["Sigmoid.edge"])
    add("Sigmoid float16 (computed in float): -15, -12, -10", "Sigmoid", 13, "float16", [f16([-15.0, -12.0, -10.0])],
        "agree", tags=["Sigmoid.div.ort"])
    add("Sigmoid-1 float (no kernel)", "Sigmoid", 1, "float", [f32([0.0])], "ort-refuses")
