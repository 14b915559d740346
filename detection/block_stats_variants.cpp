// The detection block-statistics variant registry (STYLE rule 5), compiled in every build: the
// launch functions are defined in block_stats_<name>_cuda.cu, and MAD_CUDA_LAUNCH leaves them
// out without CUDA. A new variant is tested and benchmarked by adding its row here.
#include "detection/detection.h"

namespace mad::detection {

namespace gpu {
template <class Real>
void block_stats_original_reference(const Real*, int, int, Real*, Real*, StreamHandle);
template <class Real>
void block_stats_original_error(const Real*, const Real*, int, int, const Real*, const Real*, Real*,
                                Real*, StreamHandle);
template <class Real>
void block_stats_shared_reference(const Real*, int, int, Real*, Real*, StreamHandle);
template <class Real>
void block_stats_shared_error(const Real*, const Real*, int, int, const Real*, const Real*, Real*,
                              Real*, StreamHandle);
// det-fast, templated on the group of GX x GY grid blocks per CUDA block.
template <class Real, int GX, int GY>
void block_stats_fast_reference(const Real*, int, int, Real*, Real*, StreamHandle);
template <class Real, int GX, int GY>
void block_stats_fast_error(const Real*, const Real*, int, int, const Real*, const Real*, Real*,
                            Real*, StreamHandle);
}  // namespace gpu

const VariantRegistry<gpu::BlockStatsLaunches>& detection_stats_variants() {
  using namespace gpu;
  static const VariantRegistry<BlockStatsLaunches> registry(
      "detection statistics",
      {
          {"det-original",
           "one thread per block, samples gathered from global memory, two-pass (the CPU's "
           "arithmetic)",
           "128-thread 1-D CTAs, one thread per 16x16 block",
           MAD_CUDA_LAUNCH(
               {{block_stats_original_reference<double>, block_stats_original_error<double>},
                {block_stats_original_reference<float>, block_stats_original_error<float>}})},
          {"det-shared",
           "16x8 blocks per CUDA block, pixels staged once in shared memory, then two-pass per "
           "block",
           "16x8 CTAs, one thread per block of a 16x8 group, its 76x44 pixels in shared memory",
           MAD_CUDA_LAUNCH(
               {{block_stats_shared_reference<double>, block_stats_shared_error<double>},
                {block_stats_shared_reference<float>, block_stats_shared_error<float>}})},
          {"det-fast",
           "16x8 blocks per CUDA block; each pixel read once into 4x4 tile moments in shared "
           "memory, blocks and 8x8 windows combined from tiles (pairwise-update formula)",
           "16x8 CTAs, one thread per block of a 16x8 group, its 19x11 tiles in shared memory",
           MAD_CUDA_LAUNCH(
               {{block_stats_fast_reference<double, 16, 8>, block_stats_fast_error<double, 16, 8>},
                {block_stats_fast_reference<float, 16, 8>, block_stats_fast_error<float, 16, 8>}})},
          {"det-fast-8x8",
           "det-fast with 8x8 blocks per CUDA block: more halo work, twice the CUDA blocks (for "
           "small images on many SMs)",
           "8x8 CTAs, one thread per block of an 8x8 group, its 11x11 tiles in shared memory",
           MAD_CUDA_LAUNCH(
               {{block_stats_fast_reference<double, 8, 8>, block_stats_fast_error<double, 8, 8>},
                {block_stats_fast_reference<float, 8, 8>, block_stats_fast_error<float, 8, 8>}})},
      },
      "det-fast");
  return registry;
}

}  // namespace mad::detection
