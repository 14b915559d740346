// Images already in device memory (mad/device_image.h: what mad.torch and CuPy hand over),
// through BatchScorer::submit_device: every dtype and layout the gather takes (uint8, uint16,
// float and double gray; uint8 RGB and RGBA interleaved, planar, with padded rows and upside
// down), 8 shapes in a seeded random order (more than the scorer keeps, so shapes are evicted
// with pairs in flight), references given again for the next pair, in both precisions.
//
// Oracles: the same images as host images through the GPU path, bit for bit (the gather
// computes each value as common/ does on the host), and the CPU path within the shape zoo's
// bounds. The images come on streams of their own, uploaded asynchronously just before each
// submit and overwritten just after it: a gather not ordered after the upload, or the caller's
// stream not ordered after the gather, scores other pixels (check_sequence). Since 8f58122 the
// stages after the gather replay captured graphs; a graph that kept an earlier pair's inputs
// shows here as a score of the wrong pair. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common/cuda_resources.h"
#include "common/image_io.h"
#include "mad/batch_scorer.h"
#include "mad/score.h"
#include "mad/device_image.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

// The shape zoo's bounds (tests/mad/shape_zoo_cuda_test.cpp).
constexpr double kDoubleRel = 1e-12;
constexpr double kFloatRel = 1e-4;

enum class Layout { Interleaved, Pitched, Planar, Flipped };

struct Form {
  int width, height, channels;
  DeviceDtype dtype;
  Layout layout;
};

std::string describe(const Form& f) {
  static const char* dtypes[] = {"u8", "u16", "f32", "f64"};
  static const char* layouts[] = {"interleaved", "pitched", "planar", "flipped"};
  return std::to_string(f.width) + "x" + std::to_string(f.height) + "x" +
         std::to_string(f.channels) + " " + dtypes[static_cast<int>(f.dtype)] + " " +
         layouts[static_cast<int>(f.layout)];
}

// One image: its samples (interleaved, row-major, on the dtype's own scale), the host image
// the same samples make (common/'s rules), and its copy on the device in `form.layout`.
struct TestImage {
  Form form;
  std::vector<double> samples;
  std::shared_ptr<const GrayImage> host;
  cuda::PinnedBuffer<unsigned char> staging;  // the upload's source, alive until the end
  cuda::DeviceBuffer<unsigned char> memory;
  DeviceImage device;
};

std::size_t element_bytes(DeviceDtype d) {
  switch (d) {
    case DeviceDtype::U8: return 1;
    case DeviceDtype::U16: return 2;
    case DeviceDtype::F32: return 4;
    case DeviceDtype::F64: return 8;
  }
  return 8;
}

template <class T>
void put(unsigned char* base, std::ptrdiff_t index, double v) {
  const T t = static_cast<T>(v);
  std::memcpy(base + index * static_cast<std::ptrdiff_t>(sizeof(T)), &t, sizeof(T));
}

std::shared_ptr<const GrayImage> host_image(const Form& f, const std::vector<double>& samples) {
  switch (f.dtype) {
    case DeviceDtype::U8:
      return std::make_shared<GrayImage>(
          gray_from_samples(f.width, f.height, f.channels,
                            std::vector<std::uint8_t>(samples.begin(), samples.end()), "host"));
    case DeviceDtype::U16:
      return std::make_shared<GrayImage>(
          gray_from_samples(f.width, f.height, f.channels,
                            std::vector<std::uint16_t>(samples.begin(), samples.end()), "host"));
    default:
      return std::make_shared<GrayImage>(gray_from_real_samples(
          f.width, f.height, f.channels, samples, f.dtype == DeviceDtype::F32 ? 32 : 64, "host"));
  }
}

