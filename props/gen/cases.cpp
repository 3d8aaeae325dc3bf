#include "gen/cases.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

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

ops::ArgParams ArgCase::params() const {
  ops::ArgParams p;
  p.axis = axis;
  p.keepdims = keepdims;
  p.select_last_index = select_last_index;
  return p;
}

ops::ClipBounds ClipCase::bounds() const {
  ops::ClipBounds b;
  auto as_float = [](std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  };
  if (min_attribute) b.min_attribute = as_float(*min_attribute);
  if (max_attribute) b.max_attribute = as_float(*max_attribute);
  b.min_input = min_input ? &*min_input : nullptr;
  b.max_input = max_input ? &*max_input : nullptr;
  return b;
}

// [Clip.bounds.default] item 2 (and item 3 for version 1): the binary32 lowest() and max(),
// 0xFF7FFFFF and 0x7F7FFFFF, converted like a given attribute.
constexpr std::uint32_t kFloatLowest = 0xFF7FFFFFu, kFloatMax = 0x7F7FFFFFu;

std::uint64_t ClipCase::lo() const {
  const DType t = X.dtype();
  if (version < 11) return spec_convert_float_attribute(min_attribute.value_or(kFloatLowest), t);  // [Clip.bounds.attributes]
  return min_input ? bits_at(*min_input, 0) : least_finite_bits(t);  // [Clip.bounds.inputs] [Clip.bounds.default] item 1
}

std::uint64_t ClipCase::hi() const {
  const DType t = X.dtype();
  if (version < 11) return spec_convert_float_attribute(max_attribute.value_or(kFloatMax), t);
  return max_input ? bits_at(*max_input, 0) : greatest_finite_bits(t);
}

