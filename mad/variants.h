// The GPU kernel variants selectable from the CLI (`--a5`, `--det-variant`,
// `mad score --list-variants`), gathered from the stage registries. CUDA-free.
#pragma once

#include <string>

namespace mad {

// Human-readable list of every registered GPU variant with its note, launch shape and the
// default marked.
std::string describe_variants();

}  // namespace mad
