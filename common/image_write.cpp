// Writing 8-bit images in the format the output file's extension names (PNG, TIFF, BMP), the
// shape check every writer shares, and BMP through libstb's stb_image_write. Reading picks the
// format from the content; writing can only go by the name the user gave.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "common/image_io_detail.h"

#ifdef MAD_HAVE_STB
#include <stb_image_write.h>
#endif

namespace mad {

namespace io_detail {

void check_image8_for_write(const char* writer, const std::string& path, const RawImage8& image,
                            int max_channels) {
  const std::string where = " for '" + path + "'";
  if (image.width <= 0 || image.height <= 0)
    throw InvalidArgument(std::string(writer) + ": empty image" + where);
  if (image.channels < 1 || image.channels > max_channels)
    throw InvalidArgument(std::string(writer) + ": unsupported channel count " +
                          std::to_string(image.channels) + where);
  const std::size_t count = static_cast<std::size_t>(image.width) * image.height * image.channels;
  if (image.samples.size() != count)
    throw InvalidArgument(std::string(writer) + ": sample count does not match the shape" + where);
}

}  // namespace io_detail

namespace {

struct WritableExtension {
  const char* extension;
  ImageFileFormat format;
};

// The extensions this build writes, in the order messages list them.
std::vector<WritableExtension> writable_extensions() {
  std::vector<WritableExtension> out = {{".png", ImageFileFormat::kPng}};
  if (tiff_supported()) {
    out.push_back({".tif", ImageFileFormat::kTiff});
    out.push_back({".tiff", ImageFileFormat::kTiff});
  }
#ifdef MAD_HAVE_STB
  out.push_back({".bmp", ImageFileFormat::kBmp});
#endif
  return out;
}

}  // namespace

std::string lowercase_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

ImageFileFormat output_format_for_path(const std::string& path) {
  const std::string ext = lowercase_extension(path);
  std::string known;
  for (const WritableExtension& w : writable_extensions()) {
    if (ext == w.extension) return w.format;
    known += (known.empty() ? "" : ", ") + std::string(w.extension);
  }
  throw InvalidArgument("cannot write '" + path + "': the output format follows the file's " +
                        "extension, and this build writes " + known +
                        (ext.empty() ? " (the name has none)" : " (not " + ext + ")"));
}

void save_image8(const std::string& path, const RawImage8& image, ImageFileFormat format) {
  switch (format) {
    case ImageFileFormat::kPng: return save_png8(path, image);
    case ImageFileFormat::kTiff: return save_tiff8(path, image);
    case ImageFileFormat::kBmp: return save_bmp8(path, image);
  }
  throw InvalidArgument("save_image8: unknown format for '" + path + "'");
}

void save_bmp8(const std::string& path, const RawImage8& image) {
  io_detail::check_image8_for_write("save_bmp8", path, image, 3);
  if (image.channels == 2) throw InvalidArgument("save_bmp8: gray+alpha is not written as BMP");
#ifdef MAD_HAVE_STB
  // stb_image_write sizes the file in int: refuse what it cannot count (rows padded to 4 bytes).
  const long long file_bytes = 54 + (3LL * image.width + 3) / 4 * 4 * image.height;
  if (file_bytes > INT_MAX)
    throw InvalidArgument("save_bmp8: a " + std::to_string(image.width) + " x " +
                          std::to_string(image.height) + " image is too large for BMP ('" + path +
                          "')");
  if (!stbi_write_bmp(path.c_str(), image.width, image.height, image.channels,
                      image.samples.data())) {
    std::remove(path.c_str());  // no partial file is left behind
    throw Error("cannot write BMP '" + path + "'");
  }
#else
  throw Error("cannot write BMP '" + path + "': BMP support not built (libstb was not found)");
#endif
}

}  // namespace mad
