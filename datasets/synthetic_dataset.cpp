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
#include "mad/results/csv.h"

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

// Separable Gaussian blur of one plane of doubles, edges replicated.
std::vector<double> blur_plane(const std::vector<double>& in, int w, int h, double sigma) {
  const int r = static_cast<int>(std::ceil(3 * sigma));
  std::vector<double> k(2 * r + 1);
  double sum = 0;
  for (int i = -r; i <= r; ++i) sum += k[i + r] = std::exp(-0.5 * i * i / (sigma * sigma));
  for (double& v : k) v /= sum;
  std::vector<double> tmp(static_cast<std::size_t>(w) * h), out(tmp.size());
  for (int y = 0; y < h; ++y)  // rows
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int i = -r; i <= r; ++i)
        s += k[i + r] * in[static_cast<std::size_t>(y) * w + std::clamp(x + i, 0, w - 1)];
      tmp[static_cast<std::size_t>(y) * w + x] = s;
    }
  for (int y = 0; y < h; ++y)  // columns
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (int i = -r; i <= r; ++i)
        s += k[i + r] * tmp[static_cast<std::size_t>(std::clamp(y + i, 0, h - 1)) * w + x];
      out[static_cast<std::size_t>(y) * w + x] = s;
    }
  return out;
}

std::vector<double> to_plane(const RawImage8& in) {
  return std::vector<double>(in.samples.begin(), in.samples.end());
}

RawImage8 from_plane(const RawImage8& like, const std::vector<double>& plane) {
  RawImage8 out = like;
  for (std::size_t i = 0; i < plane.size(); ++i) out.samples[i] = to_u8(plane[i]);
  return out;
}

RawImage8 gaussian_blur(const RawImage8& in, double sigma) {
  return from_plane(in, blur_plane(to_plane(in), in.width, in.height, sigma));
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

// One channel of an interleaved image as a gray image, and back.
RawImage8 channel_of(const RawImage8& in, int c) {
  RawImage8 out{in.width, in.height, 1, std::vector<std::uint8_t>(in.samples.size() / in.channels)};
  for (std::size_t i = 0; i < out.samples.size(); ++i)
    out.samples[i] = in.samples[i * in.channels + c];
  return out;
}

// `op` applied to each channel on its own.
template <class Op>
RawImage8 per_channel(const RawImage8& in, Op op) {
  if (in.channels == 1) return op(in);
  RawImage8 out = in;
  for (int c = 0; c < in.channels; ++c) {
    const RawImage8 plane = op(channel_of(in, c));
    for (std::size_t i = 0; i < plane.samples.size(); ++i)
      out.samples[i * in.channels + c] = plane.samples[i];
  }
  return out;
}

// `op` (which needs RGB) applied to a gray image as to RGB with three equal channels, the result
// reduced to gray by rgb2gray; applied directly to RGB.
template <class Op>
RawImage8 as_colour(const RawImage8& in, Op op) {
  if (in.channels == 3) return op(in);
  RawImage8 rgb{in.width, in.height, 3, std::vector<std::uint8_t>(in.samples.size() * 3)};
  for (std::size_t i = 0; i < in.samples.size(); ++i)
    rgb.samples[3 * i] = rgb.samples[3 * i + 1] = rgb.samples[3 * i + 2] = in.samples[i];
  const RawImage8 done = op(rgb);
  RawImage8 out = in;
  for (std::size_t i = 0; i < out.samples.size(); ++i)
    out.samples[i] =
        rgb_to_gray_matlab(done.samples[3 * i], done.samples[3 * i + 1], done.samples[3 * i + 2]);
  return out;
}

// Each sample through f(value, rng).
template <class F>
RawImage8 map_samples(const RawImage8& in, std::uint32_t seed, F f) {
  Rng rng(seed);
  RawImage8 out = in;
  for (auto& s : out.samples) s = to_u8(f(static_cast<double>(s), rng));
  return out;
}

// out(y, x) = in(source(y, x)) for every channel, coordinates clamped to the image.
template <class Source>
RawImage8 remap(const RawImage8& in, Source source) {
  RawImage8 out = in;
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      auto [sy, sx] = source(y, x);
      sy = std::clamp(sy, 0, in.height - 1), sx = std::clamp(sx, 0, in.width - 1);
      for (int c = 0; c < in.channels; ++c)
        out.samples[(static_cast<std::size_t>(y) * in.width + x) * in.channels + c] =
            in.samples[(static_cast<std::size_t>(sy) * in.width + sx) * in.channels + c];
    }
  return out;
}

