"""One differential case: an operator node at an opset, its inputs as exact bit patterns, and the
ONNX files that describe it (model.onnx + test_data_set_0/input_K.pb).

Runs under /usr/bin/python3 (onnx 1.12, numpy 1.24). onnx 1.12 knows opsets up to 17 only; models
for ReduceMax-18/20 are built with onnx.helper all the same and never passed to the checker.

Values are numpy arrays of the *storage* type of their dtype: bfloat16 has no numpy dtype and is
held as uint16 bit patterns; every other dtype uses its numpy type. Nothing here does arithmetic on
values, so NaN payloads, signalling bits and signed zeros travel unchanged.
"""
from __future__ import annotations

import dataclasses
import os
from typing import Dict, FrozenSet, List, Optional

import numpy as np
import onnx
from onnx import TensorProto, helper

# ONNX code, numpy storage type, ORT-node tensor type (None: the Node binding has no such type).
DTYPES: Dict[str, tuple] = {
    "float": (1, np.dtype("<f4"), "float32"),
    "uint8": (2, np.dtype("u1"), "uint8"),
    "int8": (3, np.dtype("i1"), "int8"),
    "uint16": (4, np.dtype("<u2"), "uint16"),
    "int16": (5, np.dtype("<i2"), "int16"),
    "int32": (6, np.dtype("<i4"), "int32"),
    "int64": (7, np.dtype("<i8"), "int64"),
    "bool": (9, np.dtype("?"), "bool"),
    "float16": (10, np.dtype("<f2"), "float16"),
    "double": (11, np.dtype("<f8"), "float64"),
    "uint32": (12, np.dtype("<u4"), "uint32"),
    "uint64": (13, np.dtype("<u8"), "uint64"),
    "bfloat16": (16, np.dtype("<u2"), None),
}
FLOATS = ("float16", "bfloat16", "float", "double")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
CODE_TO_NAME = {v[0]: k for k, v in DTYPES.items()}
ORT_TYPE_TO_NAME = {v[2]: k for k, v in DTYPES.items() if v[2]}

# Bit layout of the float types: (unsigned view, exponent mask, fraction mask, quiet bit).
FLOAT_BITS = {
    "float16": (np.dtype("<u2"), 0x7C00, 0x03FF, 0x0200),
    "bfloat16": (np.dtype("<u2"), 0x7F80, 0x007F, 0x0040),
    "float": (np.dtype("<u4"), 0x7F800000, 0x007FFFFF, 0x00400000),
    "double": (np.dtype("<u8"), 0x7FF0000000000000, 0x000FFFFFFFFFFFFF, 0x0008000000000000),
}


def storage(dtype: str) -> np.dtype:
    return DTYPES[dtype][1]


def contig(arr: np.ndarray, dtype=None) -> np.ndarray:
    """C-contiguous array keeping the rank (np.ascontiguousarray turns rank 0 into rank 1)."""
    a = np.asarray(arr, dtype=dtype)
    return a if a.flags.c_contiguous else a.copy(order="C")


def bits_view(dtype: str, arr: np.ndarray) -> np.ndarray:
    """The unsigned-integer bit patterns of a float array (same shape)."""
    return contig(arr).view(FLOAT_BITS[dtype][0])


def from_bits(dtype: str, bits, shape=None) -> np.ndarray:
    """A float tensor from bit patterns (ints); bfloat16 stays as its uint16 bits."""
    u = np.array(bits, dtype=FLOAT_BITS[dtype][0])
    if shape is not None:
        u = u.reshape(shape)
    return u if dtype == "bfloat16" else u.view(storage(dtype))


def is_nan_bits(dtype: str, arr: np.ndarray) -> np.ndarray:
    _, e, f, _ = FLOAT_BITS[dtype]
    b = bits_view(dtype, arr).astype(np.uint64)
    return ((b & np.uint64(e)) == np.uint64(e)) & ((b & np.uint64(f)) != 0)


def to_float64(dtype: str, arr: np.ndarray) -> np.ndarray:
    """Numeric value of a float tensor as float64 (exact for all four types; NaN bits not kept)."""
    if dtype == "bfloat16":
        u = np.asarray(arr, dtype=np.uint32).reshape(-1) << np.uint32(16)
        return u.view(np.float32).astype(np.float64).reshape(np.shape(arr))
    return arr.astype(np.float64)


