// How far each worker of a run decodes ahead, on how many threads, and how much page-locked
// memory its copies may take: from the run's options and its backend's traits
// (mad/backends/pair_backend.h), never from which backend it is.
#pragma once

#include <cstddef>

#include "mad/backends/pair_backend.h"
#include "mad/engine/pair_engine.h"
#include "mad/engine/pair_prefetcher.h"

namespace mad {

// One worker's depth, for `workers` workers on a host of `cores` hardware threads.
PrefetchDepth prefetch_depth(const EngineOptions& options, int workers,
                             const BackendTraits& traits, std::size_t cores);

}  // namespace mad
