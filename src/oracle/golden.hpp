// [Check.golden] Golden test cases: deterministic inputs for a model and the reference's outputs,
// written in the layout of ONNX's node tests (model.onnx, test_data_set_K/input_J.pb,
// output_J.pb) with .npz twins (test_data_set_K/inputs.npz, outputs.npz).
//
// The value generator (the same bytes on every machine, compiler and build type: only 64-bit
// integer arithmetic, no floating-point computation, no library random number generator):
//
//   mix(z)  = splitmix64's finaliser:  z ^= z >> 30; z *= 0xBF58476D1CE4E5B9;
//                                       z ^= z >> 27; z *= 0x94D049BB133111EB; z ^= z >> 31
//   stream(seed, case c, input j): state = mix(mix(mix(seed) + c) + j)       (wrapping uint64)
//   next():  state += 0x9E3779B97F4A7C15; return mix(state)                 (splitmix64)
//   below(n) = next() mod n
//
// Each input tensor of each case has its own stream, so case c does not depend on how many cases
// are written. The first draw of a tensor is its profile: NaNs are allowed when next() is even
// (otherwise the NaN categories below draw a grid value instead). Then, for each element in
// row-major order, b = below(32) picks a category:
//
//   float types (W bits, E exponent bits, M fraction bits; float16, bfloat16, float, double)
//     b  0-11  grid: k = below(17) - 8, the value k/2 (exact in every float type; k = 0 gives +0)
//     b 12-17  any finite pattern: u = next() mod 2^W; when the exponent field is all ones its top
//              bit is cleared
//     b 18     -0              b 19  +0            b 20  +Inf        b 21  -Inf
//     b 22     quiet NaN:  sign = below(2), payload = next() mod 2^(M-1); exponent all ones, the
//              quiet (top fraction) bit set
//     b 23     signalling NaN: sign = below(2), fraction = next() mod 2^(M-1), 1 if that is 0
//     b 24-25  subnormal: sign = below(2), fraction = next() mod 2^M, 1 if that is 0
//     b 26-27  extreme, below(6): +max finite, -max finite, +min normal, -min normal,
//              +min subnormal, -min subnormal
//     b 28-31  tie: the previous element's pattern again (the first element: a grid value)
//   integers (W bits)
//     b  0-13  small: below(9) - 4 (unsigned: below(9))
//     b 14-21  any value: next() mod 2^W
//     b 22-27  extreme, below(4): min, max, min + 1, max - 1
//     b 28-31  tie: the previous element again (the first element: a small value)
//   bool: below(2) for each element.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.hpp"
#include "graph/model.hpp"
#include "oracle/shard.hpp"

#include <nlohmann/json.hpp>

namespace sonnx::golden {

class Stream {
 public:
  Stream(std::uint64_t seed, std::uint64_t case_index, std::uint64_t input_index);
  std::uint64_t next();
  std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  std::uint64_t state_;
};

// A tensor of `dtype` and `shape` drawn from `stream` as described above.
Tensor draw(DType dtype, const Shape& shape, Stream& stream);

struct Options {
  std::uint64_t seed = 0;
  std::int64_t cases = 1;  // drawn cases; [Check.golden-coverage] constructed ones follow
  bool construct = true;   // build the cases that reach what the drawn ones did not (--no-construct: off)
  bool assume_opset_reviewed = false;  // recorded in the manifest ([Graph.opset.reviewed])
  std::map<std::string, std::int64_t> dims;  // --dim NAME=SIZE: sizes of symbolic dimensions
  std::string inputs;  // --inputs: a .npz or test_data_set folder giving some or all inputs (the rest are drawn)
  // [Check.shard] --shard K/N: every case is computed (the constructed ones depend on what all the drawn
  // ones exercise), only the test_data_set_K folders of this piece are written; the manifest lists
  // its cases and carries "shard" ([Check.shard.report])
  std::optional<shard::Shard> shard;
  // called as the work goes: (phase: "cases drawn", "cases constructed", "cases written"; done; total,
  // 0 when not known in advance)
  std::function<void(const std::string&, std::size_t, std::size_t)> progress;
};

// [Check.golden] The shape of each graph input to draw (Model::inputs() order): fixed dims as
// declared, symbolic dims from `dims` by their dim_param name. Refuses an input without a declared
// shape, a symbolic dim without a size, and a --dim that names no symbolic dim.
std::vector<Shape> input_shapes(const graph::Model& model, const std::map<std::string, std::int64_t>& dims,
                                const std::vector<std::string>& given);

// The feeds of case `case_index`: the given inputs, and the others drawn from their streams.
std::vector<io::NamedTensor> case_inputs(const graph::Model& model, const std::vector<Shape>& shapes,
                                         const std::vector<io::NamedTensor>& given, std::uint64_t seed,
                                         std::uint64_t case_index);

// What golden wrote: the folders, and the manifest ([Check.golden], [Check.golden-coverage]).
struct Written {
  std::vector<std::string> folders;  // the folders written (with --shard, those of the piece)
  std::int64_t total = 0;            // the cases of the whole set, drawn and constructed
  std::int64_t drawn = 0, constructed = 0;
  std::int64_t reachable = 0, exercised = 0, not_built = 0, unreachable = 0;  // situations
  nlohmann::ordered_json manifest;
};

// [Check.golden] Writes DIR/model.onnx, DIR/manifest.json and DIR/test_data_set_K: the options.cases
// drawn cases, then ([Check.golden-coverage]) constructed ones until every reachable situation of
// every node has a witness, or no further one can be built. The folder is written under a
// temporary name beside DIR and renamed at the end: a refusal leaves nothing behind.
Written write(const graph::Model& model, const std::string& dir, const Options& options);

}  // namespace sonnx::golden