// Average over a set of offsets (a disk for lens blur, a line for motion blur), edges replicated.
RawImage8 average_offsets(const RawImage8& in, const std::vector<std::pair<int, int>>& taps) {
  const int w = in.width, h = in.height;
  RawImage8 out = in;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      double s = 0;
      for (const auto& [dy, dx] : taps)
        s += in.samples[static_cast<std::size_t>(std::clamp(y + dy, 0, h - 1)) * w +
                        std::clamp(x + dx, 0, w - 1)];
      out.samples[static_cast<std::size_t>(y) * w + x] =
          to_u8(s / static_cast<double>(taps.size()));
    }
  return out;
}

// Luma (BT.601 weights) of RGB pixel i, and each channel moved away from it by `gain`.
RawImage8 scale_chroma(const RawImage8& rgb, double gain) {
  RawImage8 out = rgb;
  for (std::size_t i = 0; i < rgb.samples.size(); i += 3) {
    const double luma =
        0.299 * rgb.samples[i] + 0.587 * rgb.samples[i + 1] + 0.114 * rgb.samples[i + 2];
    for (int c = 0; c < 3; ++c)
      out.samples[i + c] = to_u8(luma + gain * (rgb.samples[i + c] - luma));
  }
  return out;
}

// Colour diffusion: the chroma (each channel minus the channel mean) blurred, the mean kept.
RawImage8 diffuse_colour(const RawImage8& rgb, double sigma) {
  const std::size_t n = rgb.samples.size() / 3;
  std::vector<double> mean(n);
  for (std::size_t i = 0; i < n; ++i)
    mean[i] = (rgb.samples[3 * i] + rgb.samples[3 * i + 1] + rgb.samples[3 * i + 2]) / 3.0;
  RawImage8 out = rgb;
  for (int c = 0; c < 3; ++c) {
    std::vector<double> chroma(n);
    for (std::size_t i = 0; i < n; ++i) chroma[i] = rgb.samples[3 * i + c] - mean[i];
    chroma = blur_plane(chroma, rgb.width, rgb.height, sigma);
    for (std::size_t i = 0; i < n; ++i) out.samples[3 * i + c] = to_u8(mean[i] + chroma[i]);
  }
  return out;
}

// Haar wavelet of `levels` levels with its detail coefficients quantized to multiples of
// `step` (a JPEG2000-like loss); rows and columns beyond the even part are kept.
void haar_quantize(std::vector<double>& p, int w, int h, std::ptrdiff_t pitch, int levels,
                   double step) {
  if (levels == 0 || w < 2 || h < 2) return;
  const int hw = w / 2, hh = h / 2;
  std::vector<double> approx(static_cast<std::size_t>(hw) * hh);
  std::vector<double> det(3 * approx.size());
  const auto q = [step](double v) { return std::round(v / step) * step; };
  for (int y = 0; y < hh; ++y)
    for (int x = 0; x < hw; ++x) {
      const double* r0 = &p[(2 * y) * pitch + 2 * x];
      const double* r1 = r0 + pitch;
      const std::size_t i = static_cast<std::size_t>(y) * hw + x;
      approx[i] = (r0[0] + r0[1] + r1[0] + r1[1]) / 4;
      det[3 * i] = q((r0[0] - r0[1] + r1[0] - r1[1]) / 4);
      det[3 * i + 1] = q((r0[0] + r0[1] - r1[0] - r1[1]) / 4);
      det[3 * i + 2] = q((r0[0] - r0[1] - r1[0] + r1[1]) / 4);
    }
  haar_quantize(approx, hw, hh, hw, levels - 1, step * 2);
  for (int y = 0; y < hh; ++y)
    for (int x = 0; x < hw; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * hw + x;
      const double a = approx[i], hd = det[3 * i], vd = det[3 * i + 1], dd = det[3 * i + 2];
      double* r0 = &p[(2 * y) * pitch + 2 * x];
      double* r1 = r0 + pitch;
      r0[0] = a + hd + vd + dd, r0[1] = a - hd + vd - dd;
      r1[0] = a + hd - vd - dd, r1[1] = a - hd - vd + dd;
    }
}

