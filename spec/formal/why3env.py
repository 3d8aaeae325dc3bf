"""The Why3 command line of spec/formal/: a private configuration (provers detected on this
machine, Z3 found by `why3 config detect`) plus the driver additions of sonnx.drv, so that the
user's ~/.why3.conf is neither read nor written. Used by spec/formal/prove and spec/formal/replay."""
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


BOUNDED_Z3 = """
[prover]
alternative = "bounded"
command = "z3 -smt2 -t:%t000 sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 smt.qi.max_instances=400 -st %f"
command_steps = "z3 -smt2 sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 smt.qi.max_instances=400 rlimit=%S -st %f"
driver = "z3_471"
editor = ""
in_place = false
interactive = false
name = "Z3"
shortcut = "z3b"
version = "4.8.12"
"""

EAGER_Z3 = """
[prover]
alternative = "eager"
command = "z3 -smt2 -t:%t000 sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 smt.qi.eager_threshold=3 -st %f"
command_steps = "z3 -smt2 sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 smt.qi.eager_threshold=3 rlimit=%S -st %f"
driver = "z3_471"
editor = ""
in_place = false
interactive = false
name = "Z3"
shortcut = "z3e"
version = "4.8.12"
"""


def why3_base(workdir=None):
    workdir = workdir or os.path.join(tempfile.gettempdir(), f"sonnx-why3-{os.getuid()}")
    os.makedirs(workdir, exist_ok=True)
    conf = os.path.join(workdir, "why3.conf")
    if not os.path.exists(conf):
        subprocess.run(["why3", "--config=" + conf, "config", "detect"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(conf, "a") as f:
            # Z3 with a bound on quantifier instances: the recursive definitions of tensor.mlw
            # (products of dimensions) otherwise unfold without end under nonlinear arithmetic.
            # A bound can only make Z3 answer "unknown", never prove a false goal.
            f.write(BOUNDED_Z3)
            # Z3 instantiating quantifiers eagerly up to a low depth: the same loops, cut another way.
            f.write(EAGER_Z3)
    extra = os.path.join(workdir, "sonnx-extra.conf")
    with open(extra, "w") as f:
        # [prover_modifiers] adds sonnx.drv to every Z3 prover of the configuration.
        f.write('[prover_modifiers]\nname = "Z3"\ndriver = "%s"\n' % os.path.join(HERE, "sonnx.drv"))
    return ["why3", "--config=" + conf, "--extra-config=" + extra, "-L", HERE]
