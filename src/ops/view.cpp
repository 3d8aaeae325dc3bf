// spec/ops/reshape.md, flatten.md, squeeze.md, unsqueeze.md, identity.md, dropout.md — read this file
// side by side with their sections.
//
// The definition, once, for the six operators: Y[i] = X[j] where off_Y(i) = off_X(j) — the output holds
// the input's elements in row-major order ([Common.tensor.index]), bit for bit; only the shape changes.
// Each operator's shape rule is a named step with its own errors; evaluation is the view
// X.reshaped(shape), which shares X's storage ([Common.tensor.storage]): nothing is copied.
#include "ops/view.hpp"

#include <algorithm>

#include "core/extent.hpp"
#include "core/format.hpp"
#include "core/index.hpp"

namespace sonnx::ops {

namespace {

const std::vector<DType> kFloats = {DType::Float16, DType::Float, DType::Double};

// Every type of [Common.dtype.set]; bfloat16 from version `bf16_from`.
std::vector<DType> all_types(int version, int bf16_from) {
  std::vector<DType> t;
  for (DType d : kAllDTypes)
    if (d != DType::BFloat16 || version >= bf16_from) t.push_back(d);
  return t;
}

void check_type(const char* clause, const char* op, int version, const std::vector<DType>& allowed, const Tensor& X,
                const char* input) {
  if (std::find(allowed.begin(), allowed.end(), X.dtype()) == allowed.end())
    refuse(clause, "{}-{} does not accept {} for input {} (T in {{{}}})", op, version, name(X.dtype()), input,
           join_names(allowed));
}

std::vector<std::int64_t> int64_vector(const char* clause, const Tensor& t, const char* what) {
  if (t.dtype() != DType::Int64) refuse(clause, "the {} input must be int64, got {}", what, name(t.dtype()));
  if (t.rank() != 1) refuse(clause, "the {} input must have rank 1, got shape {}", what, to_string(t.shape()));
  auto v = t.values<std::int64_t>();
  return {v.begin(), v.end()};
}

// [Squeeze.err.axis] [Squeeze.err.repeated] [Unsqueeze.err.axis] [Unsqueeze.err.repeated]
// An axis of a tensor of rank r, in [-r, r-1] (negative: counted from the end, versions 11 and later)
// or [0, r-1] (version 1), normalised to [0, r-1]; repeated axes refused.
std::vector<std::int64_t> normalise_axes(const char* range_clause, const char* repeat_clause, const char* op,
                                         int version, const std::vector<std::int64_t>& axes, std::int64_t r) {
  std::vector<std::int64_t> out;
  const std::int64_t low = version >= 11 ? -r : 0;
  for (std::int64_t a : axes) {
    if (a < low || a > r - 1)
      refuse(range_clause, "{}-{}: axis {} is out of range [{}, {}] for rank {}", op, version, a, low, r - 1, r);
    const std::int64_t n = a < 0 ? a + r : a;
    if (std::find(out.begin(), out.end(), n) != out.end())
      refuse(repeat_clause, "{}-{}: axis {} is given twice (axes {})", op, version, n, to_string(axes));
    out.push_back(n);
  }
  return out;
}

}  // namespace

// ---- types ----------------------------------------------------------------------------------------

std::vector<DType> reshape_types(int version) {
  if (version < 5) return kFloats;   // [Reshape.v1] T in {float16, float, double}
  return all_types(version, 13);     // [Reshape.v5] every type; [Reshape.v13] bfloat16
}
std::vector<DType> flatten_types(int version) {
  if (version < 9) return kFloats;   // [Flatten.v1]
  return all_types(version, 13);     // [Flatten.v9] every type; [Flatten.v13] bfloat16
}
std::vector<DType> squeeze_types(int version) { return all_types(version, 13); }  // [Squeeze.v1] [Squeeze.v13] [Unsqueeze.v1] [Unsqueeze.v13]
std::vector<DType> identity_types(int version) { return all_types(version, 13); }  // [Identity.v1] [Identity.v13]
std::vector<DType> dropout_types(int version) {
  std::vector<DType> t = kFloats;    // [Dropout.v1] ... [Dropout.v12]
  if (version >= 13) t.push_back(DType::BFloat16);  // [Dropout.v13]
  return t;
}

std::vector<std::int64_t> reshape_shape_input(const Tensor& shape) {
  return int64_vector("Reshape.err.shape-input", shape, "shape");  // [Reshape.err.shape-input]
}
std::vector<std::int64_t> squeeze_axes_input(const Tensor& axes) {
  return int64_vector("Squeeze.err.axes-input", axes, "axes");  // [Squeeze.err.axes-input]
}
std::vector<std::int64_t> unsqueeze_axes_input(const Tensor& axes) {
  return int64_vector("Unsqueeze.err.axes-input", axes, "axes");  // [Unsqueeze.err.axes-input]
}

// ---- Reshape --------------------------------------------------------------------------------------

Shape reshape_output_shape(const Shape& in, const std::vector<std::int64_t>& shape, bool allowzero) {
  Shape out(shape.size());
  std::optional<std::size_t> inferred;
  bool zero = false;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    const std::int64_t s = shape[k];
    if (s == -1) {
      if (inferred)  // [Reshape.err.two-inferred]
        refuse("Reshape.err.two-inferred", "shape {} has -1 at positions {} and {}: one dimension only may be inferred",
               to_string(shape), *inferred, k);
      inferred = k;
      out[k] = 1;  // a placeholder, replaced below
    } else if (s < -1) {
      refuse("Reshape.err.negative", "shape {} has {} at position {} (a dimension is -1, 0 or positive)",
             to_string(shape), s, k);  // [Reshape.err.negative]
    } else if (s == 0 && !allowzero) {
      // [Reshape.zero-copies] 0 copies the input's dimension at the same position
      if (k >= in.size())  // [Reshape.err.zero-copy]
        refuse("Reshape.err.zero-copy", "shape {} has 0 at position {}, which copies a dimension the data (shape {}) "
               "does not have (allowzero = 0)", to_string(shape), k, to_string(in));
      out[k] = in[k];
    } else {
      zero = zero || s == 0;
      out[k] = s;  // [Reshape.zero-allowed] with allowzero = 1, 0 is a dimension of size 0
    }
  }
  if (zero && inferred)  // [Reshape.err.zero-and-inferred]
    refuse("Reshape.err.zero-and-inferred", "shape {} has both 0 and -1 with allowzero = 1", to_string(shape));
  const std::int64_t count = checked_product(in, "the data of shape " + to_string(in));
  if (inferred) {
    // [Reshape.inferred] the -1 dimension is |data| divided by the product of the others
    const std::int64_t others = checked_product(out, "shape " + to_string(shape));
    if (others == 0 || count % others != 0)  // [Reshape.err.infer]
      refuse("Reshape.err.infer", "shape {}: -1 cannot be inferred for data of shape {} ({} elements; the other "
             "dimensions give {})", to_string(shape), to_string(in), count, others);
    out[*inferred] = count / others;
  }
  const std::int64_t total = checked_product(out, "shape " + to_string(shape));
  if (total != count)  // [Reshape.err.count]
    refuse("Reshape.err.count", "shape {} gives {} ({} elements), the data has shape {} ({} elements)",
           to_string(shape), to_string(out), total, to_string(in), count);
  return out;
}

