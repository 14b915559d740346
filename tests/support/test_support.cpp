#include "tests/support/test_support.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

#include "common/gpu_info.h"
#include "common/image_io.h"

namespace mad::test {

std::string data_path(const std::string& relative) {
  return std::string(MAD_TEST_DATA_DIR) + "/" + relative;
}

Image<double> load_reference_map(const std::string& name) {
  const std::string path = data_path("reference/maps/" + name + ".f64");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  char magic[8];
  std::uint64_t dims[3];
  in.read(magic, 8);
  in.read(reinterpret_cast<char*>(dims), sizeof dims);
  if (!in || std::memcmp(magic, "MADMAPv1", 8) != 0) throw std::runtime_error("bad map " + path);
  const int rows = static_cast<int>(dims[0]), cols = static_cast<int>(dims[1]);
  Image<double> img(cols, rows);
  in.read(reinterpret_cast<char*>(img.data()),
          static_cast<std::streamsize>(sizeof(double)) * rows * cols);
  if (!in) throw std::runtime_error("truncated map " + path);
  return img;
}

std::vector<ReferenceScore> load_reference_scores() {
  std::ifstream in(data_path("reference/scores.csv"));
  if (!in) throw std::runtime_error("cannot open reference scores");
  std::string line;
  std::getline(in, line);  // header
  std::vector<ReferenceScore> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::vector<std::string> f;
    std::string cell;
    while (std::getline(ss, cell, ',')) f.push_back(cell);
    if (f.size() < 13) throw std::runtime_error("bad reference row: " + line);
    ReferenceScore r;
    r.ref = f[0];
    r.dist = f[1];
    r.distortion = f[2];
    r.width = std::stoi(f[4]);
    r.height = std::stoi(f[5]);
    r.mad = std::stod(f[6]);
    r.hi = std::stod(f[7]);
    r.lo = std::stod(f[8]);
    r.sig = std::stod(f[9]);
    r.mad_double = std::stod(f[10]);
    r.hi_double = std::stod(f[11]);
    r.lo_double = std::stod(f[12]);
    rows.push_back(r);
  }
  return rows;
}

namespace {
// MATLAB round: half away from zero.
double round_half_away(double v) {
  return v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5);
}
double clip255(double v) {
  return v < 0 ? 0 : (v > 255 ? 255 : v);
}
}  // namespace

SyntheticPair make_synthetic_pair(int rows, int cols, int variant) {
  constexpr double kPi = 3.14159265358979323846;
  SyntheticPair p{Image<double>(cols, rows), Image<double>(cols, rows)};
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < cols; ++x) {
      const double r = round_half_away(
          clip255(110.0 + 60.0 * std::sin(2 * kPi * x / 157.0) * std::cos(2 * kPi * y / 131.0) +
                  2.0 * std::sin(1.3 * x + 0.7 * y)));
      double n = static_cast<double>((37 * x + 91 * y) % 21) - 10.0;
      if (variant == 2) n *= 2.0;
      double d = round_half_away(clip255(r + n));
      double rr = r;
      if (variant == 3) {
        if ((x + 2 * y) % 7 == 0) rr = 255;
        if ((3 * x + y) % 5 == 0) d = 255;
      }
      p.ref(y, x) = rr;
      p.dst(y, x) = d;
    }
  }
  return p;
}

Image<double> random_image(int width, int height, std::uint32_t seed, int lo, int hi) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  Image<double> img(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) img(y, x) = dist(rng);
  return img;
}

std::filesystem::path fresh_scratch_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

void write_random_png(const std::string& path, int width, int height, std::uint32_t seed,
                      int channels) {
  const Image<double> img = random_image(width * channels, height, seed);
  RawImage8 raw{width, height, channels, {}};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width * channels; ++x)
      raw.samples.push_back(static_cast<std::uint8_t>(img(y, x)));
  save_png8(path, raw);
}

bool same_bits(const Image<double>& a, const Image<double>& b) {
  if (a.width() != b.width() || a.height() != b.height()) return false;
  for (int y = 0; y < a.height(); ++y)
    if (std::memcmp(a.row(y), b.row(y), sizeof(double) * a.width()) != 0) return false;
  return true;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

double max_abs_diff(ImageView<const double> a, ImageView<const double> b) {
  if (a.width != b.width || a.height != b.height) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      const double u = a(y, x), v = b(y, x);
      if (u == v) continue;  // equal, including equal infinities
      const double d = std::fabs(u - v);
      if (!(d <= worst)) worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
    }
  return worst;
}

double max_rel_diff(ImageView<const double> a, ImageView<const double> b, double floor) {
  if (a.width != b.width || a.height != b.height) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      const double u = a(y, x), v = b(y, x);
      if (u == v) continue;
      const double d = std::fabs(u - v) / std::max(std::fabs(v), floor);
      if (!(d <= worst)) worst = std::isnan(d) ? std::numeric_limits<double>::infinity() : d;
    }
  return worst;
}

double rel_err(double got, double want) {
  return want == 0.0 ? std::fabs(got) : std::fabs(got - want) / std::fabs(want);
}

double map_sum(ImageView<const double> map) {
  double s = 0;
  for (int y = 0; y < map.height; ++y)
    for (int x = 0; x < map.width; ++x) s += map(y, x);
  return s;
}

double rel_l2(ImageView<const double> got, ImageView<const double> want) {
  double num = 0, den = 0;
  for (int y = 0; y < want.height; ++y)
    for (int x = 0; x < want.width; ++x) {
      const double d = got(y, x) - want(y, x);
      num += d * d;
      den += want(y, x) * want(y, x);
    }
  return den == 0 ? std::sqrt(num) : std::sqrt(num / den);
}

CommandResult run_command(const std::string& command) {
  CommandResult r;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool gpu_available() {
  return mad::gpu_device_available();
}

}  // namespace mad::test
