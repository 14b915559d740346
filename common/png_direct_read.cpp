// PNG decoding without libpng for the files datasets are made of: 8-bit, non-interlaced gray,
// gray+alpha, RGB or RGBA. The zlib stream is inflated by libdeflate and the rows are
// unfiltered here. Why: on KADID-10k-shaped RGB files, libpng spends two thirds of its time in
// zlib's inflate and most of the rest unfiltering, and `mad eval` waits on decoding (issue #12,
// goal 4). libdeflate, a maintained Debian library, inflates a whole buffer about twice as fast
// as zlib's streaming inflate; libpng cannot use it.
//
// The contract: this reader either returns exactly the samples libpng's path returns (the
// stored values, interleaved) or declines, and then libpng decodes the file and gives its
// result or its error. It declines anything it does not handle completely: other bit depths,
// palettes, interlacing, a PLTE or unknown critical chunk, a bad CRC on a critical chunk, IDAT
// chunks that are not consecutive, a missing IEND, a zlib stream that is corrupt, short, long
// or followed by other bytes, or an unknown filter type. Ancillary chunks are skipped, as
// libpng does when no transform asks for them (their problems are only warnings there, and
// ours ignores warnings). Refusals (sizes, truncation) are left to libpng's path, so every
// error message stays the same. tests/common/png_direct_read_test.cpp and the PNG fuzz target
// hold the two paths to the same bytes.
#ifdef MAD_HAVE_LIBDEFLATE

#include <libdeflate.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "common/image_io_detail.h"

