// The library side of `mad kernel`: argument validation, input rules, running on the CPU,
// output formats, the variant listing, and PNG/JPEG/TIFF files end to end.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.h"
#include "common/gpu_info.h"
#include "common/image_io.h"
#include "kernels/gray.h"
#include "kernels/kernel_format.h"
#include "kernels/kernel_request.h"
#include "kernels/smooth.h"
#include "tests/common/image_io_test_util.h"
#include "tests/kernels/kernel_test_util.h"

#ifdef MAD_HAVE_TIFF
#include <tiffio.h>
#endif

namespace mad::kernels {
namespace {

using test::random_raw;

ImageView<const std::uint8_t> view_of(const RawImage8& raw) {
  return test::raw_view(raw);
}

KernelArgs args(const std::string& kernel, const std::string& out = "out.png") {
  KernelArgs a;
  a.kernel = kernel;
  a.input = "in.png";
  a.output = out;
  return a;
}

TEST(KernelRequest, ParsesNames) {
  EXPECT_EQ(parse_kernel_kind("nick"), KernelKind::Nick);
  EXPECT_EQ(parse_kernel_kind("darken"), KernelKind::Darken);
  EXPECT_THROW(parse_kernel_kind("blur"), InvalidArgument);
  EXPECT_EQ(parse_backend("cpu"), Backend::Cpu);
  EXPECT_THROW(parse_backend("gpu"), InvalidArgument);
  for (KernelKind kind : all_kernel_kinds())
    EXPECT_EQ(parse_kernel_kind(kernel_kind_name(kind)), kind);
}

TEST(KernelRequest, ValidatesArguments) {
  EXPECT_EQ(make_kernel_request(args("smooth")).kind, KernelKind::Smooth);
  EXPECT_THROW(make_kernel_request(args("")), InvalidArgument);
  KernelArgs no_input = args("gray");
  no_input.input.clear();
  EXPECT_THROW(make_kernel_request(no_input), InvalidArgument);
  EXPECT_THROW(make_kernel_request(args("gray", "")), InvalidArgument);  // image kernels need OUT
  EXPECT_NO_THROW(make_kernel_request(args("histogram", "")));           // histogram prints
  KernelArgs window_for_gray = args("gray");
  window_for_gray.window = 5;
  EXPECT_THROW(make_kernel_request(window_for_gray), InvalidArgument);
  KernelArgs nick = args("nick");
  nick.window = 21;
  nick.k = -0.05;
  const KernelRequest r = make_kernel_request(nick);
  EXPECT_EQ(r.nick.window, 21);
  EXPECT_EQ(r.nick.k, -0.05);
  nick.window = 102;
  EXPECT_THROW(make_kernel_request(nick), InvalidArgument);
  nick.window = 21;
  nick.k = -0.3;
  EXPECT_THROW(make_kernel_request(nick), InvalidArgument);
  KernelArgs cpu_variant = args("smooth");
  cpu_variant.backend = "cpu";
  cpu_variant.variant = "tile";
  EXPECT_THROW(make_kernel_request(cpu_variant), InvalidArgument);
  KernelArgs unknown_variant = args("smooth");
  unknown_variant.variant = "no_such_variant";
  EXPECT_THROW(make_kernel_request(unknown_variant), InvalidArgument);
  if (gpu_backend_compiled()) {
    KernelArgs known = args("smooth");
    known.variant = "padded";
    EXPECT_EQ(make_kernel_request(known).variant, "padded");
  }
}

TEST(KernelRequest, VariantListing) {
  const std::string listing = format_variant_listing();
  for (const char* name : {"gray, darken", "histogram", "smooth", "nick", "cpu (reference"})
    EXPECT_NE(listing.find(name), std::string::npos) << name;
  // The registries exist in every build; the listing shows their rows with the CUDA backend.
  for (KernelKind kind : all_kernel_kinds()) {
    const auto& variants = list_variants(kind).infos();
    ASSERT_FALSE(variants.empty());
    EXPECT_EQ(std::count_if(variants.begin(), variants.end(),
                            [](const VariantInfo& v) { return v.is_default; }),
              1);
    for (const VariantInfo& v : variants) {
      EXPECT_FALSE(v.shape.empty()) << v.name;
      if (gpu_backend_compiled()) EXPECT_NE(listing.find(v.name), std::string::npos) << v.name;
    }
  }
  // methods 1-3 x 2 block shapes, integral, sliding_columns, warp_scan
  EXPECT_EQ(list_variants(KernelKind::Nick).infos().size(), 9u);
  if (!gpu_backend_compiled()) EXPECT_NE(listing.find("no CUDA backend"), std::string::npos);
}

TEST(KernelRequest, RunsEachKernelOnTheCpu) {
  const std::uint32_t seed = test::announce_seed("KernelRequest.RunsEachKernelOnTheCpu", 4501);
  const RawImage8 rgb = random_raw(29, 17, 3, seed);
  KernelRequest r;
  r.backend = Backend::Cpu;
  r.kind = KernelKind::Gray;
  KernelOutcome out = run_kernel(r, rgb);
  EXPECT_EQ(out.variant, "cpu");
  ASSERT_EQ(out.image.channels, 1);
  const Image<std::uint8_t> gray =
      gray_cpu(interleaved_rgb(view_of(rgb), 3), GrayWeighting::Matlab);
  EXPECT_TRUE(test::images_equal(gray.cview(), view_of(out.image)));

  r.kind = KernelKind::Histogram;  // histogram of an RGB image = histogram of its MATLAB gray
  out = run_kernel(r, rgb);
  ASSERT_TRUE(out.histogram.has_value());
  EXPECT_EQ(*out.histogram, histogram_cpu(gray.cview()));

  r.kind = KernelKind::Smooth;
  out = run_kernel(r, rgb);
  ASSERT_EQ(out.image.channels, 3);
  EXPECT_TRUE(test::images_equal(smooth_cpu(view_of(rgb), 3).cview(), view_of(out.image)));

  r.kind = KernelKind::Nick;
  r.nick = {5, -0.15};
  out = run_kernel(r, rgb);
  EXPECT_TRUE(test::images_equal(nick_cpu(gray.cview(), r.nick).cview(), view_of(out.image)));
}

TEST(KernelRequest, InputRules) {
  const std::uint32_t seed = test::announce_seed("KernelRequest.InputRules", 4502);
  KernelRequest r;
  r.backend = Backend::Cpu;
  r.kind = KernelKind::Gray;
  EXPECT_THROW(run_kernel(r, random_raw(8, 8, 1, seed)), InputError);  // gray of a gray image
  EXPECT_THROW(run_kernel(r, random_raw(8, 8, 2, seed)), InputError);
  const RawImage8 rgba = random_raw(8, 6, 4, seed);
  const KernelOutcome out = run_kernel(r, rgba);
  EXPECT_EQ(out.notes, std::vector<std::string>{"alpha channel ignored"});
  const KernelOutcome from_rgb = run_kernel(r, drop_alpha(rgba));  // alpha has no influence
  EXPECT_TRUE(test::images_equal(view_of(from_rgb.image), view_of(out.image)));
  r.kind = KernelKind::Smooth;
  EXPECT_EQ(run_kernel(r, rgba).image.channels, 3);  // alpha dropped before smoothing
  r.kind = KernelKind::Nick;
  r.nick = {9, -0.1};
  EXPECT_THROW(run_kernel(r, rgba), InputError);  // 9x9 window on an 8x6 image
  RawImage8 bad = random_raw(4, 4, 1, seed);
  bad.channels = 5;
  EXPECT_THROW(run_kernel(r, bad), InputError);
  bad.channels = 1;
  bad.samples.pop_back();
  EXPECT_THROW(run_kernel(r, bad), InputError);
  EXPECT_THROW(run_kernel(r, RawImage8{}), InputError);
}

TEST(KernelRequest, DropAlpha) {
  RawImage8 ga;
  ga.width = 2, ga.height = 1, ga.channels = 2;
  ga.samples = {10, 255, 20, 0};
  const RawImage8 g = drop_alpha(ga);
  EXPECT_EQ(g.channels, 1);
  EXPECT_EQ(g.samples, (std::vector<std::uint8_t>{10, 20}));
}

TEST(KernelRequest, CudaBackendWithoutDeviceIsAGpuError) {
  if (gpu_device_available()) GTEST_SKIP() << "a CUDA device is present";
  KernelRequest r;
  r.backend = Backend::Cuda;
  r.kind = KernelKind::Smooth;
  EXPECT_THROW(run_kernel(r, random_raw(8, 8, 1, 4503)), GpuError);
  // Auto is the front door's to resolve (choose_backend); run_kernel refuses it
  // (KernelRequestBackend.RunKernelTakesAChosenBackend).
}

TEST(KernelFormat, Histograms) {
  Histogram h{};
  h[0] = 3, h[17] = 5, h[255] = 1;
  const std::string text = format_histogram(h, HistogramFormat::Text);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 256);
  EXPECT_NE(text.find("\n17 5\n"), std::string::npos);
  EXPECT_EQ(text.rfind("255 1\n"), text.size() - 6);
  const std::string csv = format_histogram(h, HistogramFormat::Csv);
  EXPECT_EQ(csv.rfind("value,count\n0,3\n1,0\n", 0), 0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 257);
  const std::string json = format_histogram(h, HistogramFormat::Json);
  EXPECT_EQ(json.rfind("{\"bins\": 256, \"counts\": [3, 0, ", 0), 0u);
  EXPECT_NE(json.find(", 1]}"), std::string::npos);
  EXPECT_EQ(histogram_format_for_path("a/b.CSV"), HistogramFormat::Csv);
  EXPECT_EQ(histogram_format_for_path("h.json"), HistogramFormat::Json);
  EXPECT_EQ(histogram_format_for_path("dir.json/h"), HistogramFormat::Text);
  EXPECT_EQ(histogram_format_for_path("h.txt"), HistogramFormat::Text);
}

#ifdef MAD_HAVE_TIFF
void write_rgb_tiff(const std::string& path, const RawImage8& img) {
  TIFF* t = TIFFOpen(path.c_str(), "w");
  ASSERT_NE(t, nullptr);
  TIFFSetField(t, TIFFTAG_IMAGEWIDTH, img.width);
  TIFFSetField(t, TIFFTAG_IMAGELENGTH, img.height);
  TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, img.channels);
  TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 8);
  TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
  TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, img.height);
  for (int y = 0; y < img.height; ++y) {
    auto* row = const_cast<std::uint8_t*>(img.samples.data()) +
                static_cast<std::size_t>(y) * img.width * img.channels;
    ASSERT_EQ(TIFFWriteScanline(t, row, y, 0), 1);
  }
  TIFFClose(t);
}
#endif

