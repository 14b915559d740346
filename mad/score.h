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
#include <optional>
#include <string>

#include "common/image.h"
#include "common/image_io.h"
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
// Resolves Backend::Auto (CUDA when compiled and a device is present). Throws GpuError when
// CUDA is requested but unavailable.
Backend resolve_backend(Backend requested);

// The backend resolve_backend picks and why, for the user and the results files.
struct BackendChoice {
  Backend backend = Backend::Cpu;  // resolved (never Auto)
  bool requested = false;          // named by --backend (not resolved from auto)
  bool compiled = false;           // this build has the CUDA backend
  // "requested", "auto: CUDA device found (NAME ...)", "auto: no CUDA device" or
  // "auto: built without CUDA".
  std::string reason;
};
// As resolve_backend (same GpuError), with the reason. A run calls it once, where its command
// starts (mad score, mad eval, the Python Scorer), and passes the choice down.
BackendChoice choose_backend(Backend requested);
// How many times choose_backend has run in this process (tests hold the once-a-run rule).
std::size_t backend_choices_made();

// Time to first score (issue 12). A process that scores one pair on the GPU first pays for the
// CUDA context, the cuFFT plans and the filter banks: about 0.2-0.3 s on an H100 host, against
// 0.06 s for the whole 512x512 pair on its 16 CPU threads. The estimated CPU seconds of one pair
// on `threads` threads, from the CPU path's measured cost (about 1.2 us a pixel on one thread,
// each further thread adding about 0.29 of one: 309 ms and 57 ms for 512x512 on 1 and 16).
double estimated_cpu_seconds(int width, int height, int threads);
// Below this estimate a lone pair on --backend auto runs on the CPU (the GPU's start-up alone
// costs more).
inline constexpr double kLonePairCpuSeconds = 0.2;
// The CPU choice for a lone WxH pair on --backend auto, when its estimate is under
// kLonePairCpuSeconds and the build has the CUDA backend (otherwise choose_backend's reason is
// the better one); std::nullopt when the GPU should be asked. Never touches CUDA, so the CPU run
// does not pay for CUDA's initialisation either.
std::optional<BackendChoice> cpu_for_lone_pair(int width, int height, int threads);

class BatchScorer;  // mad/batch_scorer.h

// One pair at a time: a batch of depth one (mad::BatchScorer), which keeps the backend's
// per-shape state (GPU slots, plans, filter banks) between pairs.
class Scorer {
 public:
  // Resolves options.backend when it is Auto (choose_backend), once for this scorer.
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
