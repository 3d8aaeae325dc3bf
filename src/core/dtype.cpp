#include "core/dtype.hpp"

namespace sonnx {

namespace {
// [Common.dtype.set] name, size and family of each dtype.
constexpr DTypeInfo kTable[] = {
    {DType::Bool, "bool", 1, false, false, false},
    // [Common.dtype.int] two's complement int8..int64 and unsigned uint8..uint64, native ranges
    {DType::Int8, "int8", 1, false, true, false},
    {DType::Int16, "int16", 2, false, true, false},
    {DType::Int32, "int32", 4, false, true, false},
    {DType::Int64, "int64", 8, false, true, false},
    {DType::Uint8, "uint8", 1, false, false, true},
    {DType::Uint16, "uint16", 2, false, false, true},
    {DType::Uint32, "uint32", 4, false, false, true},
    {DType::Uint64, "uint64", 8, false, false, true},
    {DType::Float16, "float16", 2, true, false, false},
    {DType::BFloat16, "bfloat16", 2, true, false, false},
    // [Common.dtype.float] IEEE 754 binary32 (float) and binary64 (double), C++ float and double
    {DType::Float, "float", 4, true, false, false},
    {DType::Double, "double", 8, true, false, false},
};
}  // namespace

const DTypeInfo& info(DType t) {
  for (const auto& row : kTable)
    if (row.dtype == t) return row;
  refuse("Common.dtype.set", "unsupported element type code {}", static_cast<int>(t));
}

std::optional<DType> dtype_from_onnx(int code) {
  for (const auto& row : kTable)
    if (static_cast<int>(row.dtype) == code) return row.dtype;
  return std::nullopt;
}

std::optional<DType> dtype_from_name(std::string_view n) {
  for (const auto& row : kTable)
    if (row.name == n) return row.dtype;
  if (n == "float32") return DType::Float;
  if (n == "float64") return DType::Double;
  return std::nullopt;
}

std::string join_names(const std::vector<DType>& types) {
  std::string out;
  for (DType t : types) {
    if (!out.empty()) out += ", ";
    out += name(t);
  }
  return out;
}

}  // namespace sonnx
