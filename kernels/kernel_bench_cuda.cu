// Device timing of registered variants (kernels/kernel_bench.h).
#include <algorithm>
#include <cmath>

#include "common/cuda_check.h"
#include "kernels/device_image_cuda.h"
#include "kernels/gray_cuda.h"
#include "kernels/histogram_cuda.h"
#include "kernels/kernel_bench.h"
#include "kernels/nick_cuda.h"
#include "kernels/smooth_cuda.h"

namespace mad::kernels {
namespace {

// How many input/output copies to rotate through: enough to span options.rotate_bytes
// (default twice the L2), within max_copies and half of the free device memory.
int copies_for(std::size_t bytes_per_copy, const BenchOptions& options) {
  if (options.repeats < 1 || options.warmup < 0 || options.max_copies < 1)
    throw InvalidArgument("bench: repeats must be >= 1, warmup >= 0 and max_copies >= 1");
  std::size_t target = options.rotate_bytes;
  if (target == 0) {
    int device = 0, l2 = 0;
    MAD_CUDA_CHECK(cudaGetDevice(&device));
    MAD_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    target = 2 * static_cast<std::size_t>(l2);
  }
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

// Runs launch(copy) warmup times untimed, then `repeats` times between event pairs.
template <class LaunchCopy>
void time_launches(KernelTiming& t, const BenchOptions& options, cudaStream_t stream,
                   LaunchCopy&& launch) {
  for (int i = 0; i < options.warmup; ++i) launch(i % t.copies);
  std::vector<cuda::Event> start, stop;
  start.reserve(options.repeats);
  stop.reserve(options.repeats);
  for (int r = 0; r < options.repeats; ++r) {
    start.emplace_back();
    stop.emplace_back();
  }
  for (int r = 0; r < options.repeats; ++r) {
    start[r].record(stream);
    launch((options.warmup + r) % t.copies);
    stop[r].record(stream);
  }
  stop.back().synchronize();
  t.samples_ms.clear();
  for (int r = 0; r < options.repeats; ++r)
    t.samples_ms.push_back(stop[r].elapsed_ms_since(start[r]));
  t.median_ms = median_of(t.samples_ms);
  t.min_ms = *std::min_element(t.samples_ms.begin(), t.samples_ms.end());
  t.max_ms = *std::max_element(t.samples_ms.begin(), t.samples_ms.end());
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

}  // namespace

KernelTiming bench_gray(const RgbView8& rgb, GrayWeighting weighting, const std::string& variant,
                        const BenchOptions& options) {
  validate_rgb(rgb);
  const auto& row = gray_variants().find(variant);
  require_device("bench gray");
  const int channels = rgb.layout == RgbLayout::Interleaved ? rgb.channels : 3;
  KernelTiming t = describe(weighting == GrayWeighting::Matlab ? "gray" : "darken", row.name,
                            rgb.width, rgb.height, channels);
  t.bytes_read = pixels(rgb.width, rgb.height) * channels;
  t.bytes_written = pixels(rgb.width, rgb.height);
  t.copies = copies_for(rgb.extent_bytes() + t.bytes_written, options);
  cuda::Stream stream;
  std::vector<DeviceRgb8> in;
  std::vector<DeviceImage8> out;
  for (int i = 0; i < t.copies; ++i) {
    in.push_back(upload_rgb8(rgb, stream.get()));
    out.push_back(make_device_image8(rgb.width, rgb.height, rgb.width));
  }
  time_launches(t, options, stream.get(),
                [&](int i) { row.launch(in[i].view, weighting, out[i].view, stream.get()); });
  return t;
}

KernelTiming bench_histogram(ImageView<const std::uint8_t> gray, const std::string& variant,
                             const BenchOptions& options) {
  validate_histogram_input(gray);
  const auto& row = histogram_variants().find(variant);
  require_device("bench histogram");
  KernelTiming t = describe("histogram", row.name, gray.width, gray.height, 1);
  t.bytes_read = pixels(gray.width, gray.height);
  t.bytes_written = kHistogramBins * sizeof(std::uint32_t);
  t.copies = copies_for(t.bytes_read, options);
  cuda::Stream stream;
  std::vector<DeviceImage8> in;
  for (int i = 0; i < t.copies; ++i) in.push_back(upload_image8(gray, stream.get()));
  cuda::DeviceBuffer<std::uint32_t> bins(kHistogramBins);
  const OwnedScratch scratch =
      make_scratch(histogram_scratch_bytes(gray.width, gray.height, gray.pitch));
  time_launches(t, options, stream.get(),
                [&](int i) { row.launch(in[i].view, bins.get(), scratch.span(), stream.get()); });
  return t;
}

KernelTiming bench_smooth(ImageView<const std::uint8_t> samples, int channels,
                          const std::string& variant, const BenchOptions& options) {
  validate_smooth_input(samples, channels);
  const auto& row = smooth_variants().find(variant);
  require_device("bench smooth");
  const int width = samples.width / channels;
  KernelTiming t = describe("smooth", row.name, width, samples.height, channels);
  t.bytes_read = t.bytes_written = pixels(samples.width, samples.height);
  t.copies = copies_for(2 * t.bytes_read, options);
  cuda::Stream stream;
  const ImageCopies c = make_copies(samples, t.copies, stream.get());
  const OwnedScratch scratch = make_scratch(smooth_scratch_bytes(width, samples.height, channels));
  time_launches(t, options, stream.get(), [&](int i) {
    row.launch(c.in[i].view, channels, c.out[i].view, scratch.span(), stream.get());
  });
  return t;
}

KernelTiming bench_nick(ImageView<const std::uint8_t> gray, const NickParams& params,
                        const std::string& variant, const BenchOptions& options) {
  validate_nick_input(gray, params);
  const auto& row = nick_variants().find(variant);
  require_device("bench nick");
  KernelTiming t = describe("nick", row.name, gray.width, gray.height, 1);
  t.bytes_read = t.bytes_written = pixels(gray.width, gray.height);
  t.copies = copies_for(2 * t.bytes_read, options);
  cuda::Stream stream;
  const ImageCopies c = make_copies(gray, t.copies, stream.get());
  const OwnedScratch scratch = make_scratch(nick_scratch_bytes(gray.width, gray.height));
  time_launches(t, options, stream.get(), [&](int i) {
    row.launch(c.in[i].view, params, c.out[i].view, scratch.span(), stream.get());
  });
  return t;
}

}  // namespace mad::kernels
