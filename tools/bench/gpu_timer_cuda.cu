// time_gpu (gpu_timer_cuda.h): the one CUDA-event timing loop of `mad bench`.
#include "tools/bench/gpu_timer_cuda.h"

#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/error.h"
#include "common/launch_log.h"
#include "common/launch_resources_cuda.h"

namespace mad::bench {

std::size_t l2_cache_bytes() {
  int device = 0, l2 = 0;
  MAD_CUDA_CHECK(cudaGetDevice(&device));
  MAD_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(l2);
}

Measurement time_gpu(cudaStream_t stream, const GpuTimerOptions& o,
                     const std::function<void(int)>& launch, const std::function<void()>& prepare) {
  if (o.runs < 1 || o.warmup < 0) throw InvalidArgument("time_gpu: runs must be >= 1, warmup >= 0");
  // Per call: no device memory outlives the measurement.
  const cuda::DeviceBuffer<unsigned char> flush(o.flush_l2 ? 2 * l2_cache_bytes() : 0);
  auto before_run = [&] {
    if (prepare) prepare();
    if (o.flush_l2) MAD_CUDA_CHECK(cudaMemsetAsync(flush.get(), 0, flush.bytes(), stream));
  };
  // The first call (a warm-up one unless warmup = 0) runs inside a launch log: its kernels'
  // resources are looked up after the timing, so the queries time nothing.
  std::vector<LaunchRecord> launches;
  auto call = [&](int i) {
    if (i != 0) return launch(i);
    const LaunchLogScope log;
    launch(i);
    launches = log.records();
  };
  for (int i = 0; i < o.warmup; ++i) {
    if (prepare) prepare();
    call(i);
  }
  MAD_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<cuda::Event> start(o.runs), stop(o.runs);
  for (int r = 0; r < o.runs; ++r) {
    before_run();
    start[r].record(stream);
    call(o.warmup + r);
    stop[r].record(stream);
    if (!o.back_to_back) stop[r].synchronize();
  }
  stop.back().synchronize();
  std::vector<double> ms;
  for (int r = 0; r < o.runs; ++r) ms.push_back(stop[r].elapsed_ms_since(start[r]));
  Measurement m = summarize(std::move(ms), o.warmup);
  m.kernels = cuda::resources_of(launches);
  return m;
}

}  // namespace mad::bench
