#include "mad/video/slice_store.h"

#include <algorithm>
#include <cstddef>
#include <string>

#include "common/error.h"

namespace mad::video {
namespace {

using std::size_t;

template <class S>
void append_frame(const std::vector<S>& samples, int width, int height, std::vector<S>& columns,
                  std::vector<S>& rows) {
  for (int k = 0; k < width / 8; ++k)
    for (int y = 0; y < height; ++y)
      columns.push_back(samples[static_cast<size_t>(y) * width + slice_position(k)]);
  for (int k = 0; k < height / 8; ++k) {
    const S* row = samples.data() + static_cast<size_t>(slice_position(k)) * width;
    rows.insert(rows.end(), row, row + width);
  }
}

// Column slice k out of the frame-major store: out(y, t) = columns[(t * n + k) * H + y].
template <class S>
std::vector<S> column_image(const std::vector<S>& columns, int k, int n, int height, int frames) {
  std::vector<S> out(static_cast<size_t>(height) * frames);
  for (int t = 0; t < frames; ++t) {
    const S* src = columns.data() + (static_cast<size_t>(t) * n + k) * height;
    for (int y = 0; y < height; ++y) out[static_cast<size_t>(y) * frames + t] = src[y];
  }
  return out;
}

// Row slice k: out(t, x) = rows[(t * n + k) * W + x].
template <class S>
std::vector<S> row_image(const std::vector<S>& rows, int k, int n, int width, int frames) {
  std::vector<S> out(static_cast<size_t>(width) * frames);
  for (int t = 0; t < frames; ++t) {
    const S* src = rows.data() + (static_cast<size_t>(t) * n + k) * width;
    std::copy(src, src + width, out.data() + static_cast<size_t>(t) * width);
  }
  return out;
}

// A slice image of width x height cut by `cut` from whichever store holds the clip's samples.
template <class Cut>
LumaFrame slice_frame(int width, int height, int bit_depth, const std::vector<std::uint8_t>& s8,
                      const std::vector<std::uint16_t>& s16, Cut cut) {
  LumaFrame out;
  out.width = width;
  out.height = height;
  out.bit_depth = bit_depth;
  if (bit_depth <= 8)
    out.samples8 = cut(s8);
  else
    out.samples16 = cut(s16);
  return out;
}

}  // namespace

SliceStore::SliceStore(int width, int height) : width_(width), height_(height) {}

void SliceStore::add(const LumaFrame& frame) {
  if (frame.width != width_ || frame.height != height_)
    throw InputError("frame " + std::to_string(frames_) + " is " + std::to_string(frame.width) +
                     "x" + std::to_string(frame.height) + ", the clip's frames are " +
                     std::to_string(width_) + "x" + std::to_string(height_));
  if (frames_ == 0) bit_depth_ = frame.bit_depth;
  if (frame.bit_depth != bit_depth_)
    throw InputError("frame " + std::to_string(frames_) + " has " +
                     std::to_string(frame.bit_depth) + "-bit samples, the clip's first " +
                     std::to_string(bit_depth_));
  if (bit_depth_ <= 8)
    append_frame(frame.samples8, width_, height_, columns8_, rows8_);
  else
    append_frame(frame.samples16, width_, height_, columns16_, rows16_);
  ++frames_;
}

LumaFrame SliceStore::column_slice(int k) const {
  return slice_frame(frames_, height_, bit_depth_, columns8_, columns16_, [&](const auto& store) {
    return column_image(store, k, column_slices(), height_, frames_);
  });
}

LumaFrame SliceStore::row_slice(int k) const {
  return slice_frame(width_, frames_, bit_depth_, rows8_, rows16_, [&](const auto& store) {
    return row_image(store, k, row_slices(), width_, frames_);
  });
}

}  // namespace mad::video
