// JPEG decoding through libjpeg(-turbo): gray and YCbCr/RGB files, with the library defaults
// (accurate integer IDCT, fancy upsampling). CMYK/YCCK files are rejected with a clear reason.
//
// Error handling: libjpeg's default error_exit calls exit(). We install an error manager whose
// error_exit formats the message and longjmps to a setjmp inside a small function holding no
// object with a destructor; that function returns false and the C++ caller destroys the
// decompressor (RAII in its own frame, which the longjmp never crosses) and throws InputError.
// Corrupt-data warnings (premature end of file, bad Huffman code, ...) are fatal too: libjpeg
// would otherwise fill the missing part with gray and return an image MAD would silently score.
#include <algorithm>
#include <csetjmp>
#include <cstdio>  // jpeglib.h needs FILE and size_t declared first
#include <cstring>
#include <string>
#include <vector>

#include <jerror.h>
#include <jpeglib.h>

#include "common/image_io_detail.h"

namespace mad::io_detail {
namespace {

struct JpegErrorManager {
  jpeg_error_mgr pub;  // first member: libjpeg only knows the jpeg_error_mgr part
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void on_jpeg_error(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<JpegErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// Warnings that do not touch the pixels: an unknown JFIF revision, a malformed ICC profile, an
// unknown Adobe transform code, stray bytes between two segments.
bool is_benign_warning(int code) {
  return code == JWRN_JFIF_MAJOR || code == JWRN_BOGUS_ICC || code == JWRN_ADOBE_XFORM ||
         code == JWRN_EXTRANEOUS_DATA;
}

void on_jpeg_message(j_common_ptr cinfo, int level) {
  if (level >= 0) return;  // trace output
  if (is_benign_warning(cinfo->err->msg_code)) return;
  on_jpeg_error(cinfo);
}

// The three setjmp targets below hold no C++ objects (see the file banner).
bool create_decompressor(j_decompress_ptr cinfo, JpegErrorManager* err) {
  if (setjmp(err->jump)) return false;
  jpeg_create_decompress(cinfo);
  return true;
}

bool read_jpeg_header(j_decompress_ptr cinfo, JpegErrorManager* err, const unsigned char* data,
                      unsigned long size) {
  if (setjmp(err->jump)) return false;
  jpeg_mem_src(cinfo, data, size);
  jpeg_read_header(cinfo, TRUE);
  return true;
}

bool start_decompressor(j_decompress_ptr cinfo, JpegErrorManager* err) {
  if (setjmp(err->jump)) return false;
  jpeg_start_decompress(cinfo);
  return true;
}

// Decodes rows up to (not including) `end_row` into `out`, which holds at least end_row rows.
bool read_jpeg_rows(j_decompress_ptr cinfo, JpegErrorManager* err, unsigned char* out,
                    std::size_t row_bytes, JDIMENSION end_row) {
  if (setjmp(err->jump)) return false;
  while (cinfo->output_scanline < end_row) {
    JSAMPROW row = out + static_cast<std::size_t>(cinfo->output_scanline) * row_bytes;
    jpeg_read_scanlines(cinfo, &row, 1);
  }
  return true;
}

bool finish_jpeg(j_decompress_ptr cinfo, JpegErrorManager* err) {
  if (setjmp(err->jump)) return false;
  jpeg_finish_decompress(cinfo);  // reads up to EOI: a cut-off tail is reported here
  return true;
}

// Owns the decompressor in the C++ caller's frame. Zero-initialised so that destroying a
// decompressor whose creation failed is a no-op (jpeg_destroy checks for a null allocator).
struct JpegGuard {
  jpeg_decompress_struct cinfo;
  JpegGuard() { std::memset(&cinfo, 0, sizeof cinfo); }
  ~JpegGuard() { jpeg_destroy_decompress(&cinfo); }
};

// A decompression bomb is refused before any pixel is decoded. Huffman coding spends at least
// one bit on every 8x8 block of every component (its DC difference; a sequential scan a second
// for the end of block), so a Huffman-coded JPEG holds at most 512 pixels a byte. Arithmetic
// coding has no such floor: fuzzing found 195 bytes (SOF9) that decode without a warning to
// 65296 x 2112 gray pixels, 1.1 GB once scored in double. Twice the Huffman ceiling leaves every
// real image, arithmetic-coded ones included, far inside the bound (photographs hold a few
// pixels a byte).
constexpr double kMaxJpegPixelsPerByte = 1024;

void check_jpeg_expansion(const std::string& path, JDIMENSION width, JDIMENSION height,
                          std::size_t file_bytes) {
  const double pixels = static_cast<double>(width) * height;
  if (pixels <= kMaxJpegPixelsPerByte * static_cast<double>(file_bytes)) return;
  throw_input_error(path, "JPEG claims " + std::to_string(width) + " x " + std::to_string(height) +
                              " pixels from " + std::to_string(file_bytes) +
                              " bytes, more than the 1024 pixels a byte any real JPEG holds "
                              "(a decompression bomb)");
}

}  // namespace

DecodedImage decode_jpeg(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  JpegErrorManager err;
  JpegGuard guard;
  jpeg_decompress_struct* cinfo = &guard.cinfo;
  cinfo->err = jpeg_std_error(&err.pub);
  err.pub.error_exit = on_jpeg_error;
  err.pub.emit_message = on_jpeg_message;
  err.message[0] = '\0';
  auto fail = [&]() { throw_input_error(path, std::string("invalid JPEG data: ") + err.message); };

  if (!create_decompressor(cinfo, &err)) fail();
  if (!read_jpeg_header(cinfo, &err, bytes.data(), static_cast<unsigned long>(bytes.size())))
    fail();

  switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE: cinfo->out_color_space = JCS_GRAYSCALE; break;
    case JCS_YCbCr:
    case JCS_RGB: cinfo->out_color_space = JCS_RGB; break;
    case JCS_CMYK:
    case JCS_YCCK:
      throw_input_error(path, "CMYK JPEG is not supported (convert it to RGB or gray)");
    default:
      throw_input_error(path, "unsupported JPEG colour space with " +
                                  std::to_string(cinfo->num_components) + " components");
  }
  check_header(path, cinfo->image_width, cinfo->image_height,
               cinfo->out_color_space == JCS_GRAYSCALE ? 1 : 3, 8);
  check_jpeg_expansion(path, cinfo->image_width, cinfo->image_height, bytes.size());
  if (!start_decompressor(cinfo, &err)) fail();

  DecodedImage out;
  out.width = static_cast<int>(cinfo->output_width);
  out.height = static_cast<int>(cinfo->output_height);
  out.channels = cinfo->output_components;
  out.bit_depth = 8;
  check_header(path, out.width, out.height, out.channels, out.bit_depth);
  const std::size_t row_bytes = static_cast<std::size_t>(out.width) * out.channels;
  // The output grows by bands of rows as they are decoded, so a truncated file (whose missing
  // data is fatal, see on_jpeg_message) fails having allocated about what it holds rather than
  // what its frame header claims (763 bytes claiming 16384 x 16384 RGB would cost 768 MiB).
  constexpr JDIMENSION kBandRows = 64;
  while (cinfo->output_scanline < cinfo->output_height) {
    const JDIMENSION end =
        std::min<JDIMENSION>(cinfo->output_height, cinfo->output_scanline + kBandRows);
    out.samples8.resize(row_bytes * end);
    if (!read_jpeg_rows(cinfo, &err, out.samples8.data(), row_bytes, end)) fail();
  }
  if (!finish_jpeg(cinfo, &err)) fail();
  return out;
}

}  // namespace mad::io_detail
