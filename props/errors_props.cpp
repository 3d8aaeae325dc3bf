// Every error condition of the operator documents and of the common clauses the operators
// refuse on: a generator that violates exactly that condition, and a property that the call is
// refused with exactly that ID (spec/README.md section 7: tests compare the ID, not the message).
// The acceptance side — every input that violates nothing is accepted — is checked too where
// the condition is a table (types per version).
#include <algorithm>
#include <limits>

#include "gen/props.hpp"
#include "ops/hardmax.hpp"
#include "ops/max.hpp"
#include "ops/reducemax.hpp"

namespace sonnx::props {
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

}  // namespace sonnx::props
