// The CUDA backend as seen from CPU-only code: no CUDA types cross this header. Implemented in
// mad/cuda_scorer.cu when the backend is built; without it, constructing one throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/image.h"
#include "common/image_io.h"
#include "mad/device_image.h"
#include "mad/options.h"
#include "mad/score.h"

namespace mad {

// One image as the GPU backend takes it: the double plane and, for 8-bit images, the same
// values as uint8 (width*height, tightly packed), which is what travels to the device.
// Or 8-bit colour samples (`colour` set, `pixels` unused): uploaded as they are and turned into
// gray on the device by the gray kernel (MATLAB weighting, bit-identical to the host).
// Or an image already in device memory (`device` set, `pixels` unused): gathered on the
// device, never copied through the host (mad/device_image.h).
struct CudaInput {
  CudaInput() = default;
  CudaInput(ImageView<const double> p, const std::uint8_t* g8 = nullptr) : pixels(p), gray8(g8) {}
  explicit CudaInput(const RawImage8* c) : colour(c) {}
  explicit CudaInput(const DeviceImage* d) : device(d) {}
  ImageView<const double> pixels;
  const std::uint8_t* gray8 = nullptr;  // null: derived from `pixels` when they fit uint8
  const RawImage8* colour = nullptr;    // set: interleaved RGB or RGBA, read before submit returns
  // Optional, with `colour`: the same samples in page-locked host memory. A distorted image's
  // are then copied to the device from there, with no staging copy on the submitting thread;
  // they must stay valid until the pair is collected.
  const std::uint8_t* pinned_colour = nullptr;
  const DeviceImage* device = nullptr;  // set: a device image, valid until submit() returns
  // Optional: the immutable host object the pixels belong to. A slot keeps its reference's
  // identity (so the object outlives it and its address cannot be reused); a later reference
  // with the same identity is known unchanged without comparing its bytes.
  std::shared_ptr<const void> identity;
  int width() const { return device ? device->width : colour ? colour->width : pixels.width; }
  int height() const { return device ? device->height : colour ? colour->height : pixels.height; }
};

class CudaScorer {
 public:
  // a5_variant: registry name, empty for the default. Throws InvalidArgument for unknown names.
  // det_variant: detection block-statistics registry name, empty for the default.
  // memory_limit: bytes the slots of one shape may use (0: the device's free memory). A shape
  // gets up to four slots (as many as fit); when not even one fits, GpuError states the need
  // before anything is allocated.
  CudaScorer(Precision precision, const std::string& a5_variant,
             const std::string& det_variant = "", std::size_t memory_limit = 0);
  ~CudaScorer();
  CudaScorer(const CudaScorer&) = delete;
  CudaScorer& operator=(const CudaScorer&) = delete;

  // Uploads both images once, runs both stages on the device and reads back the two indices
  // (and the maps when asked). Stages are cached per shape; run() always uses the shape's
  // first slot (one pair at a time needs one). The reference side is reused when `ref` is the
  // same image (same pixels) as in the previous call of its shape.
  StageOutputs run(const CudaInput& ref, const CudaInput& dst, bool uint8_luminance,
                   bool want_maps);
  const std::string& a5_variant() const;

  // Asynchronous use for batches: submit() packs and enqueues a pair on the next free slot of
  // its shape (slots() pairs can be in flight; each has its own stream, so one pair's upload
  // overlaps another's compute) and returns a ticket; collect() waits for a ticket's outputs.
  // Tickets must be collected in submission order, and at most slots() may be outstanding
  // (submit throws otherwise). Results are bit-identical to run().
  std::uint64_t submit(const CudaInput& ref, const CudaInput& dst, bool uint8_luminance,
                       bool want_maps);
  StageOutputs collect(std::uint64_t ticket);
  int slots() const;
  // Slots planned for a shape (plans it if new): how many of its pairs may be in flight.
  int slots_for(int width, int height);
  std::size_t in_flight() const;
  // True when the last submitted pair reused its slot's reference side.
  bool last_reused_reference() const;
  // Peak device memory in use by this scorer (all shapes and slots), in bytes.
  std::size_t device_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mad
