// Properties of the node-level clauses the operator registry carries: which version an opset
// resolves to, attribute names and kinds per version, and the ONNX defaults of absent attributes
// (spec/common/graph.md, spec/common/restrictions.md, the Versions sections of spec/ops/).
#include <algorithm>

#include "gen/props.hpp"
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "ops/clip.hpp"
#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/maxpool.hpp"
#include "ops/min.hpp"
#include "ops/reducemax.hpp"
#include "ops/reducemin.hpp"
#include "ops/registry.hpp"
#include "ops/relu.hpp"

namespace sonnx::props::registry_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

// The versions of every operator of the family (the Versions sections of spec/ops/).
const std::vector<int>& versions_of(const std::string& op) {
  if (op == "Max") return kMaxVersions;
  if (op == "ReduceMax") return kReduceMaxVersions;
  if (op == "Hardmax") return kHardmaxVersions;
  if (op == "Min") return kMinVersions;
  if (op == "ReduceMin") return kReduceMinVersions;
  if (op == "ArgMax" || op == "ArgMin") return kArgVersions;
  if (op == "Relu") return kReluVersions;
  if (op == "Clip") return kClipVersions;
  if (op == "MaxPool") return kMaxPoolVersions;
  return kGlobalMaxPoolVersions;
}

rc::Gen<std::string> op_type() {
  return gen::one_of<std::string>({"Max", "ReduceMax", "Hardmax", "Min", "ReduceMin", "ArgMax", "ArgMin", "Relu", "Clip",
                                   "MaxPool", "GlobalMaxPool"});
}

// The attributes each version of the operators added with the min order and the windows defines,
// with their kinds (the Versions and Attributes sections of spec/ops/).
std::map<std::string, std::string> attributes_of(const std::string& op, int v) {
  std::map<std::string, std::string> a;
  if ((op == "Min" || op == "Relu") && v == 1) a["consumed_inputs"] = "ints";  // [Min.v1] [Relu.v1]
  if (op == "ReduceMin") {
    a["keepdims"] = "int";
    if (v < 18) a["axes"] = "ints";  // [ReduceMin.v18] axes becomes an input
    else a["noop_with_empty_axes"] = "int";
  }
  if (op == "ArgMax" || op == "ArgMin") {
    a["axis"] = "int";
    a["keepdims"] = "int";
    if (v >= 12) a["select_last_index"] = "int";  // [ArgMax.v12] [ArgMin.v12]
  }
  if (op == "Clip" && v < 11) a["min"] = "float", a["max"] = "float";  // [Clip.v1] [Clip.v6]
  if (op == "Clip" && v == 1) a["consumed_inputs"] = "ints";
  if (op == "MaxPool") {
    a["auto_pad"] = "string", a["kernel_shape"] = "ints", a["pads"] = "ints", a["strides"] = "ints";  // [MaxPool.v1]
    if (v >= 8) a["storage_order"] = "int";                                                         // [MaxPool.v8]
    if (v >= 10) a["ceil_mode"] = "int", a["dilations"] = "ints";                                   // [MaxPool.v10]
  }
  return a;  // GlobalMaxPool: none
}

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
      op = *gen::one_of<std::string>({"Erf", "max", "MAX", "ReduceProd", "Gelu", "Argmax", "", "Max ", "HardMax", "Celu", "softmax"});
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
    const std::string op = *gen::one_of<std::string>({"Max", "ReduceMax", "Hardmax"});
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

TEST_CASE("[Graph.node.attributes] [Min.v1] [Min.v6] [ReduceMin.v1] [ReduceMin.v18] [ArgMax.v1] [ArgMax.v12] "
          "[ArgMin.v1] [ArgMin.v12] [Relu.v1] [Relu.v6] [Clip.v1] [Clip.v6] [Clip.v11] [MaxPool.v1] [MaxPool.v8] "
          "[MaxPool.v10] [GlobalMaxPool.v1] an attribute the version does not define, or of the wrong kind, is refused",
          "[graph][props][error]") {
  check("undefined name or wrong kind: refused with Graph.node.attributes", [] {
    const std::string op =
        *gen::one_of<std::string>({"Min", "ReduceMin", "ArgMax", "ArgMin", "Relu", "Clip", "MaxPool", "GlobalMaxPool"});
    const int v = *gen::one_of(versions_of(op));
    const auto defined = attributes_of(op, v);
    const std::vector<std::string> names = {"axis", "axes", "keepdims", "noop_with_empty_axes", "consumed_inputs",
                                            "select_last_index", "min", "max", "kernel_shape", "pads", "strides",
                                            "dilations", "auto_pad", "ceil_mode", "storage_order", "Axis", ""};
    const std::string attr = *gen::one_of(names);
    const std::vector<ops::AttributeValue> values = {std::int64_t{1}, std::vector<std::int64_t>{0}, 1.0f,
                                                     std::vector<float>{1.0f}, std::string("1")};
    const auto value = *gen::one_of(values);
    const auto it = defined.find(attr);
    const bool undefined_or_wrong_kind = it == defined.end() || it->second != ops::attribute_kind_name(value);
    RC_PRE(undefined_or_wrong_kind);
    const Tensor X(DType::Float, {1, 1, 2}, "X");
    ops::Attributes attributes{{attr, value}};
    RC_ASSERT(refusal_id([&] { ops::resolve(op, v).run({&X}, attributes, 1); }) == "Graph.node.attributes");
    RC_TAG(it == defined.end() ? "undefined attribute" : "wrong kind");
  });
}

