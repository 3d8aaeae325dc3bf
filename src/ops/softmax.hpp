// spec/ops/softmax.md, spec/ops/logsoftmax.md — Softmax and LogSoftmax, opsets 1, 11, 13: the row
// definition once (ops/softmax.cpp), each operator naming its clauses (softmax.cpp, logsoftmax.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "core/tensor.hpp"
#include "ops/definition.hpp"

namespace sonnx::ops {

// The clauses of one of the two operators.
struct SoftmaxClauses {
  const char* op;          // "Softmax"
  bool log_form;           // LogSoftmax: y = x − m − ln W
  const char* err_dtype;   // [X.err.dtype]
  const char* err_axis;    // [X.err.axis-range]
  const char* formula;     // [X.float.formula] version 13, along an axis
  const char* coerce;      // [X.coerce] versions 1 and 11
  const char* bound;       // [X.bound]
  const char* edge;        // [X.edge] NaN, infinities
  const char* hyp;         // [X.hyp]
};
extern const SoftmaxClauses kSoftmax, kLogSoftmax;

std::vector<DType> softmax_types(int version);  // both operators
std::int64_t softmax_default_axis(int version);  // 1 before 13, −1 from 13

Tensor softmax_family(const SoftmaxClauses& c, int version, const Tensor& X, std::int64_t axis);
Decision decide_softmax_family(const SoftmaxClauses& c, int version, const NodeValues& v, std::int64_t axis,
                               const std::vector<std::int64_t>& i);
std::vector<Reach> reach_softmax_family(const SoftmaxClauses& c, int version, const NodeValues& v, std::int64_t axis,
                                        const std::vector<Source>& sources);

inline Tensor softmax(int version, const Tensor& X, std::int64_t axis) { return softmax_family(kSoftmax, version, X, axis); }
inline Tensor logsoftmax(int version, const Tensor& X, std::int64_t axis) { return softmax_family(kLogSoftmax, version, X, axis); }

}  // namespace sonnx::ops
