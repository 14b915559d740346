#include "kernels/kernel_variant.h"

#include "common/enum_names.h"
#include "common/error.h"
#include "kernels/gray.h"
#include "kernels/histogram.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"

namespace mad::kernels {

namespace {
constexpr EnumName<KernelKind> kKernelKinds[] = {{KernelKind::Gray, "gray"},
                                                 {KernelKind::Darken, "darken"},
                                                 {KernelKind::Histogram, "histogram"},
                                                 {KernelKind::Smooth, "smooth"},
                                                 {KernelKind::Nick, "nick"}};
}  // namespace

KernelKind parse_kernel_kind(const std::string& name) {
  for (const auto& [kind, kind_name] : kKernelKinds)
    if (name == kind_name) return kind;
  throw InvalidArgument("unknown kernel '" + name +
                        "' (expected one of: " + enum_names_joined(kKernelKinds) + ")");
}

const char* kernel_kind_name(KernelKind kind) {
  return enum_name(kKernelKinds, kind);
}

std::vector<KernelKind> all_kernel_kinds() {
  return enum_values(kKernelKinds);
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
