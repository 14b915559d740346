// The A5 block-statistics variants (spec §4.4) as seen from CUDA-free code: their names and
// notes (for `--list-variants` and `--a5`, in every build) and the default.
//
// The launch functions live in the CUDA registry (appearance/a5_variants_cuda.h), which holds
// one row per entry of kA5Variants, in the same order; a test checks the two agree.
#pragma once

#include <string>

namespace mad::appearance {

struct A5VariantInfo {
  const char* name;
  const char* note;
};

// Every A5 variant, the thesis forms first. The default is what the GPU stage runs unless
// told otherwise.
inline constexpr A5VariantInfo kA5Variants[] = {
    {"a5-original",
     "thesis form: one thread per block gathers its 256 samples into a private array, then "
     "mean and central moments"},
    {"a5-shared",
     "thesis shared-memory form: one 16x16 CTA per block, samples in shared [ty][tx], tree "
     "reductions of the sum and of the 2nd-4th central moments"},
    {"a5-direct",
     "CTA stages a subband tile + halo in shared memory once (modulus fused into the load); "
     "each thread computes 2 stacked blocks from it, direct two-pass over the 256 samples"},
    {"a5-fast",
     "two-pass statistics of the 4x4 tiles blocks share, computed once per CTA in shared "
     "memory and shifted exactly (binomial, Horner) to each block's own mean; 2 blocks per "
     "thread"},
};
inline constexpr int kA5VariantCount = sizeof(kA5Variants) / sizeof(kA5Variants[0]);
inline constexpr const char* kA5DefaultVariant = "a5-fast";

// "name  note" lines, the default marked with '*'. CUDA-free, for `--list-variants`.
inline std::string describe_a5_variants() {
  std::string out;
  for (const A5VariantInfo& v : kA5Variants) {
    out += (std::string(v.name) == kA5DefaultVariant) ? "* " : "  ";
    out += v.name;
    out += "  ";
    out += v.note;
    out += '\n';
  }
  return out;
}

}  // namespace mad::appearance
