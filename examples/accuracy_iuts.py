#!/usr/bin/env python3
"""Stand-in implementations of Conv, Gemm and MatMul that sum in different ways, to test the accuracy
model ([Acc.prop.accepted], spec/common/accuracy.md) from outside the reference.

Each ENGINE is an independent numpy implementation of the three operators (and of Relu, for two-node
models): the terms of every output element are gathered from ONNX's definitions (Conv's windows with
pads, strides, dilations and groups, its bias; Gemm's transposes, alpha, beta and broadcast C; MatMul's
batch broadcast and rank-1 promotion), and then summed the engine's way. Every arithmetic operation
is IEEE 754 binary arithmetic, round to nearest even, with gradual underflow: numpy's float16,
float32 and float64 operations, and a fused multiply-add emulated exactly (the product of two values
of at most 24 bits is exact in float64; the float64 sum p + c is made round-to-odd with its TwoSum
error, then rounded once to the target format, which is exact rounding since 53 >= 24 + 2). A NaN
factor gives NaN, Inf - Inf gives NaN, an overflow gives an infinity, as IEEE 754 says. A padded
position of Conv is no term ([Conv.window.padding]); beta = 0 reads no C ([Gemm.scalars]).

CORRECT engines: evaluations the hypotheses H of [Acc.hyp] allow (or Kahan's compensated sum,
which [Acc.hyp] accepts within the bound); every one must conform.

  forward             products rounded to T, summed left to right in T, the bias (Conv) or beta*C
                      (Gemm) last; Gemm's alpha applied to the sum
  forward-bias-first  as forward, the bias / beta*C first
  reverse             right to left in T (the bias / beta*C first); alpha in each term, (alpha*a)*b
  pairwise            recursive halving in T; alpha in each term, (a*b)*alpha
  blocked4            blocks of 4 consecutive terms summed left to right, the block sums then summed
                      left to right, in T; the bias first; alpha applied to the sum
  lanes8              8 vector lanes (term k in lane k mod 8), each summed left to right, the lanes
                      combined pairwise, in T; alpha in each term, (alpha*a)*b
  random-tree         a random binary tree over the terms (seeded by the case and the number of terms)
  kahan               Kahan's compensated summation in T of the products rounded to T, the bias
                      first (the compensation is dropped once the running sum is not finite, so
                      that infinities and NaNs propagate as in IEEE 754)
  fma                 left to right in T, each product fused into its addition: fl(a*b + acc)
  fma-pairwise        recursive halving in T, every addition with a product leaf fused
  fma-random-tree     a random tree in T, additions with a product leaf fused
  wide                accumulation in float64 (products exact there), rounded once to T at the end
  wide-pairwise       recursive halving in float64, rounded once to T
  acc-f32             accumulation in float32, rounded once to T: for a float16 model a wider format
                      (p = 24 >= 2 * 11); for a float32 model the same as forward

FAULTY engines: each one fault that the accuracy model must catch where it is large.

  acc-f16             accumulation in float16 (products rounded to float16, sums in float16, the
                      result widened to T): narrower than T for a float32 model (precision 2^-11
                      instead of 2^-24, range 65504 instead of 3.4e38); the same as forward for a
                      float16 model (and then correct)
  tf32                the factors of the products (Conv's X and W, Gemm's and MatMul's A and B)
                      rounded to TF32 (10-bit fraction, round to nearest even) before the products,
                      as tensor cores do; products and sums in float32
  conv-drop-tap       Conv leaves out the last kernel tap (q = (k1-1, ..., kl-1)) of every channel
  conv-no-bias        Conv leaves out its bias B
  gemm-no-transb      Gemm ignores transB (reads B as B' when transB = 1; B square)
  matmul-drop-k       MatMul leaves out the last term (k = K - 1)
  kahan-naive         Kahan's compensated summation as usually written, c = (t - s) - y with no guard:
                      once the running sum is infinite, Inf - Inf in the compensation makes a NaN, so
                      an element with an infinite term (of one sign) comes out NaN, which
                      [Acc.nonfinite] 3 does not allow (IEEE 754 gives that infinity in every order)

Usage: /usr/bin/python3 examples/accuracy_iuts.py GOLDEN_DIR IUT_ROOT ENGINE... [--mark-all]
       /usr/bin/python3 examples/accuracy_iuts.py --list
       /usr/bin/python3 examples/accuracy_iuts.py --selftest
For each ENGINE, writes IUT_ROOT/ENGINE/test_data_set_K/output_J.pb for every GOLDEN_DIR/test_data_set_K
(its inputs read from inputs.npz), the layout `sonnx-ref check MODEL GOLDEN_DIR IUT_ROOT/ENGINE` reads.
With --mark-all, every value the graph computes is also saved by name in
IUT_ROOT/ENGINE/test_data_set_K/values.npz, so that `check --nodes` judges each node on its own.
--selftest checks the exact rounding helpers (product, sum, fused multiply-add, TF32) against
rational arithmetic on random and special values.
"""
import glob
import os
import random
import sys
from fractions import Fraction

