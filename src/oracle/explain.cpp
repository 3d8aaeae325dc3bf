// Provenance of output elements (see explain.hpp): each operator's clause restated as a scan over
// the set it ranges over; the scan's selected element is the determining input element.
#include "oracle/explain.hpp"

#include "core/format.hpp"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <stdexcept>

#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "graph/detail.hpp"
#include "ops/hardmax.hpp"
#include "ops/reducemax.hpp"
#include "ops/registry.hpp"
#include "oracle/compare.hpp"

namespace sonnx::explain {

struct Explainer::NodeData {
  graph::NodeInfo info;
  ops::Attributes attributes;
};

namespace {

// ---- elements ---------------------------------------------------------------------------------

std::int64_t offset_of(const Shape& shape, const std::vector<std::int64_t>& index) {
  const Strides strides = row_major_strides(shape);
  std::int64_t offset = 0;
  for (std::size_t k = 0; k < index.size(); ++k) offset += index[k] * strides[k];
  return offset;
}

Element element_at(const std::string& name, const Tensor& t, std::int64_t offset) {
  return Element{name, compare::unravel(t.shape(), offset), sonnx::element_text(t, offset),
                 element_bits_text(t, offset)};
}

bool same_bits(const Tensor& a, std::int64_t offset_a, const Tensor& b, std::int64_t offset_b) {
  const std::size_t size = static_cast<std::size_t>(info(a.dtype()).size);
  return a.dtype() == b.dtype() &&
         std::memcmp(a.bytes().data() + offset_a * size, b.bytes().data() + offset_b * size, size) == 0;
}

template <class T> bool element_is(const Tensor& t, std::int64_t offset, T value) {
  T x = t.values<T>()[offset];
  return std::memcmp(&x, &value, sizeof(T)) == 0;
}

[[noreturn]] void disagree(const Step& s) {
  throw std::logic_error(fmt::format("explain: the value derived from the spec for {} differs from the evaluated {}",
                                     element_name(s.element.tensor, s.element.index), s.element.value));
}

std::string set_values(const std::vector<Element>& set, std::int64_t size) {
  std::string out = "{";
  for (std::size_t k = 0; k < set.size(); ++k) out += (k ? ", " : "") + set[k].value;
  if (static_cast<std::int64_t>(set.size()) < size) out += fmt::format(", ... ({} in all)", size);
  return out + "}";
}

// ---- the scan every clause of the three operators restates ----------------------------------

// Over a sequence S(0..n-1): the first NaN if any ([Common.order.nan], [Common.order.nan-payload]),
// else the first element that no element is greater than under [Common.order.total] /
// [Common.order.int] — the element a left fold of max_of ([Common.order.max]) keeps, and the h of
// [Hardmax.float.first-max].
struct Scan {
  std::int64_t position = -1;  // -1: empty sequence
  bool nan = false;            // the selected element is the first NaN
  std::int64_t nans = 0;       // NaNs in the sequence
  bool zero_tie = false;       // the selected element is +0 and the sequence holds a -0
  std::int64_t equal = 0;      // other elements equal to the selected one (non-NaN)
};

template <class T, class Read> Scan scan(std::int64_t n, Read read) {
  Scan s;
  for (std::int64_t k = 0; k < n; ++k)
    if (is_nan(read(k))) {
      if (!s.nan) s.position = k, s.nan = true;
      ++s.nans;
    }
  if (s.nan || n == 0) return s;
  s.position = 0;
  for (std::int64_t k = 1; k < n; ++k)
    if (greater(read(k), read(s.position))) s.position = k;
  const T top = read(s.position);
  for (std::int64_t k = 0; k < n; ++k) {
    const T x = read(k);
    if (k != s.position && !greater(top, x)) ++s.equal;
    if constexpr (is_float_v<T>)
      if (real_value(top) == 0.0 && !negative_sign(top) && real_value(x) == 0.0 && negative_sign(x)) s.zero_tie = true;
  }
  return s;
}

// The positions listed for a set of n elements: all when n <= kListed, else the first
// kListed - 1 and the chosen one.
std::vector<std::int64_t> listed_positions(std::int64_t n, std::int64_t chosen) {
  std::vector<std::int64_t> out;
  const std::int64_t head = n <= static_cast<std::int64_t>(kListed) ? n : static_cast<std::int64_t>(kListed) - 1;
  for (std::int64_t k = 0; k < head; ++k) out.push_back(k);
  if (chosen >= head) out.push_back(chosen);
  return out;
}

std::string attr_int_text(const ops::Attributes& a, const char* name, std::int64_t fallback, std::int64_t& value) {
  auto it = a.find(name);
  value = it == a.end() ? fallback : std::get<std::int64_t>(it->second);
  return fmt::format("{} = {}{}", name, value, it == a.end() ? " (default)" : "");
}

// ---- Max ----------------------------------------------------------------------------------------

Step max_step(const graph::NodeInfo& node, const std::map<std::string, Tensor>& values, Step s) {
  const Tensor& Y = values.at(s.element.tensor);
  const std::int64_t y_offset = offset_of(Y.shape(), s.element.index);
  // [Common.broadcast.map] Ẋm[i] = Xm[f(i_{k+pad}, dXm_k, dY_k)], f(a, B, C) = a if B = C else 0.
  struct Member {
    const std::string* name;
    const Tensor* t;
    std::int64_t offset;
  };
  std::vector<Member> members;
  bool broadcast = false;
  for (const auto& in : node.inputs) {
    const Tensor& X = values.at(in);
    const std::size_t pad = Y.shape().size() - X.shape().size();
    std::vector<std::int64_t> xi(X.shape().size());
    for (std::size_t k = 0; k < xi.size(); ++k) xi[k] = X.shape()[k] == Y.shape()[k + pad] ? s.element.index[k + pad] : 0;
    broadcast = broadcast || X.shape() != Y.shape();
    members.push_back({&in, &X, offset_of(X.shape(), xi)});
  }
  const auto n = static_cast<std::int64_t>(members.size());
  const Scan sc = dispatch(Y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return scan<T>(n, [&](std::int64_t m) { return members[m].t->template values<T>()[members[m].offset]; });
  });
  s.set_name = "the set {Ẋm[i]}: each input at the index broadcasting maps i to, in input order";
  s.set_size = n;
  s.chosen = sc.position;
  for (std::int64_t m : listed_positions(n, sc.position)) {
    s.set.push_back(element_at(*members[m].name, *members[m].t, members[m].offset));
    s.set_positions.push_back(m);
  }
  const Member& c = members[sc.position];
  s.determining = element_at(*c.name, *c.t, c.offset);
  const std::string y = element_name(s.element.tensor, s.element.index);
  const std::string x = element_name(*c.name, s.determining->index);
  const std::string set = set_values(s.set, n);
  const bool is_float = info(Y.dtype()).is_float;
  if (sc.nan) {
    s.clauses = {"Max.float.nan", "Common.order.nan-payload"};
    s.reason = fmt::format("{} is NaN because input {} ({}) is the first NaN of the set {}{}; the result is that NaN, bit for bit",
                           y, sc.position, x, set, sc.nans > 1 ? fmt::format(" ({} NaNs in all)", sc.nans) : "");
  } else if (sc.zero_tie) {
    s.clauses = {"Max.float.zero"};
    s.reason = fmt::format("{} = +0 because the set {} holds -0 and +0 and nothing greater: max(-0, +0) = +0 (input {}, {})",
                           y, set, sc.position, x);
  } else {
    s.clauses = {is_float ? "Max.float.formula" : "Max.int.formula"};
    s.reason = fmt::format("{} = {} because it is the greatest element of the set {}, first attained by input {} ({}){}", y,
                           s.determining->value, set, sc.position, x,
                           sc.equal > 0 ? " — equal elements are the same value, the first is kept" : "");
  }
  if (broadcast) s.clauses.push_back("Common.broadcast.map");
  if (!same_bits(*c.t, c.offset, Y, y_offset)) disagree(s);
  return s;
}

// ---- ReduceMax ----------------------------------------------------------------------------------

Step reducemax_step(const graph::NodeInfo& node, const ops::Attributes& attrs,
                    const std::map<std::string, Tensor>& values, Step s) {
  const Tensor& Y = values.at(s.element.tensor);
  const std::string& x_name = node.inputs[0];
  const Tensor& X = values.at(x_name);
  const std::int64_t r = X.rank();
  std::int64_t keepdims = 1, noop = 0;
  std::string params = attr_int_text(attrs, "keepdims", 1, keepdims);
  std::optional<std::vector<std::int64_t>> axes;
  std::string axes_text;
  if (node.version < 18) {
    if (auto it = attrs.find("axes"); it != attrs.end()) {
      axes = std::get<std::vector<std::int64_t>>(it->second);
      axes_text = fmt::format("axes = {} (attribute)", to_string(*axes));
    }
  } else {
    params += ", " + attr_int_text(attrs, "noop_with_empty_axes", 0, noop);
    if (node.inputs.size() > 1 && !node.inputs[1].empty()) {
      axes = ops::axes_from_input(values.at(node.inputs[1]));
      axes_text = fmt::format("axes = {} (input '{}')", to_string(*axes), node.inputs[1]);
    }
  }
  if (axes_text.empty()) axes_text = "axes absent";
  s.parameters = axes_text + ", " + params;
  const std::string y = element_name(s.element.tensor, s.element.index);
  const std::int64_t y_offset = offset_of(Y.shape(), s.element.index);

  if ((!axes || axes->empty()) && node.version >= 18 && noop == 1) {  // [ReduceMax.axes.noop] Y = X
    s.set_name = "X at the same index (Y = X)";
    s.set_size = 1;
    s.chosen = 0;
    s.set.push_back(element_at(x_name, X, y_offset));
    s.set_positions.push_back(0);
    s.determining = s.set.front();
    s.clauses = {"ReduceMax.axes.noop"};
    s.reason = fmt::format("{} = {} because axes is empty and noop_with_empty_axes = 1: Y is X", y, s.determining->value);
    if (!same_bits(X, y_offset, Y, y_offset)) disagree(s);
    return s;
  }
  std::vector<bool> reduced(static_cast<std::size_t>(r), axes && !axes->empty() ? false : true);
  bool negative = false;
  if (axes)
    for (std::int64_t a : *axes) {
      negative = negative || a < 0;
      reduced[a < 0 ? a + r : a] = true;  // [ReduceMax.axes.normalise]
    }
  // The index of X that j fixes: kept axes from j (all of j's axes when keepdims = 1, else j's
  // axes in order), reduced axes walked by R(j).
  std::vector<std::int64_t> xi(static_cast<std::size_t>(r), 0), reduced_axes;
  for (std::size_t k = 0, jk = 0; k < static_cast<std::size_t>(r); ++k) {
    if (reduced[k]) {
      reduced_axes.push_back(static_cast<std::int64_t>(k));
      if (keepdims == 1) ++jk;
    } else {
      xi[k] = s.element.index[jk++];
    }
  }
  // |R(j)|: bounded by X.size() unless a reduced dim is 0 (then R(j) is empty, whatever the others)
  std::int64_t n = 1;
  for (std::int64_t a : reduced_axes) n = X.shape()[a] == 0 ? 0 : n;
  if (n != 0)
    for (std::int64_t a : reduced_axes) n *= X.shape()[a];
  const Strides strides = row_major_strides(X.shape());
  const std::int64_t base = offset_of(X.shape(), xi);
  // R(j)'s k-th element in row-major order: the digits of k over the reduced dims, last one fastest.
  auto member_offset = [&](std::int64_t k) {
    std::int64_t offset = base;
    for (std::size_t q = reduced_axes.size(); q-- > 0;) {
      const std::int64_t d = X.shape()[reduced_axes[q]];
      offset += (k % d) * strides[reduced_axes[q]];
      k /= d;
    }
    return offset;
  };
  const Scan sc = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto x = X.values<T>();
    return scan<T>(n, [&](std::int64_t k) { return x[member_offset(k)]; });
  });
  std::string kept;
  for (std::int64_t k = 0; k < r; ++k)
    if (!reduced[k]) kept += (kept.empty() ? "" : ", ") + std::to_string(k);
  s.set_name = fmt::format("R(j): the elements of {} whose index agrees with j on the kept axes (axes: {}), in row-major order",
                           x_name, kept.empty() ? "none" : kept);
  s.set_size = n;
  if (!axes || axes->empty()) s.clauses.push_back("ReduceMax.axes.default");
  if (negative) s.clauses.push_back("ReduceMax.axes.normalise");
  const DType t = X.dtype();
  if (n == 0) {  // [ReduceMax.float.empty] [ReduceMax.int.empty] [ReduceMax.bool.empty]
    const char* id = info(t).is_float ? "ReduceMax.float.empty" : t == DType::Bool ? "ReduceMax.bool.empty" : "ReduceMax.int.empty";
    s.clauses.insert(s.clauses.begin(), id);
    s.reason = fmt::format("{} = {} because R(j) is empty (a reduced dimension is 0): the value of the empty set", y,
                           s.element.value);
    s.stop = "the set is empty: no input element determined the value";
    const bool ok = dispatch(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return element_is<T>(Y, y_offset, lowest<T>());
    });
    if (!ok) disagree(s);
    return s;
  }
  s.chosen = sc.position;
  for (std::int64_t k : listed_positions(n, sc.position)) {
    s.set.push_back(element_at(x_name, X, member_offset(k)));
    s.set_positions.push_back(k);
  }
  const std::int64_t chosen_offset = member_offset(sc.position);
  s.determining = element_at(x_name, X, chosen_offset);
  const std::string x = element_name(x_name, s.determining->index);
  const std::string set = set_values(s.set, n);
  std::vector<std::string> first;
  if (t == DType::Bool) {
    first = {"ReduceMax.bool.formula"};
    s.reason = s.determining->value == "true"
                   ? fmt::format("{} = true because R(j) = {} holds a true; the first is {}", y, set, x)
                   : fmt::format("{} = false because no element of R(j) = {} is true", y, set);
  } else if (sc.nan) {
    first = {"ReduceMax.float.nan", "Common.order.nan-payload"};
    s.reason = fmt::format("{} is NaN because {} is the first NaN of R(j) = {} in row-major order{}; the result is that NaN, bit for bit",
                           y, x, set, sc.nans > 1 ? fmt::format(" ({} NaNs in all)", sc.nans) : "");
  } else if (sc.zero_tie) {
    first = {"ReduceMax.float.zero"};
    s.reason = fmt::format("{} = +0 because R(j) = {} holds -0 and +0 and nothing greater (+0 first at {})", y, set, x);
  } else {
    first = {info(t).is_float ? "ReduceMax.float.formula" : "ReduceMax.int.formula"};
    s.reason = fmt::format("{} = {} because it is the greatest element of R(j) = {}, first met at {}", y,
                           s.determining->value, set, x);
  }
  s.clauses.insert(s.clauses.begin(), first.begin(), first.end());
  if (!same_bits(X, chosen_offset, Y, y_offset)) disagree(s);
  return s;
}

