// The transient scratch and cuFFT work area of one GPU stage object (common/stage_scratch.h):
// allocated by the stage itself (ScratchMode::Own) or lent by its owner after construction
// (ScratchMode::Lent). The stage carves its arrays out of transient() and points its plans at
// fft_work() once both are there.
//
// CUDA-only header (needs cuda_runtime.h and cufft.h, carries no nvcc syntax).
#pragma once

#include <cufft.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/error.h"
#include "common/stage_scratch.h"

namespace mad::cuda {

class StageScratch {
 public:
  // With auto-allocation off, a cuFFT plan must always be given a work area, even one of 0 bytes.
  static constexpr std::size_t kMinWork = 256;

  StageScratch() = default;
  // The sizes the stage needs; Own allocates them here (throws GpuError on failure).
  StageScratch(ScratchMode mode, std::size_t transient_bytes, std::size_t fft_work_bytes)
      : transient_bytes_(transient_bytes), fft_work_bytes_(fft_work_bytes) {
    if (mode == ScratchMode::Own) {
      own_transient_ = DeviceBuffer<unsigned char>(transient_bytes_);
      own_work_ = DeviceBuffer<unsigned char>(std::max(fft_work_bytes_, kMinWork));
      transient_ = own_transient_.get();
      work_ = own_work_.get();
    }
  }

  std::size_t transient_bytes() const { return transient_bytes_; }
  std::size_t fft_work_bytes() const { return fft_work_bytes_; }
  void* transient() const { return transient_; }
  void* fft_work() const { return work_; }
  bool ready() const { return transient_ && work_; }
  // Device bytes allocated here (0 when lent).
  std::size_t owned_bytes() const { return own_transient_.bytes() + own_work_.bytes(); }

  // ScratchMode::Lent: takes the owner's regions. Throws InvalidArgument naming `stage` when
  // the scratch is its own or a region is null.
  void lend(void* transient, void* fft_work, const char* stage) {
    if (own_work_.size() != 0)
      throw InvalidArgument(std::string(stage) + "::lend_scratch: the stage owns its scratch");
    if (!transient || !fft_work)
      throw InvalidArgument(std::string(stage) + "::lend_scratch: null region");
    transient_ = transient;
    work_ = fft_work;
  }
  // Throws InvalidArgument naming `stage` until the regions are there (a lent stage's calls
  // before lend_scratch).
  void require(const char* stage) const {
    if (!ready())
      throw InvalidArgument(std::string(stage) + ": scratch not lent before the first call");
  }
  // Points every plan at the work area (the plans run one after another on one stream).
  void attach(std::initializer_list<cufftHandle> plans) const {
    for (cufftHandle plan : plans) MAD_CUFFT_CHECK(cufftSetWorkArea(plan, work_));
  }

 private:
  std::size_t transient_bytes_ = 0, fft_work_bytes_ = 0;
  DeviceBuffer<unsigned char> own_transient_, own_work_;
  void* transient_ = nullptr;
  void* work_ = nullptr;
};

}  // namespace mad::cuda