TEST_CASE("[Common.gr.defaults] [ArgMax.v1] [ArgMax.v12] [ArgMin.v1] [ArgMin.v12] [ReduceMin.v1] [ReduceMin.v18] "
          "[MaxPool.v1] [MaxPool.v8] [MaxPool.v10] an absent attribute takes the ONNX default of the version",
          "[graph][props]") {
  check("ArgMax, ArgMin: absent axis = 0, keepdims = 1, select_last_index = 0", [] {
    const std::string op = *gen::one_of<std::string>({"ArgMax", "ArgMin"});
    const int v = *gen::one_of(kArgVersions);
    const DType t = *gen::dtype_of(spec_arg_types(v));
    Shape s = *gen::shape({1, 4, 64, true});
    if (s[0] == 0) s[0] = 1;
    const Tensor X = *gen::tensor(t, s);
    ops::ArgParams p;
    p.axis = 0, p.keepdims = 1, p.select_last_index = 0;
    const auto Y = ops::resolve(op, v).run({&X}, {}, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], op == "ArgMax" ? ops::argmax(v, X, p) : ops::argmin(v, X, p)));
  });
  check("ReduceMin: absent keepdims = 1, absent noop_with_empty_axes = 0, absent axes = all", [] {
    const int v = *gen::one_of(kReduceMinVersions);
    const DType t = *gen::dtype_of(spec_reducemin_types(v));
    const Tensor X = *gen::tensor(t, *gen::shape());
    const auto Y = ops::resolve("ReduceMin", v).run({&X}, {}, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], ops::reduce_min(v, X, {std::nullopt, 1, 0})));
  });
  check("MaxPool: absent strides, dilations = 1s, pads = 0s, auto_pad = NOTSET, ceil_mode = storage_order = 0", [] {
    const PoolCase c = *gen::pool_case();
    std::vector<std::int64_t> k = c.params.kernel_shape;  // no pads, dilation 1: a kernel within the input
    const auto l = k.size();
    for (std::size_t d = 0; d < l; ++d) {
      RC_PRE(c.X.shape()[2 + d] >= 1);
      k[d] = std::min(k[d], c.X.shape()[2 + d]);
    }
    ops::Attributes given{{"kernel_shape", k}};
    ops::PoolParams p;
    p.kernel_shape = k, p.has_kernel_shape = true;
    p.strides.assign(l, 1), p.has_strides = true;
    p.pads.assign(2 * l, 0), p.has_pads = true;
    if (c.version >= 10) p.dilations.assign(l, 1), p.has_dilations = true;
    const std::size_t outputs = c.version >= 8 ? 2 : 1;
    const auto Y = ops::resolve("MaxPool", c.version).run({&c.X}, given, outputs);
    const auto explicit_defaults = ops::maxpool(c.version, c.X, p, outputs == 2);
    RC_ASSERT(Y.size() == explicit_defaults.size());
    for (std::size_t o = 0; o < Y.size(); ++o) RC_ASSERT(same_bits(Y[o], explicit_defaults[o]));
  });
}

