// libpng's error and warning callbacks (common/png_messages.h).
#include "common/png_messages.h"

#include <cstdio>

namespace mad::io_detail {

void on_png_error(png_structp png, png_const_charp message) {
  auto* out = static_cast<PngMessage*>(png_get_error_ptr(png));
  std::snprintf(out->text, sizeof out->text, "%s", message);
  png_longjmp(png, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

}  // namespace mad::io_detail
