// Move-only RAII owners for every CUDA resource the project uses. No raw cudaFree elsewhere.
// Include only from CUDA-enabled sources (the header needs cuda_runtime.h, not nvcc).
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "common/cuda_check.h"

namespace mad::cuda {

// Where a CudaBuffer's memory lives: how it is allocated (throwing CudaError on failure) and
// freed.
struct DeviceMemory {  // linear device memory
  template <class T>
  static void allocate(T** ptr, std::size_t bytes) {
    MAD_CUDA_CHECK(cudaMalloc(ptr, bytes));
  }
  static void release(void* ptr) noexcept { cudaFree(ptr); }
};
struct PinnedHostMemory {  // page-locked host memory (staging for asynchronous copies)
  template <class T>
  static void allocate(T** ptr, std::size_t bytes) {
    MAD_CUDA_CHECK(cudaMallocHost(ptr, bytes));
  }
  static void release(void* ptr) noexcept { cudaFreeHost(ptr); }
};

// `count` elements of T in the memory `Memory` names; DeviceBuffer and PinnedBuffer below.
template <class T, class Memory>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  explicit CudaBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) Memory::allocate(&ptr_, count_ * sizeof(T));
  }
  ~CudaBuffer() { reset(); }
  CudaBuffer(CudaBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  CudaBuffer& operator=(CudaBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  void reset() noexcept {
    if (ptr_) Memory::release(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// Linear device memory of `count` elements of T.
template <class T>
using DeviceBuffer = CudaBuffer<T, DeviceMemory>;
// Page-locked host memory (staging for asynchronous copies).
template <class T>
using PinnedBuffer = CudaBuffer<T, PinnedHostMemory>;

// A new device buffer holding a copy of `host`, made on `stream` and synchronized, so `host` may
// go away at once (setup of tests and benchmarks; the scoring path stages through PinnedBuffer).
template <class T>
DeviceBuffer<T> upload(const std::vector<T>& host, cudaStream_t stream) {
  DeviceBuffer<T> d(host.size());
  MAD_CUDA_CHECK(cudaMemcpyAsync(d.get(), host.data(), host.size() * sizeof(T),
                                 cudaMemcpyHostToDevice, stream));
  MAD_CUDA_CHECK(cudaStreamSynchronize(stream));
  return d;
}

// Move-only owner of one CUDA or cuFFT handle, released with `Destroy` (Stream, Event, FftPlan).
// The derived constructor creates the handle into h_ and then sets owned_; a moved-from owner
// holds Handle{} and releases nothing.
template <class Handle, auto Destroy>
class OwnedHandle {
 public:
  OwnedHandle(OwnedHandle&& o) noexcept
      : h_(std::exchange(o.h_, Handle{})), owned_(std::exchange(o.owned_, false)) {}
  OwnedHandle& operator=(OwnedHandle&& o) noexcept {
    if (this != &o) {
      release();
      h_ = std::exchange(o.h_, Handle{});
      owned_ = std::exchange(o.owned_, false);
    }
    return *this;
  }
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;
  Handle get() const { return h_; }

 protected:
  OwnedHandle() = default;
  ~OwnedHandle() { release(); }
  Handle h_{};
  bool owned_ = false;

 private:
  void release() noexcept {
    if (owned_) Destroy(h_);
  }
};

class Stream : public OwnedHandle<cudaStream_t, cudaStreamDestroy> {
 public:
  Stream() {
    MAD_CUDA_CHECK(cudaStreamCreateWithFlags(&h_, cudaStreamNonBlocking));
    owned_ = true;
  }
  void synchronize() const { MAD_CUDA_CHECK(cudaStreamSynchronize(h_)); }
};

class Event : public OwnedHandle<cudaEvent_t, cudaEventDestroy> {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {
    MAD_CUDA_CHECK(cudaEventCreateWithFlags(&h_, flags));
    owned_ = true;
  }
  void record(cudaStream_t s) const { MAD_CUDA_CHECK(cudaEventRecord(h_, s)); }
  void synchronize() const { MAD_CUDA_CHECK(cudaEventSynchronize(h_)); }
  // Milliseconds from `start` to this event (both recorded and complete).
  float elapsed_ms_since(const Event& start) const {
    float ms = 0.f;
    MAD_CUDA_CHECK(cudaEventElapsedTime(&ms, start.h_, h_));
    return ms;
  }
};

// Owner of a cufftHandle (created with cufftCreate; configured by the caller). The handle is an
// integer that may be 0, so ownership is the flag, not the value.
class FftPlan : public OwnedHandle<cufftHandle, cufftDestroy> {
 public:
  FftPlan() {
    MAD_CUFFT_CHECK(cufftCreate(&h_));
    owned_ = true;
  }
};

// A stream's work captured once into an executable CUDA graph, replayed with one launch: one
// host call instead of one per kernel and cuFFT transform. Empty until capture() fills it.
class GraphExec : public OwnedHandle<cudaGraphExec_t, cudaGraphExecDestroy> {
 public:
  GraphExec() = default;
  bool empty() const { return !owned_; }
  // Runs `enqueue` with `stream` capturing (thread-local mode: other threads' CUDA calls go on
  // as usual) and instantiates what it queued. Nothing runs on the device. When `enqueue`
  // throws, the capture is ended and discarded before the exception goes on.
  template <class Enqueue>
  static GraphExec capture(cudaStream_t stream, Enqueue&& enqueue) {
    MAD_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    cudaGraph_t graph = nullptr;
    try {
      enqueue();
    } catch (...) {
      if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph) cudaGraphDestroy(graph);
      throw;
    }
    MAD_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    GraphExec exec;
    const cudaError_t instantiated = cudaGraphInstantiate(&exec.h_, graph, 0);
    cudaGraphDestroy(graph);
    MAD_CUDA_CHECK(instantiated);
    exec.owned_ = true;
    return exec;
  }
  void launch(cudaStream_t stream) const { MAD_CUDA_CHECK(cudaGraphLaunch(h_, stream)); }
};

// Whether captured graphs may be used: a MAD_CUDA_DEBUG_SYNC build synchronizes after every
// launch, which a capturing stream refuses.
#ifdef MAD_CUDA_DEBUG_SYNC
inline constexpr bool kGraphsAllowed = false;
#else
inline constexpr bool kGraphsAllowed = true;
#endif

// True when at least one CUDA device is usable (never throws: no driver, no device -> false).
bool device_available();

}  // namespace mad::cuda