Tensor reshape(int version, const Tensor& data, const std::vector<std::int64_t>& shape, bool allowzero) {
  check_type("Reshape.err.dtype", "Reshape", version, reshape_types(version), data, "data");  // [Reshape.err.dtype]
  // [Reshape.formula] Y[i] = data[j] with off(i) = off(j): a view of data's storage
  return data.reshaped(reshape_output_shape(data.shape(), shape, allowzero));
}

// ---- Flatten --------------------------------------------------------------------------------------

Shape flatten_output_shape(int version, const Shape& in, std::int64_t axis) {
  const auto r = static_cast<std::int64_t>(in.size());
  const std::int64_t low = version >= 11 ? -r : 0;  // [Flatten.v11] negative axes
  if (axis < low || axis > r)  // [Flatten.err.axis]
    refuse("Flatten.err.axis", "Flatten-{}: axis {} is out of range [{}, {}] for rank {}", version, axis, low, r, r);
  const std::int64_t a = axis < 0 ? axis + r : axis;
  const Shape outer(in.begin(), in.begin() + a), inner(in.begin() + a, in.end());
  // [Flatten.shape] (d0 × ... × d(a-1), da × ... × d(r-1)); an empty product is 1
  return {checked_product(outer, "the outer dimensions"), checked_product(inner, "the inner dimensions")};
}

