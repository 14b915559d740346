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

}  // namespace mad::appearance
