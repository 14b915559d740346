// The per-window arithmetic of ST-MAD's motion weights (shared/stmad-spec.md §4.2-4.3), one
// definition for the CPU (motion_cpu.cpp) and the GPU (motion_cuda.cu). constexpr (not
// __host__ __device__) so the header stays CUDA-free: the CUDA library is compiled with
// --expt-relaxed-constexpr, which lets kernels call these (as kernels/gray_formula.h does).
//
// Same bits on both: the expressions are written once here and evaluated in the same order;
// motion_cuda.cu is compiled with -fmad=false so nvcc does not fuse a product into a sum (the
// host compiler targets x86-64 without FMA and fuses nothing). For 8-bit frames every value is
// exact anyway (multiples of 1/16), but deeper frames carry non-integer samples.
#pragma once

#include <cmath>
#include <cstddef>

namespace mad::video {

constexpr int kMotionWindow = 8;  // b of §4: 8x8 windows, and slices every 8th row and column

// Z(i, j) of a w-wide frame, with zeros above row 0 and left of column 0 (§4.2's "full"
// convolution cut to the frame: the boundary windows see a step from 0 to the image).
constexpr double zero_extended(const double* z, int w, int i, int j) {
  return (i < 0 || j < 0) ? 0.0 : z[static_cast<std::ptrdiff_t>(i) * w + j];
}

struct Gradient {
  double fx = 0, fy = 0, ft = 0;
};

// f_x, f_y, f_t at (i, j) between the current frame c and the previous frame p, each 2x2
// difference sitting on the bottom-right pixel of its cell, both frames' gradients averaged
// (§4.2; the signs are the original's, the negatives of backward differences).
constexpr Gradient gradient_at(const double* c, const double* p, int w, int i, int j) {
  struct Cell {
    double z11, z10, z01, z00;  // Z(i,j), Z(i,j-1), Z(i-1,j), Z(i-1,j-1)
  };
  const Cell cc{zero_extended(c, w, i, j), zero_extended(c, w, i, j - 1),
                zero_extended(c, w, i - 1, j), zero_extended(c, w, i - 1, j - 1)};
  const Cell pc{zero_extended(p, w, i, j), zero_extended(p, w, i, j - 1),
                zero_extended(p, w, i - 1, j), zero_extended(p, w, i - 1, j - 1)};
  const double dx_c = (cc.z10 - cc.z11) + (cc.z00 - cc.z01);
  const double dx_p = (pc.z10 - pc.z11) + (pc.z00 - pc.z01);
  const double dy_c = (cc.z01 - cc.z11) + (cc.z00 - cc.z10);
  const double dy_p = (pc.z01 - pc.z11) + (pc.z00 - pc.z10);
  const double s_c = cc.z11 + cc.z10 + cc.z01 + cc.z00;
  const double s_p = pc.z11 + pc.z10 + pc.z01 + pc.z00;
  return {0.25 * dx_c + 0.25 * dx_p, 0.25 * dy_c + 0.25 * dy_p, 0.25 * s_c - 0.25 * s_p};
}

// The normal equations of window (I, J): G = [[sxx, sxy], [sxy, syy]], q = (q1, q2), g = -f_t.
struct WindowSums {
  double sxx = 0, sxy = 0, syy = 0, q1 = 0, q2 = 0;
};

// Sums over window (I, J)'s 64 pixels in row-major order (the order both backends use).
constexpr WindowSums window_sums(const double* c, const double* p, int w, int I, int J) {
  WindowSums s{};
  for (int di = 0; di < kMotionWindow; ++di)
    for (int dj = 0; dj < kMotionWindow; ++dj) {
      const Gradient f = gradient_at(c, p, w, I * kMotionWindow + di, J * kMotionWindow + dj);
      const double g = -f.ft;
      s.sxx += f.fx * f.fx;
      s.sxy += f.fx * f.fy;
      s.syy += f.fy * f.fy;
      s.q1 += f.fx * g;
      s.q2 += f.fy * g;
    }
  return s;
}

// pinv's tolerance for a 2x2 matrix: max(size) * eps, relative to the largest singular value
// (Octave's default; §4.3).
constexpr double kPinvRelativeTolerance = 2.0 * 2.220446049250313e-16;

struct Flow {
  double u = 0, v = 0;
};

// (u, v) = G⁺ q with the Moore-Penrose rule of §4.3: 0 for G = 0, the minimum-norm solution
// along the leading eigenvector when the smaller eigenvalue is within pinv's tolerance, else
// the 2x2 inverse.
constexpr Flow window_flow(const WindowSums& s) {
  const double trace = s.sxx + s.syy;
  if (!(trace > 0.0)) return {};  // G = 0: a window flat in both frames (G is PSD)
  const double det = s.sxx * s.syy - s.sxy * s.sxy;
  const double half_gap = 0.5 * (s.sxx - s.syy);
  const double lambda1 = 0.5 * trace + std::sqrt(half_gap * half_gap + s.sxy * s.sxy);
  // lambda2 = det / lambda1 <= tol * lambda1, without dividing.
  if (det <= kPinvRelativeTolerance * lambda1 * lambda1) {
    // Two expressions of the leading eigenvector; the longer one is never the zero vector.
    double ex = lambda1 - s.syy, ey = s.sxy;
    const double ax = s.sxy, ay = lambda1 - s.sxx;
    if (ax * ax + ay * ay > ex * ex + ey * ey) {
      ex = ax;
      ey = ay;
    }
    const double norm = std::sqrt(ex * ex + ey * ey);
    ex = ex / norm;
    ey = ey / norm;
    const double along = (ex * s.q1 + ey * s.q2) / lambda1;
    return {along * ex, along * ey};
  }
  return {(s.syy * s.q1 - s.sxy * s.q2) / det, (s.sxx * s.q2 - s.sxy * s.q1) / det};
}

// V = u² + v², the window's squared speed; the original's NaN -> 0 replacement kept as a guard
// (finite input never produces NaN here).
constexpr double squared_speed(const Flow& f) {
  const double v = f.u * f.u + f.v * f.v;
  return v == v ? v : 0.0;
}

}  // namespace mad::video
