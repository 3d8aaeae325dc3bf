// The instruction-set level the operators' hot loops run at ([Common.order.isa-independent]): every
// kernel is compiled from one source for baseline x86-64, AVX2 and AVX-512 (at_active_level
// below), and one level is chosen once, at the first kernel call: the highest the CPU has, or the one
// SONNX_ISA names (baseline, avx2, avx512). These operators compare and select, they round nothing, so
// the level changes the time a kernel takes, never a bit of its result; the determinism tests run every
// level the CPU has and compare the outputs byte for byte.
#pragma once
#include <string>
#include <type_traits>
#include <vector>

namespace sonnx {

enum class Isa { Baseline, Avx2, Avx512 };

std::string isa_name(Isa level);  // "baseline", "avx2", "avx512"
// The levels this build has kernels for, lowest first: baseline, avx2, avx512 on x86-64 with GCC or
// clang; baseline alone elsewhere and in SONNX_ONE_ISA builds (the sanitizer tree: the same source,
// compiled once, checked for memory and undefined behaviour; the levels' equality is the
// determinism tests' business, run on the main tree).
std::vector<Isa> compiled_isas();
// The levels this build can run on this CPU, lowest first (baseline always).
std::vector<Isa> supported_isas();
// The level in use: SONNX_ISA when set (a usage error, exit 2, when it names no level or one this
// CPU lacks), else the highest supported. Chosen once per process.
Isa active_isa();

}  // namespace sonnx

namespace sonnx {

// Runs `kernel` (a lambda that calls one instantiation of an operator's evaluation, e.g.
// `[&] { evaluate<float, Extreme::Max>(X, Y); }`) in the copy compiled for the active level. Each
// instantiation is compiled three times — for baseline x86-64, for AVX2 and for AVX-512 (F, BW, DQ,
// VL) — and `flatten` inlines its whole call tree into each copy, so the loops of core/order.hpp,
// core/runs.hpp and the operator's own templates are compiled, and vectorised, for that level; nothing
// else changes (same source, same -ffp-contract=off, no -ffast-math). One copy per instantiation, not
// one per operator around its whole type dispatch: a flattened function holding every type's loops is
// what made one object take minutes to compile.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SONNX_ONE_ISA)
template <class Kernel> __attribute__((flatten)) void at_baseline(const Kernel& kernel) { kernel(); }
template <class Kernel> __attribute__((target("avx2,fma"), flatten)) void at_avx2(const Kernel& kernel) { kernel(); }
template <class Kernel>
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"), flatten)) void at_avx512(const Kernel& kernel) {
  kernel();
}
template <class Kernel> inline void at_active_level(const Kernel& kernel) {
  switch (active_isa()) {
    case Isa::Avx512: at_avx512(kernel); break;
    case Isa::Avx2: at_avx2(kernel); break;
    default: at_baseline(kernel); break;
  }
}
// The same, telling the kernel whether its level has fused multiply-add instructions:
// `kernel(std::true_type{})` at AVX2 and AVX-512, `kernel(std::false_type{})` at baseline. A kernel
// that fuses only exact products (a fused a·b + c is then the same rounding as a·b followed by + c)
// gives the same bits either way; without the instructions, std::fma would be a library call.
template <class Kernel> inline void at_active_level_fma(const Kernel& kernel) {
  switch (active_isa()) {
    case Isa::Avx512: at_avx512([&] { kernel(std::true_type{}); }); break;
    case Isa::Avx2: at_avx2([&] { kernel(std::true_type{}); }); break;
    default: at_baseline([&] { kernel(std::false_type{}); }); break;
  }
}
#else
template <class Kernel> inline void at_active_level(const Kernel& kernel) { kernel(); }
template <class Kernel> inline void at_active_level_fma(const Kernel& kernel) { kernel(std::false_type{}); }
#endif

}  // namespace sonnx
