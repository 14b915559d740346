// Synthetic IQA data for tests and throughput runs: deterministic reference images (smooth
// shading, edges and texture), five graded distortions, and a dataset in the KADID-10k layout
// (dmos.csv + images/) with made-up scores that fall with the distortion level.
//
// The scores are invented (a fixed function of type and level plus a per-reference offset),
// so statistics on this data measure nothing about MAD; the data exercise readers, the
// pipeline and its speed. The pixel generator uses std::mt19937's specified output sequence and
// its own arithmetic, so the images are identical on every platform.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "common/image_io.h"

namespace mad::datasets {

// The distortions, numbered as the KADID-10k type they resemble (so the KADID reader labels
// them truthfully), in the order --synthetic-types takes them: the first five are the original
// set (1 Gaussian blur, 11 white noise, 21 pixelate, 22 quantization, 25 contrast change), then
// the other twenty of KADID's 25 types, each a simple model of its kind (e.g. type 10, JPEG, is
// 8x8 DCT coefficient quantization; type 9, JPEG2000, quantizes a two-level Haar wavelet).
constexpr int kSyntheticTypes[] = {1,  11, 21, 22, 25, 2,  3,  4,  5,  6,  7,  8, 9,
                                   10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 24};
constexpr int kSyntheticTypeCount = 25;

// Gray reference, width x height (>= 1), 8-bit, one channel.
RawImage8 synthetic_reference(int width, int height, std::uint32_t seed);
// Colour reference: the gray reference's structure with smooth, independent tints in R and B.
RawImage8 synthetic_colour_reference(int width, int height, std::uint32_t seed);

// `ref` (1 or 3 channels) distorted by KADID type `type` (one of kSyntheticTypes) at `level` 1
// (mild) .. 5 (strong). Types about colour (4-8, 12, 23) act on a gray image as on the RGB image
// with three equal channels, reduced back to gray by rgb2gray. Throws InvalidArgument for
// other types, levels or channel counts.
RawImage8 synthetic_distortion(const RawImage8& ref, int type, int level, std::uint32_t seed);

// The invented mean opinion (1..5, higher = better) of reference `ref` at (type, level).
double synthetic_quality(int type, int level, int ref);

struct SyntheticSpec {
  int references = 40;  // x types x levels: 40 x 5 x 5 = 1000 pairs
  int types = 5;        // the first `types` of kSyntheticTypes (25: KADID-10k's 125 a reference)
  int levels = 5;       // 1..5
  bool colour = false;  // RGB images (KADID-10k's format) instead of gray
  int width = 512, height = 384;
  std::uint32_t seed = 1;
  // The files' format (see synthetic_image_format). PNG is KADID-10k's; the others exist for
  // throughput runs, whose decoding they make cheap.
  ImageFileFormat format = ImageFileFormat::kPng;
};

// The format of name "png" (.png, KADID-10k's), "tiff" (.tif, uncompressed) or "bmp" (.bmp,
// 24-bit uncompressed: gray images become three equal channels, read back as RGB whose gray is
// the original). BMP decodes cheapest for a GPU run: the GPU workers keep an 8-bit RGB image's
// samples as decoded and convert them on the GPU, while an 8-bit gray file of any format also
// gets a plane of doubles on the decoding thread (75 MB at 3840x2160 with its 8-bit copy,
// against 25 MB of RGB samples, in the memory that bounds the pairs decoded ahead). Throws
// InvalidArgument for any other name, and for a format this build does not write (TIFF needs
// libtiff, BMP libstb at configure time), naming the ones it writes.
ImageFileFormat synthetic_image_format(const std::string& name);
// The extension of the synthetic files in `format`, with its dot (".png", ".tif", ".bmp").
const char* synthetic_extension(ImageFileFormat format);

// Writes DIR/dmos.csv, DIR/images/I<rr>.png, I<rr>_<tt>_<ll>.png and DIR/kSyntheticMarker
// (creating DIR; the extension is spec.format's, and dmos.csv names the files as written).
// Returns the number of pairs. A format this build does not write is refused (InvalidArgument)
// before any file is.
// `progress(done, total)` is called after each reference's images. The names are KADID-10k's own,
// so a folder that holds anything is refused (InvalidArgument, before any file is written) unless
// `overwrite`: a real dataset would be destroyed. With `overwrite` the files of the same names are
// replaced and nothing else is removed.
std::size_t write_synthetic_kadid(const std::string& dir, const SyntheticSpec& spec,
                                  const std::function<void(int, int)>& progress = {},
                                  bool overwrite = false);

// The file write_synthetic_kadid also writes into DIR, saying that dmos.csv's scores are
// invented: `mad eval` finds it (is_synthetic_dataset) and says so in the report's title, the
// JSON and the settings record, so that a synthetic set's statistics never pass for KADID-10k's.
constexpr const char* kSyntheticMarker = "MAD-SYNTHETIC.txt";
// Whether `dir` holds kSyntheticMarker.
bool is_synthetic_dataset(const std::string& dir);

}  // namespace mad::datasets
