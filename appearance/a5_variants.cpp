// The A5 variant registry (STYLE.md rule 5), compiled in every build: the launch functions are
// defined in a5_<name>_cuda.cu (instantiated for double and float), and MAD_CUDA_LAUNCH leaves
// them out without CUDA. A new variant is its kernel file plus a declaration and a row here.
#include "appearance/a5_variants.h"

namespace mad::appearance {

template <class Real>
void launch_a5_original(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&,
                        StreamHandle);
template <class Real>
void launch_a5_shared(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&, StreamHandle);
template <class Real>
void launch_a5_direct(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&, StreamHandle);
template <class Real>
void launch_a5_fast(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&, StreamHandle);

const VariantRegistry<A5Launches>& a5_variants() {
  static const VariantRegistry<A5Launches> registry(
      "A5",
      {
          {"a5-original",
           "thesis form: one thread per block gathers its 256 samples into a private array, then "
           "mean and central moments",
           "16x8 CTAs, one thread per 16x16 block, blockIdx.z = subband",
           MAD_CUDA_LAUNCH({launch_a5_original<double>, launch_a5_original<float>})},
          {"a5-shared",
           "thesis shared-memory form: one 16x16 CTA per block, samples in shared [ty][tx], tree "
           "reductions of the sum and of the 2nd-4th central moments",
           "16x16 CTAs, one per 16x16 block (a thread per sample), blockIdx.z = subband",
           MAD_CUDA_LAUNCH({launch_a5_shared<double>, launch_a5_shared<float>})},
          {"a5-direct",
           "CTA stages a subband tile + halo in shared memory once (modulus fused into the load); "
           "each thread computes 2 stacked blocks from it, direct two-pass over the 256 samples",
           "16x4 CTAs over 16x8 blocks (2 per thread), 76x44-sample tile in shared memory",
           MAD_CUDA_LAUNCH({launch_a5_direct<double>, launch_a5_direct<float>})},
          {"a5-fast",
           "two-pass statistics of the 4x4 tiles blocks share, computed once per CTA in shared "
           "memory and shifted exactly (binomial, Horner) to each block's own mean; 2 blocks per "
           "thread",
           "32x4 CTAs over 32x8 blocks (2 per thread), 35x11 tile statistics in shared memory",
           MAD_CUDA_LAUNCH({launch_a5_fast<double>, launch_a5_fast<float>})},
      },
      "a5-fast");
  return registry;
}

}  // namespace mad::appearance
