// Error types and the exit codes the CLI maps them to. The library never calls exit(); it
// throws one of these and the tool decides what the user sees.
#pragma once

#include <stdexcept>
#include <string>

namespace mad {

// Process exit codes (documented in README.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,  // unexpected internal error
  kExitUsage = 2,    // bad command line
  kExitInput = 3,    // unreadable or invalid input (file, image, size mismatch, list)
  kExitGpu = 4,      // CUDA / cuFFT error, no device when one was required
  kExitPartial = 5,  // batch finished but some rows failed
};

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  virtual int exit_code() const { return kExitFailure; }
};

// A caller passed something the API does not accept (bad option, bad shape).
class InvalidArgument : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return kExitUsage; }
};

// An input file or image is missing, unreadable, or not valid for MAD.
class InputError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return kExitInput; }
};

// A CUDA runtime, cuFFT or device-availability failure.
class GpuError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return kExitGpu; }
};

// A broken internal invariant: a bug in mad, never the user's input or the device. The message
// asks for a report; the CLI exits 1 (kExitFailure).
class InternalError : public Error {
 public:
  explicit InternalError(const std::string& what)
      : Error(what + " (an internal error of mad: please report it)") {}
};

// What a CUDA entry point does in a build without the CUDA backend (its stand-in body): a
// GpuError "<what>: this build has no CUDA backend (use --backend cpu)", exit code 4.
[[noreturn]] inline void throw_no_cuda_backend(const std::string& what) {
  throw GpuError(what + ": this build has no CUDA backend (use --backend cpu)");
}

}  // namespace mad
