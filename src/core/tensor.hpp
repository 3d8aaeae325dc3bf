// [Common.tensor.shape] [Common.tensor.index] A tensor: a dtype, a shape, and its elements in
// row-major (C) order. Elements are stored once; operators read inputs through index maps.
//
// [Common.tensor.storage] A tensor is a value: copying one, or viewing it with another shape of the
// same element count (`reshaped`), shares its storage instead of copying the bytes (Reshape, Flatten,
// Squeeze, Unsqueeze, Identity and Dropout give their input's storage to their output). The storage is
// copied on write: every non-const access to the elements (`values<T>()`, `bytes()`) first gives the
// tensor storage of its own when another tensor shares it, so writing through one tensor never
// changes another. A span taken by a non-const access stays this tensor's own only until the tensor is
// next copied: write the elements before handing copies out.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "core/dtype.hpp"

namespace sonnx {

namespace accuracy {
struct Annex;
}

using Shape = std::vector<std::int64_t>;

// "[2, 0, 3]" (rank 0: "[]").
std::string to_string(const Shape& s);

// [Common.tensor.size-limit] Number of elements of `shape`; refuses negative dims, counts that
// overflow int64, and byte sizes above the interpreter limit, before anything is allocated.
// `what` names the tensor in the message.
std::int64_t checked_element_count(const Shape& shape, DType t, const std::string& what);
// The byte limit: SONNX_REF_MAX_BYTES if set, else 16 GiB.
std::uint64_t max_tensor_bytes();

class Tensor {
 public:
  Tensor() = default;
  // A tensor of `shape` whose elements are all-zero bit patterns (+0, 0, False); with
  // Fill::Unspecified, elements the caller must write, every one, before any is read (core/buffer.hpp).
  Tensor(DType t, Shape shape, const std::string& what = "tensor", Fill fill = Fill::Zero);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  std::int64_t rank() const { return static_cast<std::int64_t>(shape_.size()); }
  std::int64_t size() const { return count_; }  // number of elements
  std::size_t byte_size() const { return bytes_ ? bytes_->size() : 0; }

  // [Common.tensor.storage] A non-const access first makes the storage this tensor's own.
  template <class T> std::span<T> values() {
    check_type<T>();
    own();
    return {reinterpret_cast<T*>(data()), static_cast<std::size_t>(count_)};
  }
  template <class T> std::span<const T> values() const {
    check_type<T>();
    return {reinterpret_cast<const T*>(data()), static_cast<std::size_t>(count_)};
  }
  std::span<std::byte> bytes() {
    own();
    return {data(), byte_size()};
  }
  std::span<const std::byte> bytes() const { return {data(), byte_size()}; }

  // [Common.tensor.storage] The same elements viewed with `shape` (the same element count, else
  // internal error Common.tensor.shape): the result shares this tensor's storage, nothing is copied.
  Tensor reshaped(Shape shape) const;
  // [Common.tensor.storage] Whether this tensor and `other` share one storage (a non-empty one).
  bool shares_storage(const Tensor& other) const {
    return bytes_ != nullptr && bytes_ == other.bytes_ && byte_size() != 0;
  }

  // Same dtype, shape and bit patterns.
  bool bitwise_equal(const Tensor& other) const;

  // [Acc.verdict] For an output a computing operator wrote: each element's enclosure of the ideal,
  // its radius and what it may be (core/accuracy.hpp). `compare` judges an implementation's values
  // of this tensor by it rather than bit for bit. Null for every other tensor; never part of the
  // value (copies share it, bitwise_equal ignores it).
  std::shared_ptr<const accuracy::Annex> annex;
  // [Check.nan-payload.free] For an output an operator computes by arithmetic (OpVersion::
  // nan_payload_free): its NaNs have no fixed payload, and `compare` accepts any NaN for them. False
  // for every other tensor; never part of the value (copies keep it, bitwise_equal ignores it).
  bool nan_payload_free = false;

 private:
  template <class T> void check_type() const {
    if (dtype_of<T>() != dtype_)
      refuse("Common.gr.no-conversion", "internal: {} tensor read as {}", name(dtype_),
             name(dtype_of<T>()));
  }
  // [Common.tensor.storage] copy on write: a storage another tensor shares is copied before any write
  void own();
  std::byte* data() { return bytes_ ? bytes_->data() : nullptr; }
  const std::byte* data() const { return bytes_ ? static_cast<const Buffer&>(*bytes_).data() : nullptr; }
  DType dtype_ = DType::Float;
  Shape shape_{0};
  std::int64_t count_ = 0;
  std::shared_ptr<Buffer> bytes_;  // null for a default-constructed tensor; shared by copies
};

// Builds a tensor from values (tests and examples).
template <class T>
Tensor make_tensor(Shape shape, const std::vector<T>& v) {
  Tensor t(dtype_of<T>(), std::move(shape));
  if (static_cast<std::int64_t>(v.size()) != t.size())
    refuse("Common.tensor.shape", "{} values given for shape {}", v.size(), to_string(t.shape()));
  auto dst = t.values<T>();
  for (std::size_t k = 0; k < v.size(); ++k) dst[k] = v[k];
  return t;
}

}  // namespace sonnx
