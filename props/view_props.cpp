// Properties of spec/ops/reshape.md, flatten.md, squeeze.md, unsqueeze.md, identity.md, dropout.md and of
// [Common.tensor.storage]. Expected shapes are restated from the clauses' words (a regrouping of X's
// dimensions drawn first, then written with 0 and -1), expected elements are X's bit patterns at the same
// offset — never through ops/view.cpp's shape functions.
#include <numeric>

#include "gen/props.hpp"
#include "ops/registry.hpp"
#include "ops/view.hpp"

namespace sonnx::props::view_props {  // this file's own names (the unity build of props/CMakeLists.txt)
namespace {

std::vector<DType> every_type() { return {std::begin(kAllDTypes), std::end(kAllDTypes)}; }

Tensor int64s(const std::vector<std::int64_t>& v) {
  return make_tensor<std::int64_t>({static_cast<std::int64_t>(v.size())}, v);
}

// Same bits at every row-major offset (the shapes may differ).
bool same_elements(const Tensor& x, const Tensor& y) {
  if (x.dtype() != y.dtype() || x.size() != y.size()) return false;
  for (std::int64_t k = 0; k < x.size(); ++k)
    if (bits_at(x, k) != bits_at(y, k)) return false;
  return true;
}

std::int64_t product(const Shape& s) { return std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>()); }

// A regrouping of `in`: its dimensions cut into consecutive groups, each group's product one
// dimension, with 1s inserted at random places.
Shape regroup(const Shape& in) {
  Shape out;
  std::size_t k = 0;
  while (k < in.size()) {
    const auto n = static_cast<std::size_t>(*rc::gen::inRange<int>(1, static_cast<int>(in.size() - k) + 1));
    std::int64_t p = 1;
    for (std::size_t j = 0; j < n; ++j) p *= in[k + j];
    out.push_back(p);
    k += n;
    if (*rc::gen::inRange(0, 4) == 0) out.push_back(1);
  }
  return out;
}

}  // namespace

TEST_CASE("[Reshape.shape] [Reshape.zero-copies] [Reshape.zero-allowed] [Reshape.inferred] [Reshape.formula] a regrouping of X's dimensions, "
          "written with 0 (where it copies) and one -1 (where the dimension is not 0), Y has that shape and X's bits",
          "[reshape][props]") {
  check("Reshape-14, allowzero = 1 only where a size-0 dimension cannot be copied", [] {
    const DType t = *gen::dtype_of(every_type());
    const Shape in = *gen::shape();
    const Tensor X = *gen::tensor(t, in);
    const Shape target = regroup(in);
    std::vector<std::int64_t> s(target.begin(), target.end());
    for (std::size_t k = 0; k < s.size() && k < in.size(); ++k)
      if (s[k] == in[k] && *rc::gen::inRange(0, 2) == 0) s[k] = 0;  // [Reshape.zero-copies]
    std::int64_t others = 1;
    if (!s.empty()) {
      const auto k = static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(s.size())));
      for (std::size_t j = 0; j < s.size(); ++j)
        if (j != k) others *= target[j];
      if (others != 0 && s[k] != 0) s[k] = -1;  // [Reshape.inferred]
    }
    bool literal_zero = false;  // a size-0 dimension that 0 cannot copy: written with allowzero = 1 ([Reshape.zero-allowed])
    for (std::size_t k = 0; k < target.size(); ++k) literal_zero = literal_zero || (target[k] == 0 && (k >= in.size() || in[k] != 0));
    if (literal_zero) s.assign(target.begin(), target.end());
    const Tensor shape = int64s(s);
    const Tensor Y = ops::resolve("Reshape", 14).run({&X, &shape}, {{"allowzero", std::int64_t{literal_zero ? 1 : 0}}}, 1)[0];
    PROP_EXPECT(Y.shape() == target, "Reshape({}, {}) has shape {}, expected {}", to_string(in), to_string(s),
                to_string(Y.shape()), to_string(target));
    RC_ASSERT(same_elements(X, Y));
    const bool shared = Y.size() == 0 || Y.shares_storage(X);  // [Common.tensor.storage]
    RC_ASSERT(shared);
    RC_CLASSIFY(product(in) == 0, "empty");
    RC_CLASSIFY(literal_zero, "allowzero = 1");
  });
}

TEST_CASE("[Reshape.err.count] a shape of another element count is refused", "[reshape][props]") {
  check("append a dimension of size 2 to a non-empty regrouping", [] {
    const Shape in = *gen::shape();
    RC_PRE(product(in) > 0);
    const Tensor X = *gen::tensor(DType::Float, in);
    Shape s = regroup(in);
    s.push_back(2);
    const Tensor shape = int64s({s.begin(), s.end()});
    RC_ASSERT(refusal_id([&] { (void)ops::resolve("Reshape", 21).run({&X, &shape}, {}, 1); }) == "Reshape.err.count");
  });
}