import numpy as np
import onnx
from onnx import numpy_helper

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)

# name: (tree, accumulation, fma, bias position, alpha placement, fault)
#   accumulation 'T' is the model's type; alpha 'sum': alpha * (sum of a*b); 'left': (alpha*a)*b;
#   'right': (a*b)*alpha in each term.
ENGINES = {
    "forward":            dict(tree="forward"),
    "forward-bias-first": dict(tree="forward", bias="first"),
    "reverse":            dict(tree="reverse", alpha="left"),
    "pairwise":           dict(tree="pairwise", alpha="right"),
    "blocked4":           dict(tree="blocked", bias="first"),
    "lanes8":             dict(tree="lanes", alpha="left"),
    "random-tree":        dict(tree="random", alpha="right"),
    "kahan":              dict(tree="kahan", bias="first"),
    "fma":                dict(tree="forward", fma=True, alpha="left"),
    "fma-pairwise":       dict(tree="pairwise", fma=True, bias="first", alpha="right"),
    "fma-random-tree":    dict(tree="random", fma=True),
    "wide":               dict(tree="forward", acc=F64, alpha="left"),
    "wide-pairwise":      dict(tree="pairwise", acc=F64, bias="first"),
    "acc-f32":            dict(tree="forward", acc=F32, alpha="right"),
    # faulty
    "acc-f16":            dict(tree="forward", acc=F16),
    "tf32":               dict(tree="forward", fault="tf32"),
    "conv-drop-tap":      dict(tree="forward", fault="conv-drop-tap"),
    "conv-no-bias":       dict(tree="forward", fault="conv-no-bias"),
    "gemm-no-transb":     dict(tree="forward", fault="gemm-no-transb"),
    "matmul-drop-k":      dict(tree="forward", fault="matmul-drop-k"),
    "kahan-naive":        dict(tree="kahan", bias="first", fault="kahan-naive"),
}
CORRECT = [e for e, s in ENGINES.items() if "fault" not in s and e != "acc-f16"]
FAULTY = [e for e in ENGINES if e not in CORRECT]

# ---- IEEE arithmetic, each operation rounded once ---------------------------------------------------


def rnd(x, fmt):
    """x (float64, or values of a narrower format) rounded once to fmt (numpy's casts round to
    nearest even; float64 -> float16 is converted directly, not through float32)."""
    return np.asarray(x).astype(fmt)


def mul(x, y, fmt):
    """fl_fmt(x * y). For fmt narrower than float64, x and y hold at most 24 significant bits, so the
    float64 product is exact and one cast rounds it; in float64 it is one float64 multiplication."""
    return rnd(np.asarray(x, F64) * np.asarray(y, F64), fmt)


def add(x, y, fmt):
    """fl_fmt(x + y) in fmt's own arithmetic (numpy's float16 addition goes through float32, which is
    exact rounding since 24 >= 2 * 11 + 2)."""
    return np.asarray(x).astype(fmt) + np.asarray(y).astype(fmt)


