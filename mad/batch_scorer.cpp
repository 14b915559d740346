#include "mad/batch_scorer.h"

#include <chrono>

#include "common/error.h"

namespace mad {
namespace {
double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

BatchScorer::BatchScorer(ScoreOptions options)
    : options_(std::move(options)), backend_(resolve_backend(options_.backend)) {
  if (backend_ == Backend::Cuda) {
    gpu_ = std::make_unique<CudaScorer>(options_.precision, options_.a5_variant,
                                        options_.det_variant, options_.gpu_memory_limit);
  } else {
    ScoreOptions cpu = options_;
    cpu.backend = Backend::Cpu;
    cpu_ = std::make_unique<Scorer>(cpu);
  }
}

BatchScorer::~BatchScorer() {
  // Outstanding GPU pairs read pinned staging owned by the scorer: finish them first.
  try {
    while (gpu_ && gpu_->in_flight() > 0) complete_oldest_gpu();
  } catch (...) {
  }
}

std::size_t BatchScorer::device_bytes() const {
  return gpu_ ? gpu_->device_bytes() : 0;
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

template <class Image, class CpuGray>
std::vector<BatchScorer::Finished> BatchScorer::submit_images(std::uint64_t tag,
                                                              std::shared_ptr<const Image> ref,
                                                              std::shared_ptr<const Image> dst,
                                                              CpuGray cpu_gray) {
  Entry e;
  e.finished.tag = tag;
  try {
    if (cpu_) {
      e.finished.result = cpu_->score(*cpu_gray(ref), *cpu_gray(dst));
      e.finished.ok = true;
      e.done = true;
    } else {
      e.pair = setup_pair(*ref, *dst, options_);
    }
  } catch (const GpuError&) {
    throw;
  } catch (const Error& err) {
    e.finished.error = err.what();
    e.done = true;
  }
  if (!e.done) {
    CudaInput ref_input = cuda_input(*ref);
    ref_input.identity = ref;  // the decoder shares one object between a reference's pairs
    enqueue_gpu(e, ref_input, cuda_input(*dst));
    e.ref = std::move(ref);
    e.dst = std::move(dst);
  }
  queue_.push_back(std::move(e));
  return pop_ready();
}

std::vector<BatchScorer::Finished> BatchScorer::submit(std::uint64_t tag,
                                                       std::shared_ptr<const GrayImage> ref,
                                                       std::shared_ptr<const GrayImage> dst) {
  return submit_images(tag, std::move(ref), std::move(dst),
                       [](const std::shared_ptr<const GrayImage>& g) { return g; });
}

std::vector<BatchScorer::Finished> BatchScorer::submit(std::uint64_t tag,
                                                       std::shared_ptr<const SourceImage> ref,
                                                       std::shared_ptr<const SourceImage> dst) {
  // Colour samples only reach the host conversion on the CPU backend; a GPU worker's decoder
  // keeps them (load_source_image) so the device converts them.
  return submit_images(tag, std::move(ref), std::move(dst),
                       [](const std::shared_ptr<const SourceImage>& s) {
                         return s->has_colour() ? std::make_shared<const GrayImage>(gray_of(*s))
                                                : std::shared_ptr<const GrayImage>(s, &s->gray);
                       });
}

std::vector<BatchScorer::Finished> BatchScorer::submit_device(std::uint64_t tag,
                                                              const DeviceImage& ref,
                                                              const DeviceImage& dst) {
  if (!gpu_) throw GpuError("GPU arrays need the CUDA backend (this scorer uses the CPU backend)");
  Entry e;
  e.finished.tag = tag;
  try {
    validate_device_image(ref, "reference");
    validate_device_image(dst, "distorted");
    validate_pair_shape(ref.width, ref.height, dst.width, dst.height);
    e.pair.width = ref.width;
    e.pair.height = ref.height;
    e.pair.input_class =
        resolve_input_class(ref.bit_depth(), dst.bit_depth(), options_.input_class);
  } catch (const GpuError&) {
    throw;
  } catch (const Error& err) {
    e.finished.error = err.what();
    e.done = true;
  }
  if (!e.done) enqueue_gpu(e, CudaInput(&ref), CudaInput(&dst));
  queue_.push_back(std::move(e));
  return pop_ready();
}

void BatchScorer::enqueue_gpu(Entry& e, const CudaInput& ref, const CudaInput& dst) {
  const auto room = static_cast<std::size_t>(gpu_->slots_for(e.pair.width, e.pair.height));
  while (gpu_->in_flight() >= room) complete_oldest_gpu();
  e.start = now_seconds();
  e.ticket = gpu_->submit(ref, dst, e.pair.uint8_luminance(), options_.want_maps);
  if (gpu_->last_reused_reference()) ++reuses_;
}

void BatchScorer::complete_oldest_gpu() {
  for (Entry& e : queue_) {
    if (e.done) continue;
    const double wait_start = now_seconds();
    StageOutputs out = gpu_->collect(e.ticket);
    gpu_wait_seconds_ += now_seconds() - wait_start;
    e.finished.result = assemble_score(e.pair, std::move(out), options_, Backend::Cuda,
                                       gpu_->a5_variant(), now_seconds() - e.start);
    e.finished.ok = true;
    e.done = true;
    e.ref.reset();
    e.dst.reset();
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
  while (gpu_ && gpu_->in_flight() > 0) complete_oldest_gpu();
  return pop_ready();
}

}  // namespace mad
