#!/usr/bin/python3
"""fastprove.py DIR FILE.mlw [Module ...]: build DIR/FILE/why3session.xml module by module, each goal
proved by the fastest of the four Z3 variants of DIR/prove, plain or after split_vc.

spec/formal/prove records the first proof it finds, however slow; a goal that Z3 proves in 5 s on an
idle machine then fails the replay on a loaded one. Here a plain proof is kept only when it is fast
(at most SLOW seconds, default 0.3, and at most 1,000,000 Z3 steps; a proof by the variant without
steps, noBV, only when another variant proves the goal too); otherwise split_vc is tried with every
variant and each subgoal takes the fastest, the split kept when its slowest subgoal beats the plain
proof. Goals it reports slow should be split in the .mlw file (smaller `let lemma`s, intermediate
asserts), not given more time.

Each module's XML is cached in $FASTPROVE_CACHE (default: a per-user folder under the temporary
directory, never in the source tree)/<stem>/<Module>.<hash>.xml, the hash taken over the
module's text and those of the modules of the same file it uses (transitively): an edit re-proves
the modules it can affect (an edit of another .mlw file does not: delete the cache folder then).
Modules named on the command line are re-proved anyway.
Run it under `nice -n 19`; it runs why3 under `nice -n 19` itself. Standard library only.
Used for spec/formal/maxpool.mlw: `spec/formal/drafts/fastprove.py spec/formal maxpool.mlw`.
"""
import hashlib
import importlib.machinery
import importlib.util
import os
import re
import sys
import tempfile

d, f = os.path.abspath(sys.argv[1]), sys.argv[2]
only = sys.argv[3:]
loader = importlib.machinery.SourceFileLoader("provemod", os.path.join(d, "prove"))
spec = importlib.util.spec_from_loader("provemod", loader)
P = importlib.util.module_from_spec(spec)
loader.exec_module(P)
P.HERE = d
base = ["nice", "-n", "19"] + P.why3_base()[:-1] + [d]
path = os.path.join(d, f)
stem = f[:-4]
text = open(path).read()
SLOW = float(os.environ.get("SLOW", "0.3"))
MAXSTEPS = 1000000
cdir = os.path.join(os.environ.get("FASTPROVE_CACHE") or
                    os.path.join(tempfile.gettempdir(), f"sonnx-fastprove-{os.getuid()}"), stem)
os.makedirs(cdir, exist_ok=True)


def module_text(module):
    i = re.search(r"^module %s\b" % re.escape(module), text, re.M).start()
    j = re.search(r"^end\b", text[i:], re.M).end()
    return text[i:i + j]


def module_key(module, seen=None):
    """the module's text and those of the modules of this file it uses, transitively"""
    seen = set() if seen is None else seen
    seen.add(module)
    out = module_text(module)
    for u in re.findall(r"^\s*use\s+([A-Z][A-Za-z0-9_']*)", out, re.M):
        if u not in seen and re.search(r"^module %s\b" % re.escape(u), text, re.M):
            out += module_key(u, seen)
    return out


def best(runs, k):
    """(time, prover index, result) of the fastest variant proving (sub)goal k, or None"""
    c = [(r[k][2], pid, r[k]) for pid, r in enumerate(runs) if r[k][1] == "Valid"]
    return min(c) if c else None


def prove_module(module):
    runs = [P.run_prove(base, path, module, None, [], pr) for pr, _ in P.PROVERS]
    names = [g[0] for g in runs[0]]
    xml, bad, slow = "", [], []
    for k, name in enumerate(names):
        q = P.xml_escape(name)
        b = best(runs, k) if all(len(r) == len(names) for r in runs) else None

        def robust(b):
            if not b or b[0] > SLOW:
                return False
            steps = b[2][3]
            if steps is None:
                return sum(1 for r in runs if r[k][1] == "Valid") >= 2
            return int(steps) <= MAXSTEPS
        choice = None
        if robust(b):
            choice = ("plain", b[0], b)
        else:
            sruns = [P.run_prove(base, path, module, name, ["split_vc"], pr) for pr, _ in P.PROVERS]
            n = len(sruns[0])
            if n and all(len(r) == n for r in sruns):
                subs = [best(sruns, i) for i in range(n)]
                if all(subs):
                    mx = max(s[0] for s in subs)
                    if not b or mx < b[0]:
                        choice = ("split", mx, subs)
            if not choice and b:
                choice = ("plain", b[0], b)
        if not choice:
            bad.append(name)
            xml += f' <goal name="{q}">\n </goal>\n'
            print("  NOT PROVED", module, name, flush=True)
            continue
        kind, t, c = choice
        if t > SLOW:
            slow.append((name, kind, t))
        xml += f' <goal name="{q}" proved="true">\n'
        if kind == "plain":
            xml += P.proof_xml("  ", c[2][2], c[2][3], c[1])
        else:
            xml += P.nest(name, ["split_vc"], [(s[1], s[2]) for s in c], "  ")
        xml += " </goal>\n"
        print(f"  {module}.{name}: {kind} {t:.2f}s", flush=True)
    return xml, bad, slow


body, bad_all, slow_all = "", [], []
for module in P.modules_of(path):
    h = hashlib.sha1(module_key(module).encode()).hexdigest()[:12]
    cf = os.path.join(cdir, f"{module}.{h}.xml")
    if os.path.exists(cf) and module not in only:
        xml = open(cf).read()
        bad = open(cf + ".bad").read().split("\n") if os.path.getsize(cf + ".bad") else []
        slow = []
    else:
        xml, bad, slow = prove_module(module)
        open(cf, "w").write(xml)
        open(cf + ".bad", "w").write("\n".join(bad))
    print(module, "unproved:", bad, "slow:", slow, flush=True)
    bad_all += bad
    slow_all += slow
    flag = ' proved="true"' if not bad else ""
    body += f'<theory name="{module}"{flag}>\n{xml}</theory>\n'
sdir = os.path.join(d, stem)
os.makedirs(sdir, exist_ok=True)
with open(os.path.join(sdir, "why3session.xml"), "w") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE why3session PUBLIC "-//Why3//proof session v5//EN"\n'
              '"http://why3.lri.fr/why3session.dtd">\n<why3session shape_version="6">\n'
              + "".join(f'<prover id="{i}" {p[1]} timelimit="{P.TIMELIMIT}" steplimit="0" memlimit="1000"/>\n'
                        for i, p in enumerate(P.PROVERS)) +
              f'<file format="whyml">\n<path name=".."/><path name="{f}"/>\n{body}</file>\n</why3session>\n')
print("unproved:", bad_all)
print("slow:", slow_all)
sys.exit(1 if bad_all else 0)
