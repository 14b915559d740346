#include "mad/score.h"

#include <string>

#include "common/block_grid.h"
#include "common/error.h"
#include "mad/batch_scorer.h"

namespace mad {

void validate_pair_shape(int ref_width, int ref_height, int dst_width, int dst_height) {
  if (ref_width != dst_width || ref_height != dst_height)
    throw InputError("reference is " + std::to_string(ref_width) + "x" +
                     std::to_string(ref_height) + " but distorted is " + std::to_string(dst_width) +
                     "x" + std::to_string(dst_height) + "; MAD needs images of the same size");
  if (ref_width < kMinImageSide || ref_height < kMinImageSide)
    throw InputError("images are " + std::to_string(ref_width) + "x" + std::to_string(ref_height) +
                     "; MAD needs at least " + std::to_string(kMinImageSide) + "x" +
                     std::to_string(kMinImageSide) +
                     " (smaller images leave an empty pooling crop; the original returns NaN)");
}

void validate_pair(const GrayImage& ref, const GrayImage& dst) {
  validate_pair_shape(ref.pixels.width(), ref.pixels.height(), dst.pixels.width(),
                      dst.pixels.height());
}

InputClass resolve_input_class(int ref_bit_depth, int dst_bit_depth, InputClass requested) {
  const bool both_8bit = ref_bit_depth <= 8 && dst_bit_depth <= 8;
  if (requested == InputClass::Auto) return both_8bit ? InputClass::Uint8 : InputClass::Double;
  if (requested == InputClass::Uint8 && !both_8bit)
    throw InvalidArgument("--input-class uint8 needs 8-bit images (got " +
                          std::to_string(ref_bit_depth) + " and " + std::to_string(dst_bit_depth) +
                          " bits)");
  return requested;
}

InputClass resolve_input_class(const GrayImage& ref, const GrayImage& dst, InputClass requested) {
  return resolve_input_class(ref.bit_depth, dst.bit_depth, requested);
}

namespace {

// The scorer's backend: the one named, or the one choose_backend picks for Auto.
ResolvedBackend resolved_for_scorer(Backend requested) {
  return requested == Backend::Auto ? choose_backend(requested).backend
                                    : ResolvedBackend(requested);
}

}  // namespace

Scorer::Scorer(ScoreOptions options) {
  const ResolvedBackend backend = resolved_for_scorer(options.backend);
  batch_ = std::make_unique<BatchScorer>(std::move(options), backend);
}
Scorer::~Scorer() = default;
Scorer::Scorer(Scorer&&) noexcept = default;
Scorer& Scorer::operator=(Scorer&&) noexcept = default;
const ScoreOptions& Scorer::options() const {
  return batch_->options();
}
Backend Scorer::backend() const {
  return batch_->backend();
}
ScoreResult Scorer::score(const GrayImage& ref, const GrayImage& dst) {
  return batch_->score_one(ref, dst);
}

ScoreResult score(const GrayImage& ref, const GrayImage& dst, const ScoreOptions& options) {
  return Scorer(options).score(ref, dst);
}

GrayImage make_gray_image(Image<double> pixels, int bit_depth) {
  GrayImage g;
  g.pixels = std::move(pixels);
  g.bit_depth = bit_depth;
  if (bit_depth <= 8) {
    // Keep the uint8 plane only when every value really is an 8-bit integer.
    const auto& p = g.pixels;
    std::vector<std::uint8_t> gray8(p.pixel_count());
    bool exact = true;
    for (int y = 0; y < p.height() && exact; ++y)
      for (int x = 0; x < p.width(); ++x) {
        const double v = p(y, x);
        const auto b = static_cast<std::uint8_t>(v >= 0.0 && v <= 255.0 ? v : 0.0);
        if (static_cast<double>(b) != v) {
          exact = false;
          break;
        }
        gray8[static_cast<std::size_t>(y) * p.width() + x] = b;
      }
    if (exact) g.gray8 = std::move(gray8);
  }
  return g;
}

}  // namespace mad
