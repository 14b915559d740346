// Per-thread capture of libtiff's error messages (see image_io_detail.h). libtiff only offers
// process-wide handlers in all the versions we support, so the handler is installed once and
// writes into thread-local storage; concurrent loads on several threads keep their own text.
#ifdef MAD_HAVE_TIFF

#include <tiffio.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "common/image_io_detail.h"

namespace mad::io_detail {
namespace {

thread_local char t_last_error[512];

// The first error since tiff_clear_error() is kept: later ones are usually consequences. The
// module argument is dropped: it is usually the file name, which InputError already names.
void on_tiff_error(const char*, const char* format, va_list args) {
  if (t_last_error[0] == '\0') std::vsnprintf(t_last_error, sizeof t_last_error, format, args);
}

// Warnings (unknown private tags, deprecated fields) never change the pixels we read.
void on_tiff_warning(const char*, const char*, va_list) {}

}  // namespace

void tiff_clear_error() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    TIFFSetErrorHandler(on_tiff_error);
    TIFFSetWarningHandler(on_tiff_warning);
  });
  t_last_error[0] = '\0';
}

std::string tiff_last_error() {
  return t_last_error[0] ? std::string(t_last_error) : std::string("unknown libtiff error");
}

}  // namespace mad::io_detail

#endif  // MAD_HAVE_TIFF