// ---- Hardmax ------------------------------------------------------------------------------------

Step hardmax_step(const graph::NodeInfo& node, const ops::Attributes& attrs,
                  const std::map<std::string, Tensor>& values, Step s) {
  const Tensor& Y = values.at(s.element.tensor);
  const std::string& x_name = node.inputs[0];
  const Tensor& X = values.at(x_name);
  const std::int64_t r = X.rank();
  std::int64_t axis = 0;
  s.parameters = attr_int_text(attrs, "axis", ops::hardmax_default_axis(node.version), axis);
  const std::int64_t k = axis < 0 ? axis + r : axis;  // [Hardmax.axis.normalise]
  if (axis < 0) s.parameters += fmt::format(" -> axis {}", k);
  const std::int64_t y_offset = offset_of(Y.shape(), s.element.index);
  const Strides strides = row_major_strides(X.shape());
  std::int64_t n, position, base, step;
  if (node.version >= 13) {  // [Hardmax.float.formula] the slice along axis k through i
    n = X.shape()[k];
    position = s.element.index[k];
    base = y_offset - position * strides[k];
    step = strides[k];
    s.set_name = fmt::format("the slice of {} along axis {} through {}", x_name, k, element_name(x_name, s.element.index));
  } else {  // [Hardmax.coerce] row y_offset / D of the [N, D] view
    std::int64_t D = 1;
    for (std::int64_t a = k; a < r; ++a) D *= X.shape()[a];
    n = D;
    position = y_offset % D;
    base = y_offset - position;
    step = 1;
    s.set_name = fmt::format("row {} of {} viewed as the matrix [{}, {}] (axis {})", y_offset / D, x_name, X.size() / D, D, k);
  }
  const Scan sc = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto x = X.values<T>();
    return scan<T>(n, [&](std::int64_t j) { return x[base + j * step]; });
  });
  const std::int64_t h = sc.position;
  s.set_size = n;
  s.chosen = h;
  for (std::int64_t j : listed_positions(n, h)) {
    s.set.push_back(element_at(x_name, X, base + j * step));
    s.set_positions.push_back(j);
  }
  s.determining = element_at(x_name, X, base + h * step);
  const std::string at_h = element_text(*s.determining);
  std::string why;
  if (sc.nan) {
    s.clauses = {"Hardmax.float.nan"};
    why = fmt::format("the first NaN of the slice is at position {} ({})", h, at_h);
  } else if (sc.zero_tie) {
    s.clauses = {"Hardmax.float.zero", "Hardmax.float.first-max"};
    why = fmt::format("the maximum is +0, greater than -0 under the total order; its first position is {} ({})", h, at_h);
  } else {
    s.clauses = {"Hardmax.float.first-max"};
    why = fmt::format("the first maximum of the slice is at position {} ({}){}", h, at_h,
                      sc.equal > 0 ? fmt::format("; {} later element(s) are equal to it", sc.equal) : "");
  }
  s.clauses.push_back(node.version >= 13 ? "Hardmax.float.formula" : "Hardmax.coerce");
  s.clauses.push_back("Hardmax.float.values");
  const std::string y = element_name(s.element.tensor, s.element.index);
  s.reason = position == h ? fmt::format("{} = 1 because its position in the slice is h = {}: {}", y, h, why)
                           : fmt::format("{} = +0 because its position {} in the slice is not h = {}: {}", y, position, h, why);
  s.stop = "a Hardmax element depends on the whole slice (every element was compared): the chain stops here";
  const bool ok = dispatch(X.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) return element_is<T>(Y, y_offset, position == h ? one<T>() : zero<T>());
    else return false;
  });
  if (!ok) disagree(s);
  return s;
}

}  // namespace