@dataclasses.dataclass
class Case:
    """One node applied to fixed inputs. `inputs` are the data inputs (Max: 1..n; ReduceMax,
    Hardmax: 1). `axes` is the ReduceMax-18/20 axes *input* (None: absent); `axes_as` says how it
    is given: 'initializer' or 'feed'. Attributes are given as a dict (None values are omitted)."""
    id: str
    op: str
    opset: int
    dtype: str
    inputs: List[np.ndarray]
    attrs: Dict[str, object] = dataclasses.field(default_factory=dict)
    axes: Optional[List[int]] = None
    axes_as: str = "initializer"
    note: str = ""
    # The node's input names when they are not input_names() (Clip-11+: "" for an absent min).
    node_inputs: Optional[List[str]] = None
    # 2: MaxPool with its second output Indices (int64), named "indices".
    n_outputs: int = 1
    # Indices of `inputs` stored as initializers of the model instead of graph inputs (Conv's W and
    # B, Gemm's B and C, MatMul's A or B): onnxruntime takes other kernels for constant weights.
    initializers: FrozenSet[int] = frozenset()
    # Graph inputs declared with symbolic dimensions ("d0", "d1", ...) instead of their sizes.
    symbolic_dims: bool = False
    # Integer inputs that select (Gather's indices; Slice-10+'s starts, ends, axes, steps): (name, int32
    # or int64 array), graph inputs after the data inputs (initializers in the bfloat16 ORT variant);
    # their names follow the data inputs in the node unless node_inputs says otherwise (issue 33).
    params: List[tuple] = dataclasses.field(default_factory=list)
    # The element type of each data input when they differ (Pow-12+: the exponent's own type T1); None:
    # every input of `dtype`.
    input_dtypes: Optional[List[str]] = None

    def input_names(self) -> List[str]:
        return [f"x{k}" for k in range(len(self.inputs))]

    def in_dtype(self, k: int) -> str:
        return self.input_dtypes[k] if self.input_dtypes else self.dtype

    def has_bfloat16(self) -> bool:
        return self.dtype == "bfloat16" or "bfloat16" in (self.input_dtypes or [])

    def output_names(self) -> List[str]:
        return ["y", "indices"][:self.n_outputs]


ARG_OPS = ("ArgMax", "ArgMin")


def out_dtype(case: "Case") -> str:
    """The element type of the first output: int64 for ArgMax / ArgMin, else the input's."""
    if case.op == "Cast":  # issue 33: the type `to` names
        return CODE_TO_NAME[case.attrs["to"]]
    if case.op == "ConstantOfShape":
        return case.attrs["value"]["dtype"] if "value" in case.attrs else "float"
    if case.op == "Shape":
        return "int64"
    return "int64" if case.op in ARG_OPS else case.dtype


def make_tensor(name: str, dtype: str, arr: np.ndarray) -> TensorProto:
    t = TensorProto()
    t.name = name
    t.data_type = DTYPES[dtype][0]
    t.dims.extend(int(d) for d in arr.shape)
    t.raw_data = contig(arr, storage(dtype)).tobytes()
    return t


def ir_version_for(opset: int) -> int:
    # The IR version each opset was released with (onnx/helper.py VERSION_TABLE of later releases).
    if opset <= 6:
        return 3
    if opset <= 9:
        return 4
    if opset <= 10:
        return 5
    if opset <= 11:
        return 6
    if opset <= 14:
        return 7
    if opset <= 18:
        return 8
    return 9


