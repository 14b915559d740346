// Block statistics of the CUDA detection stage (spec §3.5, the original's `ical_std`) as
// interchangeable kernel variants (STYLE rule 5): each row of detection_stats_variants()
// (detection/detection.h, table in block_stats_variants.cpp) holds a reference and an
// error launch per precision; tests and benchmarks iterate the same table.
//
// The statistics are split the way the dataset trick needs them (spec §11): the REFERENCE side
// (μ and σ_mod of L'_ref) is computed once per reference image, the ERROR side (σ_err of
// E = L'_dst - L'_ref, and from it the mask ξ of §3.6) once per distorted image.
//
// Layout: every per-block array is grid.rows x grid.cols, row-major, tightly packed
// (BlockGrid(width, height)); images are width x height, row-major, tightly packed, on the
// device. Launches are asynchronous on `stream`; nothing is allocated and nothing synchronizes.
// Images narrower or shorter than 16 have no blocks, and a launch does nothing.
//
// The launch types (RefStatsLaunch, ErrStatsLaunch) are declared in detection/detection.h.
// No CUDA syntax here: host C++ (tests, benchmarks) may include it in CUDA-enabled builds.
#pragma once

#include <cuda_runtime_api.h>

#include "detection/detection.h"

// Explicitly instantiates a variant's reference and error launch templates, in the signatures
// of RefStatsLaunch<Real> and ErrStatsLaunch<Real>, with the template arguments `...` (Real
// first: "double" or "float, 16, 8"). For the variant's .cu file, after the definitions.
#define MAD_DET_INSTANTIATE_STATS(Real, reference, error, ...)                                   \
  template void reference<__VA_ARGS__>(const Real*, int, int, Real*, Real*, cudaStream_t);       \
  template void error<__VA_ARGS__>(const Real*, const Real*, int, int, const Real*, const Real*, \
                                   Real*, Real*, cudaStream_t)
