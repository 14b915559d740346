// BenchRow fields as one table (name -> member), so JSON, CSV and the reader cannot drift
// apart; derived fields; number formatting.
#include "tools/bench/model.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "common/error.h"

namespace mad::bench {
namespace {

using json = nlohmann::json;

struct TextField {
  const char* key;
  std::string BenchRow::*member;
};
struct IntField {
  const char* key;
  int BenchRow::*member;
};
struct RealField {
  const char* key;
  double BenchRow::*member;
};

const TextField kTextFields[] = {
    {"group", &BenchRow::group},         {"case", &BenchRow::case_name},
    {"variant", &BenchRow::variant},     {"backend", &BenchRow::backend},
    {"precision", &BenchRow::precision}, {"launch_shape", &BenchRow::launch_shape},
    {"grid", &BenchRow::grid},           {"note", &BenchRow::note},
    {"op_count", &BenchRow::op_count},   {"flop_precision", &BenchRow::flop_precision}};
const IntField kIntFields[] = {{"width", &BenchRow::width},
                               {"height", &BenchRow::height},
                               {"channels", &BenchRow::channels},
                               {"threads", &BenchRow::threads},
                               {"pixels_per_thread", &BenchRow::pixels_per_thread},
                               {"warmup", &BenchRow::warmup},
                               {"runs", &BenchRow::runs}};
const RealField kRealFields[] = {{"median_ms", &BenchRow::median_ms},
                                 {"min_ms", &BenchRow::min_ms},
                                 {"max_ms", &BenchRow::max_ms},
                                 {"spread_pct", &BenchRow::spread_pct},
                                 {"bytes_moved", &BenchRow::bytes_moved},
                                 {"flops", &BenchRow::flops},
                                 {"int_ops", &BenchRow::int_ops},
                                 {"bytes_in", &BenchRow::bytes_in},
                                 {"bytes_out", &BenchRow::bytes_out},
                                 {"h2d_pageable_ms", &BenchRow::h2d_pageable_ms},
                                 {"d2h_pageable_ms", &BenchRow::d2h_pageable_ms},
                                 {"h2d_pinned_ms", &BenchRow::h2d_pinned_ms},
                                 {"d2h_pinned_ms", &BenchRow::d2h_pinned_ms},
                                 {"total_pageable_ms", &BenchRow::total_pageable_ms},
                                 {"total_pinned_ms", &BenchRow::total_pinned_ms},
                                 {"cpu_1t_ms", &BenchRow::cpu_1t_ms},
                                 {"cpu_all_ms", &BenchRow::cpu_all_ms},
                                 {"speedup_vs_cpu_1t", &BenchRow::speedup_vs_cpu_1t},
                                 {"speedup_vs_cpu_all", &BenchRow::speedup_vs_cpu_all},
                                 {"gbps", &BenchRow::gbps},
                                 {"gflops", &BenchRow::gflops},
                                 {"gops", &BenchRow::gops},
                                 {"bw_share", &BenchRow::bw_share},
                                 {"flop_share", &BenchRow::flop_share},
                                 {"kernels", &BenchRow::kernels},
                                 {"block_threads", &BenchRow::block_threads},
                                 {"registers", &BenchRow::registers},
                                 {"static_smem_bytes", &BenchRow::static_smem_bytes},
                                 {"dynamic_smem_bytes", &BenchRow::dynamic_smem_bytes},
                                 {"occupancy_pct", &BenchRow::occupancy_pct},
                                 {"pairs_per_s", &BenchRow::pairs_per_s},
                                 {"device_bytes", &BenchRow::device_bytes},
                                 {"device_bytes_per_pair", &BenchRow::device_bytes_per_pair}};

json real_or_null(double v) {
  return present(v) ? json(v) : json(nullptr);
}
double real_from(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : kMissing;
}
std::string text_from(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}
int int_from(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<int>() : 0;
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

double ratio(double num, double den) {
  return present(num) && present(den) && den > 0 ? num / den : kMissing;
}

}  // namespace

void finalize_rows(BenchReport& report) {
  using Key = std::tuple<std::string, std::string, int, int, int>;
  std::map<Key, double> cpu_1t, cpu_all;
  for (const BenchRow& r : report.rows) {
    const Key k{r.group, r.case_name, r.width, r.height, r.channels};
    if (r.variant == "cpu-1t") cpu_1t[k] = r.median_ms;
    if (r.variant == "cpu-all") cpu_all[k] = r.median_ms;
  }
  const DeviceInfo& d = report.device;
  for (BenchRow& r : report.rows) {
    const Key k{r.group, r.case_name, r.width, r.height, r.channels};
    r.spread_pct = present(r.median_ms) && r.median_ms > 0 && present(r.max_ms) && present(r.min_ms)
                       ? 100.0 * (r.max_ms - r.min_ms) / r.median_ms
                       : kMissing;
    if (present(r.h2d_pageable_ms) && present(r.d2h_pageable_ms))
      r.total_pageable_ms = r.h2d_pageable_ms + r.median_ms + r.d2h_pageable_ms;
    if (present(r.h2d_pinned_ms) && present(r.d2h_pinned_ms))
      r.total_pinned_ms = r.h2d_pinned_ms + r.median_ms + r.d2h_pinned_ms;
    r.cpu_1t_ms = cpu_1t.count(k) ? cpu_1t[k] : kMissing;
    r.cpu_all_ms = cpu_all.count(k) ? cpu_all[k] : kMissing;
    r.speedup_vs_cpu_1t = ratio(r.cpu_1t_ms, r.median_ms);
    r.speedup_vs_cpu_all = ratio(r.cpu_all_ms, r.median_ms);
    const double seconds = present(r.median_ms) ? r.median_ms * 1e-3 : kMissing;
    r.gbps = present(r.bytes_moved) && r.bytes_moved > 0 ? ratio(r.bytes_moved * 1e-9, seconds)
                                                         : kMissing;
    r.gflops = present(r.flops) && r.flops > 0 ? ratio(r.flops * 1e-9, seconds) : kMissing;
    // A count no runner states as executed is a cost model.
    const bool counted = (present(r.flops) && r.flops > 0) || (present(r.int_ops) && r.int_ops > 0);
    if (r.op_count.empty() && counted) r.op_count = "nominal";
    r.gops = present(r.int_ops) && r.int_ops > 0 ? ratio(r.int_ops * 1e-9, seconds) : kMissing;
    // Shares are device figures: a CPU row's bytes per second say nothing about the GPU. A
    // nominal count is not what ran, so its share of the peak would mean nothing.
    const bool gpu_row = r.backend == "cuda";
    r.bw_share = gpu_row ? ratio(r.gbps, d.copy_bandwidth_gbps) : kMissing;
    const std::string& fp = r.flop_precision.empty() ? r.precision : r.flop_precision;
    const double peak = fp == "double"  ? d.peak_fp64_gflops
                        : fp == "float" ? d.peak_fp32_gflops
                                        : kMissing;
    r.flop_share = gpu_row && r.op_count == "exact" ? ratio(r.gflops, peak) : kMissing;
  }
}

std::vector<std::string> row_field_names() {
  std::vector<std::string> names;
  for (const auto& f : kTextFields) names.push_back(f.key);
  for (const auto& f : kIntFields) names.push_back(f.key);
  for (const auto& f : kRealFields) names.push_back(f.key);
  return names;
}

json to_json(const BenchReport& report) {
  const DeviceInfo& d = report.device;
  json dev = {{"gpu", d.gpu},
              {"name", d.name},
              {"description", d.description},
              {"driver", d.driver},
              {"runtime", d.runtime},
              {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
              {"sm_count", d.sm_count},
              {"sm_clock_mhz", real_or_null(d.sm_clock_mhz)},
              {"mem_clock_mhz", real_or_null(d.mem_clock_mhz)},
              {"bus_width_bits", d.bus_width_bits},
              {"memory_bytes", real_or_null(d.memory_bytes)},
              {"l2_bytes", real_or_null(d.l2_bytes)},
              {"peak_bandwidth_gbps", real_or_null(d.peak_bandwidth_gbps)},
              {"copy_bandwidth_gbps", real_or_null(d.copy_bandwidth_gbps)},
              {"fp32_lanes_per_sm", d.fp32_lanes},
              {"fp64_lanes_per_sm", d.fp64_lanes},
              {"peak_fp32_gflops", real_or_null(d.peak_fp32_gflops)},
              {"peak_fp64_gflops", real_or_null(d.peak_fp64_gflops)},
              {"cpu_name", d.cpu_name},
              {"cpu_threads", d.cpu_threads}};
  json rows = json::array();
  for (const BenchRow& r : report.rows) {
    json row = json::object();
    for (const auto& f : kTextFields) row[f.key] = r.*f.member;
    for (const auto& f : kIntFields) row[f.key] = r.*f.member;
    for (const auto& f : kRealFields) row[f.key] = real_or_null(r.*f.member);
    rows.push_back(std::move(row));
  }
  return {{"format", report.format},
          {"schema", report.schema},
          {"command", report.command},
          {"started", report.started},
          {"quick", report.quick},
          {"elapsed_s", report.elapsed_s},
          {"device", dev},
          {"notes", report.notes},
          {"rows", rows}};
}

BenchReport report_from_json(const json& j) {
  if (!j.is_object() || text_from(j, "format") != "mad-bench/1" || !j.contains("rows") ||
      !j["rows"].is_array())
    throw InputError("not a mad bench report (expected \"format\": \"mad-bench/1\" and \"rows\")");
  BenchReport report;
  report.schema = int_from(j, "schema");
  if (report.schema == 0) report.schema = 1;  // reports written before the key existed
  report.command = text_from(j, "command");
  report.started = text_from(j, "started");
  report.quick = j.value("quick", false);
  report.elapsed_s = real_from(j, "elapsed_s");
  if (j.contains("notes") && j["notes"].is_array())
    for (const auto& n : j["notes"])
      if (n.is_string()) report.notes.push_back(n.get<std::string>());
  const json dj = j.value("device", json::object());
  DeviceInfo& d = report.device;
  d.gpu = dj.value("gpu", false);
  d.name = text_from(dj, "name");
  d.description = text_from(dj, "description");
  d.driver = text_from(dj, "driver");
  d.runtime = text_from(dj, "runtime");
  std::sscanf(text_from(dj, "compute_capability").c_str(), "%d.%d", &d.cc_major, &d.cc_minor);
  d.sm_count = int_from(dj, "sm_count");
  d.sm_clock_mhz = real_from(dj, "sm_clock_mhz");
  d.mem_clock_mhz = real_from(dj, "mem_clock_mhz");
  d.bus_width_bits = int_from(dj, "bus_width_bits");
  d.memory_bytes = real_from(dj, "memory_bytes");
  d.l2_bytes = real_from(dj, "l2_bytes");
  d.peak_bandwidth_gbps = real_from(dj, "peak_bandwidth_gbps");
  d.copy_bandwidth_gbps = real_from(dj, "copy_bandwidth_gbps");
  d.fp32_lanes = int_from(dj, "fp32_lanes_per_sm");
  d.fp64_lanes = int_from(dj, "fp64_lanes_per_sm");
  d.peak_fp32_gflops = real_from(dj, "peak_fp32_gflops");
  d.peak_fp64_gflops = real_from(dj, "peak_fp64_gflops");
  d.cpu_name = text_from(dj, "cpu_name");
  d.cpu_threads = int_from(dj, "cpu_threads");
  for (const json& rj : j["rows"]) {
    BenchRow r;
    for (const auto& f : kTextFields) r.*f.member = text_from(rj, f.key);
    for (const auto& f : kIntFields) r.*f.member = int_from(rj, f.key);
    for (const auto& f : kRealFields) r.*f.member = real_from(rj, f.key);
    report.rows.push_back(std::move(r));
  }
  return report;
}

BenchReport load_report(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "'");
  try {
    return report_from_json(json::parse(in));
  } catch (const json::exception& e) {
    throw InputError("'" + path + "' is not valid JSON: " + e.what());
  }
}

std::string to_csv(const BenchReport& report) {
  std::ostringstream out;
  const auto names = row_field_names();
  for (std::size_t i = 0; i < names.size(); ++i) out << (i ? "," : "") << names[i];
  out << '\n';
  char buf[64];
  for (const BenchRow& r : report.rows) {
    bool first = true;
    auto sep = [&] {
      if (!first) out << ',';
      first = false;
    };
    for (const auto& f : kTextFields) {
      sep();
      out << csv_cell(r.*f.member);
    }
    for (const auto& f : kIntFields) {
      sep();
      out << r.*f.member;
    }
    for (const auto& f : kRealFields) {
      sep();
      if (present(r.*f.member)) {
        std::snprintf(buf, sizeof buf, "%.9g", r.*f.member);
        out << buf;
      }
    }
    out << '\n';
  }
  return out.str();
}

std::string format_number(double v) {
  if (!present(v)) return "-";
  char buf[32];
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e6 || a < 1e-3))
    std::snprintf(buf, sizeof buf, "%.2e", v);
  else if (a >= 100)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string format_size(int width, int height) {
  if (width == 0 && height == 0) return "-";  // rows without an image (combine)
  return std::to_string(width) + "x" + std::to_string(height);
}

}  // namespace mad::bench
