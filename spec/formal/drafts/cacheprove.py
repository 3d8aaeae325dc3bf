#!/usr/bin/python3
"""cacheprove.py DIR FILE.mlw: prove module by module (strategies [] and split_vc), caching each
module's XML in DIR/.cache/<stem>/<Module>.xml (delete a file to redo the module); writes the session."""
import importlib.machinery, importlib.util, os, sys
d, f = sys.argv[1], sys.argv[2]
loader = importlib.machinery.SourceFileLoader("provemod", os.path.join(d, "prove"))
spec = importlib.util.spec_from_loader("provemod", loader); P = importlib.util.module_from_spec(spec); loader.exec_module(P)
P.STRATEGIES = [[], ["split_vc"]]
P.HERE = d
base = P.why3_base()[:-1] + [d]
path = os.path.join(d, f); stem = f[:-4]
cdir = os.path.join(d, ".cache", stem); os.makedirs(cdir, exist_ok=True)
body = ""; bad_all = []
for module in P.modules_of(path):
    cf = os.path.join(cdir, module + ".xml")
    if os.path.exists(cf):
        xml, bad = open(cf).read(), []
        if os.path.exists(cf + ".bad"): bad = open(cf + ".bad").read().split()
    else:
        xml, proved, n, bad = P.prove_module(base, path, module)
        open(cf, "w").write(xml)
        open(cf + ".bad", "w").write(" ".join(bad))
    print(module, "unproved:", bad, flush=True)
    bad_all += bad
    flag = ' proved="true"' if not bad else ""
    body += f'<theory name="{module}"{flag}>\n{xml}</theory>\n'
sdir = os.path.join(d, stem); os.makedirs(sdir, exist_ok=True)
with open(os.path.join(sdir, "why3session.xml"), "w") as out:
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE why3session PUBLIC "-//Why3//proof session v5//EN"\n'
              '"http://why3.lri.fr/why3session.dtd">\n<why3session shape_version="6">\n'
              + "".join(f'<prover id="{i}" {p[1]} timelimit="{P.TIMELIMIT}" steplimit="0" memlimit="1000"/>\n' for i, p in enumerate(P.PROVERS)) +
              f'<file format="whyml">\n<path name=".."/><path name="{f}"/>\n{body}</file>\n</why3session>\n')
print("unproved total:", bad_all)
