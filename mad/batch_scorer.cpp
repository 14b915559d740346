#include "mad/batch_scorer.h"

#include <chrono>

#include "common/error.h"
#include "mad/backends/pair_backend.h"
#include "mad/combine.h"
#include "mad/score.h"

namespace mad {
namespace {

// Checks a pair before any work (sizes, input class) and states what the combination needs.
PairSetup setup_pair(const GrayImage& ref, const GrayImage& dst, const ScoreOptions& options) {
  validate_pair(ref, dst);
  PairSetup p;
  p.width = ref.pixels.width();
  p.height = ref.pixels.height();
  p.input_class = resolve_input_class(ref, dst, options.input_class);
  return p;
}

PairSetup setup_pair(const SourceImage& ref, const SourceImage& dst, const ScoreOptions& options) {
  validate_pair_shape(ref.width(), ref.height(), dst.width(), dst.height());
  PairSetup p;
  p.width = ref.width();
  p.height = ref.height();
  p.input_class = resolve_input_class(ref.bit_depth(), dst.bit_depth(), options.input_class);
  return p;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The one place a score is assembled (every backend, every front door): combines the indices
// (spec §5) and records how they were computed.
ScoreResult assemble_score(const PairSetup& pair, StageOutputs out, const ScoreOptions& options,
                           Backend backend, const std::string& a5_variant, double seconds) {
  ScoreResult r;
  r.width = pair.width;
  r.height = pair.height;
  r.version = options.version;
  r.input_class = pair.input_class;
  r.backend = backend;
  r.precision = backend == Backend::Cuda ? options.precision : Precision::Double;
  r.a5_variant = a5_variant;
  r.d_detect = out.d_detect;
  const Combined c = combine(out.d_detect, out.d_appear, options.version);
  r.mad = c.mad;
  r.hi = c.hi;
  r.lo = c.lo;
  r.sig = c.sig;
  r.map_hi = std::move(out.map_hi);
  r.map_lo = std::move(out.map_lo);
  r.seconds = seconds;
  return r;
}

// The options a scorer on `backend` runs with: the request it resolved, now named.
ScoreOptions on_backend(ScoreOptions options, ResolvedBackend backend) {
  if (options.backend != Backend::Auto && options.backend != backend.kind())
    throw InvalidArgument("the options ask for the " + to_string(options.backend) +
                          " backend but the scorer was given the " + to_string(backend.kind()) +
                          " backend");
  options.backend = backend;
  return options;
}

// A pair's own failure: kept with its message, so the row fails and the run goes on.
void fail(BatchScorer::Finished& f, const Error& err) {
  f.ok = false;
  f.error = err.what();
  f.failure = std::current_exception();
}

}  // namespace

BatchScorer::BatchScorer(ScoreOptions options, ResolvedBackend backend)
    : options_(on_backend(std::move(options), backend)),
      backend_(make_backend(backend, options_)) {}

BatchScorer::BatchScorer(ScoreOptions options, std::unique_ptr<PairBackend> backend)
    : options_(std::move(options)), backend_(std::move(backend)) {
  if (!backend_) throw InternalError("BatchScorer: no backend");
  options_.backend = backend_->kind();
}

Backend BatchScorer::backend() const {
  return backend_->kind();
}

std::size_t BatchScorer::device_bytes() const {
  return backend_->device_bytes();
}

BatchScorer::~BatchScorer() {
  try {
    drain();
  } catch (...) {
    // A failed device: the slots' destructors still wait for their streams (backend_ goes
    // before queue_), so nothing the device reads is released under it.
  }
}

std::vector<BatchScorer::Finished> BatchScorer::submit_failed(std::uint64_t tag,
                                                              std::string error) {
  Entry e;
  e.finished.tag = tag;
  e.finished.error = std::move(error);
  e.done = true;
  queue_.push_back(std::move(e));
  return pop_ready();
}

void BatchScorer::start(Entry& e, const PairInput& ref, const PairInput& dst) {
  try {
    while (!backend_->can_submit(e.pair.width, e.pair.height)) {
      // The seam's promise: never full with nothing in flight (so this loop ends).
      if (backend_->in_flight() == 0)
        throw InternalError("BatchScorer: the backend has no room with nothing in flight");
      complete_oldest();
    }
    e.start = now_seconds();
    e.ticket = backend_->submit(ref, dst, e.pair.uint8_luminance(), options_.want_maps);
    if (backend_->last_reused_reference()) ++reuses_;
  } catch (const GpuError&) {
    throw;
  } catch (const InternalError&) {
    throw;
  } catch (const Error& err) {
    fail(e.finished, err);
    e.done = true;
  }
}

template <class Image>
std::vector<BatchScorer::Finished> BatchScorer::submit_images(std::uint64_t tag,
                                                              std::shared_ptr<const Image> ref,
                                                              std::shared_ptr<const Image> dst,
                                                              bool owned) {
  Entry e;
  e.finished.tag = tag;
  try {
    e.pair = setup_pair(*ref, *dst, options_);
  } catch (const Error& err) {
    fail(e.finished, err);
    e.done = true;
  }
  if (!e.done) {
    PairInput ref_input = pair_input(*ref);
    if (owned) ref_input.identity = ref;  // the decoder shares one object between its pairs
    start(e, ref_input, pair_input(*dst));
  }
  if (!e.done) e.keep = std::make_shared<std::pair<decltype(ref), decltype(dst)>>(ref, dst);
  queue_.push_back(std::move(e));
  // Nothing to overlap when the backend holds one pair of this shape: deliver it now.
  if (!queue_.back().done && backend_->capacity(queue_.back().pair.width,
                                                queue_.back().pair.height) == 1)
    complete_oldest();
  return pop_ready();
}

std::vector<BatchScorer::Finished> BatchScorer::submit(std::uint64_t tag,
                                                       std::shared_ptr<const GrayImage> ref,
                                                       std::shared_ptr<const GrayImage> dst) {
  return submit_images(tag, std::move(ref), std::move(dst), true);
}

std::vector<BatchScorer::Finished> BatchScorer::submit(std::uint64_t tag,
                                                       std::shared_ptr<const SourceImage> ref,
                                                       std::shared_ptr<const SourceImage> dst) {
  return submit_images(tag, std::move(ref), std::move(dst), true);
}

std::vector<BatchScorer::Finished> BatchScorer::submit_device(
    std::uint64_t tag, const DeviceImage& ref, const DeviceImage& dst,
    std::shared_ptr<const void> keep_alive) {
  Entry e;
  e.finished.tag = tag;
  try {
    validate_device_image(ref, "reference");
    validate_device_image(dst, "distorted");
    if (ref.device != dst.device)
      throw InputError("reference is on GPU " + std::to_string(ref.device) +
                       " but distorted is on GPU " + std::to_string(dst.device) +
                       "; MAD needs both on the same device");
    validate_pair_shape(ref.width, ref.height, dst.width, dst.height);
    e.pair.width = ref.width;
    e.pair.height = ref.height;
    e.pair.input_class =
        resolve_input_class(ref.bit_depth(), dst.bit_depth(), options_.input_class);
  } catch (const GpuError&) {
    throw;
  } catch (const Error& err) {
    fail(e.finished, err);
    e.done = true;
  }
  if (!e.done) start(e, PairInput(&ref), PairInput(&dst));
  if (!e.done) e.keep = std::move(keep_alive);
  queue_.push_back(std::move(e));
  return pop_ready();
}

ScoreResult BatchScorer::score_one(const GrayImage& ref, const GrayImage& dst) {
  if (!queue_.empty()) throw InternalError("BatchScorer::score_one with pairs queued");
  // Borrowed: the images outlive this call, and drain() returns before it ends.
  auto borrow = [](const GrayImage& g) { return std::shared_ptr<const GrayImage>(std::shared_ptr<const void>(), &g); };
  std::vector<Finished> done = submit_images(0, borrow(ref), borrow(dst), false);
  if (done.empty()) done = drain();
  if (done.size() != 1) throw InternalError("BatchScorer::score_one: not one pair returned");
  if (!done[0].ok) {
    if (done[0].failure) std::rethrow_exception(done[0].failure);
    throw InputError(done[0].error);
  }
  return std::move(done[0].result);
}

void BatchScorer::complete_oldest() {
  for (Entry& e : queue_) {
    if (e.done) continue;
    const double wait_start = now_seconds();
    e.done = true;  // finished whatever collect() does (the seam's contract)
    try {
      StageOutputs out = backend_->collect(e.ticket);
      // Time blocked on a device; the CPU backend's outputs are ready when collected.
      if (backend_->kind() == Backend::Cuda) gpu_wait_seconds_ += now_seconds() - wait_start;
      e.finished.result = assemble_score(e.pair, std::move(out), options_, backend_->kind(),
                                         backend_->a5_variant(), now_seconds() - e.start);
      e.finished.ok = true;
    } catch (const GpuError& err) {
      fail(e.finished, err);
      e.keep.reset();
      throw;
    } catch (const InternalError&) {
      throw;
    } catch (const Error& err) {
      fail(e.finished, err);
    }
    e.keep.reset();
    return;
  }
}

std::vector<BatchScorer::Finished> BatchScorer::pop_ready() {
  std::vector<Finished> out;
  while (!queue_.empty() && queue_.front().done) {
    out.push_back(std::move(queue_.front().finished));
    queue_.pop_front();
  }
  return out;
}

std::vector<BatchScorer::Finished> BatchScorer::drain() {
  while (backend_->in_flight() > 0) complete_oldest();
  return pop_ready();
}

}  // namespace mad
