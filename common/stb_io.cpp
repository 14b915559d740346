// BMP and binary PGM/PPM (P5/P6) decoding through Debian's libstb (stb_image 2.27). A BMP goes
// first to bmp_direct_read.cpp (uncompressed 24/32-bit and gray-palette 8-bit), which returns
// stb's result without stb's byte-at-a-time reads or declines, and then stb reads it here.
//
// stb_image does not notice truncated BMP/PNM pixel data (missing bytes read as zero or stay
// uninitialised), and its 2.27 PNM reader returns 16-bit samples in file byte order (PNM is
// big-endian). So the headers are checked here first for size, and the byte order of 16-bit
// results is verified against the file and corrected when needed.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/image_io_detail.h"

#ifdef MAD_HAVE_STB
#include <stb_image.h>
#endif

namespace mad::io_detail {

#ifdef MAD_HAVE_STB
namespace {

struct PnmHeader {
  long long width = 0, height = 0, maxval = 0;
  int channels = 0;
  std::size_t data_offset = 0;
};

// Binary PNM header: "P5"/"P6", then width, height and maxval separated by whitespace or
// '#' comments, then exactly one whitespace byte before the samples.
PnmHeader parse_pnm_header(const std::string& path, const std::vector<std::uint8_t>& b) {
  PnmHeader h;
  h.channels = b[1] == '6' ? 3 : 1;
  std::size_t i = 2;
  auto is_space = [](std::uint8_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  long long* fields[] = {&h.width, &h.height, &h.maxval};
  for (long long* field : fields) {
    for (;;) {  // whitespace and comments before the number
      while (i < b.size() && is_space(b[i])) ++i;
      if (i < b.size() && b[i] == '#') {
        while (i < b.size() && b[i] != '\n' && b[i] != '\r') ++i;
      } else {
        break;
      }
    }
    if (i >= b.size() || b[i] < '0' || b[i] > '9')
      throw_input_error(path, "invalid PNM header (truncated or not a number)");
    for (; i < b.size() && b[i] >= '0' && b[i] <= '9'; ++i) {
      *field = *field * 10 + (b[i] - '0');
      if (*field > (1LL << 32)) throw_input_error(path, "invalid PNM header (number too large)");
    }
  }
  if (i >= b.size() || !is_space(b[i])) throw_input_error(path, "invalid PNM header");
  h.data_offset = i + 1;
  if (h.maxval < 1 || h.maxval > 65535)
    throw_input_error(path, "invalid PNM maxval " + std::to_string(h.maxval));
  return h;
}

// stb_image reports 8-bit palette BMPs as RGB and keeps the rest; only the pixel data size of
// uncompressed files is checked here (stb rejects the RLE variants itself).
void check_bmp_size(const std::string& path, const std::vector<std::uint8_t>& b) {
  auto u16 = [&](std::size_t o) { return static_cast<std::uint32_t>(b[o] | (b[o + 1] << 8)); };
  auto u32 = [&](std::size_t o) { return u16(o) | (u16(o + 2) << 16); };
  if (b.size() < 26) throw_input_error(path, "truncated BMP header");
  const std::uint32_t offset = u32(10), dib_size = u32(14);
  long long width = 0, height = 0;
  std::uint32_t bpp = 0, compression = 0;
  if (dib_size == 12) {  // OS/2 BITMAPCOREHEADER
    width = u16(18), height = u16(20), bpp = u16(24);
  } else {
    if (b.size() < 34) throw_input_error(path, "truncated BMP header");
    width = static_cast<std::int32_t>(u32(18)), height = static_cast<std::int32_t>(u32(22));
    bpp = u16(28), compression = u32(30);
  }
  if (height < 0) height = -height;  // top-down bitmap
  // stb_image 2.27 reads the compression field as a signed int: values >= 2^31 slip past its
  // "unsupported" test and decode as uncompressed pixels that the file does not hold. Only
  // BI_RGB (0) and BI_BITFIELDS (3) are decodable; everything else is refused here, so the
  // size check below covers every file that reaches stb.
  if (compression != 0 && compression != 3)
    throw_input_error(path, "unsupported BMP compression " + std::to_string(compression) +
                                " (RLE, JPEG and PNG BMPs are not read)");
  // stb does not refuse every odd depth (a 44-byte file with 0 bits per pixel made it allocate
  // 638 MB, found by fuzz-smoke): only the depths BMP defines get through.
  if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
    throw_input_error(path, "unsupported BMP depth of " + std::to_string(bpp) + " bits per pixel");
  if (width <= 0 || height <= 0) return;  // stb reports these
  const unsigned long long stride = (static_cast<unsigned long long>(width) * bpp + 31) / 32 * 4;
  if (static_cast<unsigned long long>(offset) + stride * height > b.size())
    throw_input_error(path, "truncated BMP pixel data");
}

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

std::atomic<std::size_t> bmp_direct_count{0};

}  // namespace

std::size_t bmp_direct_decodes() {
  return bmp_direct_count.load(std::memory_order_relaxed);
}

DecodedImage decode_stb(const std::string& path, const std::vector<std::uint8_t>& bytes,
                        FileFormat format) {
  DecodedImage out;
  PnmHeader pnm;
  if (format == FileFormat::kPnm) {
    pnm = parse_pnm_header(path, bytes);
    check_header(path, pnm.width, pnm.height, pnm.channels, pnm.maxval > 255 ? 16 : 8);
    const std::size_t need = static_cast<std::size_t>(pnm.width) * pnm.height * pnm.channels *
                             (pnm.maxval > 255 ? 2 : 1);
    if (bytes.size() - pnm.data_offset < need)
      throw_input_error(path, "truncated PNM pixel data (" + std::to_string(need) +
                                  " bytes expected, " +
                                  std::to_string(bytes.size() - pnm.data_offset) + " present)");
    if (pnm.maxval != 255 && pnm.maxval != 65535)
      out.notes.push_back("PNM maxval " + std::to_string(pnm.maxval) +
                          ": samples used as stored, not rescaled");
  } else {
    if (std::optional<DecodedImage> direct = decode_bmp_direct(bytes)) {
      bmp_direct_count.fetch_add(1, std::memory_order_relaxed);
      return std::move(*direct);
    }
    check_bmp_size(path, bytes);
  }

  const auto* data = bytes.data();
  const int length = bytes.size() > 0x7fffffffu ? 0x7fffffff : static_cast<int>(bytes.size());
  const bool wide = stbi_is_16_bit_from_memory(data, length) != 0;
  int w = 0, h = 0, c = 0;
  std::unique_ptr<void, StbFree> pixels(
      wide ? static_cast<void*>(stbi_load_16_from_memory(data, length, &w, &h, &c, 0))
           : static_cast<void*>(stbi_load_from_memory(data, length, &w, &h, &c, 0)));
  if (!pixels)
    throw_input_error(path, std::string("invalid ") + (format == FileFormat::kBmp ? "BMP" : "PNM") +
                                " data: " + stbi_failure_reason());
  check_header(path, w, h, c, wide ? 16 : 8);
  if (wide && format != FileFormat::kPnm)
    throw_input_error(path, "unexpected 16-bit samples from the BMP decoder");
  if (format == FileFormat::kPnm && (w != pnm.width || h != pnm.height || c != pnm.channels))
    throw_input_error(path, "PNM header and decoded image disagree");

  out.width = w, out.height = h, out.channels = c, out.bit_depth = wide ? 16 : 8;
  const std::size_t count = static_cast<std::size_t>(w) * h * c;
  if (!wide) {
    const auto* p = static_cast<const std::uint8_t*>(pixels.get());
    out.samples8.assign(p, p + count);
    return out;
  }
  const auto* p = static_cast<const std::uint16_t*>(pixels.get());
  out.samples16.assign(p, p + count);
  // The file holds big-endian samples. Find the first whose two bytes differ and see which
  // order stb delivered; older stb versions hand back the raw file order.
  const std::uint8_t* raw = bytes.data() + pnm.data_offset;
  for (std::size_t i = 0; i < count; ++i) {
    if (raw[2 * i] == raw[2 * i + 1]) continue;
    const auto big = static_cast<std::uint16_t>((raw[2 * i] << 8) | raw[2 * i + 1]);
    const auto little = static_cast<std::uint16_t>((raw[2 * i + 1] << 8) | raw[2 * i]);
    if (out.samples16[i] == little)
      for (auto& v : out.samples16) v = static_cast<std::uint16_t>((v << 8) | (v >> 8));
    else if (out.samples16[i] != big)
      throw_input_error(path, "PNM decoder returned unexpected 16-bit samples");
    break;
  }
  return out;
}

#else  // !MAD_HAVE_STB

DecodedImage decode_stb(const std::string& path, const std::vector<std::uint8_t>&,
                        FileFormat format) {
  throw_input_error(path, std::string(format == FileFormat::kBmp ? "BMP" : "PGM/PPM") +
                              " support not built (stb_image was not found at configure time)");
}

#endif

}  // namespace mad::io_detail
