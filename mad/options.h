// User-facing choices of a MAD computation (spec §14) and their text forms for the CLI/JSON.
#pragma once

#include <cstddef>
#include <string>

#include "common/compute_target.h"

namespace mad {

// Which release's detection scale to reproduce: V2011 multiplies d_detect by 200 (spec §0),
// V2010 (April 2010) by 1, Stmad2011 by 10: the copy of the detection stage inside ST-MAD's 2011
// release (shared/stmad-spec.md §3.1), so per-frame rows can be printed in ST-MAD's scale.
enum class MadVersion { V2011, V2010, Stmad2011 };
// How the luminance step treats 8-bit input (spec §2): Uint8 maps 255 like 254.
enum class InputClass { Auto, Uint8, Double };
// Backend and Precision, with their names and parsers: common/compute_target.h.

// A GPU kernel variant: the index of a row of its registry (common/variant_registry.h), picked
// once where the options are read (mad/scoring_options.h, mad/variants.h) so that nothing below
// the front doors resolves a name again. kDefault: the registry's default row; for the subband
// transform, the stage's own choice for the shape and precision.
struct VariantPick {
  static constexpr int kDefault = -1;
  int row = kDefault;
  bool is_default() const { return row < 0; }
  bool operator==(const VariantPick& other) const { return row == other.row; }
};

struct ScoreOptions {
  MadVersion version = MadVersion::V2011;
  InputClass input_class = InputClass::Auto;  // Auto: Uint8 for 8-bit files, Double otherwise
  Backend backend = Backend::Auto;            // Auto: CUDA when built and a device exists
  Precision precision = Precision::Double;    // GPU only; the CPU path is always double
  VariantPick a5_variant;   // GPU A5 variant (appearance/a5_variants.h)
  VariantPick det_variant;  // GPU detection-statistics variant (detection/detection.h)
  // GPU appearance subband transform (appearance/subband_transform.h): the default pick runs
  // fused where the shape allows it and measured no slower, else cufft; "fused" refuses shapes
  // it cannot run.
  VariantPick subband_transform;
  bool want_maps = false;                     // return map.HI and map.LO
  // --gpu-memory-limit: device bytes this process may take on one GPU for the pair slots of
  // every shape and every worker together (0: the device's free memory, less a reserve).
  std::size_t gpu_memory_limit = 0;
  // Scorers sharing each GPU (the engine's workers per GPU): each takes an equal share of it.
  int gpu_memory_shares = 1;
};

std::string to_string(MadVersion v);
std::string to_string(InputClass c);
// Parsers throw InvalidArgument listing the accepted values.
MadVersion parse_mad_version(const std::string& s);
InputClass parse_input_class(const std::string& s);

// Factor applied to d_detect inside the combination: 200 for 2011, 1 for April 2010, 10 for
// ST-MAD's per-frame HI (mad/video/stmad.h multiplies by it too).
double detect_scale(MadVersion v);

}  // namespace mad
