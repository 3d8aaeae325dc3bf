"""sonnx-ref from Python: the reference interpreter of the SONNX profile (Max, ReduceMax, Hardmax).

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
__all__ = ["Model", "run", "check", "explain", "golden", "manifest", "supported_operators", "Verdict",
           "OutputResult", "Finding", "Refused", "IOFailure"]


def _is_path(x: Any) -> bool:
    return isinstance(x, (str, os.PathLike))


def _model(model: Any) -> Model:
    return model if isinstance(model, Model) else Model(model)


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
    Check.missing)."""
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


@dataclass(frozen=True)
class Verdict:
    """The verdict of ``check`` ([Check.verdict]). ``text`` is what ``sonnx-ref check`` prints;
    ``json`` the body of its ``--report`` (without the manifest), with every field the report has."""
    conforms: bool
    outputs: List[OutputResult]
    notes: List[str]
    comparison: str  # "bitwise" or "ulp"
    ulp: int
    clause: str      # Check.bitwise or Check.ulp
    text: str
    json: Dict[str, Any]

    @property
    def findings(self) -> List[Finding]:
        """Every listed finding of every output, in output order."""
        return [f for o in self.outputs for f in o.findings]

    def __str__(self) -> str:
        return self.text


def _verdict(text: str, body: Dict[str, Any]) -> Verdict:
    # `body` is the body of `check --report` ([Check.cases]: {"conforms", "comparison", "summary",
    # "cases": [{"name", "outputs", "nodes", "coverage", ...}]}); `outputs` lists the outputs of every
    # case, in case order.
    def clause(j: Dict[str, Any]) -> str:
        return j.get("clause", j.get("id", ""))

    outputs = []
    cases = body["cases"] if "cases" in body else [body]
    for o in (o for case in cases for o in case["outputs"]):
        findings = [Finding(o["name"], tuple(f["index"]), f["offset"], f["expected"], f["expected_bits"], f["actual"],
                            f["actual_bits"], list(f.get("clauses", f.get("ids", []))), f["reason"])
                    for f in o.get("findings", [])]
        outputs.append(OutputResult(o["name"], o["status"], o["conforms"], clause(o), o.get("detail", ""), o.get("dtype"),
                                    tuple(o["shape"]) if "shape" in o else None, o.get("elements"),
                                    o.get("mismatches", 0), findings))
    c = body["comparison"]
    notes = [n for case in cases for n in case.get("notes", [])]
    return Verdict(body["conforms"], outputs, notes, c["mode"], c["ulp"], clause(c), text, body)


def check(model: Any, feeds: Any, actual: Any, ulp: int = 0, *, max_listed: int = 10,
          report: Union[str, os.PathLike, None] = None, junit: Union[str, os.PathLike, None] = None) -> Verdict:
    """Judges an implementation's outputs ``actual`` (``{value name: array}``, or a ``.npz`` /
    ``test_data_set_N`` folder of ``output_K.pb``) against the reference's outputs for ``feeds``.
    With ``feeds`` a golden folder and ``actual`` the IUT's folder of ``test_data_set_K``, every case
    is judged ([Check.cases]); ``json["cases"]`` holds each case's outputs, node verdicts
    ([Check.attribution]) and the clauses it exercised ([Check.coverage]).

    ``ulp=0`` compares bit for bit ([Check.bitwise]: any NaN matches any NaN, +0 and -0 differ);
    ``ulp=N`` accepts floats within N steps of the total order ([Check.ulp]). ``report`` / ``junit``
    also write the JSON / JUnit reports of ``sonnx-ref check --report / --junit``; their manifest
    hashes the arguments given as paths."""
    ulp = operator.index(ulp)
    if isinstance(ulp, bool) or ulp < 0:
        raise ValueError(f"ulp must be an integer >= 0, got {ulp!r}")
    max_listed = operator.index(max_listed)
    if max_listed < 0:
        raise ValueError(f"max_listed must be >= 0, got {max_listed!r}")
    files = [os.fspath(x) for x in (model, feeds, actual) if _is_path(x)]
    stem = os.path.splitext(os.path.basename(os.fspath(model)))[0] if _is_path(model) else "model"
    result = _core.check(_model(model), _feeds(feeds), _feeds(actual), ulp, max_listed,
                         os.fspath(report) if report is not None else "", os.fspath(junit) if junit is not None else "",
                         files, stem)
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
           construct: bool = True) -> List[str]:
    """Writes ``directory/model.onnx`` and ``test_data_set_0 .. cases-1`` as ``sonnx-ref golden`` does
    ([Check.golden]): the same model, seed and options give byte-identical files. ``dims`` sizes
    symbolic input dimensions (``--dim NAME=SIZE``); ``inputs`` (a ``.npz`` or ``test_data_set``
    folder) gives inputs that must not be drawn; ``construct=False`` writes only the drawn cases
    (``--no-construct``). Returns the folders written."""
    dims = {str(k): operator.index(v) for k, v in (dims or {}).items()}
    for k, v in dims.items():
        if v < 0:
            raise ValueError(f"dims: the size of {k!r} must be >= 0, got {v}")
    return _core.golden(_model(model), os.fspath(directory), operator.index(seed), operator.index(cases), dims,
                        os.fspath(inputs) if inputs is not None else "", bool(construct))


def manifest(files: Sequence[Union[str, os.PathLike]] = ()) -> Dict[str, Any]:
    """The run manifest every report carries (versions, spec revision, SHA-256 of ``files``, compiler,
    platform, date, command line)."""
    return json.loads(_core.manifest([os.fspath(f) for f in files]))
