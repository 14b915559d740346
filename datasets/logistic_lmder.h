// The Levenberg-Marquardt algorithm fit_logistic5 runs (Moré 1978, MINPACK's lmder, through
// Eigen's LevenbergMarquardt), on weighted rows instead of a materialised resample; internal to
// the fallback fit of the bootstrap (logistic_tied.cpp).
//
// The least-squares problem is the logistic's residuals
//   r_k = sqrt(w_k) (q(x_k) - y_k), k < rows, and one constant residual `rest`.
// w copies of a row (x, y), or rows (x, y_1) .. (x, y_w) with mean y and spread S, give the same
// sum of squares, J'J and J'r as one row of weight w plus sqrt(S) in `rest`; so the norm of the
// residuals, the Jacobian's column norms, its R (up to the signs of its rows) and the first five
// entries of Q'r, which are all the algorithm looks at, are those of the materialised rows.
// Its steps are then fit_logistic5's, up to rounding; on data whose fit has no finite minimum
// rounding alone moves where it stops (as it does when the same rows are listed in another
// order), so those answers agree only to that extent.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace mad::datasets {

struct LmderRows {
  // x (frame units), sqrt of the weight, y; padded with zero weights to a multiple of 4.
  std::vector<double> x, sw, y;
  std::size_t rows = 0;  // before the padding
  double rest = 0.0;     // the constant residual
  // The materialised row count, for the QR's threshold on negligible pivots.
  double materialised_rows = 0.0;
};

// The work per row, vectorised (logistic_lmder_rows.cpp: four rows at a time, with an AVX2+FMA
// clone chosen at run time); the rest of the algorithm is 5x5 (logistic_lmder.cpp).

// A point of the search: the parameters, per row the transition 1/(1+exp(b2 (x - b3))) (the
// Jacobian is built from it) and the residual, and the residuals' norm with `rest`.
struct LmderPoint {
  std::array<double, 5> b{};
  std::vector<double> s, r;
  double fnorm = 0.0;
};
void lmder_evaluate(const LmderRows& rows, const std::array<double, 5>& b, LmderPoint& p);

// J P = Q R of the Jacobian at a point, by Householder reflections with column pivoting
// (largest remaining column first, and the rank threshold, of Eigen's ColPivHouseholderQR),
// and what the algorithm keeps of it.
struct LmderFactor {
  std::array<std::array<double, 5>, 5> r{};  // R (upper triangle), r[i][j]: row i, column j
  std::array<int, 5> perm{};                 // R's column j belongs to parameter perm[j]
  int rank = 5;                              // pivots above the rank threshold
  std::array<double, 5> qtf{};               // the first five entries of Q'r
  std::array<double, 5> col_norm{};          // |J e_u| for parameter u
};
// `scratch` holds the Jacobian and the residuals while they are reflected.
void lmder_factorise(const LmderRows& rows, const LmderPoint& p, std::vector<double>& scratch,
                     LmderFactor& out);

// Minimises the sum of squares from b with fit_logistic5's settings (kMaxEvaluations,
// kRelativeSseTolerance) and Eigen's defaults for the rest (xtol sqrt(eps), gtol 0, step bound
// factor 100), and returns where it stops, as Eigen's minimize() leaves its argument.
// Requires rows >= 5.
std::array<double, 5> lmder_logistic5(const LmderRows& rows, const std::array<double, 5>& b);

}  // namespace mad::datasets
