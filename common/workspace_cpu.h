// Buffers that a CPU stage keeps across pairs instead of allocating them for each one.
//
// glibc returns large freed blocks to the kernel (munmap, or a trim of the heap's top), so a
// pair whose planes are allocated and freed anew pays for mapping and zero-filling every page
// again: a quarter of the CPU path's time was system time (issue 39). A CPU worker therefore
// owns a workspace per stage (detection/detection_workspace_cpu.h,
// appearance/appearance_workspace_cpu.h, bundled by mad/backends/cpu_workspace.h) whose
// buffers are sized for the last shape it scored and reused, unchanged in address, while the
// shape stays the same. A new shape replaces them (the memory held stays one shape's).
//
// Every stage writes a kept buffer before reading it, so reuse cannot change a score. Tests
// check that by poisoning the kept buffers (NaN) before each reuse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "common/image.h"

namespace mad {

// Buffers (re)allocated by fit_buffer / fit_image, process-wide since the start: a count that
// stays put over pairs of one shape shows the workspaces are reused (tests).
std::uint64_t workspace_allocations();

// Test mode: when on, a workspace fills its kept buffers with NaN whenever it reuses them for
// another pair, so a stage that read a stale value would change the score. Off by default.
void set_workspace_poisoning(bool on);
bool workspace_poisoning();

// Counts one allocation of a kept buffer that fit_buffer / fit_image do not make.
void count_workspace_allocation();

// Makes `buffer` hold exactly n elements; reallocates (and counts it) only when the size
// changes. Contents are unspecified: the caller writes before it reads.
template <class T>
void fit_buffer(std::vector<T>& buffer, std::size_t n) {
  if (buffer.size() == n) return;
  std::vector<T>().swap(buffer);  // release the old shape's memory first
  buffer.resize(n);
  count_workspace_allocation();
}

// The same for an image: a tightly packed width x height.
template <class T>
void fit_image(Image<T>& image, int width, int height) {
  if (image.width() == width && image.height() == height) return;
  image = Image<T>();
  image = Image<T>(width, height);
  count_workspace_allocation();
}

// NaN in every element (complex: both parts), for the poisoning test mode.
template <class T>
void poison_buffer(std::vector<T>& buffer) {
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  for (auto& v : buffer) v = T(nan, nan);
}
inline void poison_buffer(std::vector<double>& buffer) {
  for (auto& v : buffer) v = std::numeric_limits<double>::quiet_NaN();
}
inline void poison_image(Image<double>& image) {
  image.fill(std::numeric_limits<double>::quiet_NaN());
}

}  // namespace mad
