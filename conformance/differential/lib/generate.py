"""Seeded random differential cases for Max, ReduceMax and Hardmax (every version; every dtype of
the version's type constraint, weighted towards the ones ORT 1.30 has kernels for).

Values are biased towards the places where implementations differ: NaNs with various payloads and
signs (quiet and signalling), ±0, ±Inf, subnormals, extremes and ties. Only valid models are
generated (the spec would accept each); invalid ones are covered by the unit and conformance suites.
Same seed, same cases: numpy's PCG64 is the only source of randomness.
"""
from __future__ import annotations

from typing import List

import numpy as np

from onnxcase import FLOATS, INTS, Case, from_bits, storage

VERSIONS = {"Max": [1, 6, 8, 12, 13], "ReduceMax": [1, 11, 12, 13, 18, 20], "Hardmax": [1, 11, 13],
            "Min": [1, 6, 8, 12, 13], "ReduceMin": [1, 11, 12, 13, 18, 20], "ArgMax": [1, 11, 12, 13],
            "ArgMin": [1, 11, 12, 13], "Relu": [1, 6, 13, 14], "Clip": [1, 6, 11, 12, 13],
            "MaxPool": [1, 8, 10, 11, 12, 22], "GlobalMaxPool": [1, 22],
            # the computing family (spec/common/accuracy.md): drawn by CompGen below, from its own stream
            "Conv": [1, 11, 22], "Gemm": [1, 6, 7, 9, 11, 13], "MatMul": [1, 9, 13],
            # the element-wise arithmetic (spec/common/arithmetic.md): drawn by ArithGen below, its own stream
            "Add": [1, 6, 7, 13, 14], "Sub": [1, 6, 7, 13, 14], "Mul": [1, 6, 7, 13, 14], "Div": [1, 6, 7, 13, 14],
            # the sums (spec/ops/sum.md, mean.md, reducesum.md, reducemean.md): drawn by SumGen, its own stream
            "Sum": [1, 6, 8, 13], "Mean": [1, 6, 8, 13], "ReduceSum": [1, 11, 13], "ReduceMean": [1, 11, 13, 18]}
# The views (spec/ops/reshape.md ... dropout.md, issue 33): drawn by ViewGen below, from their own stream, and
# only when --ops names them (the default campaign's cases are unchanged).
VIEW_VERSIONS = {"Reshape": [5, 13, 14, 19, 21], "Flatten": [1, 9, 11, 13, 21], "Squeeze": [1, 11, 13, 21],
                 "Unsqueeze": [1, 11, 13, 21], "Identity": [1, 13, 14, 16, 19, 21], "Dropout": [7, 10, 12, 13]}
VERSIONS.update(VIEW_VERSIONS)
# The draw of the operator: MaxPool, with the most attributes, gets the largest share.
OP_WEIGHTS = {"Max": 0.09, "ReduceMax": 0.08, "Hardmax": 0.06, "Min": 0.08, "ReduceMin": 0.08, "ArgMax": 0.07,
              "ArgMin": 0.07, "Relu": 0.06, "Clip": 0.11, "MaxPool": 0.24, "GlobalMaxPool": 0.06}

F3 = ["float16", "float", "double"]
# Type constraints of spec/ ([Max.v1]..[Max.v13], [ReduceMax.v1]..[ReduceMax.v20], [Hardmax.v1]..[Hardmax.v13]).
CONSTRAINT = {
    ("Max", 1): F3, ("Max", 6): F3, ("Max", 8): F3,
    ("Max", 12): F3 + list(INTS), ("Max", 13): F3 + list(INTS) + ["bfloat16"],
    ("ReduceMax", 1): F3 + ["int32", "int64", "uint32", "uint64"],
    ("ReduceMax", 11): F3 + ["int32", "int64", "uint32", "uint64"],
    ("ReduceMax", 12): F3 + ["int32", "int64", "uint32", "uint64", "int8", "uint8"],
    ("ReduceMax", 13): F3 + ["int32", "int64", "uint32", "uint64", "int8", "uint8", "bfloat16"],
    ("ReduceMax", 18): F3 + ["int32", "int64", "uint32", "uint64", "int8", "uint8", "bfloat16"],
    ("ReduceMax", 20): F3 + ["int32", "int64", "uint32", "uint64", "int8", "uint8", "bfloat16", "bool"],
    ("Hardmax", 1): F3, ("Hardmax", 11): F3, ("Hardmax", 13): F3 + ["bfloat16"],
    # [Min.v1] .. [Min.v13], [ReduceMin.v1] .. [ReduceMin.v20]: those of Max and ReduceMax.
    ("ArgMax", 1): F3 + list(INTS), ("ArgMax", 11): F3 + list(INTS), ("ArgMax", 12): F3 + list(INTS),
    ("ArgMax", 13): F3 + list(INTS) + ["bfloat16"],
    ("Relu", 1): F3, ("Relu", 6): F3, ("Relu", 13): F3 + ["bfloat16"],
    ("Relu", 14): F3 + ["bfloat16", "int8", "int16", "int32", "int64"],
    ("Clip", 1): F3, ("Clip", 6): F3, ("Clip", 11): F3, ("Clip", 12): F3 + list(INTS),
    ("Clip", 13): F3 + list(INTS) + ["bfloat16"],
    ("MaxPool", 1): F3, ("MaxPool", 8): F3, ("MaxPool", 10): F3, ("MaxPool", 11): F3,
    ("MaxPool", 12): F3 + ["int8", "uint8"], ("MaxPool", 22): F3 + ["int8", "uint8", "bfloat16"],
    ("GlobalMaxPool", 1): F3, ("GlobalMaxPool", 22): F3 + ["bfloat16"],
}
# [Conv.v1] [Conv.v11] [Conv.v22], [Gemm.v1] .. [Gemm.v13], [MatMul.v1] [MatMul.v9] [MatMul.v13]
_I4 = ["int32", "int64", "uint32", "uint64"]
CONSTRAINT.update({
    ("Conv", 1): F3, ("Conv", 11): F3, ("Conv", 22): F3 + ["bfloat16"],
    ("Gemm", 1): F3, ("Gemm", 6): F3, ("Gemm", 7): F3, ("Gemm", 9): F3 + _I4, ("Gemm", 11): F3 + _I4,
    ("Gemm", 13): F3 + _I4 + ["bfloat16"],
    ("MatMul", 1): F3, ("MatMul", 9): F3 + _I4, ("MatMul", 13): F3 + _I4 + ["bfloat16"],
})
# [Add.v1] .. [Div.v14]: the same types for the four operators
_ARITH_TYPES = {1: F3, 6: F3 + _I4, 7: F3 + _I4, 13: F3 + _I4 + ["bfloat16"],
                14: F3 + _I4 + ["bfloat16", "int8", "int16", "uint8", "uint16"]}
for _op in ("Add", "Sub", "Mul", "Div"):
    for _v, _t in _ARITH_TYPES.items():
        CONSTRAINT[(_op, _v)] = _t
# [Sum.v1] .. [Sum.v13], [Mean.v1] .. [Mean.v13], [ReduceSum.v1] .. [ReduceSum.v13], [ReduceMean.v1] .. [ReduceMean.v18]
for _v in (1, 6, 8, 13):
    CONSTRAINT[("Sum", _v)] = CONSTRAINT[("Mean", _v)] = F3 + (["bfloat16"] if _v >= 13 else [])
for _v in (1, 11, 13, 18):
    CONSTRAINT[("ReduceSum", _v)] = CONSTRAINT[("ReduceMean", _v)] = F3 + _I4 + (["bfloat16"] if _v >= 13 else [])
for _v in (1, 6, 8, 12, 13):
    CONSTRAINT[("Min", _v)] = CONSTRAINT[("Max", _v)]
for _v in (1, 11, 12, 13, 18, 20):
    CONSTRAINT[("ReduceMin", _v)] = CONSTRAINT[("ReduceMax", _v)]
for _v in (1, 11, 12, 13):
    CONSTRAINT[("ArgMin", _v)] = CONSTRAINT[("ArgMax", _v)]

# Measured: the (op, opset, dtype) ORT 1.30 CPU loads (README.md, "Kernel table"). Only used to
# weight the draw; the campaign itself records whatever ORT does.
def ort_has_kernel(op: str, opset: int, dtype: str) -> bool:
    if dtype == "bfloat16":
        return False
    if op in ("Add", "Sub", "Mul", "Div"):  # measured: no kernel before opset 7
        return opset >= 7
    if op in ("Sum", "Mean"):  # measured (/work/measure-sum/t_sum.py): no version 1, no double Mean
        return opset > 1 and (dtype in ("float", "float16") or (op == "Sum" and dtype == "double"))
    if op in ("ReduceSum", "ReduceMean"):  # no uint32 / uint64, no float16 at version 1
        return dtype in ("float", "double", "int32", "int64") or (dtype == "float16" and opset > 1)
    if op in MOVE_WEIGHTS or op in CAST_WEIGHTS:  # issue 33: data movement kernels are type-generic in ORT
        return True
    if op == "Conv":  # measured (/work/measure t1_types): no double kernel; float16 at Conv-1 fails to load
        return dtype == "float" or (dtype == "float16" and opset > 1)
    if op == "Gemm":  # no Gemm-1/6 kernel, no integer Gemm
        return opset >= 7 and dtype in ("float", "double", "float16")
    if op == "MatMul":
        return dtype != "float16" or opset > 1
    if op in ("Min", "ReduceMin"):
        op = op.replace("Min", "Max")
    if op in ("ArgMax", "ArgMin"):
        return dtype in ("float", "double", "int32", "int8", "uint8", "int64") or (dtype == "float16" and opset > 1)
    if op == "Relu":
        return opset > 1 and (dtype in ("float", "float16") or (dtype == "double" and opset > 1)
                              or (opset >= 14 and dtype in ("int8", "int32")))
    if op == "Clip":
        if opset == 1:
            return False
        if opset in (6, 11):
            return dtype in ("float", "float16")
        return dtype not in ("int16", "uint16")
    if op == "MaxPool":
        return dtype in ("float", "float16", "double", "int8", "uint8")
    if op == "GlobalMaxPool":
        return dtype == "float" or (dtype == "float16" and opset > 1)
    if op == "Max":
        if opset == 1:
            return False
        if opset == 6:
            return dtype in ("float", "float16")
        return dtype not in ("int16", "uint16")
    if op == "ReduceMax":
        if dtype in ("uint32", "uint64"):
            return False
        if opset == 1 and dtype == "float16":
            return False
        return True
    return dtype == "float" or (dtype == "float16" and opset > 1)


# Special bit patterns per float type.
def _specials(dtype: str) -> dict:
    if dtype == "float":
        return dict(
            p0=[0x00000000], n0=[0x80000000], inf=[0x7F800000], ninf=[0xFF800000],
            qnan=[0x7FC00000, 0x7FC00001, 0x7FC00002, 0x7FFFFFFF, 0xFFC00000, 0xFFC00123],
            snan=[0x7F800001, 0x7FA00000, 0xFF800001],
            sub=[0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF],
            ext=[0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x80800000])
    if dtype == "double":
        return dict(
            p0=[0], n0=[1 << 63], inf=[0x7FF0000000000000], ninf=[0xFFF0000000000000],
            qnan=[0x7FF8000000000000, 0x7FF8000000000001, 0x7FF8000000000002, 0xFFF8000000000000, 0x7FFFFFFFFFFFFFFF],
            snan=[0x7FF0000000000001, 0xFFF0000000000001, 0x7FF4000000000000],
            sub=[1, (1 << 63) | 1, 0x000FFFFFFFFFFFFF],
            ext=[0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF, 0x0010000000000000])
    if dtype == "float16":
        return dict(
            p0=[0], n0=[0x8000], inf=[0x7C00], ninf=[0xFC00],
            qnan=[0x7E00, 0x7E01, 0x7E02, 0xFE00, 0x7FFF],
            snan=[0x7C01, 0xFC01, 0x7D00],
            sub=[0x0001, 0x8001, 0x03FF, 0x83FF],
            ext=[0x7BFF, 0xFBFF, 0x0400, 0x8400])
    return dict(  # bfloat16
        p0=[0], n0=[0x8000], inf=[0x7F80], ninf=[0xFF80],
        qnan=[0x7FC0, 0x7FC1, 0x7FC2, 0xFFC0, 0x7FFF],
        snan=[0x7F81, 0xFF81, 0x7FA0],
        sub=[0x0001, 0x8001, 0x007F, 0x807F],
        ext=[0x7F7F, 0xFF7F, 0x0080, 0x8080])


_TIE_VALUES = [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0]


