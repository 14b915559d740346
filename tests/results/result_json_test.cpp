// A result's JSON names its MAD version as --mad-version takes it: a year as a number, ST-MAD's
// scale by its name (a year parse of "stmad" would throw).
#include <gtest/gtest.h>

#include "mad/results/result_json.h"

namespace mad::results {
namespace {

TEST(ResultJson, MadVersionAsTheOptionTakesIt) {
  ScoreResult r;
  r.version = MadVersion::V2010;
  EXPECT_EQ(result_to_json(r)["mad_version"], 2010);
  r.version = MadVersion::Stmad2011;
  EXPECT_EQ(result_to_json(r)["mad_version"], "stmad");
}

}  // namespace
}  // namespace mad::results
