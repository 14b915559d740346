// Helpers shared by every test folder: reference data, synthetic images, map comparison and
// the GPU skip rule.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>

#include "common/image.h"

namespace mad::test {

// Absolute path of a file under tests/data.
std::string data_path(const std::string& relative);
// Reference map of the original (tests/data/reference/maps/<name>.f64, MADMAPv1 format).
Image<double> load_reference_map(const std::string& name);

// One row of tests/data/reference/scores.csv.
struct ReferenceScore {
  std::string ref, dist, distortion;
  int width = 0, height = 0;
  double mad = 0, hi = 0, lo = 0, sig = 0;              // uint8 input, April-2010 scaling
  double mad_double = 0, hi_double = 0, lo_double = 0;  // double input
};
std::vector<ReferenceScore> load_reference_scores();

// The spec §9 deterministic synthetic pairs T1..T4 (variant 1, 2 or 3), as raw values 0..255.
struct SyntheticPair {
  Image<double> ref, dst;
};
SyntheticPair make_synthetic_pair(int rows, int cols, int variant);

// Seeded uniform random image with integer values in [lo, hi]; the seed is printed by callers.
Image<double> random_image(int width, int height, std::uint32_t seed, int lo = 0, int hi = 255);

// An empty folder under the temporary directory, named after `name` and the process id.
std::filesystem::path fresh_scratch_dir(const std::string& name);

// Writes a seeded random 8-bit PNG of `channels` channels (1 gray, 3 RGB) to `path`.
void write_random_png(const std::string& path, int width, int height, std::uint32_t seed,
                      int channels = 1);

// True when a and b have the same bit pattern (a claim of bit-identity, stricter than ==:
// -0.0 differs from 0.0 and a NaN equals only itself).
bool same_bits(double a, double b);
// The same for two images: equal sizes and every pixel's bit pattern.
bool same_bits(const Image<double>& a, const Image<double>& b);

// One row of a table of refusals: an input (a file's text, a command line) and a part of the
// message it must draw.
struct TextCase {
  const char* text;
  const char* needle;
};

// Largest |a-b| over two equally sized views (ignores NaN/Inf mismatches: they count as +inf).
double max_abs_diff(ImageView<const double> a, ImageView<const double> b);
// max |a-b| / max(|b|, floor) — relative error with a floor for near-zero reference values.
double max_rel_diff(ImageView<const double> a, ImageView<const double> b, double floor);
// |got-want| / |want|, or |got| when want is 0 (a score that must stay 0).
double rel_err(double got, double want);
// Σ of every pixel of a map (the original's golden map sums).
double map_sum(ImageView<const double> map);
// ||got-want||_2 / ||want||_2 over a map, or ||got||_2 when want is all 0.
double rel_l2(ImageView<const double> got, ImageView<const double> want);

// The message of the exception E that `action` must throw. When it throws none, a test
// failure saying `accepted` and an empty message; any other exception escapes and fails the test.
template <class E, class Action>
std::string thrown_message(Action&& action, const std::string& accepted = "no exception") {
  try {
    action();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << accepted;
  return "";
}

// One tolerance of a GPU test in the CUDA backend's two precisions: the faithful double mode
// and the fast float mode. A templated check takes its bound with `of<Real>()`.
struct PrecisionTolerance {
  double f64;
  double f32;

  template <class Real>
  constexpr double of() const {
    return std::is_same_v<Real, double> ? f64 : f32;
  }
};

// Runs `command` through the shell and captures its standard output (redirect stderr in the
// command to capture it too). exit_code is -1 when the command died from a signal.
struct CommandResult {
  int exit_code = -1;
  std::string out;
};
CommandResult run_command(const std::string& command);

// True when a CUDA device is present and the CUDA backend was compiled.
bool gpu_available();

// True in an AddressSanitizer build (tools/sanitize-check.sh). Resident-memory tests skip there:
// ASan keeps up to 256 MiB of freed blocks in quarantine and adds shadow memory, so the peak
// measures the sanitizer rather than our allocations. The plain build (CI stage 1) runs them.
// GCC says ASan with __SANITIZE_ADDRESS__, clang 14 (CI's sanitizer build) only through
// __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define MAD_TEST_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAD_TEST_ADDRESS_SANITIZER 1
#endif
#endif
#ifdef MAD_TEST_ADDRESS_SANITIZER
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace mad::test

// Skips the current test (never fails) when no GPU is present.
#define MAD_REQUIRE_GPU()                                                \
  do {                                                                   \
    if (!::mad::test::gpu_available()) GTEST_SKIP() << "no CUDA device"; \
  } while (0)
