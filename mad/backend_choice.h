// Which backend a run scores on, chosen once where its command starts (mad score, mad eval,
// mad::Scorer, the Python scorer) and passed down as a ResolvedBackend, which cannot be Auto:
// BatchScorer and the many-pair engine take one, so nothing below the front doors chooses
// again.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "mad/options.h"

namespace mad {

// A backend that is Cpu or Cuda, never Auto. Made by choose_backend (BackendChoice::backend) or
// by naming one outright; naming Auto is refused, so holding one means the choice was made.
class ResolvedBackend {
 public:
  // Throws InvalidArgument for Backend::Auto (resolve it with choose_backend).
  explicit ResolvedBackend(Backend named);
  Backend kind() const { return kind_; }
  // Reads as the enum it resolves (comparisons, to_string, ScoreResult::backend).
  operator Backend() const { return kind_; }

 private:
  Backend kind_;
};

// The backend choose_backend picks and why, for the user and the results files.
struct BackendChoice {
  ResolvedBackend backend;
  bool requested = false;  // named by --backend (not resolved from auto)
  bool compiled = false;   // this build has the CUDA backend
  // "requested", "auto: CUDA device found (NAME ...)", "auto: no CUDA device" or
  // "auto: built without CUDA".
  std::string reason;
};

// Resolves Backend::Auto (CUDA when compiled and a device is present), with the reason. Throws
// GpuError when CUDA is requested but unavailable. A run calls it once, where its command
// starts, and passes the choice down.
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

}  // namespace mad
