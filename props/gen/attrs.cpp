#include "gen/attrs.hpp"

#include "gen/shapes.hpp"
#include "gen/values.hpp"

namespace sonnx::props::gen {

rc::Gen<std::vector<bool>> axes_mask(std::int64_t r, bool non_empty) {
  return rc::gen::exec([=] {
    std::vector<bool> mask(static_cast<std::size_t>(r));
    for (auto&& m : mask) m = *weighted<bool>({{1, false}, {1, true}});
    if (non_empty && r > 0) {
      bool any = false;
      for (bool m : mask) any = any || m;
      if (!any) mask[*index<std::size_t>(0, mask.size())] = true;
    }
    return mask;
  });
}

rc::Gen<std::vector<std::int64_t>> axes_listing(std::vector<bool> mask, bool allow_negative) {
  return rc::gen::exec([mask, allow_negative] {
    const auto r = static_cast<std::int64_t>(mask.size());
    std::vector<std::int64_t> axes;
    for (std::int64_t a = 0; a < r; ++a)
      if (mask[a]) axes.push_back(allow_negative && *weighted<bool>({{1, false}, {1, true}}) ? a - r : a);
    const auto order = *permutation(axes.size());
    std::vector<std::int64_t> listed;
    for (std::size_t p : order) listed.push_back(axes[p]);
    return listed;
  });
}

rc::Gen<std::int64_t> flag() { return one_of<std::int64_t>({1, 0}); }

rc::Gen<std::int64_t> bad_flag() {
  return one_of<std::int64_t>({2, -1, 3, 100, INT64_MIN, INT64_MAX});
}

rc::Gen<std::int64_t> valid_axis(int version, std::int64_t r, int negative_from) {
  const std::int64_t lowest = version >= negative_from ? -r : 0;
  return index<std::int64_t>(lowest, r);
}

rc::Gen<std::int64_t> invalid_axis(int version, std::int64_t r, int negative_from) {
  std::vector<rc::Gen<std::int64_t>> kinds = {
      index<std::int64_t>(r, r + 3),            // too large
      index<std::int64_t>(-r - 3, -r),          // too small
      one_of<std::int64_t>({INT64_MAX, INT64_MIN})};       // extremes
  if (version < negative_from && r > 0) kinds.push_back(index<std::int64_t>(-r, 0));  // negative in v1
  return rc::gen::join(one_of(kinds));
}

}  // namespace sonnx::props::gen