// Builds the image and enqueues its upload on `caller` (not waited for).
std::unique_ptr<TestImage> make_image(const Form& f, std::uint32_t seed, cudaStream_t caller) {
  auto img = std::make_unique<TestImage>();
  img->form = f;
  std::mt19937 rng(seed);
  const std::size_t values = static_cast<std::size_t>(f.width) * f.height * f.channels;
  img->samples.resize(values);
  for (double& v : img->samples) {
    switch (f.dtype) {
      case DeviceDtype::U8: v = static_cast<double>(rng() % 256); break;
      case DeviceDtype::U16: v = static_cast<double>(rng() % 65536); break;
      // Not integers: the double input class, with values a float holds exactly for F32.
      case DeviceDtype::F32:
        v = static_cast<double>(static_cast<float>(std::uniform_real_distribution<>(0, 255)(rng)));
        break;
      case DeviceDtype::F64: v = std::uniform_real_distribution<>(0, 255)(rng); break;
    }
  }
  img->host = host_image(f, img->samples);

  // Element strides of the layout, and where sample (0, 0, 0) sits in the buffer.
  const std::ptrdiff_t w = f.width, h = f.height, c = f.channels;
  std::ptrdiff_t row = w * c, col = c, channel = 1, origin = 0, count = w * h * c;
  if (f.layout == Layout::Pitched) {
    row = w * c + 5;
    count = row * h;
  } else if (f.layout == Layout::Planar) {
    row = w;
    col = 1;
    channel = w * h;
  } else if (f.layout == Layout::Flipped) {
    row = -w * c;
    origin = (h - 1) * w * c;
  }
  const std::size_t item = element_bytes(f.dtype);
  img->staging = cuda::PinnedBuffer<unsigned char>(static_cast<std::size_t>(count) * item);
  std::memset(img->staging.get(), 0xFF, img->staging.bytes());  // the pitch's padding
  for (std::ptrdiff_t y = 0; y < h; ++y)
    for (std::ptrdiff_t x = 0; x < w; ++x)
      for (std::ptrdiff_t k = 0; k < c; ++k) {
        const double v = img->samples[static_cast<std::size_t>((y * w + x) * c + k)];
        const std::ptrdiff_t at = origin + y * row + x * col + k * channel;
        switch (f.dtype) {
          case DeviceDtype::U8: put<std::uint8_t>(img->staging.get(), at, v); break;
          case DeviceDtype::U16: put<std::uint16_t>(img->staging.get(), at, v); break;
          case DeviceDtype::F32: put<float>(img->staging.get(), at, v); break;
          case DeviceDtype::F64: put<double>(img->staging.get(), at, v); break;
        }
      }
  img->memory = cuda::DeviceBuffer<unsigned char>(img->staging.bytes());
  MAD_CUDA_CHECK(cudaMemcpyAsync(img->memory.get(), img->staging.get(), img->staging.bytes(),
                                 cudaMemcpyHostToDevice, caller));
  DeviceImage& d = img->device;
  d.data = img->memory.get() + origin * static_cast<std::ptrdiff_t>(item);
  d.dtype = f.dtype;
  d.width = f.width;
  d.height = f.height;
  d.channels = f.channels;
  d.row_stride = row;
  d.col_stride = col;
  d.channel_stride = channel;
  d.device = 0;
  d.stream = reinterpret_cast<std::uintptr_t>(caller);
  return img;
}

// Overwrites the image on `caller`: the pairs that read it must have gathered it before.
void overwrite(TestImage& img, cudaStream_t caller) {
  MAD_CUDA_CHECK(cudaMemsetAsync(img.memory.get(), 0, img.memory.bytes(), caller));
}

struct TestPair {
  std::size_t ref, dst;  // indices into the images
};

struct Sequence {
  std::vector<Form> forms;  // one a pair (both images share it)
  std::vector<TestPair> pairs;
  std::vector<std::uint32_t> seeds;  // one an image
};

