// What `mad bench` measures and how (issue 5): the configuration, the context every group
// writes to, and one runner per group of kernels. CUDA-free: GPU columns are filled through
// the timing entries of tools/bench (kernel_bench.h, detection_bench.h, a5_bench.h,
// pipeline_bench.h, group_spectral_cuda.cu), all of which time the device in CUDA builds only.
//
// Timing method. GPU: the one timer of gpu_timer_cuda.h (CUDA events around each timed run,
// warm-up runs first, `gpu_runs` timed runs; the kernel entries rotate input copies through
// more memory than the L2 holds, the spectral stages flush the L2). CPU: cpu_timer.h's
// time_cpu_budget on one thread and on all threads (mad::set_thread_count), after one warm-up
// call before the one-thread runs (which warm the all-threads runs in turn). Transfers:
// cudaMemcpy of the row's input (host to device) and output (device to host) from pageable and
// from pinned memory, timed with the GPU timer. Every timing is a Measurement (measurement.h:
// median = mean of the two middle values for an even count).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/image.h"
#include "common/variant_registry.h"  // MAD_CUDA_LAUNCH, for sweep_sizes' gpu_rows
#include "tools/bench/measurement.h"
#include "tools/bench/model.h"

namespace mad::bench {

// The groups whose GPU rows run in a chosen precision (--precision); the others have one
// element type of their own (u8 kernels, the convolution's u8 and float, combine's double).
inline const std::vector<std::string>& precision_groups() {
  static const std::vector<std::string> groups = {"detection", "a5",         "csf",     "fft",
                                                  "log_gabor", "appearance", "pipeline"};
  return groups;
}

// Every group, in the order they run and are reported (the names of run.cpp's table).
const std::vector<std::string>& bench_groups();

struct Size {
  int width = 0, height = 0;
};

struct BenchConfig {
  std::vector<std::string> groups;  // selected groups (bench_groups() order)
  std::vector<Size> sizes;          // --sizes: replaces every group's default sizes
  std::vector<std::string> precisions = {"double", "float"};  // of the MAD stages
  int gpu_warmup = 3;
  int gpu_runs = 21;          // timed GPU runs per measurement (--repeat)
  int cpu_max_runs = 10;      // CPU: at most this many timed calls ...
  double cpu_budget_s = 0.5;  // ... or until this much time was spent (at least one call)
  int cpu_runs = 0;           // --repeat: exactly this many timed CPU calls (0: the budget)
  int transfer_runs = 5;
  bool quick = false;
  bool gpu = false;                   // CUDA compiled in and a device present
  std::vector<int> nick_windows;      // --windows: replaces the Nick sweep (empty: default)
  bool nick_cpu_window_loop = false;  // --nick-cpu window-loop: time the seed's O(w^2) loop

  bool wants(const std::string& group) const;
  bool wants_precision(const std::string& precision) const;
  // The sizes a group runs at: --sizes when given, else the group's defaults (small ones with
  // --quick).
  std::vector<Size> sizes_for(const std::string& group) const;
  // Nick windows timed at a size: --windows when given, else the sweep 3..101 up to 1920x1080
  // pixels and w = 15 above (method 1 grows as w^2, which at 8192x8192 would take minutes);
  // windows larger than the image are left out.
  std::vector<int> nick_windows_for(Size size) const;
};

// Defaults of a full run (about 4 minutes on an H100) or of --quick (seconds, CPU-only CI).
BenchConfig default_config(bool quick);

// Parses "512x384,1080x800" (InvalidArgument naming the bad item).
std::vector<Size> parse_sizes(const std::string& list);
// Parses "2,10,100": plain decimals (no sign, no leading zero) in Nick's [2, 101], each once,
// in the given order (InvalidArgument naming the bad item).
std::vector<int> parse_windows(const std::string& list);
// Parses a comma list against `allowed` ("all" selects every one); InvalidArgument otherwise.
std::vector<std::string> parse_list(const std::string& list,
                                    const std::vector<std::string>& allowed, const char* what);

// Copies warm-up, runs, median, min and max of `m` into `row`, and its kernel resources by the
// rule of summarize_resources (measurement.h).
void apply_measurement(BenchRow& row, const Measurement& m);
// `proto` as the GPU row of `variant`: backend "cuda", the variant, `note`, and `m` applied.
BenchRow cuda_row(BenchRow proto, const std::string& variant, std::string note,
                  const Measurement& m);
// The note of `variant` in `registry` as a row shows it: "(default) " first for the default.
std::string variant_note(const VariantNames& registry, const std::string& variant);

// Measures host<->device copies of a row's bytes_in / bytes_out (cached per byte count).
// Without a device it measures nothing.
class TransferTimer {
 public:
  explicit TransferTimer(int runs);
  ~TransferTimer();
  TransferTimer(const TransferTimer&) = delete;
  TransferTimer& operator=(const TransferTimer&) = delete;
  void fill(BenchRow& row);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Device facts, and with `measure` the copy bandwidth (1 GiB D2D, or 64 MiB with quick).
DeviceInfo probe_device(bool measure, bool quick);

// What every runner writes to.
struct BenchContext {
  BenchConfig config;
  std::unique_ptr<TransferTimer> transfers;
  std::vector<BenchRow> rows;
  std::vector<std::string> notes;
  std::function<void(const std::string&)> progress;  // one line per measurement batch