namespace mad::io_detail {
namespace {

std::uint32_t read_be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

bool is_type(const std::uint8_t* type, const char* name) {
  return std::memcmp(type, name, 4) == 0;
}

bool is_letter(std::uint8_t c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// A chunk's CRC covers its type and data.
bool crc_matches(const std::uint8_t* type, std::uint32_t length) {
  const std::uint32_t stored = read_be32(type + 4 + length);
  return libdeflate_crc32(0, type, std::size_t{4} + length) == stored;
}

// One decompressor per decoding thread: allocating one costs more than inflating a small file.
libdeflate_decompressor* thread_decompressor() {
  struct Free {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
  };
  thread_local std::unique_ptr<libdeflate_decompressor, Free> decompressor(
      libdeflate_alloc_decompressor());
  return decompressor.get();
}

// The Paeth predictor of the PNG specification (section 9.4), for one byte.
inline int paeth(int a, int b, int c) {
  const int pa = std::abs(b - c);          // |p - a| with p = a + b - c
  const int pb = std::abs(a - c);          // |p - b|
  const int pc = std::abs(a + b - 2 * c);  // |p - c|
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Reverses one row's filter (0 none, 1 Sub, 2 Up, 3 Average, 4 Paeth) a byte at a time, with
// the left neighbours `a` of the Bpp interleaved chains kept in registers (reading them back
// from `out` would put a store-to-load round trip on every step). `prior` is the previous
// unfiltered row (zeros for the first). Returns false on an unknown filter type.
template <int Bpp>
bool unfilter_row_bytes(int filter, const std::uint8_t* in, const std::uint8_t* prior,
                        std::uint8_t* out, std::size_t n) {
  int a[Bpp] = {}, c[Bpp] = {};  // left and upper-left neighbours, 0 before the first pixel
  switch (filter) {
    case 0: std::memcpy(out, in, n); return true;
    case 2: {
      std::size_t i = 0;
#ifdef __SSE2__
      // No chain from byte to byte: 16 at a time. (The compiler leaves the plain loop a byte at a
      // time, since `out` might overlap `in` or `prior`; it does not.)
      for (; i + 16 <= n; i += 16)
        _mm_storeu_si128(
            reinterpret_cast<__m128i*>(out + i),
            _mm_add_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(prior + i))));
#endif
      for (; i < n; ++i) out[i] = static_cast<std::uint8_t>(in[i] + prior[i]);
      return true;
    }
    case 1:
      for (std::size_t i = 0; i < n; i += Bpp)
        for (int k = 0; k < Bpp; ++k) out[i + k] = static_cast<std::uint8_t>(a[k] += in[i + k]);
      return true;
    case 3:
      for (std::size_t i = 0; i < n; i += Bpp)
        for (int k = 0; k < Bpp; ++k)
          out[i + k] =
              static_cast<std::uint8_t>(a[k] = (in[i + k] + ((a[k] + prior[i + k]) >> 1)) & 0xff);
      return true;
    case 4:
      for (std::size_t i = 0; i < n; i += Bpp)
        for (int k = 0; k < Bpp; ++k) {
          const int b = prior[i + k];
          out[i + k] = static_cast<std::uint8_t>(a[k] = (in[i + k] + paeth(a[k], b, c[k])) & 0xff);
          c[k] = b;
        }
      return true;
    default: return false;
  }
}

// Bytes readable after the end of each row buffer the pixel loops read (see load_pixel). The
// previous row, when it is a row of the image, is followed by the current one.
constexpr std::size_t kSlack = 4;

#ifdef __SSE2__
// Three- and four-byte pixels (RGB, RGBA: the common dataset files), a pixel at a time in
// 16-bit SSE2 lanes. Sub, Average and Paeth chain each pixel to its left neighbour, so their
// speed is the latency of one step; a pixel-wide step is Bpp times shorter than byte steps.
// Pixels are moved as four bytes: for RGB the fourth is the next pixel's first, read as an
// unused lane and overwritten by that pixel's own store. Every buffer read this way has a byte
// of slack after it (see kSlack), and a row's last pixel is stored with its three bytes only.
// (Moving exactly three bytes through memcpy goes through the stack and stalls on every pixel.)
inline __m128i load_pixel(const std::uint8_t* p) {
  std::int32_t v;
  std::memcpy(&v, p, 4);
  return _mm_unpacklo_epi8(_mm_cvtsi32_si128(v), _mm_setzero_si128());
}

// The same, as bytes in the low lanes of a register (no widening).
inline __m128i load_bytes(const std::uint8_t* p) {
  std::int32_t v;
  std::memcpy(&v, p, 4);
  return _mm_cvtsi32_si128(v);
}

template <int Bpp>
void store_bytes(std::uint8_t* p, __m128i bytes, bool last) {
  const std::int32_t v = _mm_cvtsi128_si32(bytes);
  if (Bpp == 4 || !last) {
    std::memcpy(p, &v, 4);
  } else {
    p[0] = static_cast<std::uint8_t>(v);
    p[1] = static_cast<std::uint8_t>(v >> 8);
    p[2] = static_cast<std::uint8_t>(v >> 16);
  }
}

template <int Bpp>
void store_pixel(std::uint8_t* p, __m128i v16, bool last) {
  store_bytes<Bpp>(p, _mm_packus_epi16(v16, v16), last);
}

inline __m128i abs16(__m128i x) {
  return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x));
}

