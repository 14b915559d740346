// Moré's Levenberg-Marquardt for the 5-parameter logistic on weighted rows (logistic_lmder.h).
// Each outer iteration takes the Jacobian at the current point (from the transition values its
// evaluation kept), factors it J P = Q R by Householder reflections with column pivoting
// (logistic_lmder_rows.cpp), and tries steps until one lowers the sum of squares enough: each
// step's damping parameter is found by Newton's method on the step's length against the trust
// region (lmpar), the damped system solved by Givens rotations that fold the scaling into R
// (qrsolv). The constants, tests and sign conventions are those of Eigen's implementation, which
// fit_logistic5 runs, so the two take the same steps up to rounding; everything past the Jacobian
// is 5x5.
#include "datasets/logistic_lmder.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "datasets/logistic_fit.h"

namespace mad::datasets {
namespace {

constexpr int kN = 5;
using Vec = std::array<double, kN>;
using Mat = std::array<Vec, kN>;  // m[i][j]: row i, column j

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kDwarf = std::numeric_limits<double>::min();
constexpr double kXTolerance = 1.4901161193847656e-8;  // Eigen's default xtol, sqrt(eps)
constexpr double kStepBoundFactor = 100.0;             // Eigen's default step bound factor

double norm(const Vec& v) {
  double s = 0;
  for (const double e : v) s += e * e;
  return std::sqrt(s);
}

double scaled_norm(const Vec& d, const Vec& v) {
  Vec p;
  for (int u = 0; u < kN; ++u) p[u] = d[u] * v[u];
  return norm(p);
}

// A rotation (c, s) taking (a, b) to (-hypot(a, b), 0) by a' = c a + s b, 0 = -s a + c b: the
// sign convention of Eigen's makeGivens(-a, b) as qrsolv uses it.
void givens(double a, double b, double& c, double& s) {
  const double big = std::max(std::abs(a), std::abs(b));
  if (big > 1e-150 && big < 1e150) {  // a^2 + b^2 neither overflows nor underflows
    const double minus_inverse = -1.0 / std::sqrt(a * a + b * b);
    c = a * minus_inverse, s = b * minus_inverse;
  } else if (b == 0) {
    c = a > 0 ? -1.0 : 1.0, s = 0.0;
  } else if (a == 0) {
    c = 0.0, s = b < 0 ? 1.0 : -1.0;
  } else if (std::abs(a) > std::abs(b)) {
    const double t = b / -a, u = std::copysign(std::sqrt(1.0 + t * t), -a);
    c = 1.0 / u, s = -t * c;
  } else {
    const double t = -a / b, u = std::copysign(std::sqrt(1.0 + t * t), b);
    s = -1.0 / u, c = -t * s;
  }
}

// qrsolv: z minimising |R z - qtb|^2 + |diag(sd[perm]) z|^2, returned in parameter order. s
// holds R in its upper triangle (kept); its strict lower triangle and `sdiag` receive the
// rotated factor, which lmpar's Newton correction solves with.
Vec qrsolv(Mat& s, const std::array<int, kN>& perm, const Vec& sd, const Vec& qtb, Vec& sdiag) {
  Vec kept, wa = qtb;
  for (int i = 0; i < kN; ++i) {
    kept[i] = s[i][i];
    for (int j = 0; j < i; ++j) s[i][j] = s[j][i];
  }
  for (int j = 0; j < kN; ++j) {
    if (sd[perm[j]] == 0) break;
    std::fill(sdiag.begin() + j, sdiag.end(), 0.0);
    sdiag[j] = sd[perm[j]];
    double beyond = 0;  // the entry of Q'b the rotations push past the first five
    for (int k = j; k < kN; ++k) {
      double c, sn;
      givens(s[k][k], sdiag[k], c, sn);
      s[k][k] = c * s[k][k] + sn * sdiag[k];
      const double t = c * wa[k] + sn * beyond;
      beyond = -sn * wa[k] + c * beyond;
      wa[k] = t;
      for (int i = k + 1; i < kN; ++i) {
        const double u = c * s[i][k] + sn * sdiag[i];
        sdiag[i] = -sn * s[i][k] + c * sdiag[i];
        s[i][k] = u;
      }
    }
  }
  int nsing = 0;
  while (nsing < kN && sdiag[nsing] != 0) ++nsing;
  for (int i = nsing; i < kN; ++i) wa[i] = 0;
  for (int i = nsing - 1; i >= 0; --i) {  // the rotated lower triangle, transposed
    double t = wa[i];
    for (int j = i + 1; j < nsing; ++j) t -= s[j][i] * wa[j];
    wa[i] = t / s[i][i];
  }
  Vec z;
  for (int i = 0; i < kN; ++i) {
    sdiag[i] = s[i][i];
    s[i][i] = kept[i];
    z[perm[i]] = wa[i];
  }
  return z;
}

// lmpar: the step x (before its sign change) and the damping par for which |D x| is within
// 10% of delta, or the Gauss-Newton step (par = 0) where that is shorter.
Vec lmpar(const LmderFactor& f, const Vec& diag, double delta, double& par) {
  const Mat& r = f.r;
  const auto& perm = f.perm;
  Vec z{};
  for (int i = f.rank - 1; i >= 0; --i) {
    double t = f.qtf[i];
    for (int j = i + 1; j < f.rank; ++j) t -= r[i][j] * z[j];
    z[i] = t / r[i][i];
  }
  Vec x;
  for (int i = 0; i < kN; ++i) x[perm[i]] = z[i];
  Vec dx;
  for (int u = 0; u < kN; ++u) dx[u] = diag[u] * x[u];
  double dxnorm = norm(dx), fp = dxnorm - delta;
  if (fp <= 0.1 * delta) {
    par = 0;
    return x;
  }
  double parl = 0;
  if (f.rank == kN) {  // the Newton step bounds the zero from below
    Vec w;
    for (int i = 0; i < kN; ++i) w[i] = diag[perm[i]] * dx[perm[i]] / dxnorm;
    for (int i = 0; i < kN; ++i) {
      double t = w[i];
      for (int j = 0; j < i; ++j) t -= r[j][i] * w[j];
      w[i] = t / r[i][i];
    }
    const double t = norm(w);
    parl = fp / delta / t / t;
  }
  Vec g;
  for (int j = 0; j < kN; ++j) {
    double t = 0;
    for (int i = 0; i <= j; ++i) t += r[i][j] * f.qtf[i];
    g[j] = t / diag[perm[j]];
  }
  const double gnorm = norm(g);
  double paru = gnorm / delta;
  if (paru == 0) paru = kDwarf / std::min(delta, 0.1);
  par = std::min(std::max(par, parl), paru);
  if (par == 0) par = gnorm / dxnorm;
  Mat s = r;
  Vec sdiag{};
  for (int iter = 1;; ++iter) {
    if (par == 0) par = std::max(kDwarf, 0.001 * paru);
    Vec sd;
    for (int u = 0; u < kN; ++u) sd[u] = std::sqrt(par) * diag[u];
    x = qrsolv(s, perm, sd, f.qtf, sdiag);
    for (int u = 0; u < kN; ++u) dx[u] = diag[u] * x[u];
    dxnorm = norm(dx);
    const double previous = fp;
    fp = dxnorm - delta;
    if (std::abs(fp) <= 0.1 * delta || (parl == 0 && fp <= previous && previous < 0) || iter == 10)
      break;
    Vec w;
    for (int i = 0; i < kN; ++i) w[i] = diag[perm[i]] * (dx[perm[i]] / dxnorm);
    for (int j = 0; j < kN; ++j) {
      w[j] /= sdiag[j];
      for (int i = j + 1; i < kN; ++i) w[i] -= s[i][j] * w[j];
    }
    const double t = norm(w), correction = fp / delta / t / t;
    if (fp > 0) parl = std::max(parl, par);
    if (fp < 0) paru = std::min(paru, par);
    par = std::max(parl, par + correction);
  }
  return x;
}

}  // namespace

std::array<double, 5> lmder_logistic5(const LmderRows& d, const std::array<double, 5>& start) {
  LmderPoint cur, trial;
  lmder_evaluate(d, start, cur);
  int evaluations = 1, iter = 1;
  double par = 0, delta = 0;
  Vec diag{};
  std::vector<double> scratch;
  LmderFactor qr;
  while (true) {  // one outer iteration: Eigen's minimizeOneStep, whose xnorm starts at 0
    double xnorm = 0, temp = 0;
    lmder_factorise(d, cur, scratch, qr);
    if (iter == 1) {
      for (int u = 0; u < kN; ++u) diag[u] = qr.col_norm[u] == 0 ? 1.0 : qr.col_norm[u];
      xnorm = scaled_norm(diag, cur.b);
      delta = xnorm == 0 ? kStepBoundFactor : kStepBoundFactor * xnorm;
    }
    double gnorm = 0;  // the scaled gradient's largest entry; gtol is 0
    if (cur.fnorm != 0)
      for (int c = 0; c < kN; ++c) {
        const double n = qr.col_norm[qr.perm[c]];
        if (n == 0) continue;
        double t = 0;
        for (int i = 0; i <= c; ++i) t += qr.r[i][c] * (qr.qtf[i] / cur.fnorm);
        gnorm = std::max(gnorm, std::abs(t) / n);
      }
    if (gnorm <= 0) return cur.b;
    for (int u = 0; u < kN; ++u) diag[u] = std::max(diag[u], qr.col_norm[u]);
    double ratio;
    do {
      const Vec x = lmpar(qr, diag, delta, par);
      Vec step, b;
      for (int u = 0; u < kN; ++u) step[u] = -x[u], b[u] = cur.b[u] + step[u];
      const double pnorm = scaled_norm(diag, step);
      if (iter == 1) delta = std::min(delta, pnorm);
      lmder_evaluate(d, b, trial);
      ++evaluations;
      const double fnorm1 = trial.fnorm;
      double actred = -1;
      if (0.1 * fnorm1 < cur.fnorm) actred = 1 - (fnorm1 / cur.fnorm) * (fnorm1 / cur.fnorm);
      Vec rp;  // R P' step: the model's reduction
      for (int i = 0; i < kN; ++i) {
        double t = 0;
        for (int c = i; c < kN; ++c) t += qr.r[i][c] * step[qr.perm[c]];
        rp[i] = t;
      }
      const double temp1 = (norm(rp) / cur.fnorm) * (norm(rp) / cur.fnorm);
      const double temp2 =
          (std::sqrt(par) * pnorm / cur.fnorm) * (std::sqrt(par) * pnorm / cur.fnorm);
      const double prered = temp1 + temp2 / 0.5, dirder = -(temp1 + temp2);
      ratio = prered != 0 ? actred / prered : 0;
      if (ratio <= 0.25) {
        if (actred >= 0) temp = 0.5;
        if (actred < 0) temp = 0.5 * dirder / (dirder + 0.5 * actred);
        if (0.1 * fnorm1 >= cur.fnorm || temp < 0.1) temp = 0.1;
        delta = temp * std::min(delta, pnorm / 0.1);
        par /= temp;
      } else if (!(par != 0 && ratio < 0.75)) {
        delta = pnorm / 0.5;
        par = 0.5 * par;
      }
      if (ratio >= 1e-4) {
        std::swap(cur, trial);
        xnorm = scaled_norm(diag, cur.b);
        ++iter;
      }
      const bool small_reduction = std::abs(actred) <= kRelativeSseTolerance &&
                                   prered <= kRelativeSseTolerance && 0.5 * ratio <= 1;
      if (small_reduction || delta <= kXTolerance * xnorm || evaluations >= kMaxEvaluations)
        return cur.b;
      if ((std::abs(actred) <= kEps && prered <= kEps && 0.5 * ratio <= 1) ||
          delta <= kEps * xnorm || gnorm <= kEps)
        return cur.b;
    } while (ratio < 1e-4);
  }
}

}  // namespace mad::datasets
