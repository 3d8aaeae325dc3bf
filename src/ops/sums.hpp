// The computed folds that Sum, Mean, ReduceSum and ReduceMean share (spec/ops/sum.md, mean.md,
// reducesum.md, reducemean.md): a sum of one-factor terms, judged by spec/common/accuracy.md, with
// the factor 1/d of [Acc.divisor] for the means. The index sets are those of the selecting folds,
// reused: the broadcast map of ops/variadic.hpp (Sum, Mean: the terms Ẋm[i], m ascending) and the
// axes, output shape and reduced set R(j) of ops/reduce.hpp (ReduceSum, ReduceMean: the terms X[i],
// i in R(j) in row-major order). Each operator's file names its clauses in a SumClauses table.
#pragma once
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"
#include "ops/reduce.hpp"
#include "ops/variadic.hpp"

namespace sonnx::ops {

struct SumClauses {
  const char* op;              // "Sum", "Mean", "ReduceSum", "ReduceMean"
  bool mean;                   // (1/d)·Σ: the terms carry 1/d ([Acc.divisor]), d = n
  const char* float_formula;   // the float formula clause (the annex's clause)
  const char* order;           // the oracle's order of the terms ([Acc.oracle])
  const char* unary = "";      // Sum, Mean: one input is the input, exactly
  const char* int_formula = "";  // ReduceSum: modulo 2^w ([Acc.int]); ReduceMean: the exact mean truncated
  const char* float_empty = "";  // ReduceSum: +0; ReduceMean: NaN (0/0)
  const char* int_empty = "";    // ReduceSum: 0; ReduceMean: refused (an .err. ID)
};

// Sum, Mean: the checks and the shape of ops/variadic.hpp, then Y[i] = Σ_m Ẋm[i] (times 1/n).
Tensor computed_variadic(const VariadicClauses& v, const SumClauses& c, int version, const std::vector<DType>& allowed,
                         const std::vector<const Tensor*>& inputs);
Decision decide_computed_variadic(const VariadicClauses& v, const SumClauses& c, int version, const NodeValues& values,
                                  const std::vector<std::int64_t>& i);
std::vector<Reach> reach_computed_variadic(const VariadicClauses& v, const SumClauses& c, int version, const NodeValues& values,
                                           const std::vector<Source>& sources);

// ReduceSum, ReduceMean: the steps of ops/reduce.hpp, then Y[j] = Σ_{i in R(j)} X[i] (times 1/|R(j)|).
Tensor computed_reduce(const ReduceClauses& r, const SumClauses& c, int version, const std::vector<DType>& allowed,
                       const Tensor& X, const ReduceParams& p);
Decision decide_computed_reduce(const ReduceClauses& r, const SumClauses& c, int version, const NodeValues& values,
                                const ReduceParams& p, const ReduceSources& from, const std::vector<std::int64_t>& j);
std::vector<Reach> reach_computed_reduce(const ReduceClauses& r, const SumClauses& c, int version, const NodeValues& values,
                                         const ReduceParams& p, const std::vector<Source>& sources);

}  // namespace sonnx::ops