// 8x8 DCT blocks with coefficient (u, v) quantized to multiples of step * (1 + u + v) (a
// JPEG-like loss); the partial blocks at the right and bottom edges are kept.
void dct_quantize(std::vector<double>& p, int w, int h, double step) {
  double basis[8][8];
  for (int u = 0; u < 8; ++u)
    for (int x = 0; x < 8; ++x)
      basis[u][x] =
          (u == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8)) * std::cos((2 * x + 1) * u * kPi / 16);
  // Separable: C = B P B^T, then P = B^T C B.
  const auto product = [](const double(&l)[8][8], bool lt, const double(&m)[8][8],
                          const double(&r)[8][8], bool rt, double(&out)[8][8]) {
    double t[8][8];
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        double s = 0;
        for (int k = 0; k < 8; ++k) s += (lt ? l[k][i] : l[i][k]) * m[k][j];
        t[i][j] = s;
      }
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        double s = 0;
        for (int k = 0; k < 8; ++k) s += t[i][k] * (rt ? r[j][k] : r[k][j]);
        out[i][j] = s;
      }
  };
  for (int by = 0; by + 8 <= h; by += 8)
    for (int bx = 0; bx + 8 <= w; bx += 8) {
      double block[8][8], c[8][8];
      for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) block[y][x] = p[static_cast<std::size_t>(by + y) * w + bx + x];
      product(basis, false, block, basis, true, c);
      for (int u = 0; u < 8; ++u)
        for (int v = 0; v < 8; ++v) {
          const double q = step * (1 + u + v);
          c[u][v] = std::round(c[u][v] / q) * q;
        }
      product(basis, true, c, basis, false, block);
      for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x) p[static_cast<std::size_t>(by + y) * w + bx + x] = block[y][x];
    }
}

// Squares of `side` pixels at random places, each filled by `fill(rng, y0, x0)`'s source: a
// copy of a nearby patch (non-eccentricity patch) or one random colour (colour block).
RawImage8 patches(const RawImage8& in, int count, int side, std::uint32_t seed, bool copy) {
  Rng rng(seed);
  RawImage8 out = in;
  const int ch = in.channels;
  for (int k = 0; k < count; ++k) {
    const int y0 = static_cast<int>(rng.uniform() * std::max(1, in.height - side));
    const int x0 = static_cast<int>(rng.uniform() * std::max(1, in.width - side));
    const int sy = std::clamp(y0 + static_cast<int>((rng.uniform() - 0.5) * 4 * side), 0,
                              std::max(0, in.height - side));
    const int sx = std::clamp(x0 + static_cast<int>((rng.uniform() - 0.5) * 4 * side), 0,
                              std::max(0, in.width - side));
    std::uint8_t colour[3];
    for (auto& v : colour) v = static_cast<std::uint8_t>(rng.uniform() * 256);
    for (int y = 0; y < side && y0 + y < in.height; ++y)
      for (int x = 0; x < side && x0 + x < in.width; ++x)
        for (int c = 0; c < ch; ++c) {
          const std::size_t to = (static_cast<std::size_t>(y0 + y) * in.width + x0 + x) * ch + c;
          const std::size_t from =
              (static_cast<std::size_t>(std::min(sy + y, in.height - 1)) * in.width +
               std::min(sx + x, in.width - 1)) *
                  ch +
              c;
          out.samples[to] = copy ? in.samples[from] : colour[c % 3];
        }
  }
  return out;
}

RawImage8 white_noise(const RawImage8& in, double sigma, std::uint32_t seed) {
  return map_samples(in, seed, [sigma](double v, Rng& rng) { return v + sigma * rng.normal(); });
}

RawImage8 quantize(const RawImage8& in, int step) {
  return map_samples(in, 0, [step](double v, Rng&) {
    return static_cast<double>((static_cast<int>(v) / step) * step + step / 2);
  });
}

RawImage8 disk_blur(const RawImage8& in, int radius) {
  std::vector<std::pair<int, int>> taps;
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx)
      if (dy * dy + dx * dx <= radius * radius) taps.push_back({dy, dx});
  return per_channel(in, [&](const RawImage8& p) { return average_offsets(p, taps); });
}

