// Provenance of output elements (see explain.hpp): the graph walk and the printing. What a node's
// clause says about one of its elements comes from the operator's own definition in src/ops/
// (OpVersion::decide); nothing here restates an operator.
#include "oracle/explain.hpp"

#include <onnx/onnx_pb.h>

#include "core/accuracy.hpp"
#include "core/format.hpp"
#include "core/index.hpp"
#include "core/order.hpp"
#include "oracle/compare.hpp"
#include "ops/computed.hpp"
#include "ops/registry.hpp"
#include "oracle/coverage.hpp"

namespace sonnx::explain {

struct Explainer::NodeData {
  graph::NodeInfo info;
};

namespace {

Element element_at(const std::string& name, const Tensor& t, std::int64_t offset) {
  return Element{name, index_of(t.shape(), offset), sonnx::element_text(t, offset), element_bits_text(t, offset)};
}

// [Acc.report] The terms and the accuracy numbers of a computed element.
void computed_step(const ops::NodeValues& v, const ops::Computation& c, const Tensor& y, Step& s) {
  s.term_count = c.terms;
  for (std::int64_t k : ops::listed_positions(c.terms, c.terms > 0 ? std::optional<std::int64_t>(c.terms - 1) : std::nullopt)) {
    const ops::Term term = c.term(k);
    TermText t;
    double product = 1;
    for (const auto& m : term.factors) {
      t.factors.push_back(element_at(v.input_names[m.input], *v.inputs[m.input], m.offset));
      product *= ops::member_real(v, m);
    }
    for (const auto& [name, x] : term.scalars) t.scalars.push_back({name, x}), product *= x;
    t.value = fmt::format("{:.17g}", product);
    s.terms.push_back(std::move(t));
    s.term_positions.push_back(k);
  }
  if (!info(y.dtype()).is_float) return;  // [Acc.int] exact: no bound
  const accuracy::Element& e = c.element;
  AccuracyText a;
  a.n = c.sums.n, a.depth = c.sums.depth, a.precision = accuracy::format_of(y.dtype()).p;
  a.magnitude = c.sums.mag, a.theta = accuracy::theta(y.dtype(), c.sums.depth);
  a.bound = e.bound, a.ideal = e.hi + e.lo, a.oracle = e.oracle, a.radius = e.radius;
  a.function = c.function;
  a.flush = c.function.empty() ? ops::flush_margin(v, c) : 0.0;  // [Acc.hyp.ftz] (a sum of products only)
  compare::AccuracyNote note;
  note.allowed = e.allowed;
  a.allowed = note.allowed_text();
  const double r = dispatch(y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      return real_value(y.values<T>()[static_cast<std::size_t>(offset_of(s.element.index, row_major_strides(y.shape())))]);
    } else {
      return 0.0;
    }
  });
  const accuracy::Judgement j = accuracy::judge(y.dtype(), e, r);
  a.error = j.error, a.fraction = j.fraction, a.ulps = j.ulps;
  s.accuracy = a;
}

// The step of an element of a node's output, as the operator's definition decides it.
Step operator_step(const graph::NodeInfo& node, const std::map<std::string, Tensor>& values, Step s) {
  const auto k = std::find(node.outputs.begin(), node.outputs.end(), s.element.tensor) - node.outputs.begin();
  const ops::NodeValues v = coverage::node_values(node, values, static_cast<std::size_t>(k));
  const ops::Decision d = node.op->decide(v, node.attributes, s.element.index);
  s.parameters = d.parameters;
  if (d.computed) {  // [Acc.report] a computed element: its terms, not its factors one by one
    computed_step(v, *d.computed, *v.output, s);
    s.clauses = d.clauses;
    s.reason = d.reason;
    s.stop = d.stop;
    return s;
  }
  s.set_name = d.set.name;
  s.set_size = d.set.size;
  s.chosen = d.chosen;
  for (std::int64_t k : ops::listed_positions(d.set.size, d.chosen)) {
    const ops::Member m = d.set.member(k);
    s.set.push_back(element_at(v.input_names[m.input], *v.inputs[m.input], m.offset));
    s.set_positions.push_back(k);
  }
  if (d.chosen) {
    const ops::Member m = d.set.member(*d.chosen);
    s.determining = element_at(v.input_names[m.input], *v.inputs[m.input], m.offset);
  }
  s.clauses = d.clauses;
  s.reason = d.reason;
  s.stop = d.stop;
  return s;
}

}  // namespace

// ---- Explainer ----------------------------------------------------------------------------------

Explainer::Explainer(const graph::Model& model, std::map<std::string, Tensor> values)
    : model_(model), values_(std::move(values)) {
  for (const auto& n : model.nodes()) {
    for (const auto& o : n.outputs)
      if (!o.empty()) producer_[o] = nodes_.size();
    nodes_.push_back(NodeData{n});
  }
}

Explainer::~Explainer() = default;

