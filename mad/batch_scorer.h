// Scores a stream of pairs, results in submission order: the one scoring path under `mad score`
// (one pair or a list), `mad eval`, mad::Scorer and the Python module. It owns one backend
// (mad/backends/pair_backend.h: CPU, or CUDA with several pairs in flight, one pair's upload overlapping
// another's compute, the reference side reused while consecutive pairs share a reference,
// spec §11) and is the only place a score is assembled from a backend's stage outputs.
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "common/image_io.h"
#include "mad/backend_choice.h"
#include "mad/device_image.h"
#include "mad/result.h"

namespace mad {

class PairBackend;  // mad/backends/pair_backend.h: the seam, not part of the public face
struct PairInput;

// What is known of a pair before it is scored: its shape and resolved input class.
struct PairSetup {
  int width = 0, height = 0;
  InputClass input_class = InputClass::Uint8;  // resolved (never Auto)
  bool uint8_luminance() const { return input_class == InputClass::Uint8; }
};

class BatchScorer {
 public:
  struct Finished {
    std::uint64_t tag = 0;
    bool ok = false;
    ScoreResult result;          // valid when ok
    std::string error;           // set when !ok: why this pair could not be scored
    std::exception_ptr failure;  // the exception behind `error` (null for submit_failed)
  };

  // On `backend`, resolved where the run started (a front door: mad::Scorer, the commands, the
  // Python scorer); this scorer chooses nothing. Throws InvalidArgument when options.backend
  // names the other backend (Auto, the request that was resolved, is fine).
  BatchScorer(ScoreOptions options, ResolvedBackend backend);
  // On a backend made elsewhere (the engine's workers, tests driving the scheduler with a fake
  // one); options.backend becomes its kind.
  BatchScorer(ScoreOptions options, std::unique_ptr<PairBackend> backend);
  // Finishes the pairs in flight (their results are dropped), then releases the backend before
  // the images and page-locked copies the device may still be reading.
  ~BatchScorer();
  BatchScorer(const BatchScorer&) = delete;
  BatchScorer& operator=(const BatchScorer&) = delete;

  Backend backend() const;
  const ScoreOptions& options() const { return options_; }

  // Queues a pair under the caller's `tag` and returns the pairs finished so far, in order.
  // The images must not change once submitted: on the GPU a slot keeps its reference object
  // and takes a later submission of the same object as the same pixels.
  // A pair that cannot be scored (its inputs, its size for the memory budget, a non-GPU error
  // while scoring it) becomes a Finished with ok == false; GpuError propagates (the device is
  // in doubt), and the pairs queued before it are still delivered by a later drain().
  std::vector<Finished> submit(std::uint64_t tag, std::shared_ptr<const GrayImage> ref,
                               std::shared_ptr<const GrayImage> dst);
  // The same for decoded source images: colour samples go to the GPU as they are (converted
  // there); the CPU backend converts them on the host. Scores are the same either way.
  std::vector<Finished> submit(std::uint64_t tag, std::shared_ptr<const SourceImage> ref,
                               std::shared_ptr<const SourceImage> dst);
  // Queues a pair of device images (mad/device_image.h; CUDA backend only, else GpuError), on
  // the current device, which must hold them. `keep_alive` (e.g. the arrays' owners) is held
  // until the pair is returned; the device memory must stay valid until then.
  std::vector<Finished> submit_device(std::uint64_t tag, const DeviceImage& ref,
                                      const DeviceImage& dst,
                                      std::shared_ptr<const void> keep_alive = nullptr);
  // Queues an already failed pair (e.g. a decode error) so it keeps its place in the order.
  std::vector<Finished> submit_failed(std::uint64_t tag, std::string error);
  // Waits for every queued pair and returns them, in order.
  std::vector<Finished> drain();
  // One pair, scored before returning (a batch of depth one: mad::Scorer). The images are
  // borrowed, not kept. Throws the pair's own error (InputError, InvalidArgument, GpuError).
  // Nothing may be queued.
  ScoreResult score_one(const GrayImage& ref, const GrayImage& dst);

  // Reference-side reuses so far (GPU) and peak device memory in use (bytes).
  std::size_t reference_reuses() const { return reuses_; }
  std::size_t device_bytes() const;
  // Seconds this scorer's thread has been blocked collecting pairs from the backend.
  double gpu_wait_seconds() const { return gpu_wait_seconds_; }

 private:
  struct Entry {
    Finished finished;
    bool done = false;
    std::uint64_t ticket = 0;
    PairSetup pair;                      // what the collected indices are assembled with
    std::shared_ptr<const void> keep;    // inputs kept alive while the backend reads them
    double start = 0;
  };
  // submit() for either image type; `owned`: the shared pointers own the images, so the
  // reference may serve as its own identity (never for borrowed images: another object could
  // later take the same address).
  template <class Image>
  std::vector<Finished> submit_images(std::uint64_t tag, std::shared_ptr<const Image> ref,
                                      std::shared_ptr<const Image> dst, bool owned);
  // Starts a set-up entry on the backend, collecting older pairs first while it has no room.
  // Errors of the pair mark it failed; GpuError propagates.
  void start(Entry& e, const PairInput& ref, const PairInput& dst);
  void complete_oldest();
  std::vector<Finished> pop_ready();

  ScoreOptions options_;
  std::deque<Entry> queue_;
  // Declared after queue_, so destroyed before it: the slots wait for their streams before the
  // images and pinned copies they read are released.
  std::unique_ptr<PairBackend> backend_;
  std::size_t reuses_ = 0;
  double gpu_wait_seconds_ = 0.0;
};

}  // namespace mad
