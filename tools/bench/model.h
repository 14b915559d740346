// The data of `mad bench` (issue 5): one BenchRow per measurement, the device it ran on, and
// the report that collects both. Every output (terminal table, CSV, JSON, HTML, Markdown, the
// goal summary) is produced from a BenchReport, and a report written as JSON reads back into
// the same BenchReport, so `--summary-from bench.json` sees exactly what the run measured.
//
// Missing values (a GPU column of a CPU row, a FLOP rate of an integer kernel, ...) are NaN in
// memory, null in JSON, empty in CSV and "-" in the tables.
//
// Operation counts (schema 2): `flops` counts floating-point operations only and `int_ops`
// integer operations (reported as GOP/s, never set against a FLOP peak); `op_count` says whether
// the counts are the operations the code executes ("exact") or a cost model ("nominal": spec
// §11's count, 5 N log2 N per FFT, ...; finalize_rows marks any count not stated "exact" as
// nominal). `%peak` (flop_share) is given for exact counts only.
// Schema 1 reports (no "schema" key) counted 8-bit kernels' integer operations as flops.
//
// Kernel resources (schema 3): GPU rows timed by the GPU timer carry the registers, static and
// dynamic shared memory, block size and theoretical occupancy of one of the kernels that ran
// (measurement.h: summarize_resources says which) and how many distinct kernels ran; null for
// CPU rows, host-timed rows (pipeline) and rows whose only kernels are cuFFT's or CUB's.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tools/bench/measurement.h"

namespace mad::bench {

inline constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
inline bool present(double v) {
  return std::isfinite(v);
}

// One timed thing: a GPU variant or a CPU reference of one kernel, on one case, shape and
// precision.
// The resources of the row's kernel come from its base, ResourceSummary (measurement.h; GPU
// timer rows, missing elsewhere): how many distinct kernel launch configurations one run made,
// and the shown one's threads per block, registers per thread, shared memory per block and
// theoretical occupancy (%).
struct BenchRow : ResourceSummary {
  std::string group;      // "gray", "histogram", "a5", "pipeline", ... (bench_groups())
  std::string case_name;  // what was timed within the group: "random", "w=15", "error", ...
  std::string variant;    // registered variant name; "cpu-1t" / "cpu-all" for the CPU
  std::string backend;    // "cuda" or "cpu"
  std::string precision;  // "u8" (8-bit kernels), "double" or "float"
  int width = 0, height = 0;
  int channels = 1;
  int threads = 0;            // CPU rows: worker threads; GPU rows: 0
  std::string launch_shape;   // "1-D blocks", "2-D 32x8 blocks", "grid-stride", ... ("" unknown)
  int pixels_per_thread = 0;  // from the variant's launch shape (0 = not stated)
  std::string grid;           // "dynamic" (sized to the image), "fixed" or ""
  std::string note;           // the variant's note or the counting rule's caveat
  int warmup = 0, runs = 0;
  double median_ms = kMissing, min_ms = kMissing, max_ms = kMissing;
  double spread_pct = kMissing;  // 100 (max - min) / median
  // Work per run, counted by the rule documented where the row is made.
  double bytes_moved = kMissing;  // compulsory device-memory traffic (read + written)
  double flops = kMissing;        // floating-point operations (0 / missing: none)
  double int_ops = kMissing;      // integer operations (0 / missing: none)
  std::string op_count;           // "exact" (executed), "nominal" (a cost model) or "" (unstated)
  std::string flop_precision;     // precision of `flops` when not `precision` ("double" for an
                                  // 8-bit kernel whose decision is in double); "" = precision
  // Host <-> device transfers for one run's input and output (GPU rows).
  double bytes_in = kMissing, bytes_out = kMissing;
  double h2d_pageable_ms = kMissing, d2h_pageable_ms = kMissing;
  double h2d_pinned_ms = kMissing, d2h_pinned_ms = kMissing;
  double total_pageable_ms = kMissing, total_pinned_ms = kMissing;  // h2d + kernel + d2h
  // The CPU reference of the same group/case/shape, and this row's speedup over it.
  double cpu_1t_ms = kMissing, cpu_all_ms = kMissing;
  double speedup_vs_cpu_1t = kMissing, speedup_vs_cpu_all = kMissing;
  // Rates and their share of the device's measured copy bandwidth / estimated peak FLOP rate.
  double gbps = kMissing, gflops = kMissing;
  double gops = kMissing;                             // int_ops per second / 1e9
  double bw_share = kMissing, flop_share = kMissing;  // fractions (0.7 = 70 %); flop_share only
                                                      // for op_count "exact"
  // Whole-pipeline rows.
  double pairs_per_s = kMissing, device_bytes = kMissing, device_bytes_per_pair = kMissing;
};

struct DeviceInfo {
  bool gpu = false;             // a CUDA device was used
  std::string name;             // "NVIDIA H100 80GB HBM3"
  std::string description;      // mad::gpu_device_description()
  std::string driver, runtime;  // CUDA driver / runtime versions, "13.0"
  int cc_major = 0, cc_minor = 0, sm_count = 0;
  double sm_clock_mhz = kMissing, mem_clock_mhz = kMissing;
  int bus_width_bits = 0;
  double memory_bytes = kMissing, l2_bytes = kMissing;
  double peak_bandwidth_gbps = kMissing;  // 2 x memory clock x bus width (theoretical)
  double copy_bandwidth_gbps = kMissing;  // measured: cudaMemcpy D2D, (read + written) / time
  int fp32_lanes = 0, fp64_lanes = 0;     // per SM, from the compute capability
  double peak_fp32_gflops = kMissing;     // estimate: SMs x clock x lanes x 2 (FMA)
  double peak_fp64_gflops = kMissing;
  std::string cpu_name;
  int cpu_threads = 0;
};

struct BenchReport {
  std::string format = "mad-bench/1";
  int schema = 3;  // 2: flops are floating-point only, int_ops/gops/op_count/flop_precision added;
                   // 3: kernel resources (kernels, block_threads, registers, *_smem_bytes,
                   // occupancy_pct)
  std::string command;  // the command line that produced it
  std::string started;  // UTC, ISO 8601
  bool quick = false;
  double elapsed_s = 0;
  DeviceInfo device;
  std::vector<std::string> notes;
  std::vector<BenchRow> rows;
};

// Fills every derived field of every row: spread, transfer totals, the CPU references of the
// row's (group, case, width, height, channels) and the speedups over them, GB/s and GFLOP/s
// and their shares of device.copy_bandwidth_gbps and of the peak FLOP rate of the FLOPs'
// precision (flop_precision, else precision: FP64 for "double", FP32 for "float"), the latter
// for op_count "exact" only; GOP/s from int_ops (no peak: integer work is not set against the
// FLOP rate).
void finalize_rows(BenchReport& report);

nlohmann::json to_json(const BenchReport& report);
// Throws InputError when `j` is not a mad-bench report.
BenchReport report_from_json(const nlohmann::json& j);
BenchReport load_report(const std::string& path);

// CSV with a header line naming every BenchRow field (derived ones included), one line per row.
std::string to_csv(const BenchReport& report);
// The CSV / JSON column names, in order.
std::vector<std::string> row_field_names();

// Human-readable numbers: "-" for missing, 3 significant digits otherwise.
std::string format_number(double v);
std::string format_size(int width, int height);

}  // namespace mad::bench
