#include "kernels/kernel_variant.h"

#include "common/error.h"
#include "kernels/gray.h"
#include "kernels/histogram.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"

namespace mad::kernels {

const char* kernel_kind_name(KernelKind kind) {
  switch (kind) {
    case KernelKind::Gray: return "gray";
    case KernelKind::Darken: return "darken";
    case KernelKind::Histogram: return "histogram";
    case KernelKind::Smooth: return "smooth";
    case KernelKind::Nick: return "nick";
  }
  throw InvalidArgument("unknown kernel kind");
}

std::vector<KernelKind> all_kernel_kinds() {
  return {KernelKind::Gray, KernelKind::Darken, KernelKind::Histogram, KernelKind::Smooth,
          KernelKind::Nick};
}

KernelKind parse_kernel_kind(const std::string& name) {
  std::string known;
  for (KernelKind kind : all_kernel_kinds()) {
    if (name == kernel_kind_name(kind)) return kind;
    known += std::string(known.empty() ? "" : ", ") + kernel_kind_name(kind);
  }
  throw InvalidArgument("unknown kernel '" + name + "' (expected one of: " + known + ")");
}

const VariantNames& list_variants(KernelKind kind) {
  switch (kind) {
    case KernelKind::Gray:
    case KernelKind::Darken: return gray_variants();
    case KernelKind::Histogram: return histogram_variants();
    case KernelKind::Smooth: return smooth_variants();
    case KernelKind::Nick: return nick_variants();
  }
  throw InvalidArgument("unknown kernel kind");
}

}  // namespace mad::kernels
