// Every error condition of the operator documents and of the common clauses the operators
// refuse on: a generator that violates exactly that condition, and a property that the call is
// refused with exactly that ID (spec/README.md section 7: tests compare the ID, not the message).
// The acceptance side — every input that violates nothing is accepted — is checked too where
// the condition is a table (types per version).
#include <algorithm>
#include <limits>

#include "gen/props.hpp"
#include "ops/argmax.hpp"
#include "ops/argmin.hpp"
#include "ops/clip.hpp"
#include "ops/globalmaxpool.hpp"
#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/maxpool.hpp"
#include "ops/min.hpp"
#include "ops/reducemax.hpp"
#include "ops/reducemin.hpp"
#include "ops/relu.hpp"

namespace sonnx::props::errors_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

std::vector<Tensor> tensors_for(DType t, const std::vector<Shape>& shapes) {
  std::vector<Tensor> xs;
  for (const Shape& s : shapes) xs.push_back(Tensor(t, s, "X"));  // +0 / 0 elements: values do not matter
  return xs;
}
std::vector<const Tensor*> pointers(const std::vector<Tensor>& xs) {
  std::vector<const Tensor*> p;
  for (const Tensor& x : xs) p.push_back(&x);
  return p;
}

}  // namespace

// ---- Max ------------------------------------------------------------------------------------

TEST_CASE("[Max.err.arity] Max without inputs is refused", "[max][props][error]") {
  check("Max-v() is refused with Max.err.arity", [] {
    const int v = *gen::one_of(kMaxVersions);
    RC_ASSERT(refusal_id([&] { ops::max(v, {}); }) == "Max.err.arity");
  });
}

TEST_CASE("[Max.err.type] [Common.gr.no-conversion] inputs of different element types are refused",
          "[max][props][error]") {
  check("two accepted dtypes mixed among the inputs: refused with Max.err.type", [] {
    const int v = *gen::one_of(kMaxVersions);
    const auto types = spec_max_types(v);
    const gen::BroadcastTuple b = v >= 8 ? *gen::broadcastable(2, 6) : *gen::same_shapes(2, 6);
    const DType a = *gen::dtype_of(types);
    std::vector<DType> others;
    for (DType t : types)
      if (t != a) others.push_back(t);
    const DType o = *gen::dtype_of(others);
    const std::size_t odd = *gen::index<std::size_t>(1, b.inputs.size());  // some input after X0
    std::vector<Tensor> xs;
    for (std::size_t m = 0; m < b.inputs.size(); ++m)
      xs.push_back(Tensor(m == odd || (m > 0 && *gen::weighted<bool>({{3, false}, {1, true}})) ? o : a, b.inputs[m], "X"));
    RC_ASSERT(refusal_id([&] { ops::max(v, pointers(xs)); }) == "Max.err.type");
  });
}

