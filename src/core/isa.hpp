// The instruction-set level the operators' hot loops run at ([Common.order.isa-independent]): every
// kernel is compiled from one source for baseline x86-64, AVX2 and AVX-512 (SONNX_MULTIVERSION
// below), and one level is chosen once, at the first kernel call: the highest the CPU has, or the one
// SONNX_ISA names (baseline, avx2, avx512). These operators compare and select, they round nothing, so
// the level changes the time a kernel takes, never a bit of its result; the determinism tests run every
// level the CPU has and compare the outputs byte for byte.
#pragma once
#include <string>
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

// Defines `name` with parameters `params` (a parenthesised list) that calls `call args` compiled
// three times — for baseline x86-64, for AVX2 and for AVX-512 (F, BW, DQ, VL) — and runs the copy of
// the active level. `flatten` inlines the whole call tree of `call` into each copy, so the loops of
// core/order.hpp, core/runs.hpp and the operator's own templates are compiled, and vectorised, for
// that level; nothing else changes (same source, same -ffp-contract=off, no -ffast-math).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SONNX_ONE_ISA)
#define SONNX_MULTIVERSION(name, params, args, call)                                                        \
  __attribute__((flatten)) static void name##_baseline params { call args; }                              \
  __attribute__((target("avx2"), flatten)) static void name##_avx2 params { call args; }                  \
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"), flatten)) static void name##_avx512 params { \
    call args;                                                                                             \
  }                                                                                                        \
  static void name params {                                                                                \
    switch (::sonnx::active_isa()) {                                                                       \
      case ::sonnx::Isa::Avx512: name##_avx512 args; break;                                               \
      case ::sonnx::Isa::Avx2: name##_avx2 args; break;                                                   \
      default: name##_baseline args; break;                                                                \
    }                                                                                                      \
  }
#else
#define SONNX_MULTIVERSION(name, params, args, call) \
  static void name params { call args; }
#endif
