#include "gen/props.hpp"

namespace sonnx::props {

bool same_bits(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  for (std::int64_t k = 0; k < element_count(a.shape()); ++k)
    if (bits_at(a, k) != bits_at(b, k)) return false;
  return true;
}

bool same_up_to_nan_payload(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  for (std::int64_t k = 0; k < element_count(a.shape()); ++k) {
    const auto x = bits_at(a, k), y = bits_at(b, k);
    const bool nx = is_nan_bits(a.dtype(), x), ny = is_nan_bits(b.dtype(), y);
    if (nx != ny || (!nx && x != y)) return false;
  }
  return true;
}

bool has_nan(const Tensor& t) {
  for (std::int64_t k = 0; k < element_count(t.shape()); ++k)
    if (is_nan_bits(t.dtype(), bits_at(t, k))) return true;
  return false;
}

}  // namespace sonnx::props
