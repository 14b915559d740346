// The seam's factory: the backend a run resolved to, and its traits (mad/backends/pair_backend.h).
// The one place that says what each backend asks of the engine.
#include "mad/backends/pair_backend.h"

namespace mad {

BackendTraits backend_traits(ResolvedBackend backend) {
  BackendTraits t;
  if (backend.kind() == Backend::Cuda) {
    t.uses_devices = true;
    t.takes_8bit_samples = true;  // uploads 8-bit samples, converts them with the gray kernel
    t.reads_page_locked_copies = true;
    // Spinning was measured faster than blocking on the device's interrupt on KADID-10k's shape
    // (3369 against 4554 pairs/s in float, H100 host, 2026-11-25), though it takes a core.
    t.holds_core_while_waiting = true;
  }
  return t;
}

std::unique_ptr<PairBackend> make_backend(ResolvedBackend backend, const ScoreOptions& options) {
  return backend.kind() == Backend::Cuda ? make_cuda_backend(options) : make_cpu_backend(options);
}

BackendMaker backend_maker(ResolvedBackend backend) {
  return {backend, backend_traits(backend),
          [backend](const ScoreOptions& options) { return make_backend(backend, options); }};
}

}  // namespace mad
