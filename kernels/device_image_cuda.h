// Host <-> device staging shared by the kernels' host entry points and tools/bench/kernel_bench.
// CUDA-only header (include from .cu files and *_cuda_test.cpp only).
//
// A device copy keeps the HOST view's pitch, so a caller (a test) controls the device row
// alignment through the host layout: a tight odd-width RGB image gives unaligned rows, which
// the vectorized variants must handle.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/cuda_resources.h"
#include "common/error.h"
#include "common/image.h"
#include "kernels/kernel_variant.h"

namespace mad::kernels {

// Device memory for a width x height plane of bytes with `pitch` bytes per row. The buffer
// ends right after the last row's last byte (no trailing pitch), so an out-of-bounds access
// past the image is past the allocation, where compute-sanitizer sees it.
struct DeviceImage8 {
  cuda::DeviceBuffer<std::uint8_t> buffer;
  ImageView<std::uint8_t> view;
};

DeviceImage8 make_device_image8(int width, int height, std::ptrdiff_t pitch);
// Uploads `host` (asynchronous on `stream`; pageable host memory makes it effectively sync).
DeviceImage8 upload_image8(ImageView<const std::uint8_t> host, cudaStream_t stream);
// Sets every byte of the rows' [0, width) ranges to `value` (the padding is left alone).
void fill_image8(ImageView<std::uint8_t> device, std::uint8_t value, cudaStream_t stream);
// Copies rows [0, width) of `device` into `host` (same size); does not synchronize.
void download_image8(ImageView<const std::uint8_t> device, ImageView<std::uint8_t> host,
                     cudaStream_t stream);

// Scratch owned by the host entry points and the benchmark.
struct OwnedScratch {
  cuda::DeviceBuffer<unsigned char> buffer;
  DeviceScratch span() const { return {buffer.get(), buffer.size()}; }
};
OwnedScratch make_scratch(std::size_t bytes);

// Multiprocessor count of the current device (for fixed-size grids).
int device_sm_count();

// Throws GpuError when no CUDA device is usable (the host entry points call this first, so
// the message says "no device" rather than a raw CUDA error).
void require_device(const char* kernel);

// The body of every image -> image host entry point: uploads `src`, fills the device output
// (shaped like `dst`, same pitch) with `poison`, calls launch(in, out, scratch, stream) with
// `scratch_bytes` of scratch, downloads into `dst` and synchronizes.
template <class Launch>
void run_image_kernel(ImageView<const std::uint8_t> src, ImageView<std::uint8_t> dst,
                      std::uint8_t poison, std::size_t scratch_bytes, Launch&& launch) {
  cuda::Stream stream;
  const DeviceImage8 in = upload_image8(src, stream.get());
  const DeviceImage8 out = make_device_image8(dst.width, dst.height, dst.pitch);
  fill_image8(out.view, poison, stream.get());
  const OwnedScratch scratch = make_scratch(scratch_bytes);
  launch(ImageView<const std::uint8_t>(in.view), out.view, scratch.span(), stream.get());
  download_image8(out.view, dst, stream.get());
  stream.synchronize();
}

// The rest of a registered kernel's image -> image host entry point, after its own input
// checks, in this order: refuses a `dst` whose size differs from `src` (InvalidArgument
// `size_message`), looks `options.variant` up in `registry` (unknown names refused there),
// requires a device (require_device(kernel)), then runs
// row.launch(in, param, out, scratch, stream) through run_image_kernel.
template <class Registry, class Param>
void run_registered_kernel(const Registry& registry, const char* kernel, const char* size_message,
                           ImageView<const std::uint8_t> src, const Param& param,
                           ImageView<std::uint8_t> dst, const CudaRunOptions& options,
                           std::size_t scratch_bytes) {
  if (dst.width != src.width || dst.height != src.height) throw InvalidArgument(size_message);
  const auto& row = registry.find(options.variant);
  require_device(kernel);
  run_image_kernel(
      src, dst, options.poison, scratch_bytes,
      [&](ImageView<const std::uint8_t> in, ImageView<std::uint8_t> out, DeviceScratch scratch,
          cudaStream_t stream) { row.launch(in, param, out, scratch, stream); });
}

// The allocating form of an image -> image entry point: a new image shaped like `src`, written
// by fill(view of it).
template <class Fill>
Image<std::uint8_t> image_filled_by(ImageView<const std::uint8_t> src, Fill&& fill) {
  Image<std::uint8_t> out(src.width, src.height);
  fill(out.view());
  return out;
}

// Carves aligned sub-buffers out of a DeviceScratch; throws InvalidArgument when it is too
// small for what the caller takes.
class ScratchCarver {
 public:
  ScratchCarver(DeviceScratch scratch, const char* kernel) : scratch_(scratch), kernel_(kernel) {}
  void* take(std::size_t bytes);
  template <class T>
  T* take(std::size_t count) {
    return static_cast<T*>(take(count * sizeof(T)));
  }
  // Bytes `take` needs for `bytes`, including the alignment padding.
  static std::size_t padded(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

 private:
  static constexpr std::size_t kAlign = 256;
  DeviceScratch scratch_;
  std::size_t used_ = 0;
  const char* kernel_;
};

}  // namespace mad::kernels
