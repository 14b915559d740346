// `mad kernel` says yes only to what it does (issue 14): the output is written in the format
// its extension names or refused with exit 2 naming the ones this build writes; numeric
// options are plain decimals within their range, never reinterpreted; --list-variants takes
// nothing else; thin and long images run or are refused clearly, never crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/gpu_info.h"
#include "common/image_io.h"
#include "kernels/gray.h"
#include "tests/common/image_io_test_util.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"
#include "tests/tools/run_mad.h"

namespace fs = std::filesystem;

namespace mad {
namespace {

using test::run_mad;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

RawImage8 random_raw(int width, int height, int channels, std::uint32_t seed) {
  const Image<std::uint8_t> img = kernels::test::random_bytes(width * channels, height, seed);
  return {width, height, channels,
          std::vector<std::uint8_t>(img.data(), img.data() + img.pixel_count())};
}

class CliKernel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<test::io::TempDir>();
    save_png8(f("rgb.png"), random_raw(48, 40, 3, 11));
    save_png8(f("gray.png"), random_raw(48, 40, 1, 12));
  }
  static void TearDownTestSuite() { dir_.reset(); }
  static std::string f(const std::string& name) { return dir_->file(name); }
  static std::string q(const std::string& name) { return "'" + f(name) + "'"; }
  static std::unique_ptr<test::io::TempDir> dir_;
};
std::unique_ptr<test::io::TempDir> CliKernel::dir_;

TEST_F(CliKernel, WritesTheFormatTheExtensionNames) {
  std::vector<std::pair<std::string, std::string>> formats = {{"png", "\x89PNG"},
                                                              {"PNG", "\x89PNG"}};
  if (tiff_supported()) formats.insert(formats.end(), {{"tif", "II*"}, {"tiff", "II*"}});
#ifdef MAD_HAVE_STB
  formats.push_back({"bmp", "BM"});
#endif
  ASSERT_EQ(run_mad("kernel smooth --backend cpu " + q("rgb.png") + " " + q("ref.png")).exit_code,
            kExitOk);
  const RawImage8 reference = load_raw_image8(f("ref.png"));
  for (const auto& [ext, magic] : formats) {
    const std::string out = "smooth." + ext;
    const test::CommandResult r =
        run_mad("kernel smooth --backend cpu " + q("rgb.png") + " " + q(out));
    ASSERT_EQ(r.exit_code, kExitOk) << ext << "\n" << r.out;
    // `size`: a lambda may not capture a structured binding before C++20 (clang refuses it).
    const std::vector<std::uint8_t> head = [&, size = magic.size()] {
      std::ifstream in(f(out), std::ios::binary);
      std::vector<std::uint8_t> b(size);
      in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
      return b;
    }();
    EXPECT_EQ(std::string(head.begin(), head.end()), magic) << ext;
    const RawImage8 back = load_raw_image8(f(out));
    EXPECT_EQ(back.samples, reference.samples) << ext;  // the same pixels in every format
  }
}

TEST_F(CliKernel, RefusesAnExtensionItCannotWrite) {
  for (const std::string out : {"out.jpg", "out.JPEG", "out.gif", "out.pgm", "out", "out.csv"}) {
    const test::CommandResult r =
        run_mad("kernel gray --backend cpu " + q("rgb.png") + " " + q(out));
    EXPECT_EQ(r.exit_code, kExitUsage) << out << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, ".png")) << r.out;  // names what it writes
    EXPECT_FALSE(fs::exists(f(out))) << out << " was written";
  }
  if (!tiff_supported()) {
    EXPECT_EQ(run_mad("kernel gray --backend cpu " + q("rgb.png") + " " + q("o.tif")).exit_code,
              kExitUsage);
  }
  // Refused before the input is read: a missing input does not hide the bad extension.
  EXPECT_EQ(run_mad("kernel gray " + q("missing.png") + " " + q("o.jpg")).exit_code, kExitUsage);
}

TEST_F(CliKernel, HistogramOutputFollowsItsExtension) {
  const std::string base = "kernel histogram --backend cpu " + q("gray.png") + " ";
  ASSERT_EQ(run_mad(base + q("h.csv")).exit_code, kExitOk);
  ASSERT_EQ(run_mad(base + q("h.json")).exit_code, kExitOk);
  ASSERT_EQ(run_mad(base + q("h.txt")).exit_code, kExitOk);
  ASSERT_EQ(run_mad(base + q("h")).exit_code, kExitOk);
  EXPECT_EQ(test::run_command("head -c 11 " + q("h.csv")).out, "value,count");
  EXPECT_EQ(test::run_command("head -c 8 " + q("h.json")).out, "{\"bins\":");
  EXPECT_EQ(test::run_command("head -c 2 " + q("h.txt")).out, "0 ");
  for (const std::string out : {"h.png", "h.tif", "h.xml"}) {
    const test::CommandResult r = run_mad(base + q(out));
    EXPECT_EQ(r.exit_code, kExitUsage) << out << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, ".csv")) << r.out;
    EXPECT_FALSE(fs::exists(f(out))) << out;
  }
}

