// Owning image and non-owning view shared by the CPU and CUDA backends.
//
// Pixels are stored row-major. `pitch` is the distance between the starts of two consecutive
// rows, counted in ELEMENTS (not bytes), and is >= width. The view is the one type every stage
// takes, so a stage never cares whether the memory is owned, padded or borrowed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/error.h"

namespace mad {

template <class T>
struct ImageView {
  T* data = nullptr;
  int width = 0;
  int height = 0;
  std::ptrdiff_t pitch = 0;  // elements between row starts

  ImageView() = default;
  ImageView(T* d, int w, int h, std::ptrdiff_t p) : data(d), width(w), height(h), pitch(p) {}
  ImageView(T* d, int w, int h) : ImageView(d, w, h, w) {}
  // A view of T converts to a view of const T.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T>>>
  ImageView(const ImageView<U>& v)
      : data(v.data), width(v.width), height(v.height), pitch(v.pitch) {}

  T* row(int y) const { return data + static_cast<std::ptrdiff_t>(y) * pitch; }
  T& operator()(int y, int x) const { return row(y)[x]; }
  std::size_t pixel_count() const { return static_cast<std::size_t>(width) * height; }
  bool empty() const { return width <= 0 || height <= 0; }
  // Every row starts on a multiple of `bytes` (the first row's address and the pitch in bytes):
  // the condition of the kernels' vector loads and stores.
  bool rows_aligned(int bytes) const {
    return reinterpret_cast<std::uintptr_t>(data) % bytes == 0 &&
           (pitch * static_cast<std::ptrdiff_t>(sizeof(T))) % bytes == 0;
  }
};

template <class T>
class Image {
 public:
  Image() = default;
  // width x height, rows padded to `pitch` elements (defaults to width), filled with `fill`.
  Image(int width, int height, T fill = T{}, std::ptrdiff_t pitch = 0)
      : width_(width), height_(height), pitch_(pitch > 0 ? pitch : width) {
    if (width < 0 || height < 0 || pitch_ < width_) throw InvalidArgument("Image: bad shape");
    pixels_.assign(static_cast<std::size_t>(pitch_) * height_, fill);
  }

  int width() const { return width_; }
  int height() const { return height_; }
  std::ptrdiff_t pitch() const { return pitch_; }
  bool empty() const { return width_ == 0 || height_ == 0; }
  std::size_t pixel_count() const { return static_cast<std::size_t>(width_) * height_; }

  T* data() { return pixels_.data(); }
  const T* data() const { return pixels_.data(); }
  T* row(int y) { return pixels_.data() + static_cast<std::ptrdiff_t>(y) * pitch_; }
  const T* row(int y) const { return pixels_.data() + static_cast<std::ptrdiff_t>(y) * pitch_; }
  T& operator()(int y, int x) { return row(y)[x]; }
  const T& operator()(int y, int x) const { return row(y)[x]; }

  ImageView<T> view() { return {pixels_.data(), width_, height_, pitch_}; }
  ImageView<const T> view() const { return {pixels_.data(), width_, height_, pitch_}; }
  ImageView<const T> cview() const { return view(); }

  void fill(T value) { std::fill(pixels_.begin(), pixels_.end(), value); }

 private:
  int width_ = 0;
  int height_ = 0;
  std::ptrdiff_t pitch_ = 0;
  std::vector<T> pixels_;
};

// Copies a view into a new tightly packed image.
template <class T>
Image<std::remove_const_t<T>> copy_image(ImageView<T> v) {
  Image<std::remove_const_t<T>> out(v.width, v.height);
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x) out(y, x) = v(y, x);
  return out;
}

}  // namespace mad
