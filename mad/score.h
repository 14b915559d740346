// The library API: score one (reference, distorted) pair with MAD.
//
//   mad::Scorer scorer(options);            // holds per-shape GPU stages between pairs
//   mad::ScoreResult r = scorer.score(ref, dst);
//
// or the one-shot mad::score(ref, dst, options). Both throw InputError for images that MAD
// cannot score (different sizes, smaller than 34x34), InvalidArgument for contradictory
// options and GpuError for CUDA failures or a CUDA backend requested without a device.
#pragma once

#include <memory>
#include <string>

#include "common/image.h"
#include "common/image_io.h"
#include "mad/backend_choice.h"
#include "mad/options.h"
#include "mad/result.h"

namespace mad {

// Throws InputError unless both images are equally sized and at least 34x34.
void validate_pair(const GrayImage& ref, const GrayImage& dst);
void validate_pair_shape(int ref_width, int ref_height, int dst_width, int dst_height);
// Resolves InputClass::Auto: uint8 when both files are 8-bit, double otherwise. Throws
// InvalidArgument for uint8 requested on images of more than 8 bits.
InputClass resolve_input_class(const GrayImage& ref, const GrayImage& dst, InputClass requested);
InputClass resolve_input_class(int ref_bit_depth, int dst_bit_depth, InputClass requested);

class BatchScorer;  // mad/batch_scorer.h

// One pair at a time: a batch of depth one (mad::BatchScorer), which keeps the backend's
// per-shape state (GPU slots, plans, filter banks) between pairs.
class Scorer {
 public:
  // A front door: resolves options.backend when it is Auto (choose_backend), once for this
  // scorer; a named backend is taken as it is.
  explicit Scorer(ScoreOptions options);
  ~Scorer();
  Scorer(Scorer&&) noexcept;
  Scorer& operator=(Scorer&&) noexcept;

  const ScoreOptions& options() const;
  Backend backend() const;
  // Throws the pair's own error: InputError, InvalidArgument, GpuError.
  ScoreResult score(const GrayImage& ref, const GrayImage& dst);

 private:
  std::unique_ptr<BatchScorer> batch_;
};

ScoreResult score(const GrayImage& ref, const GrayImage& dst, const ScoreOptions& options);

// Wraps raw 0..255 values (e.g. synthetic test images) as an 8-bit or wider GrayImage.
GrayImage make_gray_image(Image<double> pixels, int bit_depth = 8);

}  // namespace mad
