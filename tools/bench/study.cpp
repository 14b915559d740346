// The study table and the helpers every study uses (tools/bench/study.h).
#include "tools/bench/study.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>

#include "common/error.h"
#include "common/parallel.h"
#include "tools/bench/cpu_timer.h"
#include "tools/bench/kernel_bench.h"
#include "tools/bench/model.h"

namespace mad::bench {

// The run functions, one per study (studies_*.cpp).
void run_seed000_gray_grids(StudyRun& run);
void run_seed000_pixels_per_thread(StudyRun& run);
void run_seed000_histogram(StudyRun& run);
void run_seed000_smoothing(StudyRun& run);
void run_seed001_histogram_images(StudyRun& run);
void run_seed001_convolution_blocks(StudyRun& run);
void run_seed001_filter_size(StudyRun& run);
void run_seed001_constant_vs_global(StudyRun& run);
void run_seed001_transfer_split(StudyRun& run);
void run_seed002_nick_windows(StudyRun& run);
void run_seed002_nick_blocks(StudyRun& run);
void run_seed004_a5_table9(StudyRun& run);
void run_seed003_chain(StudyRun& run);
void run_seed003_padding(StudyRun& run);
void run_seed003_bank_conflicts(StudyRun& run);

namespace {

constexpr const char* kSeed000 = "000_0f55ec79edcf9af8.txt";
constexpr const char* kSeed001 = "001_719c7548ba02a046.txt";
constexpr const char* kSeed002 = "002_d7f82ce826064d19.txt";
constexpr const char* kSeed004 = "004_7194915161a0b2b2.txt";
constexpr const char* kSeed003 = "003_02cd647b8eaafb16.txt";
constexpr const char* kGtx480 = "NVIDIA GTX480 (Fermi, CC 2.0, 15 SMs, 177.4 GB/s)";
constexpr const char* kGtx480Das4 = "NVIDIA GTX480 (Fermi) on a DAS4 node, 16-thread host";
constexpr const char* kRtx3070 = "NVIDIA RTX 3070 Laptop GPU at 100 W (CC 8.6, 40 SMs), i7 host";
constexpr const char* kGtx750Ti = "NVIDIA GeForce GTX 750 Ti (Maxwell), Intel Core i7 2600K host";

double to_ms(double value, const std::string& unit) {
  if (unit == "s") return value * 1e3;
  if (unit == "ms") return value;
  if (unit == "us") return value * 1e-3;
  return kNoValue;
}

std::string times(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fx", r);
  return buf;
}

// A seed's time as it prints it: "0.000076", not 7.6e-05 (format_seed_figure without a unit).
std::string seed_number(double v) {
  std::string text = format_seed_figure(SeedFigure{v, "", "", ""});
  if (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

// "A is 1.32x faster than B" / "A is 1.10x slower than B".
std::string relation(const std::string& a, double ta, const std::string& b, double tb) {
  if (ta <= tb) return a + " is " + times(tb / ta) + " faster than " + b;
  return a + " is " + times(ta / tb) + " slower than " + b;
}

}  // namespace

const std::vector<Study>& study_table() {
  static const std::vector<Study> table = {
      {"seed000-gray-grids", kSeed000, "§4, §6.2 Darkening, Figure 7, Table 2",
       "darken: grid configurations M1-M4 (1-D vs 2-D blocks, idle threads per row or at the end)",
       "RGB -> gray x 0.6 ('darken') on planar 8-bit RGB, one pixel per thread, on the seed's four "
       "grid configurations: M1, 256x1 blocks in a ceil(W/256) x H grid (idle threads at each "
       "row's end); M2, the same blocks over consecutive pixels; M3, 32-wide 8-tall blocks in a "
       "ceil(W/32) x ceil(H/8) grid (idle threads at the right and bottom); M4, M3's grid over "
       "consecutive pixels. Figure 7: M1 and M2 (1-D blocks) are fastest.",
       kGtx480, run_seed000_gray_grids},
      {"seed000-pixels-per-thread", kSeed000, "§6.2-6.3 Darkening, Tables 2-3",
       "darken: one pixel per thread (M2) vs grid-stride P pixels per thread, 7 image sizes",
       "RGB -> gray x 0.6 ('darken') on planar 8-bit RGB, 1-D blocks of 256 threads; M2 (a thread "
       "per pixel, consecutive) against a grid-stride loop with P pixels per thread (the seed "
       "settles on P = 10) and against a fixed grid (Figures 9-10: the dynamic grid wins); seven "
       "images img00..img06 whose sizes the seed does not state (their "
       "pixel counts follow from Table 5's bandwidth at 4 bytes a pixel).",
       kGtx480, run_seed000_pixels_per_thread},
      {"seed000-histogram", kSeed000, "§7 Histogram, Figures 15-23, Table 7",
       "histogram: global vs per-block vs per-warp atomics, 1-D vs 2-D blocks, P px/thread, fused",
       "Gray conversion plus a 256-bin histogram of the seed's seven images; global atomics, one "
       "shared histogram per block and one per warp (1-D blocks of 256), first on monochrome "
       "images of the same sizes (Figures 15, 17; 1-D 256-thread against 2-D 32x8 blocks), then on "
       "the real images (Figure 18) and with more pixels per thread or a fixed 60x45 grid "
       "(Figures 19-23); Table 7 times the sequential code and the fused gray+histogram kernel "
       "with 30 pixels per thread and on the fixed 60x45 grid.",
       kGtx480, run_seed000_histogram},
      {"seed000-smoothing", kSeed000, "§8 Smoothing, Figure 26, Table 13",
       "5x5 smoothing of RGB: global vs shared tile, 8x32 vs 16x32 blocks, pixels per thread",
       "A 5x5 triangular smoothing filter on 3-channel 8-bit images, filter in constant memory, "
       "2-D blocks (8x32 and 16x32); one pixel per thread from global memory against a tile "
       "copied to shared memory first (Figure 26: global wins, and 16x32 blocks beat 8x32), and "
       "the sequential code and 15 or 4 pixels per thread over the seven images (Table 13).",
       kGtx480, run_seed000_smoothing},
      {"seed001-histogram-images", kSeed001, "§2 Histogram, Appendix Tables 1-2",
       "histogram G (global atomics) vs S (shared per block) over sizes and 5 adversarial images",
       "A 256-bin histogram of 8-bit gray images, one pixel per thread; G: atomics on one global "
       "histogram, S: a shared histogram per block merged with atomics. Random images of "
       "95x95, 300x300, 949x949 and 3000x3000 (Table 1), then 3741x3741 images of five kinds: "
       "random, h_gradient, v_gradient, 256-striped (x mod 256), 20-striped (x mod 20) (Table 2); "
       "sequential, kernel and memory (transfer) times.",
       kGtx480Das4, run_seed001_histogram_images},
      {"seed001-convolution-blocks", kSeed001, "§3.2, Figure 8, Appendix Table 4",
       "convolution 5x5 at 1024x1024: kernel time over block shapes 2x2..32x64",
       "The float convolution with the seed's 5x5 triangular filter on a 1024x1024 matrix, the "
       "filter in constant memory (our global_cmem), 2-D blocks from 2x2 to 32x64 (Table 4); the "
       "seed finds small blocks slow and no significant difference from 8x16 up, and keeps "
       "32x16. 32x64 (2048 threads) is over CUDA's limit and is not run.",
       kGtx480Das4, run_seed001_convolution_blocks},
      {"seed001-filter-size", kSeed001, "§3.2, Figure 12, Appendix Table 8 (kernel)",
       "convolution at 1024x1024: kernel time over filter sides 1..17, and the CPU's",
       "The float convolution with the seed's N x N triangular filter, N = 1, 3, .., 17, filter in "
       "constant memory, 32x16 blocks, 1024x1024 input (Table 8's size follows from Table 9); "
       "kernel time against N, and our sequential CPU reference beside it.",
       kGtx480Das4, run_seed001_filter_size},
      {"seed001-constant-vs-global", kSeed001, "§3.2, Figures 9-11, Appendix Tables 5-7",
       "convolution: filter in constant vs global memory, 3x3/5x5/9x9, N = 64..2048",
       "The float convolution of N x N matrices, N = 64..2048, with the 3x3, 5x5 and 9x9 "
       "triangular filters in constant memory (global_cmem) or global memory (global_gmem), "
       "32x16 blocks, kernel time (Tables 5-7, microseconds); the seed finds constant memory "
       "faster for small images, slower for moderate ones, irrelevant for large ones.",
       kGtx480Das4, run_seed001_constant_vs_global},
      {"seed001-transfer-split", kSeed001, "§3.2, Figure 12, Appendix Table 8",
       "convolution at 1024x1024: kernel vs host<->device transfer time over filter sides 1..17",
       "The constant-memory convolution at 1024x1024 with the N x N triangular filter, N = "
       "1..17: kernel time against the time of copying the matrix to the device and the result "
       "back (Table 8); the seed's transfers dominate at every N (the kernel is about 12% of the "
       "total at 5x5).",
       kGtx480Das4, run_seed001_transfer_split},
      {"seed002-nick-windows", kSeed002, "Comparació CPU vs Kernels GPU; Comparació Kernels GPU",
       "Nick binarization: CPU window loops vs GPU methods 1-3 over window widths 2..100",
       "Nick local binarization (k = -0.01 in the seed's runs) of one gray photograph whose size "
       "the seed does not state; the CPU loops over each pixel's w x w window; GPU method 1 reads "
       "the window from global memory, method 2 stages the block's tile in shared memory, method "
       "3 the tile and its 8 neighbours; 16x16 and 32x32 blocks; window widths from 2 to 100; "
       "binarization time only.",
       kRtx3070, run_seed002_nick_windows},
      {"seed002-nick-blocks", kSeed002, "Comparació 16x16 threads/block, 32x32 threads/block",
       "Nick: time(32x32 blocks) - time(16x16 blocks) per method against the window width",
       "The same runs as seed002-nick-windows, read as the difference time(32x32) - time(16x16) "
       "for each method against the window width: the seed finds 16x16 faster for method 1 up to "
       "a width of about 30 and 32x32 faster from about 40 on, and no stable pattern for methods "
       "2 and 3.",
       kRtx3070, run_seed002_nick_blocks},
      {"seed004-a5-table9", kSeed004, "Chapter 3, Table 9; Appendices B and C",
       "A5: the thesis's four forms of the block mean (Table 9), then all statistics on 1 and 40 "
       "subbands",
       "The mean of the 16x16 blocks (stride 4) of one 512x512 float subband, the measurement of "
       "Table 9: the original form (a thread per block, strided loads), a 32x32 shared tile with "
       "a nested loop, the same with the inner loop unrolled, and unrolled with the tile stored "
       "bank-conflict-free; then every registered all-statistics form (std, skewness, kurtosis) "
       "on one subband and on the 40 subbands of a pair, which the thesis leaves to future work.",
       "NVIDIA Tesla K40 (Kepler GK110b, 15 SMs, 288 GB/s), CUDA 7.5", run_seed004_a5_table9},
      {"seed003-chain", kSeed003, "Assignment 2, Problems Encountered (line 212)",
       "a chain of kernels kept on the device vs the same chain with host round trips",
       "The seed wraps each filter in a function taking device pointers so that an image is "
       "loaded once and passed through several filters without returning to the host. Ours: "
       "`mad kernel gray,smooth,nick` (and gray,nick, smooth,nick) on RGB at 800x800 (the seed's "
       "profiled bitmap), 1920x1080 and 4096x4096, with one upload and one download, against the "
       "same chain downloading and re-uploading after every stage.",
       kGtx750Ti, run_seed003_chain},
      {"seed003-padding", kSeed003, "Assignment 2 line 214, Assignment 3 Convolution Kernel",
       "5x5 smoothing: wrap-around (torus) and zero borders, edge checks vs a padded copy",
       "The seed reads images as a torus (line 214) and removes its convolution's edge checks by "
       "writing a wrap-padded copy first (padImageKernel, line 291): 'a dramatic increase'. "
       "Ours: the 5x5 smoothing of RGB with the clip/zero border and the wrap border, each with "
       "edge checks in the kernel and with a padded copy, on the three sizes of seed003-chain.",
       kGtx750Ti, run_seed003_padding},
      {"seed003-bank-conflicts", kSeed003, "Assignment 3, Shared Memory; Resize (line 677)",
       "shared-memory tile with 32-way bank conflicts vs the same tile padded conflict-free",
       "The seed explains bank conflicts (4-byte banks, a 4-way conflict, padding as the cure); "
       "its one figure, a resize 250% slower in shared memory (with severe bank conflicts) than "
       "in global memory, is another kernel and is shown as context only. Ours: two "
       "otherwise identical 5x5 smoothing kernels reading a transposed 32-bit tile with a column "
       "stride of 32 words (conflicted) or 33 (conflict-free), 1 and 3 channels.",
       kGtx750Ti, run_seed003_bank_conflicts},
  };
  return table;
}

std::vector<const Study*> parse_studies(const std::string& list) {
  const auto& table = study_table();
  std::string valid;
  for (const Study& s : table) valid += (valid.empty() ? "" : ", ") + s.name;
  std::vector<const Study*> out;
  if (list == "all") {
    for (const Study& s : table) out.push_back(&s);
    return out;
  }
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string name = list.substr(start, comma - start);
    const auto it =
        std::find_if(table.begin(), table.end(), [&](const Study& s) { return s.name == name; });
    if (it == table.end())
      throw InvalidArgument("--study: unknown study '" + name + "'; the studies are: " + valid +
                            " (or all)");
    if (std::find(out.begin(), out.end(), &*it) == out.end()) out.push_back(&*it);
    start = comma + 1;
  }
  return out;
}

StudyResult run_study(const Study& study, const StudyConfig& config) {
  StudyResult r;
  static_cast<StudyInfo&>(r) = study;
  r.quick = config.quick;
  r.gpu = config.gpu;
  // Without a device, and with --quick, the outputs say so once for all studies.
  StudyRun run(config, std::move(r));
  study.run(run);
  return std::move(run.result());
}

// ---- StudyRun

StudyRun::StudyRun(const StudyConfig& config, StudyResult result)
    : config_(config), result_(std::move(result)) {}

void StudyRun::say(const std::string& line) const {
  if (config_.progress) config_.progress(result_.name + ": " + line);
}

int StudyRun::scaled(int full, int quick_divisor) const {
  return config_.quick ? std::max(16, full / quick_divisor) : full;
}

Measurement StudyRun::cpu_one_thread(const std::function<void()>& fn) const {
  struct Restore {
    ~Restore() { set_thread_count(0); }
  } restore;
  set_thread_count(1);
  const CpuBudget budget = config_.quick ? CpuBudget{3, 0.05} : CpuBudget{10, 0.5};
  return time_cpu_budget(fn, budget, true);
}

std::optional<Measurement> StudyRun::gpu(const std::string& what,
                                         const std::function<KernelTiming()>& bench) {
  if (!config_.gpu) return std::nullopt;
  try {
    say(what);
    return bench().time;
  } catch (const std::exception& e) {
    note(what + ": skipped: " + e.what());
    return std::nullopt;
  }
}

StudyRow& StudyRun::add(const std::string& label, const std::string& series, double x,
                        std::optional<SeedFigure> seed, const std::string& ours_what,
                        std::optional<Measurement> ours) {
  StudyRow row;
  row.label = label;
  row.series = series;
  row.x = x;
  row.seed = std::move(seed);
  row.ours_what = ours_what;
  if (ours) row.ours_ms = ours->median_ms;
  if (ours) row.resources = summarize_resources(*ours);
  if (!ours)
    row.ours_note =
        ours_what.rfind("cuda", 0) == 0 && !config_.gpu ? "no CUDA device" : "not measured";
  if (row.seed && present(row.ours_ms) && !config_.quick) {
    const double seed_ms = to_ms(row.seed->value, row.seed->unit);
    if (present(seed_ms) && seed_ms > 0) row.ratio = row.ours_ms / seed_ms;
  }
  result_.rows.push_back(std::move(row));
  return result_.rows.back();
}

void StudyRun::compare_times(const std::string& subject, const std::string& seed_a,
                             double seed_a_time, const std::string& seed_b, double seed_b_time,
                             const std::string& where, const std::string& ours_a, double ours_a_ms,
                             const std::string& ours_b, double ours_b_ms) {
  StudyComparison c;
  c.subject = subject;
  const bool tie = seed_a_time == seed_b_time;  // e.g. seed 000 line 122: 0.000076 both
  c.seed = "seed: " +
           (tie ? seed_a + " and " + seed_b + " tie at " + seed_number(seed_a_time) + " each"
                : relation(seed_a, seed_a_time, seed_b, seed_b_time)) +
           " (" + where + ")";
  if (present(ours_a_ms) && present(ours_b_ms)) {
    c.ours = "ours: " + relation(ours_a, ours_a_ms, ours_b, ours_b_ms);
    c.verdict = tie ? "same ordering: n/a (the seed's figures tie: no ordering)"
                    : std::string("same ordering: ") +
                          ((seed_a_time < seed_b_time) == (ours_a_ms <= ours_b_ms) ? "yes" : "no");
  } else {
    c.ours = "ours: not measured";
    c.verdict = config_.gpu ? "same ordering: n/a" : "same ordering: n/a (no CUDA device)";
  }
  result_.comparisons.push_back(std::move(c));
}

void StudyRun::compare_claim(const std::string& subject, const std::string& seed_claim,
                             bool seed_a_faster, const std::string& ours_a, double ours_a_ms,
                             const std::string& ours_b, double ours_b_ms) {
  StudyComparison c;
  c.subject = subject;
  c.seed = "seed: " + seed_claim;
  if (present(ours_a_ms) && present(ours_b_ms)) {
    c.ours = "ours: " + relation(ours_a, ours_a_ms, ours_b, ours_b_ms);
    c.verdict =
        std::string("same ordering: ") + (seed_a_faster == (ours_a_ms <= ours_b_ms) ? "yes" : "no");
  } else {
    c.ours = "ours: not measured";
    c.verdict = config_.gpu ? "same ordering: n/a" : "same ordering: n/a (no CUDA device)";
  }
  result_.comparisons.push_back(std::move(c));
}

double time_of(const Timings& times, const std::string& name) {
  const auto it = times.find(name);
  return it == times.end() ? kNoValue : it->second;
}

void StudyRun::compare_claim(const std::string& subject, const std::string& seed_claim,
                             bool seed_a_faster, const Timings& times, const std::string& ours_a,
                             const std::string& ours_b) {
  compare_claim(subject, seed_claim, seed_a_faster, ours_a, time_of(times, ours_a), ours_b,
                time_of(times, ours_b));
}

void StudyRun::plot(const std::string& title, const std::string& x_label, bool log_x) {
  result_.plot_title = title;
  result_.x_label = x_label;
  result_.log_x = log_x;
}

void StudyRun::compare_count(const std::string& subject, const std::string& seed_text,
                             const std::string& ours_prefix, int hits, int measured,
                             bool need_all) {
  StudyComparison c;
  c.subject = subject;
  c.seed = "seed: " + seed_text;
  if (measured == 0) {
    c.ours = "ours: not measured";
    c.verdict = config_.gpu ? "same ordering: n/a" : "same ordering: n/a (no CUDA device)";
  } else {
    c.ours = "ours: " + ours_prefix + " at " + std::to_string(hits) + " of " +
             std::to_string(measured) + " widths";
    const bool same = need_all ? hits == measured : 2 * hits > measured;
    c.verdict = std::string("same ordering: ") + (same ? "yes" : "no");
  }
  result_.comparisons.push_back(std::move(c));
}

double median_ms(const std::optional<Measurement>& m) {
  return m ? m->median_ms : kNoValue;
}

std::optional<Measurement> as_measurement(double ms) {
  if (!present(ms)) return std::nullopt;
  Measurement m;
  m.median_ms = ms;
  return m;
}

void StudyRun::compare_growth(const std::string& subject, const std::string& seed_text,
                              double seed_factor, double ours_factor) {
  StudyComparison c;
  c.subject = subject;
  c.seed = "seed: " + seed_text;
  if (!present(ours_factor)) {
    c.ours = "ours: not measured";
    c.verdict = config_.gpu ? "growth: n/a" : "growth: n/a (no CUDA device)";
  } else {
    c.ours = "ours: " + times(ours_factor) + (config_.quick ? " (at the reduced sizes)" : "");
    // A seed without a number is said first: "growth ours / seed" under --quick would claim a
    // seed factor that only the reduced sizes kept us from comparing (seed 003's pair has none).
    // --quick runs smaller sizes than the seed's: its factor would compare other sizes.
    c.verdict = !(present(seed_factor) && seed_factor > 0) ? "growth: the seed gives no number"
                : config_.quick ? "growth ours / seed: not compared (--quick runs other sizes)"
                                : "growth ours / seed: " + times(ours_factor / seed_factor);
  }
  result_.comparisons.push_back(std::move(c));
}

}  // namespace mad::bench
