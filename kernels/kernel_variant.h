// Names shared by every preprocessing kernel (issue 4): which kernels exist, their variant
// registries as CUDA-free code sees them (the CLI, tests, `mad bench`), and how a host entry
// point is told which variant to run. No CUDA syntax here (STYLE rule 1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/variant_registry.h"

namespace mad::kernels {

// The kernels of kernels/. Gray and Darken are one kernel with two weightings; they share
// one variant table.
enum class KernelKind { Gray, Darken, Histogram, Smooth, Nick };

// "gray", "darken", "histogram", "smooth", "nick".
const char* kernel_kind_name(KernelKind kind);
// Inverse of kernel_kind_name; throws InvalidArgument naming the accepted values.
KernelKind parse_kernel_kind(const std::string& name);
std::vector<KernelKind> all_kernel_kinds();

// The variant registry of `kind` (gray_variants(), ...) without its launch functions. The
// rows are listed in every build; running one needs the CUDA backend. The CPU reference is
// not a variant; it is `--backend cpu`.
const VariantNames& list_variants(KernelKind kind);

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