def round_to_odd_sum(p, c):
    """The float64 round-to-odd of the exact p + c (p, c float64; TwoSum's error tells whether the
    rounded sum is exact): rounding it once more to a format of at most 51 bits is exact rounding."""
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    bits = s.view(np.uint64)
    fix = np.isfinite(s) & np.isfinite(err) & (err != 0) & ((bits & np.uint64(1)) == 0)
    toward = np.where(err > 0, np.inf, -np.inf)
    return np.where(fix, np.nextafter(s, toward), s)


def fma(x, y, z, fmt):
    """fl_fmt(x * y + z), one rounding (fmt float16 or float32, x, y, z of at most 24 bits)."""
    assert fmt != F64, "fused multiply-add is emulated for float16 and float32 only"
    p = np.asarray(x, F64) * np.asarray(y, F64)  # exact
    return rnd(round_to_odd_sum(p, np.asarray(z, F64)), fmt)


def tf32(x):
    """float32 values rounded to a 10-bit fraction, to nearest even (NaN kept as it is, overflow to Inf)."""
    x = np.asarray(x, F32)
    b = x.view(np.uint32).astype(np.uint64)
    r = ((b + 0xFFF + ((b >> 13) & 1)) & ~np.uint64(0x1FFF)).astype(np.uint32).view(F32)
    return np.where(np.isnan(x), x, r).astype(F32)


# ---- summation trees with absent terms --------------------------------------------------------------
# A leaf is (x, y, mask): the product x*y (y None for a one-factor term) for the elements where mask
# holds, no term elsewhere. A tree is a leaf index or a pair (left, right); an absent term simply
# drops out of the tree, which stays a binary summation tree of the present terms.


