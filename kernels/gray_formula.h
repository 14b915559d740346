// The two RGB -> gray weightings as exact integer arithmetic, one definition for both
// backends. constexpr (not __host__ __device__) so the header stays CUDA-free: the CUDA
// library is compiled with --expt-relaxed-constexpr, which lets kernels call these.
#pragma once

#include <cstdint>

namespace mad::kernels {

// MATLAB's rgb2gray for uint8 (spec §2): round(0.298936021293775 R + 0.587043074451121 G +
// 0.114020904255103 B), half away from zero. The CPU reference calls mad::rgb_to_gray_matlab
// (common/image_io.h) itself; kernels cannot, so they use this fixed-point form: coefficients
// scaled by 2^23 and rounded to integers, then (sum + 2^22) >> 23. Exactness is proved, not
// argued: a test compares this function with mad::rgb_to_gray_matlab on all 2^24 triples.
// (Why it can hold: over all triples the exact weighted sum stays >= 4.5e-6 away from a tie
// x.5, and these rounded coefficients never move a sum across one. The scale matters: 2^21
// fails on 188 triples and 2^24 on 109.)
constexpr int kGrayFixedShift = 23;
constexpr std::uint32_t gray_fixed_coefficient(double c) {
  return static_cast<std::uint32_t>(c * static_cast<double>(1u << kGrayFixedShift) + 0.5);
}
constexpr std::uint32_t kGrayFixedR = gray_fixed_coefficient(0.298936021293775);
constexpr std::uint32_t kGrayFixedG = gray_fixed_coefficient(0.587043074451121);
constexpr std::uint32_t kGrayFixedB = gray_fixed_coefficient(0.114020904255103);
// The rounded coefficients sum to exactly 2^23, so 255 * 2^23 + 2^22 bounds the sum below and
// 32-bit arithmetic cannot overflow.
static_assert(kGrayFixedR + kGrayFixedG + kGrayFixedB == (1u << kGrayFixedShift));

constexpr std::uint8_t gray_matlab_fixed(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return static_cast<std::uint8_t>(
      (kGrayFixedR * r + kGrayFixedG * g + kGrayFixedB * b + (1u << (kGrayFixedShift - 1))) >>
      kGrayFixedShift);
}

// The seed's "darken": g = 0.3R + 0.59G + 0.11B, then g*0.6 + 0.5 truncated. Evaluated in
// exact rational arithmetic rather than in float (where 0.3 and 0.59 are inexact and a value
// such as 2.0 can come out as 1.9999999 and truncate to 1):
//   floor(0.6 * (30R + 59G + 11B) / 100 + 0.5) = (6 * (30R + 59G + 11B) + 500) / 1000.
// The largest value is (6 * 25500 + 500) / 1000 = 153.
constexpr std::uint8_t gray_darken_exact(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return static_cast<std::uint8_t>((180u * r + 354u * g + 66u * b + 500u) / 1000u);
}

}  // namespace mad::kernels
