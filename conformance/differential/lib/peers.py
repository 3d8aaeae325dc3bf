"""The two sides of a differential run, each one function over a batch of cases:

  run_ort(cases, workdir)        onnxruntime-node, all cases in one node process
  run_sonnx_ref(cases, workdir)  sonnx-ref, on ONNX test-case folders

Both return {case_id: Outcome}. An Outcome is either outputs (a numpy array in the case's storage
type) or a refusal (stage + message; for sonnx-ref also the cited spec ID).
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from typing import Dict, List, Optional

import numpy as np

from onnxcase import (DTYPES, contig, ORT_TYPE_TO_NAME, Case, build_model, feeds, from_hex, hexs, out_dtype,
                      write_case_folder)

HERE = os.path.dirname(os.path.abspath(__file__))
DIFF_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(DIFF_DIR))


@dataclasses.dataclass
class Outcome:
    ok: bool
    y: Optional[np.ndarray] = None      # output in the case's storage type
    stage: str = ""                     # when not ok: load / run / crash / refused / missing
    error: str = ""
    spec_id: str = ""                   # sonnx-ref: the [ID] of its refusal
    nan_bits_observable: bool = True    # False when the peer's NaN bits cannot be seen (ORT bfloat16)
    extra: Optional[List[np.ndarray]] = None  # the outputs after the first (MaxPool's Indices, int64)


# ----------------------------------------------------------------------------------------- ORT

def ort_available() -> Optional[str]:
    """None when node and onnxruntime-node are usable, else the reason."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not os.path.isdir(os.path.join(DIFF_DIR, "node_modules", "onnxruntime-node")):
        return f"onnxruntime-node is not installed (run {os.path.join(DIFF_DIR, 'install')})"
    return None


def _ort_outputs(case: Case, outs: list) -> Outcome:
    first = _ort_output(case, outs[0])
    if not first.ok or case.n_outputs == 1:
        return first
    if len(outs) < 2 or outs[1]["type"] != "int64":
        return Outcome(False, stage="run", error="ORT returned no int64 second output")
    first.extra = [from_hex("int64", outs[1]["dims"], outs[1]["hex"])]
    return first


def _ort_output(case: Case, out: dict) -> Outcome:
    name = ORT_TYPE_TO_NAME.get(out["type"])
    if out_dtype(case) == "bfloat16":
        # The ORT model Casts the bfloat16 result to float: exact for every non-NaN value; the
        # upper 16 bits are the bfloat16 pattern. NaN payloads do not survive the Cast.
        f = from_hex("float", out["dims"], out["hex"])
        return Outcome(True, (f.view(np.uint32) >> 16).astype(np.uint16), nan_bits_observable=False)
    if name != out_dtype(case):
        return Outcome(False, stage="run", error=f"ORT returned {out['type']} for {out_dtype(case)}")
    return Outcome(True, from_hex(name, out["dims"], out["hex"]))


# A case that gives no result within this many seconds is recorded as a timeout (stage "timeout")
# and the batch goes on with the next case: onnxruntime 1.30 never returns from some Conv models
# ([Conv.div.ort-empty-channels]: C = 0 with padding). Every other case takes well under a second.
CASE_TIMEOUT = 10


def _run_node_watched(cmd, rpath: str, epath: str) -> bool:
    """Runs the ORT runner; kills it when its results file has not grown for CASE_TIMEOUT seconds.
    True when it had to be killed."""
    import time
    with open(epath, "w") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        size = os.path.getsize(rpath) if os.path.exists(rpath) else 0
        last = time.time()
        while proc.poll() is None:
            time.sleep(0.05)
            now_size = os.path.getsize(rpath) if os.path.exists(rpath) else 0
            if now_size != size:
                size, last = now_size, time.time()
            elif time.time() - last > CASE_TIMEOUT:
                proc.kill()
                proc.wait()
                return True
    return False


def run_ort(cases: List[Case], workdir: str, keep_optimized: bool = False) -> Dict[str, Outcome]:
    """keep_optimized: ORT also writes the graph it runs to WORKDIR/<id>.optimized.onnx."""
    os.makedirs(workdir, exist_ok=True)
    manifest = []
    for c in cases:
        path = os.path.join(workdir, f"{c.id.replace('/', '_')}.ort.onnx")
        with open(path, "wb") as f:
            f.write(build_model(c, for_ort=True).SerializeToString())
        entry = {"id": c.id, "model": path, "feeds": [
            {"name": n, "type": DTYPES[d][2], "dims": list(a.shape), "hex": hexs(d, a)}
            for n, d, a in feeds(c, for_ort=True)]}
        if keep_optimized:
            entry["optimized"] = path.replace(".ort.onnx", ".optimized.onnx")
        manifest.append(entry)
    mpath = os.path.join(workdir, "ort-manifest.json")
    rpath = os.path.join(workdir, "ort-results.jsonl")
    with open(mpath, "w") as f:
        json.dump(manifest, f)
    if os.path.exists(rpath):
        os.remove(rpath)
    results: Dict[str, dict] = {}
    crashed: Dict[str, str] = {}
    skip = 0
    epath = os.path.join(workdir, "ort-stderr.txt")
    while skip < len(cases):
        hung = _run_node_watched(["node", os.path.join(HERE, "ort_runner.mjs"), mpath, rpath, "--skip", str(skip)],
                                 rpath, epath)
        with open(rpath) as f:
            lines = [json.loads(l) for l in f if l.strip()]
        done = len(lines)
        if done >= len(cases):
            break
        # The process ended before the batch: the case at `done` brought node down, or never ended.
        with open(epath) as f:
            err = f.read().strip()[-300:]
        stage = "timeout" if hung else "crash"
        crashed[cases[done].id] = (f"no result after {CASE_TIMEOUT} s (node killed)" if hung else
                                   f"node exited: {err}")
        with open(rpath, "a") as f:
            f.write(json.dumps({"id": cases[done].id, "ok": False, "stage": stage,
                                "error": crashed[cases[done].id]}) + "\n")
        skip = done + 1
    with open(rpath) as f:
        for line in f:
            r = json.loads(line)
            results[r["id"]] = r
    out: Dict[str, Outcome] = {}
    for c in cases:
        r = results[c.id]
        if not r["ok"]:
            out[c.id] = Outcome(False, stage=r["stage"], error=r["error"])
        else:
            out[c.id] = _ort_outputs(c, r["outputs"])
    return out


