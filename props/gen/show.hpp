// How generated values are printed in a counterexample: dtype, shape, and every element as its
// hexadecimal bit pattern with its decoded value, e.g. `float16 [2] {0x8000 (-0), 0x7e01 (nan)}`.
//
// RapidCheck picks a printer per type when it first instantiates rc::show<T> in a translation
// unit; every gen/ header includes this one first, so that all translation units see these
// declarations before any Gen<T> of these types is used (else the printers could differ between
// translation units and print "<???>").
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include "core/tensor.hpp"

namespace sonnx {
// Found by RapidCheck's rc::show through argument-dependent lookup.
void showValue(DType t, std::ostream& os);
void showValue(const Tensor& t, std::ostream& os);
}  // namespace sonnx

namespace sonnx::props {
enum class Values;  // gen/cases.hpp
struct MaxCase;
struct ReduceMaxCase;
struct HardmaxCase;
struct ArgCase;
struct ClipCase;
struct PoolCase;
namespace gen {
struct BroadcastTuple;
void showValue(const BroadcastTuple& b, std::ostream& os);
}  // namespace gen

// "0x8000 (-0)", "0x7c01 (snan)", "0xff (255)" ...
std::string describe(DType t, std::uint64_t bits);
std::string describe(const Tensor& t);
void showValue(Values v, std::ostream& os);
void showValue(const MaxCase& c, std::ostream& os);
void showValue(const ReduceMaxCase& c, std::ostream& os);
void showValue(const HardmaxCase& c, std::ostream& os);
void showValue(const ArgCase& c, std::ostream& os);
void showValue(const ClipCase& c, std::ostream& os);
void showValue(const PoolCase& c, std::ostream& os);
}  // namespace sonnx::props
