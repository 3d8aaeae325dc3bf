// spec/common/io.md [IO.tensorproto.fields]: onnx.TensorProto <-> Tensor.
// The elements come from exactly one place: raw_data (little-endian, densely packed) or the one
// typed repeated field that ONNX assigns to the data type:
//   float_data  float
//   int32_data  int8 int16 int32 uint8 uint16 bool, float16 and bfloat16 as uint16 bit patterns
//   int64_data  int64
//   double_data double
//   uint64_data uint32 uint64
// Either way the element count must equal the product of dims.
#include <onnx/onnx_pb.h>

#include <limits>

#include "io/bytes.hpp"
#include "io/io.hpp"

namespace sonnx::io {

namespace {

// Number of values in the typed fields, for the "exactly one source" check.
struct TypedCounts {
  int float_data, int32_data, int64_data, double_data, uint64_data, string_data;
  int total() const { return float_data + int32_data + int64_data + double_data + uint64_data + string_data; }
};

TypedCounts typed_counts(const onnx::TensorProto& p) {
  return {p.float_data_size(), p.int32_data_size(),  p.int64_data_size(),
          p.double_data_size(), p.uint64_data_size(), p.string_data_size()};
}

// The typed field that carries dtype `T`, and its size.
template <class T> int own_field_size(const onnx::TensorProto& p) {
  if constexpr (std::is_same_v<T, float>) return p.float_data_size();
  else if constexpr (std::is_same_v<T, double>) return p.double_data_size();
  else if constexpr (std::is_same_v<T, std::int64_t>) return p.int64_data_size();
  else if constexpr (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>) return p.uint64_data_size();
  else return p.int32_data_size();
}

template <class T> const char* own_field_name() {
  if constexpr (std::is_same_v<T, float>) return "float_data";
  else if constexpr (std::is_same_v<T, double>) return "double_data";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64_data";
  else if constexpr (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>) return "uint64_data";
  else return "int32_data";
}

// [IO.tensorproto.fields] Value k of the typed field, as an element of T; values of a wider
// field must lie in T's range (the bit-pattern range 0..65535 for float16 / bfloat16).
template <class T> T typed_element(const onnx::TensorProto& p, int k, const std::string& what) {
  if constexpr (std::is_same_v<T, float>) {
    return p.float_data(k);
  } else if constexpr (std::is_same_v<T, double>) {
    return p.double_data(k);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return p.int64_data(k);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return p.uint64_data(k);
  } else if constexpr (std::is_same_v<T, std::uint32_t>) {
    const std::uint64_t v = p.uint64_data(k);
    if (v > std::numeric_limits<std::uint32_t>::max())
      refuse("IO.tensorproto.fields", "{}: uint64_data[{}] = {} is not a uint32", what, k, v);
    return static_cast<std::uint32_t>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    const std::int32_t v = p.int32_data(k);
    if (v != 0 && v != 1)  // [Common.dtype.bool]
      refuse("Common.dtype.bool", "{}: int32_data[{}] = {} is not a bool (0 or 1)", what, k, v);
    return v == 1;
  } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    const std::int32_t v = p.int32_data(k);
    if (v < 0 || v > 0xFFFF)
      refuse("IO.tensorproto.fields", "{}: int32_data[{}] = {} is not a 16-bit pattern", what, k, v);
    return T{static_cast<std::uint16_t>(v)};
  } else {  // int8, int16, int32, uint8, uint16
    const std::int32_t v = p.int32_data(k);
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max())
      refuse("IO.tensorproto.fields", "{}: int32_data[{}] = {} is out of the range of {}", what, k, v,
             name(dtype_of<T>()));
    return static_cast<T>(v);
  }
}

void check_bool_bytes(std::span<const std::byte> data, const std::string& what) {
  for (std::size_t k = 0; k < data.size(); ++k)
    if (std::to_integer<unsigned>(data[k]) > 1)  // [Common.dtype.bool]
      refuse("Common.dtype.bool", "{}: bool element {} is the byte {} (only 0 and 1 are bools)", what, k,
             std::to_integer<unsigned>(data[k]));
}

}  // namespace

