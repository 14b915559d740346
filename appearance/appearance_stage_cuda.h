// The appearance stage ("lo_index", spec §4) on the GPU, as an object built for one image shape
// (STYLE.md rule 3). Real = double is the faithful mode, Real = float the fast mode.
//
// Per image: raw -> R2C FFT (in place, half spectrum) -> per scale (5 batches of the 4
// orientations) the subband transform (appearance/subband_transform.h): "cufft" multiplies by
// the filters, writing the batch's 4 full spectra F(k) * G_s(k) * A_o(k), runs one batched
// inverse C2C FFT and lets A5 form the modulus and 1/(MN) as it loads; "fused" does the
// product, the inverse and the modulus in two passes of its own (subband_fft_cuda.h) -> A5
// block statistics. The reference's 20x3 statistic grids are kept (spec §11, "dataset trick"); each
// distorted image adds its weighted differences into eta_lo (§4.5, scale-outer,
// orientation-inner) and the sum of eta_lo^2 over the crop (§4.6) is reduced in a fixed order.
//
// Threading: one object serves one stream at a time (its scratch is shared by all calls).
// Every call only enqueues work on the stream it is given; nothing synchronises, nothing
// allocates after construction. Calls on different streams must be ordered by the caller.
//
// Memory: the reference's statistics are kept between calls and owned. The half spectrum, the
// 4 subbands, the distorted statistics, eta and the cuFFT work area are needed only during a
// call (each call writes them before it reads them): with ScratchMode::Lent they are borrowed
// from the owner (common/stage_scratch.h), who may use them for other work on the same stream
// between this stage's calls.
//
// CUDA-only header (needs cuda_runtime.h / cufft.h, carries no nvcc syntax).
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "appearance/a5_variants_cuda.h"
#include "appearance/log_gabor_cuda.h"
#include "appearance/subband_fft_cuda.h"
#include "appearance/subband_transform.h"
#include "common/block_grid.h"
#include "common/cuda_resources.h"
#include "common/stage_scratch_cuda.h"

namespace mad::appearance {

template <class Real>
class AppearanceStageCuda {
 public:
  // Device bytes owned by the stage, by purpose (see device_memory()). With lent scratch the
  // transient entries (spectrum, subbands, fft_work, distorted_stats, eta) are 0.
  struct Memory {
    std::size_t bank = 0;             // log-Gabor factors (shareable per shape)
    std::size_t twiddles = 0;         // the fused transform's twiddle tables (0 with cufft)
    std::size_t spectrum = 0;         // half spectrum, in-place R2C: M*(N/2+1) complex
    std::size_t subbands = 0;         // one scale's 4 subbands: 4 M*N complex
    std::size_t fft_work = 0;         // cuFFT work area shared by both plans
    std::size_t reference_stats = 0;  // 3 x 20 block grids
    std::size_t distorted_stats = 0;  // 3 x 4 block grids (one scale)
    std::size_t eta = 0;              // eta_lo per block
    std::size_t total() const {
      return bank + twiddles + spectrum + subbands + fft_work + reference_stats +
             distorted_stats + eta;
    }
  };

  // Builds the bank (on `stream`), the cuFFT plans and all scratch for width x height images.
  // a5: the A5 row to run (appearance/a5_variants.h; it must outlive the stage), taken as given:
  // names were resolved at the front door, so the stage looks nothing up. subband_transform:
  // appearance/subband_transform.h's pick, none for the shape's default. Throws
  // InvalidArgument for shapes below 34x34 or a transform the shape cannot run, GpuError on
  // CUDA/cuFFT failures.
  AppearanceStageCuda(int width, int height, cudaStream_t stream,
                      const A5Row& a5 = a5_variants().default_row(),
                      std::optional<SubbandTransform> subband_transform = std::nullopt);
  // Same, reusing a bank built for this shape (several stages in flight share one bank; it
  // must be complete, or ordered before this stage's first call). With ScratchMode::Lent the
  // transient scratch and the cuFFT work area come from lend_scratch.
  AppearanceStageCuda(std::shared_ptr<const LogGaborBankCuda<Real>> bank,
                      const A5Row& a5 = a5_variants().default_row(),
                      ScratchMode scratch = ScratchMode::Own,
                      std::optional<SubbandTransform> subband_transform = std::nullopt);

  AppearanceStageCuda(AppearanceStageCuda&&) noexcept = default;
  AppearanceStageCuda& operator=(AppearanceStageCuda&&) noexcept = default;

