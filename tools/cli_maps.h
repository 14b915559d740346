// `mad score --maps DIR`: the distortion maps of one pair as files, never over a previous
// pair's maps unless --force, and where they went (with png_scale) for every output form.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "mad/score.h"

namespace mad::cli {

// Refuses (InvalidArgument, exit 2) before any scoring when DIR already holds a map file this
// run would write, unless `force`; names the files.
void refuse_existing_maps(const std::string& dir, bool force);

// Writes map_hi and map_lo into DIR (created): 16-bit PNG scaled to the map's maximum, and
// 32-bit float TIFF when built with libtiff. Returns {map_hi: {png, png_scale[, tiff]}, ...}.
nlohmann::json write_maps(const std::string& dir, const ScoreResult& r);

// The plain output's lines for the maps: "map_hi  DIR/map_hi.png  png_scale S  (value = ...)".
std::string maps_text(const nlohmann::json& maps);

}  // namespace mad::cli