TEST_F(CliKernel, NumericOptionsAreRefusedOutOfRangeOrNotDecimal) {
  const std::string base = "kernel nick --backend cpu " + q("gray.png") + " " + q("n.png") + " ";
  ASSERT_EQ(run_mad(base + "--window 17 --k -0.05").exit_code, kExitOk);
  ASSERT_EQ(run_mad(base + "--window 2 --k -0.2").exit_code, kExitOk);
  ASSERT_EQ(run_mad(base + "--window 40 --k -1e-2").exit_code, kExitOk);
  struct Refused {
    std::string args, says;
  };
  const std::vector<Refused> refused = {
      {"--window 0", "[2, 101]"},    {"--window 1", "[2, 101]"},
      {"--window -5", "[2, 101]"},   {"--window 102", "[2, 101]"},
      {"--window 4294967313", ""},   {"--window 017", "decimal"},  // not octal 15
      {"--window 0x11", "decimal"},  {"--window 17.0", "decimal"},
      {"--window ''", ""},           {"--k 0", "[-0.2, -0.01]"},
      {"--k -0.3", "[-0.2, -0.01]"}, {"--k nan", "decimal"},
      {"--k inf", "decimal"},        {"--k -inf", "decimal"},
      {"--k -0x1p-3", "decimal"},    {"--k ''", ""}};
  for (const Refused& c : refused) {
    const test::CommandResult r = run_mad(base + c.args);
    EXPECT_EQ(r.exit_code, kExitUsage) << c.args << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, c.says)) << c.args << "\n" << r.out;
  }
}

TEST_F(CliKernel, ListVariantsTakesNothingElse) {
  EXPECT_EQ(run_mad("kernel --list-variants").exit_code, kExitOk);
  for (const std::string& args : std::vector<std::string>{
           "kernel nick --list-variants", "kernel --list-variants --window 5",
           "kernel --list-variants --backend cpu", "kernel --list-variants --json",
           "kernel gray " + q("rgb.png") + " " + q("x.png") + " --list-variants"}) {
    const test::CommandResult r = run_mad(args);
    EXPECT_EQ(r.exit_code, kExitUsage) << args << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "--list-variants")) << r.out;
  }
}

// 1xN, Nx1 and sides of 65536 and more: every kernel runs (exit 0, the output the input's
// shape) or is refused with an input error that says why (nick's window larger than the
// image); never a signal.
TEST_F(CliKernel, ThinAndLongImages) {
  for (const auto& [w, h] :
       std::vector<std::pair<int, int>>{{1, 1}, {1, 37}, {37, 1}, {70001, 2}, {2, 65536}}) {
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    save_png8(f(size + ".png"), random_raw(w, h, 3, 13));
    for (const std::string kernel : {"gray", "darken", "smooth", "nick", "histogram"}) {
      const std::string out = kernel == "histogram" ? "o.csv" : "o.png";
      const test::CommandResult r =
          run_mad("kernel " + kernel + " --backend cpu " + q(size + ".png") + " " + q(out));
      const std::string label = kernel + " " + size + "\n" + r.out;
      if (kernel == "nick" && std::min(w, h) < 15) {  // the default 15x15 window cannot fit
        EXPECT_EQ(r.exit_code, kExitInput) << label;
        EXPECT_TRUE(contains(r.out, "window is larger than")) << label;
        continue;
      }
      ASSERT_EQ(r.exit_code, kExitOk) << label;
      if (kernel == "histogram") continue;
      const RawImage8 back = load_raw_image8(f(out));
      EXPECT_EQ(back.width, w) << label;
      EXPECT_EQ(back.height, h) << label;
    }
  }
  ASSERT_EQ(run_mad("kernel nick --window 2 --backend cpu " + q("70001x2.png") + " " + q("n.png"))
                .exit_code,
            kExitOk);
}

// A 32-bit float TIFF (NaN and infinities included) is not an input: exit 3, naming why.
TEST_F(CliKernel, FloatTiffWithNanIsAnInputError) {
  if (!tiff_supported()) GTEST_SKIP() << "built without libtiff";
  Image<double> map(40, 40, 1.0);
  map(3, 4) = std::nan("");
  map(5, 6) = HUGE_VAL;
  save_tiff_float(f("nan.tif"), map.cview());
  for (const std::string& args : {"kernel histogram --backend cpu " + q("nan.tif"),
                                  "score --backend cpu " + q("nan.tif") + " " + q("nan.tif")}) {
    const test::CommandResult r = run_mad(args);
    EXPECT_EQ(r.exit_code, kExitInput) << args << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "floating-point")) << r.out;
  }
}

// `mad kernel` takes its backend from the one chooser (mad/backend_choice.h): without a device,
// --backend cuda and a named variant under auto are refused in its words, with the GPU exit code.
TEST_F(CliKernel, TheBackendIsChosenByTheOneChooser) {
  if (test::gpu_available()) GTEST_SKIP() << "a CUDA device is present: the refusal cannot show";
  for (const std::string& args :
       {"kernel gray --backend cuda " + q("rgb.png") + " " + q("c.png"),
        "kernel gray --variant " + kernels::gray_variants().default_name() + " " + q("rgb.png") +
            " " + q("c.png")}) {
    if (!gpu_backend_compiled() && args.find("--variant") != std::string::npos) continue;
    const auto r = run_mad(args);
    EXPECT_EQ(r.exit_code, kExitGpu) << args << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "--backend cuda: ")) << args << "\n" << r.out;
  }
}

}  // namespace
}  // namespace mad
