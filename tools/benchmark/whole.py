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

Shared models (issue 34): one row per model of ../shared next to the checkout (never part of it;
a case whose model is absent is skipped with a message), for the node-wise check of a real network:
  - run: `sonnx-ref run MODEL IN.npz -o OUT.npz`, a fresh process each time, median of REPS, peak RSS;
  - check: `sonnx-ref check X.onnx IN.npz VALUES.npz` on the exposed model (`sonnx-ref expose MODEL -o
    X.onnx`) and onnxruntime's dump of every value (props/realmodel/ort-dump X.onnx -o DIR, seed 0:
    DIR/inputs.npz, DIR/values.npz), both prepared once and not timed; median of REPS processes, peak
    RSS, and its exit code, which must be 0 (every judged node conforms; else the row says so and
    whole.py exits 1). The openWakeWord classifiers are checked with `--elementary-ulps exp=64`:
    onnxruntime's Sigmoid is outside the default K of exp ([Elem.ulps]), declared as an engine would;
  - ORT: onnxruntime's inference of the same model (not exposed) on the same inputs, one intra-op
    thread, the session created once, one untimed warm-up call, then the median of REPS session.run
    calls, without ORT's profiler, with that node process's peak RSS;
  - the ratios check s / ORT inference s and run s / ORT inference s, and "values MiB": the bytes of
    every value of the graph once (graph inputs, initializers, Constant and ConstantOfShape outputs,
    every node output: the dump of the exposed model, the initializers, and a Dropout mask expose cannot
    type as a bool tensor of its input's shape), with check's peak / values MiB, and the same with the
    peak of a sonnx-ref process that does nothing (`sonnx-ref --version`, about 11 MiB) taken off.
  There is no numpy side for these rows ("—"). Goals of issue 34: check within 20x of ORT's inference,
  check's peak at most 2x the values.

Usage: /usr/bin/python3 whole.py SONNX_REF ELEMENTS REPS [--markdown] [--no-ort] [CASE...]
Cases: max2 reducemax-axis1 hardmax min2 reducemin-axis1 argmax argmin relu clip maxpool globalmaxpool
       (the default); shared models: squeezenet alexnet vgg19 hello_deepa hello_deepa_old namaste_deepa
       ("models": all six)
Exit status: 0; 1 when a check of a shared model does not exit 0 (it still prints every row); 2 an
unknown case (nothing is run).
"""
import os
import subprocess
import sys
import tempfile
import time
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ort_case  # noqa: E402

CASES = ["max2", "reducemax-axis1", "hardmax", "min2", "reducemin-axis1", "argmax", "argmin", "relu", "clip",
         "maxpool", "globalmaxpool"]
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(TOP), "shared")  # ../shared next to the checkout, never committed
# Shared models (issue 34): case -> (path under SHARED, check's declarations)
OWW = ["--elementary-ulps", "exp=64"]  # onnxruntime's Sigmoid is outside the default K of exp [Elem.ulps]
MODELS = {
    "squeezenet": ("real-models/light_squeezenet.onnx", []),
    "alexnet": ("real-models/light_bvlc_alexnet.onnx", []),
    "vgg19": ("real-models/light_vgg19.onnx", []),
    "hello_deepa": ("real-models/openwakeword/hello_deepa.onnx", OWW),
    "hello_deepa_old": ("real-models/openwakeword/hello_deepa_old.onnx", OWW),
    "namaste_deepa": ("real-models/openwakeword/namaste_deepa.onnx", OWW),
}


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


def timed(argv, allowed=(0,), stdout=None, wall=False):
    """(seconds, peak MiB) of the process argv; with allowed=None, (seconds, peak MiB, exit code). The
    seconds are /usr/bin/time's %e (1/100 s), or with wall=True this process's clock around the run
    (/usr/bin/time's own start, about a millisecond, included): the shared models' rows, some of whose
    processes take a few milliseconds."""
    with open(stdout, "w") if stdout else open(os.devnull, "w") as out:
        t0 = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%e %M"] + argv, stdout=out, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - t0
    if allowed is not None and r.returncode not in allowed:
        sys.exit(f"whole.py: {' '.join(argv)} failed: {r.stderr}")
    seconds, kib = r.stderr.strip().splitlines()[-1].split()
    seconds = elapsed if wall else seconds
    if allowed is None:
        return float(seconds), int(kib) / 1024, r.returncode
    return float(seconds), int(kib) / 1024


def median(xs):
    return sorted(xs)[len(xs) // 2]


def npz_bytes(path):
    """{name: bytes} of every array of an npz archive, from the .npy headers (no array is read)."""
    out = {}
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            with z.open(info) as f:
                version = np.lib.format.read_magic(f)
                read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
                shape, _, dtype = read(f)
            out[info.filename[:-4] if info.filename.endswith(".npy") else info.filename] = \
                int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    return out


def values_bytes(model_path, dump):
    """The bytes of every value of the graph once: graph inputs, initializers, every node output
    (Constant and ConstantOfShape outputs included), from the dump of the exposed model (every value
    expose could type) and the model's initializers; a Dropout mask expose cannot type is a bool tensor
    of its input's shape. Returns (bytes, names of values left unsized)."""
    m = onnx.load(model_path, load_external_data=False)
    sizes = npz_bytes(os.path.join(dump, "inputs.npz"))
    sizes.update(npz_bytes(os.path.join(dump, "values.npz")))
    for t in m.graph.initializer:
        sizes.setdefault(t.name, int(np.prod(list(t.dims), dtype=np.int64)) *
                         np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[t.data_type]).itemsize)
    unsized = []
    for node in m.graph.node:
        for k, name in enumerate(node.output):
            if not name or name in sizes:
                continue
            if node.op_type == "Dropout" and k == 1 and node.input[0] in sizes:
                itemsize = np.dtype(onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[
                    next((vi.type.tensor_type.elem_type for vi in list(m.graph.value_info) + list(m.graph.input)
                          if vi.name == node.input[0]), TensorProto.FLOAT)]).itemsize
                sizes[name] = sizes[node.input[0]] // itemsize  # one bool per element
            else:
                unsized.append(name)
    return sum(sizes.values()), unsized


def model_row(case, sonnx, reps, folder, ort, markdown, base_mib):
    """One shared model's row (see the docstring); returns (printed, check exit code, goals met) or None when
    the model is absent or onnxruntime is missing."""
    rel, flags = MODELS[case]
    path = os.path.join(SHARED, rel)
    if not os.path.isfile(path):
        print(f"note: {case} skipped: {path} is absent (the shared models live in ../shared next to the "
              "checkout)", file=sys.stderr)
        return None
    why = ort_case.unavailable()
    if why:
        print(f"note: {case} skipped: check's actual values are onnxruntime's dump: {why}", file=sys.stderr)
        return None
    base = os.path.join(folder, case)
    exposed, dump, ins = base + ".x.onnx", base + ".ort", os.path.join(base + ".ort", "inputs.npz")
    # Prepared once, not timed: the exposed model and onnxruntime's values of every node output.
    r = subprocess.run([sonnx, "expose", path, "-o", exposed], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"whole.py: sonnx-ref expose {path} failed: {r.stderr}")
    r = subprocess.run(["/usr/bin/python3", os.path.join(TOP, "props", "realmodel", "ort-dump"), exposed, "-o", dump],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"whole.py: props/realmodel/ort-dump {exposed} failed: {r.stdout}{r.stderr}")
    total, unsized = values_bytes(path, dump)
    if unsized:
        print(f"note: {case}: {len(unsized)} value(s) left out of values MiB (no shape): {' '.join(unsized[:5])}",
              file=sys.stderr)
    nodes = len(onnx.load(path, load_external_data=False).graph.node)
    s = [timed([sonnx, "run", path, ins, "-o", base + ".s.npz"], wall=True) for _ in range(reps)]
    c = [timed([sonnx, "check", exposed, ins, os.path.join(dump, "values.npz")] + flags, None, base + ".verdict", True)
         for _ in range(reps)]
    with open(base + ".verdict") as f:
        verdict = next((ln for ln in f if ln.startswith("verdict:")), "verdict: ?")
    judged = verdict.split("; ")[-1].split(" node(s) judged")[0] if "node(s) judged" in verdict else "?"
    st, sm = median([t for t, _ in s]), max(m for _, m in s)
    ct, cm = median([t for t, _, _ in c]), max(m for _, m, _ in c)
    code = max((e for _, _, e in c), key=lambda e: e != 0)
    if code != 0:
        print(f"note: {case}: sonnx-ref check exited {code}: {verdict.strip()}", file=sys.stderr)
    mib = total / 2**20
    ot = om = None
    if ort:
        with np.load(ins) as z:
            feeds = [(name, z[name]) for name in z.files]
        o = ort_case.ort_time(path, feeds, reps, folder, profile=False, warmup=1)
        if o[0] == "ok":
            ot, om = o[1], o[4]
        else:
            print(f"note: onnxruntime {o[0]} {case}: {o[1]}", file=sys.stderr)
    for f in (exposed, base + ".s.npz", ins, os.path.join(dump, "values.npz"), base + ".verdict"):
        if os.path.exists(f):
            os.remove(f)
    os.rmdir(dump)
    decl = " ".join(flags)
    pk, pkb = cm / mib, (cm - base_mib) / mib
    if ot is not None:
        cr, rr = ct / (ot / 1000), st / (ot / 1000)
        o_md = f" {ot:.3f} | {om:.0f} | {cr:.1f}x | {rr:.1f}x |"
        o_txt = f" | {ot:9.3f} {om:6.0f} {cr:7.1f} {rr:7.1f}"
    else:
        o_md, o_txt = (" refused | | | |", f" | {'refused':>9} {'':6} {'':7} {'':7}") if ort else ("", "")
    if markdown:
        line = (f"| {case} | {nodes} | {judged} | {mib:.1f} | {st:.3f} | {sm:.0f} | — | {ct:.3f} | {cm:.0f} | {code} | "
                f"{pk:.2f}x | {pkb:.2f}x | {f'`{decl}`' if decl else '—'} |" + o_md)
    else:
        line = (f"{case:16} {nodes:5} {judged:>10} {mib:9.1f} | {st:7.3f} {sm:6.0f} | {ct:7.3f} {cm:6.0f} {code:4} "
                f"{pk:6.2f} {pkb:6.2f} {decl or '—':22}" + o_txt)
    goals = ot is not None and ct / (ot / 1000) <= 20 and pk <= 2
    return line, code, goals


def main(argv):
    sonnx, n, reps = argv[0], int(argv[1]), int(argv[2])
    markdown = "--markdown" in argv[3:]
    ort = "--no-ort" not in argv[3:]
    if ort and ort_case.unavailable():
        print(f"note: no onnxruntime column: {ort_case.unavailable()}", file=sys.stderr)
        ort = False
    named = [c for c in argv[3:] if not c.startswith("--")]
    named = [m for c in named for m in (list(MODELS) if c == "models" else [c])]
    unknown = [c for c in named if c not in CASES and c not in MODELS]
    if unknown:
        print(f"error: unknown case(s) {' '.join(unknown)} (cases: {' '.join(CASES)}; shared models: "
              f"{' '.join(MODELS)}, or models for all six)", file=sys.stderr)
        return 2
    cases = [c for c in named if c in CASES] if named else CASES
    models = [c for c in named if c in MODELS]
    status = 0
    with tempfile.TemporaryDirectory() as folder:
        if cases:
            whole_cases(cases, sonnx, n, reps, folder, ort, markdown)
        if models:
            status = model_rows(models, sonnx, reps, folder, ort, markdown, bool(cases))
    return status


def model_rows(models, sonnx, reps, folder, ort, markdown, after):
    if after:
        print()
    if markdown:
        print("| model | nodes | judged | values MiB | run s | peak MiB | numpy s | check s | peak MiB | exit | "
              "check peak / values | (peak − base) / values | check declares |" +
              (" ORT inference ms | peak MiB | check / ORT | run / ORT |" if ort else ""))
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |" +
              (" ---: | ---: | ---: | ---: |" if ort else ""))
    else:
        print(f"{'model':16} {'nodes':>5} {'judged':>10} {'valuesMiB':>9} | {'run_s':>7} {'MiB':>6} | {'check_s':>7} "
              f"{'MiB':>6} {'exit':>4} {'pk/val':>6} {'-base':>6} {'declares':22}" +
              (f" | {'ort_ms':>9} {'MiB':>6} {'chk/ort':>7} {'run/ort':>7}" if ort else ""))
    status = rows = met = 0
    load0 = os.getloadavg()[0]
    base_mib = max(timed([sonnx, "--version"])[1] for _ in range(3))  # a sonnx-ref process that does nothing
    for case in models:
        r = model_row(case, sonnx, reps, folder, ort, markdown, base_mib)
        if r is None:
            continue
        line, code, goals = r
        print(line, flush=True)
        rows += 1
        met += goals
        status = status or (1 if code != 0 else 0)
    print(f"\n{rows} of {len(models)} shared models measured (median of {reps} processes of run and of check; check on "
          f"the exposed model and onnxruntime's dump, prepared once; base: the {base_mib:.1f} MiB peak of `sonnx-ref "
          "--version`)" +
          (f"; ORT: the model's inference, session created once, one warm-up, median of {reps} session.run, one "
           f"intra-op thread, no profiler; {met} of {rows} within both goals (check <= 20x ORT's inference, check's "
           "peak <= 2x values MiB)" if ort else "") +
          f"; 1-minute load average {load0:.2f} at the start, {os.getloadavg()[0]:.2f} at the end")
    return status


def whole_cases(cases, sonnx, n, reps, folder, ort, markdown):
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
    sys.exit(main(sys.argv[1:]))
