// The GPU kernel variants selectable from the CLI (`--a5`, `--det-variant`,
// `--subband-transform`, `mad score --list-variants`), gathered from the stage registries.
// CUDA-free. A user's name becomes a row (VariantPick, mad/options.h) once, where the options are
// read; below that the row travels, and results record its registered name.
#pragma once

#include <optional>
#include <string>

#include "appearance/subband_transform.h"
#include "common/variant_registry.h"
#include "mad/options.h"

namespace mad {

// Human-readable list of every registered GPU variant with its note, launch shape and the
// default marked.
std::string describe_variants();

// The registries a scoring option picks from.
enum class VariantFamily { A5, Detection, SubbandTransform };
const VariantNames& variant_registry(VariantFamily family);

// The row a user-given name selects ("" picks the default). Unknown names throw InvalidArgument
// listing the registered ones (in every build: the registries are CUDA-free).
VariantPick pick_variant(VariantFamily family, const std::string& name);
// The row `pick` selects in `registry` (its default row for VariantPick::kDefault): by index,
// never by name, so what travels below the front door is the row itself.
template <class Launch>
const VariantRow<Launch>& picked_row(const VariantRegistry<Launch>& registry, VariantPick pick) {
  return pick.is_default() ? registry.default_row()
                           : registry.rows().at(static_cast<std::size_t>(pick.row));
}
// The subband transform `pick` asks for; none for the default pick, which leaves the choice to
// the stage (the shape and precision decide, appearance/subband_transform.h). Inline, as
// picked_row is: a row's field, read where the backend is made.
inline std::optional<appearance::SubbandTransform> picked_subband_transform(VariantPick pick) {
  if (pick.is_default()) return std::nullopt;
  return picked_row(appearance::subband_transforms(), pick).launch;
}

// The registered name of `pick` (the default row's for VariantPick::kDefault), so that results
// files record what ran, not how it was spelled.
const std::string& variant_name(VariantFamily family, VariantPick pick);

}  // namespace mad