class Gen:
    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64(seed))

    # ------------------------------------------------------------------ values
    def floats(self, dtype: str, shape, flavour: str) -> np.ndarray:
        rng = self.rng
        n = int(np.prod(shape, dtype=np.int64))
        sp = _specials(dtype)
        ubits = {"float16": np.uint16, "bfloat16": np.uint16, "float": np.uint32, "double": np.uint64}[dtype]
        # value classes and their weights, by flavour
        weights = {
            "ties": dict(zero=6, tie=6, nan=1, inf=1),
            "nan": dict(zero=2, tie=3, nan=4, inf=1, rand=2),
            "special": dict(zero=3, tie=2, nan=2, inf=2, sub=2, ext=2, rand=2),
            "random": dict(rand=10, zero=1, nan=0.3),
            "zeros": dict(zero=10, nan=0.5, tie=1),
        }[flavour]
        names = list(weights)
        p = np.array([weights[k] for k in names], float)
        p /= p.sum()
        kinds = rng.choice(len(names), size=n, p=p)
        out = np.zeros(n, dtype=ubits)
        for i, k in enumerate(kinds):
            kind = names[k]
            if kind == "zero":
                v = sp["p0" if rng.random() < 0.5 else "n0"][0]
            elif kind == "nan":
                pool = sp["qnan"] + sp["snan"]
                v = pool[rng.integers(len(pool))]
            elif kind == "inf":
                v = sp["inf" if rng.random() < 0.5 else "ninf"][0]
            elif kind == "sub":
                v = sp["sub"][rng.integers(len(sp["sub"]))]
            elif kind == "ext":
                v = sp["ext"][rng.integers(len(sp["ext"]))]
            elif kind == "tie":
                v = _tie_bits(dtype, _TIE_VALUES[rng.integers(len(_TIE_VALUES))])
            else:  # rand: a random non-NaN, non-Inf pattern
                width = np.dtype(ubits).itemsize * 8
                while True:
                    v = int(rng.integers(0, (1 << width) - 1, dtype=np.uint64, endpoint=True))
                    if not _is_nan_or_inf(dtype, v):
                        break
            out[i] = v
        return from_bits(dtype, out, shape)

    def ints(self, dtype: str, shape, flavour: str) -> np.ndarray:
        rng = self.rng
        info = np.iinfo(storage(dtype))
        n = int(np.prod(shape, dtype=np.int64))
        small = [info.min, info.max, 0, 1, info.max - 1, info.min + 1] + ([-1, -2] if info.min < 0 else [2, 3])
        if flavour in ("ties", "zeros"):
            vals = [small[rng.integers(len(small))] for _ in range(n)]
        else:
            vals = [small[rng.integers(len(small))] if rng.random() < 0.4 else
                    int(rng.integers(info.min, info.max, endpoint=True, dtype=np.int64 if info.min < 0 else np.uint64))
                    for _ in range(n)]
        return np.array(vals, dtype=storage(dtype)).reshape(shape)

    def tensor(self, dtype: str, shape, flavour: str) -> np.ndarray:
        if dtype in FLOATS:
            return self.floats(dtype, shape, flavour)
        if dtype == "bool":
            return (self.rng.random(int(np.prod(shape, dtype=np.int64))) < 0.3).reshape(shape)
        return self.ints(dtype, shape, flavour)

    def flavour(self) -> str:
        return ["ties", "nan", "special", "random", "zeros"][self.rng.choice(5, p=[0.25, 0.3, 0.2, 0.15, 0.1])]

    # ------------------------------------------------------------------ shapes
    def shape(self, rank: int, allow_empty: bool = True, max_elems: int = 1024) -> List[int]:
        rng = self.rng
        while True:
            dims = []
            for _ in range(rank):
                r = rng.random()
                if allow_empty and r < 0.04:
                    dims.append(0)
                elif r < 0.15:
                    dims.append(1)
                elif r < 0.85:
                    dims.append(int(rng.integers(2, 6)))
                else:
                    dims.append(int(rng.integers(6, 40)))  # long rows: SIMD paths of the peer
            if int(np.prod(dims, dtype=np.int64)) <= max_elems:
                return dims

    def dtype_for(self, op: str, opset: int) -> str:
        allowed = CONSTRAINT[(op, opset)]
        good = [d for d in allowed if ort_has_kernel(op, opset, d)]
        bad = [d for d in allowed if d not in good]
        if bad and (not good or self.rng.random() < 0.05):
            return bad[self.rng.integers(len(bad))]
        return good[self.rng.integers(len(good))]

    # ------------------------------------------------------------------ cases
    def max_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("Max", opset)
        n_in = int(rng.choice([1, 2, 3, 4, 5], p=[0.1, 0.5, 0.2, 0.1, 0.1]))
        rank = int(rng.integers(0, 5))
        out_shape = self.shape(rank, max_elems=512)
        shapes = []
        for _ in range(n_in):
            if opset < 8:
                shapes.append(list(out_shape))  # [Max.err.same-shape]: no broadcasting in v1/v6
                continue
            r = int(rng.integers(0, rank + 1)) if rng.random() < 0.4 else rank
            s = list(out_shape[rank - r:])
            s = [1 if (d != 0 and rng.random() < 0.3) else d for d in s]
            shapes.append(s)
        if opset >= 8 and n_in > 0 and rank > 0 and all(len(s) < rank for s in shapes):
            shapes[0] = list(out_shape)
        fl = self.flavour()
        inputs = [self.tensor(dtype, s, fl if rng.random() < 0.8 else self.flavour()) for s in shapes]
        attrs = {}
        if opset == 1 and rng.random() < 0.5:
            attrs["consumed_inputs"] = [0] * n_in  # [Max.v1]: legacy attribute, accepted and ignored
        return Case(cid, "Max", opset, dtype, inputs, attrs)

    def reducemax_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("ReduceMax", opset)
        rank = int(rng.choice([0, 1, 2, 3, 4], p=[0.05, 0.2, 0.35, 0.25, 0.15]))
        shape = self.shape(rank)
        x = self.tensor(dtype, shape, self.flavour())
        attrs = {}
        if rng.random() < 0.8:
            attrs["keepdims"] = int(rng.integers(0, 2))
        axes = None
        if rank > 0 and rng.random() < 0.8:
            k = int(rng.integers(1, rank + 1))
            chosen = sorted(rng.choice(rank, size=k, replace=False).tolist())
            if opset >= 11:  # [ReduceMax.axes.normalise]
                chosen = [a - rank if rng.random() < 0.4 else a for a in chosen]
            rng.shuffle(chosen)
            axes = [int(a) for a in chosen]
        case = Case(cid, "ReduceMax", opset, dtype, [x], attrs)
        if opset < 18:
            if axes is not None:
                attrs["axes"] = axes
        else:
            if rng.random() < 0.6:
                attrs["noop_with_empty_axes"] = int(rng.integers(0, 2))
            if axes is None and rng.random() < 0.5:
                axes = []  # an empty axes input: all axes, or identity with noop
            case.axes = axes
            case.axes_as = "feed" if rng.random() < 0.3 else "initializer"
        return case

    def hardmax_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("Hardmax", opset)
        rank = int(rng.integers(1, 5))
        shape = self.shape(rank)
        x = self.tensor(dtype, shape, self.flavour())
        attrs = {}
        default = -1 if opset >= 13 else 1
        lo = 0 if opset == 1 else -rank
        if rng.random() < 0.7 or not (-rank <= default < rank):
            attrs["axis"] = int(rng.integers(lo, rank))
        return Case(cid, "Hardmax", opset, dtype, [x], attrs)

    # -------------------------------------------------------------- the second family
    def min_case(self, cid: str, opset: int) -> Case:
        c = self.max_case(cid, opset)  # the same draw: inputs, broadcasting, consumed_inputs at v1
        c.op = "Min"
        return c

    def reducemin_case(self, cid: str, opset: int) -> Case:
        c = self.reducemax_case(cid, opset)
        c.op = "ReduceMin"
        return c

    def arg_case(self, op: str, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for(op, opset)
        rank = int(rng.choice([1, 2, 3, 4], p=[0.25, 0.35, 0.25, 0.15]))
        while True:
            shape = self.shape(rank)
            lo = 0 if opset == 1 else -rank
            axis = int(rng.integers(lo, rank))
            if shape[axis] > 0:  # [ArgMax.err.empty-axis]: only valid models
                break
        attrs = {}
        if rng.random() < 0.8 or axis != 0:
            attrs["axis"] = axis
        if rng.random() < 0.7:
            attrs["keepdims"] = int(rng.integers(0, 2))
        if opset >= 12 and rng.random() < 0.7:
            attrs["select_last_index"] = int(rng.integers(0, 2))
        return Case(cid, op, opset, dtype, [self.tensor(dtype, shape, self.flavour())], attrs)

    def relu_case(self, cid: str, opset: int) -> Case:
        dtype = self.dtype_for("Relu", opset)
        shape = self.shape(int(self.rng.integers(0, 5)))
        attrs = {"consumed_inputs": [0]} if opset == 1 and self.rng.random() < 0.5 else {}
        return Case(cid, "Relu", opset, dtype, [self.tensor(dtype, shape, self.flavour())], attrs)

    def scalar(self, dtype: str, flavour: str) -> np.ndarray:
        return self.tensor(dtype, [1], flavour).reshape([])

    def clip_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("Clip", opset)
        shape = self.shape(int(rng.integers(0, 5)))
        fl = self.flavour()
        x = self.tensor(dtype, shape, fl)
        if opset < 11:  # float attributes ([Clip.bounds.attributes]); NaN ones for float only
            attrs = {"consumed_inputs": [0]} if opset == 1 and rng.random() < 0.3 else {}
            pool = [-2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0, 65519.0, 65520.0, 0.1, 3e-8, -1e-8, 1e30]
            for name in ("min", "max"):
                if rng.random() < 0.6:
                    attrs[name] = float(pool[rng.integers(len(pool))])
            if dtype == "float" and rng.random() < 0.05:
                attrs["min" if rng.random() < 0.5 else "max"] = float(np.array([0x7FC00005], "<u4").view("<f4")[0])
            return Case(cid, "Clip", opset, dtype, [x], attrs)
        present = [rng.random() < 0.7, rng.random() < 0.7]
        bfl = "ties" if rng.random() < 0.7 else self.flavour()
        inputs, names = [x], ["x0"]
        for k, p in enumerate(present):
            if p:
                inputs.append(self.scalar(dtype, bfl))
                names.append(f"x{len(inputs) - 1}")
            else:
                names.append("")
        while names and names[-1] == "":  # trailing absent inputs are left out
            names.pop()
        c = Case(cid, "Clip", opset, dtype, inputs, {})
        c.node_inputs = names
        return c

    def pool_tensor(self, dtype: str, shape) -> np.ndarray:
        return self.tensor(dtype, shape, self.flavour())

    def maxpool_case(self, cid: str, opset: int) -> Case:
        """Every attribute of MaxPool, 1 to 3 spatial axes; only models the spec accepts."""
        rng = self.rng
        import model as M  # the spec's geometry decides what is valid
        dtype = self.dtype_for("MaxPool", opset)
        while True:
            ell = int(rng.choice([1, 2, 3], p=[0.35, 0.45, 0.2]))
            dims = [int(rng.choice([0, 1, 2], p=[0.03, 0.12, 0.85])) or 0 for _ in range(2)]
            dims = [d if d != 2 else int(rng.integers(1, 4)) for d in dims]
            D = [int(rng.integers(1, 9 if ell < 3 else 6)) for _ in range(ell)]
            if rng.random() < 0.02:
                D[int(rng.integers(ell))] = 0
            a = {"kernel_shape": [int(rng.integers(1, min(4, max(d, 1) + 1) + 1)) for d in D]}
            if rng.random() < 0.5:
                a["strides"] = [int(rng.integers(1, 4)) for _ in range(ell)]
            if opset >= 10 and rng.random() < 0.35:
                a["dilations"] = [int(rng.choice([1, 2, 3], p=[0.4, 0.45, 0.15])) for _ in range(ell)]
            auto = ["NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"][rng.choice(4, p=[0.55, 0.15, 0.15, 0.15])]
            if auto != "NOTSET" or rng.random() < 0.3:
                a["auto_pad"] = auto
            if auto == "NOTSET" and rng.random() < 0.55:
                e = [(a["kernel_shape"][d] - 1) * a.get("dilations", [1] * ell)[d] + 1 for d in range(ell)]
                a["pads"] = [int(rng.integers(0, e[d % ell])) for d in range(2 * ell)]
            if opset >= 10 and rng.random() < 0.4:
                a["ceil_mode"] = int(rng.integers(0, 2))
            want_i = opset >= 8 and rng.random() < 0.55
            if opset >= 8 and rng.random() < (0.5 if want_i else 0.15):
                a["storage_order"] = int(rng.integers(0, 2))
            shape = dims + D
            if int(np.prod(shape)) > 600:
                continue
            try:
                M.pool_geometry(shape, a)
            except M.PoolRefused:
                continue
            break
        c = Case(cid, "MaxPool", opset, dtype, [self.pool_tensor(dtype, shape)], a)
        c.n_outputs = 2 if want_i else 1
        return c

    def globalmaxpool_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("GlobalMaxPool", opset)
        ell = int(rng.choice([1, 2, 3], p=[0.4, 0.4, 0.2]))
        shape = [int(rng.integers(0 if rng.random() < 0.05 else 1, 4)) for _ in range(2)] + \
                [int(rng.integers(0 if rng.random() < 0.03 else 1, 7)) for _ in range(ell)]
        return Case(cid, "GlobalMaxPool", opset, dtype, [self.tensor(dtype, shape, self.flavour())], {})

    def case(self, index: int, ops=None) -> Case:
        names = list(ops or OP_WEIGHTS)
        w = np.array([OP_WEIGHTS[o] for o in names])
        op = names[self.rng.choice(len(names), p=w / w.sum())]
        versions = VERSIONS[op]
        # Max-1 has no ORT kernel at all: a few cases show the refusal, the rest go where ORT runs.
        w = np.array([0.25 if (op, v) == ("Max", 1) else 1.0 for v in versions])
        opset = int(versions[self.rng.choice(len(versions), p=w / w.sum())])
        cid = f"{index:05d}-{op}-{opset}"
        if op == "Max":
            c = self.max_case(cid, opset)
        elif op == "ReduceMax":
            c = self.reducemax_case(cid, opset)
        elif op == "Hardmax":
            c = self.hardmax_case(cid, opset)
        elif op == "Min":
            c = self.min_case(cid, opset)
        elif op == "ReduceMin":
            c = self.reducemin_case(cid, opset)
        elif op in ("ArgMax", "ArgMin"):
            c = self.arg_case(op, cid, opset)
        elif op == "Relu":
            c = self.relu_case(cid, opset)
        elif op == "Clip":
            c = self.clip_case(cid, opset)
        elif op == "MaxPool":
            c = self.maxpool_case(cid, opset)
        else:
            c = self.globalmaxpool_case(cid, opset)
        c.id = f"{cid}-{c.dtype}"
        return c


# ------------------------------------------------------------------ issue 33: data movement (wt-gather)
# Concat, Transpose, Gather, Slice: every version, every type of spec/ops/*.md's Versions tables, only
# models the spec accepts. Drawn by MoveGen from its own stream (PCG64([seed, 0x33])), only when --ops
# names them, so the cases of every seed of the other families are unchanged.
_ALL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"] + F3
VERSIONS.update({"Concat": [1, 4, 11, 13], "Transpose": [1, 13, 21], "Gather": [1, 11, 13], "Slice": [1, 10, 11, 13]})
MOVE_WEIGHTS = {"Concat": 1.0, "Transpose": 1.0, "Gather": 1.0, "Slice": 1.0}
for _v in (1, 4, 11, 13):
    CONSTRAINT[("Concat", _v)] = F3 if _v == 1 else _ALL + (["bfloat16"] if _v >= 13 else [])  # [Concat.v1] ..
for _v in (1, 13, 21):
    CONSTRAINT[("Transpose", _v)] = _ALL + (["bfloat16"] if _v >= 13 else [])  # [Transpose.v1] ..
for _v in (1, 11, 13):
    CONSTRAINT[("Gather", _v)] = _ALL + (["bfloat16"] if _v >= 13 else [])  # [Gather.v1] ..
for _v in (1, 10, 11, 13):
    CONSTRAINT[("Slice", _v)] = _ALL + (["bfloat16"] if _v >= 13 else [])  # [Slice.v1] ..


class MoveGen(Gen):
    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0x33]))

    def case(self, index: int, ops=None) -> Case:
        rng = self.rng
        names = [o for o in (ops or MOVE_WEIGHTS) if o in MOVE_WEIGHTS]
        op = names[rng.integers(len(names))]
        opset = int(VERSIONS[op][rng.integers(len(VERSIONS[op]))])
        cid = f"m{index:04d}-{op}-{opset}"
        dtype = self.dtype_for(op, opset)
        fl = self.flavour()
        if op == "Concat":
            rank = int(rng.integers(1, 5))
            base = self.shape(rank, max_elems=200)
            k = int(rng.integers(0, rank))
            xs = []
            for _ in range(int(rng.integers(1, 4))):
                sh = list(base)
                sh[k] = int(rng.choice([0, 1, 2, 3, 5], p=[0.1, 0.2, 0.3, 0.2, 0.2]))
                xs.append(self.tensor(dtype, sh, fl))
            axis = k - rank if opset >= 11 and rng.random() < 0.4 else k
            attrs = {} if opset == 1 and axis == 1 and rng.random() < 0.5 else {"axis": axis}
            c = Case(cid, op, opset, dtype, xs, attrs)
        elif op == "Transpose":
            rank = int(rng.integers(0, 6))
            x = self.tensor(dtype, self.shape(rank, max_elems=1500), fl)
            attrs = {} if rng.random() < 0.3 else {"perm": [int(p) for p in rng.permutation(rank)]}
            c = Case(cid, op, opset, dtype, [x], attrs)
        elif op == "Gather":
            rank = int(rng.integers(1, 4))
            while True:
                sh = self.shape(rank, max_elems=300)
                k = int(rng.integers(0, rank))
                if sh[k] > 0:
                    break
            x = self.tensor(dtype, sh, fl)
            ish = self.shape(int(rng.integers(0, 3)), max_elems=30)
            idx = rng.integers(-sh[k] if opset >= 11 else 0, sh[k], size=ish)
            idx = idx.astype(np.int32 if rng.random() < 0.3 else np.int64)
            axis = k - rank if rng.random() < 0.4 else k
            attrs = {} if axis == 0 and rng.random() < 0.5 else {"axis": axis}
            c = Case(cid, op, opset, dtype, [x], attrs)
            c.params = [("indices", idx)]
        else:
            rank = int(rng.integers(1, 5))
            sh = self.shape(rank, max_elems=400)
            x = self.tensor(dtype, sh, fl)
            axes = [int(a) for a in rng.permutation(rank)[:int(rng.integers(1, rank + 1))]]
            if opset >= 11:
                axes = [a - rank if rng.random() < 0.3 else a for a in axes]
            pool = [0, 1, 2, -1, -2, 3, 7, -7, 2**63 - 1, -2**63, 2**31 - 1, -2**31]
            starts = [int(pool[rng.integers(len(pool))]) for _ in axes]
            ends = [int(pool[rng.integers(len(pool))]) for _ in axes]
            if opset == 1:
                attrs = {"starts": starts, "ends": ends}
                if rng.random() < 0.7 or axes != list(range(len(axes))):
                    attrs["axes"] = axes
                c = Case(cid, op, opset, dtype, [x], attrs)
            else:
                steps = [int(rng.choice([1, 1, 2, 3, -1, -2])) for _ in axes]
                it = np.int32 if rng.random() < 0.2 else np.int64
                if it == np.int32:
                    starts = [min(max(v, -2**31), 2**31 - 1) for v in starts]
                    ends = [min(max(v, -2**31), 2**31 - 1) for v in ends]
                c = Case(cid, op, opset, dtype, [x], {})
                c.params = [("starts", np.array(starts, it)), ("ends", np.array(ends, it))]
                with_axes, with_steps = rng.random() < 0.8 or axes != list(range(len(axes))), rng.random() < 0.7
                if with_axes:
                    c.params.append(("axes", np.array(axes, it)))
                if with_steps:
                    c.params.append(("steps", np.array(steps, it)))
                if with_steps and not with_axes:
                    c.node_inputs = ["x0", "starts", "ends", "", "steps"]
        c.id = f"{cid}-{c.dtype}"
        return c


