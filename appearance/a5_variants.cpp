// The A5 variant registries (STYLE.md rule 5), compiled in every build: the launch functions are
// defined in the a5_*_cuda.cu files (instantiated for double and float), and MAD_CUDA_LAUNCH leaves
// them out without CUDA. A new variant is its kernel file plus a declaration and a row here.
#include "appearance/a5_variants.h"

#include <vector>

namespace mad::appearance {

// The thesis's forms (thesis Appendices B and C): one function template per form, instantiated
// for both outputs, so each serves both registries.
template <class Real, class Output>
void launch_a5_original(const A5Input<Real>&, const Output&, const BlockGrid&, StreamHandle);
// The shared-memory form (a5_shared_tile_cuda.cu) in Table 9's three versions: the tile stored
// [column][row] (kColumnRow) or [row][column], the inner loop unrolled or nested.
template <bool kColumnRow, bool kUnrolled, class Real, class Output>
void launch_a5_shared_tile_form(const A5Input<Real>&, const Output&, const BlockGrid&,
                                StreamHandle);

// Our own forms (all statistics only).
template <class Real>
void launch_a5_per_thread(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&,
                          StreamHandle);
template <class Real>
void launch_a5_cta_per_block(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&,
                             StreamHandle);
template <class Real>
void launch_a5_direct(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&, StreamHandle);
template <class Real>
void launch_a5_fast(const A5Input<Real>&, const A5Output<Real>&, const BlockGrid&, StreamHandle);

namespace {

// The thesis forms' notes and shapes, shared by both registries (the mean-only rows compute
// the first pass alone).
constexpr const char* kOriginalNote =
    "thesis Appendix B: one thread per block, thread x -> block row (lanes read rows 4 apart: "
    "the strided gather of Table 6), 256 samples into a private array, then two passes";
constexpr const char* kOriginalShape =
    "16x16 CTAs, one thread per 16x16 block (x: block row, y: block column), blockIdx.z = "
    "subband";
constexpr const char* kSharedLoopNote =
    "thesis Appendix C: CTA loads a 32x32 tile into shared memory (thread x -> row, strided "
    "loads), 16 threads compute its 4x4 overlapping blocks with a nested loop; smem[row][col] "
    "(bank-conflicted)";
constexpr const char* kSharedUnrolledNote =
    "thesis Appendix C / Table 8: as a5-shared-loop, inner loop of 16 unrolled; smem[row][col], "
    "the thesis's bank-conflicted smem[x][y]";
constexpr const char* kSharedUnrolledCfNote =
    "thesis Appendix C: as a5-shared-unrolled, tile stored smem[col][row] (the thesis's "
    "smem[y][x]): conflict-free";
constexpr const char* kSharedShape =
    "16x16 CTAs over 4x4 blocks (x: rows), 32x32-sample tile in shared memory, 16 of 256 "
    "threads compute one block each";

// The thesis's four forms as rows of a registry whose callables take Output<Real>: A5Output
// (all statistics) or A5MeanOutput (the mean alone).
template <class Launches, template <class> class Output>
std::vector<VariantRow<Launches>> thesis_rows() {
  return {
      {"a5-original", kOriginalNote, kOriginalShape,
       MAD_CUDA_LAUNCH(
           {launch_a5_original<double, Output<double>>, launch_a5_original<float, Output<float>>})},
      {"a5-shared-loop", kSharedLoopNote, kSharedShape,
       MAD_CUDA_LAUNCH({launch_a5_shared_tile_form<false, false, double, Output<double>>,
                        launch_a5_shared_tile_form<false, false, float, Output<float>>})},
      {"a5-shared-unrolled", kSharedUnrolledNote, kSharedShape,
       MAD_CUDA_LAUNCH({launch_a5_shared_tile_form<false, true, double, Output<double>>,
                        launch_a5_shared_tile_form<false, true, float, Output<float>>})},
      {"a5-shared-unrolled-cf", kSharedUnrolledCfNote, kSharedShape,
       MAD_CUDA_LAUNCH({launch_a5_shared_tile_form<true, true, double, Output<double>>,
                        launch_a5_shared_tile_form<true, true, float, Output<float>>})},
  };
}

std::vector<VariantRow<A5Launches>> all_statistics_rows() {
  std::vector<VariantRow<A5Launches>> rows = thesis_rows<A5Launches, A5Output>();
  const std::vector<VariantRow<A5Launches>> ours = {
      {"a5-per-thread",
       "Appendix B's per-thread form turned round: thread x -> block column, so a warp's loads "
       "of a row coalesce; 256 samples into a private array, then two passes",
       "16x8 CTAs, one thread per 16x16 block (x: block column), blockIdx.z = subband",
       MAD_CUDA_LAUNCH({launch_a5_per_thread<double>, launch_a5_per_thread<float>})},
      {"a5-cta-per-block",
       "one 16x16 CTA per block, samples in shared [ty][tx], tree reductions of the sum and of "
       "the 2nd-4th central moments (no reuse across blocks)",
       "16x16 CTAs, one per 16x16 block (a thread per sample), blockIdx.z = subband",
       MAD_CUDA_LAUNCH({launch_a5_cta_per_block<double>, launch_a5_cta_per_block<float>})},
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
  };
  rows.insert(rows.end(), ours.begin(), ours.end());
  return rows;
}

}  // namespace

const VariantRegistry<A5Launches>& a5_variants() {
  static const VariantRegistry<A5Launches> registry("A5", all_statistics_rows(), "a5-fast");
  return registry;
}

const VariantRegistry<A5MeanLaunches>& a5_mean_variants() {
  static const VariantRegistry<A5MeanLaunches> registry(
      "A5 mean", thesis_rows<A5MeanLaunches, A5MeanOutput>(), "a5-shared-unrolled-cf");
  return registry;
}

}  // namespace mad::appearance
