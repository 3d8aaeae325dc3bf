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
            "MaxPool": [1, 8, 10, 11, 12, 22], "GlobalMaxPool": [1, 22]}
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


def _tie_bits(dtype: str, v: float) -> int:
    if dtype == "bfloat16":
        return int(np.array([v], "<f4").view("<u4")[0] >> 16)
    np_t = {"float16": "<f2", "float": "<f4", "double": "<f8"}[dtype]
    u = {"float16": "<u2", "float": "<u4", "double": "<u8"}[dtype]
    return int(np.array([v], np_t).view(u)[0])


def _is_nan_or_inf(dtype: str, v: int) -> bool:
    exp = {"float16": 0x7C00, "bfloat16": 0x7F80, "float": 0x7F800000, "double": 0x7FF0000000000000}[dtype]
    return (v & exp) == exp


def generate(seed: int, n: int, ops=None) -> List[Case]:
    """n cases of seed; ops: a list of operator names to draw from (default: all eleven)."""
    g = Gen(seed)
    return [g.case(i, ops) for i in range(n)]
