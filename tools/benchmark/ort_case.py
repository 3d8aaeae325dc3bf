"""The onnxruntime side of tools/bench: the node of one case of cases.txt as a single-node ONNX model,
fed the very inputs sonnx-bench times (`sonnx-bench CASE ELEMENTS 1 --dump inputs.npz`: the same
bytes), run by onnxruntime-node (tools/benchmark/ort_bench.mjs) in its own node process: the session
created once, then the median of REPS timed `session.run` calls, one intra-op thread; the peak
resident memory of that node process (node itself, ORT, the inputs, the outputs; /usr/bin/time's %M)
beside it.

Usage: /usr/bin/python3 ort_case.py SONNX_BENCH CASE ELEMENTS REPS
       /usr/bin/python3 ort_case.py --check      (exit 0 when node and onnxruntime-node load, else 1 and why)
Prints: median session.run ms <TAB> median kernel ms <TAB> kernel ns/element <TAB> peak MiB
    or: refused <TAB> why      (ORT refused the model or the run, e.g. no kernel for the dtype; exit 0)
    or: error <TAB> why        (node failed otherwise; exit 0: the ORT column never fails tools/bench)
session.run is the call as node makes it (ORT plus the binding: each output copied into a new JS
buffer); kernel is the node's own time by ORT's profiler (`<node>_kernel_time`), the figure to hold
against sonnx-bench's. ns/element divides the kernel time by the larger of the first output and the
first input, as sonnx-bench does.
tools/benchmark/whole.py imports ort_time() for the ORT column of `tools/bench --whole`."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
DIFF = os.path.join(HERE, "..", "..", "conformance", "differential")
ORT_TYPES = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64", np.dtype(np.float16): "float16",
             np.dtype(np.int32): "int32", np.dtype(np.uint8): "uint8", np.dtype(np.int64): "int64"}
ONNX_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float64): TensorProto.DOUBLE,
              np.dtype(np.float16): TensorProto.FLOAT16, np.dtype(np.int32): TensorProto.INT32,
              np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int64): TensorProto.INT64}


def unavailable():
    """None when node and onnxruntime-node load, else why not."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not os.path.isdir(os.path.join(DIFF, "node_modules", "onnxruntime-node")):
        return f"onnxruntime-node is not installed (conformance/differential/install)"
    r = subprocess.run(["node", "-e", "require('onnxruntime-node')"], cwd=DIFF, capture_output=True, text=True)
    if r.returncode != 0:
        return "onnxruntime-node does not load: " + (r.stderr.strip().splitlines() or ["?"])[-1]
    return None