def _tie_bits(dtype: str, v: float) -> int:
    if dtype == "bfloat16":
        return int(np.array([v], "<f4").view("<u4")[0] >> 16)
    np_t = {"float16": "<f2", "float": "<f4", "double": "<f8"}[dtype]
    u = {"float16": "<u2", "float": "<u4", "double": "<u8"}[dtype]
    return int(np.array([v], np_t).view(u)[0])


def _is_nan_or_inf(dtype: str, v: int) -> bool:
    exp = {"float16": 0x7C00, "bfloat16": 0x7F80, "float": 0x7F800000, "double": 0x7FF0000000000000}[dtype]
    return (v & exp) == exp


# ====================================================================== the computing family
# Conv, Gemm, MatMul: judged by the accuracy model (spec/common/accuracy.md, lib/model.py), not bit
# for bit. Drawn from their own PCG64 stream, so that the cases of the eleven selecting operators
# stay those of the same seed before this family was added (generate() below).
COMP_WEIGHTS = {"Conv": 0.45, "Gemm": 0.30, "MatMul": 0.25}
COMPUTING_SHARE = 0.2      # of the cases when every operator is drawn
ALPHAS = [1.0, 1.0, 1.0, -1.0, 0.0, 0.5, 2.0, -0.25, 3.0, 0.1, 1e-3, 1.5, -2.5, 1000.0]
BETAS = [1.0, 1.0, 1.0, -1.0, 0.0, 0.0, 0.5, 2.0, -3.0, 0.1, 0.3]
INT_SCALES = [1.0, 1.0, 1.0, -1.0, 0.0, 2.0, 3.0, -2.0]
FLAVOURS = {"int": 0.15, "unit": 0.18, "wide": 0.15, "cancel": 0.10, "large": 0.10, "tiny": 0.10,
            "special": 0.12, "zeros": 0.10}


