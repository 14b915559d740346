// Variants are resolved once, at the front door (issue 38): a user's name becomes a VariantPick
// (an index), and below that the pick gives the row itself, by index, never by name. The GPU
// stages take those rows (tests/mad/variant_rows_cuda_test.cpp holds them to that).
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "appearance/a5_variants.h"
#include "appearance/subband_transform.h"
#include "detection/detection.h"
#include "mad/variants.h"

namespace mad {
namespace {

// Every pick gives the very row of its registry (its address, not a row of the same name), and
// the default pick the registry's default row.
template <class Launch>
void expect_rows_by_index(const VariantRegistry<Launch>& registry) {
  SCOPED_TRACE(registry.family());
  EXPECT_EQ(&picked_row(registry, VariantPick{}), &registry.default_row());
  EXPECT_EQ(registry.default_row().name, registry.default_name());
  for (std::size_t i = 0; i < registry.rows().size(); ++i)
    EXPECT_EQ(&picked_row(registry, VariantPick{static_cast<int>(i)}), &registry.rows()[i]);
  EXPECT_THROW(picked_row(registry, VariantPick{static_cast<int>(registry.rows().size())}),
               std::out_of_range);
}

TEST(VariantRows, APickGivesItsRowByIndex) {
  expect_rows_by_index(appearance::a5_variants());
  expect_rows_by_index(detection::detection_stats_variants());
  expect_rows_by_index(appearance::subband_transforms());
}

// The same row a user's name picks at the front door.
TEST(VariantRows, TheFrontDoorsNameAndTheRowAgree) {
  for (const VariantInfo& v : appearance::a5_variants().infos())
    EXPECT_EQ(picked_row(appearance::a5_variants(), pick_variant(VariantFamily::A5, v.name)).name,
              v.name);
}

// The subband transform's default pick leaves the choice to the stage (shape and precision);
// a named one is that row's transform.
TEST(VariantRows, TheDefaultTransformIsTheStagesChoice) {
  EXPECT_FALSE(picked_subband_transform(VariantPick{}).has_value());
  for (const std::string name : {"cufft", "fused"}) {
    const auto t = picked_subband_transform(pick_variant(VariantFamily::SubbandTransform, name));
    ASSERT_TRUE(t.has_value()) << name;
    EXPECT_EQ(appearance::subband_transform_name(*t), name);
  }
}

}  // namespace
}  // namespace mad