RawImage8 motion_blur(const RawImage8& in, int length) {
  std::vector<std::pair<int, int>> taps;
  for (int dx = -length; dx <= length; ++dx) taps.push_back({0, dx});
  return per_channel(in, [&](const RawImage8& p) { return average_offsets(p, taps); });
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

RawImage8 synthetic_colour_reference(int width, int height, std::uint32_t seed) {
  const RawImage8 gray = synthetic_reference(width, height, seed);
  Rng rng(seed ^ 0x5bd1e995u);
  // Two smooth tints: a plane and one slow grating each, up to about +-40 levels.
  double t[2][5];
  for (auto& tint : t) {
    tint[0] = (rng.uniform() - 0.5) * 40, tint[1] = (rng.uniform() - 0.5) * 40;
    tint[2] = 2 * kPi / (width * (0.5 + rng.uniform())), tint[3] = rng.uniform() * 2 * kPi;
    tint[4] = 10 + rng.uniform() * 15;
  }
  RawImage8 img{width, height, 3, std::vector<std::uint8_t>(gray.samples.size() * 3)};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * width + x;
      const double g = gray.samples[i];
      double tint[2];
      for (int k = 0; k < 2; ++k)
        tint[k] = t[k][0] * x / width + t[k][1] * y / height +
                  t[k][4] * std::sin(t[k][2] * (x + y) + t[k][3]);
      img.samples[3 * i] = to_u8(g + tint[0]);
      img.samples[3 * i + 1] = to_u8(g - 0.3 * (tint[0] + tint[1]));
      img.samples[3 * i + 2] = to_u8(g + tint[1]);
    }
  return img;
}