// The kernels run on what load_raw_image8 decodes from PNG, JPEG and TIFF files.
TEST(KernelRequest, FilesInEachFormat) {
  const std::uint32_t seed = test::announce_seed("KernelRequest.FilesInEachFormat", 4504);
  const RawImage8 rgb = random_raw(24, 16, 3, seed);
  mad::test::io::TempDir dir;
  std::vector<std::string> files = {dir.file("in.png"), dir.file("in.jpg")};
  save_png8(files[0], rgb);
  mad::test::io::write_jpeg_file(files[1], rgb.width, rgb.height, 3, rgb.samples, 95);
#ifdef MAD_HAVE_TIFF
  files.push_back(dir.file("in.tif"));
  write_rgb_tiff(files.back(), rgb);
#endif
  for (const std::string& path : files) {
    const RawImage8 loaded = load_raw_image8(path);
    ASSERT_EQ(loaded.channels, 3) << path;
    if (path.find(".jpg") == std::string::npos)
      EXPECT_EQ(loaded.samples, rgb.samples) << path;  // lossless
    KernelRequest r = make_kernel_request(args("darken", dir.file("out.png")));
    r.backend = Backend::Cpu;
    const KernelOutcome out = run_kernel(r, loaded);
    save_png8(r.output, out.image);
    const RawImage8 back = load_raw_image8(r.output);
    EXPECT_TRUE(test::images_equal(
        gray_cpu(interleaved_rgb(view_of(loaded), 3), GrayWeighting::Darken).cview(),
        view_of(back)))
        << path;
  }
}

}  // namespace
}  // namespace mad::kernels