def case_model(case, feeds):
    """The single-node model sonnx-bench's call of CASE stands for (bench.cpp), over feeds in0, in1, ...
    (operator input order, the dtypes and shapes of the dump)."""
    kind, _, rest = case.partition("-")
    x = feeds[0][1]
    names = [n for n, _ in feeds]
    attrs, inits, opset, outs = {}, [], 13, [("Y", x.dtype)]
    if kind in ("max2", "max4"):
        op = "Max"
    elif kind == "min2":
        op = "Min"
    elif kind in ("reducemax", "reducemin"):
        op, opset, attrs = "ReduceMax" if kind == "reducemax" else "ReduceMin", 18, {"keepdims": 0}
        if rest != "all-float":  # axes is an input from version 18: a constant of the model
            inits.append(numpy_helper.from_array(np.array([0 if rest == "axis0-float" else 1], np.int64), "axes"))
            names.append("axes")
    elif kind == "hardmax":
        op, attrs = "Hardmax", {"axis": -1 if rest == "last-float" else 0}
    elif kind == "hardmax11":
        op, opset, attrs = "Hardmax", 11, {"axis": 1}
    elif kind in ("argmax", "argmin"):
        op = "ArgMax" if kind == "argmax" else "ArgMin"
        attrs, outs = {"axis": -1 if rest == "last-float" else 0, "keepdims": 0}, [("Y", np.dtype(np.int64))]
    elif kind == "relu":
        op, opset = "Relu", 14
    elif kind == "clip":
        op = "Clip"
    elif kind in ("maxpool3s2", "maxpool2s2"):
        op, opset = "MaxPool", 12
        attrs = {"kernel_shape": [3, 3] if kind == "maxpool3s2" else [2, 2], "strides": [2, 2]}
        if kind == "maxpool3s2":
            attrs["pads"] = [1, 1, 1, 1]
        if rest.startswith("idx-"):
            outs.append(("I", np.dtype(np.int64)))
    elif kind == "globalmaxpool":
        op, opset = "GlobalMaxPool", 1
    elif kind in ("conv3x3", "conv7x7s2", "convdw"):  # W and B as initializers, as in a real model
        op, opset = "Conv", 11
        attrs = {"pads": [3, 3, 3, 3], "strides": [2, 2]} if kind == "conv7x7s2" else {"pads": [1, 1, 1, 1]}
        if kind == "convdw":
            attrs["group"] = 256
        inits = [numpy_helper.from_array(feeds[1][1], "in1"), numpy_helper.from_array(feeds[2][1], "in2")]
        feeds[:] = feeds[:1]
    elif kind == "gemm":
        op, inits = "Gemm", [numpy_helper.from_array(feeds[1][1], "in1"), numpy_helper.from_array(feeds[2][1], "in2")]
        feeds[:] = feeds[:1]
    elif kind == "transpose":  # issue 33 (wt-gather)
        op, attrs = "Transpose", {"perm": [1, 0] if rest == "float" else [0, 2, 1]}
    elif kind == "gather":
        op, attrs = "Gather", {"axis": 0 if rest == "rows-float" else 1}
    elif kind == "matmul":
        op = "MatMul"
    elif kind in ("add", "mul"):
        op, opset = "Add" if kind == "add" else "Mul", 14
    elif kind in ("reducemean", "reducesum"):
        op, opset, attrs = ("ReduceMean", 18, {"keepdims": 0}) if kind == "reducemean" else ("ReduceSum", 13, {"keepdims": 0})
        inits.append(numpy_helper.from_array(np.array([-1], np.int64), "axes"))
        names.append("axes")
    elif kind == "sum3":
        op = "Sum"
    elif kind == "batchnorm":  # scale, B, mean, var as initializers, as in a real model
        op, opset = "BatchNormalization", 15
        inits = [numpy_helper.from_array(feeds[k][1], f"in{k}") for k in range(1, 5)]
        feeds[:] = feeds[:1]
    elif kind == "averagepool3":
        op, opset, attrs = "AveragePool", 19, {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}
    elif kind == "globalaveragepool":
        op, opset = "GlobalAveragePool", 1
    elif kind == "softmax":  # issue 32
        op, attrs = "Softmax", {"axis": -1}
    elif kind in ("sigmoid", "exp"):
        op = "Sigmoid" if kind == "sigmoid" else "Exp"
    elif kind == "lrn":
        op, attrs = "LRN", {"size": 5}
    elif kind == "pow":
        op, opset = "Pow", 15
    else:
        raise SystemExit(f"ort_case.py: no model for case {case}")
    node = helper.make_node(op, names, [n for n, _ in outs], **attrs)
    graph = helper.make_graph([node], case, [helper.make_tensor_value_info(n, ONNX_TYPES[a.dtype], a.shape)
                                             for n, a in feeds],
                              [helper.make_tensor_value_info(n, ONNX_TYPES[t], None) for n, t in outs], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def ort_time(model_path, feeds, reps, folder, profile=True, warmup=0):
    """Runs model_path on feeds [(name, array)] in a node process: the session created once, WARMUP
    untimed then REPS timed session.run calls. Returns ("ok", median session.run ms, median kernel ms,
    output elements, peak MiB) or ("refused" | "error", why). profile=False runs without ORT's profiler
    (a whole model's inference, as a user runs it): the kernel ms is then None."""
    entries = []
    for k, (name, a) in enumerate(feeds):
        a = np.ascontiguousarray(a)
        path = os.path.join(folder, f"ort_feed_{k}.bin")
        a.tofile(path)
        entries.append({"name": name, "type": ORT_TYPES[a.dtype], "dims": list(a.shape), "file": path})
    manifest = os.path.join(folder, "ort_case.json")
    with open(manifest, "w") as f:
        json.dump({"model": model_path, "feeds": entries, "profile": profile, "warmup": warmup}, f)
    # The peak is /usr/bin/time's %M, as whole.py measures the other two sides: node's own
    # resourceUsage().maxRSS would include this Python process's high-water mark (Linux keeps
    # ru_maxrss across the exec of a process this one forks or vforks; `time` forks node afresh).
    peak_file = os.path.join(folder, "ort_peak")
    r = subprocess.run(["/usr/bin/time", "-o", peak_file, "-f", "%M", "node", "--expose-gc",
                        os.path.join(HERE, "ort_bench.mjs"), manifest, str(reps)], capture_output=True, text=True)
    for entry in entries:
        os.remove(entry["file"])
    if r.returncode != 0 or not r.stdout.strip():
        return ("error", f"node exited {r.returncode}: " + " ".join(r.stderr.strip().splitlines()[-2:])[:300])
    out = json.loads(r.stdout.strip().splitlines()[-1])
    if not out["ok"]:
        return ("refused", f"{out['stage']}: " + " ".join(out["error"].split())[:300])
    with open(peak_file) as f:
        peak_mib = int(f.read().split()[-1]) / 1024
    ms, kernel = sorted(out["ms"]), sorted(out["kernel_ms"])
    if not profile:
        return ("ok", ms[len(ms) // 2], None, out["out_elements"], peak_mib)
    if not kernel:
        return ("error", "ORT's profile holds no kernel time")
    return ("ok", ms[len(ms) // 2], kernel[len(kernel) // 2], out["out_elements"], peak_mib)


def main(argv):
    if argv == ["--check"]:
        why = unavailable()
        print(why or "onnxruntime-node loads")
        return 0 if why is None else 1
    bench, case, n, reps = argv[0], argv[1], int(argv[2]), int(argv[3])
    with tempfile.TemporaryDirectory(prefix="sonnx-ort-") as folder:
        dump = os.path.join(folder, "inputs.npz")
        r = subprocess.run([bench, case, str(n), "1", "--dump", dump], capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(dump):
            print(f"error\tsonnx-bench --dump wrote no inputs (exit {r.returncode}; a sonnx-bench older than --dump?) "
                  + r.stderr.strip()[-200:])
            return 0
        with np.load(dump) as z:
            feeds = [(f"in{k}", z[f"in{k}"]) for k in range(len(z.files))]
        os.remove(dump)
        model = os.path.join(folder, "model.onnx")
        with open(model, "wb") as f:
            f.write(case_model(case, feeds).SerializeToString())
        elements_in = feeds[0][1].size
        result = ort_time(model, feeds, reps, folder)
    if result[0] != "ok":
        print(f"{result[0]}\t{result[1]}")
        return 0
    _, ms, kernel, out_elements, peak = result
    print(f"{ms:.3f}\t{kernel:.3f}\t{kernel * 1e6 / max(out_elements, elements_in):.3f}\t{peak:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
