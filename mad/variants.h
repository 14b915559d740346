// The GPU kernel variants selectable from the CLI (`--a5`, `--det-variant`,
// `mad score --list-variants`), gathered from the stage registries. CUDA-free.
#pragma once

#include <string>

namespace mad {

// Human-readable list of every registered GPU variant with its note, launch shape and the
// default marked.
std::string describe_variants();

// The registered name a user-given `--a5` / `--det-variant` value selects ("" is the default),
// so that results files record what ran, not how it was spelled. Unknown names throw
// InvalidArgument listing the registered ones (in every build: the registries are CUDA-free).
std::string resolve_a5_variant(const std::string& name);
// The --subband-transform row `name` selects (InvalidArgument for an unknown one).
std::string resolve_subband_transform_name(const std::string& name);
std::string resolve_detection_variant(const std::string& name);

}  // namespace mad
