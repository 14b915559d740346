#include <gtest/gtest.h>

#include "common/error.h"
#include "mad/options.h"
#include "mad/score.h"

namespace mad {
namespace {

TEST(Options, ParseRoundTrips) {
  for (auto v : {MadVersion::V2010, MadVersion::V2011})
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
    EXPECT_NE(std::string(e.what()).find("2011 or 2010"), std::string::npos);
  }
  EXPECT_THROW(parse_backend("gpu"), InvalidArgument);
  EXPECT_THROW(parse_input_class("int"), InvalidArgument);
  EXPECT_THROW(parse_precision("half"), InvalidArgument);
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
  EXPECT_EQ(resolve_backend(Backend::Cpu), Backend::Cpu);
}

}  // namespace
}  // namespace mad
