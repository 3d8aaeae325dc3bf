"""sonnx-ref as an ONNX backend (``onnx.backend.base.Backend``), so that ONNX's own backend test
runner, ``onnx.backend.test.BackendTest``, can judge it::

    import onnx.backend.test, sonnx_ref.backend
    globals().update(onnx.backend.test.BackendTest(sonnx_ref.backend.Backend, __name__).test_cases)

A model whose nodes are all operators sonnx-ref implements (Max, ReduceMax, Hardmax, and Constant
nodes, default domain) is compatible; any other model is not (``is_compatible`` is False, so the
runner skips it). Only the CPU device exists.

ONNX's conventions apply at this interface, not sonnx-ref's: inputs are positional (the graph
inputs that are not initializers, in order) or by name, and bfloat16 tensors are float32 arrays as
``onnx.numpy_helper`` gives them in onnx 1.12 (an input float32 array must hold bfloat16 values
exactly: its low 16 bits are zero; a bfloat16 output is returned as the float32 of the same value).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple

import numpy as np
import onnx
from onnx import helper
from onnx.backend.base import Backend as _OnnxBackend
from onnx.backend.base import BackendRep as _OnnxBackendRep
from onnx.backend.base import Device, DeviceType, namedtupledict

import sonnx_ref

_DEFAULT_DOMAINS = ("", "ai.onnx")


def _supported_op_types() -> set:
    return {op for op, _ in sonnx_ref.supported_operators()} | {"Constant"}


def _bfloat16_bits(a: np.ndarray, name: str) -> np.ndarray:
    a = np.ascontiguousarray(a)
    if a.dtype == np.uint16:
        return a
    if a.dtype != np.float32:
        raise TypeError(f"input '{name}' is declared bfloat16: give float32 values or uint16 bits, not {a.dtype}")
    bits = a.view(np.uint32)
    if np.any(bits & 0xFFFF):
        raise ValueError(f"input '{name}' is declared bfloat16 but holds float32 values that are not bfloat16 values")
    return (bits >> 16).astype(np.uint16)


def _tensor_type(dtype: Any) -> int:
    dtype = np.dtype(dtype)
    if hasattr(helper, "np_dtype_to_tensor_dtype"):  # onnx >= 1.13
        return helper.np_dtype_to_tensor_dtype(dtype)
    from onnx import mapping
    return mapping.NP_TYPE_TO_TENSOR_TYPE[dtype]


def _bfloat16_to_float32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


class BackendRep(_OnnxBackendRep):
    """A model prepared by sonnx-ref (loaded and checked once, run many times)."""

    def __init__(self, model: sonnx_ref.Model) -> None:
        self.model = model
        self._inputs = model.inputs
        self._declared = {v["name"]: v["dtype"] for v in self._inputs + model.overridable_inputs}
        self._outputs = model.outputs

    def run(self, inputs: Any, **kwargs: Any) -> Tuple[Any, ...]:
        if isinstance(inputs, dict):
            feeds = dict(inputs)
        else:
            if isinstance(inputs, np.ndarray):
                inputs = [inputs]
            inputs = list(inputs)
            if len(inputs) > len(self._inputs):
                raise ValueError(f"{len(inputs)} inputs given, the model has {len(self._inputs)} to feed")
            feeds = {v["name"]: x for v, x in zip(self._inputs, inputs)}
        for name, value in feeds.items():
            if self._declared.get(name) == "bfloat16":
                feeds[name] = _bfloat16_bits(np.asarray(value), name)
        outputs = self.model.run(feeds)
        values = [_bfloat16_to_float32(outputs[o["name"]]) if o["dtype"] == "bfloat16" else outputs[o["name"]]
                  for o in self._outputs]
        return namedtupledict("Outputs", [o["name"] for o in self._outputs])(*values)


class Backend(_OnnxBackend):
    """sonnx-ref behind ONNX's backend interface (prepare / run_model / run_node / supports_device)."""

    @classmethod
    def is_compatible(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> bool:
        supported = _supported_op_types()
        return all(n.domain in _DEFAULT_DOMAINS and n.op_type in supported for n in model.graph.node)

    @classmethod
    def prepare(cls, model: Any, device: str = "CPU", **kwargs: Any) -> BackendRep:
        if not cls.supports_device(device):
            raise RuntimeError(f"sonnx-ref runs on the CPU only, not on {device}")
        return BackendRep(sonnx_ref.Model(model, **kwargs))

    @classmethod
    def run_model(cls, model: Any, inputs: Any, device: str = "CPU", **kwargs: Any) -> Tuple[Any, ...]:
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node: onnx.NodeProto, inputs: Any, device: str = "CPU",
                 outputs_info: Optional[Sequence[Tuple[np.dtype, Tuple[int, ...]]]] = None,
                 **kwargs: Any) -> Tuple[Any, ...]:
        """Runs one node on ``inputs`` (positional, one per node input; or {name: array}). The node is
        put in a one-node model of opset ``opset_version`` (default: onnx's newest), whose inputs are
        declared with each array's dtype and shape, and its outputs with ``outputs_info`` or else
        with the element type of the first input (what Max, ReduceMax and Hardmax give) and no shape."""
        opset = kwargs.pop("opset_version", onnx.defs.onnx_opset_version())
        if isinstance(inputs, dict):
            arrays = [np.asarray(inputs[name]) for name in node.input if name]
        else:
            arrays = [np.asarray(x) for x in (inputs if not isinstance(inputs, np.ndarray) else [inputs])]
        names = [name for name in node.input if name]
        if len(arrays) != len(names):
            raise ValueError(f"node {node.op_type} has {len(names)} inputs, {len(arrays)} given")
        graph_inputs = [helper.make_tensor_value_info(n, _tensor_type(a.dtype), a.shape)
                        for n, a in zip(names, arrays)]
        graph_outputs = []
        for k, name in enumerate(node.output):
            if outputs_info is not None and k < len(outputs_info):
                dtype, shape = outputs_info[k]
                graph_outputs.append(helper.make_tensor_value_info(
                    name, _tensor_type(dtype), shape))
            else:  # Max, ReduceMax and Hardmax give the element type of their first input, T
                graph_outputs.append(helper.make_tensor_value_info(name, graph_inputs[0].type.tensor_type.elem_type,
                                                                   None))
        model = helper.make_model(helper.make_graph([node], "run_node", graph_inputs, graph_outputs),
                                  opset_imports=[helper.make_operatorsetid("", opset)])
        return cls.prepare(model, device, **kwargs).run(dict(zip(names, arrays)))

    @classmethod
    def supports_device(cls, device: str) -> bool:
        try:
            return Device(device).type == DeviceType.CPU
        except AttributeError:
            return False


prepare = Backend.prepare
run_model = Backend.run_model
run_node = Backend.run_node
supports_device = Backend.supports_device
is_compatible = Backend.is_compatible
