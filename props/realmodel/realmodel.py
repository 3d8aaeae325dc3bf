"""What the realmodel scripts share (campaign, faults, whole): one line per expectation, the commands
they run, onnxruntime's dump of a model and sonnx-ref's node-wise judgement of it."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
failures = []  # the expectations that did not hold, in order


def expect(cond, what):
    """Prints 'ok: WHAT' or 'FAILED: WHAT'; a failure is kept for the exit status."""
    print(("ok: " if cond else "FAILED: ") + what, flush=True)
    if not cond:
        failures.append(what)


def run(cmd, ok=(0,)):
    """Runs a command; exit status 77 (node or onnxruntime-node missing) skips the script, a status
    outside `ok` ends it with the command's output."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode == 77:
        print(f"SKIPPED: {p.stdout.strip() or p.stderr.strip()}")
        sys.exit(77)
    if p.returncode not in ok:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {' '.join(cmd)} exited {p.returncode}:\n"
                 f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


def ort_dump(model, out, *options):
    """props/realmodel/ort-dump MODEL -o OUT OPTIONS...: OUT/inputs.npz and OUT/values.npz, their paths."""
    run([sys.executable, os.path.join(HERE, "ort-dump"), model, "-o", out, *options])
    return os.path.join(out, "inputs.npz"), os.path.join(out, "values.npz")


def judge(ref, model, inputs, values, report, *options):
    """sonnx-ref check node by node, the JSON report written to REPORT: (exit status, report)."""
    p = run([ref, "check", model, inputs, values, "--nodes", "--report", report, "-q", *options], ok=(0, 1))
    with open(report) as f:
        return p.returncode, json.load(f)
