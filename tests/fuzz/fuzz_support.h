// Helpers shared by the libFuzzer targets of tests/fuzz.
//
// Contract every target checks: a parser given any bytes either returns a value or throws a
// mad::Error (InputError / InvalidArgument), which the CLI maps to a documented exit code.
// Anything else (another exception type, a sanitizer report, a crash, a broken invariant) is a
// bug: the exception escapes LLVMFuzzerTestOneInput, libFuzzer aborts and saves the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>  // getpid

namespace mad::fuzz {

// A private folder for parsers that take a path: under /dev/shm when it exists (no disk
// traffic at thousands of executions per second), else $TMPDIR. One per process
// (mad_fuzz_<pid>), so parallel fuzzers and libFuzzer's fork-mode jobs do not share files.
// libFuzzer often ends a process with _Exit, which skips atexit handlers, so each new process
// also removes the folders of mad_fuzz processes that no longer exist.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path base =
        fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    const std::string prefix = "mad_fuzz_";
    for (fs::directory_iterator it(base, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind(prefix, 0) != 0) continue;
      const std::string pid = name.substr(prefix.size());
      if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
      std::error_code gone;
      if (!fs::exists("/proc/" + pid, gone)) fs::remove_all(it->path(), gone);
    }
    fs::path d = base / (prefix + std::to_string(::getpid()));
    fs::create_directories(d);
    std::atexit([] {
      std::error_code e;
      std::filesystem::remove_all(scratch_dir(), e);
    });
    return d;
  }();
  return dir;
}

// Writes the bytes to `path` (replacing it) and returns the path as a string.
inline std::string write_file(const std::filesystem::path& path, const std::uint8_t* data,
                              std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) {
    std::fprintf(stderr, "fuzz harness: cannot write %s\n", path.string().c_str());
    std::abort();
  }
  return path.string();
}

// Harness invariant: aborts (a libFuzzer crash with a saved input) when `ok` is false.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
  }
}

}  // namespace mad::fuzz
