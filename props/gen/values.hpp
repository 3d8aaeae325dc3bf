// Generators of element values and tensors (reusable by every property suite).
//
// Values are generated as bit patterns of the element type, biased towards what breaks
// implementations: NaN (quiet and signalling, several payloads, both signs), ±0, ±Inf,
// subnormals, the largest and smallest finite values, integer minima and maxima. Tensors draw
// their elements from a small pool of values, so ties are frequent. Every choice is an index that
// shrinks towards 0, and lists are ordered simplest first: a counterexample shrinks towards +0, 1,
// small shapes and few distinct values.
#pragma once
#include "gen/show.hpp"  // first: the printers of generated types
#include <cstdint>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "core/tensor.hpp"

namespace sonnx::props::gen {

// A uniform integer in [lo, hi) that shrinks towards lo. (rc::gen::inRange scales its range with
// RapidCheck's size, which starts at 0: early cases would all pick lo.)
template <class T>
rc::Gen<T> index(T lo, T hi) {
  return rc::gen::resize(100, rc::gen::inRange<T>(lo, hi));
}

// Picks one of `items` with probability proportional to its weight; shrinks towards items[0].
template <class T>
rc::Gen<T> weighted(std::vector<std::pair<int, T>> items) {
  int total = 0;
  for (const auto& it : items) total += it.first;
  return rc::gen::map(index(0, total), [items](int u) {
    for (const auto& it : items) {
      if (u < it.first) return it.second;
      u -= it.first;
    }
    return items.back().second;
  });
}
// Uniform choice among `items`, shrinking towards items[0].
template <class T>
rc::Gen<T> one_of(std::vector<T> items) {
  return rc::gen::map(index<std::size_t>(0, items.size()), [items](std::size_t i) { return items[i]; });
}

// The landmark patterns of a dtype, simplest first (+0 / 0 / False first).
std::vector<std::uint64_t> simple_values(DType t);   // 0, 1, -0, -1, 2, ... small values
std::vector<std::uint64_t> edge_values(DType t);     // ±Inf, subnormals, extremes, type min/max
std::vector<std::uint64_t> nan_values(DType t);      // quiet and signalling NaNs, several payloads
// All NaN payload shapes are used; for non-float types nan_values is empty.

// One element pattern of `t`, edge-biased (NaN included for float types).
rc::Gen<std::uint64_t> element(DType t);
// One element pattern of `t` that is not a NaN.
rc::Gen<std::uint64_t> non_nan_element(DType t);
// Any pattern of the type's width (uniform bits).
rc::Gen<std::uint64_t> any_bits(DType t);

// A pool of 1..max_size element patterns (ties between tensors that share it).
rc::Gen<std::vector<std::uint64_t>> pool(DType t, int max_size = 6);
rc::Gen<std::vector<std::uint64_t>> pool_of(rc::Gen<std::uint64_t> element, int max_size = 6);

// A tensor of `shape` whose elements are drawn from `pool` (dependent draw: the shape and pool
// come first). Each element is a pool index that shrinks towards pool[0].
rc::Gen<Tensor> tensor_from_pool(DType t, Shape shape, std::vector<std::uint64_t> pool);
// A tensor of `shape` with its own pool of edge-biased values.
rc::Gen<Tensor> tensor(DType t, Shape shape);
// Same, without NaN.
rc::Gen<Tensor> tensor_without_nan(DType t, Shape shape);
// Same, from a pool drawn with `element`.
rc::Gen<Tensor> tensor_of(DType t, Shape shape, rc::Gen<std::uint64_t> element);

// A dtype among `types` (shrinks towards types[0]).
rc::Gen<DType> dtype_of(const std::vector<DType>& types);

}  // namespace sonnx::props::gen
