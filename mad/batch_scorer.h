// Scores a stream of pairs, results in submission order. On the GPU, consecutive pairs overlap
// (one pair's upload and packing run while the previous one computes, on separate streams) and
// the reference side is reused while consecutive pairs share a reference (spec §11). On the
// CPU each pair is scored as it is submitted. Results are bit-identical to mad::score.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "common/image_io.h"
#include "mad/cuda_scorer.h"
#include "mad/score.h"

namespace mad {

class BatchScorer {
 public:
  struct Finished {
    std::uint64_t tag = 0;
    bool ok = false;
    ScoreResult result;  // valid when ok
    std::string error;   // set when !ok (an InputError/InvalidArgument of this pair)
  };

  explicit BatchScorer(ScoreOptions options);
  ~BatchScorer();

  Backend backend() const { return backend_; }
  // Queues a pair under the caller's `tag` and returns the pairs finished so far, in order.
  // The images must not change once submitted: on the GPU a slot keeps its reference object
  // and takes a later submission of the same object as the same pixels.
  // Errors of this pair's inputs become a Finished with ok == false; GpuError propagates.
  std::vector<Finished> submit(std::uint64_t tag, std::shared_ptr<const GrayImage> ref,
                               std::shared_ptr<const GrayImage> dst);
  // The same for decoded source images: colour samples go to the GPU as they are (converted
  // there); the CPU backend converts them on the host first. Scores are the same either way.
  std::vector<Finished> submit(std::uint64_t tag, std::shared_ptr<const SourceImage> ref,
                               std::shared_ptr<const SourceImage> dst);
  // Queues a pair of device images (mad/device_image.h; CUDA backend only, else GpuError), on
  // the current device, which must hold them. They must stay valid until the pair is returned.
  std::vector<Finished> submit_device(std::uint64_t tag, const DeviceImage& ref,
                                      const DeviceImage& dst);
  // Queues an already failed pair (e.g. a decode error) so it keeps its place in the order.
  std::vector<Finished> submit_failed(std::uint64_t tag, std::string error);
  // Waits for every queued pair and returns them, in order.
  std::vector<Finished> drain();
  // Reference-side reuses so far (GPU) and device memory in use (bytes).
  std::size_t reference_reuses() const { return reuses_; }
  // Seconds this scorer's thread has been blocked collecting pairs from the GPU.
  double gpu_wait_seconds() const { return gpu_wait_seconds_; }
  std::size_t device_bytes() const;

 private:
  struct Entry {
    Finished finished;
    bool done = false;
    std::uint64_t ticket = 0;
    PairSetup pair;                        // GPU: what the collected indices are assembled with
    std::shared_ptr<const void> ref, dst;  // the images, kept alive while the GPU reads them
    double start = 0;
  };
  void complete_oldest_gpu();
  // Submits an entry whose pair is set up to the GPU (waiting for room first).
  void enqueue_gpu(Entry& e, const CudaInput& ref, const CudaInput& dst);
  std::vector<Finished> pop_ready();
  // submit() for either image type: `cpu_gray(image pointer)` gives the CPU backend a pointer
  // to its gray image.
  template <class Image, class CpuGray>
  std::vector<Finished> submit_images(std::uint64_t tag, std::shared_ptr<const Image> ref,
                                      std::shared_ptr<const Image> dst, CpuGray cpu_gray);

  ScoreOptions options_;
  Backend backend_;
  std::unique_ptr<Scorer> cpu_;
  std::unique_ptr<CudaScorer> gpu_;
  std::deque<Entry> queue_;
  std::size_t reuses_ = 0;
  double gpu_wait_seconds_ = 0.0;
};

}  // namespace mad
