// The A5 block-statistics variants (spec §4.4) as seen from CUDA-free code: the launch type
// and the registry (`--a5`, `--list-variants`), whose table, appearance/a5_variants.cpp, is
// compiled in every build. The input/output structs and the statistics every launch computes
// are documented in appearance/a5_variants_cuda.h.
#pragma once

#include "common/block_grid.h"
#include "common/variant_registry.h"

namespace mad::appearance {

template <class Real>
struct A5Input;  // appearance/a5_variants_cuda.h
template <class Real>
struct A5Output;
template <class Real>
struct A5MeanOutput;

// Enqueues the statistics of all in.count subbands on `stream` (asynchronous, no sync). The
// grid describes the subbands' shape. Throws GpuError on a launch failure.
template <class Real>
using A5LaunchFn = void (*)(const A5Input<Real>& in, const A5Output<Real>& out,
                            const BlockGrid& grid, StreamHandle stream);
// Both precisions of one variant.
using A5Launches = PerPrecision<A5LaunchFn>;

// Every A5 variant, the thesis forms first. The default is what the GPU stage runs unless
// told otherwise.
const VariantRegistry<A5Launches>& a5_variants();
// One row of it: what the GPU stage is given (never a name: the front door picked the row).
using A5Row = VariantRow<A5Launches>;

// The mean-only forms (family "A5 mean"): the thesis's four kernels as it measured them (Table
// 9: the 16x16 block means, stride 4, of one subband), enqueued like A5LaunchFn but writing
// only the mean plane (A5MeanOutput). CPU reference: subband_block_means_cpu
// (appearance/block_means.h). For `mad bench` and the tests; the MAD pipeline does not use them.
template <class Real>
using A5MeanLaunchFn = void (*)(const A5Input<Real>& in, const A5MeanOutput<Real>& out,
                                const BlockGrid& grid, StreamHandle stream);
using A5MeanLaunches = PerPrecision<A5MeanLaunchFn>;

const VariantRegistry<A5MeanLaunches>& a5_mean_variants();

}  // namespace mad::appearance
