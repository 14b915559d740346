#include "mad/engine/pinned_copies.h"

#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "common/cuda_resources.h"
#include "common/error.h"

namespace mad {

// Free buffers by size (a dataset's images mostly share one), and the bytes allocated.
struct PinnedCopies::Pool {
  std::mutex mutex;
  std::map<std::size_t, std::vector<cuda::PinnedBuffer<std::uint8_t>>> free;
  std::size_t allocated = 0;
  std::size_t max_bytes = 0;
};

// One buffer lent to an image; when the image's last holder lets go, the buffer goes back.
struct PinnedCopies::Lease {
  std::shared_ptr<Pool> pool;
  cuda::PinnedBuffer<std::uint8_t> buffer;
  std::size_t bytes = 0;
  ~Lease() {
    if (buffer.size() == 0) return;
    std::lock_guard<std::mutex> lock(pool->mutex);
    pool->free[bytes].push_back(std::move(buffer));
  }
};

PinnedCopies::PinnedCopies(std::size_t max_bytes) : pool_(std::make_shared<Pool>()) {
  pool_->max_bytes = max_bytes;
}

PinnedCopies::~PinnedCopies() = default;

void PinnedCopies::attach(SourceImage& image) {
  // Pageable samples only: an image that has its copy already may have given them back.
  if (image.colour.samples.empty() || image.pinned_colour) return;
  const std::size_t bytes = image.colour.samples.size();
  auto lease = std::make_shared<Lease>();
  lease->pool = pool_;
  lease->bytes = bytes;
  {
    std::lock_guard<std::mutex> lock(pool_->mutex);
    auto& list = pool_->free[bytes];
    if (!list.empty()) {
      lease->buffer = std::move(list.back());
      list.pop_back();
    } else if (pool_->allocated + bytes > pool_->max_bytes) {
      return;  // full: this image is staged by the scoring thread instead
    } else {
      pool_->allocated += bytes;
    }
  }
  if (lease->buffer.size() == 0) {
    // Allocated outside the lock (cudaMallocHost is slow; other decoders go on meanwhile).
    try {
      lease->buffer = cuda::PinnedBuffer<std::uint8_t>(bytes);
    } catch (const GpuError&) {
      std::lock_guard<std::mutex> lock(pool_->mutex);
      pool_->allocated -= bytes;
      return;  // no page-locked memory: staged instead; the decode itself succeeded
    }
  }
  std::memcpy(lease->buffer.get(), image.colour.samples.data(), bytes);
  std::uint8_t* data = lease->buffer.get();
  image.pinned_colour = std::shared_ptr<const std::uint8_t>(std::move(lease), data);
}

std::size_t PinnedCopies::allocated_bytes() const {
  std::lock_guard<std::mutex> lock(pool_->mutex);
  return pool_->allocated;
}

}  // namespace mad