class CompGen(Gen):
    """Seeded random Conv / Gemm / MatMul cases: shapes, attributes, dtypes, weights as initializers
    or graph inputs, values biased to cancellation, absorption, NaN, infinities, signed zeros,
    subnormals and overflow."""

    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0xC0DE]))

    # ------------------------------------------------------------------ values
    def comp_flavour(self) -> str:
        names = list(FLAVOURS)
        p = np.array([FLAVOURS[k] for k in names])
        return names[self.rng.choice(len(names), p=p / p.sum())]

    def _finite(self, dtype: str, e: int) -> float:
        """A random value of T with exponent e (clamped to T's normal range; below it a subnormal)."""
        from model import fmt_of
        f = fmt_of(dtype)
        e = int(min(max(e, f.emin - f.p + 1), f.emax))
        q = max(e, f.emin) - (f.p - 1)
        lo = (1 << (e - q)) if e >= f.emin else 1
        m = int(self.rng.integers(lo, (1 << (e - q + 1)) if e >= f.emin else (1 << (f.p - 1))))
        v = float(np.ldexp(float(m), q))
        return -v if self.rng.random() < 0.5 else v

    def comp_floats(self, dtype: str, shape, flavour: str, sprinkle: float) -> np.ndarray:
        from model import fmt_of, from_float64
        rng = self.rng
        f = fmt_of(dtype)
        n = int(np.prod(shape, dtype=np.int64))
        sp = _specials(dtype)
        out = np.zeros(n, np.float64)
        big = [float(2 ** (f.p + 1)), -float(2 ** (f.p + 1)), 1.0, -1.0, 3.0, float(2.0 ** -f.p)]
        for i in range(n):
            fl = flavour
            if fl == "int":
                v = float(rng.integers(-4, 5))
                if v == 0 and rng.random() < 0.5:
                    v = -0.0
            elif fl == "unit":
                v = self._finite(dtype, int(rng.integers(-3, 2)))
            elif fl == "wide":
                v = self._finite(dtype, int(rng.integers(-f.p - 4, f.p + 5)))
            elif fl == "cancel":
                v = big[rng.integers(len(big))] if rng.random() < 0.7 else self._finite(dtype, int(rng.integers(-2, 3)))
            elif fl == "large":
                v = self._finite(dtype, int(rng.integers(f.emax // 2 - 2, f.emax + 1)))
            elif fl == "tiny":
                v = self._finite(dtype, int(rng.integers(f.emin - f.p, f.emin // 2 + 1)))
            elif fl == "zeros":
                r = rng.random()
                v = -0.0 if r < 0.45 else 0.0 if r < 0.8 else self._finite(dtype, int(rng.integers(-2, 3)))
            else:  # special
                v = None
            if v is None or rng.random() < sprinkle:
                kind = ["p0", "n0", "inf", "ninf", "nan", "sub", "ext", "val"][rng.integers(8)]
                if kind in ("nan", "sub", "ext"):
                    pool = sp["qnan"] + sp["snan"] if kind == "nan" else sp[kind]
                    bits = pool[rng.integers(len(pool))]
                    v = float(values_1(dtype, bits))
                elif kind == "val":
                    v = self._finite(dtype, int(rng.integers(-4, 5)))
                else:
                    v = float(values_1(dtype, sp[kind][0]))
            out[i] = v
        arr = from_float64(dtype, out.reshape(shape))
        # NaNs keep a drawn payload: from_float64 made them canonical; put some payloads back
        if dtype != "bfloat16" and n:
            flat = arr.reshape(-1)
            for i in np.nonzero(np.isnan(out))[0]:
                pool = sp["qnan"] + sp["snan"]
                flat[i] = from_bits(dtype, [pool[rng.integers(len(pool))]])[0]
        return arr

    def comp_ints(self, dtype: str, shape, flavour: str) -> np.ndarray:
        rng = self.rng
        info = np.iinfo(storage(dtype))
        n = int(np.prod(shape, dtype=np.int64))
        w = storage(dtype).itemsize * 8
        root = 1 << (w // 2)
        edge = [info.min, info.max, 0, 1, info.max - 1] + ([-1, -2, info.min + 1] if info.min < 0 else [2, 3])
        vals = []
        for _ in range(n):
            r = rng.random()
            if flavour in ("int", "zeros", "unit") and r < 0.8:
                v = int(rng.integers(-4 if info.min < 0 else 0, 9))
            elif r < 0.35:
                v = edge[rng.integers(len(edge))]
            elif r < 0.7:
                v = int(rng.integers(root - 8, root + 8)) * (-1 if (info.min < 0 and rng.random() < 0.5) else 1)
            else:
                v = int(rng.integers(info.min, info.max, endpoint=True, dtype=np.int64 if info.min < 0 else np.uint64))
            vals.append(v)
        return np.array(vals, dtype=object).astype(storage(dtype)).reshape(shape)

    def comp_tensor(self, dtype, shape, flavour, sprinkle):
        if dtype in FLOATS:
            return self.comp_floats(dtype, shape, flavour, sprinkle)
        return self.comp_ints(dtype, shape, flavour)

    def values(self, dtype, shapes):
        """One tensor per shape: the case's flavour for most, another for some; specials sprinkled
        in some cases."""
        fl = self.comp_flavour()
        sprinkle = [0.0, 0.0, 0.0, 0.03, 0.12][self.rng.integers(5)]
        return [self.comp_tensor(dtype, s, fl if self.rng.random() < 0.7 else self.comp_flavour(), sprinkle)
                for s in shapes]

    def size(self, lo=1, hi=8, big=40, p0=0.03, p1=0.15, pbig=0.2) -> int:
        r = self.rng.random()
        if r < p0:
            return 0
        if r < p0 + p1:
            return 1
        if r < p0 + p1 + pbig:
            return int(self.rng.integers(hi + 1, big + 1))
        return int(self.rng.integers(max(lo, 2), hi + 1))

    # ------------------------------------------------------------------ Conv
    def conv_case(self, cid: str, opset: int) -> Case:
        import model as M
        rng = self.rng
        dtype = self.dtype_for("Conv", opset)
        for _ in range(1000):
            ell = int(rng.choice([1, 2, 3], p=[0.3, 0.5, 0.2]))
            N = int(rng.choice([1, 2, 0], p=[0.78, 0.19, 0.03]))
            kind = rng.choice(3, p=[0.6, 0.2, 0.2])
            if kind == 1:                                   # depthwise: G = C, one channel per filter
                G = int(rng.integers(1, 7))
                Cg, Mg = 1, int(rng.choice([1, 2], p=[0.8, 0.2]))
            else:
                G = 1 if kind == 0 else int(rng.integers(2, 4))
                Cg = int(rng.choice([0, 1, 2, 3, 4, 8], p=[0.02, 0.3, 0.3, 0.18, 0.12, 0.08]))
                Mg = int(rng.choice([0, 1, 2, 3, 4], p=[0.02, 0.35, 0.3, 0.18, 0.15]))
            C, Mo = Cg * G, Mg * G
            hiD = {1: 16, 2: 9, 3: 5}[ell]
            D = [int(rng.integers(1, hiD + 1)) for _ in range(ell)]
            k = [int(rng.choice([1, 2, 3, 4], p=[0.25, 0.3, 0.35, 0.1])) for _ in range(ell)]
            a = {}
            if rng.random() < 0.45:
                a["strides"] = [int(rng.choice([1, 2, 3], p=[0.5, 0.35, 0.15])) for _ in range(ell)]
            if rng.random() < 0.3:
                a["dilations"] = [int(rng.choice([1, 2, 3], p=[0.4, 0.45, 0.15])) for _ in range(ell)]
            auto = ["NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"][rng.choice(4, p=[0.55, 0.15, 0.15, 0.15])]
            if auto.startswith("SAME") and "dilations" in a and rng.random() < 0.6:
                del a["dilations"]                            # onnxruntime refuses SAME_* with a dilation: keep some
            if auto != "NOTSET" or rng.random() < 0.25:
                a["auto_pad"] = auto
            if auto.startswith("SAME") and rng.random() < 0.03:
                D[int(rng.integers(ell))] = 0                 # an empty spatial axis: O_d = 0
            if auto == "NOTSET" and rng.random() < 0.6:
                dil = a.get("dilations", [1] * ell)
                e = [(k[d] - 1) * dil[d] + 1 for d in range(ell)]
                a["pads"] = [int(rng.integers(0, e[d % ell] + 1)) for d in range(2 * ell)]
            if rng.random() < 0.3:
                a["kernel_shape"] = list(k)
            if G != 1 or rng.random() < 0.15:
                a["group"] = G
            xs, ws = [N, C] + D, [Mo, Cg] + k
            try:
                geom = M.conv_geometry(xs, ws, a)
            except M.ConvRefused:
                continue
            Ot = int(np.prod(geom[4], dtype=np.int64))
            if N * Mo * Ot * max(1, Cg * int(np.prod(k))) > 6000 or N * C * int(np.prod(D)) > 4000:
                continue
            break
        bias = rng.random() < 0.6
        shapes = [xs, ws] + ([[Mo]] if bias else [])
        inputs = self.values(dtype, shapes)
        c = Case(cid, "Conv", opset, dtype, inputs, a)
        inits = set()
        if rng.random() < 0.5:
            inits.add(1)
        if bias and rng.random() < 0.5:
            inits.add(2)
        c.initializers = frozenset(inits)
        if not bias and rng.random() < 0.05:
            c.node_inputs = ["x0", "x1", ""]                  # B absent as an empty name
        return c

    # ------------------------------------------------------------------ Gemm
    def gemm_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("Gemm", opset)
        while True:
            Mm, K, Nn = self.size(), self.size(), self.size()
            if Mm * K * Nn <= 6000 and Mm * Nn <= 600:
                break
        a = {}
        for t in ("transA", "transB"):
            if rng.random() < 0.6:
                a[t] = int(rng.choice([0, 1, 2], p=[0.35, 0.6, 0.05]))
        pool = ALPHAS if dtype in FLOATS else INT_SCALES
        if rng.random() < 0.6:
            a["alpha"] = float(pool[rng.integers(len(pool))])
        pool = BETAS if dtype in FLOATS else INT_SCALES
        if rng.random() < 0.6:
            a["beta"] = float(pool[rng.integers(len(pool))])
        ash = [K, Mm] if a.get("transA", 0) else [Mm, K]
        bsh = [Nn, K] if a.get("transB", 0) else [K, Nn]
        if opset < 7:                                         # [Gemm.c]: C required, (M, N) unless broadcast
            if rng.random() < 0.4:
                a["broadcast"] = 1
                csh = [[Mm, Nn], [Nn], [1, Nn], [1], [Mm, 1]][rng.integers(5)]
            else:
                if rng.random() < 0.3:
                    a["broadcast"] = 0
                csh = [Mm, Nn]
        elif opset >= 11 and rng.random() < 0.3:
            csh = None
        else:
            csh = [[Mm, Nn], [Mm, Nn], [Nn], [1, Nn], [Mm, 1], [1], [], [1, 1]][rng.integers(8)]
        shapes = [ash, bsh] + ([csh] if csh is not None else [])
        c = Case(cid, "Gemm", opset, dtype, self.values(dtype, shapes), a)
        inits = set()
        if rng.random() < 0.3:
            inits.add(1)
        if csh is not None and rng.random() < 0.3:
            inits.add(2)
        if rng.random() < 0.1 and not (1 in inits and (csh is None or 2 in inits)):
            inits.add(0)
        c.initializers = frozenset(inits)
        return c

    # ------------------------------------------------------------------ MatMul
    def matmul_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("MatMul", opset)
        while True:
            kind = ["2d", "2d", "1d-a", "1d-b", "1d-1d", "batch", "batch"][rng.integers(7)]
            Mm, K, Nn = self.size(), self.size(p0=0.06), self.size()
            ash, bsh = [Mm, K], [K, Nn]
            if kind == "1d-a":
                ash = [K]
            elif kind == "1d-b":
                bsh = [K]
            elif kind == "1d-1d":
                ash, bsh = [K], [K]
            elif kind == "batch":
                rb = int(rng.integers(1, 3))
                full = [int(rng.integers(1, 4)) for _ in range(rb)]
                ba = [1 if rng.random() < 0.3 else d for d in full]
                bb = [1 if rng.random() < 0.3 else d for d in full]
                if rng.random() < 0.3:
                    ba = ba[int(rng.integers(0, rb + 1)):]
                elif rng.random() < 0.3:
                    bb = bb[int(rng.integers(0, rb + 1)):]
                ash, bsh = ba + ash, bb + bsh
            nb = int(np.prod(np.broadcast_shapes(tuple(ash[:-2]), tuple(bsh[:-2])), dtype=np.int64)) \
                if len(ash) > 2 or len(bsh) > 2 else 1
            if nb * Mm * Nn * max(K, 1) <= 6000 and nb * Mm * Nn <= 800:
                break
        c = Case(cid, "MatMul", opset, dtype, self.values(dtype, [ash, bsh]), {})
        r = rng.random()
        c.initializers = frozenset({1} if r < 0.35 else {0} if r < 0.45 else set())
        return c

    # ------------------------------------------------------------------ AveragePool, GlobalAveragePool
    def averagepool_case(self, cid: str, opset: int) -> Case:
        """AveragePool-1/7/10/11/19/22: 1 to 3 spatial axes (4 now and then: onnxruntime refuses),
        kernels 1 to 4, strides, dilations (19 on), pads up to the effective kernel minus 1 (so pads at
        or above kernel_shape with a dilation: onnxruntime refuses), auto_pad, ceil_mode, count_include_pad;
        only models the spec accepts (model.average_geometry: no empty window under count_include_pad 0)."""
        import model as M
        rng = self.rng
        dtype = self.dtype_for("AveragePool", opset)
        for _ in range(1000):
            ell = int(rng.choice([1, 2, 3, 4], p=[0.35, 0.45, 0.17, 0.03]))
            N = int(rng.choice([1, 2, 0], p=[0.8, 0.17, 0.03]))
            C = int(rng.choice([1, 2, 3, 0], p=[0.5, 0.3, 0.18, 0.02]))
            hiD = {1: 16, 2: 9, 3: 5, 4: 3}[ell]
            D = [int(rng.integers(1, hiD + 1)) for _ in range(ell)]
            k = [int(rng.choice([1, 2, 3, 4], p=[0.15, 0.35, 0.4, 0.1])) for _ in range(ell)]
            a = {"kernel_shape": k}
            if rng.random() < 0.45:
                a["strides"] = [int(rng.choice([1, 2, 3], p=[0.5, 0.35, 0.15])) for _ in range(ell)]
            if opset >= 19 and rng.random() < 0.3:
                a["dilations"] = [int(rng.choice([1, 2, 3], p=[0.4, 0.45, 0.15])) for _ in range(ell)]
            auto = ["NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"][rng.choice(4, p=[0.6, 0.1, 0.15, 0.15])]
            if auto != "NOTSET" or rng.random() < 0.2:
                a["auto_pad"] = auto
            if auto.startswith("SAME") and rng.random() < 0.03:
                D[int(rng.integers(ell))] = 0                 # an empty spatial axis: O_d = 0
            if auto == "NOTSET" and rng.random() < 0.7:
                dil = a.get("dilations", [1] * ell)
                e = [(k[d] - 1) * dil[d] + 1 for d in range(ell)]
                a["pads"] = [int(rng.integers(0, e[d % ell])) for d in range(2 * ell)]
            if opset >= 10 and rng.random() < 0.4:
                a["ceil_mode"] = int(rng.random() < 0.8)
            if opset >= 7 and rng.random() < 0.7:
                a["count_include_pad"] = int(rng.random() < 0.6)
            xs = [N, C] + D
            try:
                geom = M.average_geometry(xs, a)
            except M.PoolRefused:
                continue
            Ot = int(np.prod(geom[5], dtype=np.int64))
            if N * C * Ot * int(np.prod(k)) > 6000 or N * C * int(np.prod(D)) > 4000:
                continue
            break
        return Case(cid, "AveragePool", opset, dtype, self.values(dtype, [xs]), a)

    def globalaveragepool_case(self, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for("GlobalAveragePool", opset)
        ell = int(rng.choice([1, 2, 3], p=[0.3, 0.55, 0.15]))
        N = int(rng.choice([1, 2, 0], p=[0.8, 0.17, 0.03]))
        C = int(rng.choice([1, 2, 4, 0], p=[0.45, 0.3, 0.23, 0.02]))
        hiD = {1: 40, 2: 14, 3: 6}[ell]
        D = [int(rng.integers(1, hiD + 1)) for _ in range(ell)]
        return Case(cid, "GlobalAveragePool", opset, dtype, self.values(dtype, [[N, C] + D]), {})

    def case(self, index: int, ops=None) -> Case:
        names = list(ops or COMP_WEIGHTS)
        w = np.array([COMP_WEIGHTS[o] for o in names])
        op = names[self.rng.choice(len(names), p=w / w.sum())]
        versions = VERSIONS[op]
        # Gemm-1 and Gemm-6 have no ORT kernel at all: a few cases show the refusal
        w = np.array([0.3 if (op, v) in (("Gemm", 1), ("Gemm", 6)) else 1.0 for v in versions])
        opset = int(versions[self.rng.choice(len(versions), p=w / w.sum())])
        cid = f"c{index:04d}-{op}-{opset}"
        c = {"Conv": self.conv_case, "Gemm": self.gemm_case, "MatMul": self.matmul_case,
             "AveragePool": self.averagepool_case, "GlobalAveragePool": self.globalaveragepool_case}[op](cid, opset)
        c.id = f"{cid}-{c.dtype}"
        return c


ARITH_WEIGHTS = {"Add": 0.25, "Sub": 0.2, "Mul": 0.25, "Div": 0.3}
ARITH_SHARE = 0.2  # of the cases, when the arithmetic is drawn with the other families


class ArithGen(Gen):
    """Add, Sub, Mul, Div: two inputs broadcast multidirectionally (versions 7+), or by the legacy rule of
    versions 1 and 6 (broadcast 0 with equal shapes, broadcast 1 with B one element, a suffix or a run from
    `axis`); values from Gen's flavours (ties, NaNs, specials, random patterns, zeros). Integer Div gets no
    zero divisor ([Div.err.zero] is a refusal, tested elsewhere) and no -1 divisor: onnxruntime's int32 and
    int64 Div crash the process on min / -1 ([Div.div.numpy-zero])."""

    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0xA7]))

    def arith_case(self, op: str, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for(op, opset)
        attrs = {}
        if opset >= 7:
            target = self.shape(int(rng.choice(5, p=[0.1, 0.2, 0.3, 0.25, 0.15])), max_elems=512)
            shapes = []
            for _ in range(2):
                drop = int(rng.integers(0, len(target) + 1)) if rng.random() < 0.4 else 0
                sh = [d if rng.random() < 0.7 else 1 for d in target[drop:]]
                shapes.append(sh)
            k = int(rng.integers(2))  # one input keeps the target, so the broadcast shape is the target
            shapes[k] = list(target)
        else:
            a_shape = self.shape(int(rng.choice([1, 2, 3, 4], p=[0.2, 0.3, 0.3, 0.2])), max_elems=512)
            r = rng.random()
            if r < 0.3:
                b_shape, attrs = list(a_shape), ({"broadcast": 0} if rng.random() < 0.5 else {})
            elif r < 0.45:
                b_shape, attrs = [1] * int(rng.integers(0, len(a_shape) + 1)), {"broadcast": 1}
            else:
                rb = int(rng.integers(1, len(a_shape) + 1))
                s = int(rng.integers(0, len(a_shape) - rb + 1))
                b_shape = list(a_shape[s:s + rb])
                attrs = {"broadcast": 1}
                if s != len(a_shape) - rb or rng.random() < 0.3:
                    attrs["axis"] = s
            shapes = [a_shape, b_shape]
        flavour = self.flavour()
        inputs = [self.tensor(dtype, sh, flavour if rng.random() < 0.8 else self.flavour()) for sh in shapes]
        if op == "Div" and dtype in INTS:
            b = inputs[1]
            b[b == 0] = 1
            if np.iinfo(b.dtype).min < 0:
                b[b == -1] = 2
        return Case(cid, op, opset, dtype, inputs, attrs)

    def case(self, index: int, ops=None) -> Case:
        names = list(ops or ARITH_WEIGHTS)
        w = np.array([ARITH_WEIGHTS[o] for o in names])
        op = names[self.rng.choice(len(names), p=w / w.sum())]
        versions = VERSIONS[op]
        w = np.array([0.3 if v < 7 else 1.0 for v in versions])  # versions 1 and 6: no ORT kernel
        opset = int(versions[self.rng.choice(len(versions), p=w / w.sum())])
        cid = f"a{index:04d}-{op}-{opset}"
        c = self.arith_case(op, cid, opset)
        c.id = f"{cid}-{c.dtype}"
        return c


# ===================================================================== the views (issue 33)
# Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout: every output element is an input element, bit
# for bit. Valid models only: the shape / axes are drawn from the clauses (spec/ops/reshape.md ...).

_ALL_TYPES = ["bool"] + list(INTS) + ["float16", "float", "double"]


def view_types(op: str, opset: int) -> List[str]:
    """[Reshape.v5] .. [Dropout.v13]: the type constraint of each version (bfloat16 from 13)."""
    floats = op == "Dropout" or (op == "Flatten" and opset < 9)
    t = list(F3) if floats else list(_ALL_TYPES)
    return t + (["bfloat16"] if opset >= 13 else [])


CONSTRAINT.update({(op, v): view_types(op, v) for op, vs in VIEW_VERSIONS.items() for v in vs})  # the kernel table's rows


class ViewGen(Gen):
    def __init__(self, seed: int):
        super().__init__(seed)
        self.rng = np.random.Generator(np.random.PCG64([seed, 0x33]))

    def view_case(self, cid: str, op: str, opset: int) -> Case:
        rng = self.rng
        types = view_types(op, opset)
        dtype = types[int(rng.integers(len(types)))]
        rank = int(rng.integers(0, 5))
        shape = [int(rng.choice([0, 1, 1, 2, 3, 4], p=[0.04, 0.3, 0.16, 0.2, 0.15, 0.15])) for _ in range(rank)]
        x = self.tensor(dtype, shape, self.flavour())
        c = Case(cid, op, opset, dtype, [x], {})
        r = len(shape)
        if op == "Reshape":
            # a regrouping of the dimensions, then 0 where it copies and one -1 where it can be inferred
            out, k = [], 0
            while k < r:
                n = int(rng.integers(1, r - k + 1))
                out.append(int(np.prod(shape[k:k + n], dtype=np.int64)))
                k += n
                if rng.random() < 0.2:
                    out.append(1)
            s = list(out)
            for k in range(min(len(s), r)):
                if s[k] == shape[k] and rng.random() < 0.4:
                    s[k] = 0
            if s and rng.random() < 0.6:
                k = int(rng.integers(len(s)))
                others = int(np.prod([d for j, d in enumerate(out) if j != k], dtype=np.int64))
                if others != 0 and s[k] != 0:
                    s[k] = -1
            literal_zero = any(d == 0 and (k >= r or shape[k] != 0) for k, d in enumerate(out))
            if literal_zero:  # a size-0 dimension that 0 cannot copy: allowzero = 1, or one inferred -1
                s = list(out) if opset >= 14 else [-1]
            c.axes = s
            c.axes_as = "initializer" if rng.random() < 0.5 else "feed"
            if opset >= 14 and (literal_zero or rng.random() < 0.3 and 0 not in s):
                c.attrs["allowzero"] = 1
        elif op == "Flatten":
            lo = -r if opset >= 11 else 0
            # the default axis 1 is out of [Flatten.err.axis]'s range at rank 0: an axis is given there
            c.attrs["axis"] = int(rng.integers(lo, r + 1)) if rng.random() < 0.8 or r == 0 else None
        elif op in ("Squeeze", "Unsqueeze"):
            if op == "Squeeze":
                ones = [k for k in range(r) if shape[k] == 1]
                axes = [k for k in ones if rng.random() < 0.5] if rng.random() < 0.8 else None
                rr = r
            else:
                rr = r + int(rng.integers(1, 3))
                axes = sorted(int(a) for a in rng.choice(rr, size=rr - r, replace=False))
                rng.shuffle(axes)
            if axes is not None and opset >= 11:
                axes = [a - rr if rng.random() < 0.5 else a for a in axes]
            if axes is not None and (axes or op == "Unsqueeze"):
                if opset >= 13:
                    c.axes, c.axes_as = [int(a) for a in axes], "initializer"
                else:
                    c.attrs["axes"] = [int(a) for a in axes]
        elif op == "Dropout":
            if opset < 12:
                c.attrs["ratio"] = float(rng.choice([0.1, 0.5, 0.9])) if rng.random() < 0.5 else None
        return c

    def case(self, index: int, ops=None) -> Case:
        names = list(ops or VIEW_VERSIONS)
        op = names[int(self.rng.integers(len(names)))]
        versions = VIEW_VERSIONS[op]
        opset = int(versions[int(self.rng.integers(len(versions)))])
        cid = f"v{index:04d}-{op}-{opset}"
        c = self.view_case(cid, op, opset)
        c.id = f"{cid}-{c.dtype}"
        return c
# AveragePool and GlobalAveragePool (spec/ops/averagepool.md, globalaveragepool.md): drawn by CompGen,
# judged by the accuracy model with [Acc.divisor]. [AveragePool.v1] .. [AveragePool.v22], [GlobalAveragePool.v1] [GlobalAveragePool.v22]
VERSIONS.update({"AveragePool": [1, 7, 10, 11, 19, 22], "GlobalAveragePool": [1, 22]})
CONSTRAINT.update({("AveragePool", v): F3 for v in (1, 7, 10, 11, 19)})
CONSTRAINT.update({("AveragePool", 22): F3 + ["bfloat16"], ("GlobalAveragePool", 1): F3,
                   ("GlobalAveragePool", 22): F3 + ["bfloat16"]})
COMP_WEIGHTS.update({"AveragePool": 0.25, "GlobalAveragePool": 0.08})


def values_1(dtype: str, bits: int) -> float:
    """The value of one bit pattern of T (NaN for a NaN pattern)."""
    from onnxcase import to_float64
    with np.errstate(invalid="ignore"):
        return float(to_float64(dtype, from_bits(dtype, [bits]))[0])


# ====================================================================== the sums
# Sum, Mean, ReduceSum, ReduceMean: judged by the accuracy model (lib/model.py, sums_*), drawn from a
# stream of their own (SumGen), so that the cases of the other families stay those of the same seed.
SUMS_WEIGHTS = {"Sum": 0.25, "Mean": 0.25, "ReduceSum": 0.25, "ReduceMean": 0.25}
SUMS_SHARE = 0.15          # of the cases when every operator is drawn


class SumGen(CompGen):
    """Seeded random Sum / Mean / ReduceSum / ReduceMean cases: 1 to 6 inputs broadcasting (versions 8
    and 13) or of one shape; reductions of ranks 0 to 4 over random axes (negative from version 11),
    keepdims, noop_with_empty_axes and the axes input (ReduceSum 13, ReduceMean 18), empty sets; the
    values of CompGen (cancellation, absorption, NaN, infinities, signed zeros, subnormals, overflow)."""

    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0x5A75]))

    def shape_of(self, rank: int, p0=0.04) -> List[int]:
        return [self.size(hi=5, big=12, p0=p0, p1=0.2, pbig=0.1) for _ in range(rank)]

    def variadic_case(self, op: str, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for(op, opset)
        n = int(rng.choice([1, 2, 2, 3, 3, 4, 6]))
        rank = int(rng.choice([0, 1, 2, 3], p=[0.1, 0.35, 0.35, 0.2]))
        full = self.shape_of(rank)
        shapes = []
        for _ in range(n):
            if opset >= 8 and rng.random() < 0.5:       # [Sum.shape] multidirectional broadcasting
                sh = [1 if rng.random() < 0.4 else d for d in full]
                sh = sh[int(rng.integers(0, len(sh) + 1)):] if rng.random() < 0.3 else sh
            else:
                sh = list(full)
            shapes.append(sh)
        attrs = {"consumed_inputs": [0] * n} if opset == 1 and rng.random() < 0.2 else {}
        return Case(cid, op, opset, dtype, self.values(dtype, shapes), attrs)

    def reduce_case(self, op: str, cid: str, opset: int) -> Case:
        rng = self.rng
        dtype = self.dtype_for(op, opset)
        rank = int(rng.choice([0, 1, 2, 3, 4], p=[0.05, 0.2, 0.35, 0.25, 0.15]))
        shape = self.shape_of(rank, p0=0.06)
        if int(np.prod(shape, dtype=np.int64)) > 3000:
            shape = [min(d, 6) for d in shape]
        attrs = {}
        if rng.random() < 0.8:
            attrs["keepdims"] = int(rng.integers(0, 2))
        axes = None
        if rank > 0 and rng.random() < 0.8:
            k = int(rng.integers(1, rank + 1))
            chosen = sorted(rng.choice(rank, size=k, replace=False).tolist())
            if opset >= 11:
                chosen = [a - rank if rng.random() < 0.4 else a for a in chosen]
            rng.shuffle(chosen)
            axes = [int(a) for a in chosen]
        x = self.values(dtype, [shape])
        case = Case(cid, op, opset, dtype, x, attrs)
        since = 13 if op == "ReduceSum" else 18
        if op == "ReduceMean" and dtype not in FLOATS:   # [ReduceMean.err.int-empty]: valid models only
            red = range(rank) if not axes else [a % rank for a in axes]
            if any(shape[a] == 0 for a in red) and all(shape[a] for a in range(rank) if a not in red):
                shape = [max(d, 1) for d in shape]
                case.inputs = self.values(dtype, [shape])
        if opset < since:
            if axes is not None:
                attrs["axes"] = axes
        else:
            if rng.random() < 0.6:
                attrs["noop_with_empty_axes"] = int(rng.integers(0, 2))
            if axes is None and rng.random() < 0.5:
                axes = []
            case.axes = axes
            case.axes_as = "feed" if rng.random() < 0.3 else "initializer"
        return case

    def case(self, index: int, ops=None) -> Case:
        names = list(ops or SUMS_WEIGHTS)
        w = np.array([SUMS_WEIGHTS[o] for o in names])
        op = names[self.rng.choice(len(names), p=w / w.sum())]
        versions = VERSIONS[op]
        opset = int(versions[self.rng.integers(len(versions))])
        cid = f"s{index:04d}-{op}-{opset}"
        c = self.variadic_case(op, cid, opset) if op in ("Sum", "Mean") else self.reduce_case(op, cid, opset)
        c.id = f"{cid}-{c.dtype}"
        return c


# ====================================================================== data movement (issue 33)
# Cast, ConstantOfShape, Shape: judged bit for bit against lib/model.py's transcription. Drawn from a
# stream of their own (CastGen), only when --ops names them, so that the cases of the other families
# for a seed stay what they were.
CAST_WEIGHTS = {"Cast": 0.6, "ConstantOfShape": 0.2, "Shape": 0.2}
CAST_VERSIONS = {"Cast": [6, 9, 13, 19, 21], "ConstantOfShape": [9, 20, 21], "Shape": [1, 13, 15, 19, 21]}
CAST_TYPES = ["bool"] + list(INTS) + ["float16", "float", "double"]  # bfloat16: no ORT-node tensor


class CastGen(Gen):
    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0x33]))

    def case(self, index: int, ops=None) -> Case:
        from onnxcase import DTYPES
        names = list(ops or CAST_WEIGHTS)
        w = np.array([CAST_WEIGHTS[o] for o in names])
        op = names[self.rng.choice(len(names), p=w / w.sum())]
        opset = int(self.rng.choice(CAST_VERSIONS[op]))
        cid = f"m{index:04d}-{op}-{opset}"
        rng = self.rng
        if op == "Cast":
            src = CAST_TYPES[rng.integers(len(CAST_TYPES))]
            dst = CAST_TYPES[rng.integers(len(CAST_TYPES))]
            x = self.tensor(src, self.shape(int(rng.integers(0, 4))), self.flavour())
            if src in FLOATS and dst in INTS:  # [Cast.err.range] is not drawn: out-of-range elements become +0
                from onnxcase import to_float64
                bits = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32,
                        "uint64": 64}[dst]
                lo, hi = (-2.0 ** (bits - 1), 2.0 ** (bits - 1)) if dst[0] == "i" else (0.0, 2.0 ** bits)
                with np.errstate(all="ignore"):
                    t = np.trunc(to_float64(src, x))
                    bad = ~((t >= lo) & (t < hi))
                x = x.copy()
                x[bad] = 0
            c = Case(cid, "Cast", opset, src, [x], {"to": DTYPES[dst][0]})
        elif op == "Shape":
            src = CAST_TYPES[rng.integers(len(CAST_TYPES))]
            x = self.tensor(src, self.shape(int(rng.integers(0, 5))), "random")
            attrs = {}
            if opset >= 15:
                for a in ("start", "end"):
                    if rng.random() < 0.6:
                        attrs[a] = int(rng.integers(-6, 7))
            c = Case(cid, "Shape", opset, src, [x], attrs)
        else:
            shape = np.array(self.shape(int(rng.integers(0, 4))), dtype=np.int64)
            attrs = {}
            if rng.random() < 0.8:
                vt = CAST_TYPES[rng.integers(len(CAST_TYPES))]
                from onnxcase import hexs
                attrs["value"] = {"dtype": vt, "hex": hexs(vt, self.tensor(vt, [1], self.flavour()))}  # JSON-able
            c = Case(cid, "ConstantOfShape", opset, "int64", [shape], attrs)
        c.id = f"{cid}-{c.dtype}"
        return c