# ----------------------------------------------------------------------------------- sonnx-ref

def sonnx_ref_binary() -> Optional[str]:
    """$SONNX_REF, else <repo>/build/sonnx-ref (../../build/sonnx-ref from this folder)."""
    env = os.environ.get("SONNX_REF")
    if env:
        return env if os.access(env, os.X_OK) else None
    default = os.path.normpath(os.path.join(DIFF_DIR, "..", "..", "build", "sonnx-ref"))
    return default if os.access(default, os.X_OK) else None


def sonnx_ref_has_run(binary: str) -> bool:
    p = subprocess.run([binary, "run", "--help"], capture_output=True, text=True)
    return p.returncode == 0 and "not implemented" not in (p.stdout + p.stderr)


_ID_RE = re.compile(r"error: \[((?:Common|Graph|IO|Max|ReduceMax|Hardmax|Min|ReduceMin|ArgMax|ArgMin|Relu|Clip|MaxPool|"
                    r"GlobalMaxPool|Conv|Gemm|MatMul|Pow|Elem|Add|Sub|Mul|Div|Sum|Mean|ReduceSum|ReduceMean|AveragePool|GlobalAveragePool|BatchNormalization|Concat|Reshape|Flatten|Transpose|Squeeze|Unsqueeze|Identity|Dropout|ConstantOfShape|Shape|Gather|Slice|Cast|Acc|Check)(?:\.[a-z0-9][a-z0-9-]*)+)\]")


def _run_one_sonnx_ref(binary: str, case: Case, folder: str) -> Outcome:
    """One case through `sonnx-ref run MODEL DIR -o out.npz`.
    To switch to batch mode (`sonnx-ref conformance`), replace run_sonnx_ref below; the folders
    written by write_case_folder are already ONNX backend test cases."""
    write_case_folder(case, folder)
    out_npz = os.path.join(folder, "sonnx-ref-out.npz")
    # Opset 22 (MaxPool-22, GlobalMaxPool-22) is above the reviewed opset ([Graph.opset.reviewed]).
    reviewed = ["--assume-opset-reviewed"] if case.opset > 21 else []
    p = subprocess.run([binary, "run", os.path.join(folder, "model.onnx"),
                        os.path.join(folder, "test_data_set_0"), "-o", out_npz] + reviewed,
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        m = _ID_RE.search(p.stderr)
        stage = "refused" if p.returncode == 3 and m else "crash"  # 3: refused by a spec clause (spec/README.md, section 7)
        return Outcome(False, stage=stage, error=p.stderr.strip()[-500:] or f"exit {p.returncode}",
                       spec_id=m.group(1) if m else "")
    try:
        with np.load(out_npz) as z:
            ys = [z[n] for n in case.output_names()]
    except Exception as e:  # noqa: BLE001 - any unreadable output is reported, not raised
        return Outcome(False, stage="crash", error=f"unreadable {out_npz}: {e}")
    got = []
    for y, dt in zip(ys, [out_dtype(case)] + ["int64"] * (len(ys) - 1)):
        want = DTYPES[dt][1]
        if y.dtype.newbyteorder("<") != want.newbyteorder("<") and not (y.dtype.itemsize == want.itemsize and y.dtype.kind in "uiV"):
            return Outcome(False, stage="crash", error=f"sonnx-ref wrote {y.dtype} for {dt}")
        got.append(contig(y).view(want).reshape(y.shape) if y.dtype != want else y)
    return Outcome(True, got[0], extra=got[1:] or None)


def run_sonnx_ref(cases: List[Case], workdir: str, binary: Optional[str] = None,
                  jobs: int = 2) -> Dict[str, Outcome]:
    binary = binary or sonnx_ref_binary()
    if binary is None:
        return {c.id: Outcome(False, stage="missing", error="sonnx-ref binary not found") for c in cases}
    from concurrent.futures import ThreadPoolExecutor
    def one(c: Case):
        return c.id, _run_one_sonnx_ref(binary, c, os.path.join(workdir, c.id.replace("/", "_")))
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        return dict(ex.map(one, cases))
