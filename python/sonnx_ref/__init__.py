"""sonnx-ref from Python: the reference interpreter of the SONNX profile (Max, ReduceMax, Hardmax, ...).

    import numpy as np, sonnx_ref
    out = sonnx_ref.run("examples/max_reduce_hardmax.onnx", {"X": x, "B": b})   # {name: ndarray}
    v = sonnx_ref.check(model, feeds, iut_outputs)                               # the verdict
    assert v.conforms, v.text

Everything is computed by the C++ library the ``sonnx-ref`` command line uses (``sonnx_ref._core``);
this file only adapts arguments and results.

- ``model``: a path, ``bytes``, an ``onnx.ModelProto``, or a ``sonnx_ref.Model`` (loaded once).
- ``feeds``: ``{input name: numpy array}`` or the path of a ``.npz`` / ``test_data_set_N`` folder.
  Arrays are taken as they are: no dtype conversion ([Graph.feed.dtype]). bfloat16 has no numpy
  dtype: a bfloat16 tensor is a ``uint16`` array of its bit patterns, in and out, as on the command
  line ([IO.npy.bfloat16]).
- A refused input raises ``sonnx_ref.Refused`` (a ``ValueError``) with ``.clause`` = the spec ID and
  the CLI's ``error: [ID] message`` as its text; a file that cannot be read or written raises
  ``sonnx_ref.IOFailure`` (an ``OSError``) with ``.clause``; a malformed argument ``TypeError`` or
  ``ValueError``.
"""

from __future__ import annotations

import json
import operator
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _core
from ._core import Model, supported_operators
from ._errors import IOFailure, Refused

__version__ = _core.__version__
__all__ = ["Model", "run", "check", "explain", "golden", "expose", "manifest", "supported_operators", "set_elementary_ulps", "Verdict",
           "OutputResult", "NodeResult", "Finding", "Refused", "IOFailure"]


def _is_path(x: Any) -> bool:
    return isinstance(x, (str, os.PathLike))


def _model(model: Any, partial: bool = False) -> Model:
    return model if isinstance(model, Model) else Model(model, partial=partial)


def _feeds(feeds: Any) -> Any:
    return os.fspath(feeds) if isinstance(feeds, os.PathLike) else feeds


def run(model: Any, feeds: Union[Mapping[str, Any], str, os.PathLike, None] = None) -> Dict[str, Any]:
    """Evaluates ``model`` on ``feeds``; returns ``{output name: numpy array}`` in graph output order.

    The arrays hold the library's output memory (no copy); bfloat16 outputs are ``uint16`` bits.
    The GIL is released while the operators run."""
    return _model(model).run(_feeds(feeds))


