// Writing TIFF through libtiff when it was found at configure time: maps as 32-bit float gray
// (lossless for inspection in image tools, unlike the scaled 16-bit PNG) and 8-bit images (the
// results of `mad kernel`).
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "common/image_io_detail.h"

#ifdef MAD_HAVE_TIFF
#include <tiffio.h>
#endif

namespace mad {

#ifdef MAD_HAVE_TIFF
namespace {

struct TiffCloser {
  void operator()(TIFF* tif) const { TIFFClose(tif); }
};

[[noreturn]] void throw_tiff_write_error(const std::string& path, const std::string& reason) {
  std::remove(path.c_str());  // no partial file is left behind
  throw Error("cannot write TIFF '" + path + "': " + reason);
}

// An uncompressed, contiguous, strip-organised image of `spp` samples of `bps` bits per pixel.
struct TiffShape {
  int width, height, spp, bps, sample_format, photometric;
};

// Writes the tags of `shape`, then each row that `fill_row(y, row)` produces (row holds
// width * spp * bps / 8 bytes). Any failure removes the file and throws Error.
template <class FillRow>
void write_tiff(const std::string& path, const TiffShape& shape, FillRow fill_row) {
  io_detail::tiff_clear_error();
  std::unique_ptr<TIFF, TiffCloser> tif(TIFFOpen(path.c_str(), "w"));
  if (!tif) throw Error("cannot write TIFF '" + path + "': " + io_detail::tiff_last_error());
  TIFF* t = tif.get();

  const bool has_alpha = shape.spp == 2 || shape.spp == 4;
  const std::uint16_t extra[] = {EXTRASAMPLE_UNASSALPHA};
  const bool tags_ok =
      TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(shape.width)) &&
      TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(shape.height)) &&
      TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, shape.spp) &&
      TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, shape.bps) &&
      TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, shape.sample_format) &&
      TIFFSetField(t, TIFFTAG_PHOTOMETRIC, shape.photometric) &&
      TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
      TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_NONE) &&
      (!has_alpha || TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, extra)) &&
      TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(t, 0));
  if (!tags_ok) throw_tiff_write_error(path, io_detail::tiff_last_error());

  std::vector<std::uint8_t> row(static_cast<std::size_t>(shape.width) * shape.spp * shape.bps / 8);
  for (int y = 0; y < shape.height; ++y) {
    fill_row(y, row.data());
    if (TIFFWriteScanline(t, row.data(), static_cast<std::uint32_t>(y), 0) < 0)
      throw_tiff_write_error(path, io_detail::tiff_last_error());
  }
  // TIFFClose cannot report failure; flushing first surfaces a full disk or I/O error.
  if (!TIFFFlush(t)) throw_tiff_write_error(path, io_detail::tiff_last_error());
}

}  // namespace

void save_tiff_float(const std::string& path, ImageView<const double> map) {
  if (map.empty()) throw InvalidArgument("save_tiff_float: empty map for '" + path + "'");
  const TiffShape shape{map.width, map.height, 1, 32, SAMPLEFORMAT_IEEEFP, PHOTOMETRIC_MINISBLACK};
  write_tiff(path, shape, [&](int y, std::uint8_t* row) {
    for (int x = 0; x < map.width; ++x) {
      const float v = static_cast<float>(map(y, x));
      std::memcpy(row + 4 * static_cast<std::size_t>(x), &v, 4);
    }
  });
}

void save_tiff8(const std::string& path, const RawImage8& image) {
  io_detail::check_image8_for_write("save_tiff8", path, image, 4);
  const TiffShape shape{
      image.width,       image.height,
      image.channels,    8,
      SAMPLEFORMAT_UINT, image.channels >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK};
  const std::size_t row_bytes = static_cast<std::size_t>(image.width) * image.channels;
  write_tiff(path, shape, [&](int y, std::uint8_t* row) {
    std::memcpy(row, image.samples.data() + static_cast<std::size_t>(y) * row_bytes, row_bytes);
  });
}

#else  // !MAD_HAVE_TIFF

void save_tiff_float(const std::string& path, ImageView<const double>) {
  throw Error("cannot write TIFF '" + path +
              "': TIFF support not built (libtiff was not found "
              "at configure time)");
}

void save_tiff8(const std::string& path, const RawImage8&) {
  throw Error("cannot write TIFF '" + path +
              "': TIFF support not built (libtiff was not found at configure time)");
}

#endif

}  // namespace mad
