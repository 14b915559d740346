// libpng's error and warning callbacks, shared by png_read.cpp and png_write.cpp. Only those
// two files include this header (it brings in png.h).
#pragma once

#include <png.h>

namespace mad::io_detail {

// Where the error callback leaves libpng's message. Plain data: a longjmp may leave through it.
struct PngMessage {
  char text[256];
};

// Error callback: copies the message into the PngMessage given to libpng as its error pointer
// and longjmps back to the caller's setjmp; never returns.
void on_png_error(png_structp png, png_const_charp message);

// Warnings are about ancillary data (a bad text chunk CRC, an odd gamma value) that does not
// change the pixels; libpng would otherwise print them to stderr. This callback drops them.
void on_png_warning(png_structp png, png_const_charp message);

}  // namespace mad::io_detail