def tree_of(kind, n, rng=None):
    idx = list(range(n))
    if n == 0:
        return None
    if kind == "forward":
        t = idx[0]
        for k in idx[1:]:
            t = (t, k)
        return t
    if kind == "reverse":
        t = idx[-1]
        for k in reversed(idx[:-1]):
            t = (k, t)
        return t
    if kind == "pairwise":
        def half(lo, hi):
            return lo if hi - lo == 1 else (half(lo, (lo + hi) // 2), half((lo + hi) // 2, hi))
        return half(0, n)
    if kind == "blocked":
        blocks = [tree_of("forward", min(4, n - b)) for b in range(0, n, 4)]
        blocks = [shift(t, b) for t, b in zip(blocks, range(0, n, 4))]
        t = blocks[0]
        for b in blocks[1:]:
            t = (t, b)
        return t
    if kind == "lanes":
        lanes = []
        for j in range(min(8, n)):
            members = idx[j::8]
            t = members[0]
            for k in members[1:]:
                t = (t, k)
            lanes.append(t)
        while len(lanes) > 1:
            lanes = [(lanes[i], lanes[i + 1]) if i + 1 < len(lanes) else lanes[i] for i in range(0, len(lanes), 2)]
        return lanes[0]
    if kind == "random":
        pool = list(idx)
        while len(pool) > 1:
            i, j = sorted(rng.sample(range(len(pool)), 2))
            b = pool.pop(j)
            a = pool.pop(i)
            pool.append((a, b) if rng.random() < 0.5 else (b, a))
        return pool[0]
    raise ValueError(kind)


def shift(t, b):
    return t + b if isinstance(t, int) else (shift(t[0], b), shift(t[1], b))


class Summer:
    def __init__(self, leaves, acc, use_fma):
        self.leaves, self.acc, self.fma = leaves, acc, use_fma

    def leaf_value(self, k):
        x, y, m = self.leaves[k]
        return (rnd(x, self.acc) if y is None else mul(x, y, self.acc)), m

    def eval(self, t):
        if isinstance(t, int):
            return self.leaf_value(t)
        left, right = t
        fused = None
        if self.fma:  # fuse a product leaf into the addition (the right one when both are)
            for leaf, other in ((right, left), (left, right)):
                if isinstance(leaf, int) and self.leaves[leaf][1] is not None:
                    fused = leaf, other
                    break
        if fused is not None:
            k, other = fused
            x, y, ml = self.leaves[k]
            vo, mo = self.eval(other)
            both = fma(x, y, vo, self.acc)
            alone = mul(x, y, self.acc)
            return np.where(ml & mo, both, np.where(ml, alone, vo)), ml | mo
        vl, ml = self.eval(left)
        vr, mr = self.eval(right)
        return np.where(ml & mr, add(vl, vr, self.acc), np.where(ml, vl, vr)), ml | mr

    def kahan(self, order, guard=True):
        E = len(self.leaves[0][2])
        s = np.zeros(E, self.acc)
        c = np.zeros(E, self.acc)
        any_ = np.zeros(E, bool)
        for k in order:
            p, m = self.leaf_value(k)
            y = add(p, -c, self.acc)
            t = add(s, y, self.acc)
            cn = add(add(t, -s, self.acc), -y, self.acc)
            if guard:  # no compensation once the sum is not finite
                cn = np.where(np.isfinite(t), cn, 0).astype(self.acc)
            s, c = np.where(m, t, s), np.where(m, cn, c)
            any_ |= m
        return s, any_

    def total(self, kind, rng, guard=True):
        n = len(self.leaves)
        if n == 0:
            return None
        if kind == "kahan":
            return self.kahan(range(n), guard)
        return self.eval(tree_of(kind, n, rng))


def sum_terms(products, extra, spec, T, rng, alpha=None):
    """The sum of the product leaves and of the extra leaf (bias or beta*C, or None), the engine's way,
    rounded to T. alpha (Gemm, not +-1) is placed as the engine says."""
    acc = spec.get("acc", T)
    if acc == "T":
        acc = T
    if np.dtype(acc).itemsize > T.itemsize and spec.get("fma"):
        raise ValueError("fused engines accumulate in T")
    place = spec.get("alpha", "sum")
    E = len(products[0][2]) if products else len(extra[2])
    if alpha is not None and place != "sum":
        if place == "left":  # (alpha*a)*b
            products = [(mul(np.full(E, alpha, F32), x, acc), y, m) for x, y, m in products]
        else:  # (a*b)*alpha
            products = [(mul(x, y, acc), np.full(E, alpha, F32), m) for x, y, m in products]
        alpha = None
    with np.errstate(all="ignore"):
        if alpha is not None:  # alpha * (sum of products), then the extra term
            s = Summer(products, acc, spec.get("fma", False)).total(spec["tree"], rng, spec.get("fault") != "kahan-naive")
            if s is None:
                v, m = np.zeros(E, acc), np.zeros(E, bool)
            else:
                v, m = s
                v = mul(v, np.full(E, alpha, F32), acc)
            if extra is not None:
                leaves = [(v, None, m), extra] if spec.get("bias", "last") == "last" else [extra, (v, None, m)]
                v, m = Summer(leaves, acc, spec.get("fma", False)).total("forward", rng)
        else:
            leaves = list(products)
            if extra is not None:
                leaves = leaves + [extra] if spec.get("bias", "last") == "last" else [extra] + leaves
            s = Summer(leaves, acc, spec.get("fma", False)).total(spec["tree"], rng, spec.get("fault") != "kahan-naive")
            v, m = s if s is not None else (np.zeros(E, acc), np.zeros(E, bool))
        v = np.where(m, v, np.zeros((), acc))  # no term: the empty sum, +0
        return rnd(v, T)


# ---- the operators ----------------------------------------------------------------------------------


def attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def conv(X, W, B, node, spec, rng):
    fault = spec.get("fault")
    if fault == "tf32":
        X, W = tf32(X), tf32(W)
    N, C, *D = X.shape
    M, Cg, *K = W.shape
    l = len(D)
    G = attr(node, "group", 1)
    strides = list(attr(node, "strides", [1] * l))
    dil = list(attr(node, "dilations", [1] * l))
    pads = list(attr(node, "pads", [0] * (2 * l)))
    if attr(node, "auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET", b"VALID", "VALID"):
        raise SystemExit("accuracy_iuts.py: auto_pad SAME_* is not in this IUT")
    assert C == Cg * G and M % G == 0
    Mg = M // G
    O = [(D[d] + pads[d] + pads[l + d] - ((K[d] - 1) * dil[d] + 1)) // strides[d] + 1 for d in range(l)]
    out = np.indices([N, M] + O).reshape(2 + l, -1)  # every output index, row-major
    n, m, o = out[0], out[1], out[2:]
    offs = np.indices([Cg] + K).reshape(1 + l, -1)  # c' ascending, then q row-major
    cp, q = offs[0], offs[1:]
    valid = np.ones((n.size, cp.size), bool)
    xi = (n * C)[:, None] + (m // Mg * Cg)[:, None] + cp[None, :]
    wi = (m * Cg)[:, None] + cp[None, :]
    for d in range(l):
        pos = o[d][:, None] * strides[d] - pads[d] + q[d][None, :] * dil[d]
        valid &= (pos >= 0) & (pos < D[d])
        xi = xi * D[d] + np.clip(pos, 0, D[d] - 1)
        wi = wi * K[d] + q[d][None, :]
    if fault == "conv-drop-tap":
        valid &= ~np.all([q[d] == K[d] - 1 for d in range(l)], axis=0)[None, :]
    a, b = X.ravel()[xi], W.ravel()[wi]
    products = [(a[:, k], b[:, k], valid[:, k]) for k in range(cp.size)]
    extra = None
    if B is not None and fault != "conv-no-bias":
        extra = (B[m], None, np.ones(n.size, bool))
    return sum_terms(products, extra, spec, X.dtype, rng).reshape([N, M] + O)


def gemm(A, B, C, node, spec, rng):
    fault = spec.get("fault")
    if fault == "tf32":
        A, B = tf32(A), tf32(B)
    alpha, beta = np.float32(attr(node, "alpha", 1.0)), np.float32(attr(node, "beta", 1.0))
    Ap = A.T if attr(node, "transA", 0) else A
    Bp = B.T if attr(node, "transB", 0) and fault != "gemm-no-transb" else B
    Mr, K = Ap.shape
    Nc = Bp.shape[1]
    i, j = np.indices([Mr, Nc]).reshape(2, -1)
    a, b = Ap[i, :], Bp[:, j].T  # [E, K]
    if alpha == -1:
        a = -a  # exact
    E = i.size
    products = [(a[:, k], b[:, k], np.ones(E, bool)) for k in range(K)]
    extra = None
    if C is not None and beta != 0:
        c = np.broadcast_to(C, (Mr, Nc)).ravel()
        if beta in (1, -1):
            extra = (c * beta, None, np.ones(E, bool))  # exact
        else:
            extra = (np.full(E, beta, F32), c, np.ones(E, bool))
    return sum_terms(products, extra, spec, A.dtype, rng, None if alpha in (1, -1) else alpha).reshape(Mr, Nc)


def matmul(A, B, spec, rng):
    fault = spec.get("fault")
    if fault == "tf32":
        A, B = tf32(A), tf32(B)
    A2 = A[None, :] if A.ndim == 1 else A
    B2 = B[:, None] if B.ndim == 1 else B
    Mr, K = A2.shape[-2:]
    Nc = B2.shape[-1]
    batch = np.broadcast_shapes(A2.shape[:-2], B2.shape[:-2])
    Ab = np.broadcast_to(A2[..., :, None, :], batch + (Mr, Nc, K)).reshape(-1, K)
    Bb = np.broadcast_to(np.swapaxes(B2, -1, -2)[..., None, :, :], batch + (Mr, Nc, K)).reshape(-1, K)
    E = Ab.shape[0]
    keep = K - 1 if fault == "matmul-drop-k" else K
    products = [(Ab[:, k], Bb[:, k], np.ones(E, bool)) for k in range(keep)]
    if not products:
        return np.zeros(batch + (Mr, Nc), A.dtype)
    y = sum_terms(products, None, spec, A.dtype, rng).reshape(batch + (Mr, Nc))
    if A.ndim == 1:
        y = y[..., 0, :]
    if B.ndim == 1:
        y = y[..., 0]
    return y


def relu(x):
    # [Relu.float.formula] [Relu.float.nan] [Relu.float.zero]: the NaN as it is, +0 for +-0 and below
    return np.where(np.isnan(x), x, np.where(x > 0, x, np.zeros((), x.dtype)))


def run(model, feeds, engine, case_name):
    spec = ENGINES[engine]
    values = dict(feeds)
    for t in model.graph.initializer:
        values.setdefault(t.name, numpy_helper.to_array(t))
    for node in model.graph.node:
        ins = [values[n] if n else None for n in node.input] + [None] * 3
        rng = random.Random(f"{engine}/{case_name}/{node.name}")
        if node.op_type == "Conv":
            out = conv(ins[0], ins[1], ins[2], node, spec, rng)
        elif node.op_type == "Gemm":
            out = gemm(ins[0], ins[1], ins[2], node, spec, rng)
        elif node.op_type == "MatMul":
            out = matmul(ins[0], ins[1], spec, rng)
        elif node.op_type == "Relu":
            out = relu(ins[0])
        else:
            raise SystemExit(f"accuracy_iuts.py: operator {node.op_type} is not in this IUT")
        values[node.output[0]] = np.asarray(out)
    return values


def run_folder(golden, iut_root, engines, mark_all):
    model = onnx.load(os.path.join(golden, "model.onnx"))
    cases = sorted(glob.glob(os.path.join(golden, "test_data_set_*")), key=lambda p: int(p.rsplit("_", 1)[1]))
    for engine in engines:
        for case in cases:
            name = os.path.basename(case)
            with np.load(os.path.join(case, "inputs.npz")) as z:
                feeds = {k: z[k] for k in z.files}
            values = run(model, feeds, engine, name)
            out_dir = os.path.join(iut_root, engine, name)
            os.makedirs(out_dir, exist_ok=True)
            for j, o in enumerate(model.graph.output):
                with open(os.path.join(out_dir, f"output_{j}.pb"), "wb") as f:
                    f.write(numpy_helper.from_array(values[o.name], o.name).SerializeToString())
            if mark_all:
                np.savez(os.path.join(out_dir, "values.npz"),
                         **{n: values[n] for node in model.graph.node for n in node.output if n})
    return len(cases)


# ---- self-test of the rounding helpers against rational arithmetic ----------------------------------


def exact_round(q, fmt):
    """The rational q rounded to nearest even in fmt (float16 or float32), as a Python float (inf on overflow)."""
    p, emin, emax = {F16: (11, -14, 15), F32: (24, -126, 127)}[fmt]
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    quantum = Fraction(2) ** (max(e, emin) - p + 1)
    k, r = divmod(a, quantum)
    if r > quantum / 2 or (r == quantum / 2 and k % 2 == 1):
        k += 1
    v = k * quantum
    if v >= Fraction(2) ** (emax + 1):
        return sign * float("inf")
    return sign * float(v)


def selftest():
    rng = np.random.default_rng(2026)
    bad = 0
    for fmt, bitsdt in ((F32, np.uint32), (F16, np.uint16)):
        nbits = 8 * fmt.itemsize
        for trial in range(4):
            raw = rng.integers(0, 2 ** nbits, size=4000, dtype=np.uint64).astype(bitsdt).view(fmt)
            if trial == 1:  # values close to each other: cancellations
                raw = (raw.view(bitsdt) & bitsdt(0x80FFFFFF if fmt == F32 else 0x83FF) | bitsdt(0x3F000000 if fmt == F32 else 0x3800)).view(fmt)
            if trial == 2:  # small integers and halves, subnormals and the extremes
                pool = np.array([0.5, -1.5, 3, -4, 2.5, 1e-45 if fmt == F32 else 6e-8, -(2 ** -126 if fmt == F32 else 2 ** -14),
                                 np.finfo(fmt).max, -np.finfo(fmt).max, 0.0, -0.0], fmt)
                raw = pool[rng.integers(0, len(pool), 4000)]
            x, y, z = raw.reshape(-1)[:1332], raw.reshape(-1)[1332:2664], raw.reshape(-1)[2664:3996]
            with np.errstate(all="ignore"):
                got = {"mul": mul(x, y, fmt), "add": add(x, z, fmt), "fma": fma(x, y, z, fmt)}
            for i in range(len(x)):
                xs, ys, zs = float(x[i]), float(y[i]), float(z[i])
                if not all(np.isfinite([xs, ys, zs])):
                    continue
                want = {"mul": exact_round(Fraction(xs) * Fraction(ys), fmt), "add": exact_round(Fraction(xs) + Fraction(zs), fmt),
                        "fma": exact_round(Fraction(xs) * Fraction(ys) + Fraction(zs), fmt)}
                for op in want:
                    g = float(got[op][i])
                    if not (g == want[op] or (g == 0 and want[op] == 0)):
                        bad += 1
                        if bad <= 10:
                            print(f"selftest: {fmt} {op}({xs!r}, {ys!r}, {zs!r}) = {g!r}, exact rounding {want[op]!r}")
    # A fused multiply-add whose float64 sum falls on a float32 midpoint: x*y = 2^-24 + 4688 * 2^-70
    # (X*Y = 2^46 + 4688), so 1 + x*y is just above the midpoint 1 + 2^-24 (rounds up to 1 + 2^-23),
    # while float64 gives the midpoint itself, which a second rounding would take to 1 (even).
    x = np.float32((2 ** 23 + 2896) * 2.0 ** -47)
    y = np.float32((2 ** 23 - 2895) * 2.0 ** -23)
    want = exact_round(Fraction(float(x)) * Fraction(float(y)) + 1, F32)
    if float(fma(x, y, np.float32(1), F32)) != want or want != 1 + 2 ** -23 or float(np.float32(np.float64(x) * np.float64(y) + 1)) != 1:
        bad += 1
        print(f"selftest: fma({x!r}, {y!r}, 1) = {fma(x, y, np.float32(1), F32)!r}, exact rounding {want!r}")
    # TF32: 10-bit fraction, to nearest even
    xs = np.array([1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -11 + 2 ** -20, np.finfo(F32).max, 1e-45, -3.0, np.inf, np.nan], F32)
    want = np.array([1, 1 + 2 ** -9, 1 + 2 ** -10, np.inf, 0, -3.0, np.inf, np.nan], F32)
    got = tf32(xs)
    if not np.array_equal(got, want, equal_nan=True):
        bad += 1
        print(f"selftest: tf32({xs}) = {got}, expected {want}")
    print(f"accuracy_iuts.py selftest: {'ok' if bad == 0 else f'{bad} failure(s)'}")
    return bad == 0


def main():
    args = [a for a in sys.argv[1:] if a != "--mark-all"]
    mark_all = len(args) != len(sys.argv) - 1
    if args == ["--list"]:
        print("correct:", " ".join(CORRECT))
        print("faulty: ", " ".join(FAULTY))
        return
    if args == ["--selftest"]:
        sys.exit(0 if selftest() else 1)
    if len(args) < 3 or any(e not in ENGINES for e in args[2:]):
        raise SystemExit(__doc__)
    golden, root, engines = args[0], args[1], args[2:]
    n = run_folder(golden, root, engines, mark_all)
    print(f"accuracy_iuts.py: {len(engines)} engine(s) x {n} case(s) written under {root}")


if __name__ == "__main__":
    main()
