// Device timing of registered kernel variants (tools/bench/kernel_bench.h).
#include <algorithm>
#include <cmath>

#include "common/cuda_check.h"
#include "kernels/device_image_cuda.h"
#include "kernels/gray_cuda.h"
#include "kernels/gray_histogram.h"
#include "kernels/histogram_cuda.h"
#include "tools/bench/kernel_bench.h"
#include "kernels/nick_cuda.h"
#include "kernels/smooth_cuda.h"
#include "tools/bench/gpu_timer_cuda.h"

namespace mad::bench {
namespace {

using kernels::DeviceImage8;
using kernels::make_device_image8;
using kernels::make_scratch;
using kernels::OwnedScratch;
using kernels::upload_image8;

// How many input/output copies to rotate through: enough to span options.rotate_bytes
// (default twice the L2), within max_copies and half of the free device memory.
int copies_for(std::size_t bytes_per_copy, const KernelBenchOptions& options) {
  if (options.repeats < 1 || options.warmup < 0 || options.max_copies < 1)
    throw InvalidArgument("bench: repeats must be >= 1, warmup >= 0 and max_copies >= 1");
  std::size_t target = options.rotate_bytes;
  if (target == 0) target = 2 * l2_cache_bytes();
  std::size_t free_bytes = 0, total_bytes = 0;
  MAD_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t per_copy = std::max<std::size_t>(bytes_per_copy, 1);
  std::size_t copies = (target + per_copy - 1) / per_copy;
  copies = std::min(copies, static_cast<std::size_t>(options.max_copies));
  copies = std::min(copies, free_bytes / 2 / per_copy);
  return static_cast<int>(std::max<std::size_t>(copies, 1));
}

KernelTiming describe(const char* kernel, const char* variant, int width, int height,
                      int channels) {
  KernelTiming t;
  t.kernel = kernel;
  t.variant = variant;
  t.width = width;
  t.height = height;
  t.channels = channels;
  return t;
}

// The one GPU timer, launches back to back (these kernels take microseconds), each run on the
// next input copy.
template <class LaunchCopy>
void time_launches(KernelTiming& t, const KernelBenchOptions& options, cudaStream_t stream,
                   LaunchCopy&& launch) {
  GpuTimerOptions o;
  o.warmup = options.warmup;
  o.runs = options.repeats;
  o.back_to_back = true;
  t.time = time_gpu(stream, o, [&](int i) { launch(i % t.copies); });
}

std::uint64_t pixels(int width, int height) {
  return static_cast<std::uint64_t>(width) * height;
}

// `copies` uploads of an image -> image kernel's input, each with an output of its shape.
struct ImageCopies {
  std::vector<DeviceImage8> in, out;
};
ImageCopies make_copies(ImageView<const std::uint8_t> host, int copies, cudaStream_t stream) {
  ImageCopies c;
  for (int i = 0; i < copies; ++i) {
    c.in.push_back(upload_image8(host, stream));
    c.out.push_back(make_device_image8(host.width, host.height, host.pitch));
  }
  return c;
}

// The record of an RGB -> gray kernel: "gray" or "darken" plus `suffix`, every sample read and
// the gray plane (plus `extra_written` bytes) written, and the copies to rotate through.
KernelTiming describe_rgb(const std::string& suffix, kernels::GrayWeighting weighting,
                          const char* variant, const kernels::RgbView8& rgb,
                          std::uint64_t extra_written, const KernelBenchOptions& options) {
  const int channels = rgb.layout == kernels::RgbLayout::Interleaved ? rgb.channels : 3;
  const std::string kernel =
      (weighting == kernels::GrayWeighting::Matlab ? "gray" : "darken") + suffix;
  KernelTiming t = describe(kernel.c_str(), variant, rgb.width, rgb.height, channels);
  t.bytes_read = pixels(rgb.width, rgb.height) * channels;
  t.bytes_written = pixels(rgb.width, rgb.height) + extra_written;
  t.copies = copies_for(rgb.extent_bytes() + t.bytes_written, options);
  return t;
}

// `copies` uploads of an RGB input, each with a tight gray output plane.
struct RgbCopies {
  std::vector<kernels::DeviceRgb8> in;
  std::vector<DeviceImage8> out;
};
RgbCopies make_rgb_copies(const kernels::RgbView8& rgb, int copies, cudaStream_t stream) {
  RgbCopies c;
  for (int i = 0; i < copies; ++i) {
    c.in.push_back(kernels::upload_rgb8(rgb, stream));
    c.out.push_back(make_device_image8(rgb.width, rgb.height, rgb.width));
  }
  return c;
}

}  // namespace

KernelTiming bench_gray(const kernels::RgbView8& rgb, kernels::GrayWeighting weighting,
                        const std::string& variant, const KernelBenchOptions& options) {
  kernels::validate_rgb(rgb);
  const auto& row = kernels::gray_variants().find(variant);
  kernels::require_device("bench gray");
  KernelTiming t = describe_rgb("", weighting, row.name, rgb, 0, options);
  cuda::Stream stream;
  const RgbCopies c = make_rgb_copies(rgb, t.copies, stream.get());
  time_launches(t, options, stream.get(),
                [&](int i) { row.launch(c.in[i].view, weighting, c.out[i].view, stream.get()); });
  return t;
}

KernelTiming bench_gray_histogram(const kernels::RgbView8& rgb, kernels::GrayWeighting weighting,
                                  const std::string& variant, const KernelBenchOptions& options) {
  kernels::validate_rgb(rgb);
  const auto& row = kernels::gray_histogram_variants().find(variant);
  kernels::require_device("bench gray+histogram");
  KernelTiming t = describe_rgb("+histogram", weighting, row.name, rgb,
                                kernels::kHistogramBins * sizeof(std::uint32_t), options);
  cuda::Stream stream;
  const RgbCopies c = make_rgb_copies(rgb, t.copies, stream.get());
  cuda::DeviceBuffer<std::uint32_t> bins(kernels::kHistogramBins);
  time_launches(t, options, stream.get(), [&](int i) {
    row.launch(c.in[i].view, weighting, c.out[i].view, bins.get(), stream.get());
  });
  return t;
}

KernelTiming bench_histogram(ImageView<const std::uint8_t> gray, const std::string& variant,
                             const KernelBenchOptions& options) {
  kernels::validate_histogram_input(gray);
  const auto& row = kernels::histogram_variants().find(variant);
  kernels::require_device("bench histogram");
  KernelTiming t = describe("histogram", row.name, gray.width, gray.height, 1);
  t.bytes_read = pixels(gray.width, gray.height);
  t.bytes_written = kernels::kHistogramBins * sizeof(std::uint32_t);
  t.copies = copies_for(t.bytes_read, options);
  cuda::Stream stream;
  std::vector<DeviceImage8> in;
  for (int i = 0; i < t.copies; ++i) in.push_back(upload_image8(gray, stream.get()));
  cuda::DeviceBuffer<std::uint32_t> bins(kernels::kHistogramBins);
  const OwnedScratch scratch =
      make_scratch(kernels::histogram_scratch_bytes(gray.width, gray.height, gray.pitch));
  time_launches(t, options, stream.get(),
                [&](int i) { row.launch(in[i].view, bins.get(), scratch.span(), stream.get()); });
  return t;
}

KernelTiming bench_smooth(ImageView<const std::uint8_t> samples, int channels,
                          const std::string& variant, const KernelBenchOptions& options,
                          kernels::SmoothBorder border) {
  kernels::validate_smooth_input(samples, channels);
  const auto& row = kernels::smooth_variants(border).find(variant);
  kernels::require_device("bench smooth");
  const int width = samples.width / channels;
  KernelTiming t = describe("smooth", row.name, width, samples.height, channels);
  t.bytes_read = t.bytes_written = pixels(samples.width, samples.height);
  t.copies = copies_for(2 * t.bytes_read, options);
  cuda::Stream stream;
  const ImageCopies c = make_copies(samples, t.copies, stream.get());
  const OwnedScratch scratch =
      make_scratch(kernels::smooth_scratch_bytes(width, samples.height, channels));
  time_launches(t, options, stream.get(), [&](int i) {
    row.launch(c.in[i].view, channels, c.out[i].view, scratch.span(), stream.get());
  });
  return t;
}

KernelTiming bench_nick(ImageView<const std::uint8_t> gray, const kernels::NickParams& params,
                        const std::string& variant, const KernelBenchOptions& options) {
  kernels::validate_nick_input(gray, params);
  const auto& row = kernels::nick_variants().find(variant);
  kernels::require_device("bench nick");
  KernelTiming t = describe("nick", row.name, gray.width, gray.height, 1);
  t.bytes_read = t.bytes_written = pixels(gray.width, gray.height);
  t.copies = copies_for(2 * t.bytes_read, options);
  cuda::Stream stream;
  const ImageCopies c = make_copies(gray, t.copies, stream.get());
  const OwnedScratch scratch = make_scratch(kernels::nick_scratch_bytes(gray.width, gray.height));
  time_launches(t, options, stream.get(), [&](int i) {
    row.launch(c.in[i].view, params, c.out[i].view, scratch.span(), stream.get());
  });
  return t;
}

}  // namespace mad::bench
