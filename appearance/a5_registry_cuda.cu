// The A5 variant registry (STYLE.md rule 5): the names and notes of appearance/a5_variants.h
// joined with their launch functions, one table per precision.
#include <string>

#include "appearance/a5_variants.h"
#include "appearance/a5_variants_cuda.h"
#include "common/error.h"

namespace mad::appearance {
namespace {

template <class Real>
struct Launcher {
  const char* name;
  A5LaunchFn<Real> launch;
};

template <class Real>
std::vector<A5Variant<Real>> build_registry() {
  const Launcher<Real> launchers[] = {
      {"a5-original", &launch_a5_original<Real>},
      {"a5-shared", &launch_a5_shared<Real>},
      {"a5-direct", &launch_a5_direct<Real>},
      {"a5-fast", &launch_a5_fast<Real>},
  };
  static_assert(sizeof(launchers) / sizeof(launchers[0]) == kA5VariantCount,
                "every entry of kA5Variants needs exactly one launch function");
  std::vector<A5Variant<Real>> rows;
  for (const A5VariantInfo& info : kA5Variants) {
    A5LaunchFn<Real> fn = nullptr;
    for (const Launcher<Real>& l : launchers)
      if (std::string(l.name) == info.name) fn = l.launch;
    if (!fn) throw Error(std::string("A5 registry: no launch function for ") + info.name);
    rows.push_back({info.name, fn, info.note});
  }
  return rows;
}

}  // namespace

template <class Real>
const std::vector<A5Variant<Real>>& a5_variants() {
  static const std::vector<A5Variant<Real>> rows = build_registry<Real>();
  return rows;
}

template <class Real>
const A5Variant<Real>& find_a5_variant(const std::string& name) {
  const std::string wanted = name.empty() ? std::string(kA5DefaultVariant) : name;
  std::string known;
  for (const A5Variant<Real>& v : a5_variants<Real>()) {
    if (wanted == v.name) return v;
    known += known.empty() ? "" : ", ";
    known += v.name;
  }
  throw InvalidArgument("unknown A5 variant '" + wanted + "' (registered: " + known + ")");
}

template const std::vector<A5Variant<double>>& a5_variants<double>();
template const std::vector<A5Variant<float>>& a5_variants<float>();
template const A5Variant<double>& find_a5_variant<double>(const std::string&);
template const A5Variant<float>& find_a5_variant<float>(const std::string&);

}  // namespace mad::appearance