  int width() const { return grid_.image_width; }
  int height() const { return grid_.image_height; }
  const BlockGrid& grid() const { return grid_; }
  const char* a5_variant() const { return variant_->name; }
  SubbandTransform subband_transform() const { return transform_; }
  const std::shared_ptr<const LogGaborBankCuda<Real>>& bank() const { return bank_; }
  Memory device_memory() const;

  // Bytes of the transient scratch (spectrum, subbands, distorted statistics, eta, each
  // 256-byte aligned in one region) and of the cuFFT work area (the larger of the two plans').
  std::size_t transient_bytes() const { return scratch_.transient_bytes(); }
  std::size_t fft_work_bytes() const { return scratch_.fft_work_bytes(); }
  // ScratchMode::Lent: lends the transient region (>= transient_bytes(), 256-byte aligned, as
  // from cudaMalloc) and the cuFFT work area (>= fft_work_bytes()); both must outlive the stage.
  // Required before the first call. Throws InvalidArgument for an owning stage or a null region.
  void lend_scratch(void* transient, void* fft_work);

  // The reference side: FFT of d_ref_raw (M*N raw values 0..255, row-major, tightly packed,
  // device memory), its 20 subbands and their 3 x 20 block-statistic grids, which are kept
  // (all the distorted side needs of the reference) until the next prepare_reference.
  // Asynchronous on `stream`; d_ref_raw may be freed once the stream has passed this call.
  void prepare_reference(const Real* d_ref_raw, cudaStream_t stream);
  bool has_reference() const { return has_reference_; }

  // The distorted side against the prepared reference: writes sum over the crop of eta_lo^2
  // (one double, device memory) to *d_sum_sq and, when d_map_or_null is not null, map.LO
  // (M*N Real, device memory: each block's eta_lo on its 4x4 tile, 0 elsewhere). d_appear is
  // d_appear_from_sum(*d_sum_sq) after read-back. Asynchronous on `stream`; the reference
  // must have been prepared on the same stream (or ordered before it). Throws InvalidArgument
  // when no reference was prepared or d_sum_sq is null.
  void run_distorted(const Real* d_dst_raw, double* d_sum_sq, Real* d_map_or_null,
                     cudaStream_t stream);

  // prepare_reference(d_ref_raw) followed by run_distorted(d_dst_raw, ...).
  void run(const Real* d_ref_raw, const Real* d_dst_raw, double* d_sum_sq, Real* d_map_or_null,
           cudaStream_t stream);

  // sqrt(sum / |R|), |R| = (M-33)(N-33) (spec §4.6). Host-side.
  double d_appear_from_sum(double sum_sq) const;

  // The reference's statistics on the device (valid after prepare_reference has run): 60
  // planes of grid().count() values, std of subbands 0..19 (subband_index(s, o) order), then
  // skew 0..19, then kurt 0..19; each plane grid().rows x grid().cols, row-major.
  const Real* reference_stats() const { return ref_stats_.get(); }

 private:
  using Complex = DeviceComplex<Real>;  // cufftDoubleComplex / cufftComplex

  // Resolves the subband transform for this shape and precision (and builds the fused one).
  void choose_transform(std::optional<SubbandTransform> asked);
  void allocate_and_plan(ScratchMode scratch);
  // Points the transient arrays into scratch_'s region and the plans at its work area.
  void place_scratch();
  void forward_spectrum(const Real* d_raw, cudaStream_t stream);
  // One scale's 4 subbands into subbands_, as subband_input() describes them: cufft (filter
  // multiply + batched inverse, complex) or fused (real magnitudes).
  void scale_subbands(int scale, cudaStream_t stream);
  A5Input<Real> subband_input() const;

  BlockGrid grid_;
  std::shared_ptr<const LogGaborBankCuda<Real>> bank_;
  const A5Row* variant_ = nullptr;  // the row it was given
  SubbandTransform transform_ = SubbandTransform::Cufft;
  std::unique_ptr<SubbandFftCuda<Real>> fused_;      // set when transform_ is Fused
  int half_width_ = 0;                               // N/2 + 1
  cuda::DeviceBuffer<Real> ref_stats_;               // owned: kept between calls
  // Transient (needed only during a call): arrays of one region, own or lent.
  cuda::StageScratch scratch_;
  Complex* spectrum_ = nullptr;
  Complex* subbands_ = nullptr;
  Real* dst_stats_ = nullptr;
  Real* eta_ = nullptr;
  cuda::FftPlan forward_plan_;
  cuda::FftPlan inverse_plan_;  // planned for cufft only
  bool has_reference_ = false;
};

}  // namespace mad::appearance
