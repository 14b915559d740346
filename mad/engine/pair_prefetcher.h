// Decodes image pairs ahead of the scorer on background threads, handing them out in list
// order, so decoding (CPU) overlaps scoring (CPU or GPU). A pair that fails to decode is handed
// out with its error instead of stopping the run. For a GPU worker 8-bit files keep their samples
// (SourceImage::colour, or the uint8 gray plane alone: SourceImage::gray8_only): the device
// converts and widens them, so no core spends time or memory on a double plane it never reads.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "common/image_io.h"

namespace mad {

struct LoadedPair {
  std::size_t index = 0;                   // position in the input list
  std::shared_ptr<const SourceImage> ref;  // shared between pairs with the same reference path
  std::shared_ptr<const SourceImage> dist;
  std::string error;  // non-empty when decoding failed
};

struct PairPaths {
  std::string ref, dist;
  bool skip = false;  // handed out empty (no images, no error) without decoding anything
};

// How far ahead to decode. PNG decoding of a 512x384 pair takes milliseconds of one core while
// a GPU scores it in well under one, so a GPU worker needs many decodes in flight to stay busy;
// but a handful of 8K pairs already takes gigabytes. The depth therefore starts at
// `initial_pairs` and, once the first pair is decoded and its size known, becomes as many pairs
// as fit in `memory_budget_bytes`, between 1 and `max_pairs`.
struct PrefetchDepth {
  std::size_t max_pairs = 4;
  std::size_t initial_pairs = 2;
  std::size_t memory_budget_bytes = std::size_t{1} << 30;
  // Decoding threads: 0 for as many as pairs may be in flight, up to the cores.
  std::size_t threads = 0;
  // Page-locked bytes the distorted colour images may take (a GPU worker's PinnedCopies; 0:
  // none). A colour image decoded while that pool is full has no page-locked copy, and the
  // scoring thread, which feeds the GPU, stages it instead: a 25 MB copy for a 4K image. With
  // the pool holding 10 4K images and 64 decoded ahead, most were staged. So once the first
  // distorted image's size is known the depth is also at most the distorted images the pool
  // holds, but never below kMinPinnedLookahead: fewer decodes in flight starved the GPU (at 5,
  // 4.4 s of 6.1 waiting on decoding; at 10, 1.0 s). On eval-goal's 4K BMP set (two H200s, one
  // host, alternating runs, issue 26) that took float on one GPU from 151 to 165-168 pairs/s
  // and on two from 208 to 228 (one run); double on two GPUs unchanged (120 -> 122).
  std::size_t pinned_bytes = 0;
};
constexpr std::size_t kMinPinnedLookahead = 16;

// Host bytes of a decoded pair: what its images hold (the double plane where there is one, the
// uint8 plane, colour samples), so a GPU worker's 8-bit gray pair counts 1 byte a pixel, not 9.
std::size_t decoded_pair_bytes(const SourceImage& ref, const SourceImage& dist);

class PairPrefetcher {
 public:
  // keep_8bit: decode with load_source_image(path, true) (for a GPU worker; a CPU worker reads
  // the double planes and passes false).
  // prepare_distorted (optional): runs on the decoding thread on each decoded distorted image
  // (the GPU engine attaches a page-locked copy of its samples: mad/engine/pinned_copies.h).
  PairPrefetcher(std::vector<PairPaths> pairs, PrefetchDepth depth, bool keep_8bit = false,
                 std::function<void(SourceImage&)> prepare_distorted = {});
  ~PairPrefetcher();
  bool has_next() const { return next_ < pairs_.size(); }
  // Blocks until the next pair in list order is decoded.
  LoadedPair next();
  // Pairs decoded ahead of the consumer now.
  std::size_t lookahead() const { return lookahead_; }
  // Images decoded so far and the time their decoding took, summed over the decoding threads
  // (so decoding's share of a run: decode_seconds / threads against the run's wall time).
  std::size_t decoded_images() const { return decoded_images_.load(); }
  double decode_seconds() const { return decode_nanoseconds_.load() * 1e-9; }
  std::size_t decode_threads() const;

 private:
  void schedule_until(std::size_t end);
  std::vector<PairPaths> pairs_;
  PrefetchDepth depth_;
  bool keep_8bit_;
  std::function<void(SourceImage&)> prepare_distorted_;
  std::size_t lookahead_;
  bool sized_ = false;  // lookahead_ set from a decoded pair's size
  std::size_t next_ = 0;
  std::size_t scheduled_ = 0;
  // Per pair (moved out when consumed): the distorted image's decode and the shared one of
  // its reference. A decode task never waits on another, so a fixed pool cannot deadlock.
  struct Pending {
    std::future<LoadedPair> dist;
    std::shared_future<std::shared_ptr<const SourceImage>> ref;
  };
  std::vector<Pending> pending_;
  std::atomic<std::size_t> decoded_images_{0};
  std::atomic<long long> decode_nanoseconds_{0};
  // Timed decoding of one file, counted above.
  std::shared_ptr<const SourceImage> decode(const std::string& path, bool distorted);
  // The last decoded reference, reused while consecutive pairs share it (datasets list each
  // reference's distortions together).
  struct RefCache;
  std::shared_ptr<RefCache> ref_cache_;
  class DecodePool;
  std::unique_ptr<DecodePool> pool_;  // last member: joined first, before what its tasks use
};

}  // namespace mad