// `count` pairs over `shapes` in a seeded random order and form; every third pair gives the
// previous pair's reference again.
Sequence random_sequence(const std::vector<std::array<int, 3>>& shapes, int count,
                         std::uint32_t seed) {
  std::mt19937 rng(seed);
  Sequence s;
  std::uint32_t image_seed = seed * 1000;
  for (int i = 0; i < count; ++i) {
    const bool again = i % 3 == 2;
    if (again) {
      s.forms.push_back(s.forms.back());
      s.pairs.push_back({s.pairs.back().ref, s.seeds.size()});
      s.seeds.push_back(++image_seed);
      continue;
    }
    const auto& shape = shapes[rng() % shapes.size()];
    Form f{shape[0], shape[1], shape[2], DeviceDtype::U8, Layout::Interleaved};
    if (f.channels == 1) {
      f.dtype = static_cast<DeviceDtype>(rng() % 4);
      f.layout = static_cast<Layout>(std::array<int, 3>{0, 1, 3}[rng() % 3]);
    } else {
      f.layout = static_cast<Layout>(rng() % 4);
    }
    s.forms.push_back(f);
    s.pairs.push_back({s.seeds.size(), s.seeds.size() + 1});
    s.seeds.push_back(++image_seed);
    s.seeds.push_back(++image_seed);
  }
  return s;
}

std::vector<BatchScorer::Finished> collect_all(BatchScorer& batch,
                                               std::vector<BatchScorer::Finished> rows) {
  for (auto& f : batch.drain()) rows.push_back(std::move(f));
  return rows;
}

// Holds up the stream it is enqueued on (a host function that sleeps), so that work queued
// behind it runs late.
void hold_up(cudaStream_t stream) {
  MAD_CUDA_CHECK(cudaLaunchHostFunc(
      stream, [](void*) { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }, nullptr));
}

// The sequence as host images (the oracles) and as device images, compared. Images come on
// two caller streams: most on `usual`; every other new reference on `late`, held up before its
// upload. A gather that did not wait for its reference's stream reads memory not yet uploaded;
// the distorted image (on `usual`, overwritten right after the submit) is then lost unless the
// caller's stream waits for the gather, which itself waits for `late`. Pairs with both images
// on `usual` take the path of one caller stream (one event record and wait).
void check_sequence(const Sequence& seq, Precision precision) {
  cuda::Stream usual, late;
  // Each image's form: that of the pairs it belongs to.
  std::vector<Form> image_forms(seq.seeds.size());
  for (std::size_t i = 0; i < seq.pairs.size(); ++i) {
    image_forms[seq.pairs[i].ref] = seq.forms[i];
    image_forms[seq.pairs[i].dst] = seq.forms[i];
  }
  std::vector<std::unique_ptr<TestImage>> images(seq.seeds.size());
  std::vector<cudaStream_t> streams(seq.seeds.size(), usual.get());
  // The last pair that reads each image: it is overwritten right after that pair's submit.
  std::vector<std::size_t> last_use(seq.seeds.size(), 0);
  int references = 0;
  for (std::size_t i = 0; i < seq.pairs.size(); ++i) {
    const TestPair& p = seq.pairs[i];
    last_use[p.ref] = i;
    last_use[p.dst] = i;
    if (!(i > 0 && seq.pairs[i - 1].ref == p.ref) && references++ % 2 == 1)
      streams[p.ref] = late.get();
  }

  ScoreOptions gpu;
  gpu.backend = Backend::Cuda;
  gpu.precision = precision;
  ScoreOptions cpu;
  cpu.backend = Backend::Cpu;
  const ResolvedBackend cuda(Backend::Cuda), host(Backend::Cpu);
  BatchScorer on_device(gpu, cuda), from_host(gpu, cuda), on_cpu(cpu, host);
  std::vector<BatchScorer::Finished> got, want, want_cpu;
  for (std::size_t i = 0; i < seq.pairs.size(); ++i) {
    const TestPair& p = seq.pairs[i];
    for (std::size_t k : {p.ref, p.dst})
      if (!images[k]) {
        if (streams[k] == late.get()) hold_up(late.get());
        images[k] = make_image(image_forms[k], seq.seeds[k], streams[k]);
      }
    for (auto& f : on_device.submit_device(i, images[p.ref]->device, images[p.dst]->device))
      got.push_back(std::move(f));
    for (std::size_t k : {p.ref, p.dst})
      if (last_use[k] == i) overwrite(*images[k], streams[k]);
    for (auto& f : from_host.submit(i, images[p.ref]->host, images[p.dst]->host))
      want.push_back(std::move(f));
    for (auto& f : on_cpu.submit(i, images[p.ref]->host, images[p.dst]->host))
      want_cpu.push_back(std::move(f));
  }
  got = collect_all(on_device, std::move(got));
  want = collect_all(from_host, std::move(want));
  want_cpu = collect_all(on_cpu, std::move(want_cpu));
  usual.synchronize();
  late.synchronize();
  ASSERT_EQ(got.size(), seq.pairs.size());
  ASSERT_EQ(want.size(), seq.pairs.size());
  ASSERT_EQ(want_cpu.size(), seq.pairs.size());
  double worst = 0;
  std::size_t equal = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::string what =
        describe(seq.forms[i]) + " " + to_string(precision) + ", pair " + std::to_string(i);
    ASSERT_EQ(got[i].tag, i);
    ASSERT_TRUE(want[i].ok) << what << ": " << want[i].error;
    ASSERT_TRUE(want_cpu[i].ok) << what << ": " << want_cpu[i].error;
    ASSERT_TRUE(got[i].ok) << what << ": " << got[i].error;
    const ScoreResult& g = got[i].result;
    const ScoreResult& h = want[i].result;
    EXPECT_EQ(g.input_class, h.input_class) << what;
    const bool same =
        test::same_bits(g.mad, h.mad) && test::same_bits(g.hi, h.hi) && test::same_bits(g.lo, h.lo);
    equal += same ? 1 : 0;
    EXPECT_TRUE(same) << what << ": device " << g.mad << " (" << g.hi << ", " << g.lo << "), host "
                      << h.mad << " (" << h.hi << ", " << h.lo << ")";
    const double rel = test::rel_err(g.mad, want_cpu[i].result.mad);
    worst = std::max(worst, rel);
    EXPECT_LE(rel, precision == Precision::Double ? kDoubleRel : kFloatRel)
        << what << ": device " << g.mad << ", CPU " << want_cpu[i].result.mad;
  }
  std::cout << "DEVICE IMAGES: " << seq.pairs.size() << " pairs, " << to_string(precision) << ": "
            << equal << " equal to the host images' GPU scores bit for bit; worst "
            << "relative difference from the CPU " << worst << "\n";
}

