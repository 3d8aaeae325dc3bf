// [Check.chain] Read with spec/common/check.md's clause: intervals per element, in evaluation order; a node
// with an inexact input evaluated by its own kernel at the corners of its inputs' intervals (each end rounded
// inward to T), its interval the hull min c − max R, max c + max R over the corners.
#include "oracle/chain.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <vector>

#include "core/accuracy.hpp"
#include "core/error.hpp"
#include "core/float16.hpp"
#include "core/order.hpp"
#include "core/format.hpp"
#include "ops/registry.hpp"

namespace sonnx::chain {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The interval of one value: lo[i] <= any value of element i <= hi[i]; empty vectors: exact (the value itself).
struct Interval {
  std::vector<double> lo, hi;
  bool exact() const { return lo.empty(); }
};

// [Check.chain] the operators whose formula is monotone in each input element on a box (and whose radius is
// largest at a corner): the element-wise ones (every combination of ends) and the non-decreasing reductions.
const std::set<std::string> kElementwise = {"Add", "Sub", "Mul", "Div", "Exp", "Log", "Sqrt", "Tanh",
                                            "Sigmoid", "Relu", "Max", "Min", "Sum"};
const std::set<std::string> kReductions = {"ReduceSum", "ReduceMax", "ReduceMin"};

double value_at(const Tensor& t, std::int64_t k) {
  return dispatch(t.dtype(), [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) return real_value(t.values<T>()[static_cast<std::size_t>(k)]);
    else return static_cast<double>(t.values<T>()[static_cast<std::size_t>(k)]);
  });
}

// The value of T nearest x, then one step inward while it lies outside: `up` — the least value of T >= x;
// otherwise the greatest value of T <= x (x finite, within T's range).
template <class T> T inward(double x, bool up) {
  accuracy::Element e;
  e.hi = x;
  const std::uint64_t b = accuracy::run_bits(dtype_of<T>(), e);
  bits_t<T> raw = static_cast<bits_t<T>>(b);
  T v;
  std::memcpy(&v, &raw, sizeof v);
  const double r = real_value(v);
  if (up ? r >= x : r <= x) return v;
  // one step of T toward x: on the sign-magnitude pattern, away from zero when moving away from zero
  constexpr bits_t<T> sign = static_cast<bits_t<T>>(bits_t<T>{1} << (8 * sizeof(T) - 1));
  const bool negative = (raw & sign) != 0;
  const bool away = up != negative;  // moving up from a positive value, or down from a negative one
  if (away) ++raw;
  else if ((raw & static_cast<bits_t<T>>(~sign)) == 0) raw = static_cast<bits_t<T>>((up ? 0 : sign) | 1);  // ±0: the least subnormal
  else --raw;
  std::memcpy(&v, &raw, sizeof v);
  return v;
}

// The tensor of `ref`'s type and shape holding one end of an interval, rounded inward.
Tensor end_tensor(const Tensor& ref, const Interval& iv, bool high) {
  Tensor out(ref.dtype(), ref.shape(), "an end of an interval [Check.chain]", Fill::Unspecified);
  dispatch(ref.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      T* y = out.values<T>().data();
      for (std::size_t k = 0; k < iv.lo.size(); ++k) y[k] = high ? inward<T>(iv.hi[k], false) : inward<T>(iv.lo[k], true);
    }
  });
  return out;
}

// The tensor whose elements are the ends of larger magnitude (the radius of a sum grows with every |x|).
Tensor magnitude_tensor(const Tensor& ref, const Interval& iv) {
  Tensor lo = end_tensor(ref, iv, false), hi = end_tensor(ref, iv, true);
  Tensor out = hi;
  dispatch(ref.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_v<T>) {
      const T* a = lo.values<T>().data();
      T* y = out.values<T>().data();
      for (std::size_t k = 0; k < iv.lo.size(); ++k)
        if (std::fabs(real_value(a[k])) > std::fabs(real_value(y[k]))) y[k] = a[k];
    }
  });
  return out;
}

// One evaluation's centre and radius per element (R = 0 for a value judged bit for bit); false when some
// element may be an infinity or a NaN, or is one.
bool centres(const Tensor& y, std::vector<double>& c, std::vector<double>& R) {
  const auto n = static_cast<std::size_t>(y.size());
  c.resize(n), R.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (y.annex) {
      const accuracy::Element e = y.annex->at(static_cast<std::int64_t>(k));
      if (e.allowed != accuracy::kFinite || !std::isfinite(e.radius)) return false;
      c[k] = e.hi + e.lo, R[k] = e.radius;
    } else {
      c[k] = value_at(y, static_cast<std::int64_t>(k)), R[k] = 0;
    }
    if (!std::isfinite(c[k])) return false;
  }
  return true;
}

}  // namespace

bool needed(const graph::Model& model, const std::map<std::string, Tensor>& values) {
  for (const auto& n : model.nodes())
    for (const auto& in : n.inputs) {
      auto it = values.find(in);
      if (in.empty() || it == values.end() || !it->second.annex) continue;
      for (const auto& producer : model.nodes())
        if (std::find(producer.outputs.begin(), producer.outputs.end(), in) != producer.outputs.end()) return true;
    }
  return false;
}