namespace gen {

std::vector<DType> usable(const std::vector<DType>& types, Values values) {
  if (values != Values::Zeros && values != Values::NaNs && values != Values::ZerosAbove) return types;
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
    case Values::ZerosAbove: {  // the dual of Zeros: ±0 with 1, +Inf, +subnormal above them
      auto zeros = one_of<std::uint64_t>({pos_zero_bits(t), neg_zero_bits(t)});
      auto above = one_of<std::uint64_t>({one_bits(t), pos_inf_bits(t), std::uint64_t{1}});
      return pool_of(rc::gen::join(weighted<rc::Gen<std::uint64_t>>({{6, zeros}, {2, above}, {1, non_nan_element(t)}})),
                     max_size);
    }
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
    c.op = opts.op;
    c.version = *one_of(opts.versions);
    c.dtype = *dtype_of(usable(opts.types(c.version), opts.values));
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

rc::Gen<MaxCase> min_case(MaxOpts opts) {
  if (opts.versions == kMaxVersions) opts.versions = kMinVersions;
  opts.types = spec_min_types;
  opts.op = "Min";
  return max_case(opts);
}

rc::Gen<ReduceMaxCase> reducemin_case(ReduceMaxOpts opts) {
  if (opts.versions == kReduceMaxVersions) opts.versions = kReduceMinVersions;
  opts.types = spec_reducemin_types;
  opts.op = "ReduceMin";
  return reducemax_case(opts);
}

rc::Gen<ReduceMaxCase> reducemax_case(ReduceMaxOpts opts) {
  return rc::gen::exec([opts] {
    ReduceMaxCase c;
    c.op = opts.op;
    c.version = *one_of(opts.versions);
    auto types = usable(opts.types(c.version), opts.values);
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

rc::Gen<ArgCase> arg_case(ArgOpts opts) {
  return rc::gen::exec([opts] {
    ArgCase c;
    c.op = opts.op;
    c.version = *one_of(opts.versions);
    const DType t = *dtype_of(usable(spec_arg_types(c.version), opts.values));
    Shape s = *shape(opts.shape);
    const auto r = static_cast<std::int64_t>(s.size());
    c.axis = *valid_axis(c.version, r);  // [ArgMax.v11] negative axes from version 11
    const std::int64_t k = c.axis < 0 ? c.axis + r : c.axis;
    if (s[k] == 0) s[k] = *dim(false);  // [ArgMax.err.empty-axis] the axis has an element
    c.keepdims = *flag();
    c.select_last_index = c.version >= 12 && opts.allow_last ? *flag() : 0;  // [ArgMax.v12]
    c.input = *tensor_with(t, s, opts.values);
    return c;
  });
}

namespace {

// The binary32 pattern of a float literal.
std::uint32_t f32_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// A float16 pattern as the binary32 of the same value (exact: every float16 value is a float value;
// a NaN keeps its sign and its 10 fraction bits at the top of the 23).
std::uint32_t widen_float16(std::uint64_t h) {
  const std::uint32_t sign = (h & 0x8000u) ? 0x80000000u : 0u, e = (h >> 10) & 0x1Fu, f = h & 0x3FFu;
  if (e == 0x1F) return sign | 0x7F800000u | (f << 13);
  const double v = e == 0 ? std::ldexp(f, -24) : std::ldexp(f | 0x400u, static_cast<int>(e) - 25);
  return sign | f32_bits(static_cast<float>(v));
}

// Attribute values of Clip-1/6 that the float16 conversion decides interestingly ([Clip.bounds.convert]'s
// table: below, at and above the overflow midpoint, ties to even in the subnormals, underflow to ±0).
std::vector<std::uint32_t> convert_landmarks() {
  return {f32_bits(65519.0f), f32_bits(65520.0f), f32_bits(-65520.0f), f32_bits(65504.0f),  f32_bits(0.1f),
          f32_bits(1e-8f),    f32_bits(-1e-8f),   f32_bits(3e-8f),     f32_bits(std::ldexp(1.0f, -25)),
          f32_bits(1e-7f),    f32_bits(std::ldexp(3.0f, -25)), f32_bits(std::ldexp(1.0f, -24)),
          f32_bits(1.0f + std::ldexp(1.0f, -11)), f32_bits(1.0f + std::ldexp(3.0f, -11)), 0x7F7FFFFFu, 0xFF7FFFFFu};
}

}  // namespace

rc::Gen<ClipCase> clip_case(ClipOpts opts) {
  return rc::gen::exec([opts] {
    ClipCase c;
    c.version = *one_of(opts.versions);
    const DType t = *dtype_of(usable(spec_clip_types(c.version), opts.values));
    const Shape s = *shape(opts.shape);
    const auto p = *pool_with(t, opts.values, 6);  // X and the bounds share values: ties
    c.X = *tensor_from_pool(t, s, p);
    const auto present = [] { return *weighted<bool>({{1, false}, {3, true}}); };
    if (c.version >= 11) {  // [Clip.bounds.inputs] rank-0 tensors of T
      const auto bound = [&]() -> std::optional<Tensor> {
        if (!present()) return std::nullopt;
        const std::uint64_t b = *weighted<bool>({{2, true}, {1, false}}) ? *one_of(p) : *element(t);
        return filled(t, {}, b);
      };
      c.min_input = bound();
      c.max_input = bound();
    } else {  // [Clip.bounds.attributes] binary32 attributes
      const auto attribute = [&]() -> std::optional<std::uint32_t> {
        if (!present()) return std::nullopt;
        const int kind = *weighted<int>({{2, 0}, {2, 1}, {1, 2}});
        if (kind == 0 && t == DType::Float) return static_cast<std::uint32_t>(*one_of(p));
        if (kind == 0 && t == DType::Float16) return widen_float16(*one_of(p));
        if (kind == 2 && t == DType::Float16) return *one_of(convert_landmarks());
        return static_cast<std::uint32_t>(*element(DType::Float));
      };
      c.min_attribute = attribute();
      c.max_attribute = attribute();
    }
    return c;
  });
}

rc::Gen<PoolCase> pool_case(PoolOpts opts) {
  return rc::gen::exec([opts] {
    PoolCase c;
    c.version = *one_of(opts.versions);
    const DType t = *dtype_of(usable(spec_maxpool_types(c.version), opts.values));
    const int l = *weighted<int>({{3, 1}, {3, 2}, {1, 3}});
    const int spatial = std::min(l, opts.max_spatial);
    auto& p = c.params;
    p.auto_pad = *weighted<std::string>({{6, "NOTSET"}, {1, "VALID"}, {1, "SAME_UPPER"}, {1, "SAME_LOWER"}});
    const bool same = p.auto_pad == "SAME_UPPER" || p.auto_pad == "SAME_LOWER";
    p.has_kernel_shape = true;
    p.has_pads = p.auto_pad == "NOTSET" && *weighted<bool>({{1, false}, {2, true}});  // [MaxPool.err.auto-pad]
    const std::int64_t max_d = spatial == 1 ? 8 : spatial == 2 ? 5 : 3;
    Shape x = {*weighted<std::int64_t>({{6, 1}, {3, 2}, {1, 0}}), *weighted<std::int64_t>({{5, 1}, {3, 2}, {1, 3}, {1, 0}})};
    std::vector<std::int64_t> begins, ends;
    for (int d = 0; d < spatial; ++d) {
      const std::int64_t k = *weighted<std::int64_t>({{2, 2}, {2, 1}, {2, 3}});
      const std::int64_t dil = c.version >= 10 ? *weighted<std::int64_t>({{4, 1}, {2, 2}, {1, 3}}) : 1;  // [MaxPool.v10]
      const std::int64_t st = *weighted<std::int64_t>({{3, 1}, {3, 2}, {1, 3}});
      const std::int64_t e = (k - 1) * dil + 1;
      const std::int64_t pb = p.has_pads ? *index<std::int64_t>(0, e) : 0;  // [MaxPool.err.pads-kernel] below e
      const std::int64_t pe = p.has_pads ? *index<std::int64_t>(0, e) : 0;
      std::int64_t D = *index<std::int64_t>(1, max_d + 1);
      if (same) {
        if (*weighted<bool>({{6, false}, {1, true}})) D = 0;  // [MaxPool.pads.auto] O_d = 0: an empty Y
        else D = std::max(D, dil);
      } else {
        D = std::max({D, e - pb - pe, dil});  // span >= 0, and every window has a member ([MaxPool.prop.shape] 5)
      }
      p.kernel_shape.push_back(k);
      p.dilations.push_back(dil);
      p.strides.push_back(st);
      begins.push_back(pb);
      ends.push_back(pe);
      x.push_back(D);
    }
    p.pads = begins;
    p.pads.insert(p.pads.end(), ends.begin(), ends.end());
    if (!p.has_pads) p.pads.clear();
    const auto all_one = [](const std::vector<std::int64_t>& v) {
      return std::all_of(v.begin(), v.end(), [](std::int64_t a) { return a == 1; });
    };
    p.has_strides = !all_one(p.strides) || *weighted<bool>({{2, false}, {1, true}});  // default 1s
    if (!p.has_strides) p.strides.clear();
    p.has_dilations = c.version >= 10 && (!all_one(p.dilations) || *weighted<bool>({{2, false}, {1, true}}));
    if (!p.has_dilations) p.dilations.clear();
    p.ceil_mode = c.version >= 10 ? *flag() : 0;
    p.storage_order = c.version >= 8 ? *flag() : 0;
    c.indices = c.version >= 8 && *weighted<bool>({{1, false}, {2, true}});
    c.X = *tensor_with(t, x, opts.values);
    return c;
  });
}

}  // namespace gen

}  // namespace sonnx::props