Tensor flatten(int version, const Tensor& input, std::int64_t axis) {
  check_type("Flatten.err.dtype", "Flatten", version, flatten_types(version), input, "input");  // [Flatten.err.dtype]
  return input.reshaped(flatten_output_shape(version, input.shape(), axis));  // [Flatten.formula]
}

// ---- Squeeze, Unsqueeze ---------------------------------------------------------------------------

Shape squeeze_output_shape(int version, const Shape& in, const std::optional<std::vector<std::int64_t>>& axes) {
  const auto r = static_cast<std::int64_t>(in.size());
  std::vector<bool> removed(in.size(), false);
  if (!axes) {
    for (std::size_t k = 0; k < in.size(); ++k) removed[k] = in[k] == 1;  // [Squeeze.all] every axis of size 1
  } else {
    for (std::int64_t a : normalise_axes("Squeeze.err.axis", "Squeeze.err.repeated", "Squeeze", version, *axes, r)) {
      if (in[static_cast<std::size_t>(a)] != 1)  // [Squeeze.err.not-one]
        refuse("Squeeze.err.not-one", "Squeeze-{}: axis {} of the data (shape {}) has size {}, not 1", version, a,
               to_string(in), in[static_cast<std::size_t>(a)]);
      removed[static_cast<std::size_t>(a)] = true;
    }
  }
  Shape out;  // [Squeeze.shape] the dimensions kept, in order
  for (std::size_t k = 0; k < in.size(); ++k)
    if (!removed[k]) out.push_back(in[k]);
  return out;
}

Tensor squeeze(int version, const Tensor& data, const std::optional<std::vector<std::int64_t>>& axes) {
  check_type("Squeeze.err.dtype", "Squeeze", version, squeeze_types(version), data, "data");  // [Squeeze.err.dtype]
  return data.reshaped(squeeze_output_shape(version, data.shape(), axes));  // [Squeeze.formula]
}

Shape unsqueeze_output_shape(int version, const Shape& in, const std::vector<std::int64_t>& axes) {
  // [Unsqueeze.shape] rank r + |axes|; the axes, normalised against that rank, hold 1; the data's
  // dimensions fill the other positions in order
  const auto r = static_cast<std::int64_t>(in.size() + axes.size());
  const auto at = normalise_axes("Unsqueeze.err.axis", "Unsqueeze.err.repeated", "Unsqueeze", version, axes, r);
  Shape out(static_cast<std::size_t>(r), 1);
  std::vector<bool> inserted(out.size(), false);
  for (std::int64_t a : at) inserted[static_cast<std::size_t>(a)] = true;
  std::size_t next = 0;
  for (std::size_t k = 0; k < out.size(); ++k)
    if (!inserted[k]) out[k] = in[next++];
  return out;
}

Tensor unsqueeze(int version, const Tensor& data, const std::vector<std::int64_t>& axes) {
  check_type("Unsqueeze.err.dtype", "Unsqueeze", version, squeeze_types(version), data, "data");  // [Unsqueeze.err.dtype]
  return data.reshaped(unsqueeze_output_shape(version, data.shape(), axes));  // [Unsqueeze.formula]
}

// ---- Identity, Dropout ----------------------------------------------------------------------------

Tensor identity(int version, const Tensor& input) {
  check_type("Identity.err.dtype", "Identity", version, identity_types(version), input, "input");  // [Identity.err.dtype]
  return input;  // [Identity.formula] Y = X: a copy shares X's storage ([Common.tensor.storage])
}

