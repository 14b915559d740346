#include "datasets/logistic_pass.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace mad::datasets {
namespace {

// Four lanes: one AVX2 register in the x86-64-v3 clone of logistic_pass (chosen at run time
// where the CPU has AVX2 and FMA, as every H100/H200 host and CI runner does), two SSE2
// registers in the default clone. Vector values never cross a call (every helper is inlined),
// so the ABI note GCC gives for 32-byte vectors without AVX does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
typedef double V4 __attribute__((vector_size(32)));
typedef std::int64_t I4 __attribute__((vector_size(32)));

#define MAD_INLINE inline __attribute__((always_inline))

// No helper returns a V4: clang refuses a call that returns a 32-byte vector in a function
// compiled without AVX (the default clone), inlined or not. Values go out through references.
#define splat(v) (V4{(v), (v), (v), (v)})

MAD_INLINE void load(const double* p, V4& v) {
  std::memcpy(&v, p, sizeof v);
}

// exp(z) = 2^k exp(r), k = round(z / ln 2), |r| <= ln(2)/2, exp(r) by its Taylor series to
// r^12 (truncation below 2e-16 relative). z is clamped to +-700 first: the logistic only needs
// exp to saturate, and 2^k must stay a normal double.
MAD_INLINE void exp4(const V4& x, V4& out) {
  V4 z = x < splat(-700.0) ? splat(-700.0) : x;
  z = z > splat(700.0) ? splat(700.0) : z;
  const V4 shifter = splat(6755399441055744.0);  // 1.5 * 2^52: adding it rounds to an integer
  const V4 k = (z * splat(1.4426950408889634) + shifter) - shifter;
  const V4 r = (z - k * splat(6.93147180369123816490e-01)) - k * splat(1.90821492927058770002e-10);
  V4 p = splat(1.0 / 479001600.0);  // 1/12!, then Horner down to 1/0!
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  const I4 bits = (__builtin_convertvector(k, I4) + 1023) << 52;
  V4 scale;
  std::memcpy(&scale, &bits, sizeof scale);
  out = p * scale;
}

MAD_INLINE double sum_lanes(const V4& v) {
  return (v[0] + v[1]) + (v[2] + v[3]);
}

#undef MAD_INLINE

}  // namespace

WeightedRows::WeightedRows(std::size_t rows)
    : rows_(rows), x_((rows + 3) / 4 * 4, 0.0), y_(x_.size(), 0.0), w_(x_.size(), 0.0) {}

bool WeightedRows::constant_x() const {
  return rows_ == 0 ||
         std::all_of(x_.begin(), x_.begin() + rows_, [&](double v) { return v == x_[0]; });
}

bool WeightedRows::constant_y() const {
  return rows_ == 0 ||
         std::all_of(y_.begin(), y_.begin() + rows_, [&](double v) { return v == y_[0]; });
}

double pass_exp(double z) {
  V4 e;
  exp4(splat(z), e);
  return e[0];
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
PassSums
logistic_pass(const WeightedRows& rows, const std::array<double, 5>& b) {
  V4 a[15] = {}, g[5] = {}, sse = {}, sq = {}, sqq = {}, sqy = {};
  const V4 b0 = splat(b[0]), b1 = splat(b[1]), b2 = splat(b[2]), b3 = splat(b[3]), b4 = splat(b[4]);
  const V4 one = splat(1.0), half = splat(0.5);
  for (std::size_t i = 0; i < rows.padded(); i += 4) {
    V4 x, y, w, e;
    load(rows.x() + i, x);
    load(rows.y() + i, y);
    load(rows.w() + i, w);
    exp4(b1 * (x - b2), e);
    const V4 s = one / (one + e);
    const V4 q = b0 * (half - s) + b3 * x + b4;
    const V4 r = q - y, gg = b0 * s * (one - s);
    const V4 j[5] = {half - s, gg * (x - b2), -gg * b1, x, one};
    for (int u = 0, t = 0; u < 5; ++u) {
      const V4 wj = w * j[u];
      g[u] += wj * r;
      for (int v = 0; v <= u; ++v) a[t++] += wj * j[v];
    }
    sse += w * r * r;
    sq += w * q;
    sqq += w * q * q;
    sqy += w * q * y;
  }
  PassSums out;
  for (int t = 0; t < 15; ++t) out.jtj[t] = sum_lanes(a[t]);
  for (int u = 0; u < 5; ++u) out.jtr[u] = sum_lanes(g[u]);
  out.sse = sum_lanes(sse), out.sq = sum_lanes(sq), out.sqq = sum_lanes(sqq),
  out.sqy = sum_lanes(sqy);
  return out;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void logistic_transition(const double* x, std::size_t n, double slope, double centre, double* s) {
  // exp(z) = 2^k exp(r) as in exp4, with exp(r) = N(r) / N(-r), N the [6/6] Pade numerator
  // (error 1.8e-13 r^13, below 2e-19 for |r| <= ln(2)/2); then 1/(1+exp(z)) takes one division:
  // N(-r) / (N(-r) + 2^k N(r)). Seven multiply-adds where exp4's series takes thirteen.
  const V4 b1 = splat(slope), b2 = splat(centre);
  for (std::size_t i = 0; i < n; i += 4) {
    V4 v;
    load(x + i, v);
    V4 z = b1 * (v - b2);
    z = z < splat(-700.0) ? splat(-700.0) : z;
    z = z > splat(700.0) ? splat(700.0) : z;
    const V4 shifter = splat(6755399441055744.0);
    const V4 k = (z * splat(1.4426950408889634) + shifter) - shifter;
    const V4 r =
        (z - k * splat(6.93147180369123816490e-01)) - k * splat(1.90821492927058770002e-10);
    const V4 r2 = r * r;
    const V4 even = ((splat(1.0 / 665280.0) * r2 + 1.0 / 792.0) * r2 + 5.0 / 44.0) * r2 + 1.0;
    const V4 odd = r * ((splat(1.0 / 15840.0) * r2 + 1.0 / 66.0) * r2 + 0.5);
    const I4 bits = (__builtin_convertvector(k, I4) + 1023) << 52;
    V4 scale;
    std::memcpy(&scale, &bits, sizeof scale);
    const V4 below = even - odd, t = below / (below + scale * (even + odd));
    std::memcpy(s + i, &t, sizeof t);
  }
}

#undef splat

}  // namespace mad::datasets