RawImage8 synthetic_distortion(const RawImage8& ref, int type, int level, std::uint32_t seed) {
  if (ref.channels != 1 && ref.channels != 3)
    throw InvalidArgument("synthetic_distortion: gray or RGB images only");
  if (level < 1 || level > 5) throw InvalidArgument("synthetic_distortion: level must be 1..5");
  const double l = level;
  switch (type) {
    case 1:
      return per_channel(ref, [&](const RawImage8& p) { return gaussian_blur(p, 0.2 + 0.4 * l); });
    case 2: return disk_blur(ref, level);
    case 3: return motion_blur(ref, 2 * level);
    case 4: return as_colour(ref, [&](const RawImage8& c) { return diffuse_colour(c, 1.5 * l); });
    case 5:  // colour shift: G moved right, B moved down
      return as_colour(ref, [&](const RawImage8& c) {
        const RawImage8 g = remap(c, [&](int y, int x) { return std::pair{y, x - 2 * level}; });
        const RawImage8 b = remap(c, [&](int y, int x) { return std::pair{y - level, x}; });
        RawImage8 out = c;
        for (std::size_t i = 0; i < out.samples.size(); i += 3)
          out.samples[i + 1] = g.samples[i + 1], out.samples[i + 2] = b.samples[i + 2];
        return out;
      });
    case 6:
      return as_colour(ref, [&](const RawImage8& c) { return quantize(c, 1 << (level + 2)); });
    case 7:
      return as_colour(ref, [&](const RawImage8& c) { return scale_chroma(c, 1 - 0.18 * l); });
    case 8: return as_colour(ref, [&](const RawImage8& c) { return scale_chroma(c, 1 + 0.3 * l); });
    case 9:
    case 10:
      return per_channel(ref, [&](const RawImage8& p) {
        std::vector<double> plane = to_plane(p);
        if (type == 9)
          haar_quantize(plane, p.width, p.height, p.width, 2, 3.0 * l * l);
        else
          dct_quantize(plane, p.width, p.height, 2.0 * l * l);
        return from_plane(p, plane);
      });
    case 11: return white_noise(ref, 3.0 * l, seed);
    case 12:  // noise in the colour components: R and B, independently
      return as_colour(ref, [&](const RawImage8& c) {
        const RawImage8 noisy = white_noise(c, 5.0 * l, seed);
        RawImage8 out = c;
        for (std::size_t i = 0; i < out.samples.size(); i += 3)
          out.samples[i] = noisy.samples[i], out.samples[i + 2] = noisy.samples[i + 2];
        return out;
      });
    case 13:
      return map_samples(ref, seed, [&](double v, Rng& rng) {
        const double u = rng.uniform();
        return u < 0.005 * l ? 0.0 : u > 1 - 0.005 * l ? 255.0 : v;
      });
    case 14:
      return map_samples(ref, seed,
                         [&](double v, Rng& rng) { return v * (1 + 0.05 * l * rng.normal()); });
    case 15:  // denoise: noise, then the smoothing of a simple denoiser
      return per_channel(white_noise(ref, 4.0 * l, seed),
                         [&](const RawImage8& p) { return gaussian_blur(p, 0.6 + 0.2 * l); });
    case 16:
    case 17: {
      const double gamma = type == 16 ? 1 / (1 + 0.2 * l) : 1 + 0.2 * l;
      return map_samples(ref, 0,
                         [gamma](double v, Rng&) { return 255 * std::pow(v / 255, gamma); });
    }
    case 18: return map_samples(ref, 0, [&](double v, Rng&) { return v + 7.0 * l; });
    case 19: {  // jitter: each pixel from a random neighbour up to `level` away
      Rng rng(seed);
      return remap(ref, [&](int y, int x) {
        const int dy = static_cast<int>(rng.uniform() * (2 * level + 1)) - level;
        const int dx = static_cast<int>(rng.uniform() * (2 * level + 1)) - level;
        return std::pair{y + dy, x + dx};
      });
    }
    case 20: return patches(ref, 8 * level, 12, seed, true);
    case 21: return per_channel(ref, [&](const RawImage8& p) { return pixelate(p, level + 1); });
    case 22: return quantize(ref, 1 << (level + 1));  // 4 .. 64 gray levels per bin
    case 23:
      return as_colour(ref,
                       [&](const RawImage8& c) { return patches(c, 3 * level, 16, seed, false); });
    case 24:  // high sharpen: unsharp masking
      return per_channel(ref, [&](const RawImage8& p) {
        const std::vector<double> plane = to_plane(p),
                                  blurred = blur_plane(plane, p.width, p.height, 1.0);
        std::vector<double> out(plane.size());
        for (std::size_t i = 0; i < out.size(); ++i)
          out[i] = plane[i] + 0.6 * l * (plane[i] - blurred[i]);
        return from_plane(p, out);
      });
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

namespace {

struct SyntheticFormat {
  ImageFileFormat format;
  const char* name;
  const char* extension;
  const char* library;  // what the build needs to write it
};
constexpr SyntheticFormat kFormats[] = {{ImageFileFormat::kPng, "png", ".png", "libpng"},
                                        {ImageFileFormat::kTiff, "tiff", ".tif", "libtiff"},
                                        {ImageFileFormat::kBmp, "bmp", ".bmp", "libstb"}};

const SyntheticFormat& format_entry(ImageFileFormat format) {
  for (const SyntheticFormat& f : kFormats)
    if (f.format == format) return f;
  throw InvalidArgument("synthetic dataset: an image format without a name");
}

// Whether this build writes `f`: the writers' own rule (common/image_write.cpp), asked with a
// file name of the format's extension.
bool build_writes(const SyntheticFormat& f) {
  try {
    output_format_for_path(std::string("I01") + f.extension);
    return true;
  } catch (const InvalidArgument&) {
    return false;
  }
}

void require_writer(const SyntheticFormat& f) {
  if (build_writes(f)) return;
  std::string written;
  for (const SyntheticFormat& other : kFormats)
    if (build_writes(other)) written += (written.empty() ? "" : ", ") + std::string(other.name);
  throw InvalidArgument("synthetic image format '" + std::string(f.name) +
                        "': this build does not write it (" + f.library +
                        " was not found at configure time); it writes " + written);
}

// Refuses a folder that holds anything, naming what and how many: the synthetic files carry
// KADID-10k's names and would overwrite a real copy.
void refuse_non_empty(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec))
    throw InvalidArgument("'" + dir + "' is a file; --make-synthetic writes a dataset folder");
  std::size_t entries = 0;
  std::string first;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (entries++ == 0) first = it->path().filename().string();
  if (entries == 0) return;
  throw InvalidArgument("'" + dir + "' is not empty (" + std::to_string(entries) +
                        " entries, e.g. '" + first +
                        "'): --make-synthetic writes KADID-10k's file names (dmos.csv, "
                        "images/I01.png, ...) and would overwrite a dataset there; name a new "
                        "or empty folder, or pass --force to write over it");
}

}  // namespace