def generate(seed: int, n: int, ops=None) -> List[Case]:
    """n cases of seed; ops: a list of operator names to draw from (default: all of them).
    The selecting operators (Max ... GlobalMaxPool) come from Gen(seed); Conv, Gemm and MatMul from
    CompGen(seed), ids c0000-...; a stream decides, case by case, between those two (COMPUTING_SHARE of
    the cases when both are drawn). Each later family (the arithmetic, the sums, ...) has a generator
    and a stream of its own that takes its share of the cases first, in the order of FAMILIES below;
    the family drawn last among those present takes every case the others leave."""
    cast = [o for o in (ops or []) if o in CAST_WEIGHTS]  # issue 33: Cast, ConstantOfShape, Shape, only when named
    if cast:
        cg3 = CastGen(seed)
        return [cg3.case(k, cast) for k in range(n)]
    mov = [o for o in (ops or []) if o in MOVE_WEIGHTS]  # issue 33: Concat, Transpose, Gather, Slice, only when named
    if mov:
        mg, others = MoveGen(seed), [o for o in ops if o not in MOVE_WEIGHTS]
        share_m = len(mov) / len(ops)
        pick_m = np.random.Generator(np.random.PCG64([seed, 0x34])).random(n) < share_m
        rest = generate(seed, n - int(pick_m.sum()), others) if others else []
        it = iter(rest)
        return [mg.case(k, mov) if pick_m[k] else next(it) for k in range(n)]
    if ops and all(o in VIEW_VERSIONS for o in ops):  # the views: their own stream (ViewGen)
        vg = ViewGen(seed)
        return [vg.case(k, ops) for k in range(n)]
    sel = [o for o in (ops or OP_WEIGHTS) if o in OP_WEIGHTS]
    comp = [o for o in (ops or COMP_WEIGHTS) if o in COMP_WEIGHTS]
    # (operators drawn, share when other families are drawn too, stream id, generator)
    families = [
        ([o for o in (ops or ARITH_WEIGHTS) if o in ARITH_WEIGHTS], ARITH_SHARE, 0xA8, ArithGen),  # Add, Sub, Mul, Div: a0000-...
        ([o for o in (ops or SUMS_WEIGHTS) if o in SUMS_WEIGHTS], SUMS_SHARE, 0x5B, SumGen),       # Sum, Mean, ReduceSum, ReduceMean
    ]
    families = [f for f in families if f[0]]
    share = 0.0 if not comp else 1.0 if not sel else COMPUTING_SHARE
    pick = np.random.Generator(np.random.PCG64([seed, 0xFA])).random(n) < share
    picks = [np.random.Generator(np.random.PCG64([seed, sid])).random(n) < (fshare if (sel or comp or len(families) > 1) else 1.0)
             for (_, fshare, sid, _) in families]
    gens = [gen(seed) for (_, _, _, gen) in families]
    counts = [0] * len(families)
    g, cg = Gen(seed), CompGen(seed)
    out, i_sel, i_comp = [], 0, 0
    for k in range(n):
        f = next((j for j in range(len(families)) if picks[j][k]), None)
        if f is None and not (sel or comp):
            f = len(families) - 1  # no selecting or computing operator drawn: the last family takes the rest
        if f is not None:
            out.append(gens[f].case(counts[f], families[f][0]))
            counts[f] += 1
        elif pick[k]:
            out.append(cg.case(i_comp, comp))
            i_comp += 1
        else:
            out.append(g.case(i_sel, sel))
            i_sel += 1
    return out