  // Appends `row`; GPU rows with bytes_in get their transfer times.
  void add(BenchRow row);
  void say(const std::string& line) const {
    if (progress) progress(line);
  }
  // Runs `fn`; an exception (a variant that fails, a device out of memory) becomes a note and
  // the run goes on with the next measurement.
  void guarded(const std::string& what, const std::function<void()>& fn);
  // With a device, fn(precision) for every selected precision, each guarded (named
  // "<what> <precision> <WxH>").
  void for_gpu_precisions(const std::string& what, Size size,
                          const std::function<void(const std::string&)>& fn);
  // A stage group's sweep: for every size of `group` ("<group> <WxH>" on the progress line),
  // gpu_rows(size, precision) through for_gpu_precisions, then, guarded as "<group> cpu <WxH>",
  // cpu_rows(size, ref, dst) on the images of make_bench_pair(size, pair_seed). `gpu_rows` is
  // empty in a build without CUDA (MAD_CUDA_LAUNCH).
  using CpuPairRows =
      std::function<void(Size, ImageView<const double> ref, ImageView<const double> dst)>;
  void sweep_sizes(const std::string& group, std::uint32_t pair_seed,
                   const std::function<void(Size, const std::string&)>& gpu_rows,
                   const CpuPairRows& cpu_rows);
  // Two rows, "cpu-1t" and "cpu-all", timing `fn` on one thread and on all threads.
  void add_cpu_rows(const BenchRow& proto, const std::function<void()>& fn);
};

// A row of `group` / `case_name` at `size` and `precision`; the runner fills the rest.
BenchRow make_row(const std::string& group, const std::string& case_name, Size size,
                  const std::string& precision, int channels = 1);

// Fills row.launch_shape, pixels_per_thread and grid from a registered variant's name and
// note ("pixel_2d_32x8" -> "2-D 32x8 blocks", "grid_stride_p4" -> 4 px/thread, ...).
void describe_launch_shape(BenchRow& row);

// The runners, one per group (or family of groups).
void run_gray_group(BenchContext& ctx, bool darken);
void run_histogram_group(BenchContext& ctx);
void run_smooth_group(BenchContext& ctx);
void run_nick_group(BenchContext& ctx);
void run_convolve_group(BenchContext& ctx);  // group_convolve.cpp
void run_detection_group(BenchContext& ctx);
void run_a5_group(BenchContext& ctx);
void run_spectral_group(BenchContext& ctx, const std::string& group);  // csf, fft, log_gabor
void run_appearance_group(BenchContext& ctx);
void run_combine_group(BenchContext& ctx);
void run_pipeline_group(BenchContext& ctx);

// GPU halves of the spectral and appearance groups (group_spectral_cuda.cu; CUDA builds).
void gpu_spectral_rows(BenchContext& ctx, const std::string& group, Size size,
                       const std::string& precision);
void gpu_appearance_rows(BenchContext& ctx, Size size, const std::string& precision);

// Runs every selected group and returns the finished report (rows finalized).
BenchReport run_bench(const BenchConfig& config,
                      const std::function<void(const std::string&)>& progress);

}  // namespace mad::bench
