#include "mad/pair_prefetcher.h"

#include <mutex>

#include "common/error.h"

namespace mad {

struct PairPrefetcher::RefCache {
  std::mutex mutex;
  std::string path;
  std::shared_future<std::shared_ptr<const GrayImage>> image;
};

PairPrefetcher::PairPrefetcher(std::vector<PairPaths> pairs, std::size_t lookahead)
    : pairs_(std::move(pairs)),
      lookahead_(lookahead ? lookahead : 1),
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
    std::shared_future<std::shared_ptr<const GrayImage>> ref_future;
    {
      std::lock_guard<std::mutex> lock(ref_cache_->mutex);
      if (ref_cache_->path != paths.ref || !ref_cache_->image.valid()) {
        ref_cache_->path = paths.ref;
        ref_cache_->image = std::async(std::launch::async, [p = paths.ref] {
                              return std::shared_ptr<const GrayImage>(
                                  std::make_shared<GrayImage>(load_gray_image(p)));
                            }).share();
      }
      ref_future = ref_cache_->image;
    }
    pending_[i] = std::async(std::launch::async, [i, paths, ref_future] {
      LoadedPair out;
      out.index = i;
      try {
        out.dist = std::make_shared<GrayImage>(load_gray_image(paths.dist));
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
  schedule_until(next_ + lookahead_);
  return p;
}

}  // namespace mad
