#include "mad/results/result_json.h"

#include <cstdio>

namespace mad::results {

std::string format_double(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

nlohmann::json result_to_json(const ScoreResult& r) {
  nlohmann::json j;
  j["mad"] = r.mad;
  j["hi"] = r.hi;
  j["lo"] = r.lo;
  j["sig"] = r.sig;
  j["d_detect_unscaled"] = r.d_detect;
  j["width"] = r.width;
  j["height"] = r.height;
  // A number, as the option takes it; ST-MAD's scale has a name, not a year.
  if (r.version == MadVersion::Stmad2011)
    j["mad_version"] = to_string(r.version);
  else
    j["mad_version"] = std::stoi(to_string(r.version));
  j["input_class"] = to_string(r.input_class);
  j["backend"] = to_string(r.backend);
  j["precision"] = to_string(r.precision);
  if (r.backend == Backend::Cuda) j["a5_variant"] = r.a5_variant;
  j["seconds"] = r.seconds;
  return j;
}

nlohmann::json result_object(const std::string& ref, const std::string& dist, const ScoreResult* r,
                             const std::string& error, const std::string& backend_reason) {
  nlohmann::json j;
  if (r) j = result_to_json(*r);
  j["backend_reason"] = backend_reason;
  j["ref"] = ref;
  j["dist"] = dist;
  if (!r) j["error"] = error;
  return j;
}

const std::vector<std::string>& result_csv_header() {
  static const std::vector<std::string> h = {
      "ref",    "dist",    "mad",         "hi",      "lo",    "sig",           "width",
      "height", "backend", "mad_version", "seconds", "error", "backend_reason"};
  return h;
}

std::vector<std::string> result_csv_row(const std::string& ref, const std::string& dist,
                                        const ScoreResult* r, const std::string& error,
                                        const std::string& backend_reason) {
  if (!r) return {ref, dist, "", "", "", "", "", "", "", "", "", error, backend_reason};
  return {ref,
          dist,
          format_double(r->mad),
          format_double(r->hi),
          format_double(r->lo),
          format_double(r->sig),
          std::to_string(r->width),
          std::to_string(r->height),
          to_string(r->backend),
          to_string(r->version),
          format_double(r->seconds),
          error,
          backend_reason};
}

}  // namespace mad::results
