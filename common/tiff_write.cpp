// Writing maps as 32-bit float gray TIFF (lossless for inspection in image tools, unlike the
// scaled 16-bit PNG), through libtiff when it was found at configure time.
#include <cstdio>
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

}  // namespace

void save_tiff_float(const std::string& path, ImageView<const double> map) {
  if (map.empty()) throw InvalidArgument("save_tiff_float: empty map for '" + path + "'");
  io_detail::tiff_clear_error();
  std::unique_ptr<TIFF, TiffCloser> tif(TIFFOpen(path.c_str(), "w"));
  if (!tif) throw Error("cannot write TIFF '" + path + "': " + io_detail::tiff_last_error());
  TIFF* t = tif.get();

  const bool tags_ok =
      TIFFSetField(t, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(map.width)) &&
      TIFFSetField(t, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(map.height)) &&
      TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, 1) && TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, 32) &&
      TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP) &&
      TIFFSetField(t, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK) &&
      TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
      TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_NONE) &&
      TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(t, 0));
  if (!tags_ok) throw_tiff_write_error(path, io_detail::tiff_last_error());

  std::vector<float> row(static_cast<std::size_t>(map.width));
  for (int y = 0; y < map.height; ++y) {
    for (int x = 0; x < map.width; ++x) row[x] = static_cast<float>(map(y, x));
    if (TIFFWriteScanline(t, row.data(), static_cast<std::uint32_t>(y), 0) < 0)
      throw_tiff_write_error(path, io_detail::tiff_last_error());
  }
  // TIFFClose cannot report failure; flushing first surfaces a full disk or I/O error.
  if (!TIFFFlush(t)) throw_tiff_write_error(path, io_detail::tiff_last_error());
}

#else  // !MAD_HAVE_TIFF

void save_tiff_float(const std::string& path, ImageView<const double>) {
  throw Error("cannot write TIFF '" + path +
              "': TIFF support not built (libtiff was not found "
              "at configure time)");
}

#endif

}  // namespace mad
