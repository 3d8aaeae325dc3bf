#include "gen/values.hpp"

#include "gen/spec_facts.hpp"

namespace sonnx::props::gen {

namespace {

std::uint64_t width_mask(DType t) {
  const int w = width_bits(t);
  return w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
}
std::uint64_t int_bits(DType t, std::int64_t v) { return static_cast<std::uint64_t>(v) & width_mask(t); }

// A float pattern from its fields.
std::uint64_t fp(DType t, bool negative, std::uint64_t exponent, std::uint64_t fraction) {
  const FloatLayout f = float_layout(t);
  return (negative ? f.sign_mask() : 0) | (exponent << f.frac_bits) | (fraction & f.frac_mask());
}

}  // namespace

std::vector<std::uint64_t> simple_values(DType t) {
  switch (family(t)) {
    case Family::Float: {
      const FloatLayout f = float_layout(t);
      const std::uint64_t b = f.bias();
      return {fp(t, false, 0, 0),  fp(t, false, b, 0),     fp(t, true, 0, 0),
              fp(t, true, b, 0),   fp(t, false, b + 1, 0), fp(t, true, b + 1, 0),
              fp(t, false, b - 1, 0), fp(t, false, b + 1, f.quiet_bit()), fp(t, true, b + 1, f.quiet_bit())};
      //      +0, 1, -0, -1, 2, -2, 0.5, 3, -3
    }
    case Family::Signed: return {0, 1, int_bits(t, -1), 2, int_bits(t, -2), 3};
    case Family::Unsigned: return {0, 1, 2, 3};
    case Family::Bool: return {0, 1};
  }
  return {0};
}

std::vector<std::uint64_t> edge_values(DType t) {
  const int w = width_bits(t);
  switch (family(t)) {
    case Family::Float: {
      const FloatLayout f = float_layout(t);
      const std::uint64_t emax = (std::uint64_t{1} << f.exp_bits) - 1;  // all ones: Inf / NaN
      return {
          fp(t, false, emax, 0),                // +Inf
          fp(t, true, emax, 0),                 // -Inf
          fp(t, false, 0, 1),                   // smallest positive subnormal
          fp(t, true, 0, 1),                    // its negative
          fp(t, false, 0, f.frac_mask()),       // largest subnormal
          fp(t, true, 0, f.frac_mask()),
          fp(t, false, 1, 0),                   // smallest normal
          fp(t, true, 1, 0),
          fp(t, false, emax - 1, f.frac_mask()),  // largest finite
          fp(t, true, emax - 1, f.frac_mask()),   // lowest finite
      };
    }
    case Family::Signed: {
      const std::uint64_t min = std::uint64_t{1} << (w - 1);  // -2^(w-1)
      const std::uint64_t max = min - 1;                      // 2^(w-1) - 1
      return {min, max, min + 1, max - 1};
    }
    case Family::Unsigned: {
      const std::uint64_t max = width_mask(t);
      const std::uint64_t half = std::uint64_t{1} << (w - 1);  // the pattern of a signed minimum
      return {max, max - 1, half, half - 1};
    }
    case Family::Bool: return {1};
  }
  return {0};
}

std::vector<std::uint64_t> nan_values(DType t) {
  if (family(t) != Family::Float) return {};
  const FloatLayout f = float_layout(t);
  const std::uint64_t emax = (std::uint64_t{1} << f.exp_bits) - 1;
  const std::uint64_t q = f.quiet_bit();
  return {
      fp(t, false, emax, q),                      // canonical quiet NaN
      fp(t, true, emax, q),                       // negative quiet NaN
      fp(t, false, emax, q | 1),                  // quiet NaN, payload 1
      fp(t, true, emax, f.frac_mask()),           // quiet NaN, all payload bits
      fp(t, false, emax, 1),                      // signalling NaN, payload 1
      fp(t, true, emax, 2),                       // negative signalling NaN
      fp(t, false, emax, f.frac_mask() & ~q),     // signalling NaN, largest payload
  };
}

rc::Gen<std::uint64_t> any_bits(DType t) {
  if (family(t) == Family::Bool) return one_of<std::uint64_t>({0, 1});  // [Common.dtype.bool] only 0 and 1
  const std::uint64_t mask = width_mask(t);
  return rc::gen::map(rc::gen::resize(100, rc::gen::arbitrary<std::uint64_t>()), [mask](std::uint64_t u) { return u & mask; });
}

rc::Gen<std::uint64_t> non_nan_element(DType t) {
  auto simple = one_of(simple_values(t));
  auto edge = one_of(edge_values(t));
  const bool is_float = family(t) == Family::Float;
  auto random = rc::gen::suchThat(any_bits(t), [t](std::uint64_t b) { return !is_nan_bits(t, b); });
  return rc::gen::join(weighted<rc::Gen<std::uint64_t>>({{6, simple}, {3, edge}, {is_float ? 2 : 3, random}}));
}

rc::Gen<std::uint64_t> element(DType t) {
  if (family(t) != Family::Float) return non_nan_element(t);
  auto zeros = one_of<std::uint64_t>({0, float_layout(t).sign_mask()});  // +0, -0
  return rc::gen::join(weighted<rc::Gen<std::uint64_t>>({{5, one_of(simple_values(t))},
                                                         {2, zeros},
                                                         {3, one_of(edge_values(t))},
                                                         {2, one_of(nan_values(t))},
                                                         {2, any_bits(t)}}));
}

rc::Gen<std::vector<std::uint64_t>> pool_of(rc::Gen<std::uint64_t> element, int max_size) {
  std::vector<std::pair<int, int>> sizes;
  const int w[] = {2, 4, 4, 3, 2, 2, 1, 1};  // sizes 1..8: few distinct values, many ties
  for (int k = 1; k <= max_size && k <= 8; ++k) sizes.push_back({w[k - 1], k});
  return rc::gen::mapcat(weighted(sizes), [element](int k) {
    return rc::gen::container<std::vector<std::uint64_t>>(static_cast<std::size_t>(k), element);
  });
}

rc::Gen<std::vector<std::uint64_t>> pool(DType t, int max_size) { return pool_of(element(t), max_size); }

rc::Gen<Tensor> tensor_from_pool(DType t, Shape shape, std::vector<std::uint64_t> pool) {
  const std::int64_t n = element_count(shape);
  const std::size_t k = pool.size();
  return rc::gen::map(
      rc::gen::container<std::vector<std::size_t>>(static_cast<std::size_t>(n), index<std::size_t>(0, k)),
      [t, shape, pool](const std::vector<std::size_t>& picks) {
        Tensor x(t, shape, "generated tensor");
        for (std::size_t e = 0; e < picks.size(); ++e) set_bits_at(x, static_cast<std::int64_t>(e), pool[picks[e]]);
        return x;
      });
}

rc::Gen<Tensor> tensor_of(DType t, Shape shape, rc::Gen<std::uint64_t> element) {
  const int max_pool = element_count(shape) <= 1 ? 1 : 6;
  return rc::gen::mapcat(pool_of(std::move(element), max_pool),
                         [t, shape](std::vector<std::uint64_t> p) { return tensor_from_pool(t, shape, std::move(p)); });
}

rc::Gen<Tensor> tensor(DType t, Shape shape) { return tensor_of(t, std::move(shape), element(t)); }
rc::Gen<Tensor> tensor_without_nan(DType t, Shape shape) { return tensor_of(t, std::move(shape), non_nan_element(t)); }

rc::Gen<DType> dtype_of(const std::vector<DType>& types) { return one_of(types); }

}  // namespace sonnx::props::gen
