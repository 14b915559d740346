#include "mad/pair_prefetcher.h"

#include <algorithm>
#include <mutex>

#include "common/error.h"

namespace mad {

struct PairPrefetcher::RefCache {
  std::mutex mutex;
  std::string path;
  std::shared_future<std::shared_ptr<const SourceImage>> image;
};

std::size_t decoded_pair_bytes(const SourceImage& ref, const SourceImage& dist) {
  const auto bytes = [](const SourceImage& s) {
    return s.gray.pixels.pixel_count() * sizeof(double) + s.gray.gray8.size() +
           s.colour.samples.size();
  };
  return bytes(ref) + bytes(dist);
}

PairPrefetcher::PairPrefetcher(std::vector<PairPaths> pairs, PrefetchDepth depth, bool keep_colour)
    : pairs_(std::move(pairs)),
      depth_(depth),
      keep_colour_(keep_colour),
      lookahead_(std::max<std::size_t>(1, std::min(depth.initial_pairs, depth.max_pairs))),
      pending_(pairs_.size()),
      ref_cache_(std::make_shared<RefCache>()) {
  schedule_until(lookahead_);
}

PairPrefetcher::~PairPrefetcher() {
  for (auto& f : pending_)
    if (f.valid()) f.wait();
}

void PairPrefetcher::schedule_until(std::size_t end) {
  end = std::min(end, pairs_.size());
  for (; scheduled_ < end; ++scheduled_) {
    const std::size_t i = scheduled_;
    const PairPaths paths = pairs_[i];
    if (paths.skip) {
      std::promise<LoadedPair> empty;
      empty.set_value(LoadedPair{i, nullptr, nullptr, ""});
      pending_[i] = empty.get_future();
      continue;
    }
    // The reference decode is shared: consecutive pairs with the same reference path wait on
    // one decode instead of repeating it.
    std::shared_future<std::shared_ptr<const SourceImage>> ref_future;
    {
      std::lock_guard<std::mutex> lock(ref_cache_->mutex);
      if (ref_cache_->path != paths.ref || !ref_cache_->image.valid()) {
        ref_cache_->path = paths.ref;
        ref_cache_->image = std::async(std::launch::async, [p = paths.ref, k = keep_colour_] {
                              return std::shared_ptr<const SourceImage>(
                                  std::make_shared<SourceImage>(load_source_image(p, k)));
                            }).share();
      }
      ref_future = ref_cache_->image;
    }
    pending_[i] = std::async(std::launch::async, [i, paths, ref_future, k = keep_colour_] {
      LoadedPair out;
      out.index = i;
      try {
        out.dist = std::make_shared<SourceImage>(load_source_image(paths.dist, k));
        out.ref = ref_future.get();
      } catch (const std::exception& e) {
        out.error = e.what();
        out.ref.reset();
        out.dist.reset();
      }
      return out;
    });
  }
}

LoadedPair PairPrefetcher::next() {
  if (next_ >= pairs_.size()) throw Error("PairPrefetcher: no more pairs");
  LoadedPair p = pending_[next_].get();
  ++next_;
  if (!sized_ && p.ref && p.dist) {
    sized_ = true;
    const std::size_t per_pair = std::max<std::size_t>(1, decoded_pair_bytes(*p.ref, *p.dist));
    lookahead_ = std::clamp<std::size_t>(depth_.memory_budget_bytes / per_pair, 1,
                                         std::max<std::size_t>(1, depth_.max_pairs));
  }
  schedule_until(next_ + lookahead_);
  return p;
}

}  // namespace mad
