// The subband-transform registry and the fused transform's shape rules (subband_transform.h).
#include "appearance/subband_transform.h"

#include "common/error.h"

namespace mad::appearance {

const VariantRegistry<SubbandTransform>& subband_transforms() {
  static const VariantRegistry<SubbandTransform> registry(
      "subband transform",
      {{"fused",
        "our own two-pass inverse FFT: the log-Gabor product inside the column pass, the modulus "
        "inside the row pass, A5 reads real magnitudes (sides of factors 2, 3, 5; else cufft)",
        "column pass: 4 (double) or 8 (float) adjacent columns x one orientation a CTA (half "
        "that for tall images); row pass: one row x one orientation a CTA; n/8 threads a line "
        "(32..256), Stockham radix 8/4/2/3/5 in padded shared memory",
        SubbandTransform::Fused},
       {"cufft",
        "product kernel writing the 4 filtered spectra, one batched cuFFT inverse C2C in "
        "place, A5 forms the modulus as it loads",
        "product: 32x8 threads over the spectrum; cuFFT's own kernels", SubbandTransform::Cufft}},
      "cufft");
  return registry;
}

const char* subband_transform_name(SubbandTransform t) {
  return t == SubbandTransform::Fused ? "fused" : "cufft";
}

namespace subband_fft {

std::vector<int> radices(int n) {
  std::vector<int> out;
  if (n < 1) return out;
  int m = n;
  for (const int r : {8, 4, 2, 3, 5})
    while (m % r == 0) {
      out.push_back(r);
      m /= r;
    }
  if (m != 1) out.clear();
  return out;
}

std::size_t shared_bytes(int n, int lines, bool double_precision) {
  const std::size_t complex_bytes = double_precision ? 16 : 8;
  return 2 * static_cast<std::size_t>(lines) *
         static_cast<std::size_t>(padded_length(n, double_precision)) * complex_bytes;
}

int column_lines(int height, bool double_precision) {
  // A CTA holds at most 1024 threads.
  const auto fits = [&](int lines, std::size_t shared_limit) {
    return shared_bytes(height, lines, double_precision) <= shared_limit &&
           lines * threads_per_line(height) <= 1024;
  };
  const int wide = double_precision ? 4 : 8;
  if (fits(wide, kFastSharedBytes)) return wide;
  const int narrow = wide / 2;
  if (fits(narrow, kMaxSharedBytes)) return narrow;
  return 0;
}

int threads_per_line(int n) {
  const int t = (n + 7) / 8;
  return t < 32 ? 32 : (t > 256 ? 256 : t);
}

}  // namespace subband_fft

bool fused_subband_transform_supports(int width, int height, bool double_precision) {
  using namespace subband_fft;
  if (width < 2 || height < 2) return false;
  if (radices(width).empty() || radices(height).empty()) return false;
  return column_lines(height, double_precision) > 0 &&
         shared_bytes(width, kRowLines, double_precision) <= kMaxSharedBytes;
}

bool fused_subband_transform_is_faster(int width, int height, bool double_precision) {
  using namespace subband_fft;
  if (double_precision || !fused_subband_transform_supports(width, height, false)) return false;
  const int lines = column_lines(height, false);
  return shared_bytes(height, lines, false) <= kFastSharedBytes &&
         shared_bytes(width, kRowLines, false) <= kFastSharedBytes;
}

SubbandTransform resolve_subband_transform(std::optional<SubbandTransform> asked, int width,
                                           int height, bool double_precision) {
  if (!asked)
    return fused_subband_transform_is_faster(width, height, double_precision)
               ? SubbandTransform::Fused
               : SubbandTransform::Cufft;
  if (*asked == SubbandTransform::Cufft) return *asked;
  if (fused_subband_transform_supports(width, height, double_precision))
    return SubbandTransform::Fused;
  throw InvalidArgument("the fused subband transform cannot run " + std::to_string(width) + "x" +
                        std::to_string(height) + " images in " +
                        (double_precision ? "double" : "float") +
                        ": both sides must factor into 2, 3 and 5 and fit shared memory "
                        "(cufft runs every shape)");
}

}  // namespace mad::appearance
