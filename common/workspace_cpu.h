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
// Keeping them has a price in memory: the two stages' buffers are held together instead of one
// after the other (about 379 instead of 265 bytes a pixel on one thread, 90 instead of 63 GiB
// for 16000x16000; the code before the workspaces also freed buffers inside a stage, 221). So
// only pairs up to kWorkspaceKeepMaxPixels keep them (keep_workspace); a larger pair frees
// each stage's workspace as soon as the stage is done, so that only the larger one is held.
// mad/backends/memory_estimate.cpp models both cases.
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

// Pairs up to this many pixels keep their workspaces: 2^24, 4096 x 4096. The saving, the
// kernel's mapping and zeroing of every page for every pair, pays in runs of many pairs of one
// shape: datasets (KADID-10k and TID2013 512x384, CSIQ 512x512, LIVE up to 768x512) and video
// frames (3840x2160 is 8.3 Mpixel) are all below it, and there the kept memory is at most
// about 6 GiB (1.8 GiB more than without keeping). Above it, where pairs are few and each takes
// tens of seconds, the ~115 bytes a pixel that keeping adds (7 GiB at 8192 x 8192, 27 GiB at
// 16000 x 16000) decide whether a pair fits at all, so the memory goes back after each stage.
constexpr std::size_t kWorkspaceKeepMaxPixels = std::size_t{1} << 24;

// Whether a worker keeps its workspaces after a width x height pair (the pixels are at most
// the limit, kWorkspaceKeepMaxPixels unless a test set another).
bool keep_workspace(int width, int height);
// The limit in pixels now.
std::size_t workspace_keep_limit();
// Tests: sets the limit in pixels (0: no pair keeps them); returns the previous one.
std::size_t set_workspace_keep_limit(std::size_t pixels);

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
