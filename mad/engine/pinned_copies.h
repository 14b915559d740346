// Page-locked copies of decoded colour samples, made on the decoding threads so that the GPU
// copies a distorted image straight from them: the scoring thread no longer copies each image
// into its slot's staging (55 us a 512x384 RGB image on the H100 host, a quarter of that
// thread's work per pair in a KADID-shaped `mad eval`, issue #12 goal 4). Made for backends that
// read such copies (BackendTraits::reads_page_locked_copies); without CUDA, attach does nothing
// (pinned_copies_unavailable.cpp).
#pragma once

#include <cstddef>
#include <memory>

#include "common/image_io.h"

namespace mad {

class PinnedCopies {
 public:
  // `max_bytes`: page-locked memory the copies may hold at once; beyond it, images go without.
  explicit PinnedCopies(std::size_t max_bytes);
  ~PinnedCopies();
  PinnedCopies(const PinnedCopies&) = delete;
  PinnedCopies& operator=(const PinnedCopies&) = delete;

  // Sets image.pinned_colour to a page-locked copy of image.colour.samples, in a buffer that
  // returns to the pool when the last holder lets go (the pool outlives every copy). Leaves
  // images without colour samples (or with a copy already) alone, and the image without a copy
  // when the pool is full. Safe to call from several threads. A failed page-locked allocation
  // leaves the image without a copy.
  void attach(SourceImage& image);
  // Page-locked bytes allocated so far (buffers are reused, never returned to the system
  // before the pool goes).
  std::size_t allocated_bytes() const;

 private:
  struct Pool;
  struct Lease;
  std::shared_ptr<Pool> pool_;
};

}  // namespace mad
