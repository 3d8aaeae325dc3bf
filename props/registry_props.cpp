// Properties of the node-level clauses the operator registry carries: which version an opset
// resolves to, attribute names and kinds per version, and the ONNX defaults of absent attributes
// (spec/common/graph.md, spec/common/restrictions.md, the Versions sections of spec/ops/).
#include <algorithm>

#include "gen/props.hpp"
#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/reducemax.hpp"
#include "ops/registry.hpp"

namespace sonnx::props {
namespace {

const std::vector<int>& versions_of(const std::string& op) {
  return op == "Max" ? kMaxVersions : op == "ReduceMax" ? kReduceMaxVersions : kHardmaxVersions;
}

rc::Gen<std::string> op_type() { return gen::one_of<std::string>({"Max", "ReduceMax", "Hardmax"}); }

}  // namespace

TEST_CASE("[Graph.opset.resolve] an opset runs the greatest version whose since_version is at most the opset",
          "[graph][props]") {
  check("resolve(op, opset).since_version = max { v : v <= opset }", [] {
    const std::string op = *op_type();
    const auto& versions = versions_of(op);
    const std::int64_t opset = *gen::index<std::int64_t>(versions.front(), 30);
    int expected = 0;
    for (int v : versions)
      if (v <= opset) expected = v;
    RC_ASSERT(ops::resolve(op, opset).since_version == expected);
    RC_ASSERT(ops::resolve(op, opset).op_type == op);
  });
}

TEST_CASE("[Graph.opset.unsupported] unknown operators and opsets below the first version are refused",
          "[graph][props][error]") {
  check("refused with Graph.opset.unsupported", [] {
    const bool unknown = *gen::weighted<bool>({{1, false}, {1, true}});
    std::string op;
    std::int64_t opset;
    if (unknown) {
      op = *gen::one_of<std::string>({"Sum", "max", "MAX", "ReduceSum", "Softmax", "Argmax", "", "Max ", "HardMax", "AveragePool", "relu"});
      opset = *gen::index<std::int64_t>(1, 30);
    } else {
      op = *op_type();
      opset = *gen::index<std::int64_t>(-3, 1);  // every operator here starts at version 1
    }
    RC_ASSERT(refusal_id([&] { ops::resolve(op, opset); }) == "Graph.opset.unsupported");
    RC_TAG(unknown ? "unknown op_type" : "opset too low");
  });
}

TEST_CASE("[Graph.node.attributes] [ReduceMax.v18] [Max.v6] an attribute the version does not define, or of the "
          "wrong kind, is refused",
          "[graph][props][error]") {
  check("undefined name or wrong kind: refused with Graph.node.attributes", [] {
    const std::string op = *op_type();
    const int v = *gen::one_of(versions_of(op));
    // The attributes each version defines, with their kinds (Versions sections of spec/ops).
    std::map<std::string, std::string> defined;
    if (op == "Max" && v == 1) defined["consumed_inputs"] = "ints";
    if (op == "ReduceMax") {
      defined["keepdims"] = "int";
      if (v < 18) defined["axes"] = "ints";
      else defined["noop_with_empty_axes"] = "int";
    }
    if (op == "Hardmax") defined["axis"] = "int";
    const std::vector<std::string> names = {"axis", "axes", "keepdims", "noop_with_empty_axes", "consumed_inputs",
                                            "Axis", "select_last_index", ""};
    const std::string attr = *gen::one_of(names);
    const std::vector<ops::AttributeValue> values = {std::int64_t{1}, std::vector<std::int64_t>{0}, 1.0f,
                                                     std::vector<float>{1.0f}, std::string("1")};
    const auto value = *gen::one_of(values);
    const auto it = defined.find(attr);
    // Evaluated before RC_PRE: RapidCheck's expression capture overloads ||, which then evaluates
    // both sides (it->second of end() when the name is undefined) and keeps references to
    // temporaries past their scope (clang ASan: stack-use-after-scope).
    const bool undefined_or_wrong_kind = it == defined.end() || it->second != ops::attribute_kind_name(value);
    RC_PRE(undefined_or_wrong_kind);
    const Tensor X(DType::Float, {2, 2}, "X");
    ops::Attributes attributes{{attr, value}};
    RC_ASSERT(refusal_id([&] { ops::resolve(op, v).run({&X}, attributes, 1); }) == "Graph.node.attributes");
    RC_TAG(it == defined.end() ? "undefined attribute" : "wrong kind");
  });
}

TEST_CASE("[Common.gr.defaults] [Hardmax.v1] [Hardmax.v11] [Hardmax.v13] [ReduceMax.v1] [ReduceMax.v18] "
          "an absent attribute takes the ONNX default of the version",
          "[graph][props]") {
  check("Hardmax: absent axis = 1 (versions 1, 11), -1 (version 13)", [] {
    const int v = *gen::one_of(kHardmaxVersions);
    const DType t = *gen::dtype_of(spec_hardmax_types(v));
    const Tensor X = *gen::tensor(t, *gen::shape({2, 5, 64, true}));
    const std::int64_t default_axis = v >= 13 ? -1 : 1;
    const auto Y = ops::resolve("Hardmax", v).run({&X}, {}, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], ops::hardmax(v, X, default_axis)));
  });
  check("ReduceMax: absent keepdims = 1, absent noop_with_empty_axes = 0, absent axes = all", [] {
    const int v = *gen::one_of(kReduceMaxVersions);
    const DType t = *gen::dtype_of(spec_reducemax_types(v));
    const Tensor X = *gen::tensor(t, *gen::shape());
    const auto Y = ops::resolve("ReduceMax", v).run({&X}, {}, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], ops::reduce_max(v, X, {std::nullopt, 1, 0})));
  });
}

TEST_CASE("[Max.v1] Max-1 accepts the legacy attribute consumed_inputs and ignores it", "[graph][props]") {
  check("Max-1 with consumed_inputs = anything gives Max-1 without it", [] {
    const MaxCase c = *gen::max_case({.versions = {1}});
    const auto consumed = *rc::gen::container<std::vector<std::int64_t>>(gen::index<std::int64_t>(-2, 3));
    const auto Y = ops::resolve("Max", 1).run(c.pointers(), {{"consumed_inputs", consumed}}, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], ops::max(1, c.pointers())));
  });
}

TEST_CASE("[ReduceMax.v18] from version 18 the axes come from the optional second input", "[graph][props]") {
  check("ReduceMax-18/20 node with an axes input = reduce_max with those axes", [] {
    ReduceMaxCase c = *gen::reducemax_case({.versions = {18, 20}});
    Tensor axes(DType::Int64, {static_cast<std::int64_t>(c.axes ? c.axes->size() : 0)}, "axes");
    if (c.axes)
      for (std::size_t k = 0; k < c.axes->size(); ++k)
        set_bits_at(axes, static_cast<std::int64_t>(k), static_cast<std::uint64_t>((*c.axes)[k]));
    ops::Attributes a{{"keepdims", c.keepdims}, {"noop_with_empty_axes", c.noop_with_empty_axes}};
    const auto Y = ops::resolve("ReduceMax", c.version).run({&c.data, c.axes ? &axes : nullptr}, a, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], ops::reduce_max(c.version, c.data, c.params())));
    RC_CLASSIFY(!c.axes, "no axes input");
  });
}

}  // namespace sonnx::props