// ---- Explainer ----------------------------------------------------------------------------------

Explainer::Explainer(const graph::Model& model, std::map<std::string, Tensor> values)
    : model_(model), values_(std::move(values)) {
  // The attributes of each node, read again from the model (graph::NodeInfo does not carry them).
  onnx::ModelProto proto;
  proto.ParseFromString(model.serialized());
  std::map<std::string, ops::Attributes> by_first_output;
  for (int i = 0; i < proto.graph().node_size(); ++i) {
    const auto& n = proto.graph().node(i);
    if (n.output_size() > 0 && n.op_type() != "Constant")
      by_first_output[n.output(0)] = graph::detail::convert_attributes(n, graph::detail::describe(n, i));
  }
  for (const auto& n : model.nodes()) {
    NodeData d{n, {}};
    if (auto it = by_first_output.find(n.outputs.at(0)); it != by_first_output.end()) d.attributes = it->second;
    for (const auto& o : n.outputs)
      if (!o.empty()) producer_[o] = nodes_.size();
    nodes_.push_back(std::move(d));
  }
}

Explainer::~Explainer() = default;

Step Explainer::step(const std::string& name, const std::vector<std::int64_t>& index) const {
  auto v = values_.find(name);
  if (v == values_.end()) refuse("Common.tensor.index", "the model has no value named '{}'", name);
  const Tensor& t = v->second;
  if (static_cast<std::int64_t>(index.size()) != t.rank())
    refuse("Common.tensor.index", "'{}' has shape {} (rank {}): the index {} has {} coordinate(s)", name,
           to_string(t.shape()), t.rank(), to_string(index), index.size());
  for (std::size_t k = 0; k < index.size(); ++k)  // [Common.tensor.index] 0 <= i_k < d_k
    if (index[k] < 0 || index[k] >= t.shape()[k])
      refuse("Common.tensor.index", "index {} is outside the shape {} of '{}' (axis {})", to_string(index),
             to_string(t.shape()), name, k);
  Step s;
  s.element = element_at(name, t, offset_of(t.shape(), index));
  auto p = producer_.find(name);
  if (p == producer_.end()) {
    bool fed_input = false, overridable = false;
    for (const auto& in : model_.inputs()) fed_input = fed_input || in.name == name;
    for (const auto& in : model_.overridable_inputs()) overridable = overridable || in.name == name;
    if (fed_input) {
      s.producer = fmt::format("graph input '{}'", name);
      s.reason = fmt::format("{} is a graph input: its value is the one fed in INPUTS", name);
    } else {
      s.producer = fmt::format("{} '{}'", overridable ? "graph input with an initializer" : "initializer", name);
      s.clauses = {"Graph.initializer"};
      s.reason = fmt::format("{} is {}", name, overridable ? "the fed value, or else the initializer" : "an initializer of the model");
    }
    s.stop = "the chain ends at a value of the graph";
    return s;
  }
  const NodeData& node = nodes_[p->second];
  const auto& info = node.info;
  s.producer = info.name.empty() ? fmt::format("an unnamed node ({}-{})", info.op_type, info.version)
                                 : fmt::format("node '{}' ({}-{})", info.name, info.op_type, info.version);
  if (info.op_type == "Constant") {
    s.clauses = {"Graph.constant"};
    s.reason = fmt::format("{} is the value of a Constant node", name);
    s.stop = "the chain ends at a constant";
    return s;
  }
  if (info.op_type == "Max") return max_step(info, values_, std::move(s));
  if (info.op_type == "ReduceMax") return reducemax_step(info, node.attributes, values_, std::move(s));
  if (info.op_type == "Hardmax") return hardmax_step(info, node.attributes, values_, std::move(s));
  s.reason = fmt::format("{} is not an operator explain knows", info.op_type);
  s.stop = "unknown operator";
  return s;
}

