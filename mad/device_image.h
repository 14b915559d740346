// An image in CUDA device memory owned by the caller (a torch tensor, a CuPy array), scored
// without a host copy. CUDA-free: the stream travels as an opaque handle.
//
// The GPU pipeline gathers such an image with its strides straight into its own buffers, on
// its slot's stream, after waiting for `stream` (so work the caller queued there comes first);
// `stream` then waits for the gather, so the caller may overwrite the image afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mad {

enum class DeviceDtype { U8, U16, F32, F64 };

struct DeviceImage {
  const void* data = nullptr;  // sample (0, 0, 0), on device `device`
  DeviceDtype dtype = DeviceDtype::U8;
  int width = 0, height = 0;
  int channels = 1;  // 1 (gray) or, for U8 only, 3 or 4 (RGB(A); alpha ignored)
  // Strides in ELEMENTS (not bytes); any sign.
  std::ptrdiff_t row_stride = 0, col_stride = 1, channel_stride = 1;
  int device = 0;
  std::uintptr_t stream = 0;  // cudaStream_t of the caller (0: the legacy default stream)

  // The file rule the samples follow: 8 for U8, 16 for U16, 32/64 for floats (spec §14: only
  // 8-bit data gets uint8 luminance under InputClass::Auto).
  int bit_depth() const;
};

// Throws InputError naming `what` when the image cannot be scored on the device: empty, or
// colour in anything but uint8 (the device has a gray conversion bit-identical to
// common/'s only for 8-bit samples: kernels/gray_formula.h).
void validate_device_image(const DeviceImage& image, const std::string& what);

// Bytes the GPU pipeline has copied host->device and device->host since the process started
// (all scorers, all devices). A device image adds nothing to `h2d`; each pair reads back 16
// bytes of sums (plus its maps when asked). Kept where the copies are made,
// mad/backends/pair_slot_cuda.cu (zeros in a build without the CUDA backend).
struct TransferCounters {
  std::uint64_t h2d_bytes = 0, d2h_bytes = 0;
};
TransferCounters gpu_transfer_counters();
// Called by the GPU pipeline for every copy it enqueues.
void add_gpu_transfer(std::uint64_t h2d_bytes, std::uint64_t d2h_bytes);

}  // namespace mad
