// The per-row work of the fallback fit's Levenberg-Marquardt (logistic_lmder.h): residuals and
// the QR of the Jacobian, on GCC/Clang vector types four rows at a time. Every pass over the
// rows serves all the columns it touches at once, each with its own accumulator, so the passes
// run at the adders' throughput instead of waiting on one running sum (a pass per column and
// dot product took three times as long). Vector values never cross a call (every helper is
// inlined), so the ABI note GCC gives for 32-byte vectors without AVX does not apply.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "datasets/logistic_lmder.h"
#include "datasets/logistic_pass.h"

namespace mad::datasets {
namespace {

#pragma GCC diagnostic ignored "-Wpsabi"
typedef double V4 __attribute__((vector_size(32)));

#define MAD_INLINE inline __attribute__((always_inline))
// No helper returns a V4 (clang refuses a call returning a 32-byte vector in a function
// compiled without AVX, the default clone); values go out through references.
#define splat(v) (V4{(v), (v), (v), (v)})

constexpr int kN = 5;
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kDwarf = std::numeric_limits<double>::min();

MAD_INLINE void load(const double* p, V4& v) {
  std::memcpy(&v, p, sizeof v);
}

MAD_INLINE void store(double* p, const V4& v) {
  std::memcpy(p, &v, sizeof v);
}

MAD_INLINE double lanes(const V4& v) {
  return (v[0] + v[1]) + (v[2] + v[3]);
}

// One pass over rows [from, padded) of C columns (padding rows are zero in every column, so
// they add nothing): with kUpdate each column first loses t[q] v (a Householder reflection's
// update); then pivot[0] = sum a[0]^2 and pivot[q] = sum a[0] a[q], column 0 being the next
// pivot (its tail and the next reflection's dot products), and with kSquares each column's
// sum of squares (where a downdated norm has to be recomputed).
template <int C, bool kUpdate, bool kSquares>
MAD_INLINE void sweep(const double* v, const double* t, double* const* a, std::size_t from,
                      std::size_t padded, double* pivot, double* squares) {
  V4 acc[C] = {}, sq[C] = {};
  double acc1[C] = {}, sq1[C] = {};
  std::size_t i = from;
  for (; i < padded && i % 4 != 0; ++i) {
    for (int q = 0; q < C; ++q) {
      if (kUpdate) a[q][i] -= t[q] * v[i];
      acc1[q] += a[0][i] * a[q][i];
      if (kSquares) sq1[q] += a[q][i] * a[q][i];
    }
  }
  // The column loops unrolled keep each column's vector and accumulator in registers: left as
  // loops, GCC kept them in memory and the pass took three times as long.
  for (; i < padded; i += 4) {
    V4 x[C];
#pragma GCC unroll 8
    for (int q = 0; q < C; ++q) load(a[q] + i, x[q]);
    if (kUpdate) {
      V4 u;
      load(v + i, u);
#pragma GCC unroll 8
      for (int q = 0; q < C; ++q) {
        x[q] -= splat(t[q]) * u;
        store(a[q] + i, x[q]);
      }
    }
#pragma GCC unroll 8
    for (int q = 0; q < C; ++q) {
      acc[q] += x[0] * x[q];
      if (kSquares) sq[q] += x[q] * x[q];
    }
  }
  for (int q = 0; q < C; ++q) {
    pivot[q] = lanes(acc[q]) + acc1[q];
    if (kSquares) squares[q] = lanes(sq[q]) + sq1[q];
  }
}

template <bool kUpdate, bool kSquares>
MAD_INLINE void sweep_columns(int columns, const double* v, const double* t, double* const* a,
                              std::size_t from, std::size_t padded, double* pivot,
                              double* squares) {
  switch (columns) {
    case 6: sweep<6, kUpdate, kSquares>(v, t, a, from, padded, pivot, squares); break;
    case 5: sweep<5, kUpdate, kSquares>(v, t, a, from, padded, pivot, squares); break;
    case 4: sweep<4, kUpdate, kSquares>(v, t, a, from, padded, pivot, squares); break;
    case 3: sweep<3, kUpdate, kSquares>(v, t, a, from, padded, pivot, squares); break;
    default: sweep<2, kUpdate, kSquares>(v, t, a, from, padded, pivot, squares); break;
  }
}

}  // namespace

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void lmder_evaluate(const LmderRows& d, const std::array<double, 5>& b, LmderPoint& p) {
  const std::size_t padded = d.x.size();
  p.b = b;
  p.s.resize(padded);
  p.r.resize(padded);
  logistic_transition(d.x.data(), padded, b[1], b[2], p.s.data());
  V4 ss = {};
  for (std::size_t k = 0; k < padded; k += 4) {  // padding rows have weight 0: residual 0
    V4 s, x, w, y;
    load(p.s.data() + k, s), load(d.x.data() + k, x), load(d.sw.data() + k, w);
    load(d.y.data() + k, y);
    const V4 r = w * (splat(b[0]) * (splat(0.5) - s) + splat(b[3]) * x + splat(b[4]) - y);
    store(p.r.data() + k, r);
    ss += r * r;
  }
  p.fnorm = std::sqrt(d.rest * d.rest + lanes(ss));
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void lmder_factorise(const LmderRows& d, const LmderPoint& p, std::vector<double>& scratch,
                     LmderFactor& out) {
  const std::size_t padded = d.x.size();
  scratch.resize((kN + 1) * padded);
  double* col[kN + 1];  // the Jacobian's columns (in pivot order as they are chosen), residuals
  for (int u = 0; u <= kN; ++u) col[u] = scratch.data() + u * padded;
  V4 sq[kN] = {};
  const V4 b0 = splat(p.b[0]), b1 = splat(p.b[1]), b2 = splat(p.b[2]), one = splat(1.0);
  for (std::size_t k = 0; k < padded; k += 4) {  // d r_k / d b_u, and the columns' norms
    V4 s, w, x, j[kN];
    load(p.s.data() + k, s), load(d.sw.data() + k, w), load(d.x.data() + k, x);
    const V4 g = b0 * s * (one - s);
    j[0] = w * (splat(0.5) - s), j[1] = w * g * (x - b2), j[2] = -(w * g * b1), j[3] = w * x;
    j[4] = w;
    for (int u = 0; u < kN; ++u) {
      store(col[u] + k, j[u]);
      sq[u] += j[u] * j[u];
    }
  }
  std::memcpy(col[kN], p.r.data(), padded * sizeof(double));
  // Eigen's column norms: `updated` downdated after each reflection, `direct` as last computed.
  double updated[kN], direct[kN];
  for (int u = 0; u < kN; ++u) {
    out.col_norm[u] = updated[u] = direct[u] = std::sqrt(lanes(sq[u]));
    out.perm[u] = u;
  }
  const double biggest = *std::max_element(updated, updated + kN);
  const double negligible = (biggest * kEps) * (biggest * kEps) / d.materialised_rows;
  const double downdate_limit = std::sqrt(kEps);
  int nonzero = kN;
  // Puts the largest remaining column at k; false once the pivots are negligible.
  const auto choose_pivot = [&](int k, double* t) {
    const int best = static_cast<int>(std::max_element(updated + k, updated + kN) - updated);
    if (nonzero == kN && updated[best] * updated[best] < negligible * (d.materialised_rows - k))
      nonzero = k;
    std::swap(col[k], col[best]);
    std::swap(updated[k], updated[best]);
    std::swap(direct[k], direct[best]);
    std::swap(out.perm[k], out.perm[best]);
    if (t) std::swap(t[0], t[best - k]);
  };
  choose_pivot(0, nullptr);
  double pivot[kN + 1];  // the pivot's tail sum of squares, then its dot with each later column
  sweep_columns<false, false>(kN + 1, nullptr, nullptr, col, 1, padded, pivot, nullptr);
  double max_pivot = 0;
  for (int k = 0; k < kN; ++k) {
    double* v = col[k];
    const int later = kN - k;  // columns right of the pivot, with the residuals
    const double alpha = v[k], tail = pivot[0];
    double beta = alpha, tau = 0, inverse = 0;
    if (tail > kDwarf) {
      beta = std::sqrt(alpha * alpha + tail);
      if (alpha >= 0) beta = -beta;
      inverse = 1.0 / (alpha - beta);
      tau = (beta - alpha) / beta;
    }
    out.r[k][k] = beta;
    max_pivot = std::max(max_pivot, std::abs(beta));
    // H = I - tau u u', u = (1, v[k+1..] inverse): row k of each later column, then the rest.
    double t[kN];
    for (int q = 0; q < later; ++q) {
      double* a = col[k + 1 + q];
      const double dot = tau * (a[k] + inverse * pivot[q + 1]);
      a[k] -= dot;
      t[q] = dot * inverse;
      if (static_cast<std::size_t>(k) + 1 < padded) a[k + 1] -= t[q] * v[k + 1];
    }
    out.qtf[k] = col[kN][k];
    if (k + 1 == kN) break;
    bool recompute = false;  // Eigen's downdate of the remaining norms (LAPACK's xGEQPF rule)
    for (int u = k + 1; u < kN; ++u) {
      if (updated[u] == 0) continue;
      double f = std::abs(col[u][k]) / updated[u];
      f = std::max(0.0, (1 + f) * (1 - f));
      if (f * (updated[u] / direct[u]) * (updated[u] / direct[u]) <= downdate_limit)
        direct[u] = -1, recompute = true;  // marked: its norm is computed afresh below
      else
        updated[u] *= std::sqrt(f);
    }
    const std::size_t from = k + 2;
    if (!recompute) {  // the next pivot is known: one pass updates and sums for it
      choose_pivot(k + 1, t);
      sweep_columns<true, false>(later, v, t, col + k + 1, from, padded, pivot, nullptr);
      continue;
    }
    double squares[kN];
    sweep_columns<true, true>(later, v, t, col + k + 1, from, padded, pivot, squares);
    for (int u = k + 1; u < kN; ++u)
      if (direct[u] < 0)
        updated[u] = direct[u] = std::sqrt(col[u][k + 1] * col[u][k + 1] + squares[u - k - 1]);
    choose_pivot(k + 1, nullptr);
    sweep_columns<false, false>(later, nullptr, nullptr, col + k + 1, from, padded, pivot, nullptr);
  }
  // Row i of R is final once reflection i is applied; columns swapped after that carry it along.
  for (int u = 0; u < kN; ++u)
    for (int i = 0; i < u; ++i) out.r[i][u] = col[u][i];
  out.rank = 0;
  for (int i = 0; i < nonzero; ++i) out.rank += std::abs(out.r[i][i]) > max_pivot * kEps * kN;
}

#undef splat
#undef MAD_INLINE

}  // namespace mad::datasets
