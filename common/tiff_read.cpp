// TIFF decoding through libtiff: 8- and 16-bit unsigned gray, gray+alpha, RGB and RGBA, in
// strips or tiles, contiguous or planar. Samples are read as stored (TIFFReadRGBA* would
// truncate 16-bit data to 8 bits, so it is not used). Only the first page is read.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/image_io_detail.h"

#ifdef MAD_HAVE_TIFF
#include <tiffio.h>
#endif

namespace mad::io_detail {

#ifdef MAD_HAVE_TIFF
namespace {

// libtiff reads the file through these callbacks from the bytes already in memory.
struct MemoryStream {
  const std::uint8_t* data;
  toff_t size;
  toff_t pos;
};

tmsize_t stream_read(thandle_t handle, void* out, tmsize_t count) {
  auto* s = static_cast<MemoryStream*>(handle);
  if (count <= 0 || s->pos >= s->size) return 0;
  const toff_t n = std::min<toff_t>(static_cast<toff_t>(count), s->size - s->pos);
  std::memcpy(out, s->data + s->pos, n);
  s->pos += n;
  return static_cast<tmsize_t>(n);
}
tmsize_t stream_write(thandle_t, void*, tmsize_t) {
  return -1;
}  // opened read-only
toff_t stream_seek(thandle_t handle, toff_t offset, int whence) {
  auto* s = static_cast<MemoryStream*>(handle);
  const toff_t base = whence == SEEK_CUR ? s->pos : whence == SEEK_END ? s->size : 0;
  s->pos = base + offset;  // past the end is allowed; reads there return 0 bytes
  return s->pos;
}
int stream_close(thandle_t) {
  return 0;
}
toff_t stream_size(thandle_t handle) {
  return static_cast<MemoryStream*>(handle)->size;
}
int stream_map(thandle_t, void**, toff_t*) {
  return 0;
}  // no mapping: libtiff falls back to reads
void stream_unmap(thandle_t, void*, toff_t) {}

struct TiffCloser {
  void operator()(TIFF* tif) const { TIFFClose(tif); }
};

struct TiffLayout {
  std::uint32_t width, height;
  int spp, bytes_per_sample;
  bool planar;  // PLANARCONFIG_SEPARATE: one plane per sample
};

// Copies `count` consecutive samples from libtiff's buffer into the interleaved output,
// starting at index `dst` and stepping `dst_step` (spp for one plane of a planar file).
void store_samples(DecodedImage& out, const TiffLayout& l, const std::uint8_t* src,
                   std::size_t count, std::size_t dst, std::size_t dst_step) {
  for (std::size_t k = 0; k < count; ++k, dst += dst_step, src += l.bytes_per_sample) {
    if (l.bytes_per_sample == 1) {
      out.samples8[dst] = *src;
    } else {
      std::uint16_t v;  // libtiff has already swapped to host byte order
      std::memcpy(&v, src, 2);
      out.samples16[dst] = v;
    }
  }
}

void read_strips(const std::string& path, TIFF* tif, const TiffLayout& l, DecodedImage& out) {
  const int planes = l.planar ? l.spp : 1;
  const std::size_t per_row = static_cast<std::size_t>(l.width) * (l.planar ? 1 : l.spp);
  const tmsize_t line_size = TIFFScanlineSize(tif);
  if (line_size < static_cast<tmsize_t>(per_row * l.bytes_per_sample))
    throw_input_error(path, "invalid TIFF data: scanline shorter than the image width");
  std::vector<std::uint8_t> line(static_cast<std::size_t>(line_size));
  for (int s = 0; s < planes; ++s) {
    for (std::uint32_t y = 0; y < l.height; ++y) {
      if (TIFFReadScanline(tif, line.data(), y, static_cast<std::uint16_t>(s)) < 0)
        throw_input_error(path, "invalid TIFF data: " + tiff_last_error());
      const std::size_t dst = static_cast<std::size_t>(y) * l.width * l.spp + s;
      store_samples(out, l, line.data(), per_row, dst, l.planar ? l.spp : 1);
    }
  }
}

void read_tiles(const std::string& path, TIFF* tif, const TiffLayout& l, DecodedImage& out) {
  std::uint32_t tile_w = 0, tile_h = 0;
  if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_w) ||
      !TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_h) || tile_w == 0 || tile_h == 0)
    throw_input_error(path, "invalid TIFF data: missing tile size");
  const std::size_t tile_row = static_cast<std::size_t>(tile_w) * (l.planar ? 1 : l.spp);
  const tmsize_t tile_size = TIFFTileSize(tif);
  if (tile_size < static_cast<tmsize_t>(tile_row * tile_h * l.bytes_per_sample))
    throw_input_error(path, "invalid TIFF data: tile smaller than its declared size");
  std::vector<std::uint8_t> tile(static_cast<std::size_t>(tile_size));
  const int planes = l.planar ? l.spp : 1;
  for (int s = 0; s < planes; ++s) {
    for (std::uint32_t ty = 0; ty < l.height; ty += tile_h) {
      for (std::uint32_t tx = 0; tx < l.width; tx += tile_w) {
        if (TIFFReadTile(tif, tile.data(), tx, ty, 0, static_cast<std::uint16_t>(s)) < 0)
          throw_input_error(path, "invalid TIFF data: " + tiff_last_error());
        const std::uint32_t rows = std::min(tile_h, l.height - ty);
        const std::uint32_t cols = std::min(tile_w, l.width - tx);
        for (std::uint32_t r = 0; r < rows; ++r) {
          const std::uint8_t* src = tile.data() + r * tile_row * l.bytes_per_sample;
          const std::size_t pixel = static_cast<std::size_t>(ty + r) * l.width + tx;
          if (l.planar)
            store_samples(out, l, src, cols, pixel * l.spp + s, l.spp);
          else
            store_samples(out, l, src, static_cast<std::size_t>(cols) * l.spp, pixel * l.spp, 1);
        }
      }
    }
  }
}

}  // namespace

