#include "tools/cli_stdout.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "common/error.h"

namespace mad::cli {
namespace {

const char* const kWhat = "cannot write the standard output";

// The reason of a flush that returned `flushed`: errno is the system's when the flush itself
// failed; a stream whose error flag was set by an earlier write keeps no reason (glibc drops
// the buffer it could not write), and is named as such.
std::string reason(bool flushed, int err) {
  if (!flushed && err) return std::strerror(err);
  return "an earlier write to it failed";
}

}  // namespace

void prepare_standard_output() {
  if (!::isatty(STDOUT_FILENO)) std::setvbuf(stdout, nullptr, _IOFBF, std::size_t{1} << 20);
}

void flush_standard_output() {
  // std::cout writes through stdout (sync_with_stdio): its flush is stdout's fflush, and the
  // errno of the one that fails is the reason (a second fflush finds nothing left to write).
  errno = 0;
  const bool streamed = static_cast<bool>(std::cout.flush());
  int err = errno;
  bool flushed = streamed;
  if (streamed) {
    errno = 0;
    flushed = std::fflush(stdout) == 0;
    err = errno;
  }
  if (!flushed || std::ferror(stdout))
    throw InputError(std::string(kWhat) + ": " + reason(flushed, err));
}

int finish_standard_output(int rc) {
  if (rc != kExitOk && rc != kExitPartial) {  // failed already, and said why
    std::fclose(stdout);
    return rc;
  }
  std::string failure;
  try {
    flush_standard_output();
    errno = 0;
    if (std::fclose(stdout) != 0)  // the last chance a file system has to report (NFS, quota)
      failure = std::string(kWhat) + ": " + reason(false, errno);
  } catch (const InputError& e) {
    failure = e.what();
  }
  if (failure.empty()) return rc;
  std::fprintf(stderr, "mad: error: %s\n", failure.c_str());
  return kExitInput;
}

}  // namespace mad::cli
