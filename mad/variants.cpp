#include "mad/variants.h"

#include "appearance/a5_variants.h"
#include "appearance/subband_transform.h"
#include "common/error.h"
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

const VariantNames& variant_registry(VariantFamily family) {
  switch (family) {
    case VariantFamily::A5: return appearance::a5_variants();
    case VariantFamily::Detection: return detection::detection_stats_variants();
    case VariantFamily::SubbandTransform: return appearance::subband_transforms();
  }
  throw Error("variant_registry: unknown family");
}

VariantPick pick_variant(VariantFamily family, const std::string& name) {
  if (name.empty()) return {};
  return {static_cast<int>(variant_registry(family).index_of(name))};
}

const std::string& variant_name(VariantFamily family, VariantPick pick) {
  const VariantNames& registry = variant_registry(family);
  if (pick.is_default()) return registry.default_name();
  return registry.infos().at(static_cast<std::size_t>(pick.row)).name;
}

}  // namespace mad