TEST_CASE("[Max.err.dtype] [Max.v1] [Max.v6] [Max.v8] [Max.v12] [Max.v13] "
          "a type outside the version's constraint is refused, every type inside is accepted",
          "[max][props][error]") {
  check("refused with Max.err.dtype iff the dtype is not in T of the version", [] {
    const int v = *gen::one_of(kMaxVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const DType t = *gen::dtype_of(outside ? complement(spec_max_types(v)) : spec_max_types(v));
    const gen::BroadcastTuple b = v >= 8 ? *gen::broadcastable(1, 4) : *gen::same_shapes(1, 4);
    const auto xs = tensors_for(t, b.inputs);
    RC_ASSERT(refusal_id([&] { ops::max(v, pointers(xs)); }) == (outside ? "Max.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

TEST_CASE("[Max.err.same-shape] [Max.v1] [Max.v6] before version 8 inputs of different shapes are refused",
          "[max][props][error]") {
  check("shapes not all identical: Max-1 and Max-6 refuse with Max.err.same-shape", [] {
    const int v = *gen::one_of<int>({1, 6});
    const DType t = *gen::dtype_of(spec_max_types(v));
    const auto xs = tensors_for(t, *gen::not_all_same());
    RC_ASSERT(refusal_id([&] { ops::max(v, pointers(xs)); }) == "Max.err.same-shape");
  });
}

TEST_CASE("[Max.err.broadcast] [Common.broadcast.error] [Max.v8] shapes that do not broadcast are refused",
          "[max][props][error]") {
  check("two padded sizes on one axis, both not 1 and different: refused with Max.err.broadcast", [] {
    const int v = *gen::one_of<int>({8, 12, 13});
    const DType t = *gen::dtype_of(spec_max_types(v));
    const auto shapes = *gen::not_broadcastable();
    const auto xs = tensors_for(t, shapes);
    RC_ASSERT(refusal_id([&] { ops::max(v, pointers(xs)); }) == "Max.err.broadcast");
    bool zero = false;
    for (const Shape& s : shapes) zero = zero || std::count(s.begin(), s.end(), 0) > 0;
    RC_CLASSIFY(zero, "a size 0 against another size");
  });
}

// ---- ReduceMax ------------------------------------------------------------------------------

TEST_CASE("[ReduceMax.err.axis-range] [ReduceMax.v1] [ReduceMax.v11] "
          "an axis outside [-r, r-1] (outside [0, r-1] in version 1) is refused",
          "[reducemax][props][error]") {
  check("valid distinct axes plus one out of range: refused with ReduceMax.err.axis-range", [] {
    const int v = *gen::one_of(kReduceMaxVersions);
    const DType t = *gen::dtype_of(spec_reducemax_types(v));
    const Shape s = *gen::shape();
    const auto r = static_cast<std::int64_t>(s.size());
    std::vector<std::int64_t> axes = *gen::axes_listing(*gen::axes_mask(r), v >= 11);
    const std::int64_t bad = *gen::invalid_axis(v, r);
    axes.insert(axes.begin() + static_cast<std::ptrdiff_t>(*gen::index<std::size_t>(0, axes.size() + 1)), bad);
    const Tensor X(t, s, "X");
    ops::ReduceMaxParams p{axes, *gen::flag(), v >= 18 ? *gen::flag() : 0};
    RC_ASSERT(refusal_id([&] { ops::reduce_max(v, X, p); }) == "ReduceMax.err.axis-range");
    RC_CLASSIFY(r == 0, "rank 0");
    RC_CLASSIFY(v < 11 && bad < 0 && bad >= -r, "negative axis in version 1");
  });
}

TEST_CASE("[ReduceMax.err.axis-duplicate] [ReduceMax.axes.normalise] an axis named twice is refused",
          "[reducemax][props][error]") {
  check("an axis listed twice (as a, or as a and a - r): refused with ReduceMax.err.axis-duplicate", [] {
    const int v = *gen::one_of(kReduceMaxVersions);
    const DType t = *gen::dtype_of(spec_reducemax_types(v));
    const Shape s = *gen::shape({1, 5, 64, true});
    const auto r = static_cast<std::int64_t>(s.size());
    std::vector<std::int64_t> axes = *gen::axes_listing(*gen::axes_mask(r, true), v >= 11);
    const std::int64_t a = axes[*gen::index<std::size_t>(0, axes.size())];
    const std::int64_t k = a < 0 ? a + r : a;
    const std::int64_t again = v >= 11 && *gen::weighted<bool>({{1, false}, {1, true}}) ? k - r : k;
    axes.insert(axes.begin() + static_cast<std::ptrdiff_t>(*gen::index<std::size_t>(0, axes.size() + 1)), again);
    const Tensor X(t, s, "X");
    ops::ReduceMaxParams p{axes, *gen::flag(), 0};
    RC_ASSERT(refusal_id([&] { ops::reduce_max(v, X, p); }) == "ReduceMax.err.axis-duplicate");
    RC_CLASSIFY(std::count(axes.begin(), axes.end(), again) == 1, "two forms of one axis");
  });
}

TEST_CASE("[ReduceMax.err.axes-input] [ReduceMax.v18] the axes input must be an int64 tensor of rank 1",
          "[reducemax][props][error]") {
  check("a non-int64 axes tensor, or one of rank other than 1: refused with ReduceMax.err.axes-input", [] {
    const bool wrong_type = *gen::weighted<bool>({{1, false}, {1, true}});
    DType t = DType::Int64;
    Shape s;
    if (wrong_type) {
      t = *gen::dtype_of(complement({DType::Int64}));
      s = {*gen::index<std::int64_t>(0, 4)};
    } else {
      s = *gen::one_of<Shape>({{}, {1, 1}, {2, 1}, {1, 2, 1}, {0, 0}});
    }
    const Tensor axes(t, s, "axes");
    RC_ASSERT(refusal_id([&] { ops::axes_from_input(axes); }) == "ReduceMax.err.axes-input");
    RC_TAG(wrong_type ? "wrong type" : "wrong rank");
  });
  check("an int64 tensor of rank 1 is read as the axes list", [] {
    const auto values = *rc::gen::container<std::vector<std::int64_t>>(gen::index<std::int64_t>(-6, 6));
    Tensor axes(DType::Int64, {static_cast<std::int64_t>(values.size())}, "axes");
    for (std::size_t k = 0; k < values.size(); ++k)
      set_bits_at(axes, static_cast<std::int64_t>(k), static_cast<std::uint64_t>(values[k]));
    RC_ASSERT(ops::axes_from_input(axes) == values);
  });
}

TEST_CASE("[ReduceMax.err.flag] keepdims or noop_with_empty_axes outside {0, 1} is refused",
          "[reducemax][props][error]") {
  check("a flag of value other than 0 and 1: refused with ReduceMax.err.flag", [] {
    const int v = *gen::one_of(kReduceMaxVersions);
    const DType t = *gen::dtype_of(spec_reducemax_types(v));
    const Tensor X(t, *gen::shape(), "X");
    ops::ReduceMaxParams p;
    p.keepdims = *gen::flag();
    const bool bad_noop = v >= 18 && *gen::weighted<bool>({{1, false}, {1, true}});
    if (bad_noop) p.noop_with_empty_axes = *gen::bad_flag();
    else p.keepdims = *gen::bad_flag();
    RC_ASSERT(refusal_id([&] { ops::reduce_max(v, X, p); }) == "ReduceMax.err.flag");
    RC_TAG(bad_noop ? "noop_with_empty_axes" : "keepdims");
  });
}

TEST_CASE("[ReduceMax.err.dtype] [ReduceMax.v1] [ReduceMax.v11] [ReduceMax.v12] [ReduceMax.v13] [ReduceMax.v18] "
          "[ReduceMax.v20] a type outside the version's constraint is refused, every type inside is accepted",
          "[reducemax][props][error]") {
  check("refused with ReduceMax.err.dtype iff the dtype is not in T of the version", [] {
    const int v = *gen::one_of(kReduceMaxVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const auto allowed = spec_reducemax_types(v);
    const DType t = *gen::dtype_of(outside ? complement(allowed) : allowed);
    const Tensor X(t, *gen::shape(), "X");
    RC_ASSERT(refusal_id([&] { ops::reduce_max(v, X, {}); }) == (outside ? "ReduceMax.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

// ---- Hardmax --------------------------------------------------------------------------------

TEST_CASE("[Hardmax.err.axis-range] [Hardmax.v1] [Hardmax.v11] [Hardmax.v13] "
          "an axis outside [-r, r-1] (outside [0, r-1] in version 1) is refused, and so is every axis for rank 0",
          "[hardmax][props][error]") {
  check("out-of-range axis: refused with Hardmax.err.axis-range", [] {
    const int v = *gen::one_of(kHardmaxVersions);
    const DType t = *gen::dtype_of(spec_hardmax_types(v));
    const Shape s = *gen::shape();
    const auto r = static_cast<std::int64_t>(s.size());
    const std::int64_t axis = r == 0 && *gen::weighted<bool>({{1, false}, {1, true}})
                                  ? *gen::index<std::int64_t>(-2, 3)  // rank 0: no axis at all is valid
                                  : *gen::invalid_axis(v, r);
    const Tensor X(t, s, "X");
    RC_ASSERT(refusal_id([&] { ops::hardmax(v, X, axis); }) == "Hardmax.err.axis-range");
    RC_CLASSIFY(r == 0, "rank 0");
    RC_CLASSIFY(v == 1 && axis < 0 && axis >= -r, "negative axis in version 1");
  });
}

TEST_CASE("[Hardmax.err.dtype] [Hardmax.v1] [Hardmax.v11] [Hardmax.v13] "
          "a type outside the version's constraint is refused, every type inside is accepted",
          "[hardmax][props][error]") {
  check("refused with Hardmax.err.dtype iff the dtype is not in T of the version", [] {
    const int v = *gen::one_of(kHardmaxVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const auto allowed = spec_hardmax_types(v);
    const DType t = *gen::dtype_of(outside ? complement(allowed) : allowed);
    const Shape s = *gen::shape({1, 5, 64, true});
    const Tensor X(t, s, "X");
    const std::int64_t axis = *gen::valid_axis(v, static_cast<std::int64_t>(s.size()));
    RC_ASSERT(refusal_id([&] { ops::hardmax(v, X, axis); }) == (outside ? "Hardmax.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

// ---- Min ------------------------------------------------------------------------------------

TEST_CASE("[Min.err.arity] Min without inputs is refused", "[min][props][error]") {
  check("Min-v() is refused with Min.err.arity", [] {
    const int v = *gen::one_of(kMinVersions);
    RC_ASSERT(refusal_id([&] { ops::min(v, {}); }) == "Min.err.arity");
  });
}

TEST_CASE("[Min.err.type] [Common.gr.no-conversion] inputs of different element types are refused",
          "[min][props][error]") {
  check("two accepted dtypes mixed among the inputs: refused with Min.err.type", [] {
    const int v = *gen::one_of(kMinVersions);
    const auto types = spec_min_types(v);
    const gen::BroadcastTuple b = v >= 8 ? *gen::broadcastable(2, 6) : *gen::same_shapes(2, 6);
    const DType a = *gen::dtype_of(types);
    std::vector<DType> others;
    for (DType t : types)
      if (t != a) others.push_back(t);
    const DType o = *gen::dtype_of(others);
    const std::size_t odd = *gen::index<std::size_t>(1, b.inputs.size());
    std::vector<Tensor> xs;
    for (std::size_t m = 0; m < b.inputs.size(); ++m)
      xs.push_back(Tensor(m == odd || (m > 0 && *gen::weighted<bool>({{3, false}, {1, true}})) ? o : a, b.inputs[m], "X"));
    RC_ASSERT(refusal_id([&] { ops::min(v, pointers(xs)); }) == "Min.err.type");
  });
}

TEST_CASE("[Min.err.dtype] [Min.v1] [Min.v6] [Min.v8] [Min.v12] [Min.v13] "
          "a type outside the version's constraint is refused, every type inside is accepted",
          "[min][props][error]") {
  check("refused with Min.err.dtype iff the dtype is not in T of the version", [] {
    const int v = *gen::one_of(kMinVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const DType t = *gen::dtype_of(outside ? complement(spec_min_types(v)) : spec_min_types(v));
    const gen::BroadcastTuple b = v >= 8 ? *gen::broadcastable(1, 4) : *gen::same_shapes(1, 4);
    const auto xs = tensors_for(t, b.inputs);
    RC_ASSERT(refusal_id([&] { ops::min(v, pointers(xs)); }) == (outside ? "Min.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

TEST_CASE("[Min.err.same-shape] [Min.v1] [Min.v6] before version 8 inputs of different shapes are refused",
          "[min][props][error]") {
  check("shapes not all identical: Min-1 and Min-6 refuse with Min.err.same-shape", [] {
    const int v = *gen::one_of<int>({1, 6});
    const DType t = *gen::dtype_of(spec_min_types(v));
    const auto xs = tensors_for(t, *gen::not_all_same());
    RC_ASSERT(refusal_id([&] { ops::min(v, pointers(xs)); }) == "Min.err.same-shape");
  });
}

TEST_CASE("[Min.err.broadcast] [Common.broadcast.error] [Min.v8] shapes that do not broadcast are refused",
          "[min][props][error]") {
  check("two padded sizes on one axis, both not 1 and different: refused with Min.err.broadcast", [] {
    const int v = *gen::one_of<int>({8, 12, 13});
    const DType t = *gen::dtype_of(spec_min_types(v));
    const auto xs = tensors_for(t, *gen::not_broadcastable());
    RC_ASSERT(refusal_id([&] { ops::min(v, pointers(xs)); }) == "Min.err.broadcast");
  });
}

// ---- ReduceMin ------------------------------------------------------------------------------

TEST_CASE("[ReduceMin.err.axis-range] [ReduceMin.v1] [ReduceMin.v11] "
          "an axis outside [-r, r-1] (outside [0, r-1] in version 1) is refused",
          "[reducemin][props][error]") {
  check("valid distinct axes plus one out of range: refused with ReduceMin.err.axis-range", [] {
    const int v = *gen::one_of(kReduceMinVersions);
    const DType t = *gen::dtype_of(spec_reducemin_types(v));
    const Shape s = *gen::shape();
    const auto r = static_cast<std::int64_t>(s.size());
    std::vector<std::int64_t> axes = *gen::axes_listing(*gen::axes_mask(r), v >= 11);
    const std::int64_t bad = *gen::invalid_axis(v, r);
    axes.insert(axes.begin() + static_cast<std::ptrdiff_t>(*gen::index<std::size_t>(0, axes.size() + 1)), bad);
    const Tensor X(t, s, "X");
    ops::ReduceParams p{axes, *gen::flag(), v >= 18 ? *gen::flag() : 0};
    RC_ASSERT(refusal_id([&] { ops::reduce_min(v, X, p); }) == "ReduceMin.err.axis-range");
    RC_CLASSIFY(r == 0, "rank 0");
    RC_CLASSIFY(v < 11 && bad < 0 && bad >= -r, "negative axis in version 1");
  });
}

TEST_CASE("[ReduceMin.err.axis-duplicate] [ReduceMin.axes.normalise] an axis named twice is refused",
          "[reducemin][props][error]") {
  check("an axis listed twice (as a, or as a and a - r): refused with ReduceMin.err.axis-duplicate", [] {
    const int v = *gen::one_of(kReduceMinVersions);
    const DType t = *gen::dtype_of(spec_reducemin_types(v));
    const Shape s = *gen::shape({1, 5, 64, true});
    const auto r = static_cast<std::int64_t>(s.size());
    std::vector<std::int64_t> axes = *gen::axes_listing(*gen::axes_mask(r, true), v >= 11);
    const std::int64_t a = axes[*gen::index<std::size_t>(0, axes.size())];
    const std::int64_t k = a < 0 ? a + r : a;
    const std::int64_t again = v >= 11 && *gen::weighted<bool>({{1, false}, {1, true}}) ? k - r : k;
    axes.insert(axes.begin() + static_cast<std::ptrdiff_t>(*gen::index<std::size_t>(0, axes.size() + 1)), again);
    const Tensor X(t, s, "X");
    ops::ReduceParams p{axes, *gen::flag(), 0};
    RC_ASSERT(refusal_id([&] { ops::reduce_min(v, X, p); }) == "ReduceMin.err.axis-duplicate");
    RC_CLASSIFY(std::count(axes.begin(), axes.end(), again) == 1, "two forms of one axis");
  });
}

TEST_CASE("[ReduceMin.err.axes-input] [ReduceMin.v18] the axes input must be an int64 tensor of rank 1",
          "[reducemin][props][error]") {
  check("a non-int64 axes tensor, or one of rank other than 1: refused with ReduceMin.err.axes-input", [] {
    const bool wrong_type = *gen::weighted<bool>({{1, false}, {1, true}});
    DType t = DType::Int64;
    Shape s;
    if (wrong_type) {
      t = *gen::dtype_of(complement({DType::Int64}));
      s = {*gen::index<std::int64_t>(0, 4)};
    } else {
      s = *gen::one_of<Shape>({{}, {1, 1}, {2, 1}, {1, 2, 1}, {0, 0}});
    }
    const Tensor axes(t, s, "axes");
    RC_ASSERT(refusal_id([&] { ops::reducemin_axes_from_input(axes); }) == "ReduceMin.err.axes-input");
    RC_TAG(wrong_type ? "wrong type" : "wrong rank");
  });
  check("an int64 tensor of rank 1 is read as the axes list", [] {
    const auto values = *rc::gen::container<std::vector<std::int64_t>>(gen::index<std::int64_t>(-6, 6));
    Tensor axes(DType::Int64, {static_cast<std::int64_t>(values.size())}, "axes");
    for (std::size_t k = 0; k < values.size(); ++k)
      set_bits_at(axes, static_cast<std::int64_t>(k), static_cast<std::uint64_t>(values[k]));
    RC_ASSERT(ops::reducemin_axes_from_input(axes) == values);
  });
}

TEST_CASE("[ReduceMin.err.flag] keepdims or noop_with_empty_axes outside {0, 1} is refused",
          "[reducemin][props][error]") {
  check("a flag of value other than 0 and 1: refused with ReduceMin.err.flag", [] {
    const int v = *gen::one_of(kReduceMinVersions);
    const DType t = *gen::dtype_of(spec_reducemin_types(v));
    const Tensor X(t, *gen::shape(), "X");
    ops::ReduceParams p;
    p.keepdims = *gen::flag();
    const bool bad_noop = v >= 18 && *gen::weighted<bool>({{1, false}, {1, true}});
    if (bad_noop) p.noop_with_empty_axes = *gen::bad_flag();
    else p.keepdims = *gen::bad_flag();
    RC_ASSERT(refusal_id([&] { ops::reduce_min(v, X, p); }) == "ReduceMin.err.flag");
    RC_TAG(bad_noop ? "noop_with_empty_axes" : "keepdims");
  });
}

TEST_CASE("[ReduceMin.err.dtype] [ReduceMin.v1] [ReduceMin.v11] [ReduceMin.v12] [ReduceMin.v13] [ReduceMin.v18] "
          "[ReduceMin.v20] a type outside the version's constraint is refused, every type inside is accepted",
          "[reducemin][props][error]") {
  check("refused with ReduceMin.err.dtype iff the dtype is not in T of the version", [] {
    const int v = *gen::one_of(kReduceMinVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const auto allowed = spec_reducemin_types(v);
    const DType t = *gen::dtype_of(outside ? complement(allowed) : allowed);
    const Tensor X(t, *gen::shape(), "X");
    RC_ASSERT(refusal_id([&] { ops::reduce_min(v, X, {}); }) == (outside ? "ReduceMin.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

// ---- ArgMax, ArgMin -------------------------------------------------------------------------

namespace {
Tensor arg(const std::string& op, int v, const Tensor& X, const ops::ArgParams& p) {
  return op == "ArgMax" ? ops::argmax(v, X, p) : ops::argmin(v, X, p);
}
const char* kArgOps[] = {"ArgMax", "ArgMin"};
}  // namespace

TEST_CASE("[ArgMax.err.dtype] [ArgMin.err.dtype] [ArgMax.v1] [ArgMax.v11] [ArgMax.v12] [ArgMax.v13] [ArgMin.v1] "
          "[ArgMin.v11] [ArgMin.v12] [ArgMin.v13] a type outside the version's constraint is refused, every type "
          "inside is accepted",
          "[argmax][argmin][props][error]") {
  for (const char* op : kArgOps)
    check(fmt::format("{}: refused with {}.err.dtype iff the dtype is not in T of the version", op, op), [op] {
      const int v = *gen::one_of(kArgVersions);
      const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
      const auto allowed = spec_arg_types(v);
      const DType t = *gen::dtype_of(outside ? complement(allowed) : allowed);
      const Shape s = *gen::shape({1, 4, 64, false});
      const Tensor X(t, s, "X");
      ops::ArgParams p;
      p.axis = *gen::valid_axis(v, static_cast<std::int64_t>(s.size()));
      RC_ASSERT(refusal_id([&] { arg(op, v, X, p); }) == (outside ? fmt::format("{}.err.dtype", op) : "(accepted)"));
      RC_TAG(outside ? "refused" : "accepted");
    });
}

TEST_CASE("[ArgMax.err.axis-range] [ArgMin.err.axis-range] [ArgMax.v1] [ArgMax.v11] [ArgMin.v1] [ArgMin.v11] "
          "an axis outside [-r, r-1] (outside [0, r-1] in version 1) is refused, and so is every axis for rank 0",
          "[argmax][argmin][props][error]") {
  for (const char* op : kArgOps)
    check(fmt::format("{}: out-of-range axis: refused with {}.err.axis-range", op, op), [op] {
      const int v = *gen::one_of(kArgVersions);
      const DType t = *gen::dtype_of(spec_arg_types(v));
      const Shape s = *gen::shape();
      const auto r = static_cast<std::int64_t>(s.size());
      ops::ArgParams p;
      p.axis = r == 0 && *gen::weighted<bool>({{1, false}, {1, true}}) ? *gen::index<std::int64_t>(-2, 3)
                                                                        : *gen::invalid_axis(v, r);
      p.keepdims = *gen::flag();
      const Tensor X(t, s, "X");
      RC_ASSERT(refusal_id([&] { arg(op, v, X, p); }) == fmt::format("{}.err.axis-range", op));
      RC_CLASSIFY(r == 0, "rank 0");
      RC_CLASSIFY(v == 1 && p.axis < 0 && p.axis >= -r, "negative axis in version 1");
    });
}

TEST_CASE("[ArgMax.err.empty-axis] [ArgMin.err.empty-axis] an axis of size 0 leaves no position to select: refused",
          "[argmax][argmin][props][error]") {
  for (const char* op : kArgOps)
    check(fmt::format("{}: valid axis k with d_k = 0: refused with {}.err.empty-axis", op, op), [op] {
      const int v = *gen::one_of(kArgVersions);
      const DType t = *gen::dtype_of(spec_arg_types(v));
      Shape s = *gen::shape({1, 4, 64, true});
      const auto r = static_cast<std::int64_t>(s.size());
      ops::ArgParams p;
      p.axis = *gen::valid_axis(v, r);
      p.keepdims = *gen::flag();
      p.select_last_index = v >= 12 ? *gen::flag() : 0;
      s[p.axis < 0 ? p.axis + r : p.axis] = 0;
      const Tensor X(t, s, "X");
      RC_ASSERT(refusal_id([&] { arg(op, v, X, p); }) == fmt::format("{}.err.empty-axis", op));
    });
}

TEST_CASE("[ArgMax.err.flag] [ArgMin.err.flag] keepdims or select_last_index outside {0, 1} is refused",
          "[argmax][argmin][props][error]") {
  for (const char* op : kArgOps)
    check(fmt::format("{}: a flag other than 0 and 1: refused with {}.err.flag", op, op), [op] {
      const int v = *gen::one_of(kArgVersions);
      const DType t = *gen::dtype_of(spec_arg_types(v));
      const Shape s = *gen::shape({1, 4, 64, false});
      ops::ArgParams p;
      p.axis = *gen::valid_axis(v, static_cast<std::int64_t>(s.size()));
      const bool bad_last = v >= 12 && *gen::weighted<bool>({{1, false}, {1, true}});
      if (bad_last) p.select_last_index = *gen::bad_flag();
      else p.keepdims = *gen::bad_flag();
      const Tensor X(t, s, "X");
      RC_ASSERT(refusal_id([&] { arg(op, v, X, p); }) == fmt::format("{}.err.flag", op));
      RC_TAG(bad_last ? "select_last_index" : "keepdims");
    });
}

// ---- Relu -----------------------------------------------------------------------------------

TEST_CASE("[Relu.err.dtype] [Relu.v1] [Relu.v6] [Relu.v13] [Relu.v14] a type outside the version's constraint is "
          "refused (unsigned and bool always), every type inside is accepted",
          "[relu][props][error]") {
  check("refused with Relu.err.dtype iff the dtype is not in T of the version", [] {
    const int v = *gen::one_of(kReluVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const auto allowed = spec_relu_types(v);
    const DType t = *gen::dtype_of(outside ? complement(allowed) : allowed);
    const Tensor X(t, *gen::shape(), "X");
    RC_ASSERT(refusal_id([&] { ops::relu(v, X); }) == (outside ? "Relu.err.dtype" : "(accepted)"));
    RC_TAG(outside ? fmt::format("refused {}", name(t)) : std::string("accepted"));
  });
}

// ---- Clip -----------------------------------------------------------------------------------

TEST_CASE("[Clip.err.dtype] [Clip.v1] [Clip.v6] [Clip.v11] [Clip.v12] [Clip.v13] a type outside the version's "
          "constraint is refused, every type inside is accepted",
          "[clip][props][error]") {
  check("refused with Clip.err.dtype iff the dtype of X is not in T of the version (bounds absent)", [] {
    const int v = *gen::one_of(kClipVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const auto allowed = spec_clip_types(v);
    const DType t = *gen::dtype_of(outside ? complement(allowed) : allowed);
    const Tensor X(t, *gen::shape(), "X");
    RC_ASSERT(refusal_id([&] { ops::clip(v, X, {}); }) == (outside ? "Clip.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

TEST_CASE("[Clip.err.type] [Clip.bounds.inputs] [Common.gr.no-conversion] a bound input of another element type "
          "than X is refused, whatever X's shape",
          "[clip][props][error]") {
  check("versions 11+: a rank-0 bound of another type: refused with Clip.err.type", [] {
    const int v = *gen::one_of<int>({11, 12, 13});
    const DType t = *gen::dtype_of(spec_clip_types(v));
    std::vector<DType> others = complement({t});
    const DType o = *gen::dtype_of(others);
    const Tensor X(t, *gen::shape(), "X");
    const Tensor good(t, {}, "bound"), bad(o, {}, "bound");
    const int which = *gen::index(0, 3);  // min, max, or both wrong
    ops::ClipBounds b;
    b.min_input = which != 1 ? &bad : (*gen::flag() ? &good : nullptr);
    b.max_input = which != 0 ? &bad : (*gen::flag() ? &good : nullptr);
    RC_ASSERT(refusal_id([&] { ops::clip(v, X, b); }) == "Clip.err.type");
    RC_CLASSIFY(element_count(X.shape()) == 0, "X empty");
  });
}

TEST_CASE("[Clip.err.bound-rank] [Clip.bounds.inputs] a bound input of rank other than 0 is refused, even with an "
          "empty X",
          "[clip][props][error]") {
  check("versions 11+: a bound of X's type with shape (1), (1, 1), (0), (2) ...: refused with Clip.err.bound-rank", [] {
    const int v = *gen::one_of<int>({11, 12, 13});
    const DType t = *gen::dtype_of(spec_clip_types(v));
    const Tensor X(t, *gen::shape(), "X");
    const Shape bs = *gen::one_of<Shape>({{1}, {1, 1}, {0}, {2}, {1, 1, 1}, {0, 1}});
    const Tensor good(t, {}, "bound"), bad(t, bs, "bound");
    const int which = *gen::index(0, 3);
    ops::ClipBounds b;
    b.min_input = which != 1 ? &bad : (*gen::flag() ? &good : nullptr);
    b.max_input = which != 0 ? &bad : (*gen::flag() ? &good : nullptr);
    RC_ASSERT(refusal_id([&] { ops::clip(v, X, b); }) == "Clip.err.bound-rank");
    RC_CLASSIFY(element_count(X.shape()) == 0, "X empty");
    RC_TAG(to_string(bs));
  });
}

// ---- MaxPool, GlobalMaxPool -----------------------------------------------------------------

namespace {

// A MaxPool node no clause refuses: X (N, C, D1..Dl) with every D_d >= 3, kernel 1 on every axis,
// no other attribute. Each error property changes exactly one thing of it.
struct PoolBase {
  int version;
  DType t;
  Shape x;
  ops::PoolParams p;
  int l;
};
rc::Gen<PoolBase> pool_base() {
  return rc::gen::exec([] {
    PoolBase b;
    b.version = *gen::one_of(kMaxPoolVersions);
    b.t = *gen::dtype_of(spec_maxpool_types(b.version));
    b.l = *gen::index(1, 4);
    b.x = {*gen::index<std::int64_t>(0, 3), *gen::index<std::int64_t>(0, 3)};
    for (int d = 0; d < b.l; ++d) b.x.push_back(*gen::index<std::int64_t>(3, 6));
    b.p.kernel_shape.assign(static_cast<std::size_t>(b.l), 1);
    b.p.has_kernel_shape = true;
    return b;
  });
}
std::string pool_refusal(const PoolBase& b) {
  const Tensor X(b.t, b.x, "X");
  return refusal_id([&] { ops::maxpool(b.version, X, b.p, b.version >= 8); });
}
// A list of `n` entries drawn by g, or of another length when `wrong_length`.
rc::Gen<std::vector<std::int64_t>> entries(int n, rc::Gen<std::int64_t> g, bool wrong_length) {
  return rc::gen::exec([=] {
    int m = n;
    if (wrong_length) m = *gen::one_of<int>({0, n + 1, n - 1 >= 1 ? n - 1 : n + 2, 2 * n + 1});
    std::vector<std::int64_t> v;
    for (int k = 0; k < m; ++k) v.push_back(*g);
    return v;
  });
}

}  // namespace

TEST_CASE("[MaxPool.err.rank] an input of rank below 3 is refused", "[maxpool][props][error]") {
  check("X of rank 0, 1 or 2: refused with MaxPool.err.rank", [] {
    const int v = *gen::one_of(kMaxPoolVersions);
    const DType t = *gen::dtype_of(spec_maxpool_types(v));
    const Shape s = *gen::shape({0, 2, 64, true});
    ops::PoolParams p;
    p.kernel_shape.assign(s.size() > 2 ? s.size() - 2 : 1, 1);
    p.has_kernel_shape = true;
    const Tensor X(t, s, "X");
    RC_ASSERT(refusal_id([&] { ops::maxpool(v, X, p, false); }) == "MaxPool.err.rank");
    RC_TAG(fmt::format("rank {}", s.size()));
  });
}

TEST_CASE("[MaxPool.err.kernel] kernel_shape absent, of a length other than the spatial rank, or with an entry below 1 "
          "is refused",
          "[maxpool][props][error]") {
  check("refused with MaxPool.err.kernel (an entry below 1 leaves every window empty: MaxPool.err.window allowed)", [] {
    PoolBase b = *pool_base();
    const int kind = *gen::index(0, 3);
    if (kind == 0) {
      b.p.has_kernel_shape = false;
      b.p.kernel_shape.clear();
    } else if (kind == 1) {
      b.p.kernel_shape = *entries(b.l, gen::index<std::int64_t>(1, 3), true);
    } else {
      b.p.kernel_shape[*gen::index<std::size_t>(0, b.p.kernel_shape.size())] = *gen::one_of<std::int64_t>({0, -1, INT64_MIN});
    }
    const std::string id = pool_refusal(b);
    const bool kernel_or_window = id == "MaxPool.err.kernel" || id == "MaxPool.err.window";
    if (kind == 2) RC_ASSERT(kernel_or_window);
    else RC_ASSERT(id == "MaxPool.err.kernel");
    RC_TAG(kind == 0 ? "absent" : kind == 1 ? "wrong length" : "entry below 1");
  });
}

TEST_CASE("[MaxPool.err.strides] strides of a length other than the spatial rank, or with an entry below 1, is refused",
          "[maxpool][props][error]") {
  check("refused with MaxPool.err.strides", [] {
    PoolBase b = *pool_base();
    const bool wrong_length = *gen::flag();
    b.p.strides = *entries(b.l, gen::index<std::int64_t>(1, 3), wrong_length);
    if (!wrong_length) b.p.strides[*gen::index<std::size_t>(0, b.p.strides.size())] = *gen::one_of<std::int64_t>({0, -1, -3});
    b.p.has_strides = true;
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.strides");
    RC_TAG(wrong_length ? "wrong length" : "entry below 1");
  });
}

TEST_CASE("[MaxPool.err.dilations] [MaxPool.v10] dilations of a length other than the spatial rank, or with an entry "
          "below 1, is refused",
          "[maxpool][props][error]") {
  check("versions 10+: refused with MaxPool.err.dilations", [] {
    PoolBase b = *pool_base();
    RC_PRE(b.version >= 10);
    const bool wrong_length = *gen::flag();
    b.p.dilations = *entries(b.l, gen::index<std::int64_t>(1, 3), wrong_length);
    if (!wrong_length) b.p.dilations[*gen::index<std::size_t>(0, b.p.dilations.size())] = *gen::one_of<std::int64_t>({0, -1});
    b.p.has_dilations = true;
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.dilations");
    RC_TAG(wrong_length ? "wrong length" : "entry below 1");
  });
}

TEST_CASE("[MaxPool.err.pads] pads of a length other than twice the spatial rank, or with a negative entry, is refused",
          "[maxpool][props][error]") {
  check("refused with MaxPool.err.pads", [] {
    PoolBase b = *pool_base();
    const bool wrong_length = *gen::flag();
    b.p.pads = *entries(2 * b.l, gen::one_of<std::int64_t>({0}), wrong_length);
    if (!wrong_length) b.p.pads[*gen::index<std::size_t>(0, b.p.pads.size())] = -1;  // D >= 3: the windows stay
    b.p.has_pads = true;
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.pads");
    RC_TAG(wrong_length ? "wrong length" : "negative entry");
  });
}

TEST_CASE("[MaxPool.err.pads-kernel] with auto_pad NOTSET an end pad not below the effective kernel is refused",
          "[maxpool][props][error]") {
  check("pe_d >= e_d on one axis, one window of members (stride beyond the span): refused with MaxPool.err.pads-kernel", [] {
    PoolBase b = *pool_base();
    const int d = *gen::index(0, b.l);
    const std::int64_t k = *gen::index<std::int64_t>(1, 4);
    const std::int64_t dil = b.version >= 10 ? *gen::index<std::int64_t>(1, 3) : 1;
    const std::int64_t e = (k - 1) * dil + 1;
    const std::int64_t pb = *gen::index<std::int64_t>(0, e), pe = e + *gen::index<std::int64_t>(0, 3);
    std::int64_t& D = b.x[2 + d];
    D = std::max<std::int64_t>(D, dil);  // the window at -pb has a member
    const std::int64_t span = D + pb + pe - e;
    b.p.kernel_shape[d] = k;
    b.p.pads.assign(static_cast<std::size_t>(2 * b.l), 0);
    b.p.pads[d] = pb;
    b.p.pads[b.l + d] = pe;
    b.p.has_pads = true;
    b.p.strides.assign(static_cast<std::size_t>(b.l), 1);
    b.p.strides[d] = span + 1;  // one window along d
    b.p.has_strides = true;
    if (b.version >= 10) {
      b.p.dilations.assign(static_cast<std::size_t>(b.l), 1);
      b.p.dilations[d] = dil;
      b.p.has_dilations = true;
    }
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.pads-kernel");
  });
}

TEST_CASE("[MaxPool.err.auto-pad] an auto_pad other than the four strings, or pads given with auto_pad not NOTSET, is "
          "refused",
          "[maxpool][props][error]") {
  check("refused with MaxPool.err.auto-pad", [] {
    PoolBase b = *pool_base();
    const bool unknown = *gen::flag();
    if (unknown) {
      b.p.auto_pad = *gen::one_of<std::string>({"", "same_upper", "SAME", "VALID ", "notset", "Same_Lower", "NONE"});
    } else {
      b.p.auto_pad = *gen::one_of<std::string>({"VALID", "SAME_UPPER", "SAME_LOWER"});
      b.p.pads.assign(static_cast<std::size_t>(2 * b.l), 0);
      b.p.has_pads = true;
    }
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.auto-pad");
    RC_TAG(unknown ? "unknown string" : "pads with auto_pad");
  });
}

TEST_CASE("[MaxPool.err.flag] [MaxPool.v8] [MaxPool.v10] ceil_mode or storage_order other than 0 and 1 is refused",
          "[maxpool][props][error]") {
  check("refused with MaxPool.err.flag", [] {
    PoolBase b = *pool_base();
    RC_PRE(b.version >= 8);
    const bool ceil = b.version >= 10 && *gen::flag();
    if (ceil) b.p.ceil_mode = *gen::bad_flag();
    else b.p.storage_order = *gen::bad_flag();
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.flag");
    RC_TAG(ceil ? "ceil_mode" : "storage_order");
  });
}

TEST_CASE("[MaxPool.err.dtype] [MaxPool.v1] [MaxPool.v8] [MaxPool.v10] [MaxPool.v11] [MaxPool.v12] [MaxPool.v22] a "
          "type outside the version's constraint is refused, every type inside is accepted",
          "[maxpool][props][error]") {
  check("refused with MaxPool.err.dtype iff the dtype is not in T of the version", [] {
    PoolBase b = *pool_base();
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const auto allowed = spec_maxpool_types(b.version);
    b.t = *gen::dtype_of(outside ? complement(allowed) : allowed);
    RC_ASSERT(pool_refusal(b) == (outside ? "MaxPool.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

TEST_CASE("[MaxPool.err.window] a kernel longer than the padded axis, or a window with no element of X, is refused "
          "(even with N C = 0)",
          "[maxpool][props][error]") {
  check("case 1: e_d > D_d + pb_d + pe_d (NOTSET or VALID, either ceil_mode)", [] {
    PoolBase b = *pool_base();
    const int d = *gen::index(0, b.l);
    b.x[2 + d] = *gen::index<std::int64_t>(0, 4);
    b.p.kernel_shape[d] = b.x[2 + d] + 1 + *gen::index<std::int64_t>(0, 2);  // pads 0 < e
    if (*gen::flag()) b.p.auto_pad = "VALID";
    if (b.version >= 10) b.p.ceil_mode = *gen::flag();
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.window");
    RC_CLASSIFY(b.x[2 + d] == 0, "D = 0");
  });
  check("case 2: D_d < dil_d, kernel 2 at pads [1, dil - D]: the one window's positions -1 and dil - 1 miss X", [] {
    PoolBase b = *pool_base();
    RC_PRE(b.version >= 10);
    const int d = *gen::index(0, b.l);
    const std::int64_t dil = *gen::index<std::int64_t>(2, 5);
    const std::int64_t D = *gen::index<std::int64_t>(1, dil);
    b.x[2 + d] = D;
    b.p.kernel_shape[d] = 2;
    b.p.dilations.assign(static_cast<std::size_t>(b.l), 1);
    b.p.dilations[d] = dil;
    b.p.has_dilations = true;
    b.p.pads.assign(static_cast<std::size_t>(2 * b.l), 0);
    b.p.pads[d] = 1;
    b.p.pads[b.l + d] = dil - D;  // span = 0: one window, positions -1 and dil - 1 >= D
    b.p.has_pads = true;
    RC_ASSERT(pool_refusal(b) == "MaxPool.err.window");
  });
}

TEST_CASE("[GlobalMaxPool.err.rank] an input of rank below 3 is refused", "[globalmaxpool][props][error]") {
  check("X of rank 0, 1 or 2: refused with GlobalMaxPool.err.rank", [] {
    const int v = *gen::one_of(kGlobalMaxPoolVersions);
    const DType t = *gen::dtype_of(spec_globalmaxpool_types(v));
    const Tensor X(t, *gen::shape({0, 2, 64, true}), "X");
    RC_ASSERT(refusal_id([&] { ops::globalmaxpool(v, X); }) == "GlobalMaxPool.err.rank");
  });
}

TEST_CASE("[GlobalMaxPool.err.dtype] [GlobalMaxPool.v1] [GlobalMaxPool.v22] a type outside the version's constraint "
          "is refused, every type inside is accepted",
          "[globalmaxpool][props][error]") {
  check("refused with GlobalMaxPool.err.dtype iff the dtype is not in T of the version", [] {
    const int v = *gen::one_of(kGlobalMaxPoolVersions);
    const bool outside = *gen::weighted<bool>({{1, false}, {1, true}});
    const auto allowed = spec_globalmaxpool_types(v);
    const DType t = *gen::dtype_of(outside ? complement(allowed) : allowed);
    const Tensor X(t, *gen::shape({3, 5, 64, true}), "X");
    RC_ASSERT(refusal_id([&] { ops::globalmaxpool(v, X); }) == (outside ? "GlobalMaxPool.err.dtype" : "(accepted)"));
    RC_TAG(outside ? "refused" : "accepted");
  });
}

// ---- Tensors --------------------------------------------------------------------------------

TEST_CASE("[Common.tensor.size-limit] [Common.tensor.shape] [Common.tensor.empty] element counts: the product of the "
          "dimensions, overflow and oversize refused before allocation",
          "[core][props][error]") {
  check("small shapes: the count is the product of the dimensions (0 with a zero dimension)", [] {
    const DType t = *gen::dtype_of(complement({}));
    const Shape s = *gen::shape();
    std::int64_t product = 1;
    for (std::int64_t d : s) product *= d;
    RC_ASSERT(checked_element_count(s, t, "X") == product);
    RC_ASSERT(Tensor(t, s, "X").size() == product);
  });
  check("counts beyond int64 or beyond the byte limit: refused with Common.tensor.size-limit", [] {
    const DType t = *gen::dtype_of(complement({}));
    const int r = *gen::index(2, 6);
    Shape s;
    for (int k = 0; k < r; ++k)
      s.push_back(*gen::one_of<std::int64_t>({1 << 20, 1 << 30, std::int64_t{1} << 40, 3, INT64_MAX, 1}));
    long double product = 1;  // of the exact count, to classify
    for (std::int64_t d : s) product *= static_cast<long double>(d);
    RC_PRE(product * (width_bits(t) / 8) > static_cast<long double>(max_tensor_bytes()));
    RC_ASSERT(refusal_id([&] { checked_element_count(s, t, "X"); }) == "Common.tensor.size-limit");
    RC_ASSERT(refusal_id([&] { Tensor(t, s, "X"); }) == "Common.tensor.size-limit");
    RC_CLASSIFY(product > static_cast<long double>(std::numeric_limits<std::int64_t>::max()), "int64 overflow");
  });
}

}  // namespace sonnx::props::errors_props
