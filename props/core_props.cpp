// Properties of spec/common/dtypes.md that hold independently of any operator: the table of
// element types, and the exact value sets of the 16-bit floats (checked against the compiler's
// own IEEE conversions, an oracle that shares no code with src/core/float16.hpp).
#include <cmath>
#include <cstring>

#include "core/float16.hpp"
#include "core/order.hpp"
#include "gen/props.hpp"

namespace sonnx::props::core_props {  // this file's own names (the unity build of props/CMakeLists.txt)

TEST_CASE("[Common.dtype.set] the 13 element types: ONNX code, name, size and family, every other code unknown",
          "[core][props]") {
  check("dtype_from_onnx(code) is one of the 13 types exactly for their codes", [] {
    struct Row {
      int code;
      const char* name;
      int bytes;
      Family family;
    };
    static const Row table[] = {  // spec/common/dtypes.md, table of [Common.dtype.set]
        {1, "float", 4, Family::Float},     {2, "uint8", 1, Family::Unsigned},  {3, "int8", 1, Family::Signed},
        {4, "uint16", 2, Family::Unsigned}, {5, "int16", 2, Family::Signed},    {6, "int32", 4, Family::Signed},
        {7, "int64", 8, Family::Signed},    {9, "bool", 1, Family::Bool},       {10, "float16", 2, Family::Float},
        {11, "double", 8, Family::Float},   {12, "uint32", 4, Family::Unsigned}, {13, "uint64", 8, Family::Unsigned},
        {16, "bfloat16", 2, Family::Float}};
    const bool near = *gen::weighted<bool>({{3, true}, {1, false}});
    const int code = near ? *gen::index(0, 24) : *gen::index(-1000, 1000);
    const Row* row = nullptr;
    for (const Row& r : table)
      if (r.code == code) row = &r;
    const auto t = dtype_from_onnx(code);
    RC_ASSERT(t.has_value() == (row != nullptr));
    if (row) {
      RC_ASSERT(name(*t) == row->name);
      RC_ASSERT(info(*t).size == row->bytes);
      RC_ASSERT(width_bits(*t) == 8 * row->bytes);
      RC_ASSERT(family(*t) == row->family);
      RC_ASSERT(info(*t).is_float == (row->family == Family::Float));
      RC_ASSERT(info(*t).is_signed_int == (row->family == Family::Signed));
      RC_ASSERT(info(*t).is_unsigned_int == (row->family == Family::Unsigned));
      RC_ASSERT(dtype_from_name(row->name) == t);
    }
    RC_TAG(row ? "known code" : "unknown code");
  });
}

TEST_CASE("[Common.dtype.float16] [Common.dtype.bfloat16] [Common.dtype.float] every 16-bit pattern decodes to the "
          "value the hardware conversion gives",
          "[core][props]") {
  check("float16 pattern -> value, against _Float16", [] {
    const auto bits = static_cast<std::uint16_t>(*gen::any_bits(DType::Float16));
    _Float16 h;
    std::memcpy(&h, &bits, sizeof h);
    const double hw = static_cast<double>(h);
    const double v = to_double(float16{bits});
    if (std::isnan(hw)) {
      RC_ASSERT(std::isnan(v));
      RC_ASSERT(is_nan(float16{bits}));
    } else {
      RC_ASSERT(v == hw);
      RC_ASSERT(std::signbit(v) == std::signbit(hw));  // -0 decodes as -0
      RC_ASSERT(!is_nan(float16{bits}));
    }
    RC_CLASSIFY((bits & 0x7C00) == 0 && (bits & 0x3FF) != 0, "subnormal");
  });
  check("bfloat16 pattern -> value, as the upper half of a binary32", [] {
    const auto bits = static_cast<std::uint16_t>(*gen::any_bits(DType::BFloat16));
    const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof f);
    const double v = to_double(bfloat16{bits});
    if (std::isnan(f)) {
      RC_ASSERT(std::isnan(v));
      RC_ASSERT(is_nan(bfloat16{bits}));
    } else {
      RC_ASSERT(v == static_cast<double>(f));
      RC_ASSERT(std::signbit(v) == std::signbit(f));
      RC_ASSERT(!is_nan(bfloat16{bits}));
    }
  });
}

}  // namespace sonnx::props::core_props
