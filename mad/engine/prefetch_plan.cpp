#include "mad/engine/prefetch_plan.h"

#include <algorithm>

#include "common/allotment.h"

namespace mad {

std::size_t default_decode_memory_bytes() {
  constexpr std::size_t kGiB = std::size_t{1} << 30;
  // The process's memory: a cgroup's memory.max where it is below the host's (a Slurm job or a
  // container), which kills the process past it.
  const std::size_t memory = process_allotment().memory_bytes;
  if (memory == 0) return kGiB;
  // At most a quarter of it: 1 GiB of a 2 GiB container would leave too little to score in.
  return std::min(std::clamp(memory / 16, kGiB, 8 * kGiB), memory / 4);
}

PrefetchDepth prefetch_depth(const EngineOptions& options, int workers,
                             const BackendTraits& traits, std::size_t cores) {
  PrefetchDepth d;
  const std::size_t budget = options.decode_memory_bytes > 0 ? options.decode_memory_bytes
                                                             : default_decode_memory_bytes();
  const auto shared = static_cast<std::size_t>(std::max(1, workers));
  d.memory_budget_bytes = budget / shared;
  cores = std::max<std::size_t>(1, cores);
  if (options.lookahead > 0) {
    d.max_pairs = d.initial_pairs = options.lookahead;
  } else {
    d.max_pairs = std::max<std::size_t>(4, 2 * cores / shared);
    // The workers' pools together have one thread a core (more would only take turns), less
    // the cores the scoring threads hold while they wait (a GPU worker spins).
    const std::size_t free_cores =
        traits.holds_core_while_waiting && cores > 2 * shared ? cores - shared : cores;
    d.threads = std::max<std::size_t>(1, std::min(d.max_pairs, free_cores / shared));
  }
  // Asked for: exactly that many (PairPrefetcher's 0 means one per pair in flight).
  if (options.decode_threads > 0) d.threads = options.decode_threads;
  if (traits.reads_page_locked_copies) {
    // At most the decoding budget, and never more than 256 MiB of page-locked memory
    // (KADID-sized images need ~25 MiB; 10 4K images fit); the depth stays within it, but at
    // least 16 pairs (PrefetchDepth::pinned_bytes). Larger pools cost more than they save, one
    // H200 host, eval-goal's 4K set (issue 26): 512 MiB (21 4K images) took double on two GPUs
    // from 122 to 115 pairs/s (each worker's pool grows by cudaMallocHost calls at its start)
    // for no float gain; 2 GiB with 64 images ahead took float on one GPU from 155 to 138 (each
    // image's copy also costs its decoding thread 25 MB of copying).
    d.pinned_bytes = std::min<std::size_t>(d.memory_budget_bytes, std::size_t{256} << 20);
  }
  return d;
}

}  // namespace mad