TEST_CASE("[Min.v1] [Relu.v1] [Clip.v1] versions 1 accept the legacy attribute consumed_inputs and ignore it",
          "[graph][props]") {
  check("Min-1, Relu-1, Clip-1 with consumed_inputs = anything give the result without it", [] {
    const std::string op = *gen::one_of<std::string>({"Min", "Relu", "Clip"});
    const DType t = *gen::dtype_of({DType::Float16, DType::Float, DType::Double});
    const Tensor X = *gen::tensor(t, *gen::shape());
    const auto consumed = *rc::gen::container<std::vector<std::int64_t>>(gen::index<std::int64_t>(-2, 3));
    const auto with = ops::resolve(op, 1).run({&X}, {{"consumed_inputs", consumed}}, 1);
    const auto without = ops::resolve(op, 1).run({&X}, {}, 1);
    RC_ASSERT(with.size() == 1u);
    RC_ASSERT(same_bits(with[0], without[0]));
  });
}

TEST_CASE("[ReduceMin.v18] from version 18 the axes come from the optional second input", "[graph][props]") {
  check("ReduceMin-18/20 node with an axes input = reduce_min with those axes", [] {
    ReduceMaxCase c = *gen::reducemin_case({.versions = {18, 20}});
    Tensor axes(DType::Int64, {static_cast<std::int64_t>(c.axes ? c.axes->size() : 0)}, "axes");
    if (c.axes)
      for (std::size_t k = 0; k < c.axes->size(); ++k)
        set_bits_at(axes, static_cast<std::int64_t>(k), static_cast<std::uint64_t>((*c.axes)[k]));
    ops::Attributes a{{"keepdims", c.keepdims}, {"noop_with_empty_axes", c.noop_with_empty_axes}};
    const auto Y = ops::resolve("ReduceMin", c.version).run({&c.data, c.axes ? &axes : nullptr}, a, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], ops::reduce_min(c.version, c.data, c.params())));
    RC_CLASSIFY(!c.axes, "no axes input");
  });
}

TEST_CASE("[Clip.bounds.inputs] [Clip.bounds.attributes] [Clip.v6] [Clip.v11] a Clip node takes its bounds from the "
          "attributes (1, 6) or the inputs min and max (11+), an empty input name being an absent bound",
          "[graph][props]") {
  check("the node's bounds are the ClipBounds of its attributes or inputs", [] {
    const ClipCase c = *gen::clip_case();
    ops::Attributes a;
    std::vector<const Tensor*> in = {&c.X};
    if (c.version < 11) {
      const ops::ClipBounds b = c.bounds();
      if (b.min_attribute) a["min"] = *b.min_attribute;
      if (b.max_attribute) a["max"] = *b.max_attribute;
    } else {
      // An absent min before a present max is the empty name: a null input in second position.
      if (c.min_input || c.max_input) in.push_back(c.min_input ? &*c.min_input : nullptr);
      if (c.max_input) in.push_back(&*c.max_input);
    }
    const auto Y = ops::resolve("Clip", c.version).run(in, a, 1);
    RC_ASSERT(Y.size() == 1u);
    RC_ASSERT(same_bits(Y[0], ops::clip(c.version, c.X, c.bounds())));
    RC_CLASSIFY(c.version >= 11 && !c.min_input && c.max_input, "empty min name");
  });
}

TEST_CASE("[MaxPool.v8] [MaxPool.indices] from version 8 a MaxPool node with two outputs also gives Indices (int64, "
          "Y's shape), and Y does not depend on it",
          "[graph][props]") {
  check("node outputs = maxpool(X, attributes, with Indices); Y the same with one output", [] {
    const PoolCase c = *gen::pool_case({.versions = {8, 10, 11, 12, 22}});
    const auto& p = c.params;
    ops::Attributes a{{"kernel_shape", p.kernel_shape}};
    if (p.has_strides) a["strides"] = p.strides;
    if (p.has_pads) a["pads"] = p.pads;
    if (p.has_dilations) a["dilations"] = p.dilations;
    if (p.auto_pad != "NOTSET" || *gen::flag()) a["auto_pad"] = p.auto_pad;
    if (c.version >= 10) a["ceil_mode"] = p.ceil_mode;
    a["storage_order"] = p.storage_order;
    const auto two = ops::resolve("MaxPool", c.version).run({&c.X}, a, 2);
    const auto one = ops::resolve("MaxPool", c.version).run({&c.X}, a, 1);
    RC_ASSERT(two.size() == 2u);
    RC_ASSERT(two[1].dtype() == DType::Int64);
    RC_ASSERT(two[1].shape() == two[0].shape());
    RC_ASSERT(same_bits(one[0], two[0]));
    const auto direct = ops::maxpool(c.version, c.X, p, true);
    RC_ASSERT(same_bits(two[0], direct[0]));
    RC_ASSERT(same_bits(two[1], direct[1]));
  });
}

}  // namespace sonnx::props::registry_props
