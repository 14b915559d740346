// RGB -> 8-bit gray with two weightings (issue 4, kernel 1): MATLAB's rgb2gray (the one MAD
// uses, spec §2) and the seed's "darken". Formulas: kernels/gray_formula.h.
//
// CPU reference and CUDA host entry point side by side. The CUDA entry point takes HOST
// images, uploads them with the host's pitch (so the caller controls device row alignment),
// runs one registered variant on its own stream, downloads and synchronizes. The device-
// pointer form for benchmarks is in kernels/gray_cuda.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/image.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

enum class GrayWeighting { Matlab, Darken };
enum class RgbLayout { Interleaved, Planar };

// 8-bit RGB pixels: interleaved (RGB or RGBA, alpha ignored) or three planes R, G, B.
struct RgbView8 {
  const std::uint8_t* data = nullptr;  // R sample of pixel (0, 0)
  int width = 0;                       // pixels
  int height = 0;
  std::ptrdiff_t pitch = 0;  // bytes between row starts (of each plane when planar)
  RgbLayout layout = RgbLayout::Interleaved;
  int channels = 3;                 // interleaved: samples per pixel (3 or 4); planar: 3
  std::ptrdiff_t plane_stride = 0;  // planar: bytes from the R plane to G and from G to B

  // Sample c (0 R, 1 G, 2 B) of pixel (y, x).
  std::uint8_t sample(int y, int x, int c) const {
    const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(y) * pitch;
    return layout == RgbLayout::Interleaved
               ? data[row + static_cast<std::ptrdiff_t>(x) * channels + c]
               : data[c * plane_stride + row + x];
  }
  // Bytes spanned from `data` to one past the last sample read.
  std::size_t extent_bytes() const;
};

// Interleaved view over `samples` (samples.width = pixel width * channels). Throws
// InputError for an empty image or a channel count other than 3 or 4.
RgbView8 interleaved_rgb(ImageView<const std::uint8_t> samples, int channels);
// Planar view: plane c starts at planes + c * plane_stride; each plane has `pitch` bytes per
// row. Throws InputError for an empty image, InvalidArgument for a bad pitch or stride.
RgbView8 planar_rgb(const std::uint8_t* planes, int width, int height, std::ptrdiff_t pitch,
                    std::ptrdiff_t plane_stride);
// Throws InputError / InvalidArgument when `rgb` is empty or inconsistent.
void validate_rgb(const RgbView8& rgb);

// CPU reference. `out` must be rgb.width x rgb.height. Matlab weighting calls
// mad::rgb_to_gray_matlab (common/image_io.h) per pixel.
void gray_cpu(const RgbView8& rgb, GrayWeighting weighting, ImageView<std::uint8_t> out);
Image<std::uint8_t> gray_cpu(const RgbView8& rgb, GrayWeighting weighting);

// Runs one CUDA variant (options.variant; empty = default) on the host image, including
// upload and download; returns when `out` holds the result. Throws GpuError without a device
// or without the CUDA backend, InvalidArgument for an unknown variant.
void gray_cuda(const RgbView8& rgb, GrayWeighting weighting, ImageView<std::uint8_t> out,
               const CudaRunOptions& options = {});
Image<std::uint8_t> gray_cuda(const RgbView8& rgb, GrayWeighting weighting,
                              const CudaRunOptions& options = {});

// A gray/darken variant (device-pointer form): reads `src` (device memory, any pitch and
// layout RgbView8 allows) and writes every pixel of `dst` (device, src.width x src.height).
// It enqueues on `stream`, never synchronizes and allocates nothing.
using GrayLaunch = void (*)(const RgbView8& src, GrayWeighting weighting,
                            ImageView<std::uint8_t> dst, StreamHandle stream);

// The gray/darken variant registry (kernels/variant_tables.cpp), shared by both weightings.
const VariantRegistry<GrayLaunch>& gray_variants();

}  // namespace mad::kernels
