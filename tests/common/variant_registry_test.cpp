// The variant registry type (common/variant_registry.h) on its own: construction checks, the
// default, lookup and the message for an unknown name. CPU-only: plain function pointers.
#include "common/variant_registry.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"

namespace mad {
namespace {

using Launch = int (*)(int);
int twice(int x) {
  return 2 * x;
}
int square(int x) {
  return x * x;
}

template <class Real>
using Scale = Real (*)(Real);
double half(double x) {
  return x / 2;
}
float half_f(float x) {
  return x / 2;
}

VariantRegistry<Launch> two_rows() {
  return VariantRegistry<Launch>(
      "toy", {{"twice", "doubles", "1 thread", twice}, {"square", "squares", "2 threads", square}},
      "square");
}

// What an exception's message says, or "" when none is thrown.
template <class Fn>
std::string message_of(Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(VariantRegistry, RowsKeepTheirOrderAndTheDefaultIsFlagged) {
  const auto registry = two_rows();
  ASSERT_EQ(registry.rows().size(), 2u);
  ASSERT_EQ(registry.infos().size(), 2u);
  EXPECT_STREQ(registry.rows()[0].name, "twice");
  EXPECT_EQ(registry.infos()[1].name, "square");
  EXPECT_EQ(registry.infos()[1].note, "squares");
  EXPECT_EQ(registry.infos()[1].shape, "2 threads");
  EXPECT_FALSE(registry.infos()[0].is_default);
  EXPECT_TRUE(registry.infos()[1].is_default);
  EXPECT_EQ(registry.default_name(), "square");
  EXPECT_EQ(registry.family(), "toy");
}

TEST(VariantRegistry, EmptyNameSelectsTheDefault) {
  const auto registry = two_rows();
  EXPECT_STREQ(registry.find("").name, "square");
  EXPECT_EQ(registry.find("").launch(3), 9);
  EXPECT_EQ(registry.find("twice").launch(3), 6);
  EXPECT_EQ(registry.resolve(""), "square");
  EXPECT_EQ(registry.resolve("twice"), "twice");
  EXPECT_EQ(registry.index_of("twice"), 0u);
}

TEST(VariantRegistry, UnknownNameIsAnInvalidArgumentListingTheNames) {
  const auto registry = two_rows();
  EXPECT_THROW(registry.find("cube"), InvalidArgument);
  EXPECT_THROW(registry.resolve("Twice"), InvalidArgument);  // names are case-sensitive
  const std::string what = message_of([&] { registry.find("cube"); });
  EXPECT_NE(what.find("unknown toy variant 'cube'"), std::string::npos) << what;
  EXPECT_NE(what.find("twice, square"), std::string::npos) << what;
}

TEST(VariantRegistry, DuplicateNamesAreRejectedAtConstruction) {
  const auto build = [] {
    VariantRegistry<Launch>("toy", {{"a", "", "", twice}, {"a", "", "", square}}, "a");
  };
  EXPECT_THROW(build(), Error);
  EXPECT_NE(message_of(build).find("'a' registered twice"), std::string::npos);
}

TEST(VariantRegistry, DefaultMustBeARow) {
  const auto build = [] { VariantRegistry<Launch>("toy", {{"a", "", "", twice}}, "b"); };
  EXPECT_THROW(build(), Error);
  EXPECT_NE(message_of(build).find("default variant 'b' is not registered"), std::string::npos);
  // "" is no row either: a registry always names its default.
  EXPECT_THROW((VariantRegistry<Launch>("toy", {{"a", "", "", twice}}, "")), Error);
  EXPECT_THROW((VariantRegistry<Launch>("toy", {}, "a")), Error);
}

TEST(VariantRegistry, ConstructionErrorsAreNotUsageErrors) {
  // A bad table is a programming error (exit 1), never a bad command line (exit 2).
  try {
    VariantRegistry<Launch>("toy", {{"a", "", "", twice}, {"a", "", "", twice}}, "a");
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitFailure);
  }
}

TEST(VariantRegistry, EmptyNamesAreRejected) {
  EXPECT_THROW((VariantRegistry<Launch>("toy", {{"", "", "", twice}}, "")), Error);
  EXPECT_THROW((VariantRegistry<Launch>("toy", {{nullptr, "", "", twice}}, "")), Error);
}

TEST(VariantRegistry, PerPrecisionRowsHoldOneCallablePerPrecision) {
  const VariantRegistry<PerPrecision<Scale>> registry("toy", {{"half", "", "", {half, half_f}}},
                                                      "half");
  const auto& launch = registry.find("").launch;
  EXPECT_EQ(launch.get<double>()(3.0), 1.5);
  EXPECT_EQ(launch.get<float>()(3.0f), 1.5f);
  // An empty launch (a build without CUDA) value-initializes both.
  const PerPrecision<Scale> empty{};
  EXPECT_EQ(empty.f64, nullptr);
  EXPECT_EQ(empty.f32, nullptr);
}

TEST(VariantRegistry, CallablesMayBeEmptyWhileNamesStillValidate) {
  const VariantRegistry<Launch> registry("toy", {{"a", "n", "s", {}}}, "a");
  EXPECT_EQ(registry.find("a").launch, nullptr);
  EXPECT_THROW(registry.find("b"), InvalidArgument);
}

}  // namespace
}  // namespace mad
