// A video run's options from the option table's rows (mad/scoring_options.h): the Video rows'
// values and settings keys, and the raw clips' format from the Input rows.
#include <string>

#include "common/error.h"
#include "mad/video/video_scorer.h"

namespace mad {
namespace {

// The value given for `cli`, or nullptr.
const std::string* value_of(const GivenOptions& given, const std::string& cli) {
  for (const auto& [row, value] : given)
    if (cli == row->cli) return &value;
  return nullptr;
}

// A whole number the CLI has checked against the row's range; Python and other front doors
// pass text that may not be: checked here against the same range.
long long whole_number(const std::string& cli, const std::string& text) {
  const ScoringOption& row = scoring_option(cli);
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used, 10);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v < row.min || v > row.max)
    throw InvalidArgument(cli + " '" + text + "' is not a whole number in [" +
                          std::to_string(row.min) + ", " + std::to_string(row.max) +
                          "]: " + row.range_hint);
  return v;
}

}  // namespace

VideoOptions video_options(const GivenOptions& given) {
  VideoOptions o;
  o.score = apply_scoring_options(given);
  if (const std::string* v = value_of(given, "--stmad")) {
    if (*v != "true" && *v != "false")
      throw InvalidArgument("--stmad is a flag (true or false), not '" + *v + "'");
    o.stmad = *v == "true";
  }
  if (const std::string* v = value_of(given, "--subsample"))
    o.subsample = static_cast<int>(whole_number("--subsample", *v));
  if (const std::string* v = value_of(given, "--first-frame"))
    o.first_frame = whole_number("--first-frame", *v);
  if (const std::string* v = value_of(given, "--frame-count"))
    o.frame_count = whole_number("--frame-count", *v);
  return o;
}

std::vector<std::pair<std::string, std::string>> video_settings(const VideoOptions& options,
                                                                Backend backend) {
  std::vector<std::pair<std::string, std::string>> out = recorded_settings(options.score, backend);
  // The input class as it runs: Auto is Double for video frames (VideoScorer).
  for (auto& [key, value] : out)
    if (key == "input_class" && options.score.input_class == InputClass::Auto)
      value = to_string(InputClass::Double);
  for (const ScoringOption& row : scoring_options()) {
    if (row.target != OptionTarget::Video) continue;
    const std::string key = row.settings_key;
    std::string value;
    if (key == "stmad")
      value = options.stmad ? "true" : "false";
    else if (key == "subsample")
      value = std::to_string(options.subsample);
    else if (key == "first_frame")
      value = std::to_string(options.first_frame);
    else if (key == "frame_count")
      value = options.frame_count < 0 ? "all" : std::to_string(options.frame_count);
    else
      throw InternalError("mad/video has no value for the settings key " + key);
    out.emplace_back(key, value);
  }
  return out;
}

std::optional<ClipFormat> raw_format_option(const GivenOptions& given) {
  const std::string* width = value_of(given, "--width");
  const std::string* height = value_of(given, "--height");
  const std::string* pixel_format = value_of(given, "--pixel-format");
  if (!width && !height && !pixel_format) return std::nullopt;
  std::string missing;
  for (const auto& [v, name] : {std::pair{width, "--width"}, std::pair{height, "--height"},
                                std::pair{pixel_format, "--pixel-format"}})
    if (!v) missing += (missing.empty() ? "" : " and ") + std::string(name);
  if (!missing.empty())
    throw InvalidArgument("a raw clip needs --width, --height and --pixel-format: " + missing +
                          " missing");
  return raw_clip_format(*pixel_format, static_cast<int>(whole_number("--width", *width)),
                         static_cast<int>(whole_number("--height", *height)));
}

}  // namespace mad