# ====================================================================== BatchNormalization
# spec/ops/batchnormalization.md, inference only, judged by the accuracy model (lib/model.py,
# batchnorm_allowed). Drawn from its own PCG64 stream ([seed, 0xB7]): the other operators' cases of a
# seed are those they were before it was added, but for the ones a BatchNormalization case replaces
# (BATCHNORM_SHARE of them when every operator is drawn).
VERSIONS["BatchNormalization"] = [1, 6, 7, 9, 14, 15]
for _v in (1, 6, 7, 9):
    CONSTRAINT[("BatchNormalization", _v)] = F3
for _v in (14, 15):
    CONSTRAINT[("BatchNormalization", _v)] = F3 + ["bfloat16"]
BATCHNORM_SHARE = 0.05
EPSILONS = [1e-5, 1e-5, 1e-3, 1e-2, 0.0, 0.1, 1e-8]


class BatchNormGen(CompGen):
    """Seeded random BatchNormalization cases: X of rank 1 to 4, parameters per channel (spatial 0 per
    activation, versions 1 to 7), variances near epsilon, about 1e-3, negative above -epsilon, zero;
    biases of the sign opposite to a·x; X's values drawn as CompGen's flavours."""

    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0xB7]))

    def case(self, index: int) -> Case:
        from model import fmt_of, from_float64
        rng = self.rng
        versions = VERSIONS["BatchNormalization"]
        # versions 1 and 6 have no ORT kernel ([BatchNormalization.div.ort-refuses]): a few cases show the refusal
        w = np.array([0.3 if v in (1, 6) else 1.0 for v in versions])
        opset = int(versions[rng.choice(len(versions), p=w / w.sum())])
        dtype = self.dtype_for("BatchNormalization", opset)
        f = fmt_of(dtype)
        rank = int(rng.choice([1, 2, 3, 4], p=[0.1, 0.2, 0.3, 0.4]))
        shape = [int(rng.integers(1, 3))] + [int(rng.integers(1, 5)) for _ in range(rank - 1)]
        a = {}
        eps = float(EPSILONS[rng.integers(len(EPSILONS))])
        if eps != 1e-5 or rng.random() < 0.5:
            a["epsilon"] = eps
        spatial = 1
        if opset < 9 and rank >= 3 and rng.random() < 0.3:
            spatial = 0
            a["spatial"] = 0
        elif opset < 9 and rng.random() < 0.2:
            a["spatial"] = 1
        if opset == 1:
            a["consumed_inputs"] = [0, 0, 0, 1, 1]
        if opset < 7 and rng.random() < 0.7:
            a["is_test"] = 1
        if opset >= 14 and rng.random() < 0.2:
            a["training_mode"] = 0
        if rng.random() < 0.2:
            a["momentum"] = 0.99
        C = shape[1] if rank >= 2 else 1
        pshape = [C] if spatial else shape[1:]
        nparams = int(np.prod(pshape, dtype=np.int64))
        x = self.values(dtype, [shape])[0]
        scale = from_float64(dtype, np.array([self._finite(dtype, int(rng.integers(-2, 3))) for _ in range(nparams)]))
        bias = from_float64(dtype, np.array([self._finite(dtype, int(rng.integers(-3, 3))) for _ in range(nparams)]))
        mean = from_float64(dtype, np.array([self._finite(dtype, int(rng.integers(-3, 2))) for _ in range(nparams)]))
        var = []
        eps_t = float(np.float32(eps))
        for _ in range(nparams):
            kind = rng.choice(6, p=[0.45, 0.15, 0.15, 0.1, 0.1, 0.05])
            if kind == 0:
                v = abs(self._finite(dtype, int(rng.integers(-3, 3))))
            elif kind == 1:                                    # about 1e-3
                v = abs(self._finite(dtype, -10))
            elif kind == 2:                                    # near epsilon
                v = eps_t * float(rng.choice([0.0, 0.5, 1.0, 2.0]))
            elif kind == 3:
                v = 0.0
            elif kind == 4:                                    # negative, above -epsilon
                v = -eps_t * 0.5
            else:                                              # a non-finite variance, rarely
                v = float(rng.choice([math.inf, math.nan]))
            var.append(v)
        var = from_float64(dtype, np.array(var).reshape(-1))
        scale, bias, mean, var = (t.reshape(pshape) for t in (scale, bias, mean, var))
        c = Case("", "BatchNormalization", opset, dtype, [x, scale, bias, mean, var], a)
        r = rng.random()
        c.initializers = frozenset({1, 2, 3, 4}) if r < 0.4 else frozenset()
        c.id = f"b{index:04d}-BatchNormalization-{opset}-{dtype}"
        return c


import math  # noqa: E402  (BatchNormGen)

_generate_without_batchnorm = generate


def generate(seed: int, n: int, ops=None) -> List[Case]:  # noqa: F811 - BatchNormalization added to the draw
    """As before, with BatchNormalization: when `ops` names it, its cases come from BatchNormGen(seed)
    (alone, or as a share of the others); when every operator is drawn, BATCHNORM_SHARE of the cases."""
    want_bn = ops is None or "BatchNormalization" in ops
    others = None if ops is None else [o for o in ops if o != "BatchNormalization"]
    if others is not None and not others:
        bg = BatchNormGen(seed)
        return [bg.case(k) for k in range(n)]
    out = _generate_without_batchnorm(seed, n, others)
    if not want_bn:
        return out
    share = BATCHNORM_SHARE if ops is None else 1.0 / (len(others) + 1)
    pick = np.random.Generator(np.random.PCG64([seed, 0xB8])).random(n) < share
    bg = BatchNormGen(seed)
    j = 0
    for k in range(n):
        if pick[k]:
            out[k] = bg.case(j)
            j += 1
    return out


# ====================================================================== issue 32: the elementary functions
# Exp, Log, Tanh, Sigmoid (spec/ops/exp.md ... sigmoid.md), judged by the accuracy model of
# spec/common/elementary.md (lib/model.py elem_judge). Drawn from their own PCG64 stream ([seed, 0xE1]) and only
# when --ops names them, so the other campaigns' cases are unchanged. float and float16 (ORT computes float16
# with its float kernel), versions 6 and 13, and now and then version 1 (no ORT kernel: a refusal).
ELEM_VERSIONS = {"Exp": [1, 6, 13], "Log": [1, 6, 13], "Tanh": [1, 6, 13], "Sigmoid": [1, 6, 13]}
VERSIONS.update(ELEM_VERSIONS)
for _op in ELEM_VERSIONS:
    for _v in (1, 6, 13):
        CONSTRAINT[(_op, _v)] = F3 + (["bfloat16"] if _v >= 13 else [])
ELEM_TYPES_DRAWN = {"float": 0.6, "float16": 0.4}
# Where each operator's result is neither 0, 1 nor an infinity (a little beyond), per type, and the places
# where onnxruntime's kernels were measured to go astray (lib/model.py ORT_*: Log near 1, Tanh at |x| 8..10 and
# on subnormal x, Sigmoid below -15).
ELEM_RANGE = {
    "Exp": {"float": (-104.0, 89.0), "float16": (-18.0, 11.5)},
    "Tanh": {"float": (-10.0, 10.0), "float16": (-5.0, 5.0)},
    "Sigmoid": {"float": (-104.0, 18.0), "float16": (-18.0, 9.0)},
}
ELEM_HOT = {"Tanh": (8.0, 10.0), "Sigmoid": (-20.0, -15.0), "Exp": (-1.0, 1.0)}


class ElemGen(Gen):
    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0xE1]))

    def elem_value(self, op: str, dtype: str) -> float:
        """One argument: mostly finite values where the function is not trivial, some special patterns."""
        rng = self.rng
        k = rng.choice(6, p=[0.45, 0.15, 0.12, 0.1, 0.1, 0.08])
        if k == 5:  # a special pattern: NaN, +-Inf, +-0, subnormal, extreme
            sp = _specials(dtype)
            pool = sp["qnan"][:2] + sp["inf"] + sp["ninf"] + sp["p0"] + sp["n0"] + sp["sub"] + sp["ext"]
            return ("bits", pool[rng.integers(len(pool))])
        if k == 4:  # a random pattern (not NaN or Inf): every binade
            width = 16 if dtype == "float16" else 32
            while True:
                v = int(rng.integers(0, 1 << width))
                if not _is_nan_or_inf(dtype, v):
                    return ("bits", v)
        if k == 3:  # a small magnitude 2^-j
            j = int(rng.integers(1, 24 if dtype == "float16" else 140))
            return float(rng.choice([-1.0, 1.0]) * rng.uniform(1.0, 2.0) * 2.0 ** -j)
        if op == "Log":
            if k in (1, 2):  # next to 1
                return float(1.0 + rng.uniform(-2.0 ** -6, 2.0 ** -6))
            e = int(rng.integers(-24 if dtype == "float16" else -149, 16 if dtype == "float16" else 128))
            return float(rng.uniform(1.0, 2.0) * 2.0 ** e)
        if k == 1:  # the measured hot zone
            lo, hi = ELEM_HOT[op]
            return float(rng.choice([-1.0, 1.0]) * rng.uniform(lo, hi)) if op == "Tanh" else float(rng.uniform(lo, hi))
        if k == 2 and op == "Tanh" and dtype == "float":  # subnormal arguments
            return ("bits", int(rng.integers(1, 1 << 23)) | (int(rng.integers(2)) << 31))
        lo, hi = ELEM_RANGE[op][dtype]
        return float(rng.uniform(lo, hi))

    def elem_tensor(self, op: str, dtype: str, shape) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        bits = []
        ubits = np.uint16 if dtype == "float16" else np.uint32
        for _ in range(n):
            v = self.elem_value(op, dtype)
            if isinstance(v, tuple):
                bits.append(v[1])
            else:
                st = storage(dtype)
                bits.append(int(np.array([v], st).view(ubits)[0]))  # rounded to T by numpy's conversion
        return from_bits(dtype, bits, shape)

    def case(self, index: int, ops=None) -> Case:
        rng = self.rng
        names = list(ops or ELEM_VERSIONS)
        op = names[rng.integers(len(names))]
        opset = int(rng.choice([1, 6, 13], p=[0.06, 0.47, 0.47]))
        names_t = list(ELEM_TYPES_DRAWN)
        dtype = names_t[rng.choice(len(names_t), p=list(ELEM_TYPES_DRAWN.values()))]
        shape = self.shape(int(rng.choice(5, p=[0.1, 0.3, 0.3, 0.2, 0.1])), max_elems=256)
        x = self.elem_tensor(op, dtype, shape)
        attrs = {"consumed_inputs": [0]} if opset == 1 and rng.random() < 0.5 else {}
        return Case(f"e{index:04d}-{op}-{opset}-{dtype}", op, opset, dtype, [x], attrs)


_generate_without_elementary = generate