template <int Bpp>
bool unfilter_row_pixels(int filter, const std::uint8_t* in, const std::uint8_t* prior,
                         std::uint8_t* out, std::size_t n) {
  const __m128i low_byte = _mm_set1_epi16(0xff);
  __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
  switch (filter) {
    case 1:
      for (std::size_t i = 0; i < n; i += Bpp) {
        a = _mm_and_si128(_mm_add_epi16(a, load_pixel(in + i)), low_byte);
        store_pixel<Bpp>(out + i, a, i + Bpp == n);
      }
      return true;
    case 3: {
      // In bytes, on complements: with x' = 255 - x, floor((a + b) / 2) = 255 - avg(a', b')
      // (avg rounding up, SSE2's pavgb), so the next a' = avg(a', b') - in, modulo 256. Two
      // instructions chain one pixel to the next instead of four.
      const __m128i ones = _mm_set1_epi8(-1);
      __m128i not_a = ones;  // a = 0 before the first pixel
      for (std::size_t i = 0; i < n; i += Bpp) {
        const __m128i not_b = _mm_xor_si128(load_bytes(prior + i), ones);
        not_a = _mm_sub_epi8(_mm_avg_epu8(not_a, not_b), load_bytes(in + i));
        store_bytes<Bpp>(out + i, _mm_xor_si128(not_a, ones), i + Bpp == n);
      }
      return true;
    }
    case 4:
      for (std::size_t i = 0; i < n; i += Bpp) {
        const __m128i b = load_pixel(prior + i);
        const __m128i b_minus_c = _mm_sub_epi16(b, c);
        const __m128i pa = abs16(b_minus_c);  // these three do not wait for `a`
        const __m128i a_minus_c = _mm_sub_epi16(a, c);
        const __m128i pb = abs16(a_minus_c);
        const __m128i pc = abs16(_mm_add_epi16(a_minus_c, b_minus_c));
        // a where pa <= pb and pa <= pc, else b where pb <= pc, else c.
        const __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
        const __m128i not_b = _mm_cmpgt_epi16(pb, pc);
        const __m128i b_or_c = _mm_or_si128(_mm_andnot_si128(not_b, b), _mm_and_si128(not_b, c));
        const __m128i predicted =
            _mm_or_si128(_mm_andnot_si128(not_a, a), _mm_and_si128(not_a, b_or_c));
        a = _mm_and_si128(_mm_add_epi16(load_pixel(in + i), predicted), low_byte);
        store_pixel<Bpp>(out + i, a, i + Bpp == n);
        c = b;
      }
      return true;
    default: return unfilter_row_bytes<Bpp>(filter, in, prior, out, n);  // None, Up, unknown
  }
}
#endif

template <int Bpp>
bool unfilter_row(int filter, const std::uint8_t* in, const std::uint8_t* prior, std::uint8_t* out,
                  std::size_t n) {
#ifdef __SSE2__
  if constexpr (Bpp >= 3) return unfilter_row_pixels<Bpp>(filter, in, prior, out, n);
#endif
  return unfilter_row_bytes<Bpp>(filter, in, prior, out, n);
}

// A buffer of at least `bytes`: the thread's own, kept between files, up to kKeptBytes
// (image_io_detail.h); for a larger one `once`, released with the caller's frame.
std::vector<std::uint8_t>& scratch(std::vector<std::uint8_t>& kept, std::vector<std::uint8_t>& once,
                                   std::size_t bytes) {
  std::vector<std::uint8_t>& v = bytes <= kKeptBytes ? kept : once;
  if (v.size() < bytes) v.resize(bytes);
  return v;
}

template <int Bpp>
bool unfilter_image(const std::uint8_t* filtered, std::size_t row_bytes, std::size_t height,
                    std::uint8_t* out) {
  const std::vector<std::uint8_t> zeros(row_bytes + kSlack, 0);  // the row above the first
  const std::uint8_t* prior = zeros.data();
  for (std::size_t y = 0; y < height; ++y) {
    const std::uint8_t* in = filtered + y * (row_bytes + 1);
    std::uint8_t* row = out + y * row_bytes;
    if (!unfilter_row<Bpp>(in[0], in + 1, prior, row, row_bytes)) return false;
    prior = row;
  }
  return true;
}

}  // namespace

