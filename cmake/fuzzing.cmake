# libFuzzer targets (tests/fuzz): coverage-guided fuzzing of the input parsers under ASan and
# UBSan. Off by default; it needs clang (libFuzzer ships with clang's compiler-rt):
#
#   CC=clang CXX=clang++ cmake -S . -B build-fuzz -DMAD_ENABLE_CUDA=OFF -DMAD_BUILD_FUZZERS=ON \
#       -DMAD_BUILD_TESTS=OFF -DMAD_BUILD_BENCHMARKS=OFF
#   cmake --build build-fuzz --target mad_fuzzers
#
# Include it from the top-level CMakeLists.txt after cmake/mad_library.cmake and BEFORE the
# add_subdirectory() calls, so every library the fuzzers link is compiled with coverage
# instrumentation (libFuzzer can only steer through code it sees; the scoring stages, which no
# harness reaches, opt out in tests/fuzz/fuzz_targets.cmake). It adds the targets of
# tests/fuzz/fuzz_targets.cmake itself, deferred to the end of the top-level file, once all
# library targets exist (so the one include line is the whole hook).
include_guard(GLOBAL)

option(MAD_BUILD_FUZZERS "Build the libFuzzer targets of tests/fuzz (clang only)" OFF)
if(NOT MAD_BUILD_FUZZERS)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "MAD_BUILD_FUZZERS needs clang (libFuzzer); configure with "
                      "CC=clang CXX=clang++ (got ${CMAKE_CXX_COMPILER_ID})")
endif()

# fuzzer-no-link: coverage counters for libFuzzer in every C++ object; the fuzz executables add
# the libFuzzer runtime (and its main) at link time. UBSan findings abort instead of printing
# and going on, so that libFuzzer records them as crashes with a reproducer. Line tables are
# all a report needs for file:line, inlined frames included; coming after the build type's
# flags this option wins, and a full -g made every object of the build (the CI sanitizer
# suite's too, tools/sanitize-check.sh WITH_FUZZERS=1) slower to compile and link.
add_compile_options(
  $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link,address,undefined>
  $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=undefined>
  $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>
  $<$<COMPILE_LANGUAGE:CXX>:-gline-tables-only>)
add_link_options(-fsanitize=address,undefined)

cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR}
               CALL include ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_targets.cmake)
message(STATUS "mad: libFuzzer targets ... ON (tests/fuzz)")