# --- check -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """One non-conforming element: its index, both values with their hex bits, and the clauses that
    determine the expected value ([Check.verdict])."""
    output: str
    index: Tuple[int, ...]
    offset: int
    expected: str
    expected_bits: str
    actual: str
    actual_bits: str
    clauses: List[str]
    reason: str


@dataclass(frozen=True)
class OutputResult:
    """The judgement of one output: ``status`` as ``check --report`` names it (``"conforms"`` when it
    conforms), ``clause`` the clause of the judgement (Check.bitwise, Check.ulp, Check.shape,
    Check.missing). ``nan_payload_only`` counts the elements that are NaN on both sides with different
    bits; ``nan_payload_notes`` lists the first of them when they conform (``nan_payload="any"``,
    [Check.nan-payload.any])."""
    name: str
    status: str
    conforms: bool
    clause: str
    detail: str
    dtype: Optional[str]
    shape: Optional[Tuple[int, ...]]
    elements: Optional[int]
    mismatches: int
    findings: List[Finding] = field(default_factory=list)
    nan_payload_only: int = 0
    nan_payload_notes: List[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class NodeResult:
    """One node of a node-wise check ([Check.nodewise]): ``status`` is ``"conforms"``, ``"differs"`` or
    ``"not judged"``; ``reason`` and ``clause`` say why it is not judged (or the refusal it differs by);
    ``outputs`` the comparison of each output the IUT gave."""
    case: str
    node: str        # "node 'n2' (MaxPool-8)"
    name: str
    op_type: str
    version: Optional[int]
    status: str
    conforms: bool
    reason: str
    clause: str
    outputs: List[OutputResult] = field(default_factory=list)

    @property
    def judged(self) -> bool:
        return self.status != "not judged"


@dataclass(frozen=True)
class Verdict:
    """The verdict of ``check`` ([Check.verdict]). ``text`` is what ``sonnx-ref check`` prints;
    ``json`` the body of its ``--report`` (without the manifest), with every field the report has.
    Node-wise ([Check.nodewise]): ``mode`` is ``"nodewise"``, ``nodes`` holds every node of every case
    and ``node_counts`` the counts of [Check.nodewise.verdict] (``judged``, ``conforming``,
    ``differing``, ``not_judged``, ``by_operator``)."""
    conforms: bool
    outputs: List[OutputResult]
    notes: List[str]
    comparison: str  # "bitwise" or "ulp"
    ulp: int
    clause: str      # Check.bitwise or Check.ulp
    text: str
    json: Dict[str, Any]
    mode: str = "model"  # "model" or "nodewise"
    nodes: List[NodeResult] = field(default_factory=list)
    node_counts: Dict[str, Any] = field(default_factory=dict)
    nan_payload: str = "any"   # "any" [Check.nan-payload.any] or "strict" [Check.nan-payload.strict]
    nan_payload_only: int = 0  # elements that differ only in NaN payload, over every case

    @property
    def findings(self) -> List[Finding]:
        """Every listed finding of every output (node-wise: of every judged node), in order."""
        return [f for o in self.outputs for f in o.findings] + [f for n in self.nodes for o in n.outputs for f in o.findings]

    def __str__(self) -> str:
        return self.text


def _verdict(text: str, body: Dict[str, Any]) -> Verdict:
    # `body` is the body of `check --report` ([Check.cases]: {"conforms", "comparison", "summary",
    # "cases": [{"name", "outputs", "nodes", "coverage", ...}]}); `outputs` lists the outputs of every
    # case, in case order.
    def clause(j: Dict[str, Any]) -> str:
        return j.get("clause", j.get("id", ""))

    def finding(o: Dict[str, Any], f: Dict[str, Any]) -> Finding:
        return Finding(o["name"], tuple(f["index"]), f["offset"], f["expected"], f["expected_bits"], f["actual"],
                       f["actual_bits"], list(f.get("clauses", f.get("ids", []))), f["reason"])

    def output(o: Dict[str, Any]) -> OutputResult:
        return OutputResult(o["name"], o["status"], o["conforms"], clause(o), o.get("detail", ""), o.get("dtype"),
                            tuple(o["shape"]) if "shape" in o else None, o.get("elements"), o.get("mismatches", 0),
                            [finding(o, f) for f in o.get("findings", [])], o.get("nan_payload_only", 0),
                            [finding(o, f) for f in o.get("nan_payload_notes", [])])

    cases = body["cases"] if "cases" in body else [body]
    outputs = [output(o) for case in cases for o in case["outputs"]]
    nodes = [NodeResult(case.get("name", ""), n["node"], n["name"], n["op_type"], n["version"], n["status"], n["conforms"],
                        n.get("reason", ""), n.get("clause", ""), [output(o) for o in n["outputs"]])
             for case in cases for n in case.get("nodewise", {}).get("nodes", [])]
    c = body["comparison"]
    notes = [n for case in cases for n in case.get("notes", [])]
    payload_only = body["summary"].get("nan_payload_only", 0) if "summary" in body else body.get("nan_payload_only", 0)
    return Verdict(body["conforms"], outputs, notes, c["mode"], c["ulp"], clause(c), text, body, body.get("mode", "model"),
                   nodes, body.get("summary", {}).get("nodes", {}), c.get("nan_payload", "any"), payload_only)


def check(model: Any, feeds: Any, actual: Any, ulp: int = 0, *, max_listed: int = 10,
          report: Union[str, os.PathLike, None] = None, junit: Union[str, os.PathLike, None] = None,
          nodes: bool = False, nan_payload: str = "any", flush_subnormals: bool = False) -> Verdict:
    """Judges an implementation's outputs ``actual`` (``{value name: array}``, or a ``.npz`` /
    ``test_data_set_N`` folder of ``output_K.pb``) against the reference's outputs for ``feeds``.
    With ``feeds`` a golden folder and ``actual`` the IUT's folder of ``test_data_set_K``, every case
    is judged ([Check.cases]); ``json["cases"]`` holds each case's outputs, node verdicts
    ([Check.attribution]) and the clauses it exercised ([Check.coverage]).

    ``ulp=0`` compares bit for bit ([Check.bitwise]: any NaN matches any NaN, +0 and -0 differ);
    ``ulp=N`` accepts floats within N steps of the total order ([Check.ulp]). ``report`` / ``junit``
    also write the JSON / JUnit reports of ``sonnx-ref check --report / --junit``; their manifest
    hashes the arguments given as paths.

    ``nodes=True`` judges node by node ([Check.nodewise]), as it is done anyway for a model with
    operators outside the spec (a real network): ``actual`` then holds the engine's intermediate values
    by name (``expose`` makes any runtime give them all), every node the spec covers is evaluated on the
    engine's own values of its inputs, and ``Verdict.nodes`` lists every node: conforms, differs (with
    its findings and clauses), or not judged with why.

    ``nan_payload="strict"`` (``--nan-payload strict``) judges NaNs bit for bit: the first NaN's sign,
    payload and signalling bit are the expected value ([Common.order.nan-payload],
    [Check.nan-payload.strict]). With the default ``"any"`` any NaN matches any NaN, and the elements
    that differ only in NaN payload are counted and listed as notes, not findings
    ([Check.nan-payload.any]): ``json["summary"]["nan_payload_only"]`` (a campaign) or
    ``json["nan_payload_only"]`` (one case), and per output ``nan_payload_only`` / ``nan_payload_notes``.

    ``flush_subnormals=True`` (``--flush-subnormals``) declares that the implementation flushes
    subnormals to zero: a computed element (Conv, Gemm, MatMul) is also accepted within R + F, F the
    flush margin of its terms ([Acc.hyp.ftz]); findings then give ``flush_margin``."""
    if nan_payload not in ("any", "strict"):
        raise ValueError(f"nan_payload must be 'strict' or 'any', got {nan_payload!r}")
    ulp = operator.index(ulp)
    if isinstance(ulp, bool) or ulp < 0:
        raise ValueError(f"ulp must be an integer >= 0, got {ulp!r}")
    max_listed = operator.index(max_listed)
    if max_listed < 0:
        raise ValueError(f"max_listed must be >= 0, got {max_listed!r}")
    files = [os.fspath(x) for x in (model, feeds, actual) if _is_path(x)]
    stem = os.path.splitext(os.path.basename(os.fspath(model)))[0] if _is_path(model) else "model"
    result = _core.check(_model(model, partial=True), _feeds(feeds), _feeds(actual), ulp, max_listed,
                         os.fspath(report) if report is not None else "", os.fspath(junit) if junit is not None else "",
                         files, stem, bool(nodes), nan_payload == "strict", bool(flush_subnormals))
    return _verdict(result.text, json.loads(result.json))


# --- explain and golden ---------------------------------------------------------------------------

def explain(model: Any, feeds: Any, output: str, index: Union[int, Sequence[int], None] = ()) -> Dict[str, Any]:
    """Why ``output[index]`` has its value: the structure ``sonnx-ref explain --json`` prints,
    ``{"chain": [{"element", "producer", "parameters", "set_name", "set_size", "set", "chosen",
    "clauses", "reason", "determining", "stop"}]}``. ``index``: a tuple of ints (``()`` or ``None``
    for a rank-0 value, an int for rank 1)."""
    if not isinstance(output, str):
        raise TypeError("output must be the name of a value of the model (str)")
    if index is None:
        index = ()
    elif not isinstance(index, (list, tuple)):
        index = (index,)
    index = [operator.index(i) for i in index]
    return json.loads(_core.explain(_model(model), _feeds(feeds), output, index))


def golden(model: Any, directory: Union[str, os.PathLike], *, seed: int = 0, cases: int = 1,
           dims: Optional[Mapping[str, int]] = None, inputs: Union[str, os.PathLike, None] = None,
           construct: bool = True, nodes: Union[bool, Sequence[str]] = False) -> List[str]:
    """Writes ``directory/model.onnx`` and ``test_data_set_0 .. cases-1`` as ``sonnx-ref golden`` does
    ([Check.golden]): the same model, seed and options give byte-identical files. ``dims`` sizes
    symbolic input dimensions (``--dim NAME=SIZE``); ``inputs`` (a ``.npz`` or ``test_data_set``
    folder) gives inputs that must not be drawn; ``construct=False`` writes only the drawn cases
    (``--no-construct``). Returns the folders written.

    ``nodes=True`` (``--nodes``), or a list of node names (``--node NAME``): one golden folder per
    node the spec covers, ``directory/<node name>``, and ``directory/nodes.json``; the model may hold
    operators outside the spec ([Check.golden-nodes]). Returns the node folders written."""
    dims = {str(k): operator.index(v) for k, v in (dims or {}).items()}
    for k, v in dims.items():
        if v < 0:
            raise ValueError(f"dims: the size of {k!r} must be >= 0, got {v}")
    if nodes is not False:
        if inputs is not None:
            raise ValueError("inputs cannot be combined with nodes: each node's inputs are drawn")
        only = [] if nodes is True else [str(n) for n in nodes]
        if nodes is not True and not only:
            raise ValueError("nodes: give True or a non-empty list of node names")
        return _core.golden_nodes(_model(model, partial=True), os.fspath(directory), operator.index(seed),
                                  operator.index(cases), dims, bool(construct), only)
    return _core.golden(_model(model), os.fspath(directory), operator.index(seed), operator.index(cases), dims,
                        os.fspath(inputs) if inputs is not None else "", bool(construct))


def expose(model: Any, *, details: bool = False) -> Any:
    """The model with every intermediate value as a graph output ([Graph.expose]), as
    ``sonnx-ref expose`` writes it: an ``onnx.ModelProto`` (``model`` may be one, a path, bytes or a
    ``Model``; any operators). Types and shapes are ONNX's own shape inference's. Any runtime run on it
    gives every value, the ``actual`` of ``check(..., nodes=True)``. With ``details=True``, returns
    ``(model, {"outputs", "added", "not_exposed"})``: the outputs in order (``output_K.pb`` is the K-th),
    the values added, and ``[(value, why)]`` for those inference could not type."""
    import onnx  # only here: the rest of the module does not need it

    data, outputs, added, not_exposed = _core.expose(_model(model, partial=True))
    proto = onnx.ModelProto()
    proto.ParseFromString(data)
    if details:
        return proto, {"outputs": list(outputs), "added": list(added), "not_exposed": [tuple(x) for x in not_exposed]}
    return proto


def set_elementary_ulps(spec: str = "") -> None:
    """[Elem.ulps] The K, in ULPs of the element type, of the implementation's exp, log, tanh and pow for the
    checks that follow, as ``check --elementary-ulps`` takes it: ``"exp=2,tanh=6"``; ``""`` restores the
    defaults. A malformed item raises Refused ([Elem.err.ulps])."""
    _core.set_elementary_ulps(spec)


def manifest(files: Sequence[Union[str, os.PathLike]] = ()) -> Dict[str, Any]:
    """The run manifest every report carries (versions, spec revision, SHA-256 of ``files``, compiler,
    platform, date, command line)."""
    return json.loads(_core.manifest([os.fspath(f) for f in files]))