// 34x34 (MAD's minimum), odd, prime and non-square sides, shapes the fused transform takes
// and shapes it leaves to cuFFT.
const std::vector<std::array<int, 3>> kShapes = {{34, 34, 1},   {34, 97, 3},   {101, 34, 1},
                                                 {61, 47, 4},   {257, 333, 3}, {383, 509, 1},
                                                 {512, 384, 3}, {640, 480, 1}};

class DeviceImageCuda : public ::testing::TestWithParam<Precision> {};

TEST_P(DeviceImageCuda, EveryFormAndShapeInRandomOrderEqualsItsHostImages) {
  MAD_REQUIRE_GPU();
  check_sequence(random_sequence(kShapes, 36, 26), GetParam());
}

INSTANTIATE_TEST_SUITE_P(Precisions, DeviceImageCuda,
                         ::testing::Values(Precision::Double, Precision::Float),
                         [](const auto& info) { return to_string(info.param); });

// Small pairs of every form for compute-sanitizer (tools/gpu-check.sh runs *Sanitizer* tests):
// the gather's reads at every stride sign and the replayed graphs after it.
TEST(DeviceImageCudaSanitizer, SmallPairsOfEveryForm) {
  MAD_REQUIRE_GPU();
  const std::vector<std::array<int, 3>> small = {{34, 34, 1}, {37, 41, 3}, {41, 35, 4}};
  for (Precision p : {Precision::Double, Precision::Float})
    check_sequence(random_sequence(small, 9, 27), p);
}

}  // namespace
}  // namespace mad
