# Included by the top-level CMakeLists.txt before any target is defined, so that the flags reach the
# library, the CLI and every test executable alike (tools/coverage builds such trees; issue #12).
#
#   -DSONNX_COVERAGE=ON with g++        gcov instrumentation (--coverage, atomic counters: conformance -j
#                                       runs cases on threads): line and branch coverage, read by gcovr
#   -DSONNX_COVERAGE=ON with clang++-19 source-based coverage with MC/DC (-fprofile-instr-generate
#                                       -fcoverage-mapping -fcoverage-mcdc), read by llvm-cov-19
#
# Build such a tree at -O0 (CMAKE_BUILD_TYPE=Debug, CMAKE_CXX_FLAGS_DEBUG=-O0), never the main one:
# the figures are about the source, and the instrumented programs are slower.

option(SONNX_COVERAGE "coverage instrumentation: gcov with g++, MC/DC with clang (tools/coverage)" OFF)
if(SONNX_COVERAGE)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(SONNX_COVERAGE_FLAGS --coverage -fprofile-update=atomic)
  elseif(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(SONNX_COVERAGE_FLAGS -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc)
  else()
    message(FATAL_ERROR "SONNX_COVERAGE=ON needs g++ or clang++-19, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(${SONNX_COVERAGE_FLAGS})
  add_link_options(${SONNX_COVERAGE_FLAGS})
  set_property(DIRECTORY APPEND PROPERTY LABELS coverage)
endif()
