#include "mad/engine/pair_prefetcher.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "common/allotment.h"
#include "common/error.h"
#include "common/parallel.h"

namespace mad {

// A fixed set of decoding threads fed from one queue. A 512x384 PNG decodes in milliseconds;
// starting a thread for each (std::async) cost the scoring thread tens of microseconds a pair,
// which a GPU worker scoring thousands of pairs a second cannot spare.
class PairPrefetcher::DecodePool {
 public:
  explicit DecodePool(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { serve(); });
  }
  ~DecodePool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (auto& t : threads_) t.join();
  }
  std::size_t size() const { return threads_.size(); }

  template <class F>
  auto submit(F f) -> std::future<decltype(f())> {
    auto task = std::make_shared<std::packaged_task<decltype(f())()>>(std::move(f));
    auto future = task->get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.emplace_back([task] { (*task)(); });
    }
    ready_.notify_one();
    return future;
  }

 private:
  void serve() {
    name_this_thread("mad-decode");
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      job();  // a packaged_task: exceptions land in its future
    }
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

struct PairPrefetcher::RefCache {
  std::mutex mutex;
  std::string path;
  std::shared_future<std::shared_ptr<const SourceImage>> image;
};

std::size_t decoded_pair_bytes(const SourceImage& ref, const SourceImage& dist) {
  const auto bytes = [](const SourceImage& s) {
    // Colour from the shape: an image with a page-locked copy has given its pageable samples
    // back, but each decoded image ahead still holds that many bytes somewhere.
    return s.gray.pixels.pixel_count() * sizeof(double) + s.gray.gray8.size() + s.colour_bytes();
  };
  return bytes(ref) + bytes(dist);
}

PairPrefetcher::PairPrefetcher(std::vector<PairPaths> pairs, PrefetchDepth depth, bool keep_8bit,
                               std::function<void(SourceImage&)> prepare_distorted)
    : pairs_(std::move(pairs)),
      depth_(depth),
      keep_8bit_(keep_8bit),
      prepare_distorted_(std::move(prepare_distorted)),
      lookahead_(std::max<std::size_t>(1, std::min(depth.initial_pairs, depth.max_pairs))),
      pending_(pairs_.size()),
      ref_cache_(std::make_shared<RefCache>()),
      // As many threads as decodes may be in flight, up to the cores (or as asked).
      pool_(std::make_unique<DecodePool>(static_cast<unsigned>(
          depth.threads > 0
              ? depth.threads
              : std::clamp<std::size_t>(depth.max_pairs, 1,
                                        static_cast<std::size_t>(process_allotment().cpus))))) {
  schedule_until(lookahead_);
}

PairPrefetcher::~PairPrefetcher() {
  for (auto& p : pending_) {
    if (p.dist.valid()) p.dist.wait();
    if (p.ref.valid()) p.ref.wait();
  }
}

std::size_t PairPrefetcher::decode_threads() const {
  return pool_->size();
}

std::shared_ptr<const SourceImage> PairPrefetcher::decode(const std::string& path, bool distorted) {
  const auto start = std::chrono::steady_clock::now();
  struct Count {  // counted whether the decode succeeds or throws
    PairPrefetcher* self;
    std::chrono::steady_clock::time_point start;
    ~Count() {
      self->decode_nanoseconds_ += std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::steady_clock::now() - start)
                                       .count();
      ++self->decoded_images_;
    }
  } count{this, start};
  auto image = std::make_shared<SourceImage>(load_source_image(path, keep_8bit_));
  if (distorted && prepare_distorted_) prepare_distorted_(*image);
  return image;
}

void PairPrefetcher::schedule_until(std::size_t end) {
  end = std::min(end, pairs_.size());
  for (; scheduled_ < end; ++scheduled_) {
    const std::size_t i = scheduled_;
    const PairPaths paths = pairs_[i];
    if (paths.skip) {
      std::promise<LoadedPair> empty;
      empty.set_value(LoadedPair{i, nullptr, nullptr, ""});
      pending_[i].dist = empty.get_future();
      continue;
    }
    // The reference decode is shared: consecutive pairs with the same reference path wait on
    // one decode instead of repeating it. It is queued before its first distorted image.
    {
      std::lock_guard<std::mutex> lock(ref_cache_->mutex);
      if (ref_cache_->path != paths.ref || !ref_cache_->image.valid()) {
        ref_cache_->path = paths.ref;
        ref_cache_->image =
            pool_->submit([this, p = paths.ref] { return decode(p, false); }).share();
      }
      pending_[i].ref = ref_cache_->image;
    }
    pending_[i].dist = pool_->submit([this, i, p = paths.dist] {
      LoadedPair out;
      out.index = i;
      try {
        out.dist = decode(p, true);
      } catch (const std::exception& e) {
        out.error = e.what();
      }
      return out;
    });
  }
}

LoadedPair PairPrefetcher::next() {
  if (next_ >= pairs_.size()) throw Error("PairPrefetcher: no more pairs");
  Pending pending = std::move(pending_[next_]);
  LoadedPair p = pending.dist.get();
  if (p.error.empty() && pending.ref.valid()) {
    try {
      p.ref = pending.ref.get();
    } catch (const std::exception& e) {
      p.error = e.what();
    }
  }
  if (!p.error.empty()) p.ref.reset(), p.dist.reset();
  ++next_;
  if (!sized_ && p.ref && p.dist) {
    sized_ = true;
    const std::size_t per_pair = std::max<std::size_t>(1, decoded_pair_bytes(*p.ref, *p.dist));
    std::size_t most = depth_.max_pairs;
    const std::size_t colour_bytes = p.dist->colour_bytes();
    if (depth_.pinned_bytes > 0 && colour_bytes > 0)
      most = std::min(most, std::max(kMinPinnedLookahead, depth_.pinned_bytes / colour_bytes));
    lookahead_ = std::clamp<std::size_t>(depth_.memory_budget_bytes / per_pair, 1,
                                         std::max<std::size_t>(1, most));
  }
  schedule_until(next_ + lookahead_);
  return p;
}

}  // namespace mad
