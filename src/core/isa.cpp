#include "core/isa.hpp"

#include <cstdlib>

#include "core/error.hpp"

namespace sonnx {

std::string isa_name(Isa level) {
  switch (level) {
    case Isa::Avx2: return "avx2";
    case Isa::Avx512: return "avx512";
    default: return "baseline";
  }
}

std::vector<Isa> compiled_isas() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SONNX_ONE_ISA)
  return {Isa::Baseline, Isa::Avx2, Isa::Avx512};
#else
  return {Isa::Baseline};
#endif
}

std::vector<Isa> supported_isas() {
  std::vector<Isa> out = {Isa::Baseline};
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SONNX_ONE_ISA)
  __builtin_cpu_init();
  // The AVX2 level also uses FMA3 (every CPU with AVX2 that sonnx-ref targets has it; the computing
  // operators' kernels fuse exact products: the same bits as without, [Acc.oracle]).
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) out.push_back(Isa::Avx2);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl"))
    out.push_back(Isa::Avx512);
#endif
  return out;
}

namespace {

Isa choose() {
  const auto levels = supported_isas();
  const char* env = std::getenv("SONNX_ISA");
  if (!env || !*env) return levels.back();
  std::string names;
  for (Isa l : levels) names += (names.empty() ? "" : ", ") + isa_name(l);
  for (Isa l : {Isa::Baseline, Isa::Avx2, Isa::Avx512}) {
    if (isa_name(l) != env) continue;
    for (Isa s : levels)
      if (s == l) return l;
    usage_error("SONNX_ISA={}: this CPU cannot run that level (levels it can run: {})", env, names);
  }
  usage_error("SONNX_ISA={} names no level (baseline, avx2 or avx512; this CPU runs: {})", env, names);
}

}  // namespace

Isa active_isa() {
  static const Isa level = choose();
  return level;
}

}  // namespace sonnx