Explanation Explainer::chain(const std::string& name, const std::vector<std::int64_t>& index) const {
  Explanation e;
  e.chain.push_back(step(name, index));
  // Each step goes one node up a DAG: at most one step per node, plus the graph value at the top.
  while (e.chain.back().stop.empty() && e.chain.back().determining && e.chain.size() <= nodes_.size() + 1) {
    const Element next = *e.chain.back().determining;
    e.chain.push_back(step(next.tensor, next.index));
  }
  return e;
}

// ---- presentation -------------------------------------------------------------------------------

std::string element_name(const std::string& tensor, const std::vector<std::int64_t>& index) {
  return tensor + to_string(index);
}

std::string element_text(const Element& e) {
  return fmt::format("{} = {}{}", element_name(e.tensor, e.index), e.value, e.value == "nan" ? " (" + e.bits + ")" : "");
}

std::string to_text(const Explanation& e) {
  std::string out;
  for (std::size_t k = 0; k < e.chain.size(); ++k) {
    const Step& s = e.chain[k];
    out += fmt::format("{}{} ({})\n", k == 0 ? "" : "\n", element_text(s.element), s.element.bits);
    out += fmt::format("  produced by {}{}\n", s.producer, s.parameters.empty() ? "" : ", " + s.parameters);
    if (!s.set_name.empty()) {
      out += fmt::format("  {} ({} element{}):\n", s.set_name, s.set_size, s.set_size == 1 ? "" : "s");
      std::int64_t previous = -1;
      for (std::size_t q = 0; q < s.set.size(); ++q) {
        const std::int64_t position = s.set_positions[q];
        if (position > previous + 1) out += "      ...\n";
        out += fmt::format("    {:>3}: {}{}\n", position, element_text(s.set[q]),
                           s.chosen && *s.chosen == position ? "   <- selected" : "");
        previous = position;
      }
      if (previous + 1 < s.set_size) out += fmt::format("      ... ({} more)\n", s.set_size - previous - 1);
    }
    out += "  " + s.reason + "\n";
    if (!s.clauses.empty()) {
      out += "  clauses:";
      for (const auto& id : s.clauses) out += " [" + id + "]";
      out += "\n";
    }
    if (!s.stop.empty()) out += "  " + s.stop + "\n";
    else if (s.determining) out += "  determined by " + element_text(*s.determining) + "\n";
  }
  return out;
}

