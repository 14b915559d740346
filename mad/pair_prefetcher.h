// Decodes image pairs ahead of the scorer on background threads, handing them out in list
// order, so decoding (CPU) overlaps scoring (CPU or GPU). A pair that fails to decode is handed
// out with its error instead of stopping the run.
#pragma once

#include <cstddef>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "common/image_io.h"

namespace mad {

struct LoadedPair {
  std::size_t index = 0;                 // position in the input list
  std::shared_ptr<const GrayImage> ref;  // shared between pairs with the same reference path
  std::shared_ptr<const GrayImage> dist;
  std::string error;  // non-empty when decoding failed
};

struct PairPaths {
  std::string ref, dist;
  bool skip = false;  // handed out empty (no images, no error) without decoding anything
};

class PairPrefetcher {
 public:
  // `lookahead`: pairs decoded ahead of the consumer (>= 1).
  PairPrefetcher(std::vector<PairPaths> pairs, std::size_t lookahead);
  ~PairPrefetcher();
  bool has_next() const { return next_ < pairs_.size(); }
  // Blocks until the next pair in list order is decoded.
  LoadedPair next();

 private:
  void schedule_until(std::size_t end);
  std::vector<PairPaths> pairs_;
  std::size_t lookahead_;
  std::size_t next_ = 0;
  std::size_t scheduled_ = 0;
  std::vector<std::future<LoadedPair>> pending_;  // indexed by pair, moved out when consumed
  // The last decoded reference, reused while consecutive pairs share it (datasets list each
  // reference's distortions together).
  struct RefCache;
  std::shared_ptr<RefCache> ref_cache_;
};

}  // namespace mad
