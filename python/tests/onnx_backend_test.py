#!/usr/bin/python3
"""ONNX's own backend test runner, onnx.backend.test.BackendTest, judging sonnx_ref.backend (ctest
label backend).

Every test the runner knows is run through unittest, as any ONNX runtime's backend tests are:
  - the node tests of the fourteen operators sonnx-ref implements -- Max, ReduceMax, Hardmax, Min,
    ReduceMin, ArgMax, ArgMin, Relu, Clip, MaxPool, GlobalMaxPool, Conv, Gemm, MatMul (names
    test_max_*, test_reduce_max_*, test_hardmax_*, test_min_*, test_reduce_min_*, test_argmax_*,
    test_argmin_*, test_relu, test_clip*, test_maxpool_*, test_globalmaxpool*, test_basic_conv_*,
    test_conv_*, test_gemm_*, test_matmul_*: 132 in Debian's libonnx-testdata for onnx 1.12, the
    figure of conformance/CMakeLists.txt) and the PyTorch operator test
    test_operator_max must PASS on the CPU device: ONNX's runner compares the outputs with its own
    expected ones (numpy.testing.assert_allclose, NaNs equal);
  - every other test must be SKIPPED: a model with another operator is not compatible with the
    backend (Backend.is_compatible is False: "Not compatible with backend"), the CUDA device is not
    supported, and the 'real' model tests (downloaded from the internet) are excluded;
  - no test may fail or error.
When ../shared/onnx-node-tests (upstream onnx 1.22 node tests of the three operators) exists beside
the source tree, or ONNX_UPSTREAM_NODE_TESTS names such a folder, its tests are added to the same
runner as the category Upstream and must pass as well.

Exit status: 0 when all of that holds, 1 otherwise.
"""

import collections
import os
import re
import sys
import tempfile
import time
import unittest

import numpy as np

# onnx 1.12's runner compares dtypes with numpy.object, an alias numpy 1.24 removed (Debian bookworm
# ships both): restore the alias so that ONNX's own comparison runs unchanged.
if "object" not in np.__dict__:
    np.object = object

import onnx.backend.test  # noqa: E402
from onnx.backend.test.loader import load_model_tests  # noqa: E402

import sonnx_ref.backend  # noqa: E402

# The name, then '_' or the device suffix: test_maxunpool_*, test_leakyrelu*, test_prelu_*,
# test_shape_clip_*, test_averagepool_* are other operators.
OPERATORS = "max|reduce_max|hardmax|min|reduce_min|argmax|argmin|relu|clip|maxpool|globalmaxpool|basic_conv|conv|gemm|matmul"
REQUIRED = re.compile(r"^test_(" + OPERATORS + r")_.*cpu$|^test_operator_max_cpu$")
NODE_TESTS_1_12 = 132  # Debian's libonnx-testdata 1.12: 14+8+7 Max/ReduceMax/Hardmax, 14 Min, 8 ReduceMin,
                       # 16 ArgMax, 16 ArgMin, 1 Relu, 11 Clip, 15 MaxPool, 2 GlobalMaxPool, 2 basic Conv,
                       # 4 Conv, 11 Gemm, 3 MatMul


# The node tests of implemented operators that the specification refuses or states otherwise.
OUT_OF_PROFILE = {
    "test_batchnorm_epsilon_training_mode": "BatchNormalization.err.unsupported-training",
    "test_batchnorm_example_training_mode": "BatchNormalization.err.unsupported-training",
    "test_training_dropout": "Dropout.err.training",        # and its _default, _mask, _zero_ratio variants
    "test_identity_opt": "Common.gr.explicit-types",        # an optional value, not a tensor
    "test_identity_sequence": "Common.gr.explicit-types",   # a sequence value, not a tensor
    "test_cast_FLOAT_to_STRING": "Cast.err.string",
    "test_cast_STRING_to_FLOAT": "Cast.err.string",
    "test_cast_FLOAT_to_BFLOAT16": "Cast.div.bfloat16-1.12",  # onnx 1.12's data truncates; the spec rounds to nearest even
    "test_castlike_BFLOAT16_to_FLOAT_expanded": "Graph.feed.shape",  # CastLike's 'like' fed as [1], declared [3, 4]
    "test_castlike_FLOAT_to_BFLOAT16_expanded": "Graph.feed.shape",
    "test_castlike_FLOAT_to_STRING_expanded": "Common.dtype.set",
    "test_castlike_STRING_to_FLOAT_expanded": "Common.dtype.set",
    "test_operator_add_size1_broadcast": "Common.arith.legacy",  # Add-6 would stretch a size-1 dimension
    "test_operator_add_size1_singleton_broadcast": "Common.arith.legacy",
}


def upstream_dir():
    explicit = os.environ.get("ONNX_UPSTREAM_NODE_TESTS")
    if explicit:
        return explicit
    source = os.environ.get("SONNX_REF_SOURCE", os.path.join(os.path.dirname(__file__), "..", ".."))
    candidate = os.path.normpath(os.path.join(source, "..", "shared", "onnx-node-tests"))
    return candidate if os.path.isdir(candidate) else None


