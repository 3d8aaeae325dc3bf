// spec/ops/transpose.md — read this file side by side with its sections.
//
// The definition, once: the permutation p (given, or the reversed axes), Y's shape dY_k = dX_{p_k},
// and Y[j] = X[i] with i_{p_k} = j_k. As a walk (ops/movement.hpp): Y's axis k reads X with X's
// stride on axis p_k; `evaluate` copies along it (runs, or tiles for the last two axes), `decide`
// names the one element of X at one index.
#include "ops/transpose.hpp"

#include "core/format.hpp"
#include "core/index.hpp"
#include "ops/movement.hpp"

namespace sonnx::ops {

std::vector<DType> transpose_types(int version) {
  // [Transpose.v1] every type of sonnx-ref but bfloat16
  std::vector<DType> t = {DType::Bool,   DType::Int8,   DType::Int16,   DType::Int32,   DType::Int64, DType::Uint8,
                          DType::Uint16, DType::Uint32, DType::Uint64,  DType::Float16, DType::Float, DType::Double};
  if (version >= 13) t.push_back(DType::BFloat16);  // [Transpose.v13] [Transpose.v21] [Transpose.v23]
  return t;
}

namespace {

// The checks of the Error conditions table, then [Transpose.perm.default]: the permutation p.
std::vector<std::int64_t> permutation(int version, const Tensor& X, const std::optional<std::vector<std::int64_t>>& perm) {
  if (!accepts(transpose_types(version), X.dtype()))  // [Transpose.err.dtype]
    refuse("Transpose.err.dtype", "Transpose-{} does not accept {} (T in {{{}}})", version, name(X.dtype()),
           join_names(transpose_types(version)));
  const std::int64_t r = X.rank();
  std::vector<std::int64_t> p;
  if (!perm) {
    for (std::int64_t k = r - 1; k >= 0; --k) p.push_back(k);  // [Transpose.perm.default] (r-1, ..., 0)
    return p;
  }
  p = *perm;
  // [Transpose.err.perm] a permutation of [0, r-1]: length r, every entry in range, none repeated
  std::vector<bool> seen(static_cast<std::size_t>(r), false);
  bool ok = static_cast<std::int64_t>(p.size()) == r;
  for (std::size_t k = 0; ok && k < p.size(); ++k) {
    ok = p[k] >= 0 && p[k] < r && !seen[static_cast<std::size_t>(p[k])];
    if (ok) seen[static_cast<std::size_t>(p[k])] = true;
  }
  if (!ok)
    refuse("Transpose.err.perm", "Transpose-{}: perm ({}) is not a permutation of [0, {}] for input X of shape {}", version,
           join_ints(p), r - 1, to_string(X.shape()));
  return p;
}

// [Transpose.shape] [Transpose.formula] Y's axis k is X's axis p_k: dY_k = dX_{p_k}, stride s_{p_k}.
Walk walk(const Tensor& X, const std::vector<std::int64_t>& p) {
  const Strides xs = row_major_strides(X.shape());
  Walk w;
  for (std::int64_t k : p) {
    w.shape.push_back(X.shape()[static_cast<std::size_t>(k)]);
    w.stride.push_back(xs[static_cast<std::size_t>(k)]);
  }
  return w;
}

}  // namespace

Tensor transpose(int version, const Tensor& X, const std::optional<std::vector<std::int64_t>>& perm) {
  const Walk w = walk(X, permutation(version, X, perm));
  Tensor Y(X.dtype(), w.shape, "Transpose output", Fill::Unspecified);  // [Transpose.shape] every element written
  copy_walk(X, Y, w);  // [Transpose.formula] Y[j] = X[i], i_{p_k} = j_k, bit for bit
  return Y;
}

Decision decide_transpose(int version, const NodeValues& v, const std::optional<std::vector<std::int64_t>>& perm,
                          const std::vector<std::int64_t>& j) {
  const Tensor& X = *v.inputs[0];
  const std::vector<std::int64_t> p = permutation(version, X, perm);
  const Walk w = walk(X, p);
  std::int64_t offset = w.base;
  for (std::size_t k = 0; k < j.size(); ++k) offset += j[k] * w.stride[k];  // [Transpose.formula]
  std::string parameters = perm ? fmt::format("perm = ({})", join_ints(p)) : fmt::format("perm absent -> ({})", join_ints(p));
  std::vector<std::string> clauses = {"Transpose.formula", "Transpose.shape"};
  if (!perm) clauses.push_back("Transpose.perm.default");
  return moved_decision(v, j, {0, offset}, "the element of X whose axis p_k is j_k: X[i], i_{p_k} = j_k", clauses, parameters);
}

std::vector<Reach> reach_transpose(int, const NodeValues& v, const std::vector<Source>& sources) {
  return {moved_reach("Transpose.formula", v.inputs[0]->dtype(), sources[0], v.input_names[0])};
}

}  // namespace sonnx::ops