std::vector<Tensor> dropout(int version, const Tensor& data, const DropoutParams& p, bool mask_wanted) {
  check_type("Dropout.err.dtype", "Dropout", version, dropout_types(version), data, "data");  // [Dropout.err.dtype]
  // [Dropout.err.training] [Dropout.v7] versions 7 and 10 have no way to ask for training
  if (version < 7 && p.is_test == 0)  // [Dropout.mode] versions 1 and 6: is_test = 0 (the default) is training
    refuse("Dropout.err.training", "Dropout-{} with is_test = 0 runs in training mode (a random dropout), which "
           "sonnx-ref does not define; set is_test = 1", version);
  if (version >= 12) {
    if (p.ratio != nullptr) {  // [Dropout.ratio] its type is checked; in inference its value has no effect
      check_type("Dropout.err.dtype", "Dropout", version, kFloats, *p.ratio, "ratio");
      if (p.ratio->size() != 1)
        refuse("Dropout.err.scalar", "Dropout-{}: ratio must be a scalar, got shape {}", version, to_string(p.ratio->shape()));
    }
    if (p.training_mode != nullptr) {  // [Dropout.err.scalar]
      if (p.training_mode->dtype() != DType::Bool || p.training_mode->size() != 1)
        refuse("Dropout.err.scalar", "Dropout-{}: training_mode must be a bool scalar, got {} of shape {}", version,
               name(p.training_mode->dtype()), to_string(p.training_mode->shape()));
      if (p.training_mode->values<bool>()[0])  // [Dropout.mode] training_mode = true
        refuse("Dropout.err.training", "Dropout-{}: training_mode is true (a random dropout), which sonnx-ref does "
               "not define", version);
    }
  }
  std::vector<Tensor> out;
  out.push_back(data);  // [Dropout.formula] Y = X: a copy shares X's storage ([Common.tensor.storage])
  if (mask_wanted) {
    if (version < 10) {  // [Dropout.mask.legacy] versions 1 to 7: a tensor of X's type, every element 1 (kept)
      Tensor mask(data.dtype(), data.shape(), "Dropout output mask", Fill::Unspecified);
      dispatch(mask.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (is_float_v<T>) {
          auto m = mask.values<T>();
          T one{};
          if constexpr (std::is_same_v<T, float16>) one = *exact_float16(1.0);
          else if constexpr (std::is_same_v<T, bfloat16>) one = *exact_bfloat16(1.0);
          else one = static_cast<T>(1);
          std::fill(m.begin(), m.end(), one);
        }
      });
      out.push_back(std::move(mask));
      return out;
    }
    // [Dropout.mask] a bool tensor of X's shape, every element true
    Tensor mask(DType::Bool, data.shape(), "Dropout output mask", Fill::Unspecified);
    auto m = mask.values<bool>();
    std::fill(m.begin(), m.end(), true);
    out.push_back(std::move(mask));
  }
  return out;
}

// ---- one element ----------------------------------------------------------------------------------

Decision decide_view(const char* formula, const NodeValues& v, const std::vector<std::int64_t>& i) {
  const Tensor& X = *v.inputs[0];
  const Tensor& Y = *v.output;
  const std::int64_t offset = offset_of(i, row_major_strides(Y.shape()));
  Decision d;
  const std::string y = output_name(v, i);
  if (v.output_index == 1) {  // [Dropout.mask] the constant true; [Dropout.mask.legacy] the constant 1 of T
    const bool legacy = Y.dtype() != DType::Bool;
    d.set.name = legacy ? "no element: the mask is the constant 1" : "no element: the mask is the constant true";
    d.set.size = 0;
    d.set.member = [](std::int64_t) { return Member{}; };
    d.clauses = {legacy ? "Dropout.mask.legacy" : "Dropout.mask"};
    d.reason = fmt::format("{} = {}: in inference no element is dropped", y, legacy ? "1" : "True");
    d.situations = {{d.clauses[0], ""}};
    const auto at = static_cast<std::size_t>(offset);
    const bool one = !legacy ? Y.values<bool>()[at] : dispatch(Y.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (is_float_v<T>) return real_value(Y.values<T>()[at]) == 1.0;
      else return false;
    });
    if (!one) disagree(v, i);
    return d;
  }
  d.set.name = "the data's element at the same row-major offset";
  d.set.size = 1;
  d.set.member = [offset](std::int64_t) { return Member{0, offset}; };
  d.chosen = 0;
  d.copies_chosen = true;
  d.selection = true;
  const std::string x = element_name(v.input_names[0], index_of(X.shape(), offset));
  d.clauses = {formula, "Common.tensor.index"};
  d.reason = fmt::format("{} = {} because {} = {} has the same row-major offset {}: the bits are copied", y,
                         element_text(Y, offset), x, element_text(X, offset), offset);
  d.situations = {{formula, ""}};
  if (!same_bits(Y, offset, X, offset)) disagree(v, i);
  return d;
}

std::vector<Reach> reach_view(const char* formula, const NodeValues& v, const std::vector<Source>& sources) {
  std::vector<Reach> out;
  out.push_back(reach_by_pattern({formula, ""}, Pattern::Plain, 1, v.inputs[0]->dtype(), {sources[0]},
                                 {v.input_names[0]}));
  if (std::string(formula) == "Dropout.formula")
    out.push_back(reach_by_shape({"Dropout.mask", ""}, v.outputs > 1, "the node does not name the mask output"));
  return out;
}

}  // namespace sonnx::ops
