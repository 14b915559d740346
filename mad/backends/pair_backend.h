// The scoring seam: what every way of scoring (one pair, a list, a dataset, Python) runs on.
// A backend computes a pair's two stage outputs; mad::BatchScorer (mad/batch_scorer.h) owns one,
// feeds it pairs and is the only place a score is assembled from them. Two implementations:
//   - the CPU backend (mad/backends/cpu_backend.cpp): one pair at a time, computed as it is submitted;
//   - the CUDA backend (mad/backends/cuda_backend.cu): mad::SlotScheduler (mad/backends/slot_scheduler.h) over
//     GPU pair slots, several pairs in flight.
// No CUDA types cross this header: CPU-only builds, tests and tools include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/image.h"
#include "common/image_io.h"
#include "mad/backend_choice.h"
#include "mad/device_image.h"
#include "mad/options.h"

namespace mad {

// A pair's two indices as a backend computes them, before the combination (spec §5).
struct StageOutputs {
  double d_detect = 0.0;  // unscaled
  double d_appear = 0.0;
  Image<double> map_hi, map_lo;  // when requested
};


// One image as a backend takes it: the double plane and, for 8-bit images, the same values as
// uint8 (width*height, tightly packed), which is what travels to a device.
// Or that uint8 plane alone (gray8_only(): `pixels` carries the shape, its data null): an 8-bit
// gray file decoded for a GPU worker (SourceImage::gray8_only); the CUDA backend uploads it as
// ever, the CPU backend widens it on the host (the same values).
// Or 8-bit colour samples (`colour` set, `pixels` unused): the CUDA backend uploads them as they
// are and turns them into gray with the gray kernel; the CPU backend converts them on the host
// (the same MATLAB weighting, bit-identical).
// Or an image already in device memory (`device` set, `pixels` unused; CUDA backend only):
// gathered on the device, never copied through the host (mad/device_image.h).
struct PairInput {
  PairInput() = default;
  PairInput(ImageView<const double> p, const std::uint8_t* g8 = nullptr) : pixels(p), gray8(g8) {}
  explicit PairInput(const RawImage8* c) : colour(c) {}
  explicit PairInput(const DeviceImage* d) : device(d) {}
  static PairInput gray8_only(const std::uint8_t* g8, int width, int height) {
    return PairInput(ImageView<const double>(nullptr, width, height), g8);
  }
  ImageView<const double> pixels;
  const std::uint8_t* gray8 = nullptr;  // null: derived from `pixels` when they fit uint8
  const RawImage8* colour = nullptr;    // set: interleaved RGB or RGBA, read before submit returns
  // Optional, with `colour`: the same samples in page-locked host memory. A distorted image's
  // are then copied to the device from there, with no staging copy on the submitting thread;
  // they must stay valid until the pair is collected.
  const std::uint8_t* pinned_colour = nullptr;
  const DeviceImage* device = nullptr;  // set: a device image, valid until the pair is collected
  // Optional: the immutable host object the pixels belong to. A GPU slot keeps its reference's
  // identity (so the object outlives it and its address cannot be reused); a later reference
  // with the same identity is known unchanged without comparing its bytes.
  std::shared_ptr<const void> identity;
  bool is_gray8_only() const { return !device && !colour && gray8 && !pixels.data; }
  int width() const { return device ? device->width : colour ? colour->width : pixels.width; }
  int height() const { return device ? device->height : colour ? colour->height : pixels.height; }
};

// The backend's view of an image (its uint8 plane when it has one) ...
PairInput pair_input(const GrayImage& image);
// ... and of a source image (its colour samples or its uint8 plane alone when it holds them).
PairInput pair_input(const SourceImage& image);

class PairBackend {
 public:
  virtual ~PairBackend() = default;
  PairBackend() = default;
  PairBackend(const PairBackend&) = delete;
  PairBackend& operator=(const PairBackend&) = delete;

  virtual Backend kind() const = 0;  // Cpu or Cuda, never Auto
  // The A5 variant the GPU runs (registry name); empty on the CPU.
  virtual const std::string& a5_variant() const = 0;

  // How many pairs of a width x height shape this backend can hold in flight together (1 on
  // the CPU). Throws InputError, stating the need, for a shape it can never hold (a GPU pair
  // larger than the memory budget): that pair cannot be scored here.
  virtual int capacity(int width, int height) = 0;
  // True when a pair of this shape can be submitted now. False: collect the oldest ticket
  // first (then it becomes true: never false while nothing is in flight). Throws as capacity().
  virtual bool can_submit(int width, int height) = 0;
  // Starts one pair (both images of the same shape; validated by the caller) and returns its
  // ticket. Host inputs are read before it returns; device inputs and pinned colour samples
  // must stay valid until the ticket is collected. On a throw nothing was started.
  virtual std::uint64_t submit(const PairInput& ref, const PairInput& dst, bool uint8_luminance,
                               bool want_maps) = 0;
  // Waits for the oldest ticket (tickets are collected in submission order) and returns its
  // outputs. On a throw the ticket is finished (failed) all the same.
  virtual StageOutputs collect(std::uint64_t ticket) = 0;
  virtual std::size_t in_flight() const = 0;
  // True when the last submitted pair reused the reference side of an earlier pair (spec §11).
  virtual bool last_reused_reference() const = 0;
  // Peak device memory held by this backend (all shapes and slots), in bytes; 0 on the CPU.
  virtual std::size_t device_bytes() const = 0;
};

// What a backend asks of whoever feeds it many pairs, known before one is made: the engine
// (mad/engine/) plans its workers, its decoding and its copies from these, never from which
// backend it is.
struct BackendTraits {
  // Its work runs on devices: one worker per device used (or --workers-per-gpu of them), each
  // binding its thread to its device before it makes its scorer, and a device's memory budget
  // shared by its workers. Off: --cpu-workers workers on the host.
  bool uses_devices = false;
  // It takes 8-bit images as their samples (colour, or a gray file's uint8 plane alone) and
  // converts them itself; the decoder then makes no double plane. Off: it reads double planes.
  bool takes_8bit_samples = false;
  // It copies distorted colour samples from page-locked host memory without a staging copy on
  // the scoring thread, so the decoding threads make such copies (mad/engine/pinned_copies.h).
  bool reads_page_locked_copies = false;
  // Its scoring thread spins while it waits for the device (CUDA's default), holding a core
  // the decoding threads then leave free.
  bool holds_core_while_waiting = false;
};

// A backend as the engine takes it: what it is, its traits and how to make one (for each
// worker, with that worker's options). Tests make their own with fake backends.
struct BackendMaker {
  ResolvedBackend backend;
  BackendTraits traits;
  std::function<std::unique_ptr<PairBackend>(const ScoreOptions&)> make;
};

// The traits of the backend make_backend makes.
BackendTraits backend_traits(ResolvedBackend backend);
// The backend named (Auto cannot reach here: it is resolved once per run, mad::choose_backend).
// Throws GpuError for Cuda in a build without it or without a device, InvalidArgument for
// unknown variant names. options.backend is not read.
std::unique_ptr<PairBackend> make_backend(ResolvedBackend backend, const ScoreOptions& options);
// backend_traits and make_backend together.
BackendMaker backend_maker(ResolvedBackend backend);

// The two implementations, for make_backend and tests.
std::unique_ptr<PairBackend> make_cpu_backend(const ScoreOptions& options);
std::unique_ptr<PairBackend> make_cuda_backend(const ScoreOptions& options);

}  // namespace mad