Step Explainer::step(const std::string& name, const std::vector<std::int64_t>& index) const {
  // What to explain is the caller's argument: a name the model does not have, or an index that is
  // not one of the value ([Common.tensor.index]: 0 <= i_k < d_k), is a usage error.
  auto v = values_.find(name);
  if (v == values_.end()) {
    std::string names;
    for (const auto& out : model_.outputs()) names += (names.empty() ? "" : ", ") + out.name;
    usage_error("the model has no value named '{}' (graph outputs: {}; intermediate values may be named too)", name, names);
  }
  const Tensor& t = v->second;
  if (static_cast<std::int64_t>(index.size()) != t.rank())
    usage_error("'{}' has shape {} (rank {}): the index {} has {} coordinate(s)", name, to_string(t.shape()), t.rank(),
                to_string(index), index.size());
  for (std::size_t k = 0; k < index.size(); ++k)
    if (index[k] < 0 || index[k] >= t.shape()[k])
      usage_error("the index {} is outside the shape {} of '{}' (axis {})", to_string(index), to_string(t.shape()), name, k);
  Step s;
  s.element = element_at(name, t, offset_of(index, row_major_strides(t.shape())));
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
  return operator_step(info, values_, std::move(s));
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
    if (s.term_count > 0 || s.accuracy) {  // [Acc.report] the terms of a computed element
      out += fmt::format("  its {} term{}, in the order of the operator's clause:\n", s.term_count, s.term_count == 1 ? "" : "s");
      for (std::size_t q = 0; q < s.terms.size(); ++q) {
        std::string factors;
        for (const auto& f : s.terms[q].factors)
          factors += (factors.empty() ? "" : " × ") + element_name(f.tensor, f.index) + " (" + f.value + ")";
        for (const auto& [name, x] : s.terms[q].scalars) factors += fmt::format("{}{} ({})", factors.empty() ? "" : " × ", name, x);
        out += fmt::format("    {:>3}: {} = {}\n", s.term_positions[q], factors, s.terms[q].value);
      }
      if (static_cast<std::int64_t>(s.terms.size()) < s.term_count)
        out += fmt::format("      ... ({} more)\n", s.term_count - static_cast<std::int64_t>(s.terms.size()));
    }
    if (s.accuracy) {
      const AccuracyText& a = *s.accuracy;
      if (a.function.empty())
        out += fmt::format("  n = {} terms, D = {}, S = Σ|t_k| = {:.9g}, u = 2^-{}, θ(D) = {:.6g}, bound B = θ(D)·S + U = {:.6g} "
                           "[Acc.bound]\n",
                           a.n, a.depth, a.magnitude, a.precision, a.theta, a.bound);
      else
        out += fmt::format("  {} elements read, u = 2^-{}, {}, bound B = {:.6g}\n", a.n, a.precision, a.function, a.bound);
      out += fmt::format("  ideal {:.17g} (the oracle's own error at most {:.3g}), radius R = {:.6g}, allowed: {} [Acc.verdict]\n",
                         a.ideal, a.oracle, a.radius, a.allowed);
      out += fmt::format("  the reference's value is {} from the ideal: {:.3g} of R, {:.3g} ulp [Acc.run]\n",
                         std::isfinite(a.error) ? fmt::format("{:.3g}", a.error) : std::string("(not finite)"), a.fraction, a.ulps);
      if (a.function.empty())
        out += fmt::format("  declared flush to zero (check --flush-subnormals) widens R by F = {:.3g} [Acc.hyp.ftz]\n", a.flush);
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
  if (s.term_count > 0 || s.accuracy) {  // [Acc.report]
    j["term_count"] = s.term_count;
    j["terms"] = nlohmann::ordered_json::array();
    for (std::size_t q = 0; q < s.terms.size(); ++q) {
      nlohmann::ordered_json t;
      t["position"] = s.term_positions[q];
      t["factors"] = nlohmann::ordered_json::array();
      for (const auto& f : s.terms[q].factors) t["factors"].push_back(element_json(f));
      for (const auto& [name, x] : s.terms[q].scalars) t["factors"].push_back({{"attribute", name}, {"value", x}});
      t["value"] = s.terms[q].value;
      j["terms"].push_back(t);
    }
  }
  if (s.accuracy) {
    const AccuracyText& a = *s.accuracy;
    auto num = [](double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr); };
    j["accuracy"] = {{"n", a.n},           {"depth", a.depth},       {"magnitude", num(a.magnitude)},
                     {"unit_roundoff", fmt::format("2^-{}", a.precision)},
                     {"theta", num(a.theta)}, {"bound", num(a.bound)},  {"ideal", num(a.ideal)},
                     {"oracle_error", num(a.oracle)}, {"radius", num(a.radius)}, {"allowed", a.allowed},
                     {"error", num(a.error)}, {"fraction", num(a.fraction)}, {"ulps", num(a.ulps)},
                     {"flush_margin", num(a.flush)}};
    if (!a.function.empty()) j["accuracy"]["hypothesis"] = a.function;  // the function's hypothesis, as its operator states it
  }
  return j;
}

nlohmann::ordered_json to_json(const Explanation& e) {
  nlohmann::ordered_json j;
  j["chain"] = nlohmann::ordered_json::array();
  for (const auto& s : e.chain) j["chain"].push_back(to_json(s));
  return j;
}

}  // namespace sonnx::explain
