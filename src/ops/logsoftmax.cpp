// spec/ops/logsoftmax.md — read this file side by side with its sections.
//
// LogSoftmax is the row definition of ops/softmax.cpp in its log form: y_i = (x_i − m) − ln Σ_j e^(x_j − m)
// ([LogSoftmax.float.formula]), with the bound of [LogSoftmax.bound] (exp's and log's K, [LogSoftmax.hyp])
// and the edges of [LogSoftmax.edge]; the coercion of versions 1 and 11 ([LogSoftmax.coerce]) is
// ops/position.hpp's. This file holds the clause names (kLogSoftmax, ops/softmax.cpp) and nothing else:
// the errors are [LogSoftmax.err.dtype] and [LogSoftmax.err.axis-range], the axis [LogSoftmax.axis], the output
// [LogSoftmax.shape], the versions [LogSoftmax.v1] [LogSoftmax.v11] [LogSoftmax.v13] (those of Softmax).
#include "ops/softmax.hpp"
