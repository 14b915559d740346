// One pass of the bootstrap's logistic refit over a resample's distinct rows (internal to
// logistic_refit.cpp, separate so its arithmetic can be tested against plain loops): the
// weighted residuals of q(x) = b1 (1/2 - 1/(1 + exp(b2 (x - b3)))) + b4 x + b5 summed into
// J'WJ, J'Wr, the SSE and the moments PLCC needs.
//
// The pass runs on GCC/Clang vector types four rows at a time, with an exp of its own (within
// a few ulp of std::exp) that vectorises, where std::exp is a call per value; lanes are summed
// in a fixed order, so a pass gives the same bits on any thread and run (on one kind of CPU:
// the AVX2+FMA clone rounds differently from the SSE2 one, within the fit's tolerance).
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace mad::datasets {

class WeightedRows {
 public:
  explicit WeightedRows(std::size_t rows);  // zero-weight padding to a multiple of 4
  void set(std::size_t k, double x, double y, double w) { x_[k] = x, y_[k] = y, w_[k] = w; }
  bool constant_x() const;
  bool constant_y() const;
  std::size_t rows() const { return rows_; }
  std::size_t padded() const { return x_.size(); }
  const double* x() const { return x_.data(); }
  const double* y() const { return y_.data(); }
  const double* w() const { return w_.data(); }

 private:
  std::size_t rows_;
  std::vector<double> x_, y_, w_;
};

struct PassSums {
  std::array<double, 15> jtj{};  // lower triangle of J'WJ, row by row
  std::array<double, 5> jtr{};
  double sse = 0.0, sq = 0.0, sqq = 0.0, sqy = 0.0;  // weighted sums of r^2, q, q^2, q y
};

PassSums logistic_pass(const WeightedRows& rows, const std::array<double, 5>& b);

// The pass's exp for one value, exposed for its accuracy test.
double pass_exp(double z);

// s[k] = 1 / (1 + exp(slope (x[k] - centre))) for k < n, n a multiple of 4, within a few ulp
// (exp by a Pade quotient that shares the transition's division): what the fallback fit
// (logistic_lmder_rows.cpp) needs once per evaluation for its residuals and Jacobian,
// vectorised as the pass is.
void logistic_transition(const double* x, std::size_t n, double slope, double centre, double* s);

}  // namespace mad::datasets
