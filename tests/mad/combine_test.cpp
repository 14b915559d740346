// The combination step (spec §5) against the spec's constants and the §9 golden rows.
#include <gtest/gtest.h>

#include <cmath>

#include "mad/combine.h"

namespace mad {
namespace {

TEST(Combine, BetasAreTheExactExpressions) {
  EXPECT_NEAR(combine_beta1(), 0.467108352580935, 1e-15);
  EXPECT_NEAR(combine_beta2(), 0.129640143851717, 1e-15);
}

TEST(Combine, ZeroDetectionGivesZeroMadWhateverLo) {
  for (double lo : {0.0, 0.966027919876007, 1e6}) {
    const Combined c = combine(0.0, lo, MadVersion::V2010);
    EXPECT_EQ(c.sig, 1.0);
    EXPECT_EQ(c.mad, 0.0) << "lo=" << lo;
  }
}

TEST(Combine, ZeroAppearanceGivesZeroMad) {
  const Combined c = combine(40.0, 0.0, MadVersion::V2011);
  EXPECT_EQ(c.mad, 0.0);
  EXPECT_TRUE(std::isfinite(c.sig));
}

// Spec §9 rows T2..T4: (HI April, LO) -> alpha, MAD April, MAD 2011.
struct GoldenRow {
  double hi, lo, sig, mad2010, mad2011;
};

TEST(Combine, ReproducesTheSpecGoldenRows) {
  const GoldenRow rows[] = {
      {40.9473988681895, 1.21124382089157, 0.569529661142245, 8.99579258120461, 41.1039856108641},
      {1.86750517402379, 0.872141328367642, 0.663787876384416, 1.44572232554333, 17.8673989487088},
      {1386.86033499263, 1.18455090301318, 0.455933085555206, 29.6875819752629, 46.3535945588061},
  };
  // The golden values carry 15 significant digits.
  constexpr double kRel = 1e-13;
  for (const auto& g : rows) {
    const Combined a = combine(g.hi, g.lo, MadVersion::V2010);
    EXPECT_NEAR(a.sig, g.sig, kRel * g.sig);
    EXPECT_NEAR(a.mad, g.mad2010, kRel * g.mad2010);
    EXPECT_EQ(a.hi, g.hi);
    const Combined b = combine(g.hi, g.lo, MadVersion::V2011);
    EXPECT_EQ(b.hi, 200.0 * g.hi);
    EXPECT_NEAR(b.mad, g.mad2011, kRel * g.mad2011);
  }
}

TEST(Combine, AlphaIsOneHalfAtTheCrossover) {
  // alpha = 0.5 where d_detect = 10^2.55 (spec §5).
  const Combined c = combine(std::pow(10.0, 2.55), 1.0, MadVersion::V2010);
  EXPECT_NEAR(c.sig, 0.5, 1e-15);
}

}  // namespace
}  // namespace mad
