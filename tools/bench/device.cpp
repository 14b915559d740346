// The device side of `mad bench`: what the GPU is (name, driver, clocks, bandwidth and FLOP
// ceilings) and how long host<->device copies take. CUDA-only parts are guarded; a CPU-only
// build reports the host alone.
//
// Ceilings. The copy bandwidth is MEASURED in the same run: cudaMemcpyAsync device to device of
// 1 GiB (64 MiB with --quick), timed with events, median of 10 copies, counting every byte
// read and every byte written (2 x size / time), the same rule by which the kernels' bytes are
// counted. The theoretical DRAM bandwidth (2 x memory clock x bus width) is printed beside it.
// The peak FLOP rate is an ESTIMATE: SMs x SM clock x lanes per SM x 2 (one FMA = 2 FLOPs),
// with the FP32/FP64 lanes per SM of the compute capability (CUDA C++ Programming Guide,
// throughput of native arithmetic instructions); unknown architectures count 128 / 2.
#include <algorithm>
#include <fstream>
#include <map>
#include <tuple>

#include "common/gpu_info.h"
#include "common/parallel.h"
#include "tools/bench/runners.h"

#ifdef MAD_HAVE_CUDA
#include <cuda_runtime.h>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "tools/bench/gpu_timer_cuda.h"
#endif

namespace mad::bench {
namespace {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      return line.substr(line.find(':') + 2);
  return "";
}

#ifdef MAD_HAVE_CUDA
void lanes_per_sm(int major, int minor, int& fp32, int& fp64) {
  const int cc = 10 * major + minor;
  if (cc == 60)
    fp32 = 64, fp64 = 32;  // P100
  else if (cc == 70 || cc == 72 || cc == 80)
    fp32 = 64, fp64 = 32;  // V100, A100
  else if (cc == 90 || cc == 100 || cc == 103)
    fp32 = 128, fp64 = 64;  // H100/H200, B200
  else if (cc == 75)
    fp32 = 64, fp64 = 2;
  else
    fp32 = 128, fp64 = 2;  // consumer parts (6.1, 8.6, 8.9, 12.x) and unknown ones
}

std::string version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// Median of `runs` event-timed copies of `bytes` from src to dst; one untimed copy first.
double time_copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t s,
                 int runs) {
  GpuTimerOptions o;
  o.warmup = 1;
  o.runs = std::max(1, runs);
  return time_gpu(s, o, [&](int) { MAD_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s)); })
      .median_ms;
}
#endif

}  // namespace

DeviceInfo probe_device(bool measure, bool quick) {
  DeviceInfo d;
  d.cpu_name = cpu_model_name();
  d.cpu_threads = thread_count();
#ifdef MAD_HAVE_CUDA
  if (!gpu_device_available()) return d;
  int dev = 0, driver = 0, runtime = 0, clock_khz = 0, mem_khz = 0;
  cudaDeviceProp prop{};
  MAD_CUDA_CHECK(cudaGetDevice(&dev));
  MAD_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  MAD_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  MAD_CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
  MAD_CUDA_CHECK(cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
  MAD_CUDA_CHECK(cudaDriverGetVersion(&driver));
  MAD_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  d.gpu = true;
  d.name = prop.name;
  d.description = gpu_device_description();
  d.driver = version_string(driver);
  d.runtime = version_string(runtime);
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.memory_bytes = static_cast<double>(prop.totalGlobalMem);
  d.l2_bytes = static_cast<double>(prop.l2CacheSize);
  d.sm_clock_mhz = clock_khz * 1e-3;
  d.mem_clock_mhz = mem_khz * 1e-3;
  d.peak_bandwidth_gbps = 2.0 * mem_khz * 1e3 * (d.bus_width_bits / 8.0) * 1e-9;
  lanes_per_sm(d.cc_major, d.cc_minor, d.fp32_lanes, d.fp64_lanes);
  d.peak_fp32_gflops = d.sm_count * d.sm_clock_mhz * 1e-3 * d.fp32_lanes * 2;
  d.peak_fp64_gflops = d.sm_count * d.sm_clock_mhz * 1e-3 * d.fp64_lanes * 2;
  if (measure) {
    std::size_t free_b = 0, total_b = 0;
    MAD_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    const std::size_t bytes = std::min<std::size_t>(quick ? (64u << 20) : (1u << 30), free_b / 4);
    const cuda::Stream stream;
    const cuda::DeviceBuffer<unsigned char> a(bytes), b(bytes);
    MAD_CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, stream.get()));
    const double ms =
        time_copy(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice, stream.get(), 10);
    d.copy_bandwidth_gbps = 2.0 * bytes / (ms * 1e-3) * 1e-9;
  }
#else
  (void)measure;
  (void)quick;
#endif
  return d;
}

struct TransferTimer::Impl {
  int runs = 1;
  std::map<std::tuple<std::size_t, bool, bool>, double> cache;  // (bytes, to device, pinned)
#ifdef MAD_HAVE_CUDA
  std::unique_ptr<cuda::Stream> stream;
  std::vector<unsigned char> pageable;
  cuda::PinnedBuffer<unsigned char> pinned;
  cuda::DeviceBuffer<unsigned char> device;

  double measure(std::size_t bytes, bool to_device, bool use_pinned) {
    if (bytes == 0) return 0.0;
    const auto key = std::make_tuple(bytes, to_device, use_pinned);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
    if (!stream) stream = std::make_unique<cuda::Stream>();
    if (pageable.size() < bytes) pageable.assign(bytes, 1);  // touched: no first-use page faults
    if (pinned.size() < bytes) pinned = cuda::PinnedBuffer<unsigned char>(bytes);
    if (device.size() < bytes) device = cuda::DeviceBuffer<unsigned char>(bytes);
    void* host =
        use_pinned ? static_cast<void*>(pinned.get()) : static_cast<void*>(pageable.data());
    const double ms =
        to_device
            ? time_copy(device.get(), host, bytes, cudaMemcpyHostToDevice, stream->get(), runs)
            : time_copy(host, device.get(), bytes, cudaMemcpyDeviceToHost, stream->get(), runs);
    return cache[key] = ms;
  }
#endif
};

TransferTimer::TransferTimer(int runs) : impl_(std::make_unique<Impl>()) {
  impl_->runs = runs;
}
TransferTimer::~TransferTimer() = default;

void TransferTimer::fill(BenchRow& row) {
#ifdef MAD_HAVE_CUDA
  if (!gpu_device_available()) return;
  const auto in = static_cast<std::size_t>(present(row.bytes_in) ? row.bytes_in : 0);
  const auto out = static_cast<std::size_t>(present(row.bytes_out) ? row.bytes_out : 0);
  row.h2d_pageable_ms = impl_->measure(in, true, false);
  row.h2d_pinned_ms = impl_->measure(in, true, true);
  row.d2h_pageable_ms = impl_->measure(out, false, false);
  row.d2h_pinned_ms = impl_->measure(out, false, true);
#else
  (void)row;
#endif
}

}  // namespace mad::bench
