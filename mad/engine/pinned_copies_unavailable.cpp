// Without the CUDA backend there is no page-locked memory to copy into: no backend there reads
// such copies (BackendTraits::reads_page_locked_copies), and images go without. This keeps the
// engine free of build switches.
#ifndef MAD_HAVE_CUDA
#include "mad/engine/pinned_copies.h"

namespace mad {

struct PinnedCopies::Pool {};

PinnedCopies::PinnedCopies(std::size_t) {}
PinnedCopies::~PinnedCopies() = default;
void PinnedCopies::attach(SourceImage&) {}
std::size_t PinnedCopies::allocated_bytes() const {
  return 0;
}

}  // namespace mad
#endif
