// Nick, O(1) per pixel: exact uint64 integral images of p and p^2, then four lookups per sum.
// The time does not grow with the window (the seeds' methods grow as w^2).
//
//   1. row scan     one 256-thread block per row: cub::BlockScan over the row in chunks of
//                   256, carrying the running total; writes row y + 1 of both integrals;
//   2. column scan  one thread per column walks down the rows (coalesced across threads);
//   3. threshold    one thread per pixel (32x8 blocks): window sums from the integrals, then
//                   nick_decide_device.
// Integral layout: (height + 1) x (width + 1), row 0 and column 0 zero, so I(y, x) is the sum
// over rows < y and columns < x. Unsigned wrap-around in the four-term difference is harmless:
// the true result is a small non-negative number.
#include <cub/block/block_scan.cuh>

#include <algorithm>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "kernels/device_image_cuda.h"
#include "kernels/nick_launch_cuda.h"
#include "kernels/nick_threshold.cuh"

namespace mad::kernels::nick_detail {
namespace {

constexpr int kScanThreads = 256;
constexpr int kBx = 32, kBy = 8;
constexpr int kMaxGridY = 65535;

struct Sums {
  unsigned long long s, s2;
};
struct AddSums {
  __device__ Sums operator()(const Sums& a, const Sums& b) const {
    return {a.s + b.s, a.s2 + b.s2};
  }
};

__global__ void nick_row_scan_kernel(ImageView<const std::uint8_t> src, unsigned long long* isum,
                                     unsigned long long* isq, long long ipitch) {
  using BlockScan = cub::BlockScan<Sums, kScanThreads>;
  __shared__ typename BlockScan::TempStorage temp;
  const int y = blockIdx.x;
  const std::uint8_t* row = src.data + static_cast<std::ptrdiff_t>(y) * src.pitch;
  unsigned long long* out_sum = isum + (y + 1) * ipitch;
  unsigned long long* out_sq = isq + (y + 1) * ipitch;
  if (threadIdx.x == 0) out_sum[0] = out_sq[0] = 0;
  Sums carry{0, 0};
  for (int x0 = 0; x0 < src.width; x0 += kScanThreads) {  // uniform trip count
    const int x = x0 + threadIdx.x;
    const unsigned long long p = x < src.width ? row[x] : 0;
    Sums inclusive, total;
    BlockScan(temp).InclusiveScan(Sums{p, p * p}, inclusive, AddSums{}, total);
    if (x < src.width) {
      out_sum[x + 1] = carry.s + inclusive.s;
      out_sq[x + 1] = carry.s2 + inclusive.s2;
    }
    carry = AddSums{}(carry, total);
    __syncthreads();  // temp is reused by the next chunk
  }
}

__global__ void nick_column_scan_kernel(int width, int height, unsigned long long* isum,
                                        unsigned long long* isq, long long ipitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x + 1;  // column 0 stays zero
  if (x > width) return;
  unsigned long long acc_sum = 0, acc_sq = 0;
  for (int y = 1; y <= height; ++y) {
    const long long i = y * ipitch + x;
    acc_sum += isum[i];
    acc_sq += isq[i];
    isum[i] = acc_sum;
    isq[i] = acc_sq;
  }
}

__global__ void nick_integral_threshold_kernel(ImageView<const std::uint8_t> src,
                                               const unsigned long long* isum,
                                               const unsigned long long* isq, long long ipitch,
                                               int before, int after, double k,
                                               ImageView<std::uint8_t> mask) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= src.width) return;
  const int x0 = max(0, x - before), x1 = min(src.width - 1, x + after) + 1;  // x1: exclusive
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < src.height; y += gridDim.y * blockDim.y) {
    const int y0 = max(0, y - before), y1 = min(src.height - 1, y + after) + 1;
    const long long a = y0 * ipitch + x0, b = y0 * ipitch + x1, c = y1 * ipitch + x0,
                    d = y1 * ipitch + x1;
    const unsigned long long sum = isum[d] - isum[b] - isum[c] + isum[a];
    const unsigned long long sum_sq = isq[d] - isq[b] - isq[c] + isq[a];
    const unsigned count = static_cast<unsigned>((y1 - y0) * (x1 - x0));
    const unsigned p = src.data[static_cast<std::ptrdiff_t>(y) * src.pitch + x];
    mask.data[static_cast<std::ptrdiff_t>(y) * mask.pitch + x] =
        nick_decide_device(p, sum, sum_sq, count, k);
  }
}

std::size_t integral_elements(int width, int height) {
  return (static_cast<std::size_t>(width) + 1) * (static_cast<std::size_t>(height) + 1);
}

}  // namespace

void launch_integral(ImageView<const std::uint8_t> src, const NickParams& params,
                     ImageView<std::uint8_t> mask, DeviceScratch scratch, cudaStream_t s) {
  check_launch(src, params, mask);
  const long long ipitch = static_cast<long long>(src.width) + 1;
  ScratchCarver carver(scratch, "nick (integral)");
  auto* isum = carver.take<unsigned long long>(integral_elements(src.width, src.height));
  auto* isq = carver.take<unsigned long long>(integral_elements(src.width, src.height));
  MAD_CUDA_CHECK(cudaMemsetAsync(isum, 0, ipitch * sizeof(unsigned long long), s));  // row 0
  MAD_CUDA_CHECK(cudaMemsetAsync(isq, 0, ipitch * sizeof(unsigned long long), s));
  cuda::launch_kernel(nick_row_scan_kernel, src.height, kScanThreads, 0, s, src, isum, isq, ipitch);
  MAD_CUDA_CHECK_LAUNCH();
  cuda::launch_kernel(nick_column_scan_kernel, (src.width + kScanThreads - 1) / kScanThreads,
                      kScanThreads, 0, s, src.width, src.height, isum, isq, ipitch);
  MAD_CUDA_CHECK_LAUNCH();
  const dim3 grid((src.width + kBx - 1) / kBx, std::min((src.height + kBy - 1) / kBy, kMaxGridY));
  cuda::launch_kernel(nick_integral_threshold_kernel, grid, dim3(kBx, kBy), 0, s, src, isum, isq,
                      ipitch, nick_before(params), nick_after(params), params.k, mask);
  MAD_CUDA_CHECK_LAUNCH();
}

}  // namespace mad::kernels::nick_detail

namespace mad::kernels {

std::size_t nick_scratch_bytes(int width, int height) {
  return 2 * ScratchCarver::padded(nick_detail::integral_elements(width, height) *
                                   sizeof(unsigned long long));
}

}  // namespace mad::kernels
