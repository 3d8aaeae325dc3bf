// spec/common/io.md: reading and writing tensors (npy, npz, TensorProto, test_data_set folders).
// Every malformed file ends in a SpecError citing an IO.* clause; nothing here may crash on bad input.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/tensor.hpp"

namespace onnx { class TensorProto; }

namespace sonnx::io {

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

// Declared element type of a graph input by name (nullopt if unknown). Needed for
// [IO.npy.bfloat16]: a `<u2` / `|V2` array fed to a bfloat16 input is read as bfloat16 bits.
using DeclaredType = std::function<std::optional<DType>(const std::string& name)>;

// [IO.npy.format] [IO.npy.dtype] [IO.npy.order] One .npy image; `what` names it in messages.
Tensor read_npy(std::span<const std::byte> bytes, const std::string& what,
                std::optional<DType> declared = std::nullopt);
// Little-endian, C order, version 1.0 (2.0 if the header needs it); bfloat16 as `<u2` bits.
std::vector<std::byte> write_npy(const Tensor& t);
// The header part of write_npy's image (magic, version, length, dict, padding): the data that follow
// it are the tensor's elements in little-endian row-major order, which is how a Tensor holds them on
// a little-endian host.
std::vector<std::byte> npy_header(const Tensor& t);

// [IO.npz.archive] Members NAME.npy of a zip (stored or deflate), in archive order.
std::vector<NamedTensor> read_npz(const std::string& path, const DeclaredType& declared = {});
// The same from an in-memory zip image; `what` names it in messages.
std::vector<NamedTensor> read_npz_image(std::span<const std::byte> bytes, const std::string& what,
                                        const DeclaredType& declared = {});
// [IO.npz.archive] Members stored uncompressed (as numpy.savez); names must be distinct. An empty list writes an
// empty zip archive.
void write_npz(const std::string& path, const std::vector<NamedTensor>& tensors);

// [IO.tensorproto.fields] TensorProto <-> Tensor.
Tensor from_proto(const onnx::TensorProto& p, const std::string& what);
void to_proto(const Tensor& t, const std::string& name, onnx::TensorProto& out);  // raw_data form
NamedTensor read_tensor_pb(const std::string& path);  // a file holding one serialized TensorProto
NamedTensor parse_tensor_pb(std::span<const std::byte> bytes, const std::string& what);
void write_tensor_pb(const std::string& path, const Tensor& t, const std::string& name);

// [IO.testdata.folder] `prefix`_K.pb files of a test_data_set folder, K = 0, 1, ... in order
// (prefix "input" or "output"); no gap allowed, other files ignored. Each name is the
// TensorProto.name, possibly empty: the caller then maps by position.
std::vector<NamedTensor> read_test_data_set(const std::string& dir, const std::string& prefix);

// Whole file as bytes; refuses missing or unreadable paths, directories and other non-regular
// files with `clause`, and files larger than max_tensor_bytes() + kFileAllowance with
// [Common.tensor.size-limit] before allocating.
inline constexpr std::uint64_t kFileAllowance = 1u << 20;
std::vector<std::byte> read_file(const std::string& path, const std::string& clause);
// Writes `bytes` as the whole file; failures are refused with `clause`.
void write_file(const std::string& path, std::span<const std::byte> bytes, const std::string& clause);

}  // namespace sonnx::io