TEST_CASE("[Flatten.shape] [Flatten.formula] Y is (product of the axes before a, product of the others) with X's bits",
          "[flatten][props]") {
  check("Flatten-13, a in [-r, r]", [] {
    const DType t = *gen::dtype_of(every_type());
    const Shape in = *gen::shape();
    const Tensor X = *gen::tensor(t, in);
    const auto r = static_cast<std::int64_t>(in.size());
    const std::int64_t a = *rc::gen::inRange<std::int64_t>(-r, r + 1);
    const std::int64_t cut = a < 0 ? a + r : a;
    std::int64_t outer = 1, inner = 1;
    for (std::int64_t k = 0; k < r; ++k) (k < cut ? outer : inner) *= in[static_cast<std::size_t>(k)];
    const Tensor Y = ops::resolve("Flatten", 13).run({&X}, {{"axis", a}}, 1)[0];
    RC_ASSERT(Y.shape() == (Shape{outer, inner}));
    RC_ASSERT(same_elements(X, Y));
  });
}

TEST_CASE("[Unsqueeze.shape] [Squeeze.shape] [Squeeze.formula] [Unsqueeze.formula] Squeeze with the axes Unsqueeze "
          "inserted gives X back, bit for bit, Unsqueeze puts 1 at each axis",
          "[squeeze][props]") {
  check("Unsqueeze-13 then Squeeze-13, axes drawn in [-r', r'-1] without repetition", [] {
    const DType t = *gen::dtype_of(every_type());
    const Shape in = *gen::shape(gen::ShapeOpts{0, 4, 64, true});
    const Tensor X = *gen::tensor(t, in);
    const int added = *rc::gen::inRange(1, 4);
    const auto r = static_cast<std::int64_t>(in.size()) + added;
    const std::vector<std::int64_t> positions = *rc::gen::suchThat(rc::gen::container<std::vector<std::int64_t>>(static_cast<std::size_t>(added),
                                   rc::gen::inRange<std::int64_t>(0, r)), [](const std::vector<std::int64_t>& v) {
      std::vector<std::int64_t> s = v;
      std::sort(s.begin(), s.end());
      return std::adjacent_find(s.begin(), s.end()) == s.end();
    });
    std::vector<std::int64_t> axes = positions;
    for (auto& a : axes)
      if (*rc::gen::inRange(0, 2) == 0) a -= r;  // the same axis, counted from the end
    const Tensor A = int64s(axes);
    const Tensor U = ops::resolve("Unsqueeze", 13).run({&X, &A}, {}, 1)[0];
    RC_ASSERT(U.rank() == r);
    for (std::int64_t p : positions) RC_ASSERT(U.shape()[static_cast<std::size_t>(p)] == 1);
    const Tensor S = ops::resolve("Squeeze", 13).run({&U, &A}, {}, 1)[0];
    RC_ASSERT(S.shape() == in);
    RC_ASSERT(same_elements(X, S));
    RC_ASSERT(same_elements(X, U));
  });
}

TEST_CASE("[Squeeze.all] without axes, Squeeze removes exactly the dimensions of size 1", "[squeeze][props]") {
  check("Squeeze-13 without axes", [] {
    const Shape in = *gen::shape();
    const Tensor X = *gen::tensor(DType::Int8, in);
    Shape expected;
    for (std::int64_t d : in)
      if (d != 1) expected.push_back(d);
    const Tensor Y = ops::resolve("Squeeze", 13).run({&X}, {}, 1)[0];
    RC_ASSERT(Y.shape() == expected);
    RC_ASSERT(same_elements(X, Y));
  });
}

TEST_CASE("[Identity.formula] [Dropout.formula] [Dropout.mask] [Common.tensor.storage] Y = X bit for bit, the mask is "
          "all true, writing Y never changes X",
          "[identity][props]") {
  check("Identity-21 and Dropout-13 (training_mode false)", [] {
    const DType t = *gen::dtype_of({DType::Float16, DType::BFloat16, DType::Float, DType::Double});
    const Shape in = *gen::shape();
    const Tensor X = *gen::tensor(t, in);
    Tensor I = ops::resolve("Identity", 21).run({&X}, {}, 1)[0];
    const Tensor no = make_tensor<bool>({}, {false});
    auto D = ops::resolve("Dropout", 13).run({&X, nullptr, &no}, {}, 2);
    RC_ASSERT(same_bits(X, I));
    RC_ASSERT(same_bits(X, D[0]));
    RC_ASSERT(D[1].dtype() == DType::Bool);
    RC_ASSERT(D[1].shape() == in);
    for (bool m : D[1].values<bool>()) RC_ASSERT(m);
    const Tensor before = make_tensor<std::uint8_t>({static_cast<std::int64_t>(X.byte_size())},
                                                    std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(X.bytes().data()),
                                                                              reinterpret_cast<const std::uint8_t*>(X.bytes().data()) + X.byte_size()));
    for (auto& b : I.bytes()) b = std::byte{0x5A};
    for (auto& b : D[0].bytes()) b = std::byte{0xA5};
    RC_ASSERT(std::equal(X.bytes().begin(), X.bytes().end(), reinterpret_cast<const std::byte*>(before.bytes().data())));
  });
}

}  // namespace sonnx::props::view_props