DecodedImage decode_tiff(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  tiff_clear_error();
  MemoryStream stream{bytes.data(), bytes.size(), 0};
  std::unique_ptr<TIFF, TiffCloser> tif(TIFFClientOpen(path.c_str(), "r", &stream, stream_read,
                                                       stream_write, stream_seek, stream_close,
                                                       stream_size, stream_map, stream_unmap));
  if (!tif) throw_input_error(path, "invalid TIFF data: " + tiff_last_error());
  TIFF* t = tif.get();

  std::uint32_t width = 0, height = 0;
  std::uint16_t spp = 1, bps = 1, planar = PLANARCONFIG_CONTIG, format = SAMPLEFORMAT_UINT;
  std::uint16_t photometric = 0;
  if (!TIFFGetField(t, TIFFTAG_IMAGEWIDTH, &width) ||
      !TIFFGetField(t, TIFFTAG_IMAGELENGTH, &height))
    throw_input_error(path, "invalid TIFF data: missing image size");
  TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLESPERPIXEL, &spp);
  TIFFGetFieldDefaulted(t, TIFFTAG_BITSPERSAMPLE, &bps);
  TIFFGetFieldDefaulted(t, TIFFTAG_PLANARCONFIG, &planar);
  TIFFGetFieldDefaulted(t, TIFFTAG_SAMPLEFORMAT, &format);
  if (!TIFFGetField(t, TIFFTAG_PHOTOMETRIC, &photometric))
    throw_input_error(path, "invalid TIFF data: missing photometric interpretation");
  if (format != SAMPLEFORMAT_UINT && format != SAMPLEFORMAT_VOID)
    throw_input_error(path, "TIFF with signed or floating-point samples is not supported");

  const bool gray = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE;
  if (photometric == PHOTOMETRIC_YCBCR) {
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(t, TIFFTAG_COMPRESSION, &compression);
    if (compression != COMPRESSION_JPEG)
      throw_input_error(path, "uncompressed YCbCr TIFF is not supported");
    TIFFSetField(t, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);  // libjpeg converts to RGB
  } else if (!gray && photometric != PHOTOMETRIC_RGB) {
    throw_input_error(path, "TIFF photometric interpretation " + std::to_string(photometric) +
                                " (palette, CMYK, Lab, ...) is not supported");
  }
  if ((gray && spp > 2) || (!gray && (spp < 3 || spp > 4)))
    throw_input_error(path, "unsupported TIFF layout: " + std::to_string(spp) +
                                (gray ? " samples per gray pixel" : " samples per colour pixel"));
  check_header(path, width, height, spp, bps);
  // The strips or tiles lie inside the file, and each codec expands its data by a bounded
  // factor (none 1, PackBits 64, deflate 1032, LZW < 4096). A header announcing more samples
  // than the file can hold is corrupt: refuse it before allocating them (a 162-byte file would
  // otherwise cost 2 GiB). Other codecs (JPEG, ...) get the same generous 4096: baseline JPEG
  // needs at least ~4 bits per 8x8 block and component, i.e. at most ~256x for a flat image
  // (a 334-byte JPEG-in-TIFF claiming 7440 x 25600 x 3 was found by fuzz-smoke).
  std::uint16_t compression = COMPRESSION_NONE;
  TIFFGetFieldDefaulted(t, TIFFTAG_COMPRESSION, &compression);
  const double expansion =
      compression == COMPRESSION_NONE       ? 1
      : compression == COMPRESSION_PACKBITS ? 64
      : compression == COMPRESSION_ADOBE_DEFLATE || compression == COMPRESSION_DEFLATE
          ? 1032
          : 4096;  // LZW (< 4096) and every other codec
  const double sample_bytes = static_cast<double>(width) * height * spp * (bps / 8);
  if (sample_bytes > expansion * static_cast<double>(bytes.size()))
    throw_input_error(path, "truncated TIFF data (" + std::to_string(bytes.size()) +
                                " bytes cannot hold a " + std::to_string(width) + " x " +
                                std::to_string(height) + " image)");

  DecodedImage out;
  out.width = static_cast<int>(width);
  out.height = static_cast<int>(height);
  out.channels = spp;
  out.bit_depth = bps;
  const std::size_t count = static_cast<std::size_t>(width) * height * spp;
  if (bps == 8)
    out.samples8.resize(count);
  else
    out.samples16.resize(count);

  const TiffLayout layout{width, height, spp, bps / 8, planar == PLANARCONFIG_SEPARATE && spp > 1};
  if (TIFFIsTiled(t))
    read_tiles(path, t, layout, out);
  else
    read_strips(path, t, layout, out);

  if (photometric == PHOTOMETRIC_MINISWHITE) {
    // 0 means white here; invert the gray sample (not the alpha) so that values mean light.
    for (std::size_t i = 0; i < count; i += spp) {
      if (bps == 8)
        out.samples8[i] = static_cast<std::uint8_t>(255 - out.samples8[i]);
      else
        out.samples16[i] = static_cast<std::uint16_t>(65535 - out.samples16[i]);
    }
    out.notes.push_back("min-is-white TIFF inverted");
  }
  const tdir_t pages = TIFFNumberOfDirectories(t);
  if (pages > 1) out.notes.push_back("first of " + std::to_string(pages) + " TIFF pages read");
  return out;
}

#else  // !MAD_HAVE_TIFF

DecodedImage decode_tiff(const std::string& path, const std::vector<std::uint8_t>&) {
  throw_input_error(path, "TIFF support not built (libtiff was not found at configure time)");
}

#endif

}  // namespace mad::io_detail
