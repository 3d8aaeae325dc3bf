"""tools/bench --whole: whole runs, file to file. For each case, `sonnx-ref run MODEL IN.npz -o OUT.npz`
against the numpy script a user would write for the same node (np.load, the computation, np.savez),
each a fresh process timed from start to exit, with its peak resident memory (/usr/bin/time %M);
the median of REPS runs of each, side by side in one run. The outputs of both are checked to be the
same bits (the inputs hold no NaN and no signed-zero tie, where numpy's rules differ from the spec).
Beside them, onnxruntime's time for the same model and inputs (tools/benchmark/ort_case.py): the
median of REPS `session.run` calls in one node process, the session created once, and the node's
kernel time by ORT's profiler — not a whole run (no npz read or written, no process start, no session
creation; the inputs are read from raw files), with that node process's peak memory. "refused" where
ORT refuses the model.

Usage: /usr/bin/python3 whole.py SONNX_REF ELEMENTS REPS [--markdown] [--no-ort] [CASE...]
Cases: max2 reducemax-axis1 hardmax min2 reducemin-axis1 argmax argmin relu clip maxpool globalmaxpool
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ort_case  # noqa: E402

CASES = ["max2", "reducemax-axis1", "hardmax", "min2", "reducemin-axis1", "argmax", "argmin", "relu", "clip",
         "maxpool", "globalmaxpool"]


def data(shape, seed):
    rng = np.random.default_rng(seed)
    return (rng.integers(1, 2000001, size=shape) / 1000 - 1000.0005).astype(np.float32)  # no 0, no tie at 0


def model(path, op, inputs, attrs, opset, out_type=TensorProto.FLOAT):
    node = helper.make_node(op, [n for n, _ in inputs], ["Y"], **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
                          [helper.make_tensor_value_info("Y", out_type, None)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)]), path)


NUMPY = {
    "max2": "y = np.maximum(a['X'], a['B'])",
    "min2": "y = np.minimum(a['X'], a['B'])",
    "reducemax-axis1": "y = np.max(a['X'], axis=1, keepdims=True)",
    "reducemin-axis1": "y = np.min(a['X'], axis=1, keepdims=True)",
    "hardmax": "x = a['X']; y = np.zeros_like(x); np.put_along_axis(y, np.argmax(x, axis=-1)[:, None], 1, axis=-1)",
    "argmax": "y = np.argmax(a['X'], axis=1)[:, None]",
    "argmin": "y = np.argmin(a['X'], axis=1)[:, None]",
    "relu": "y = np.maximum(a['X'], np.float32(0))",
    "clip": "y = np.clip(a['X'], np.float32(-100), np.float32(100))",
    "maxpool": ("from numpy.lib.stride_tricks import sliding_window_view\n"
                "xp = np.pad(a['X'], ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)\n"
                "y = sliding_window_view(xp, (3, 3), axis=(2, 3))[:, :, ::2, ::2].max(axis=(-2, -1))"),
    "globalmaxpool": "y = np.max(a['X'], axis=(2, 3), keepdims=True)",
}


def prepare(case, n, folder):
    rows, cols = max(16, n // 4096), 4096
    feeds, inputs, attrs, opset, out_type = {}, [], {}, 13, TensorProto.FLOAT
    if case in ("maxpool", "globalmaxpool"):
        side = int(round((n / 64) ** 0.5))  # [8, 8, side, side]
        feeds["X"] = data((8, 8, side, side), 1)
        inputs = [("X", list(feeds["X"].shape))]
        op = "MaxPool" if case == "maxpool" else "GlobalMaxPool"
        if case == "maxpool":
            attrs, opset = {"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1]}, 12
    else:
        feeds["X"] = data((rows, cols), 1)
        inputs = [("X", [rows, cols])]
        op = {"max2": "Max", "min2": "Min", "reducemax-axis1": "ReduceMax", "reducemin-axis1": "ReduceMin",
              "hardmax": "Hardmax", "argmax": "ArgMax", "argmin": "ArgMin", "relu": "Relu", "clip": "Clip"}[case]
        if case in ("max2", "min2"):
            feeds["B"] = data((rows, cols), 2)
            inputs.append(("B", [rows, cols]))
        if case.startswith("reduce"):
            attrs = {"axes": [1]}
        if case in ("argmax", "argmin"):
            attrs, out_type = {"axis": 1}, TensorProto.INT64
        if case == "relu":
            opset = 14
        if case == "clip":
            feeds["lo"], feeds["hi"] = np.float32(-100), np.float32(100)
            inputs += [("lo", []), ("hi", [])]
    model(os.path.join(folder, case + ".onnx"), op, inputs, attrs, opset, out_type)
    np.savez(os.path.join(folder, case + ".in.npz"), **feeds)
    with open(os.path.join(folder, case + ".py"), "w") as f:
        f.write("import sys\nimport numpy as np\na = np.load(sys.argv[1])\n" + NUMPY[case] +
                "\nnp.savez(sys.argv[2], Y=y)\n")
    return feeds["X"].size, [(name, np.asarray(a)) for name, a in feeds.items()]


def timed(argv):
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        sys.exit(f"whole.py: {' '.join(argv)} failed: {r.stderr}")
    seconds, kib = r.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kib) / 1024


def median(xs):
    return sorted(xs)[len(xs) // 2]


def main(argv):
    sonnx, n, reps = argv[0], int(argv[1]), int(argv[2])
    markdown = "--markdown" in argv[3:]
    ort = "--no-ort" not in argv[3:]
    if ort and ort_case.unavailable():
        print(f"note: no onnxruntime column: {ort_case.unavailable()}", file=sys.stderr)
        ort = False
    cases = [c for c in argv[3:] if not c.startswith("--")] or CASES
    with tempfile.TemporaryDirectory() as folder:
        if markdown:
            print("| case | elements | sonnx-ref s | peak MiB | numpy s | peak MiB | ratio |" +
                  (" ORT run ms | ORT kernel ms | peak MiB |" if ort else ""))
            print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |" + (" ---: | ---: | ---: |" if ort else ""))
        else:
            print(f"{'case':18} {'elements':>9} | {'sonnx_s':>8} {'MiB':>7} | {'numpy_s':>8} {'MiB':>7} | {'ratio':>6}" +
                  (f" | {'ort_run_ms':>10} {'kernel_ms':>9} {'MiB':>7}" if ort else ""))
        below = 0
        for case in cases:
            elements, feeds = prepare(case, n, folder)
            base = os.path.join(folder, case)
            s = [timed([sonnx, "run", base + ".onnx", base + ".in.npz", "-o", base + ".s.npz"]) for _ in range(reps)]
            p = [timed(["/usr/bin/python3", base + ".py", base + ".in.npz", base + ".n.npz"]) for _ in range(reps)]
            ys, yn = np.load(base + ".s.npz")["Y"], np.load(base + ".n.npz")["Y"]
            if ys.shape != yn.shape or ys.tobytes() != yn.astype(ys.dtype).tobytes():
                sys.exit(f"whole.py: {case}: sonnx-ref and numpy outputs differ")
            st, sm = median([t for t, _ in s]), max(m for _, m in s)
            nt, nm = median([t for t, _ in p]), max(m for _, m in p)
            ratio = st / nt
            below += ratio <= 1.0 and sm <= nm
            o_md = o_txt = ""
            if ort:
                r = ort_case.ort_time(base + ".onnx", feeds, reps, folder)
                if r[0] == "ok":
                    o_md, o_txt = f" {r[1]:.2f} | {r[2]:.2f} | {r[4]:.0f} |", f" | {r[1]:10.2f} {r[2]:9.2f} {r[4]:7.0f}"
                else:
                    print(f"note: onnxruntime {r[0]} {case}: {r[1]}", file=sys.stderr)
                    o_md, o_txt = f" {r[0]} | | |", f" | {r[0]:>10} {'':9} {'':7}"
            del feeds
            if markdown:
                print(f"| {case} | {elements} | {st:.2f} | {sm:.0f} | {nt:.2f} | {nm:.0f} | {ratio:.2f}x |" + o_md)
            else:
                print(f"{case:18} {elements:9} | {st:8.2f} {sm:7.0f} | {nt:8.2f} {nm:7.0f} | {ratio:6.2f}" + o_txt)
        print(f"\n{below} of {len(cases)} whole runs at or below numpy's time and peak memory "
              f"(median of {reps} processes each, {n} elements; same output bits)" +
              ("; ORT: session.run and its kernel (profiler) alone, session created once, one intra-op thread: not a whole run" if ort else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
