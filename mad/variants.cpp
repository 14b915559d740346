#include "mad/variants.h"

#include "appearance/a5_variants.h"
#include "appearance/subband_transform.h"
#include "common/gpu_info.h"
#include "detection/detection.h"

namespace mad {
namespace {

std::string describe(const std::string& title, const VariantNames& registry) {
  std::string out = title + ", default marked *:\n";
  for (const VariantInfo& v : registry.infos())
    out +=
        (v.is_default ? "* " : "  ") + v.name + "  " + v.note + "\n    launch: " + v.shape + "\n";
  return out;
}

}  // namespace

std::string describe_variants() {
  if (!gpu_backend_compiled())
    return "This build has no CUDA backend (no CUDA toolkit at configure time): no GPU "
           "variants.\n";
  return describe("A5 local statistics (--a5)", appearance::a5_variants()) +
         describe("Detection block statistics (--det-variant)",
                  detection::detection_stats_variants()) +
         describe("Appearance subband transform (--subband-transform; without it, fused runs "
                  "where it measured no slower: float, CTAs of at most 96 KiB)",
                  appearance::subband_transforms());
}

std::string resolve_a5_variant(const std::string& name) {
  return appearance::a5_variants().resolve(name);
}

std::string resolve_subband_transform_name(const std::string& name) {
  return appearance::subband_transforms().resolve(name);
}

std::string resolve_detection_variant(const std::string& name) {
  return detection::detection_stats_variants().resolve(name);
}

}  // namespace mad