Tensor from_proto(const onnx::TensorProto& p, const std::string& what) {
  // [Graph.external-data]
  if (p.data_location() == onnx::TensorProto::EXTERNAL || p.external_data_size() > 0)
    refuse("Graph.external-data", "{}: tensor data stored outside the file (external data) is not read", what);
  if (p.has_segment())
    refuse("IO.tensorproto.fields", "{}: segmented tensors (TensorProto.segment) are not read", what);
  const std::optional<DType> dtype = dtype_from_onnx(p.data_type());
  if (!dtype)  // [Common.dtype.set] (string, complex, float8, ... and UNDEFINED)
    refuse("Common.dtype.set", "{}: TensorProto data_type {} is not one of the supported dtypes ({})", what,
           p.data_type(), join_names({std::begin(kAllDTypes), std::end(kAllDTypes)}));
  const Shape shape(p.dims().begin(), p.dims().end());
  const std::int64_t count = checked_element_count(shape, *dtype, what);  // [Common.tensor.size-limit]
  const auto elem = static_cast<std::size_t>(info(*dtype).size);
  const TypedCounts typed = typed_counts(p);

  if (p.has_raw_data()) {
    if (typed.total() > 0)
      refuse("IO.tensorproto.fields", "{}: both raw_data and a typed data field are set", what);
    const std::string& raw = p.raw_data();
    if (raw.size() != static_cast<std::uint64_t>(count) * elem)
      refuse("IO.tensorproto.fields", "{}: raw_data holds {} bytes, dims {} of {} need {}", what, raw.size(),
             to_string(shape), name(*dtype), static_cast<std::uint64_t>(count) * elem);
    const std::span<const std::byte> data(reinterpret_cast<const std::byte*>(raw.data()), raw.size());
    if (*dtype == DType::Bool) check_bool_bytes(data, what);
    Tensor t(*dtype, shape, what);
    detail::copy_elements(data, t.bytes(), elem, detail::ByteOrder::Little);  // raw_data is little-endian
    return t;
  }

  return dispatch(*dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int own = own_field_size<T>(p);
    if (typed.total() != own)
      refuse("IO.tensorproto.fields", "{}: a {} tensor holds values in a field other than {}", what,
             name(*dtype), own_field_name<T>());
    if (own != count)
      refuse("IO.tensorproto.fields", "{}: {} holds {} values, dims {} need {}", what, own_field_name<T>(), own,
             to_string(shape), count);
    Tensor t(*dtype, shape, what);
    auto dst = t.values<T>();
    for (int k = 0; k < own; ++k) dst[static_cast<std::size_t>(k)] = typed_element<T>(p, k, what);
    return t;
  });
}

void to_proto(const Tensor& t, const std::string& name, onnx::TensorProto& out) {
  out.Clear();
  out.set_name(name);
  out.set_data_type(static_cast<int>(t.dtype()));
  for (std::int64_t d : t.shape()) out.add_dims(d);
  std::string raw(t.byte_size(), '\0');
  detail::copy_elements(t.bytes(), std::span(reinterpret_cast<std::byte*>(raw.data()), raw.size()),
                        static_cast<std::size_t>(info(t.dtype()).size), detail::ByteOrder::Little);
  out.set_raw_data(std::move(raw));
}

NamedTensor parse_tensor_pb(std::span<const std::byte> bytes, const std::string& what) {
  onnx::TensorProto p;
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
      !p.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    refuse("IO.tensorproto.fields", "{}: not a serialized onnx.TensorProto", what);
  return {p.name(), from_proto(p, what)};
}

NamedTensor read_tensor_pb(const std::string& path) {
  const std::vector<std::byte> bytes = read_file(path, "IO.tensorproto.fields");
  return parse_tensor_pb(bytes, path);
}

void write_tensor_pb(const std::string& path, const Tensor& t, const std::string& name) {
  onnx::TensorProto p;
  to_proto(t, name, p);
  std::string bytes;
  if (!p.SerializeToString(&bytes))
    refuse("IO.tensorproto.fields", "{}: tensor '{}' cannot be serialized (over 2 GiB?)", path, name);
  write_file(path, std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()),
             "IO.tensorproto.fields");
}

}  // namespace sonnx::io