ImageFileFormat synthetic_image_format(const std::string& name) {
  for (const SyntheticFormat& f : kFormats)
    if (name == f.name) {
      require_writer(f);
      return f.format;
    }
  throw InvalidArgument("synthetic image format '" + name + "': expected png, tiff or bmp");
}

const char* synthetic_extension(ImageFileFormat format) {
  return format_entry(format).extension;
}

std::size_t write_synthetic_kadid(const std::string& dir, const SyntheticSpec& spec,
                                  const std::function<void(int, int)>& progress, bool overwrite) {
  if (spec.references < 1 || spec.references > 99 || spec.levels < 1 || spec.levels > 5 ||
      spec.types < 1 || spec.types > kSyntheticTypeCount)
    throw InvalidArgument(
        "synthetic dataset: references must be 1..99, types 1..25 and levels 1..5");
  const char* extension = format_entry(spec.format).extension;
  require_writer(format_entry(spec.format));
  if (!overwrite) refuse_non_empty(dir);
  const std::vector<int> types(kSyntheticTypes, kSyntheticTypes + spec.types);
  const fs::path images = fs::path(dir) / "images";
  std::error_code ec;
  fs::create_directories(images, ec);
  if (ec) throw InputError("cannot create '" + images.string() + "': " + ec.message());
  const auto name = [extension](int r, int t, int l) {
    char b[32];
    if (t == 0)
      std::snprintf(b, sizeof b, "I%02d%s", r, extension);
    else
      std::snprintf(b, sizeof b, "I%02d_%02d_%02d%s", r, t, l, extension);
    return std::string(b);
  };
  // References first, then every (reference, type) on its own: 25 types of a reference would
  // otherwise run on one core while the others idle.
  std::vector<RawImage8> refs(static_cast<std::size_t>(spec.references));
  parallel_for(spec.references, [&](int i) {
    const int r = i + 1;
    const std::uint32_t seed = spec.seed * 1000u + static_cast<std::uint32_t>(r);
    refs[static_cast<std::size_t>(i)] =
        spec.colour ? synthetic_colour_reference(spec.width, spec.height, seed)
                    : synthetic_reference(spec.width, spec.height, seed);
    save_image8((images / name(r, 0, 0)).string(), refs[static_cast<std::size_t>(i)], spec.format);
  });
  std::mutex mutex;
  std::vector<int> left(refs.size(), spec.types);
  int done = 0;
  parallel_for(spec.references * spec.types, [&](int task) {
    const int i = task / spec.types, r = i + 1,
              t = types[static_cast<std::size_t>(task % spec.types)];
    const RawImage8& ref = refs[static_cast<std::size_t>(i)];
    for (int l = 1; l <= spec.levels; ++l)
      save_image8((images / name(r, t, l)).string(),
                  synthetic_distortion(ref, t, l, spec.seed * 100000u + r * 1000u + t * 10u + l),
                  spec.format);
    std::lock_guard<std::mutex> lock(mutex);
    if (--left[static_cast<std::size_t>(i)] == 0 && progress) progress(++done, spec.references);
  });
  std::ofstream csv(fs::path(dir) / "dmos.csv");
  csv << "dist_img,ref_img,dmos,var\n";
  std::size_t pairs = 0;
  for (int r = 1; r <= spec.references; ++r)
    for (int t : types)
      for (int l = 1; l <= spec.levels; ++l, ++pairs)
        csv << results::join_csv({name(r, t, l), name(r, 0, 0),
                                  score_text(synthetic_quality(t, l, r)), "0"})
            << "\n";
  csv.flush();
  if (!csv) throw InputError("cannot write '" + (fs::path(dir) / "dmos.csv").string() + "'");
  const fs::path marker = fs::path(dir) / kSyntheticMarker;
  std::ofstream note(marker);
  note << "A synthetic dataset written by mad eval --make-synthetic: the scores in dmos.csv are "
          "invented (a fixed function of distortion type and level), so statistics on it "
          "measure nothing about MAD. mad eval reads this file to say so in its reports.\n";
  note.flush();
  if (!note) throw InputError("cannot write '" + marker.string() + "'");
  return pairs;
}

bool is_synthetic_dataset(const std::string& dir) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(dir) / kSyntheticMarker, ec);
}

}  // namespace mad::datasets
