#include "datasets/synthetic_dataset.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <vector>

#include "common/error.h"
#include "common/parallel.h"
#include "datasets/csv.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

constexpr double kPi = 3.14159265358979323846;

// mt19937's output sequence is fixed by the standard; the distributions are not, so the
// conversions to uniform and normal values are done here.
struct Rng {
  std::mt19937 gen;
  explicit Rng(std::uint32_t seed) : gen(seed) {}
  double uniform() { return (gen() + 0.5) / 4294967296.0; }  // (0, 1)
  double normal() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(2 * kPi * uniform()); }
};

std::string score_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f", v);
  return b;
}

std::uint8_t to_u8(double v) {
  return static_cast<std::uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

RawImage8 blank_like(const RawImage8& ref) {
  RawImage8 out = ref;
  std::fill(out.samples.begin(), out.samples.end(), 0);
  return out;
}

RawImage8 gaussian_blur(const RawImage8& in, double sigma) {
  const int r = static_cast<int>(std::ceil(3 * sigma));
  std::vector<double> k(2 * r + 1);
  double sum = 0;
  for (int i = -r; i <= r; ++i) sum += k[i + r] = std::exp(-0.5 * i * i / (sigma * sigma));
  for (double& v : k) v /= sum;
  const int w = in.width, h = in.height;
  std::vector<double> tmp(static_cast<std::size_t>(w) * h);
  for (int y = 0; y < h; ++y)  // rows, edges replicated
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int i = -r; i <= r; ++i) s += k[i + r] * in.samples[y * w + std::clamp(x + i, 0, w - 1)];
      tmp[static_cast<std::size_t>(y) * w + x] = s;
    }
  RawImage8 out = blank_like(in);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int i = -r; i <= r; ++i)
        s += k[i + r] * tmp[static_cast<std::size_t>(std::clamp(y + i, 0, h - 1)) * w + x];
      out.samples[static_cast<std::size_t>(y) * w + x] = to_u8(s);
    }
  return out;
}

RawImage8 pixelate(const RawImage8& in, int block) {
  RawImage8 out = blank_like(in);
  for (int by = 0; by < in.height; by += block)
    for (int bx = 0; bx < in.width; bx += block) {
      const int y1 = std::min(by + block, in.height), x1 = std::min(bx + block, in.width);
      double s = 0;
      for (int y = by; y < y1; ++y)
        for (int x = bx; x < x1; ++x) s += in.samples[static_cast<std::size_t>(y) * in.width + x];
      const std::uint8_t m = to_u8(s / ((y1 - by) * (x1 - bx)));
      for (int y = by; y < y1; ++y)
        for (int x = bx; x < x1; ++x) out.samples[static_cast<std::size_t>(y) * in.width + x] = m;
    }
  return out;
}

}  // namespace

RawImage8 synthetic_reference(int width, int height, std::uint32_t seed) {
  if (width < 1 || height < 1) throw InvalidArgument("synthetic_reference: empty size");
  Rng rng(seed);
  RawImage8 img{width, height, 1,
                std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height)};
  // Shading: a tilted plane and three sinusoidal gratings of random period and orientation.
  const double gx = (rng.uniform() - 0.5) * 80, gy = (rng.uniform() - 0.5) * 80;
  double fx[3], fy[3], ph[3], amp[3];
  for (int i = 0; i < 3; ++i) {
    const double period = 6 + rng.uniform() * 60, angle = rng.uniform() * kPi;
    fx[i] = 2 * kPi * std::cos(angle) / period;
    fy[i] = 2 * kPi * std::sin(angle) / period;
    ph[i] = rng.uniform() * 2 * kPi;
    amp[i] = 8 + rng.uniform() * 22;
  }
  // Edges: four rectangles with their own brightness offsets.
  int rx0[4], ry0[4], rx1[4], ry1[4];
  double roff[4];
  for (int i = 0; i < 4; ++i) {
    rx0[i] = static_cast<int>(rng.uniform() * width),
    ry0[i] = static_cast<int>(rng.uniform() * height);
    rx1[i] = rx0[i] + 1 + static_cast<int>(rng.uniform() * width / 2);
    ry1[i] = ry0[i] + 1 + static_cast<int>(rng.uniform() * height / 2);
    roff[i] = (rng.uniform() - 0.5) * 90;
  }
  const double base = 90 + rng.uniform() * 70;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double v = base + gx * x / width + gy * y / height;
      for (int i = 0; i < 3; ++i) v += amp[i] * std::sin(fx[i] * x + fy[i] * y + ph[i]);
      for (int i = 0; i < 4; ++i)
        if (x >= rx0[i] && x < rx1[i] && y >= ry0[i] && y < ry1[i]) v += roff[i];
      v += (rng.uniform() - 0.5) * 12;  // fine texture
      img.samples[static_cast<std::size_t>(y) * width + x] = to_u8(v);
    }
  return img;
}