def build_model(case: Case, for_ort: bool = False) -> onnx.ModelProto:
    """The model of a case. With for_ort=True and a bfloat16 case, the variant that
    onnxruntime-node can run: its Node binding has no bfloat16 tensors, so the data inputs become
    initializers and the output is Cast to float (exact for bfloat16 except NaN payloads)."""
    names = case.input_names()
    embed = for_ort and case.has_bfloat16()
    inits: List[TensorProto] = []
    graph_inputs = []
    sym = iter(range(1 << 20))
    for k, (name, arr) in enumerate(zip(names, case.inputs)):
        if embed or k in case.initializers:
            inits.append(make_tensor(name, case.in_dtype(k), arr))
        else:
            dims = [f"d{next(sym)}" for _ in arr.shape] if case.symbolic_dims else list(arr.shape)
            graph_inputs.append(helper.make_tensor_value_info(name, DTYPES[case.in_dtype(k)][0], dims))
    node_inputs = list(case.node_inputs if case.node_inputs is not None else names)
    if case.axes is not None:
        axes = np.array(case.axes, dtype=np.int64)
        if case.axes_as == "feed" and not embed:
            graph_inputs.append(helper.make_tensor_value_info("axes", TensorProto.INT64, [len(case.axes)]))
        else:
            inits.append(make_tensor("axes", "int64", axes))
        node_inputs.append("axes")
    for name, arr in case.params:  # issue 33: selecting integer inputs
        pdt = "int32" if arr.dtype == np.int32 else "int64"
        if embed:
            inits.append(make_tensor(name, pdt, arr))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, DTYPES[pdt][0], list(arr.shape)))
        if case.node_inputs is None:
            node_inputs.append(name)
    attrs = {k: v for k, v in case.attrs.items() if v is not None}
    if case.op == "ConstantOfShape" and "value" in attrs:  # issue 33: the tensor attribute, kept JSON-able in the case
        v = attrs["value"]
        attrs["value"] = make_tensor("value", v["dtype"], from_hex(v["dtype"], [1], v["hex"]))
    cast = embed and out_dtype(case) == "bfloat16"
    out = "y_bf16" if cast else "y"
    nodes = [helper.make_node(case.op, node_inputs, [out] + case.output_names()[1:], **attrs)]
    if cast:
        nodes.append(helper.make_node("Cast", [out], ["y"], to=TensorProto.FLOAT))
        out_code = TensorProto.FLOAT
    else:
        out_code = DTYPES[out_dtype(case)][0]
    outputs = [helper.make_tensor_value_info("y", out_code, None)]
    if case.n_outputs == 2:
        outputs.append(helper.make_tensor_value_info("indices", TensorProto.INT64, None))
    graph = helper.make_graph(nodes, case.id.replace("/", "_"), graph_inputs, outputs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", case.opset)],
                              producer_name="sonnx-ref-differential")
    model.ir_version = ir_version_for(case.opset)
    if case.initializers and model.ir_version < 4:
        # Below IR 4 every initializer must also be a graph input, which makes it overridable and
        # so not constant for onnxruntime: IR 4 keeps a weight an initializer only.
        model.ir_version = 4
    return model


def feeds(case: Case, for_ort: bool = False) -> List[tuple]:
    """(name, dtype, array) of every graph input of the (ORT or plain) model, in graph order."""
    if for_ort and case.has_bfloat16():
        return []
    out = [(n, case.in_dtype(k), a) for k, (n, a) in enumerate(zip(case.input_names(), case.inputs))
           if k not in case.initializers]
    if case.axes is not None and case.axes_as == "feed":
        out.append(("axes", "int64", np.array(case.axes, dtype=np.int64)))
    out += [(n, "int32" if a.dtype == np.int32 else "int64", a) for n, a in case.params]  # issue 33
    return out


def write_case_folder(case: Case, folder: str) -> str:
    """ONNX backend test-case layout: folder/model.onnx + folder/test_data_set_0/input_K.pb."""
    ds = os.path.join(folder, "test_data_set_0")
    os.makedirs(ds, exist_ok=True)
    with open(os.path.join(folder, "model.onnx"), "wb") as f:
        f.write(build_model(case).SerializeToString())
    for k, (name, dtype, arr) in enumerate(feeds(case)):
        with open(os.path.join(ds, f"input_{k}.pb"), "wb") as f:
            f.write(make_tensor(name, dtype, arr).SerializeToString())
    return folder


def hexs(dtype: str, arr: np.ndarray) -> str:
    return contig(arr, storage(dtype)).tobytes().hex()


def from_hex(dtype: str, dims, hx: str) -> np.ndarray:
    return np.frombuffer(bytes.fromhex(hx), dtype=storage(dtype)).reshape([int(d) for d in dims]).copy()


def fmt_value(dtype: str, one: np.ndarray) -> str:
    """One element (a 1-element array of the storage type) as 'hex (decimal)'."""
    one = contig(one, storage(dtype)).reshape(1)
    if dtype in FLOATS:
        width = {"float16": 4, "bfloat16": 4, "float": 8, "double": 16}[dtype]
        u = int(bits_view(dtype, one)[0])
        neg = "-" if u >> (width * 4 - 1) else ""
        if is_nan_bits(dtype, one)[0]:
            dec = f"{neg}{'q' if u & FLOAT_BITS[dtype][3] else 's'}NaN"
        else:
            val = float(to_float64(dtype, one)[0])
            dec = repr(val) if val != 0 else f"{neg or '+'}0.0"
        return f"0x{u:0{width}x} ({dec})"
    v = one[0]
    if dtype == "bool":
        return f"0x{int(bool(v)):02x} ({bool(v)})"
    size = storage(dtype).itemsize
    return f"0x{int(v) & ((1 << (8 * size)) - 1):0{2 * size}x} ({int(v)})"


def fmt_tensor(dtype: str, arr: np.ndarray, limit: int = 16) -> str:
    flat = contig(arr).reshape(-1)
    items = [fmt_value(dtype, flat[i:i + 1]) for i in range(min(flat.size, limit))]
    more = f", ... ({flat.size} elements)" if flat.size > limit else ""
    return f"shape {list(arr.shape)} [{', '.join(items)}{more}]"