namespace {
nlohmann::ordered_json element_json(const Element& e) {
  return {{"tensor", e.tensor}, {"index", e.index}, {"value", e.value}, {"bits", e.bits}};
}
}  // namespace

nlohmann::ordered_json to_json(const Step& s) {
  nlohmann::ordered_json j;
  j["element"] = element_json(s.element);
  j["producer"] = s.producer;
  j["parameters"] = s.parameters;
  j["set_name"] = s.set_name;
  j["set_size"] = s.set_size;
  j["set"] = nlohmann::ordered_json::array();
  for (std::size_t q = 0; q < s.set.size(); ++q) {
    auto e = element_json(s.set[q]);
    e["position"] = s.set_positions[q];
    j["set"].push_back(e);
  }
  j["chosen"] = s.chosen ? nlohmann::ordered_json(*s.chosen) : nlohmann::ordered_json(nullptr);
  j["clauses"] = s.clauses;
  j["reason"] = s.reason;
  j["determining"] = s.determining ? element_json(*s.determining) : nlohmann::ordered_json(nullptr);
  j["stop"] = s.stop;
  return j;
}

nlohmann::ordered_json to_json(const Explanation& e) {
  nlohmann::ordered_json j;
  j["chain"] = nlohmann::ordered_json::array();
  for (const auto& s : e.chain) j["chain"].push_back(to_json(s));
  return j;
}

}  // namespace sonnx::explain