def generate(seed: int, n: int, ops=None) -> List[Case]:  # noqa: F811 - the elementary functions, when named
    """As before; when `ops` names Exp, Log, Tanh or Sigmoid, their cases come from ElemGen(seed), alone or as
    their share (len(named) / len(ops)) of the cases, decided by the stream [seed, 0xE2]."""
    el = [o for o in (ops or []) if o in ELEM_VERSIONS]
    if not el:
        return _generate_without_elementary(seed, n, ops)
    eg, others = ElemGen(seed), [o for o in ops if o not in ELEM_VERSIONS]
    if not others:
        return [eg.case(k, el) for k in range(n)]
    pick = np.random.Generator(np.random.PCG64([seed, 0xE2])).random(n) < len(el) / len(ops)
    rest = iter(_generate_without_elementary(seed, n - int(pick.sum()), others))
    out, j = [], 0
    for k in range(n):
        if pick[k]:
            out.append(eg.case(j, el))
            j += 1
        else:
            out.append(next(rest))
    return out


# ====================================================================== issue 32, second part: Sqrt, HardSigmoid,
# Softmax, LogSoftmax, LRN (spec/ops/sqrt.md ... lrn.md). Drawn from their own PCG64 stream ([seed, 0x5F]) and only
# when --ops names them (ids nNNNN-Op-opset-dtype), so every other campaign's cases are unchanged. Every version, every
# type of the version's constraint (bfloat16 from 13 / 22; ORT's refusals are measured, lib/classify.py
# NORM_REFUSALS); Sqrt judged bit for bit, the four others by their bounds (lib/classify.py classify_norm).
NORM_VERSIONS = {"Sqrt": [1, 6, 13], "HardSigmoid": [1, 6, 22], "Softmax": [1, 11, 13], "LogSoftmax": [1, 11, 13],
                 "LRN": [1, 13]}
VERSIONS.update(NORM_VERSIONS)
for _op, _vs in NORM_VERSIONS.items():
    for _v in _vs:
        CONSTRAINT[(_op, _v)] = F3 + (["bfloat16"] if _v >= 13 else [])
NORM_TYPES_DRAWN = {"float": 0.45, "float16": 0.25, "double": 0.18, "bfloat16": 0.12}
# HardSigmoid's attributes: the defaults, PyTorch's hardsigmoid (1/6, 0.5), values float16 cannot hold (0.1, 1e-3),
# a negative slope, a zero slope (0 * Inf), large ones (the saturation points close together).
HS_ALPHAS = [None, 0.2, 1.0 / 6.0, 0.1, -0.25, 0.0, 3.0, 1e-3, 1000.0, 0.5]
HS_BETAS = [None, 0.5, 0.0, 1.0, 0.3, -2.0, 0.6]
LRN_ALPHAS = [None, 1e-4, 1e-3, 0.01, 0.5, 2.0]
LRN_BETAS = [None, 0.75, 0.5, 1.0, 0.25, 2.0, -0.5]
LRN_BIASES = [None, 1.0, 2.0, 0.5, 1e-3, 10.0]


def _to_storage(dtype: str, v: np.ndarray) -> np.ndarray:
    """float64 values -> storage of T (rounded by numpy's conversion; bfloat16 by truncating float's bits)."""
    if dtype == "bfloat16":
        return (np.asarray(v, np.float64).astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    with np.errstate(over="ignore"):
        return np.asarray(v, np.float64).astype(storage(dtype))


class NormGen(Gen):
    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0x5F]))

    def special(self, dtype: str, kinds=("qnan", "inf", "ninf", "p0", "n0", "sub", "ext")) -> int:
        sp = _specials(dtype)
        pool = [b for k in kinds for b in sp[k][:2 if k == "qnan" else None]]
        return pool[self.rng.integers(len(pool))]

    def put_bits(self, dtype: str, arr: np.ndarray, k: int, bits: int) -> None:
        arr.reshape(-1)[k] = from_bits(dtype, [bits])[0]

    # ------------------------------------------------------------------ Sqrt
    def sqrt_tensor(self, dtype, shape):
        rng = self.rng
        n = int(np.prod(shape, dtype=np.int64))
        width = {"float16": 16, "bfloat16": 16, "float": 32, "double": 64}[dtype]
        out = np.zeros(n, storage(dtype))
        for k in range(n):
            w = rng.choice(5, p=[0.4, 0.2, 0.15, 0.15, 0.1])
            if w == 0:  # a random non-negative pattern: every binade, subnormals included
                b = int(rng.integers(0, 1 << (width - 1))) if width < 64 else int(rng.integers(0, 1 << 62)) * 2 + int(rng.integers(2))
                self.put_bits(dtype, out, k, b)
            elif w == 1:  # a perfect square, or next to one (ties cannot occur; exact roots)
                r = float(rng.integers(1, 300)) * 2.0 ** int(rng.integers(-12, 12))
                out[k] = _to_storage(dtype, np.array([r * r * (1 + rng.choice([0.0, 2.0 ** -20, -2.0 ** -20]))]))[0]
            elif w == 2:  # next to 1, and small magnitudes
                out[k] = _to_storage(dtype, np.array([rng.uniform(0.5, 2.0) * 2.0 ** -int(rng.integers(0, 30))]))[0]
            elif w == 3:  # negative values: a NaN
                out[k] = _to_storage(dtype, np.array([-rng.uniform(0, 100)]))[0]
            else:
                self.put_bits(dtype, out, k, self.special(dtype))
        return out.reshape(shape)

    # ------------------------------------------------------------------ HardSigmoid
    def hs_tensor(self, dtype, shape, alpha, beta):
        rng = self.rng
        a = 0.2 if alpha is None else alpha
        b = 0.5 if beta is None else beta
        n = int(np.prod(shape, dtype=np.int64))
        vals = np.zeros(n)
        special = {}
        for k in range(n):
            w = rng.choice(6, p=[0.3, 0.25, 0.15, 0.1, 0.1, 0.1])
            if w == 0 and a != 0:  # inside the ramp
                lo, hi = sorted(((0 - b) / a, (1 - b) / a))
                vals[k] = rng.uniform(lo - 0.1 * abs(hi - lo), hi + 0.1 * abs(hi - lo))
            elif w == 1 and a != 0:  # next to a saturation point (where s crosses 0 or 1)
                t = ((0 - b) / a, (1 - b) / a)[int(rng.integers(2))]
                vals[k] = t * (1 + rng.choice([-1.0, 1.0]) * 2.0 ** -int(rng.integers(8, 30))) if t != 0 else \
                    rng.choice([-1.0, 1.0]) * 2.0 ** -int(rng.integers(1, 30))
            elif w == 2:  # near 0
                vals[k] = rng.choice([-1.0, 1.0]) * rng.uniform(1, 2) * 2.0 ** -int(rng.integers(1, 40))
            elif w == 3:  # large magnitudes: saturated
                vals[k] = rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(0, 4)
            elif w == 4:
                special[k] = self.special(dtype)
            else:
                vals[k] = rng.normal(0, 4)
        out = _to_storage(dtype, vals)
        for k, bits in special.items():
            self.put_bits(dtype, out, k, bits)
        return out.reshape(shape)

    # ------------------------------------------------------------------ Softmax, LogSoftmax
    def logits(self, dtype, shape, row_axis):
        """Rows with: logits far above exp's overflow threshold (110, 1e4, +-3e38), ties, -Inf logits, rows all
        -Inf, NaN / +Inf, logits whose results are subnormal, and plain N(0, s^2) rows."""
        rng = self.rng
        n = int(np.prod(shape, dtype=np.int64))
        big = {"float16": 6e4, "bfloat16": 3e38, "float": 3e38, "double": 1e308}[dtype]
        # subnormal results: e^(x - m) below lambda_T
        sub_gap = {"float16": 16.0, "bfloat16": 90.0, "float": 95.0, "double": 715.0}[dtype]
        kind = int(rng.choice(7, p=[0.3, 0.15, 0.12, 0.12, 0.1, 0.11, 0.1]))
        sigma = float(rng.choice([0.5, 3.0, 10.0, 40.0]))
        if kind == 1:    # far above exp's overflow threshold
            off = float(rng.choice([110.0, 1e4, 1e6, big / 2]))
            vals = off + rng.normal(0, sigma, n)
        elif kind == 2:  # ties: a few distinct values repeated
            pool = rng.normal(0, sigma, int(rng.integers(1, 4)))
            vals = pool[rng.integers(len(pool), size=n)]
        elif kind == 3:  # subnormal results: some logits sub_gap + a little below the others
            vals = rng.normal(0, 1, n)
            low = rng.random(n) < 0.5
            vals[low] -= sub_gap + rng.uniform(0, 12)
        elif kind == 4:  # the extremes: +-big together (the differences overflow T)
            vals = rng.choice([-big, big, 0.0, -big / 3], size=n) * rng.uniform(0.5, 1.0, n)
        else:
            vals = rng.normal(0, sigma, n)
        out = _to_storage(dtype, vals)
        if kind >= 5 or rng.random() < 0.15:  # special elements: -Inf mostly, now and then NaN, +Inf, a row all -Inf
            flat = out.reshape(-1)
            ninf = from_bits(dtype, _specials(dtype)["ninf"])[0]
            r = rng.random()
            if r < 0.25 and n:  # a whole row of -Inf (a row along row_axis, by the caller's layout)
                x = flat.reshape(shape)
                idx = [int(rng.integers(d)) if t != row_axis else slice(None) for t, d in enumerate(shape)]
                x[tuple(idx)] = ninf
            for k in range(n):
                if rng.random() < 0.25:
                    flat[k] = ninf
                elif rng.random() < 0.03:
                    self.put_bits(dtype, flat, k, self.special(dtype, ("qnan", "inf", "sub", "n0")))
        return out.reshape(shape)

    # ------------------------------------------------------------------ LRN
    def lrn_tensor(self, dtype, shape):
        rng = self.rng
        n = int(np.prod(shape, dtype=np.int64))
        sigma = float(rng.choice([1e-3, 1.0, 10.0, 100.0] if dtype != "float16" else [1e-3, 1.0, 10.0, 40.0]))
        vals = rng.normal(0, sigma, n)
        out = _to_storage(dtype, vals)
        if rng.random() < 0.15:
            for k in range(n):
                if rng.random() < 0.05:
                    self.put_bits(dtype, out, k, self.special(dtype))
        return out.reshape(shape)

    def case(self, index: int, ops=None) -> Case:
        rng = self.rng
        names = list(ops or NORM_VERSIONS)
        op = names[rng.integers(len(names))]
        vs = NORM_VERSIONS[op]
        opset = int(rng.choice(vs, p=[0.08] + [0.92 / (len(vs) - 1)] * (len(vs) - 1)))
        tn = list(NORM_TYPES_DRAWN)
        dtype = tn[rng.choice(len(tn), p=list(NORM_TYPES_DRAWN.values()))]
        if dtype == "bfloat16" and opset < 13:
            dtype = "float"
        attrs = {}
        if op == "Sqrt":
            x = self.sqrt_tensor(dtype, self.shape(int(rng.choice(5, p=[0.1, 0.3, 0.3, 0.2, 0.1])), max_elems=256))
            if opset == 1 and rng.random() < 0.5:
                attrs["consumed_inputs"] = [0]
        elif op == "HardSigmoid":
            alpha, beta = HS_ALPHAS[rng.integers(len(HS_ALPHAS))], HS_BETAS[rng.integers(len(HS_BETAS))]
            attrs = {k: v for k, v in (("alpha", alpha), ("beta", beta)) if v is not None}
            if opset == 1 and rng.random() < 0.5:
                attrs["consumed_inputs"] = [0]
            x = self.hs_tensor(dtype, self.shape(int(rng.choice(5, p=[0.1, 0.3, 0.3, 0.2, 0.1])), max_elems=256),
                               alpha, beta)
        elif op in ("Softmax", "LogSoftmax"):
            rank = int(rng.choice([1, 2, 3, 4], p=[0.25, 0.4, 0.2, 0.15]))
            shape = self.shape(rank, max_elems=512)
            if rng.random() < 0.1:  # one long row (the summation's theta(n - 1))
                shape = [int(rng.integers(300, 1001))] if rank == 1 else [1] * (rank - 1) + [int(rng.integers(100, 500))]
            default = -1 if opset >= 13 else 1
            if rng.random() < 0.3 and (opset >= 13 or rank >= 2):
                axis = default  # the attribute absent
            else:
                axis = int(rng.integers(-rank, rank))
                attrs["axis"] = axis
            k = axis + rank if axis < 0 else axis
            x = self.logits(dtype, shape, k if opset >= 13 else rank - 1)
        else:  # LRN: (N, C, D1, ..., Dk), k = 1..3
            rank = int(rng.choice([3, 4, 5], p=[0.35, 0.5, 0.15]))
            while True:
                shape = [int(rng.integers(1, 3))] + [int(rng.integers(1, 9))] + \
                    [int(rng.integers(1, 5)) for _ in range(rank - 2)]
                if rng.random() < 0.04:
                    shape[int(rng.integers(rank))] = 0
                if int(np.prod(shape)) <= 256:
                    break
            attrs["size"] = int(rng.choice([1, 2, 3, 4, 5, 7, 9]))
            for name, pool in (("alpha", LRN_ALPHAS), ("beta", LRN_BETAS), ("bias", LRN_BIASES)):
                v = pool[rng.integers(len(pool))]
                if v is not None:
                    attrs[name] = v
            x = self.lrn_tensor(dtype, shape)
        return Case(f"n{index:04d}-{op}-{opset}-{dtype}", op, opset, dtype, [x], attrs)


_generate_without_norm = generate