RawImage8 synthetic_distortion(const RawImage8& ref, int type, int level, std::uint32_t seed) {
  if (ref.channels != 1) throw InvalidArgument("synthetic_distortion: gray images only");
  if (level < 1 || level > 5) throw InvalidArgument("synthetic_distortion: level must be 1..5");
  switch (type) {
    case 1: return gaussian_blur(ref, 0.2 + 0.4 * level);
    case 11: {
      Rng rng(seed);
      RawImage8 out = ref;
      for (auto& s : out.samples) s = to_u8(s + 3.0 * level * rng.normal());
      return out;
    }
    case 21: return pixelate(ref, level + 1);
    case 22: {
      const int step = 1 << (level + 1);  // 4 .. 64 gray levels per bin
      RawImage8 out = ref;
      for (auto& s : out.samples) s = to_u8((s / step) * step + step / 2);
      return out;
    }
    case 25: {
      double mean = 0;
      for (auto s : ref.samples) mean += s;
      mean /= static_cast<double>(ref.samples.size());
      RawImage8 out = ref;
      for (auto& s : out.samples) s = to_u8(mean + (1.0 - 0.15 * level) * (s - mean));
      return out;
    }
  }
  throw InvalidArgument("synthetic_distortion: unknown type " + std::to_string(type));
}

double synthetic_quality(int type, int level, int ref) {
  const double type_offset = type == 11   ? 0.3
                             : type == 22 ? 0.25
                             : type == 21 ? 0.2
                             : type == 1  ? 0.1
                                          : 0.0;
  const double ref_offset = 0.05 * ((ref * 37) % 7 - 3);
  return std::clamp(5.0 - 0.8 * (level - 1) - type_offset + ref_offset, 1.0, 5.0);
}

std::size_t write_synthetic_kadid(const std::string& dir, const SyntheticSpec& spec,
                                  const std::function<void(int, int)>& progress) {
  if (spec.references < 1 || spec.references > 99 || spec.levels < 1 || spec.levels > 5)
    throw InvalidArgument("synthetic dataset: references must be 1..99 and levels 1..5");
  const fs::path images = fs::path(dir) / "images";
  std::error_code ec;
  fs::create_directories(images, ec);
  if (ec) throw InputError("cannot create '" + images.string() + "': " + ec.message());
  const auto name = [](int r, int t, int l) {
    char b[32];
    if (t == 0)
      std::snprintf(b, sizeof b, "I%02d.png", r);
    else
      std::snprintf(b, sizeof b, "I%02d_%02d_%02d.png", r, t, l);
    return std::string(b);
  };
  std::mutex mutex;
  int done = 0;
  parallel_for(spec.references, [&](int i) {
    const int r = i + 1;
    const RawImage8 ref = synthetic_reference(spec.width, spec.height, spec.seed * 1000u + r);
    save_png8((images / name(r, 0, 0)).string(), ref);
    for (int t : kSyntheticTypes)
      for (int l = 1; l <= spec.levels; ++l)
        save_png8((images / name(r, t, l)).string(),
                  synthetic_distortion(ref, t, l, spec.seed * 100000u + r * 1000u + t * 10u + l));
    std::lock_guard<std::mutex> lock(mutex);
    if (progress) progress(++done, spec.references);
  });
  std::ofstream csv(fs::path(dir) / "dmos.csv");
  csv << "dist_img,ref_img,dmos,var\n";
  std::size_t pairs = 0;
  for (int r = 1; r <= spec.references; ++r)
    for (int t : kSyntheticTypes)
      for (int l = 1; l <= spec.levels; ++l, ++pairs)
        csv << join_csv({name(r, t, l), name(r, 0, 0), score_text(synthetic_quality(t, l, r)), "0"})
            << "\n";
  csv.flush();
  if (!csv) throw InputError("cannot write '" + (fs::path(dir) / "dmos.csv").string() + "'");
  return pairs;
}

}  // namespace mad::datasets
