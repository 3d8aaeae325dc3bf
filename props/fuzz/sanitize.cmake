# Included by the top-level CMakeLists.txt before any target is defined, so that the flags reach the
# library, the CLI and every test executable alike.
#
#   -DSONNX_SANITIZE=ON   ASan + UBSan on everything, no recovery: the first report aborts the process,
#                         so any report fails its ctest entry. Every test of the tree also gets the
#                         label `sanitize` (tools/sanitize builds such a tree with clang-19: build-sanitize).
#   -DSONNX_FUZZ=ON       (clang only) coverage instrumentation for libFuzzer on everything, and the
#                         fuzz targets of props/fuzz/ (label `fuzz`).
#
# Debian's protobuf, onnx, fmt and libzip are gcc-built and uninstrumented; linking them with clang is
# fine (same libstdc++).

if(SONNX_SANITIZE)
  set(SONNX_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${SONNX_SANITIZE_FLAGS})
  add_link_options(${SONNX_SANITIZE_FLAGS})
  # One copy of each kernel (core/isa.hpp, SONNX_ONE_ISA): the sanitizers check the source, which is
  # one for every level; three instrumented copies tripled this tree's compile time (CI budget).
  # That the levels give identical results is the determinism label's test, in the main tree.
  add_compile_definitions(SONNX_ONE_ISA)
  set_property(DIRECTORY APPEND PROPERTY LABELS sanitize)
endif()

if(SONNX_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "SONNX_FUZZ=ON needs clang (libFuzzer): configure with CXX=clang++-19")
  endif()
  # Coverage instrumentation goes to the library and the fuzz targets only (props/fuzz/CMakeLists.txt):
  # the test executables of the same tree need none.
endif()