std::optional<std::map<std::string, Tensor>> enclose(const graph::Model& model, const std::map<std::string, Tensor>& values,
                                                     std::string* why) {
  std::map<std::string, Interval> iv;  // the inexact values; every other value is exact
  const auto fail = [&](std::string reason) {
    *why = std::move(reason);
    return std::nullopt;
  };
  for (const auto& n : model.nodes()) {
    if (!n.op || n.outputs.empty()) continue;  // a Constant: exact
    const std::string label = fmt::format("node '{}' ({}-{})", n.name, n.op_type, n.version);
    std::vector<std::size_t> inexact;
    for (std::size_t p = 0; p < n.inputs.size(); ++p)
      if (!n.inputs[p].empty() && iv.count(n.inputs[p])) inexact.push_back(p);
    const Tensor& ref = values.at(n.outputs[0]);
    if (inexact.empty()) {
      // [Check.chain] exact inputs: the node's own value, or its [ŷ − R, ŷ + R] when computed
      if (!ref.annex || !info(ref.dtype()).is_float) continue;
      Interval out;
      std::vector<double> c, R;
      if (!centres(ref, c, R)) return fail(label + " may give an infinity or a NaN");
      for (std::size_t k = 0; k < c.size(); ++k) out.lo.push_back(c[k] - R[k]), out.hi.push_back(c[k] + R[k]);
      iv[n.outputs[0]] = std::move(out);
      continue;
    }
    if (n.outputs.size() != 1) return fail(label + " has several outputs");
    const bool elementwise = kElementwise.count(n.op_type) > 0, reduction = kReductions.count(n.op_type) > 0;
    if (!elementwise && !reduction) return fail(label + " reads a computed value and has no corner rule [Check.chain]");
    if (n.op_type == "Div" && inexact.back() == 1) {  // [Check.chain] no divisor interval holds 0
      const Interval& d = iv.at(n.inputs[1]);
      for (std::size_t k = 0; k < d.lo.size(); ++k)
        if (!(d.lo[k] > 0 || d.hi[k] < 0)) return fail(label + ": a divisor interval holds 0");
    }
    // the corners: element-wise, every combination of ends of the inexact inputs; a reduction, all low, all
    // high, and the ends of larger magnitude (for the radius)
    std::vector<std::vector<Tensor>> ends;  // ends[q] = {low, high, magnitude} of inexact input q
    for (std::size_t p : inexact) {
      const Tensor& x = values.at(n.inputs[p]);
      if (!info(x.dtype()).is_float) return fail(label + ": an inexact input that is not a float");
      ends.push_back({end_tensor(x, iv.at(n.inputs[p]), false), end_tensor(x, iv.at(n.inputs[p]), true),
                      magnitude_tensor(x, iv.at(n.inputs[p]))});
    }
    std::vector<std::vector<int>> corners;
    if (elementwise) {
      if (inexact.size() > 10) return fail(label + ": too many inexact inputs");
      for (std::size_t mask = 0; mask < (std::size_t{1} << inexact.size()); ++mask) {
        std::vector<int> pick;
        for (std::size_t q = 0; q < inexact.size(); ++q) pick.push_back((mask >> q) & 1);
        corners.push_back(pick);
      }
    } else {
      for (int e : {0, 1, 2}) corners.push_back(std::vector<int>(inexact.size(), e));
    }
    const auto size = static_cast<std::size_t>(ref.size());
    std::vector<double> cmin(size, kInf), cmax(size, -kInf), rmax(size, 0);
    for (const auto& pick : corners) {
      ops::Inputs in;
      for (const auto& name : n.inputs) in.push_back(name.empty() ? nullptr : &values.at(name));
      for (std::size_t q = 0; q < inexact.size(); ++q) in[inexact[q]] = &ends[q][static_cast<std::size_t>(pick[q])];
      std::vector<Tensor> out = n.op->run(in, n.attributes, 1);
      std::vector<double> c, R;
      if (out.empty() || static_cast<std::size_t>(out[0].size()) != size || !centres(out[0], c, R))
        return fail(label + " may give an infinity or a NaN at a corner of its inputs' intervals");
      const bool radius_only = reduction && pick[0] == 2;  // the magnitude corner: its radius only
      for (std::size_t k = 0; k < size; ++k) {
        if (!radius_only) cmin[k] = std::min(cmin[k], c[k]), cmax[k] = std::max(cmax[k], c[k]);
        rmax[k] = std::max(rmax[k], R[k]);
      }
    }
    Interval out;
    for (std::size_t k = 0; k < size; ++k) {
      // [Check.chain] the hull, its ends moved one binary64 step outward for their own rounding
      out.lo.push_back(std::nextafter(cmin[k] - rmax[k], -kInf));
      out.hi.push_back(std::nextafter(cmax[k] + rmax[k], kInf));
      if (!std::isfinite(out.lo.back()) || !std::isfinite(out.hi.back())) return fail(label + ": an interval that is not finite");
    }
    iv[n.outputs[0]] = std::move(out);
  }
  std::map<std::string, Tensor> result;
  for (const auto& o : model.outputs()) {
    auto it = iv.find(o.name);
    if (it == iv.end()) continue;
    Tensor t = values.at(o.name);
    auto annex = std::make_shared<accuracy::Annex>();
    annex->dtype = t.dtype();
    annex->clause = "Check.chain";
    annex->resize(static_cast<std::size_t>(t.size()));
    for (std::size_t k = 0; k < it->second.lo.size(); ++k) {
      accuracy::Element e;
      const double lo = it->second.lo[k], hi = it->second.hi[k];
      e.hi = lo / 2 + hi / 2;
      e.radius = e.bound = std::nextafter(std::max(hi - e.hi, e.hi - lo), kInf);
      e.allowed = accuracy::kFinite;
      annex->set(k, e);
    }
    t.annex = std::move(annex);
    result.emplace(o.name, std::move(t));
  }
  return result;
}

}  // namespace sonnx::chain
