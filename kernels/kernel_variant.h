// Names shared by every preprocessing kernel (issue 4): which kernels exist, how a registered
// CUDA variant is described to CUDA-free code (the CLI, tests, `mad bench`), and how a host
// entry point is told which variant to run. No CUDA syntax here (STYLE rule 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mad::kernels {

// The kernels of kernels/. Gray and Darken are one kernel with two weightings; they share
// one variant table.
enum class KernelKind { Gray, Darken, Histogram, Smooth, Nick };

// "gray", "darken", "histogram", "smooth", "nick".
const char* kernel_kind_name(KernelKind kind);
// Inverse of kernel_kind_name; throws InvalidArgument naming the accepted values.
KernelKind parse_kernel_kind(const std::string& name);
std::vector<KernelKind> all_kernel_kinds();

// One row of a variant table, without its launch function.
struct VariantInfo {
  std::string name;
  std::string note;
  bool is_default = false;
};

// Every CUDA variant registered for `kind`, in table order. Empty in a build without the
// CUDA backend (the CPU reference is not a variant; it is `--backend cpu`).
std::vector<VariantInfo> list_variants(KernelKind kind);

// How a host entry point (gray_cuda, histogram_cuda, ...) runs a variant.
struct CudaRunOptions {
  std::string variant;         // a registered name; empty selects the table's default
  std::uint8_t poison = 0xA5;  // every byte of the device output is set to this before the
                               // launch, so an output element a variant forgets to write
                               // cannot pass as correct (tests run two different poisons)
};

// Device scratch memory handed to a variant's launch function (caller-owned, CUB style).
// A launch never allocates; it throws InvalidArgument when `bytes` is too small.
struct DeviceScratch {
  void* data = nullptr;
  std::size_t bytes = 0;
};

}  // namespace mad::kernels
