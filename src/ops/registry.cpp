// The operator versions of sonnx-ref and their node adapters: attribute names and kinds
// ([Graph.node.attributes]), ONNX defaults ([Common.gr.defaults]), then the typed operator.
#include "ops/registry.hpp"

#include <algorithm>
#include <limits>

#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "ops/clip.hpp"
#include "ops/conv.hpp"
#include "ops/gemm.hpp"
#include "ops/matmul.hpp"
#include "ops/globalmaxpool.hpp"
#include "ops/hardmax.hpp"
#include "ops/maxpool.hpp"
#include "ops/max.hpp"
#include "ops/min.hpp"
#include "ops/reducemax.hpp"
#include "ops/reducemin.hpp"
#include "ops/relu.hpp"
#include "ops/averagepool.hpp"
#include "ops/globalaveragepool.hpp"

namespace sonnx::ops {

std::string attribute_kind_name(const AttributeValue& v) {
  switch (v.index()) {
    case 0: return "int";
    case 1: return "ints";
    case 2: return "float";
    case 3: return "floats";
    case 4: return "string";
    default: return "tensor";
  }
}

namespace {

using Kinds = std::map<std::string, std::string>;  // attribute name -> kind

// [Graph.node.attributes] every attribute is one the version defines, with its kind.
void check_attributes(const std::string& op, int version, const Attributes& a, const Kinds& allowed) {
  for (const auto& [attr, value] : a) {
    auto it = allowed.find(attr);
    if (it == allowed.end()) {
      std::string names;
      for (const auto& [n, kind] : allowed) names += (names.empty() ? "" : ", ") + n;
      refuse("Graph.node.attributes", "{}-{} has no attribute '{}' (its attributes: {})", op, version, attr,
             names.empty() ? "none" : names);
    }
    if (attribute_kind_name(value) != it->second)
      refuse("Graph.node.attributes", "{}-{}: attribute '{}' must be {}, got {}", op, version, attr, it->second,
             attribute_kind_name(value));
  }
}

// A kernel's one output, moved into the vector (a vector built from an initializer list would copy it).
std::vector<Tensor> single(Tensor&& t) {
  std::vector<Tensor> out;
  out.push_back(std::move(t));
  return out;
}

std::int64_t int_attribute(const Attributes& a, const std::string& n, std::int64_t default_value) {
  auto it = a.find(n);
  return it == a.end() ? default_value : std::get<std::int64_t>(it->second);  // [Common.gr.defaults]
}

// The typed functions of an element-wise fold (Max, Min: ops/variadic.hpp).
struct VariadicFunctions {
  Tensor (*run)(int, const std::vector<const Tensor*>&);
  Decision (*decide)(int, const NodeValues&, const std::vector<std::int64_t>&);
  std::vector<Reach> (*reach)(int, const NodeValues&, const std::vector<Source>&);
};

OpVersion variadic_version(const char* op, int v, VariadicFunctions f) {
  Kinds kinds;
  if (v == 1) kinds["consumed_inputs"] = "ints";  // [Max.v1] [Min.v1] legacy, accepted and ignored
  return {op, v, 1, std::numeric_limits<int>::max(), 1,
          [op, v, kinds, f](const Inputs& in, const Attributes& a, std::size_t) {
            check_attributes(op, v, a, kinds);
            return single(f.run(v, in));
          },
          [op, v, kinds](const Attributes& a) { check_attributes(op, v, a, kinds); },
          [v, f](const NodeValues& values, const Attributes&, const std::vector<std::int64_t>& i) {
            return f.decide(v, values, i);
          },
          [v, f](const NodeValues& values, const Attributes&, const std::vector<Source>& sources) {
            return f.reach(v, values, sources);
          }};
}

// The parameters of a reduction node (ReduceMax, ReduceMin: ops/reduce.hpp): attributes, defaults
// ([Common.gr.defaults]) and, from version 18, the optional `axes` input (read by `axes_input`);
// `from` (when given) records where each came from.
using AxesInput = std::vector<std::int64_t> (*)(const Tensor&);
ReduceParams reduce_params(int v, AxesInput axes_input, const Inputs& in, const Attributes& a,
                           ReduceSources* from = nullptr, const std::string& axes_input_name = "") {
  ReduceParams p;
  ReduceSources sources;
  sources.keepdims_default = !a.count("keepdims");
  p.keepdims = int_attribute(a, "keepdims", 1);
  if (v < 18) {
    if (auto it = a.find("axes"); it != a.end()) {
      p.axes = std::get<std::vector<std::int64_t>>(it->second);
      sources.axes = "attribute";
    }
  } else {
    sources.noop_default = !a.count("noop_with_empty_axes");
    p.noop_with_empty_axes = int_attribute(a, "noop_with_empty_axes", 0);
    if (in.size() > 1 && in[1] != nullptr) {
      p.axes = axes_input(*in[1]);
      sources.axes = "input '" + axes_input_name + "'";
    }
  }
  if (from) *from = sources;
  return p;
}

// The typed functions of a reduction.
struct ReduceFunctions {
  AxesInput axes_input;
  Tensor (*run)(int, const Tensor&, const ReduceParams&);
  Decision (*decide)(int, const NodeValues&, const ReduceParams&, const ReduceSources&, const std::vector<std::int64_t>&);
  std::vector<Reach> (*reach)(int, const NodeValues&, const ReduceParams&, const std::vector<Source>&);
};

OpVersion reduce_version(const char* op, int v, ReduceFunctions f) {
  Kinds kinds = {{"keepdims", "int"}};
  if (v < 18) kinds["axes"] = "ints";                  // [ReduceMax.v1] [ReduceMin.v1] axes is an attribute
  else kinds["noop_with_empty_axes"] = "int";         // [ReduceMax.v18] [ReduceMin.v18] axes is an input
  OpVersion out{op, v, 1, v < 18 ? 1 : 2, 1, [op, v, kinds, f](const Inputs& in, const Attributes& a, std::size_t) {
            check_attributes(op, v, a, kinds);
            return single(f.run(v, *in[0], reduce_params(v, f.axes_input, in, a)));
          },
          [op, v, kinds](const Attributes& a) { check_attributes(op, v, a, kinds); },
          [v, f](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& j) {
            ReduceSources from;
            const std::string axes_name = values.input_names.size() > 1 ? values.input_names[1] : "";
            const ReduceParams p = reduce_params(v, f.axes_input, values.inputs, a, &from, axes_name);
            return f.decide(v, values, p, from, j);
          },
          [v, f](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
            return f.reach(v, values, reduce_params(v, f.axes_input, values.inputs, a), sources);
          }};
  if (v >= 18) out.parameter_inputs = {{1, "axes"}};  // the axes input selects, it carries no value of a set
  return out;
}

// The typed functions of a position along an axis (ArgMax, ArgMin: ops/arg.hpp).
struct ArgFunctions {
  Tensor (*run)(int, const Tensor&, const ArgParams&);
  Decision (*decide)(int, const NodeValues&, const ArgParams&, const std::vector<std::int64_t>&);
  std::vector<Reach> (*reach)(int, const NodeValues&, const ArgParams&, const std::vector<Source>&);
};

// The attributes of ArgMax/ArgMin with ONNX's defaults ([Common.gr.defaults]): axis 0, keepdims 1,
// select_last_index 0 (versions 12 and 13).
ArgParams arg_params(const Attributes& a) {
  ArgParams p;
  p.axis = int_attribute(a, "axis", 0), p.axis_given = a.count("axis") > 0;
  p.keepdims = int_attribute(a, "keepdims", 1), p.keepdims_given = a.count("keepdims") > 0;
  p.select_last_index = int_attribute(a, "select_last_index", 0), p.last_given = a.count("select_last_index") > 0;
  return p;
}

OpVersion arg_version(const char* op, int v, ArgFunctions f) {
  Kinds kinds = {{"axis", "int"}, {"keepdims", "int"}};
  if (v >= 12) kinds["select_last_index"] = "int";  // [ArgMax.v12] [ArgMin.v12]
  OpVersion out{op, v, 1, 1, 1,
                [op, v, kinds, f](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes(op, v, a, kinds);
                  return single(f.run(v, *in[0], arg_params(a)));
                },
                [op, v, kinds](const Attributes& a) { check_attributes(op, v, a, kinds); },
                [v, f](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& j) {
                  return f.decide(v, values, arg_params(a), j);
                },
                [v, f](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
                  return f.reach(v, values, arg_params(a), sources);
                }};
  out.output_source = [](const std::vector<std::optional<Source>>&) { return Source::Limited; };  // positions
  out.output_dtype = [](std::size_t) -> std::optional<DType> { return DType::Int64; };  // [ArgMax.shape] [ArgMin.shape]
  return out;
}

OpVersion relu_version(int v) {
  Kinds kinds;
  if (v == 1) kinds["consumed_inputs"] = "ints";  // [Relu.v1] legacy, accepted and ignored
  OpVersion out{"Relu", v, 1, 1, 1,
                [v, kinds](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes("Relu", v, a, kinds);
                  return single(relu(v, *in[0]));
                },
                [v, kinds](const Attributes& a) { check_attributes("Relu", v, a, kinds); },
                [v](const NodeValues& values, const Attributes&, const std::vector<std::int64_t>& i) {
                  return decide_relu(v, values, i);
                },
                [v](const NodeValues& values, const Attributes&, const std::vector<Source>& sources) {
                  return reach_relu(v, values, sources);
                }};
  // [Relu.float.formula] +0, positives and NaN only: a Relu output cannot take every value of its type
  out.output_source = [](const std::vector<std::optional<Source>>& in) {
    return in[0] == Source::Fixed ? Source::Fixed : Source::Limited;
  };
  return out;
}

// The bounds of a Clip node: the float attributes of versions 1 and 6, the optional inputs 1 and 2
// of versions 11 and later ([Clip.bounds.attributes], [Clip.bounds.inputs]).
ClipBounds clip_bounds(int v, const Inputs& in, const Attributes& a) {
  ClipBounds b;
  if (v < 11) {
    if (auto it = a.find("min"); it != a.end()) b.min_attribute = std::get<float>(it->second);
    if (auto it = a.find("max"); it != a.end()) b.max_attribute = std::get<float>(it->second);
  } else {
    b.min_input = in.size() > 1 ? in[1] : nullptr;
    b.max_input = in.size() > 2 ? in[2] : nullptr;
  }
  return b;
}

OpVersion clip_version(int v) {
  Kinds kinds;
  if (v < 11) kinds = {{"min", "float"}, {"max", "float"}};  // [Clip.v1] [Clip.v6]
  if (v == 1) kinds["consumed_inputs"] = "ints";             // [Clip.v1] legacy, accepted and ignored
  OpVersion out{"Clip", v, 1, v < 11 ? 1 : 3, 1,
                [v, kinds](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes("Clip", v, a, kinds);
                  return single(clip(v, *in[0], clip_bounds(v, in, a)));
                },
                [v, kinds](const Attributes& a) { check_attributes("Clip", v, a, kinds); },
                [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& i) {
                  return decide_clip(v, values, clip_bounds(v, values.inputs, a), i);
                },
                [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
                  return reach_clip(v, values, clip_bounds(v, values.inputs, a), sources);
                }};
  // [Clip.float.formula] values between the bounds only: a Clip output cannot take every value of its type
  out.output_source = [](const std::vector<std::optional<Source>>& in) {
    return in[0] == Source::Fixed ? Source::Fixed : Source::Limited;
  };
  return out;
}

// The attributes of a MaxPool node, as given ([Common.gr.defaults] are applied by the operator).
PoolParams pool_params(const Attributes& a) {
  PoolParams p;
  const auto ints = [&](const char* n, std::vector<std::int64_t>& to, bool& given) {
    if (auto it = a.find(n); it != a.end()) to = std::get<std::vector<std::int64_t>>(it->second), given = true;
  };
  ints("kernel_shape", p.kernel_shape, p.has_kernel_shape);
  ints("strides", p.strides, p.has_strides);
  ints("pads", p.pads, p.has_pads);
  ints("dilations", p.dilations, p.has_dilations);
  if (auto it = a.find("auto_pad"); it != a.end()) p.auto_pad = std::get<std::string>(it->second);
  p.ceil_mode = int_attribute(a, "ceil_mode", 0);
  p.storage_order = int_attribute(a, "storage_order", 0);
  return p;
}

OpVersion maxpool_version(int v) {
  Kinds kinds = {{"auto_pad", "string"}, {"kernel_shape", "ints"}, {"pads", "ints"}, {"strides", "ints"}};  // [MaxPool.v1]
  if (v >= 8) kinds["storage_order"] = "int";                        // [MaxPool.v8]
  if (v >= 10) kinds["ceil_mode"] = "int", kinds["dilations"] = "ints";  // [MaxPool.v10]
  OpVersion out{"MaxPool", v, 1, 1, v >= 8 ? 2 : 1,  // [MaxPool.v8] the optional output Indices
                [v, kinds](const Inputs& in, const Attributes& a, std::size_t wanted) {
                  check_attributes("MaxPool", v, a, kinds);
                  return maxpool(v, *in[0], pool_params(a), wanted > 1);
                },
                [v, kinds](const Attributes& a) { check_attributes("MaxPool", v, a, kinds); },
                [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& i) {
                  return decide_maxpool(v, values, pool_params(a), i);
                },
                [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
                  return reach_maxpool(v, values, pool_params(a), sources);
                }};
  out.output_dtype = [](std::size_t k) -> std::optional<DType> {  // [MaxPool.indices] int64
    if (k == 1) return DType::Int64;
    return std::nullopt;
  };
  return out;
}

OpVersion globalmaxpool_version(int v) {
  return {"GlobalMaxPool", v, 1, 1, 1,
          [v](const Inputs& in, const Attributes& a, std::size_t) {
            check_attributes("GlobalMaxPool", v, a, {});
            return single(globalmaxpool(v, *in[0]));
          },
          [v](const Attributes& a) { check_attributes("GlobalMaxPool", v, a, {}); },
          [v](const NodeValues& values, const Attributes&, const std::vector<std::int64_t>& j) {
            return decide_globalmaxpool(v, values, j);
          },
          [v](const NodeValues& values, const Attributes&, const std::vector<Source>& sources) {
            return reach_globalmaxpool(v, values, sources);
          }};
}

OpVersion hardmax_version(int v) {
  OpVersion op{"Hardmax", v, 1, 1, 1, [v](const Inputs& in, const Attributes& a, std::size_t) {
            check_attributes("Hardmax", v, a, {{"axis", "int"}});
            return single(hardmax(v, *in[0], int_attribute(a, "axis", hardmax_default_axis(v))));
          },
          [v](const Attributes& a) { check_attributes("Hardmax", v, a, {{"axis", "int"}}); },
          [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& i) {
            return decide_hardmax(v, values, int_attribute(a, "axis", hardmax_default_axis(v)), a.count("axis") > 0, i);
          },
          [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
            return reach_hardmax(v, values, int_attribute(a, "axis", hardmax_default_axis(v)), sources);
          }};
  op.output_source = [](const std::vector<std::optional<Source>>&) { return Source::OneHot; };  // [Hardmax.float.values] 1 and +0 only
  return op;
}

// [Graph.node.arity] an input the operator requires, given an empty name
const Tensor& required(const Inputs& in, std::size_t k, const char* op, int v, const char* what) {
  if (k >= in.size() || in[k] == nullptr)
    refuse("Graph.node.arity", "{}-{}: input {} ({}) is required and was given no value", op, v, k, what);
  return *in[k];
}

// The attributes of a Conv node, as given ([Common.gr.defaults] are applied by the operator).
ConvParams conv_params(const Attributes& a) {
  ConvParams p;
  const auto ints = [&](const char* n, std::vector<std::int64_t>& to, bool& given) {
    if (auto it = a.find(n); it != a.end()) to = std::get<std::vector<std::int64_t>>(it->second), given = true;
  };
  ints("kernel_shape", p.window.kernel_shape, p.has_kernel_shape);
  ints("strides", p.window.strides, p.window.has_strides);
  ints("pads", p.window.pads, p.window.has_pads);
  ints("dilations", p.window.dilations, p.window.has_dilations);
  if (auto it = a.find("auto_pad"); it != a.end()) p.window.auto_pad = std::get<std::string>(it->second);
  p.group = int_attribute(a, "group", 1);
  return p;
}

OpVersion conv_version(int v) {
  // [Conv.v1] [Conv.v11] [Conv.v22] the same attributes in every version
  Kinds kinds = {{"auto_pad", "string"}, {"dilations", "ints"}, {"group", "int"},
                 {"kernel_shape", "ints"}, {"pads", "ints"}, {"strides", "ints"}};
  OpVersion out{"Conv", v, 2, 3, 1,
                [v, kinds](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes("Conv", v, a, kinds);
                  const Tensor& X = required(in, 0, "Conv", v, "X");
                  const Tensor& W = required(in, 1, "Conv", v, "W");
                  return single(conv(v, X, W, in.size() > 2 ? in[2] : nullptr, conv_params(a)));
                },
                [v, kinds](const Attributes& a) { check_attributes("Conv", v, a, kinds); },
                [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& i) {
                  return decide_conv(v, values, conv_params(a), i);
                },
                [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
                  return reach_conv(v, values, conv_params(a), sources);
                }};
  // [Acc.verdict] a sum of products: golden writes no witness through it
  out.output_source = [](const std::vector<std::optional<Source>>&) { return Source::Computed; };
  out.computes = true;
  return out;
}

// The attributes of a Gemm node with ONNX's defaults ([Common.gr.defaults]): alpha and beta 1.0,
// transA, transB and broadcast 0.
GemmParams gemm_params(const Attributes& a) {
  GemmParams p;
  if (auto it = a.find("alpha"); it != a.end()) p.alpha = std::get<float>(it->second);
  if (auto it = a.find("beta"); it != a.end()) p.beta = std::get<float>(it->second);
  p.trans_a = int_attribute(a, "transA", 0);
  p.trans_b = int_attribute(a, "transB", 0);
  p.broadcast = int_attribute(a, "broadcast", 0);
  return p;
}

OpVersion gemm_version(int v) {
  Kinds kinds = {{"alpha", "float"}, {"beta", "float"}, {"transA", "int"}, {"transB", "int"}};
  if (v < 7) kinds["broadcast"] = "int";  // [Gemm.v1] [Gemm.v6] [Gemm.v7] removes it
  // [Gemm.v11] C optional from version 11
  OpVersion out{"Gemm", v, v < 11 ? 3 : 2, 3, 1,
                [v, kinds](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes("Gemm", v, a, kinds);
                  const Tensor& A = required(in, 0, "Gemm", v, "A");
                  const Tensor& B = required(in, 1, "Gemm", v, "B");
                  if (v < 11) required(in, 2, "Gemm", v, "C");
                  return single(gemm(v, A, B, in.size() > 2 ? in[2] : nullptr, gemm_params(a)));
                },
                [v, kinds](const Attributes& a) { check_attributes("Gemm", v, a, kinds); },
                [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& i) {
                  return decide_gemm(v, values, gemm_params(a), i);
                },
                [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
                  return reach_gemm(v, values, gemm_params(a), sources);
                }};
  out.output_source = [](const std::vector<std::optional<Source>>&) { return Source::Computed; };  // [Acc.verdict]
  out.computes = true;
  return out;
}

OpVersion matmul_version(int v) {
  OpVersion out{"MatMul", v, 2, 2, 1,
                [v](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes("MatMul", v, a, {});
                  return single(matmul(v, required(in, 0, "MatMul", v, "A"), required(in, 1, "MatMul", v, "B")));
                },
                [v](const Attributes& a) { check_attributes("MatMul", v, a, {}); },
                [v](const NodeValues& values, const Attributes&, const std::vector<std::int64_t>& i) {
                  return decide_matmul(v, values, i);
                },
                [v](const NodeValues& values, const Attributes&, const std::vector<Source>& sources) {
                  return reach_matmul(v, values, sources);
                }};
  out.output_source = [](const std::vector<std::optional<Source>>&) { return Source::Computed; };  // [Acc.verdict]
  out.computes = true;
  return out;
}

// The attributes of an AveragePool node, as given ([Common.gr.defaults] are applied by the operator).
AveragePoolParams averagepool_params(const Attributes& a) {
  AveragePoolParams p;
  const auto ints = [&](const char* n, std::vector<std::int64_t>& to, bool& given) {
    if (auto it = a.find(n); it != a.end()) to = std::get<std::vector<std::int64_t>>(it->second), given = true;
  };
  ints("kernel_shape", p.window.kernel_shape, p.has_kernel_shape);
  ints("strides", p.window.strides, p.window.has_strides);
  ints("pads", p.window.pads, p.window.has_pads);
  ints("dilations", p.window.dilations, p.window.has_dilations);
  if (auto it = a.find("auto_pad"); it != a.end()) p.window.auto_pad = std::get<std::string>(it->second);
  p.window.ceil_mode = int_attribute(a, "ceil_mode", 0);
  p.count_include_pad = int_attribute(a, "count_include_pad", 0);
  return p;
}

OpVersion averagepool_version(int v) {
  Kinds kinds = {{"auto_pad", "string"}, {"kernel_shape", "ints"}, {"pads", "ints"}, {"strides", "ints"}};  // [AveragePool.v1]
  if (v >= 7) kinds["count_include_pad"] = "int";  // [AveragePool.v7]
  if (v >= 10) kinds["ceil_mode"] = "int";         // [AveragePool.v10]
  if (v >= 19) kinds["dilations"] = "ints";        // [AveragePool.v19]
  OpVersion out{"AveragePool", v, 1, 1, 1,
                [v, kinds](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes("AveragePool", v, a, kinds);
                  return single(averagepool(v, *in[0], averagepool_params(a)));
                },
                [v, kinds](const Attributes& a) { check_attributes("AveragePool", v, a, kinds); },
                [v](const NodeValues& values, const Attributes& a, const std::vector<std::int64_t>& i) {
                  return decide_averagepool(v, values, averagepool_params(a), i);
                },
                [v](const NodeValues& values, const Attributes& a, const std::vector<Source>& sources) {
                  return reach_averagepool(v, values, averagepool_params(a), sources);
                }};
  // [Acc.verdict] a mean: golden writes no witness through it
  out.output_source = [](const std::vector<std::optional<Source>>&) { return Source::Computed; };
  out.computes = true;
  return out;
}

OpVersion globalaveragepool_version(int v) {
  OpVersion out{"GlobalAveragePool", v, 1, 1, 1,
                [v](const Inputs& in, const Attributes& a, std::size_t) {
                  check_attributes("GlobalAveragePool", v, a, {});
                  return single(globalaveragepool(v, *in[0]));
                },
                [v](const Attributes& a) { check_attributes("GlobalAveragePool", v, a, {}); },
                [v](const NodeValues& values, const Attributes&, const std::vector<std::int64_t>& i) {
                  return decide_globalaveragepool(v, values, i);
                },
                [v](const NodeValues& values, const Attributes&, const std::vector<Source>& sources) {
                  return reach_globalaveragepool(v, values, sources);
                }};
  out.output_source = [](const std::vector<std::optional<Source>>&) { return Source::Computed; };  // [Acc.verdict]
  out.computes = true;
  return out;
}

std::vector<OpVersion> make_table() {
  std::vector<OpVersion> t;
  for (int v : {1, 6, 8, 12, 13}) t.push_back(variadic_version("Max", v, {max, decide_max, reach_max}));
  for (int v : {1, 11, 12, 13, 18, 20})
    t.push_back(reduce_version("ReduceMax", v, {axes_from_input, reduce_max, decide_reduce_max, reach_reduce_max}));
  for (int v : {1, 11, 13}) t.push_back(hardmax_version(v));
  for (int v : {1, 6, 8, 12, 13}) t.push_back(variadic_version("Min", v, {min, decide_min, reach_min}));
  for (int v : {1, 11, 12, 13, 18, 20})
    t.push_back(reduce_version("ReduceMin", v, {reducemin_axes_from_input, reduce_min, decide_reduce_min, reach_reduce_min}));
  for (int v : {1, 11, 12, 13}) t.push_back(arg_version("ArgMax", v, {argmax, decide_argmax, reach_argmax}));
  for (int v : {1, 11, 12, 13}) t.push_back(arg_version("ArgMin", v, {argmin, decide_argmin, reach_argmin}));
  for (int v : {1, 6, 13, 14}) t.push_back(relu_version(v));
  for (int v : {1, 6, 11, 12, 13}) t.push_back(clip_version(v));
  for (int v : {1, 8, 10, 11, 12, 22}) t.push_back(maxpool_version(v));
  for (int v : {1, 22}) t.push_back(globalmaxpool_version(v));
  for (int v : {1, 11, 22}) t.push_back(conv_version(v));
  for (int v : {1, 6, 7, 9, 11, 13}) t.push_back(gemm_version(v));
  for (int v : {1, 9, 13}) t.push_back(matmul_version(v));
  for (int v : {1, 7, 10, 11, 19, 22}) t.push_back(averagepool_version(v));
  for (int v : {1, 22}) t.push_back(globalaveragepool_version(v));
  return t;
}

}  // namespace

Source selection_source(const OpVersion& op, const std::vector<std::optional<Source>>& inputs) {
  bool all_free = true, all_one_hot = true;
  for (std::size_t m = 0; m < inputs.size(); ++m) {
    if (!inputs[m] || std::any_of(op.parameter_inputs.begin(), op.parameter_inputs.end(),
                                  [m](const OpVersion::Parameter& p) { return p.input == m; }))
      continue;  // an absent input, or one that selects
    all_free = all_free && *inputs[m] == Source::Free;
    all_one_hot = all_one_hot && *inputs[m] == Source::OneHot;
  }
  return all_free ? Source::Free : all_one_hot ? Source::OneHot : Source::Fixed;
}

const std::vector<OpVersion>& all_versions() {
  static const std::vector<OpVersion> table = make_table();
  return table;
}

std::string supported_operators() {
  std::string out, current;
  for (const OpVersion& v : all_versions()) {
    if (v.op_type != current) {
      out += (out.empty() ? "" : "; ") + v.op_type + " ";
      current = v.op_type;
    } else {
      out += ", ";
    }
    out += std::to_string(v.since_version);
  }
  return out;
}

const OpVersion& resolve(const std::string& op_type, std::int64_t opset) {
  const OpVersion* best = nullptr;
  bool known = false;
  for (const OpVersion& v : all_versions()) {
    if (v.op_type != op_type) continue;
    known = true;
    // [Graph.opset.resolve] the greatest since_version <= opset
    if (v.since_version <= opset && (!best || v.since_version > best->since_version)) best = &v;
  }
  if (!known)
    refuse("Graph.opset.unsupported", "operator '{}' is not supported (supported: {})", op_type, supported_operators());
  if (!best)
    refuse("Graph.opset.unsupported", "{} has no version at opset {} (supported: {})", op_type, opset,
           supported_operators());
  return *best;
}

}  // namespace sonnx::ops
