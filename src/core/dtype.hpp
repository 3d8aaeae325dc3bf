// [Common.dtype.set] The element types of sonnx-ref and the one dtype dispatch of the project.
// Codes are ONNX's TensorProto.DataType values.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/float16.hpp"

namespace sonnx {

enum class DType : int {
  Float = 1,
  Uint8 = 2,
  Int8 = 3,
  Uint16 = 4,
  Int16 = 5,
  Int32 = 6,
  Int64 = 7,
  Bool = 9,
  Float16 = 10,
  Double = 11,
  Uint32 = 12,
  Uint64 = 13,
  BFloat16 = 16,
};

// Every dtype, in the order used by listings.
inline constexpr DType kAllDTypes[] = {
    DType::Bool,   DType::Int8,   DType::Int16,   DType::Int32,    DType::Int64,
    DType::Uint8,  DType::Uint16, DType::Uint32,  DType::Uint64,   DType::Float16,
    DType::BFloat16, DType::Float, DType::Double};

// Static facts about a dtype: the one table.
struct DTypeInfo {
  DType dtype;
  std::string_view name;   // spec name: "float16", "bfloat16", "float", ...
  int size;                // bytes per element
  bool is_float;           // float16, bfloat16, float, double
  bool is_signed_int;
  bool is_unsigned_int;
};
const DTypeInfo& info(DType t);
inline std::string_view name(DType t) { return info(t).name; }
// The dtype of an ONNX code or spec name; nullopt when sonnx-ref does not support it.
std::optional<DType> dtype_from_onnx(int code);
std::optional<DType> dtype_from_name(std::string_view name);
// "float16, float, double" — for messages.
std::string join_names(const std::vector<DType>& types);

// C++ element type of each dtype.
template <DType D> struct element;
template <> struct element<DType::Bool> { using type = bool; };
template <> struct element<DType::Int8> { using type = std::int8_t; };
template <> struct element<DType::Int16> { using type = std::int16_t; };
template <> struct element<DType::Int32> { using type = std::int32_t; };
template <> struct element<DType::Int64> { using type = std::int64_t; };
template <> struct element<DType::Uint8> { using type = std::uint8_t; };
template <> struct element<DType::Uint16> { using type = std::uint16_t; };
template <> struct element<DType::Uint32> { using type = std::uint32_t; };
template <> struct element<DType::Uint64> { using type = std::uint64_t; };
template <> struct element<DType::Float16> { using type = float16; };
template <> struct element<DType::BFloat16> { using type = bfloat16; };
template <> struct element<DType::Float> { using type = float; };
template <> struct element<DType::Double> { using type = double; };
template <DType D> using element_t = typename element<D>::type;

// [Common.dtype.float] float and double are IEEE 754 binary32 and binary64 in every build.
static_assert(std::numeric_limits<float>::is_iec559 && sizeof(float) == 4);
static_assert(std::numeric_limits<double>::is_iec559 && sizeof(double) == 8);
// [Common.dtype.int] the integer types are exactly 8, 16, 32, 64 bits, two's complement (C++20).
static_assert(sizeof(std::int8_t) == 1 && sizeof(std::int64_t) == 8 && sizeof(bool) == 1);

// Type families of the spec's sections (float / int / bool).
template <class T> inline constexpr bool is_float_v =
    std::is_same_v<T, float16> || std::is_same_v<T, bfloat16> || std::is_floating_point_v<T>;
template <class T> inline constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T> inline constexpr bool is_int_v = std::is_integral_v<T> && !is_bool_v<T>;

template <class T> struct type_tag { using type = T; };

// The dtype dispatch: calls f(type_tag<T>{}) with T the element type of `t`.
template <class F>
decltype(auto) dispatch(DType t, F&& f) {
  switch (t) {
    case DType::Bool: return f(type_tag<bool>{});
    case DType::Int8: return f(type_tag<std::int8_t>{});
    case DType::Int16: return f(type_tag<std::int16_t>{});
    case DType::Int32: return f(type_tag<std::int32_t>{});
    case DType::Int64: return f(type_tag<std::int64_t>{});
    case DType::Uint8: return f(type_tag<std::uint8_t>{});
    case DType::Uint16: return f(type_tag<std::uint16_t>{});
    case DType::Uint32: return f(type_tag<std::uint32_t>{});
    case DType::Uint64: return f(type_tag<std::uint64_t>{});
    case DType::Float16: return f(type_tag<float16>{});
    case DType::BFloat16: return f(type_tag<bfloat16>{});
    case DType::Float: return f(type_tag<float>{});
    case DType::Double: return f(type_tag<double>{});
  }
  refuse("Common.dtype.set", "unsupported element type code {}", static_cast<int>(t));
}

// dtype of a C++ element type.
template <class T> constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>) return DType::Bool;
  else if constexpr (std::is_same_v<T, std::int8_t>) return DType::Int8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return DType::Int16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return DType::Int32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return DType::Int64;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return DType::Uint8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return DType::Uint16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return DType::Uint32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return DType::Uint64;
  else if constexpr (std::is_same_v<T, float16>) return DType::Float16;
  else if constexpr (std::is_same_v<T, bfloat16>) return DType::BFloat16;
  else if constexpr (std::is_same_v<T, float>) return DType::Float;
  else if constexpr (std::is_same_v<T, double>) return DType::Double;
}

}  // namespace sonnx
