#!/usr/bin/env bash
# The CPU test suite under AddressSanitizer + UndefinedBehaviorSanitizer (issue 7): a CPU-only
# build with MAD_SANITIZE=ON, then ctest. Any sanitizer report fails the test that triggered
# it: UBSan is made fatal (it only prints by default), LeakSanitizer is on.
#
#   tools/sanitize-check.sh [BUILD_DIR]     (default build-sanitize)
#   JOBS=2          build and test parallelism
#   CTEST_ARGS=...  extra ctest arguments (e.g. -R mad_ to run a subset)
#   WITH_FUZZERS=1  build with clang and add the libFuzzer targets of tests/fuzz to the same
#                   build (cmake/fuzzing.cmake), so tools/fuzz-smoke.sh BUILD_DIR reuses it
#                   instead of compiling every library a second time (CI does this)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-build-sanitize}"
[[ "$build" = /* ]] || build="$root/$build"
jobs="${JOBS:-2}"

# -O1 -g1: optimised enough that the suite finishes in minutes (ASan asks for -O1 or more), with
# file:line, inlined frames included, in every report: -g1's line tables carry them. Against
# RelWithDebInfo's -O2 -g it halves this build, the longest step of CI (GCC instrumenting the
# gtest-heavy files at -O2 and writing their full debug information): 1530 against 3100
# CPU-seconds on a shared 2-core machine, while the suite took about as long (+8% summed over
# its tests, within that machine's spread).
configure=(cmake -S "$root" -B "$build" -DMAD_ENABLE_CUDA=OFF -DMAD_SANITIZE=ON -DMAD_BUILD_BENCHMARKS=OFF
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
if [[ "${WITH_FUZZERS:-0}" = 1 ]]; then
  # One clang build for both: the tests link the libraries' coverage counters harmlessly (the
  # ASan runtime defines their callbacks), the fuzz targets add libFuzzer at link time. It
  # replaces a gcc build here plus a clang build of the same libraries in fuzz-smoke.sh, and
  # clang is the cheaper compiler of this build: 0.67x gcc's CPU time over 75 library files,
  # 0.40x and 0.42x on two test files (2026-11-29, file by file, same flags otherwise).
  command -v clang++ >/dev/null || { echo "sanitize-check: WITH_FUZZERS=1 needs clang++" >&2; exit 2; }
  CC=clang CXX=clang++ "${configure[@]}" -DMAD_BUILD_FUZZERS=ON >/dev/null
else
  "${configure[@]}" >/dev/null
fi
cmake --build "$build" -j "$jobs"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Nothing is excluded: every CPU test runs under the sanitizers. The timeout allows for the
# ~2-5x slowdown of instrumented code on the largest golden and determinism tests.
ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 1800 ${CTEST_ARGS:-}
echo "sanitize-check: all tests clean under ASan + UBSan"
