#include "gen/shapes.hpp"

#include <algorithm>
#include <numeric>

#include "gen/spec_facts.hpp"
#include "gen/values.hpp"

namespace sonnx::props::gen {

rc::Gen<std::int64_t> dim(bool allow_zero) {
  std::vector<std::pair<int, std::int64_t>> w = {{4, 1}, {4, 2}, {3, 3}, {1, 4}, {1, 5}};
  if (allow_zero) w.insert(w.begin() + 1, {1, 0});  // after 1: shrinking tries 1 first
  return weighted(w);
}

namespace {

rc::Gen<int> rank(int min_rank, int max_rank) {
  const int w[] = {1, 3, 4, 3, 2, 1};  // ranks 0..5
  std::vector<std::pair<int, int>> items;
  for (int r = min_rank; r <= max_rank; ++r) items.push_back({r < 6 ? w[r] : 1, r});
  return weighted(items);
}

// Lowers the largest dimensions until the element count fits (deterministic, so shrinking of
// the drawn dimensions carries over).
void fit(Shape& s, std::int64_t max_elements) {
  while (element_count(s) > max_elements) {
    auto it = std::max_element(s.begin(), s.end());
    *it -= 1;
  }
}

// Weights for "how many leading axes to drop": mostly none.
rc::Gen<std::size_t> drop_count(std::size_t r) {
  std::vector<std::pair<int, std::size_t>> items;
  for (std::size_t k = 0; k <= r; ++k) items.push_back({k == 0 ? 4 : 1, k});
  return weighted(items);
}

rc::Gen<int> input_count(int min_inputs, int max_inputs) {
  const int w[] = {2, 5, 3, 2, 1, 1};  // 1..6 inputs
  std::vector<std::pair<int, int>> items;
  for (int n = min_inputs; n <= max_inputs; ++n) items.push_back({n <= 6 ? w[n - 1] : 1, n});
  return weighted(items);
}

}  // namespace

rc::Gen<Shape> shape(ShapeOpts opts) {
  return rc::gen::exec([opts] {
    const int r = *rank(opts.min_rank, opts.max_rank);
    Shape s = *rc::gen::container<Shape>(static_cast<std::size_t>(r), dim(opts.allow_zero));
    fit(s, opts.max_elements);
    return s;
  });
}

rc::Gen<BroadcastTuple> broadcastable(int min_inputs, int max_inputs, ShapeOpts opts) {
  return rc::gen::exec([=] {
    BroadcastTuple b;
    b.target = *shape(opts);
    const std::size_t r = b.target.size();
    const int n = *input_count(min_inputs, max_inputs);
    const int full = *index(0, n);  // this input keeps the full rank
    std::vector<std::size_t> drop(n);
    std::vector<std::vector<bool>> to_one(n, std::vector<bool>(r, false));
    for (int m = 0; m < n; ++m) {
      drop[m] = m == full ? 0 : *drop_count(r);
      for (std::size_t k = drop[m]; k < r; ++k) to_one[m][k] = *weighted<bool>({{3, false}, {1, true}});
    }
    // Every axis whose target size is not 1 keeps it in some input (else the output would be 1).
    for (std::size_t k = 0; k < r; ++k) {
      if (b.target[k] == 1) continue;
      bool kept = false;
      for (int m = 0; m < n; ++m) kept = kept || (k >= drop[m] && !to_one[m][k]);
      if (!kept) to_one[full][k] = false;
    }
    for (int m = 0; m < n; ++m) {
      Shape s;
      for (std::size_t k = drop[m]; k < r; ++k) s.push_back(to_one[m][k] ? 1 : b.target[k]);
      b.inputs.push_back(s);
    }
    return b;
  });
}

rc::Gen<std::vector<Shape>> not_broadcastable(int max_inputs) {
  return rc::gen::exec([=] {
    BroadcastTuple b = *broadcastable(2, std::max(2, max_inputs), ShapeOpts{1, 4, 64, true});
    const std::size_t r = b.target.size();
    const int n = static_cast<int>(b.inputs.size());
    const std::size_t k = *index<std::size_t>(0, r);  // the offending axis
    const int a = *index(0, n);
    const int c = (a + 1 + *index(0, n - 1)) % n;
    const std::int64_t da = *one_of<std::int64_t>({2, 3, 0, 4});
    std::vector<std::int64_t> others;
    for (std::int64_t d : {3, 2, 0, 4, 5})
      if (d != da) others.push_back(d);
    const std::int64_t dc = *one_of(others);
    for (auto [m, d] : {std::pair{a, da}, std::pair{c, dc}}) {
      Shape& s = b.inputs[m];
      const std::size_t offset = r - s.size();
      if (k < offset) s = Shape(b.target.begin() + static_cast<std::ptrdiff_t>(k), b.target.end());  // cover axis k
      s[k - (r - s.size())] = d;
    }
    return b.inputs;
  });
}

rc::Gen<BroadcastTuple> same_shapes(int min_inputs, int max_inputs, ShapeOpts opts) {
  return rc::gen::exec([=] {
    BroadcastTuple b;
    b.target = *shape(opts);
    const int n = *input_count(min_inputs, max_inputs);
    b.inputs.assign(static_cast<std::size_t>(n), b.target);
    return b;
  });
}

rc::Gen<std::vector<Shape>> not_all_same(int max_inputs) {
  return rc::gen::exec([=] {
    const Shape s0 = *shape(ShapeOpts{0, 4, 64, true});
    const int n = *input_count(2, std::max(2, max_inputs));
    const int differing = *index(1, n);
    std::vector<Shape> out;
    for (int m = 0; m < n; ++m) {
      const bool differ = m == differing || (m > 0 && *weighted<bool>({{3, false}, {1, true}}));
      if (!differ) {
        out.push_back(s0);
        continue;
      }
      Shape s = s0;
      const int kind = s.empty() ? 1 : *index(0, 3);
      if (kind == 0) {  // one dimension changed
        const std::size_t k = *index<std::size_t>(0, s.size());
        s[k] = s[k] == 1 ? 2 : 1;
      } else if (kind == 1) {  // a leading axis added (still broadcastable)
        s.insert(s.begin(), *dim(false));
      } else {  // the leading axis removed
        s.erase(s.begin());
      }
      out.push_back(s);
    }
    return out;
  });
}

rc::Gen<std::vector<std::size_t>> permutation(std::size_t n) {
  return rc::gen::exec([n] {
    std::vector<std::size_t> p(n);
    std::iota(p.begin(), p.end(), 0);
    for (std::size_t i = n; i-- > 1;) {
      const std::size_t back = *index<std::size_t>(0, i + 1);  // 0: no swap
      std::swap(p[i], p[i - back]);
    }
    return p;
  });
}

}  // namespace sonnx::props::gen
