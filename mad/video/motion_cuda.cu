// ST-MAD's motion accumulation on the GPU (motion_cuda.h). Compiled with -fmad=false
// (mad/CMakeLists.txt): motion_solve.h's sums and solve must round as the host's do.
#include "mad/video/motion_cuda.h"

#include <cstring>

#include "common/cuda_check.h"
#include "common/kernel_launch.cuh"
#include "mad/video/motion_solve.h"

namespace mad::video {
namespace {

// One thread per window (I, J): its 64-pixel sums in the CPU's row-major order, the 2x2 solve,
// and V_t added to the window's running sum. Frames come one at a time in order, so each sum
// takes its terms in t order, as on the CPU. 8x8 windows over 1080p: 32,400 threads.
__global__ void accumulate_speed_kernel(const double* current, const double* previous, int width,
                                        int window_rows, int window_cols, double* sums) {
  const int J = blockIdx.x * blockDim.x + threadIdx.x;
  const int I = blockIdx.y;
  if (J >= window_cols || I >= window_rows) return;
  sums[static_cast<std::size_t>(I) * window_cols + J] +=
      squared_speed(window_flow(window_sums(current, previous, width, I, J)));
}

// The crop's samples widened by LumaFrame::value's rule: 8-bit as they are, deeper ones times 255
// over 2^depth - 1 (the product exact, then one rounded division: the host's bits, with
// -fmad=false keeping the two operations apart).
__global__ void widen_crop_kernel(const std::uint8_t* samples, int bit_depth, std::size_t count,
                                  double* crop) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (bit_depth <= 8) {
    crop[i] = samples[i];
  } else {
    const std::uint16_t v = reinterpret_cast<const std::uint16_t*>(samples)[i];
    crop[i] = static_cast<double>(v) * 255.0 / static_cast<double>((1u << bit_depth) - 1u);
  }
}

}  // namespace

MotionCuda::MotionCuda(const MotionGrid& grid)
    : grid_(grid),
      frames_{cuda::DeviceBuffer<double>(grid.pixels()), cuda::DeviceBuffer<double>(grid.pixels())},
      sums_(grid.windows()) {
  MAD_CUDA_CHECK(cudaMemsetAsync(sums_.get(), 0, sums_.bytes(), stream_.get()));
}

MotionCuda::~MotionCuda() {
  cudaStreamSynchronize(stream_.get());  // in a destructor: an error was or will be reported
}

void MotionCuda::add_frame(const std::vector<double>& crop) {
  if (crop.size() != grid_.pixels()) throw InternalError("motion crop of the wrong size");
  const int next = frames_added_ == 0 ? current_ : 1 - current_;
  // From pageable memory: the call returns once the source is staged, so the caller may reuse it.
  MAD_CUDA_CHECK(cudaMemcpyAsync(frames_[next].get(), crop.data(), crop.size() * sizeof(double),
                                 cudaMemcpyHostToDevice, stream_.get()));
  accumulate(next);
}

void MotionCuda::add_luma(const LumaFrame& frame, const MotionGrid& grid) {
  if (grid.pixels() != grid_.pixels() || frame.width < grid_.width() ||
      frame.height < grid_.height())
    throw InternalError("motion frame of the wrong size");
  const std::size_t sample_bytes = frame.bit_depth <= 8 ? 1 : 2;
  const std::size_t bytes = grid_.pixels() * sample_bytes;
  if (staging_.size() == 0) {
    staging_ = cuda::PinnedBuffer<std::uint8_t>(2 * grid_.pixels());
    samples_ = cuda::DeviceBuffer<std::uint8_t>(2 * grid_.pixels());
  }
  // The previous frame's upload must have left the staging before it is overwritten.
  if (staged_recorded_) staged_.synchronize();
  const auto* rows = frame.bit_depth <= 8
                         ? frame.samples8.data()
                         : reinterpret_cast<const std::uint8_t*>(frame.samples16.data());
  const std::size_t row_bytes = static_cast<std::size_t>(grid_.width()) * sample_bytes;
  const std::size_t pitch = static_cast<std::size_t>(frame.width) * sample_bytes;
  for (int y = 0; y < grid_.height(); ++y)
    std::memcpy(staging_.get() + y * row_bytes, rows + y * pitch, row_bytes);
  const int next = frames_added_ == 0 ? current_ : 1 - current_;
  MAD_CUDA_CHECK(cudaMemcpyAsync(samples_.get(), staging_.get(), bytes, cudaMemcpyHostToDevice,
                                 stream_.get()));
  staged_.record(stream_.get());
  staged_recorded_ = true;
  constexpr int kThreads = 256;
  const auto blocks = static_cast<unsigned>((grid_.pixels() + kThreads - 1) / kThreads);
  cuda::launch_kernel(widen_crop_kernel, dim3(blocks), dim3(kThreads), 0, stream_.get(),
                      samples_.get(), frame.bit_depth, grid_.pixels(), frames_[next].get());
  MAD_CUDA_CHECK_LAUNCH();
  accumulate(next);
}

void MotionCuda::accumulate(int next) {
  if (frames_added_ > 0) {
    constexpr int kThreads = 64;
    const dim3 grid((grid_.window_cols + kThreads - 1) / kThreads, grid_.window_rows);
    cuda::launch_kernel(accumulate_speed_kernel, grid, dim3(kThreads), 0, stream_.get(),
                        frames_[next].get(), frames_[current_].get(), grid_.width(),
                        grid_.window_rows, grid_.window_cols, sums_.get());
    MAD_CUDA_CHECK_LAUNCH();
    ++pairs_;
  }
  current_ = next;
  ++frames_added_;
}

std::vector<double> MotionCuda::speed_sums() {
  std::vector<double> host(grid_.windows());
  MAD_CUDA_CHECK(cudaMemcpyAsync(host.data(), sums_.get(), sums_.bytes(), cudaMemcpyDeviceToHost,
                                 stream_.get()));
  stream_.synchronize();
  return host;
}

std::unique_ptr<MotionAccumulator> make_motion_accumulator_cuda(const MotionGrid& grid) {
  return std::make_unique<MotionCuda>(grid);
}

}  // namespace mad::video
