// Move-only RAII owners for every CUDA resource the project uses. No raw cudaFree elsewhere.
// Include only from CUDA-enabled sources (the header needs cuda_runtime.h, not nvcc).
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

#include <cstddef>
#include <utility>

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

// Move-only owner of one CUDA runtime handle, released with `Destroy` (Stream, Event).
template <class Handle, cudaError_t (*Destroy)(Handle)>
class OwnedHandle {
 public:
  OwnedHandle(OwnedHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  OwnedHandle& operator=(OwnedHandle&& o) noexcept {
    if (this != &o) {
      if (h_) Destroy(h_);
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  OwnedHandle(const OwnedHandle&) = delete;
  OwnedHandle& operator=(const OwnedHandle&) = delete;
  Handle get() const { return h_; }

 protected:
  OwnedHandle() = default;  // the derived constructor creates the handle into h_
  ~OwnedHandle() {
    if (h_) Destroy(h_);
  }
  Handle h_ = nullptr;
};

class Stream : public OwnedHandle<cudaStream_t, cudaStreamDestroy> {
 public:
  Stream() { MAD_CUDA_CHECK(cudaStreamCreateWithFlags(&h_, cudaStreamNonBlocking)); }
  void synchronize() const { MAD_CUDA_CHECK(cudaStreamSynchronize(h_)); }
};

class Event : public OwnedHandle<cudaEvent_t, cudaEventDestroy> {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {
    MAD_CUDA_CHECK(cudaEventCreateWithFlags(&h_, flags));
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

// Owner of a cufftHandle (created with cufftCreate; configured by the caller).
class FftPlan {
 public:
  FftPlan() { MAD_CUFFT_CHECK(cufftCreate(&h_)); }
  ~FftPlan() {
    if (valid_) cufftDestroy(h_);
  }
  FftPlan(FftPlan&& o) noexcept : h_(o.h_), valid_(std::exchange(o.valid_, false)) {}
  FftPlan& operator=(FftPlan&& o) noexcept {
    if (this != &o) {
      if (valid_) cufftDestroy(h_);
      h_ = o.h_;
      valid_ = std::exchange(o.valid_, false);
    }
    return *this;
  }
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  cufftHandle get() const { return h_; }

 private:
  cufftHandle h_ = 0;
  bool valid_ = true;
};

// True when at least one CUDA device is usable (never throws: no driver, no device -> false).
bool device_available();

}  // namespace mad::cuda
