#include <gtest/gtest.h>

#include "common/error.h"
#include "mad/options.h"
#include "common/gpu_info.h"
#include "mad/score.h"

namespace mad {
namespace {

TEST(Options, ParseRoundTrips) {
  for (auto v : {MadVersion::V2010, MadVersion::V2011, MadVersion::Stmad2011})
    EXPECT_EQ(parse_mad_version(to_string(v)), v);
  for (auto c : {InputClass::Auto, InputClass::Uint8, InputClass::Double})
    EXPECT_EQ(parse_input_class(to_string(c)), c);
  for (auto b : {Backend::Auto, Backend::Cpu, Backend::Cuda})
    EXPECT_EQ(parse_backend(to_string(b)), b);
  for (auto p : {Precision::Double, Precision::Float}) EXPECT_EQ(parse_precision(to_string(p)), p);
}

TEST(Options, UnknownValuesAreRejectedWithTheAcceptedOnes) {
  try {
    parse_mad_version("2012");
    FAIL();
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("2011, 2010 or stmad"), std::string::npos);
  }
  EXPECT_THROW(parse_backend("gpu"), InvalidArgument);
  EXPECT_THROW(parse_input_class("int"), InvalidArgument);
  EXPECT_THROW(parse_precision("half"), InvalidArgument);
}

// Each version's factor on d_detect: ST-MAD's copy of the detection stage scales by 10
// (shared/stmad-spec.md §3.1), neither MAD release's 200 nor 1.
TEST(Options, EachVersionHasItsDetectionScale) {
  EXPECT_EQ(detect_scale(MadVersion::V2011), 200.0);
  EXPECT_EQ(detect_scale(MadVersion::V2010), 1.0);
  EXPECT_EQ(detect_scale(parse_mad_version("stmad")), 10.0);
}

TEST(Validate, RejectsSmallAndMismatchedImages) {
  const GrayImage a = make_gray_image(Image<double>(34, 34, 1.0));
  const GrayImage small = make_gray_image(Image<double>(33, 40, 1.0));
  const GrayImage other = make_gray_image(Image<double>(35, 34, 1.0));
  EXPECT_NO_THROW(validate_pair(a, a));
  EXPECT_THROW(validate_pair(small, small), InputError);
  EXPECT_THROW(validate_pair(a, other), InputError);
}

TEST(Validate, InputClassResolution) {
  const GrayImage g8 = make_gray_image(Image<double>(40, 40, 1.0), 8);
  const GrayImage g16 = make_gray_image(Image<double>(40, 40, 1.0), 16);
  EXPECT_EQ(resolve_input_class(g8, g8, InputClass::Auto), InputClass::Uint8);
  EXPECT_EQ(resolve_input_class(g8, g16, InputClass::Auto), InputClass::Double);
  EXPECT_EQ(resolve_input_class(g8, g8, InputClass::Double), InputClass::Double);
  EXPECT_THROW(resolve_input_class(g16, g16, InputClass::Uint8), InvalidArgument);
}

TEST(Validate, CpuBackendAlwaysResolves) {
  EXPECT_EQ(choose_backend(Backend::Cpu).backend, Backend::Cpu);
}

// Time to first score: the estimate grows with the pixels and shrinks with the threads, and a
// lone pair goes to the CPU only below kLonePairCpuSeconds, in a build with the CUDA backend.
TEST(LonePair, TheCpuTakesWhatItFinishesBeforeCudaWouldStart) {
  EXPECT_LT(estimated_cpu_seconds(512, 512, 16), estimated_cpu_seconds(512, 512, 2));
  EXPECT_LT(estimated_cpu_seconds(512, 384, 16), estimated_cpu_seconds(512, 512, 16));
  EXPECT_NEAR(estimated_cpu_seconds(512, 512, 1), 0.315, 0.01);    // the measured 309 ms
  EXPECT_NEAR(estimated_cpu_seconds(512, 512, 16), 0.058, 0.005);  // the measured 57 ms
  EXPECT_EQ(estimated_cpu_seconds(512, 512, 0), estimated_cpu_seconds(512, 512, 1));
  const auto small = cpu_for_lone_pair(512, 512, 16);
  const auto large = cpu_for_lone_pair(1920, 1080, 16);
  const auto one_thread = cpu_for_lone_pair(512, 512, 1);
  EXPECT_FALSE(large.has_value());
  EXPECT_FALSE(one_thread.has_value());
  if (!gpu_backend_compiled()) {
    EXPECT_FALSE(small.has_value()) << "without CUDA choose_backend's reason says why";
    return;
  }
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->backend, Backend::Cpu);
  EXPECT_FALSE(small->requested);
  EXPECT_EQ(small->reason.rfind("auto: one 512x512 pair, which the CPU (16 threads", 0), 0u)
      << small->reason;
}

}  // namespace
}  // namespace mad