class Recorder(unittest.TextTestResult):
    """Records the outcome of every test: pass, skip (with its reason), fail, error."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcomes = {}

    def addSuccess(self, test):
        super().addSuccess(test)
        self.outcomes[test.id()] = ("pass", "")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.outcomes[test.id()] = ("skip", reason)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.outcomes[test.id()] = ("fail", self._exc_info_to_string(err, test))

    def addError(self, test, err):
        super().addError(test, err)
        self.outcomes[test.id()] = ("error", self._exc_info_to_string(err, test))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.outcomes[test.id()] = ("fail", "expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.outcomes[test.id()] = ("fail", "unexpected success")


def main():
    start = time.time()
    backend_test = onnx.backend.test.BackendTest(sonnx_ref.backend.Backend, __name__)
    # The 'real' models are downloaded from the internet by the runner; none is made of the fourteen
    # operators alone.
    for t in load_model_tests(kind="real"):
        backend_test.exclude("^" + re.escape(t.name) + "_")
    # Node tests whose models use only operators sonnx-ref implements, but a feature its specification
    # refuses or states otherwise: excluded, each with the clause that decides it.
    for name, clause in OUT_OF_PROFILE.items():
        backend_test.exclude("^" + re.escape(name) + "_")

    upstream = upstream_dir()
    holder = None
    if upstream:
        holder = tempfile.TemporaryDirectory(prefix="sonnx-backend-")
        os.symlink(os.path.abspath(upstream), os.path.join(holder.name, "node"))
        for t in load_model_tests(data_dir=holder.name, kind="node"):
            backend_test._add_model_test(t, "Upstream")  # the runner's own way of adding a model test

    # BackendTest.test_suite sorts the test case classes themselves, which Python 3 cannot do; the
    # suite is built from test_cases (what `globals().update(backend_test.test_cases)` exposes to
    # pytest or unittest), in category order.
    suite = unittest.TestSuite()
    for _, case in sorted(backend_test.test_cases.items()):
        suite.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(case))
    stream = open(os.devnull, "w")
    result = unittest.TextTestRunner(stream=stream, resultclass=Recorder, verbosity=0).run(suite)

    by_category = collections.defaultdict(lambda: collections.Counter())
    problems = []
    passed_other = []
    for test_id, (outcome, detail) in sorted(result.outcomes.items()):
        category, name = test_id.split(".")[-2], test_id.split(".")[-1]
        by_category[category][outcome] += 1
        required = bool(REQUIRED.match(name))
        if outcome in ("fail", "error"):
            problems.append(f"{category}.{name}: {outcome}\n{detail}")
        elif required and outcome != "pass":
            problems.append(f"{category}.{name}: must pass, but {outcome}: {detail}")
        elif not required and outcome == "pass":
            passed_other.append(f"{category}.{name}")

    required_passed = collections.Counter(
        test_id.split(".")[-2] for test_id, (outcome, _) in result.outcomes.items()
        if outcome == "pass" and REQUIRED.match(test_id.split(".")[-1]))
    node_required = required_passed.get("OnnxBackendNodeModelTest", 0)
    if node_required < NODE_TESTS_1_12:
        problems.append(f"only {node_required} node tests of the fourteen operators passed, "
                        f"expected at least {NODE_TESTS_1_12}")

    skip_reasons = collections.Counter(detail for outcome, detail in result.outcomes.values() if outcome == "skip")
    total = collections.Counter(outcome for outcome, _ in result.outcomes.values())
    print(f"onnx {onnx.__version__} backend test runner on sonnx_ref.backend: {len(result.outcomes)} tests, "
          f"{total['pass']} passed, {total['skip']} skipped, {total['fail']} failed, {total['error']} errors "
          f"({time.time() - start:.1f} s)")
    for category in sorted(by_category):
        c = by_category[category]
        print(f"  {category}: {c['pass']} passed ({required_passed.get(category, 0)} of them required), "
              f"{c['skip']} skipped, {c['fail']} failed, {c['error']} errors")
    print("  skipped because:")
    meaning = {"Not compatible with backend": " (a node of an operator sonnx-ref does not implement: is_compatible)"}
    for reason, n in skip_reasons.most_common():
        print(f"    {n:5d}  {reason}{meaning.get(reason, '')}")
    if upstream:
        print(f"  upstream node tests: {upstream}")
    else:
        print("  upstream node tests: none (../shared/onnx-node-tests absent)")
    for name in passed_other:
        print(f"  note: {name} passed (its model uses only operators sonnx-ref implements)")
    if problems:
        print(f"FAILED: {len(problems)} problem(s)")
        for p in problems:
            print("  " + p.replace("\n", "\n    "))
        return 1
    print("passed: every node test of the fourteen operators passes, every other test is skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
