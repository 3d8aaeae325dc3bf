// What every operator file of src/ops/ states about its formula, in one vocabulary: for one output
// element, the index set the formula ranges over (in the order its clause states), the member the
// selection rule kept, and the clauses that decided the value. Evaluation runs the same formula
// over the whole output (run by run); `explain`, `check` and `golden` ask the operator about one
// element through `decide` and never restate a clause themselves.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/accuracy.hpp"
#include "core/order.hpp"
#include "core/tensor.hpp"

namespace sonnx::ops {

// One element of a node's inputs: the input's position in the node and the element's row-major offset.
struct Member {
  std::size_t input = 0;
  std::int64_t offset = 0;
};

// The index set a formula ranges over for one output element, in the order its clause states.
struct IndexSet {
  std::string name;                              // what the set is, in the clause's words
  std::int64_t size = 0;
  std::function<Member(std::int64_t)> member;    // the k-th member, 0 <= k < size
};

// [Check.coverage] A situation of a clause: the clause, and which of its cases an implementation
// could get wrong on its own ("-0 before +0"); an empty detail stands for the clause as a whole.
struct Situation {
  std::string clause;
  std::string detail;
  auto operator<=>(const Situation&) const = default;
  std::string text() const { return detail.empty() ? clause : clause + " (" + detail + ")"; }
};

// [Acc.terms] One term of a computed element: the product of its factors — members of the node's
// inputs, in the order the operator's clause states, and scalars from its attributes (Gemm's alpha
// and beta), named.
struct Term {
  std::vector<Member> factors;
  std::vector<std::pair<std::string, double>> scalars;  // {"alpha", 0.5}
};

// [Acc.verdict] What an operator that computes says of one output element: the formula at that
// element, its terms in the order of the operator's clause (the oracle's order, [Acc.oracle]), the
// oracle's accumulation of them and the resulting enclosure of the ideal.
struct Computation {
  std::string formula;                          // the quantified formula at this element
  std::int64_t terms = 0;
  std::function<Term(std::int64_t)> term;       // the k-th term, 0 <= k < terms
  accuracy::Sums sums;
  accuracy::Element element;
  // [Elem.verdict] an element computed through exp, log, tanh or pow (spec/common/elementary.md): the
  // hypothesis' numbers its bound takes (K, κ, α); empty for a sum of products, whose bound is
  // [Acc.bound]'s θ(D)·S + U
  std::string function;
};

// Why one output element has its value, as the operator's definition states it.
struct Decision {
  std::string parameters;               // the attributes as the definition read them ("axis = -1 -> 1")
  IndexSet set;
  std::optional<std::int64_t> chosen;   // the member the selection rule kept (none: an empty set)
  std::vector<std::string> clauses;     // spec IDs, the one that decided the value first
  std::string reason;                   // one sentence: why the element has its value
  bool copies_chosen = false;           // the value is the chosen member, bit for bit (Max, ReduceMax)
  // [Check.golden-coverage] the value is selected from the set: when every member holds one value v,
  // the element is v (a fold of max_of or min_of; Relu and Clip where v is within their bounds), so
  // golden writes a value through this node by writing it into every member. Not for a value
  // computed from the set as a whole (Hardmax's 1 and +0, ArgMax's position).
  bool selection = false;
  std::string stop;                     // non-empty: provenance stops at this element, and why
  std::vector<Situation> situations;    // [Check.coverage] what decided the element, case by case
  // [Acc.verdict] an element the formula computes (Conv, Gemm, MatMul): its terms and enclosure; `set`
  // then lists every factor that is a member of an input, term by term, for golden's witnesses
  std::optional<Computation> computed;
};

// ---- witnesses ([Check.golden-coverage]) ---------------------------------------------------------

// The values a witness of a situation writes into a set, position by position, generic to the
// selection rule of [Common.order.max] (every operator selects from a set). The values below are the
// max order's; the min order's ([Common.order.min]) are their duals δ (sign flipped, integers
// complemented, bool negated), which the min order ranks as the max order ranks the originals:
//   NanAfterNumber     1, NaN, 1, 1, ...           the first NaN comes after a number
//   TwoNans            NaN b, NaN a, 1, ...        two NaNs of different sign, payload and quiet bit
//   NegativeZeroFirst  -0, +0, -1, -1, ...         a signed-zero tie, -0 first
//   PositiveZeroFirst  +0, -0, -1, -1, ...         a signed-zero tie, +0 first
//   EqualMaxima        1, 5, 5, 1, ... ([5, 5] for two)   two equal maxima, the first one kept
//                      (integers and bool: 0, 1, 1, 0, ...)
//   Subnormal          +0, min subnormal, -1, ...  a subnormal above a zero
//   SubnormalFirst     min subnormal, +0, -1, ...  the same, the subnormal first (a tie rule that keeps
//                      the last element tells it from a flushed subnormal only this way round)
//   Infinity           max finite, +Inf, -Inf, ... the infinities in their place
//   Extremes           min, max, 0, 0, ...         the integer type's extremes
//   Plain              5, 1, 1, ... (integers 1, 0, 0, ...; bool True, False, ...)   one maximum, first
//   NanFirst           NaN, 1, 1, ...              a NaN (the set may have one element)
//   Given              the values an operator's clause names, position by position (Reach::given),
//                      for sets of exactly that size (Relu's -0, Clip's X below its lower bound)
// None: shapes and attributes decide the situation (an empty set, Y = X, broadcasting, ...).
// Every pattern but Plain, NanFirst and Given needs a set of two elements or more.
enum class Pattern { None, Plain, NanFirst, NanAfterNumber, TwoNans, NegativeZeroFirst, PositiveZeroFirst, EqualMaxima, Subnormal,
                     SubnormalFirst, Infinity, Extremes, Given };
// What the witness writes, in words, for the order E.
std::string pattern_name(Pattern p, Extreme e = Extreme::Max);

// The bit patterns (low bytes of each integer) of a pattern's values for a set of n elements of
// `dtype`, position by position, for the order E; nullopt when the set is too small or the type has
// no such values.
std::optional<std::vector<std::uint64_t>> pattern_bits(Pattern p, std::int64_t n, DType dtype, Extreme e = Extreme::Max);

// What can reach an input of a node: any value of its type (a drawn graph input, or a selection
// of such values), only +0 and 1 (the output of a Hardmax), only some values of its type (an
// operator's output that cannot take every value: a position, a rectified or clipped value), or
// values fixed by the model (an initializer, a Constant, an input given to golden, or a selection
// involving one), or values a computing operator produced (Conv, Gemm, MatMul: golden writes no
// witness through a sum of products).
enum class Source { Free, OneHot, Limited, Fixed, Computed };

// [Check.golden-coverage] A situation a node can, or cannot, reach, and how a witness is built.
struct Reach {
  Situation situation;
  Pattern pattern = Pattern::None;
  bool reachable = true;
  std::string why;  // why not, when not reachable
  Extreme order = Extreme::Max;  // the order whose values the pattern writes (pattern_bits)
  std::vector<std::uint64_t> given = {};  // Pattern::Given: the bits written, position by position
  std::vector<bool> write = {};  // Pattern::Given: the positions written (empty: every one); the others keep their values
};

// The bits a witness of `r` writes into a set of n elements of `dtype`: the pattern's (pattern_bits),
// or the given ones when the set has their number; nullopt when there are none.
std::optional<std::vector<std::uint64_t>> witness_bits(const Reach& r, std::int64_t n, DType dtype);

// The reach of a situation whose witness writes `pattern` (for the order e) into sets of n elements
// whose position p holds a value from sources[p] (one entry: every position from that source).
Reach reach_by_pattern(Situation s, Pattern pattern, std::int64_t n, DType dtype, const std::vector<Source>& sources,
                       const std::vector<std::string>& names, Extreme e = Extreme::Max);
// The reach of a situation whose witness writes the values `bits` into sets of n elements (n must be
// their number) whose position p holds a value from sources[p] (one entry: every position from it).
Reach reach_by_given(Situation s, std::vector<std::uint64_t> bits, std::int64_t n, const std::vector<Source>& sources,
                     const std::vector<std::string>& names, std::vector<bool> write = {});
// A situation decided by shapes or attributes alone: reachable when `holds`, else not, with why.
Reach reach_by_shape(Situation s, bool holds, const std::string& why_not);

// A situation and the pattern of its witness ([Check.golden-coverage]).
struct Witnessed {
  Situation situation;
  Pattern pattern;
};

// The clauses by which a left fold of max_of (min_of) over a set decides an element
// ([Common.order.max], [Common.order.min]): Max and Min fold over {Ẋ0[i], ..., ẊL[i]}, ReduceMax and
// ReduceMin over R(j), MaxPool over a window. Each operator names its own clauses; the situations
// within them, and their witnesses, are the same for every fold of one order.
struct FoldClauses {
  const char* formula;  // float: Max.float.formula, ReduceMax.float.formula; else the int clause
  const char* nan;      // float only: the clause keeping the first NaN
  const char* zero;     // float only: the clause putting +0 above -0
  Extreme order = Extreme::Max;
};
// Every situation of a fold's clauses, for a float or an integer element type.
std::vector<Witnessed> fold_situations(const FoldClauses& c, bool is_float);
// The situations that decided a fold, given what the fold met (core/order.hpp, fold_selection).
std::vector<Situation> fold_decided_by(const FoldClauses& c, bool is_float, const Selection& sel);

// A node's values as `decide` sees them: inputs by position (nullptr for an absent optional input)
// with their names, and the output the node produced.
struct NodeValues {
  std::vector<const Tensor*> inputs;
  std::vector<std::string> input_names;
  const Tensor* output = nullptr;
  std::string output_name;
  std::size_t output_index = 0;  // which output of the node `output` is (MaxPool's Indices is 1)
  std::size_t outputs = 1;       // how many outputs the node names
};

// ---- the wording shared by the operators' reasons ----------------------------------------------

// Sets of more than kListed members are listed in part: the first kListed - 1 and the chosen one.
inline constexpr std::size_t kListed = 16;
std::vector<std::int64_t> listed_positions(std::int64_t n, std::optional<std::int64_t> chosen);
// "X[1, 2]"
std::string element_name(const std::string& tensor, const std::vector<std::int64_t>& index);
// The name of member `m` of the node: "B[1]" (its input's own index).
std::string member_name(const NodeValues& v, const Member& m);
// The printed value of member `m` (core/format).
std::string member_value(const NodeValues& v, const Member& m);
// "{-0, +0, -7}" — the listed members' values, with ", ... (N in all)" when the set is listed in part.
std::string set_values(const NodeValues& v, const IndexSet& set, std::optional<std::int64_t> chosen);
// "Y[1, 2]" of the output element at `index`.
std::string output_name(const NodeValues& v, const std::vector<std::int64_t>& index);

// [internal] The value the definition derives for an element differs from the evaluated one.
[[noreturn]] void disagree(const NodeValues& v, const std::vector<std::int64_t>& index);
// The members' bits are equal (same dtype).
bool same_bits(const Tensor& a, std::int64_t offset_a, const Tensor& b, std::int64_t offset_b);

}  // namespace sonnx::ops
