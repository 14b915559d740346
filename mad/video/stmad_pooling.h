// ST-MAD's pooled figures from per-frame and per-slice indices (shared/stmad-spec.md §3.3, §5.3,
// §6): plain functions of numbers, so the unit tests reach each formula.
#pragma once

#include <vector>

namespace mad::video {

// §3.3: the means of HI (already x10) and LO over frames, σ = 1 / (1 + β1 MadHi^β2), and
// SMAD = MadHi^(σ/4) + MadLo^(1-σ): a SUM, not MAD's product (pow semantics: MadHi = 0 gives 1).
struct SpatialFigures {
  double mad_hi = 0, mad_lo = 0, sigma = 0, smad = 0;
};
SpatialFigures pool_spatial(const std::vector<double>& hi, const std::vector<double>& lo);

// §5.3: log10(1000·3/7 + m) · Σ_k w(k)·lo(k) / m (the product first, then the division).
double slice_term(const std::vector<double>& weights, const std::vector<double>& lo, double m);
// §5.3: TMAD = stsRow^(3/7) + stsCol^(4/7) (the row term takes α_T).
double pool_temporal(double sts_row, double sts_col);

// §6: movIndex = mRow / (mRow + mCol), β = log10(1 + movIndex), STMAD = 2.5 log10(β SMAD) + TMAD.
struct Combination {
  double mov_index = 0, beta = 0, stmad = 0;
};
Combination combine_stmad(double smad, double tmad, double m_row, double m_col);

}  // namespace mad::video
