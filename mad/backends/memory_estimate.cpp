// The memory models of mad/backends/memory_estimate.h. Each term names the buffer it counts and the file
// that allocates it; P = W*H pixels, Hf = H*(W/2+1) half-spectrum bins, B = block count.
#include "mad/backends/memory_estimate.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "common/block_grid.h"
#include "common/error.h"
#include "common/stage_scratch.h"
#include "common/workspace_cpu.h"

namespace mad {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
// cudaMalloc hands out memory in 2 MiB pages (small buffers share them, so rounding each one
// up is an upper bound).
constexpr std::size_t kDeviceGranularity = 2 * kMiB;
// Host allowance for what no model term covers: FFTW plans and twiddles (O(W+H) for the
// FFTW_ESTIMATE plans of common/fft_cpu.cpp), per-row scratch, worker thread stacks, code.
constexpr std::size_t kCpuOverhead = 64 * kMiB;

constexpr int kScales = 5, kOrientations = 4, kSubbands = kScales * kOrientations;

std::size_t device_buffer(std::size_t bytes) {
  return (bytes + kDeviceGranularity - 1) / kDeviceGranularity * kDeviceGranularity;
}

void check_shape(int width, int height) {
  if (width < 1 || height < 1)
    throw InvalidArgument("memory estimate: empty image shape " + std::to_string(width) + "x" +
                          std::to_string(height));
}

// cuFFT runs axes whose length has a prime factor above 127 through Bluestein's algorithm on
// a padded power-of-two length >= 2n-1; other lengths are transformed in place of their size.
std::size_t cufft_axis(int n) {
  int m = n;
  for (int p = 2; p <= 127 && m > 1; ++p)
    while (m % p == 0) m /= p;
  if (m == 1) return static_cast<std::size_t>(n);
  std::size_t padded = 1;
  while (padded < 2 * static_cast<std::size_t>(n) - 1) padded *= 2;
  return padded;
}

}  // namespace

GpuPairMemory estimate_gpu_pair_memory(int width, int height, Precision precision) {
  check_shape(width, height);
  const std::size_t real = precision == Precision::Double ? 8 : 4, cplx = 2 * real;
  const std::size_t p = static_cast<std::size_t>(width) * height;
  const std::size_t hf = static_cast<std::size_t>(height) * (width / 2 + 1);
  const std::size_t b = BlockGrid(width, height).count();
  auto dev = device_buffer;
  GpuPairMemory m;

  // appearance/log_gabor_cuda.h: 5 radial factors on the (H/2+1) x (W/2+1) quadrant, 4 angular
  // factor planes.
  const std::size_t quadrant = static_cast<std::size_t>(height / 2 + 1) * (width / 2 + 1);
  m.bank = dev(5 * quadrant * real) + dev(4 * p * real);

  // detection/detection_stage_cuda.cu, its own buffers: table (256), C_s (Hf), and the
  // reference side kept between pairs: L'_ref (P) and two block grids (B each).
  m.detection = dev(256 * real) + dev(hf * real) + dev(p * real) + 2 * dev(b * real);

  // appearance/appearance_stage_cuda.cu, its own buffer: the reference's 3 x 20 statistic grids.
  m.appearance = dev(3 * kSubbands * b * real);

  // The transient region the slot lends both stages: the larger of their layouts (each array
  // 256-byte aligned, common/stage_scratch.h). Detection: lum (P), spectrum (Hf complex),
  // L'_dst (P), two block grids, row sums (P doubles) and the crop partials of the map
  // reduction (one double per 32x32 tile, local_mse_cuda.cu). Appearance: half spectrum
  // (in-place R2C), one scale's 4 complex subbands, the distorted 3 x 4 grids, eta.
  const std::size_t partials = static_cast<std::size_t>((width + 31) / 32) * ((height + 31) / 32);
  ScratchLayout det, app;
  for (std::size_t bytes : {p * real, hf * cplx, p * real, b * real, b * real, p * 8, partials * 8})
    det.add<unsigned char>(bytes);
  for (std::size_t bytes :
       {hf * cplx, kOrientations * p * cplx, 3 * kOrientations * b * real, b * real})
    app.add<unsigned char>(bytes);
  m.scratch = dev(std::max(det.bytes(), app.bytes()));

  // cuFFT: one work area shared by detection's R2C and C2R and appearance's in-place R2C and
  // 4-batch C2C (they run one after another on the slot's stream): the largest plan's need,
  // bounded by its data.
  const std::size_t rows = cufft_axis(height), cols = cufft_axis(width);
  const std::size_t half = rows * (cols / 2 + 1) * cplx;
  const std::size_t full = rows * cols * cplx;
  m.cufft_work = dev(std::max(half, kOrientations * full));

  // mad/backends/pair_slot_cuda.cu: pair uploads as uint8, as double and as colour samples (4 bytes a
  // pixel, RGBA at most; 2P each), the pair widened to Real, the two pooled sums, map.HI |
  // map.LO. The double and colour buffers exist only once such an image came; both count.
  m.staging = dev(2 * p) + dev(2 * p * 8) + dev(2 * p * 4) + dev(2 * p * real) + dev(2 * 8) +
              dev(2 * p * real);
  // The same slot's page-locked host buffers: uint8, double and colour staging, sums, maps.
  m.host_pinned = 2 * p + 2 * p * 8 + 2 * p * 4 + 2 * 8 + 2 * p * real;
  return m;
}