std::optional<DecodedImage> decode_png_direct(const std::vector<std::uint8_t>& bytes) {
  static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const std::size_t size = bytes.size();
  const std::uint8_t* data = bytes.data();
  if (size < 8 + 25 || std::memcmp(data, kSignature, 8) != 0) return std::nullopt;

  // IHDR comes first and is 13 bytes long.
  const std::uint8_t* ihdr = data + 8;
  if (read_be32(ihdr) != 13 || !is_type(ihdr + 4, "IHDR") || !crc_matches(ihdr + 4, 13))
    return std::nullopt;
  const std::uint32_t width = read_be32(ihdr + 8), height = read_be32(ihdr + 12);
  const int bit_depth = ihdr[16], colour_type = ihdr[17];
  const int compression = ihdr[18], filter_method = ihdr[19], interlace = ihdr[20];
  const int channels = colour_type == 0   ? 1
                       : colour_type == 2 ? 3
                       : colour_type == 4 ? 2
                       : colour_type == 6 ? 4
                                          : 0;
  // libpng's own limit is 10^6 per side; beyond it, or beyond ours, its path refuses the file.
  if (channels == 0 || bit_depth != 8 || compression != 0 || filter_method != 0 || interlace != 0 ||
      width == 0 || height == 0 || width > 1000000 || height > 1000000 ||
      std::size_t{width} * height > kMaxPixels)
    return std::nullopt;
  const std::size_t row_bytes = std::size_t{width} * static_cast<std::size_t>(channels);
  const std::size_t filtered_bytes = (row_bytes + 1) * height;
  // The same guard as libpng's path: deflate expands at most 1032:1.
  if (row_bytes * height / 1032 > size) return std::nullopt;

  // Walk the chunks, gathering the IDAT data (writers split it, libpng into 8 KiB pieces).
  // The image data is at most the file: a large file gathers it into a buffer of its own.
  thread_local std::vector<std::uint8_t> kept_compressed;
  std::vector<std::uint8_t> once_compressed;
  std::vector<std::uint8_t>& compressed = size <= kKeptBytes ? kept_compressed : once_compressed;
  compressed.clear();
  enum class Idat { Before, In, After } idat = Idat::Before;
  bool ended = false;
  for (std::size_t offset = 8 + 25; !ended;) {
    if (size - offset < 12) return std::nullopt;  // truncated: no IEND
    const std::uint32_t length = read_be32(data + offset);
    const std::uint8_t* type = data + offset + 4;
    if (length > 0x7fffffffu || size - offset - 12 < length) return std::nullopt;
    if (!is_letter(type[0]) || !is_letter(type[1]) || !is_letter(type[2]) || !is_letter(type[3]))
      return std::nullopt;
    const bool critical = type[0] >= 'A' && type[0] <= 'Z';
    if (is_type(type, "IDAT")) {
      if (idat == Idat::After || !crc_matches(type, length)) return std::nullopt;
      idat = Idat::In;
      compressed.insert(compressed.end(), type + 4, type + 4 + length);
    } else if (is_type(type, "IEND")) {
      if (length != 0 || idat == Idat::Before || !crc_matches(type, 0)) return std::nullopt;
      ended = true;
    } else if (critical) {
      return std::nullopt;  // IHDR again, PLTE, or a critical chunk libpng does not know
    } else if (idat == Idat::In) {
      idat = Idat::After;  // an ancillary chunk after the image data
    }
    offset += std::size_t{12} + length;
  }

  thread_local std::vector<std::uint8_t> kept_filtered;
  std::vector<std::uint8_t> once_filtered;
  std::vector<std::uint8_t>& filtered =
      scratch(kept_filtered, once_filtered, filtered_bytes + kSlack);
  libdeflate_decompressor* decompressor = thread_decompressor();
  if (decompressor == nullptr) return std::nullopt;  // out of memory: libpng may still manage
  std::size_t consumed = 0;
  // A null actual-output pointer asks for exactly filtered_bytes: shorter or longer streams fail.
  if (libdeflate_zlib_decompress_ex(decompressor, compressed.data(), compressed.size(),
                                    filtered.data(), filtered_bytes, &consumed,
                                    nullptr) != LIBDEFLATE_SUCCESS ||
      consumed != compressed.size())
    return std::nullopt;

  DecodedImage out;
  out.width = static_cast<int>(width);
  out.height = static_cast<int>(height);
  out.channels = channels;
  out.bit_depth = 8;
  out.samples8 = take_sample_buffer(row_bytes * height);  // every row is unfiltered into it
  bool ok = false;
  switch (channels) {
    case 1: ok = unfilter_image<1>(filtered.data(), row_bytes, height, out.samples8.data()); break;
    case 2: ok = unfilter_image<2>(filtered.data(), row_bytes, height, out.samples8.data()); break;
    case 3: ok = unfilter_image<3>(filtered.data(), row_bytes, height, out.samples8.data()); break;
    case 4: ok = unfilter_image<4>(filtered.data(), row_bytes, height, out.samples8.data()); break;
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace mad::io_detail

#endif  // MAD_HAVE_LIBDEFLATE
