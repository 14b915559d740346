#include "tools/cli_maps.h"

#include <filesystem>

#include "common/error.h"
#include "common/image_io.h"
#include "mad/results/result_json.h"

namespace mad::cli {
namespace fs = std::filesystem;

namespace {
constexpr const char* kMaps[] = {"map_hi", "map_lo"};

std::vector<std::string> extensions() {
  std::vector<std::string> e = {".png"};
  if (tiff_supported()) e.push_back(".tiff");
  return e;
}
}  // namespace

void refuse_existing_maps(const std::string& dir, bool force) {
  if (force) return;
  std::string found;
  int count = 0;
  std::error_code ec;
  for (const char* name : kMaps)
    for (const auto& ext : extensions()) {
      const fs::path p = fs::path(dir) / (std::string(name) + ext);
      if (fs::exists(p, ec)) found += (count++ ? ", " : "") + p.string();
    }
  if (count)
    throw InvalidArgument("--maps '" + dir + "' already holds " + found +
                          " (a previous pair's maps?): name another folder, or pass --force to "
                          "replace them");
}

nlohmann::json write_maps(const std::string& dir, const ScoreResult& r) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("cannot create maps folder '" + dir + "': " + ec.message());
  nlohmann::json j;
  const Image<double>* maps[] = {&r.map_hi, &r.map_lo};
  for (int i = 0; i < 2; ++i) {
    const std::string base = (fs::path(dir) / kMaps[i]).string();
    const double scale = save_png16_scaled(base + ".png", maps[i]->cview());
    j[kMaps[i]]["png"] = base + ".png";
    j[kMaps[i]]["png_scale"] = scale;  // value = png_pixel / png_scale
    if (tiff_supported()) {
      save_tiff_float(base + ".tiff", maps[i]->cview());
      j[kMaps[i]]["tiff"] = base + ".tiff";
    }
  }
  return j;
}

std::string maps_text(const nlohmann::json& maps) {
  std::string out;
  for (const char* name : kMaps) {
    const auto& m = maps.at(name);
    out += std::string(name) + "  " + m.at("png").get<std::string>() + "  png_scale " +
           results::format_double(m.at("png_scale").get<double>()) + " (value = pixel / png_scale)";
    if (m.contains("tiff")) out += "; " + m.at("tiff").get<std::string>();
    out += "\n";
  }
  return out;
}

}  // namespace mad::cli