CpuPairMemory estimate_cpu_pair_memory(int width, int height, int threads, bool want_maps) {
  check_shape(width, height);
  if (threads < 1) throw InvalidArgument("memory estimate: threads must be >= 1");
  const std::size_t p = static_cast<std::size_t>(width) * height;
  const std::size_t hf = static_cast<std::size_t>(height) * (width / 2 + 1);
  const std::size_t b = BlockGrid(width, height).count();
  const std::size_t d = sizeof(double), c = 2 * sizeof(double);
  const std::size_t subband_workers = static_cast<std::size_t>(std::min(threads, 2 * kSubbands));

  CpuPairMemory m;
  m.images = 2 * p * d;
  // detection/csf_cpu.cpp: C_s on the half layout; appearance/log_gabor_cpu.cpp: 9 factor
  // planes. Both stay cached per shape (the first pair builds them; later ones find them).
  m.caches = hf * d + 9 * p * d;

  // Each stage's workspace holds all its buffers at once while the stage runs.
  // Detection (detection/detection_workspace_cpu.h): 8 planes (luminance and CSF output per
  // image, the error, local MSE, its horizontal sums, the map); per image the CSF's half
  // spectrum and the transforms' copies (a half spectrum, a packed plane); the block statistics
  // (3 grids, the 8x8 stds, the mask).
  const std::size_t detection = 8 * p * d + 2 * (2 * hf * c + p * d) + 5 * b * d;
  // Appearance (appearance/appearance_workspace_cpu.h): per image a full spectrum, its
  // transform's copies and the 20 subbands' statistics (3 grids each); per subband thread two
  // complex planes (SubbandScratch) and a magnitude plane; eta and the pooling plane.
  const std::size_t stats = 3 * kSubbands * b * d;
  const std::size_t appearance = 2 * p * c + 2 * (p * d + hf * c) + 2 * stats +
                                 subband_workers * (2 * p * c + p * d) + b * d + p * d;
  m.kept = keep_workspace(width, height);
  if (m.kept) {
    // Kept across pairs (common/workspace_cpu.h): the two add up. A new shape's appearance
    // plans are made while only the detection workspace is held, and their planning arrays (a
    // real, two complex planes and a half spectrum) are smaller than the appearance workspace
    // that follows. A requested map leaves with the result and its successor is allocated with
    // the next pair, so maps change no term.
    m.working = detection + appearance;
  } else {
    // Too large to keep: the detection workspace is freed before the appearance stage starts
    // and the appearance one after it, so the larger of the two is held, plus map.HI while the
    // appearance stage runs (the map left the detection workspace with the result), and at
    // most the planning arrays of a new shape's appearance plans (made before its workspace).
    const std::size_t fft_planning = p * d + 2 * p * c + hf * c;
    m.working = std::max({detection, appearance + (want_maps ? p * d : 0), fft_planning});
  }
  m.overhead = kCpuOverhead;
  return m;
}

}  // namespace mad
