// The CUDA form of a kernel chain (kernels/kernel_chain.h): one upload, the stages' default
// variants on two ping-pong device buffers, one download. With HostRoundTrips the image also
// goes to the host and back after every stage but the last (the baseline the seed avoided).
#include <algorithm>
#include <utility>

#include "common/cuda_check.h"
#include "kernels/device_image_cuda.h"
#include "kernels/gray_cuda.h"
#include "kernels/histogram_cuda.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_request.h"
#include "kernels/nick_cuda.h"
#include "kernels/smooth_cuda.h"

namespace mad::kernels {
namespace {

// The device image between stages: `channels` interleaved samples a pixel.
struct Current {
  ImageView<std::uint8_t> view;  // width = pixels * channels
  int channels = 1;
};

// A view of `buffer` for `channels` samples a pixel, with the buffers' common pitch.
ImageView<std::uint8_t> view_of(std::uint8_t* buffer, int width, int height, int channels,
                                std::ptrdiff_t pitch) {
  return ImageView<std::uint8_t>(buffer, width * channels, height, pitch);
}

}  // namespace

ChainOutput run_chain_cuda(const std::vector<KernelKind>& chain, const RawImage8& input,
                           const ChainParams& params, ChainTransfers transfers) {
  validate_raw_image(input);
  if (chain.empty()) throw InvalidArgument("kernel chain: no kernel");
  // Every variant is looked up (unknown names refused) before the device is touched.
  const auto& gray_row = gray_variants().default_row();
  const auto& smooth_row = smooth_variants(params.border).default_row();
  const auto& nick_row = nick_variants().default_row();
  const auto& histogram_row = histogram_variants().default_row();
  require_device("kernel chain");

  ChainOutput out;
  const RawImage8 image = drop_alpha(input);
  if (image.channels != input.channels) out.notes.push_back(kNoteAlphaIgnored);
  const int width = image.width, height = image.height;
  const std::ptrdiff_t pitch = static_cast<std::ptrdiff_t>(width) * image.channels;

  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  const ImageView<const std::uint8_t> host_in(image.samples.data(), width * image.channels, height,
                                              pitch);
  DeviceImage8 a = upload_image8(host_in, s);
  DeviceImage8 b = make_device_image8(width * image.channels, height, pitch);
  std::size_t scratch_bytes = 0;
  for (KernelKind k : chain) {
    if (k == KernelKind::Smooth)
      scratch_bytes = std::max(scratch_bytes, smooth_scratch_bytes(width, height, 3));
    if (k == KernelKind::Nick)
      scratch_bytes = std::max(scratch_bytes, nick_scratch_bytes(width, height));
    if (k == KernelKind::Histogram)
      scratch_bytes = std::max(scratch_bytes, histogram_scratch_bytes(width, height, pitch));
  }
  const OwnedScratch scratch = make_scratch(scratch_bytes);
  cuda::DeviceBuffer<std::uint32_t> bins;
  std::vector<std::uint8_t> host_trip;  // HostRoundTrips only

  Current cur{a.view, image.channels};
  std::uint8_t* spare = b.view.data;
  // Runs launch(input, output) into the spare buffer and makes the output current.
  auto step = [&](int out_channels, auto&& launch) {
    const ImageView<std::uint8_t> dst = view_of(spare, width, height, out_channels, pitch);
    launch(ImageView<const std::uint8_t>(cur.view), dst);
    spare = cur.view.data;
    cur = Current{dst, out_channels};
  };
  auto to_gray = [&](GrayWeighting weighting) {
    const RgbView8 rgb{cur.view.data, width, height, pitch, RgbLayout::Interleaved, 3, 0};
    step(1, [&](ImageView<const std::uint8_t>, ImageView<std::uint8_t> dst) {
      gray_row.launch(rgb, weighting, dst, s);
    });
  };
  auto gray_input = [&]() {
    if (cur.channels != 3) return;
    to_gray(GrayWeighting::Matlab);
    out.notes.push_back(kNoteColourToGray);
  };

  for (std::size_t i = 0; i < chain.size(); ++i) {
    const KernelKind kind = chain[i];
    switch (kind) {
      case KernelKind::Gray:
      case KernelKind::Darken:
        if (cur.channels != 3)
          throw InputError(std::string(kernel_kind_name(kind)) + " needs an RGB or RGBA image");
        to_gray(kind == KernelKind::Gray ? GrayWeighting::Matlab : GrayWeighting::Darken);
        break;
      case KernelKind::Smooth:
        step(cur.channels, [&](ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst) {
          smooth_row.launch(src, cur.channels, dst, scratch.span(), s);
        });
        break;
      case KernelKind::Nick:
        gray_input();
        validate_nick_input(ImageView<const std::uint8_t>(cur.view), params.nick);
        step(1, [&](ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst) {
          nick_row.launch(src, params.nick, dst, scratch.span(), s);
        });
        break;
      case KernelKind::Histogram:
        gray_input();
        bins = cuda::DeviceBuffer<std::uint32_t>(kHistogramBins);
        histogram_row.launch(ImageView<const std::uint8_t>(cur.view), bins.get(), scratch.span(),
                             s);
        break;
    }
    if (transfers == ChainTransfers::HostRoundTrips && i + 1 < chain.size() &&
        kind != KernelKind::Histogram) {
      host_trip.resize(static_cast<std::size_t>(cur.view.width) * height);
      const ImageView<std::uint8_t> host(host_trip.data(), cur.view.width, height, cur.view.width);
      download_image8(ImageView<const std::uint8_t>(cur.view), host, s);
      MAD_CUDA_CHECK(cudaMemcpy2DAsync(cur.view.data, cur.view.pitch, host.data, host.pitch,
                                       host.width, host.height, cudaMemcpyHostToDevice, s));
    }
  }

  if (chain.back() == KernelKind::Histogram) {
    Histogram h{};
    MAD_CUDA_CHECK(cudaMemcpyAsync(h.data(), bins.get(), sizeof(h), cudaMemcpyDeviceToHost, s));
    stream.synchronize();
    out.histogram = h;
    return out;
  }
  out.image.width = width;
  out.image.height = height;
  out.image.channels = cur.channels;
  out.image.samples.resize(static_cast<std::size_t>(cur.view.width) * height);
  download_image8(
      ImageView<const std::uint8_t>(cur.view),
      ImageView<std::uint8_t>(out.image.samples.data(), cur.view.width, height, cur.view.width), s);
  stream.synchronize();
  return out;
}

}  // namespace mad::kernels