def generate(seed: int, n: int, ops=None) -> List[Case]:  # noqa: F811 - Sqrt, HardSigmoid, Softmax, LogSoftmax, LRN
    """As before; when `ops` names Sqrt, HardSigmoid, Softmax, LogSoftmax or LRN, their cases come from
    NormGen(seed), alone or as their share of the cases, decided by the stream [seed, 0x5E]."""
    nm = [o for o in (ops or []) if o in NORM_VERSIONS]
    if not nm:
        return _generate_without_norm(seed, n, ops)
    ng, others = NormGen(seed), [o for o in ops if o not in NORM_VERSIONS]
    if not others:
        return [ng.case(k, nm) for k in range(n)]
    pick = np.random.Generator(np.random.PCG64([seed, 0x5E])).random(n) < len(nm) / len(ops)
    rest = iter(_generate_without_norm(seed, n - int(pick.sum()), others))
    out, j = [], 0
    for k in range(n):
        if pick[k]:
            out.append(ng.case(j, nm))
            j += 1
        else:
            out.append(next(rest))
    return out


# ====================================================================== Pow (spec/ops/pow.md)
# Drawn from its own PCG64 stream ([seed, 0x9D]) and only when --ops names it (ids pNNNN-Pow-opset-T-T1), so every
# other campaign's cases are unchanged. Every version (1, 7, 12, 13, 15); base T float, float16, double (bfloat16
# from 13, int32 / int64 from 12); exponent T1 = T (1, 7) or any type of the version (12 on; bfloat16 from 15),
# mostly the ones ORT 1.30 has a kernel for (T1 float, double, int32, int64, and float16 through an inserted Cast).
# Shapes: equal, a scalar exponent (rank 0 or [1]: ORT's x*x and x*x*x for 2 and 3), a row, a column, a scalar
# base, both broadcast; version 1 by the legacy rule. Values: exponents 2 and 3 as scalars, random reals, small
# integers with negative bases, the rows of [Pow.special] (zeros, infinities, NaN, +-1, +-Inf exponents),
# subnormal and overflowing results; integer bases with small exponents (results within int32 / int64),
# negative integer exponents (0 or +-1), real exponents (the truncation), large int64 powers beyond 2^53; a
# fifth of the integer cases hold one element [Pow.err.int-value] refuses.
POW_VERSIONS = {"Pow": [1, 7, 12, 13, 15]}
VERSIONS.update(POW_VERSIONS)
POW_INT_T1 = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def pow_types(opset: int):
    """(T, T1) of the version: [Pow.v1] .. [Pow.v15]."""
    t = F3 + (["int32", "int64"] if opset >= 12 else []) + (["bfloat16"] if opset >= 13 else [])
    t1 = None if opset < 12 else F3 + POW_INT_T1 + (["bfloat16"] if opset >= 15 else [])
    return t, t1


for _v in POW_VERSIONS["Pow"]:
    CONSTRAINT[("Pow", _v)] = pow_types(_v)[0]


class PowGen(Gen):
    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64([seed, 0x9D]))

    def pick(self, weights: dict):
        names = list(weights)
        p = np.array([weights[k] for k in names], float)
        return names[self.rng.choice(len(names), p=p / p.sum())]

    # ------------------------------------------------------------------ float values
    def float_base(self, dtype: str, mode: str) -> object:
        """One base value (a float, or ('bits', pattern))."""
        rng = self.rng
        f = {"float16": 15, "bfloat16": 127, "float": 127, "double": 1023}[dtype]
        k = self.pick({"unit": 3, "wide": 2, "special": 1.2 if mode != "special" else 5, "neg": 1.5, "one": 0.4,
                       "sub": 0.4, "near1": 0.6})
        if k == "unit":
            return float(rng.choice([-1.0, 1.0], p=[0.25, 0.75]) * rng.uniform(0.0, 4.0))
        if k == "wide":  # every binade of a quarter of the range: subnormal and overflowing results with |y| > 4
            return float(rng.choice([-1.0, 1.0], p=[0.3, 0.7]) * rng.uniform(1, 2) * 2.0 ** int(rng.integers(-f // 4, f // 4 + 1)))
        if k == "neg":
            return float(-rng.choice([rng.uniform(0, 3), float(rng.integers(1, 9)), 0.5, 2.0]))
        if k == "one":
            return float(rng.choice([1.0, -1.0]))
        if k == "near1":  # 1 +- a few ulps: huge exponents give results in range
            return ("near1",)
        sp = _specials(dtype)
        if k == "sub":
            return ("bits", sp["sub"][rng.integers(len(sp["sub"]))])
        pool = sp["p0"] + sp["n0"] + sp["inf"] + sp["ninf"] + sp["qnan"][:2] + sp["ext"]
        return ("bits", pool[rng.integers(len(pool))])

    def float_exponent(self, t1: str, mode: str) -> object:
        rng = self.rng
        if t1 in INTS:
            info = np.iinfo(storage(t1))
            k = self.pick({"small": 6, "neg": 3 if info.min < 0 else 0, "mid": 1.5, "huge": 0.5})
            if k == "small":
                v = int(rng.integers(0, 7))
            elif k == "neg":
                v = -int(rng.integers(1, 7))
            elif k == "mid":  # 7 .. 1200 in magnitude: overflowing and underflowing results
                v = int(rng.integers(7, min(int(info.max), 1200), endpoint=True))
                if info.min < 0 and rng.random() < 0.5:
                    v = -min(v, -int(info.min))
            else:
                v = int(rng.integers(info.min, info.max, endpoint=True, dtype=np.int64 if info.min < 0 else np.uint64))
            return v
        k = self.pick({"real": 4, "int": 3, "half": 1.5, "special": 1.0 if mode != "special" else 5, "big": 0.6})
        if k == "real":
            return float(rng.uniform(-8, 8) if rng.random() < 0.8 else rng.uniform(-60, 60))
        if k == "int":
            return float(rng.integers(-6, 7))
        if k == "half":
            return float(rng.choice([0.5, -0.5, 1.5, 2.5, -1.5, 1.0 / 3.0, 0.25, 0.75, 0.1]))
        if k == "big":
            return float(rng.choice([1.0, -1.0]) * rng.uniform(1, 2) * 2.0 ** int(rng.integers(8, 60)))
        sp = _specials(t1)
        pool = sp["p0"] + sp["n0"] + sp["inf"] + sp["ninf"] + sp["qnan"][:2] + [_tie_bits(t1, 1.0), _tie_bits(t1, -1.0)]
        return ("bits", pool[rng.integers(len(pool))])

    def fill(self, dtype: str, shape, draw) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        if dtype in INTS:
            return np.array([draw() for _ in range(n)], dtype=storage(dtype)).reshape(shape)
        out = np.zeros(n, storage(dtype))
        for k in range(n):
            v = draw()
            if isinstance(v, tuple) and v[0] == "near1":
                out[k] = from_bits(dtype, [_tie_bits(dtype, 1.0) + int(self.rng.integers(-4, 5))])[0]
            elif isinstance(v, tuple):
                out[k] = from_bits(dtype, [v[1]])[0]
            else:
                out[k] = _to_storage(dtype, np.array([v]))[0]
        return out.reshape(shape)

    # ------------------------------------------------------------------ integer values
    def int_pair(self, t: str, t1: str):
        """(draw base, draw exponent) for an integer base whose results stay within T."""
        rng = self.rng
        big = t == "int64"
        if t1 in INTS:
            k = self.pick({"small": 5, "neg": 2 if np.iinfo(storage(t1)).min < 0 else 0, "large": 1.5 if big else 0})
            if k == "small":
                return (lambda: int(rng.integers(-10, 11)), lambda: int(rng.integers(0, 19 if big else 10)))
            if k == "neg":
                return (lambda: int(rng.choice([-1, 1, 2, -2, 3, -7, 1000])), lambda: -int(rng.integers(1, 40)))
            # results beyond 2^53 in int64 (ORT's double: [Pow.div.ort-int])
            return (lambda: int(rng.choice([3, -3, 5, 7, -7, 11, 2, -2])), lambda: int(rng.integers(20, 40)))
        # a float exponent: non-negative bases, real or integral exponents
        k = self.pick({"real": 4, "int": 2, "special": 0.6})
        if k == "real":
            return (lambda: int(rng.integers(0, 1000)) if rng.random() < 0.7 else int(rng.integers(0, 17)),
                    lambda: float(rng.choice([0.5, 1.5, 2.5, -0.5, 0.25, 1.0 / 3.0, rng.uniform(0, 3)])))
        if k == "int":
            return (lambda: int(rng.integers(-10, 11)), lambda: float(rng.integers(0, 10)))
        return (lambda: int(rng.choice([0, 1, -1, 2, 5])),
                lambda: float(rng.choice([0.0, -0.0, math.inf, 1.0, 2.0, 3.0])) if rng.random() < 0.9 else -math.inf)

    # ------------------------------------------------------------------ shapes
    def shapes(self, opset: int):
        rng = self.rng
        kind = self.pick({"same": 3, "scalar": 3, "row": 1.5, "column": 1.5, "base-scalar": 1, "both": 1})
        if opset < 7:  # [Common.arith.legacy]
            a = self.shape(int(rng.choice([1, 2, 3], p=[0.3, 0.4, 0.3])), max_elems=128)
            if kind in ("same", "both"):
                return kind, a, list(a), ({"broadcast": 0} if rng.random() < 0.5 else {})
            if kind in ("scalar", "base-scalar"):
                return "scalar", a, [1] * int(rng.integers(0, 2)), {"broadcast": 1}
            rb = int(rng.integers(1, len(a) + 1))
            s = int(rng.integers(0, len(a) - rb + 1))
            attrs = {"broadcast": 1}
            if s != len(a) - rb or rng.random() < 0.3:
                attrs["axis"] = s
            return "legacy", a, list(a[s:s + rb]), attrs
        rank = int(rng.choice([1, 2, 3, 4], p=[0.25, 0.4, 0.25, 0.1]))
        a = self.shape(rank, max_elems=160)
        if kind == "same":
            return kind, a, list(a), {}
        if kind == "scalar":
            return kind, a, ([] if rng.random() < 0.6 else [1]), {}
        if kind == "row":
            return kind, a, [a[-1]], {}
        if kind == "column":
            return kind, a, a[:-1] + [1], {}
        if kind == "base-scalar":
            return kind, ([] if rng.random() < 0.6 else [1]), a, {}
        b = [d if rng.random() < 0.5 else 1 for d in a]
        a2 = [1 if (d != 1 and b[i] != 1 and rng.random() < 0.4) else d for i, d in enumerate(a)]
        return kind, a2, b[int(rng.integers(0, len(b))):], {}

    def case(self, index: int, ops=None) -> Case:
        import model as M  # the model decides which integer cases refuse
        rng = self.rng
        opset = int(rng.choice([1, 7, 12, 13, 15], p=[0.06, 0.2, 0.2, 0.24, 0.3]))
        ts, t1s = pow_types(opset)
        t = self.pick({d: {"float": 3, "float16": 1.5, "double": 1.5, "int32": 1.2, "int64": 1.3,
                           "bfloat16": 0.4}[d] for d in ts})
        if t1s is None:
            t1 = t
        elif t in INTS:
            t1 = self.pick({d: {"int32": 2.5, "int64": 2.5, "float": 2, "double": 1.5, "float16": 0.5}.get(d, 0.08)
                            for d in t1s})
        else:
            w = {d: {"float": 1.5, "double": 0.7, "int32": 1, "int64": 1, "float16": 0.5}.get(d, 0.1) for d in t1s}
            if t in w:  # (a bfloat16 exponent only from 15)
                w[t] = 4.5
            t1 = self.pick(w)
        kind, xs, es, attrs = self.shapes(opset)
        mode = self.pick({"plain": 5, "special": 1.5, "square": 1.5 if kind == "scalar" else 0})
        if t in INTS:
            refuse = rng.random() < 0.2
            for attempt in range(30):
                dx, de = self.int_pair(t, t1)
                x = self.fill(t, xs, dx)
                e = self.fill(t1, es, de) if mode != "square" else self.fill(t1, es, lambda: int(rng.choice([2, 3])) if t1 in INTS else float(rng.choice([2, 3])))
                c = Case("", "Pow", opset, t, [x, e], attrs, input_dtypes=[t, t1])
                ok = M.pow_model(c)[3] is None
                if ok != refuse or attempt == 29:
                    break
            if refuse and ok and x.size and e.size:  # one refusing element: 0 to a negative power, or an overflow
                x.reshape(-1)[int(rng.integers(x.size))] = 0 if t1 in INTS and np.iinfo(storage(t1)).min < 0 else 3
                e.reshape(-1)[int(rng.integers(e.size))] = -1 if t1 in INTS and np.iinfo(storage(t1)).min < 0 else \
                    (100 if t1 != "int8" else 100)
            elif not refuse and not ok:
                e[...] = 1  # x^1 = x: never refused
        else:
            x = self.fill(t, xs, lambda: self.float_base(t, mode))
            if mode == "square":
                v = float(rng.choice([2.0, 3.0]))
                e = self.fill(t1, es, (lambda: int(v)) if t1 in INTS else (lambda: v))
            else:
                e = self.fill(t1, es, lambda: self.float_exponent(t1, mode))
        return Case(f"p{index:04d}-Pow-{opset}-{t}-{t1}", "Pow", opset, t, [x, e], attrs, input_dtypes=[t, t1])


_generate_without_pow = generate


def generate(seed: int, n: int, ops=None) -> List[Case]:  # noqa: F811 - Pow, when named
    """As before; when `ops` names Pow, its cases come from PowGen(seed), alone or as its share of the cases,
    decided by the stream [seed, 0x9E]."""
    if not ops or "Pow" not in ops:
        return _generate_without_pow(seed, n, ops)
    pg, others = PowGen(seed), [o for o in ops if o != "Pow"]
    if not others:
        return [pg.case(k) for k in range(n)]
    pick = np.random.Generator(np.random.PCG64([seed, 0x9E])).random(n) < 1 / len(ops)
    rest = iter(_generate_without_pow(seed, n - int(pick.sum()), others))
    out, j = [], 0
    for k in range(n):
        if pick[k]:
            out.append(pg.case(j))
            j += 1
        else:
            out.append(next(rest))
    return out
