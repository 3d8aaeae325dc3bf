// spec/ops/constantofshape.md — read this file side by side with its sections.
//
// The definition, once: Y has the shape the int64 vector `input` lists ([ConstantOfShape.shape]) and
// every element of Y is the one element of `value`, bit for bit ([ConstantOfShape.formula]); without
// `value`, a float +0 ([ConstantOfShape.value]).
#include "ops/constantofshape.hpp"

#include <algorithm>
#include <cstring>

#include "core/format.hpp"
#include "core/index.hpp"

namespace sonnx::ops {

std::vector<DType> constantofshape_types(int version) {
  // [ConstantOfShape.v9] float16, float, double, the integer types, bool
  std::vector<DType> t = {DType::Float16, DType::Float,  DType::Double, DType::Int8,   DType::Int16,
                          DType::Int32,   DType::Int64,  DType::Uint8,  DType::Uint16, DType::Uint32,
                          DType::Uint64,  DType::Bool};
  if (version >= 20) t.push_back(DType::BFloat16);  // [ConstantOfShape.v20] (and float8: outside [Common.dtype.set])
  return t;
}

DType constantofshape_dtype(const Tensor* value) { return value ? value->dtype() : DType::Float; }

namespace {

// [ConstantOfShape.shape] the dimensions of Y: `input`, a 1-D int64 tensor of non-negative values.
Shape output_shape(int version, const Tensor& input) {
  if (input.dtype() != DType::Int64)  // [ConstantOfShape.err.input]
    refuse("ConstantOfShape.err.input", "ConstantOfShape-{}: input must be int64, got {}", version, name(input.dtype()));
  if (input.rank() != 1)  // [ConstantOfShape.err.input]
    refuse("ConstantOfShape.err.input", "ConstantOfShape-{}: input must be 1-D (the shape of Y), got shape {}", version,
           to_string(input.shape()));
  Shape s;
  const auto dims = input.values<std::int64_t>();
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (dims[k] < 0)  // [ConstantOfShape.err.negative]
      refuse("ConstantOfShape.err.negative", "ConstantOfShape-{}: input[{}] = {} is negative (a dimension of Y)", version,
             k, dims[k]);
    s.push_back(dims[k]);
  }
  return s;  // an empty input: Y has rank 0 ([ConstantOfShape.shape])
}

void check_value(int version, const Tensor& value) {
  if (value.size() != 1)  // [ConstantOfShape.err.value]
    refuse("ConstantOfShape.err.value", "ConstantOfShape-{}: attribute 'value' must hold one element, got shape {}",
           version, to_string(value.shape()));
  const auto allowed = constantofshape_types(version);
  if (std::find(allowed.begin(), allowed.end(), value.dtype()) == allowed.end())  // [ConstantOfShape.err.dtype]
    refuse("ConstantOfShape.err.dtype", "ConstantOfShape-{}: 'value' of type {} (T2 in {{{}}})", version,
           name(value.dtype()), join_names(allowed));
}

}  // namespace

Tensor constantofshape(int version, const Tensor& input, const Tensor* value) {
  if (value) check_value(version, *value);
  const DType t = constantofshape_dtype(value);
  Tensor Y(t, output_shape(version, input), "ConstantOfShape output Y", Fill::Zero);  // [ConstantOfShape.value] +0
  if (value) {
    // [ConstantOfShape.formula] Y[i] = value[0] for every index i, bit for bit
    const auto b = value->bytes();
    auto y = Y.bytes();
    const std::size_t w = b.size();
    bool zero = std::all_of(b.begin(), b.end(), [](std::byte c) { return c == std::byte{0}; });
    if (!zero)
      for (std::size_t k = 0; k < y.size(); k += w) std::memcpy(y.data() + k, b.data(), w);
  }
  return Y;
}

std::vector<Reach> reach_constantofshape(int, const NodeValues&, const std::vector<Source>&) {
  return {reach_by_shape({"ConstantOfShape.formula", ""}, true, "")};
}

Decision decide_constantofshape(int, const NodeValues& v, const Tensor* value, const std::vector<std::int64_t>& i) {
  const Tensor& Y = *v.output;
  const std::int64_t offset = offset_of(i, row_major_strides(Y.shape()));
  Decision d;
  d.set.name = "no input element: the constant 'value'";
  d.set.size = 0;
  d.clauses = {value ? "ConstantOfShape.formula" : "ConstantOfShape.value", "ConstantOfShape.shape"};
  d.situations = {{d.clauses[0], ""}};
  d.stop = "a constant of the node";
  d.reason = value ? fmt::format("{} = {} because every element of Y is 'value'", output_name(v, i), element_text(Y, offset))
                   : fmt::format("{} = +0 because 'value' is absent: a float +0", output_name(v, i));
  const bool agrees = value ? element_bits(Y, offset) == element_bits(*value, 0)
                            : Y.dtype() == DType::Float && element_bits(Y, offset) == 0;
  if (!agrees) disagree(v, i);
  return d;
}

}  // namespace sonnx::ops
