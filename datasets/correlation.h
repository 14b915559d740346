// Correlation coefficients used to judge an IQA metric against subjective scores (VQEG
// practice): Spearman's rank-order (SROCC), Kendall's rank-order (KROCC, tau-b) and Pearson's
// linear (PLCC) coefficient. All take paired samples of equal length and return NaN when the
// coefficient is undefined (fewer than two samples, or a constant sample).
#pragma once

#include <vector>

namespace mad::datasets {

// 1-based ranks; tied values share the mean of the ranks they span (e.g. 1, 2.5, 2.5, 4).
std::vector<double> average_ranks(const std::vector<double>& v);

// Pearson's r (two-pass, mean-centred sums).
double pearson(const std::vector<double>& x, const std::vector<double>& y);

// Spearman's rho: Pearson's r of the average ranks, which is the tie-correct form.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

// Kendall's tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)), with n0 = n(n-1)/2 and n1, n2 the
// pairs tied in x and in y. O(n log n) (Knight 1966): sort by (x, y), count inversions of y
// with a merge sort; the tie counts come from runs in the sorted orders.
double kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y);

// Root mean square of (a - b).
double rmse(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace mad::datasets
