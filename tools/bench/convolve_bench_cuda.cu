// Device timing of the convolution variants (tools/bench/convolve_bench.h).
#include <algorithm>
#include <type_traits>
#include <vector>

#include "common/cuda_check.h"
#include "kernels/convolve_cuda.h"
#include "kernels/device_image_cuda.h"
#include "tools/bench/convolve_bench.h"
#include "tools/bench/gpu_timer_cuda.h"

namespace mad::bench {

namespace {

template <class T>
KernelTiming bench_convolve_typed(ImageView<const T> src, const kernels::ConvolveFilter& filter,
                                  const std::string& variant, kernels::BlockShape block,
                                  const KernelBenchOptions& options) {
  constexpr bool kBytes = std::is_same_v<T, std::uint8_t>;
  kernels::validate_convolve_filter(filter, kBytes);
  kernels::validate_block_shape(block, false, filter.size, sizeof(T));
  if (src.empty()) throw InputError("bench convolve: the image is empty");
  if (options.repeats < 1 || options.warmup < 0 || options.max_copies < 1)
    throw InvalidArgument("bench: repeats must be >= 1, warmup >= 0 and max_copies >= 1");
  const auto& row = kernels::convolve_variants().find(variant);
  kernels::require_device("bench convolve");
  KernelTiming t;
  t.kernel = "convolve";
  t.variant = row.name;
  t.width = src.width;
  t.height = src.height;
  t.channels = 1;
  t.bytes_read = t.bytes_written = static_cast<std::uint64_t>(src.width) * src.height * sizeof(T);
  const std::size_t target = options.rotate_bytes ? options.rotate_bytes : 2 * l2_cache_bytes();
  const std::size_t per_copy = 2 * t.bytes_read;  // input and output
  t.copies = static_cast<int>(
      std::clamp<std::size_t>((target + per_copy - 1) / per_copy, 1, options.max_copies));
  cuda::Stream stream;
  const kernels::DeviceConvolveFilter f =
      kernels::upload_convolve_filter(filter, kBytes, stream.get());
  std::vector<kernels::DeviceImage8> in, out;
  for (int i = 0; i < t.copies; ++i) {
    in.push_back(kernels::upload_image8(kernels::as_bytes(src), stream.get()));
    out.push_back(kernels::make_device_image8(src.width * static_cast<int>(sizeof(T)), src.height,
                                              src.pitch * sizeof(T)));
  }
  GpuTimerOptions o;
  o.warmup = options.warmup;
  o.runs = options.repeats;
  o.back_to_back = true;
  t.time = time_gpu(stream.get(), o, [&](int i) {
    const int c = i % t.copies;
    const ImageView<const T> in_view =
        kernels::from_bytes<const T>(ImageView<const std::uint8_t>(in[c].view));
    const ImageView<T> out_view = kernels::from_bytes<T>(out[c].view);
    if constexpr (kBytes)
      row.launch.u8(in_view, out_view, f.ref, block, stream.get());
    else
      row.launch.f32(in_view, out_view, f.ref, block, stream.get());
  });
  return t;
}

}  // namespace

KernelTiming bench_convolve(ImageView<const float> src, const kernels::ConvolveFilter& filter,
                            const std::string& variant, kernels::BlockShape block,
                            const KernelBenchOptions& options) {
  return bench_convolve_typed(src, filter, variant, block, options);
}

KernelTiming bench_convolve(ImageView<const std::uint8_t> src,
                            const kernels::ConvolveFilter& filter, const std::string& variant,
                            kernels::BlockShape block, const KernelBenchOptions& options) {
  return bench_convolve_typed(src, filter, variant, block, options);
}

}  // namespace mad::bench
