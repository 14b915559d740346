// Text output of `mad kernel`: histogram counts as text, CSV or JSON, and the variant listing.
#pragma once

#include <string>

#include "kernels/histogram.h"

namespace mad::kernels {

enum class HistogramFormat { Text, Csv, Json };

// By file extension (case-insensitive): .csv -> Csv, .json -> Json, .txt or no extension ->
// Text. Any other extension (an image's, say) throws InvalidArgument naming these.
HistogramFormat histogram_format_for_path(const std::string& path);

// Text: one "value count" line per bin. CSV: header "value,count" then 256 rows. JSON:
// {"bins": 256, "counts": [c0, ..., c255]}. All 256 bins are always written.
std::string format_histogram(const Histogram& histogram, HistogramFormat format);

// Every kernel with its registered CUDA variants (the default marked), as `mad kernel
// --list-variants` prints it. Says so when the build has no CUDA backend.
std::string format_variant_listing();

}  // namespace mad::kernels
