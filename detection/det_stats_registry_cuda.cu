// The registry of detection block-statistics variants (STYLE rule 5). A new variant is tested
// and benchmarked by adding its row here.
#include <string>
#include <vector>

#include "common/error.h"
#include "detection/det_stats_cuda.h"
#include "detection/detection_gpu.h"

namespace mad::detection::gpu {
namespace {

constexpr const char* kDefaultVariant = "det-fast";

template <class Real>
std::vector<DetStatsVariant<Real>> make_registry() {
  return {
      {"det-original", &det_original_reference<Real>, &det_original_error<Real>,
       "one thread per block, samples gathered from global memory, two-pass (the CPU's "
       "arithmetic)"},
      {"det-shared", &det_shared_reference<Real>, &det_shared_error<Real>,
       "16x8 blocks per CUDA block, pixels staged once in shared memory, then two-pass per "
       "block"},
      {"det-fast", &det_fast_reference<Real, 16, 8>, &det_fast_error<Real, 16, 8>,
       "16x8 blocks per CUDA block; each pixel read once into 4x4 tile moments in shared "
       "memory, blocks and 8x8 windows combined from tiles (pairwise-update formula)"},
      {"det-fast-8x8", &det_fast_reference<Real, 8, 8>, &det_fast_error<Real, 8, 8>,
       "det-fast with 8x8 blocks per CUDA block: more halo work, twice the CUDA blocks (for "
       "small images on many SMs)"},
  };
}

}  // namespace

template <class Real>
const std::vector<DetStatsVariant<Real>>& det_stats_variants() {
  static const std::vector<DetStatsVariant<Real>> registry = make_registry<Real>();
  return registry;
}

template <class Real>
const DetStatsVariant<Real>& find_det_stats_variant(const std::string& name) {
  const std::string wanted = name.empty() ? kDefaultVariant : name;
  for (const auto& v : det_stats_variants<Real>())
    if (wanted == v.name) return v;
  std::string known;
  for (const auto& v : det_stats_variants<Real>())
    known += std::string(known.empty() ? "" : ", ") + v.name;
  throw InvalidArgument("unknown detection statistics variant '" + name + "' (known: " + known +
                        ")");
}

template const std::vector<DetStatsVariant<double>>& det_stats_variants<double>();
template const std::vector<DetStatsVariant<float>>& det_stats_variants<float>();
template const DetStatsVariant<double>& find_det_stats_variant<double>(const std::string&);
template const DetStatsVariant<float>& find_det_stats_variant<float>(const std::string&);

}  // namespace mad::detection::gpu

namespace mad::detection {

std::vector<DetStatsVariantInfo> detection_stats_variants() {
  std::vector<DetStatsVariantInfo> out;
  for (const auto& v : gpu::det_stats_variants<double>())
    out.push_back({v.name, v.note, std::string(v.name) == gpu::kDefaultVariant});
  return out;
}

std::string default_detection_stats_variant() {
  return gpu::kDefaultVariant;
}

}  // namespace mad::detection
