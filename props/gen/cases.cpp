#include "gen/cases.hpp"

#include "gen/attrs.hpp"
#include "gen/values.hpp"

namespace sonnx::props {

std::vector<const Tensor*> MaxCase::pointers() const {
  std::vector<const Tensor*> p;
  for (const Tensor& x : inputs) p.push_back(&x);
  return p;
}

ops::ReduceMaxParams ReduceMaxCase::params() const {
  ops::ReduceMaxParams p;
  p.axes = axes;
  p.keepdims = keepdims;
  p.noop_with_empty_axes = noop_with_empty_axes;
  return p;
}

std::optional<std::vector<bool>> ReduceMaxCase::reduced() const {
  if (!axes || axes->empty()) {
    if (version >= 18 && noop_with_empty_axes == 1) return std::nullopt;  // [ReduceMax.axes.noop]
    return std::vector<bool>(static_cast<std::size_t>(data.rank()), true);  // [ReduceMax.axes.default]
  }
  return mask;
}

namespace gen {

std::vector<DType> usable(const std::vector<DType>& types, Values values) {
  if (values != Values::Zeros && values != Values::NaNs) return types;
  std::vector<DType> out;
  for (DType t : types)
    if (family(t) == Family::Float) out.push_back(t);
  return out;
}

rc::Gen<std::vector<std::uint64_t>> pool_with(DType t, Values values, int max_size) {
  switch (values) {
    case Values::Edge: return pool_of(element(t), max_size);
    case Values::NoNaN: return pool_of(non_nan_element(t), max_size);
    case Values::Zeros: {
      const std::uint64_t sign = float_layout(t).sign_mask();
      auto zeros = one_of<std::uint64_t>({neg_zero_bits(t), pos_zero_bits(t)});
      auto below = one_of<std::uint64_t>({one_bits(t) | sign, neg_inf_bits(t), sign | 1});  // -1, -Inf, -subnormal
      return pool_of(rc::gen::join(weighted<rc::Gen<std::uint64_t>>({{6, zeros}, {2, below}, {1, non_nan_element(t)}})),
                     max_size);
    }
    case Values::NaNs:
      return pool_of(rc::gen::join(weighted<rc::Gen<std::uint64_t>>({{1, one_of(nan_values(t))}, {1, element(t)}})),
                     max_size);
  }
  return pool_of(element(t), max_size);
}

rc::Gen<Tensor> tensor_with(DType t, Shape shape, Values values) {
  const int max_pool = element_count(shape) <= 1 ? 1 : 6;
  return rc::gen::mapcat(pool_with(t, values, max_pool),
                         [t, shape](std::vector<std::uint64_t> p) { return tensor_from_pool(t, shape, std::move(p)); });
}

rc::Gen<MaxCase> max_case(MaxOpts opts) {
  return rc::gen::exec([opts] {
    MaxCase c;
    c.version = *one_of(opts.versions);
    c.dtype = *dtype_of(usable(spec_max_types(c.version), opts.values));
    // [Max.v8] broadcasting from version 8; [Max.v1] [Max.v6] identical shapes before.
    const BroadcastTuple shapes = c.version >= 8 ? *broadcastable(opts.min_inputs, opts.max_inputs)
                                                 : *same_shapes(opts.min_inputs, opts.max_inputs);
    c.output = shapes.target;
    // One pool for all inputs: equal values (and ±0, NaN payloads) meet at the same index.
    const auto p = *pool_with(c.dtype, opts.values, 6);
    for (const Shape& s : shapes.inputs) c.inputs.push_back(*tensor_from_pool(c.dtype, s, p));
    return c;
  });
}

rc::Gen<ReduceMaxCase> reducemax_case(ReduceMaxOpts opts) {
  return rc::gen::exec([opts] {
    ReduceMaxCase c;
    c.version = *one_of(opts.versions);
    auto types = usable(spec_reducemax_types(c.version), opts.values);
    if (!opts.only.empty()) {
      std::vector<DType> kept;
      for (DType t : types)
        if (contains(opts.only, t)) kept.push_back(t);
      types = kept;
    }
    const DType t = *dtype_of(types);
    const Shape s = *shape(opts.shape);
    const auto r = static_cast<std::int64_t>(s.size());
    // How the axes are given: absent, empty list (input, v18+), or listed.
    const int form = opts.allow_absent ? *weighted<int>({{4, 2}, {1, 0}, {1, 1}}) : 2;
    // [ReduceMax.axes.default] an empty list (attribute without integers, or input of shape (0))
    // means all axes, like an absent one.
    if (form == 0) {
      c.axes = std::nullopt;
      c.mask.assign(static_cast<std::size_t>(r), true);
    } else if (form == 1) {
      c.axes = std::vector<std::int64_t>{};
      c.mask.assign(static_cast<std::size_t>(r), true);
    } else {
      c.mask = *axes_mask(r, /*non_empty=*/true);
      c.axes = *axes_listing(c.mask, c.version >= 11);  // [ReduceMax.v11] negative forms
      if (c.axes->empty()) c.axes = std::nullopt;       // rank 0: nothing to list
    }
    c.keepdims = *flag();
    c.noop_with_empty_axes = (c.version >= 18 && opts.allow_noop) ? *flag() : 0;
    c.data = *tensor_with(t, s, opts.values);
    return c;
  });
}

rc::Gen<HardmaxCase> hardmax_case(HardmaxOpts opts) {
  return rc::gen::exec([opts] {
    HardmaxCase c;
    c.version = *one_of(opts.versions);
    const DType t = *dtype_of(usable(spec_hardmax_types(c.version), opts.values));
    const Shape s = *shape(opts.shape);
    c.axis = *valid_axis(c.version, static_cast<std::int64_t>(s.size()));  // [Hardmax.v11] negatives
    c.input = *tensor_with(t, s, opts.values);
    return c;
  });
}

}  // namespace gen

}  // namespace sonnx::props
