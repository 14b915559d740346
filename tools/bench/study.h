// `mad bench --study NAME` (issue 11): one study per seed experiment. A study runs the seed's
// configuration (sizes, images, launch shapes, windows) with the registered variants, and prints,
// beside our figures, the seed's published figures as the seed gives them (absolute times on the
// seed's GPU and host) and the comparisons that survive a change of machine: speedups, the
// ordering of variants, growth with size or window.
//
// Adding a study (e.g. seed004-a5-table9 once a5_mean_variants() is merged):
//  1. write one function `void run_NAME(StudyRun& run)` in a studies_*.cpp file: it transcribes
//     the seed's figures (SeedFigure, citing the seed's line or table in a comment), measures
//     ours with run.cpu_one_thread / run.gpu (the one CPU timer and the one GPU timer of
//     tools/bench), adds rows with run.add and comparisons with run.compare_times and friends;
//  2. add one row {name, seed file, section, one line, description, seed device, run_NAME} to
//     the table in study.cpp (study_table()).
// Nothing else changes: --list-studies, --study all, the table, JSON and HTML outputs and the
// tests (tests/bench/study_cli_test.cpp) iterate that table.
//
// Ratios are ours / seed in the seed's unit (below 1: faster here). They compare two machines
// years apart, so they are shown for the record only, and never in --quick runs: their sizes
// are reduced, so neither the seed's figures nor its growth factors are set beside ours there.
// Without a device the outputs say so once and leave out the GPU rows and the comparisons
// that need them. A tie in the seed's own figures is no ordering and is not counted.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/bench/measurement.h"

namespace mad::bench {

struct KernelTiming;

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// A study's median times (ms), by the names its rows give them; a study compares them by name.
using Timings = std::map<std::string, double>;
// The time named `name` in `times`; kNoValue when it was not measured.
double time_of(const Timings& times, const std::string& name);

// One figure as the seed publishes it: a value and its unit ("s", "ms", "us"), or only a text
// claim (the seed's prose or a plot it gives no numbers for), and where it stands in the seed.
struct SeedFigure {
  double value = kNoValue;
  std::string unit;   // "s", "ms" or "us" for times
  std::string where;  // "Table 2, img03, M2" / "text, line 220"
  std::string text;   // for a claim without a number: "> 45 s", "16x16 faster"
};

// One output row: a label, the seed's figure (may be absent), ours (median ms of the one timer)
// and ours / seed.
struct StudyRow {
  std::string label;
  std::string series;  // plot series: rows with the same series and an x form one line
  double x = kNoValue;
  std::optional<SeedFigure> seed;
  std::string ours_what;       // "cpu-1t", "cuda shared_block", ...
  double ours_ms = kNoValue;   // NaN: not measured (ours_note says why)
  std::string ours_note;       // "no CUDA device", "quick size 256x256", ...
  double ratio = kNoValue;     // ours / seed in the seed's unit (NaN when not comparable)
  // Ours' kernel resources when measured by the GPU timer (measurement.h's
  // summarize_resources: the kernel that launched the most threads); NaN otherwise.
  ResourceSummary resources;
};

// A machine-independent comparison: what the seed shows, what we show, and whether they agree.
struct StudyComparison {
  std::string subject;  // "random 3741x3741: S.kernel vs G.kernel"
  std::string seed;     // "seed: S is 5.38x faster than G (Table 2)"
  std::string ours;     // "ours: shared_block is 3.10x faster than global_atomic"
  std::string verdict;  // "same ordering: yes" / "no" / "n/a (no CUDA device)" / "growth ..."
};


// What names and describes a study: its table entry and its result both carry it.
struct StudyInfo {
  std::string name;         // "seed001-histogram-images"
  std::string seed_file;    // "001_719c7548ba02a046.txt"
  std::string section;      // "§2 Histogram, Appendix Tables 1-2"
  std::string summary;      // one line for --list-studies
  std::string description;  // one paragraph: the seed's configuration
  std::string seed_device;  // "GTX480 (Fermi, 2010)"
};

struct StudyResult : StudyInfo {
  bool quick = false, gpu = false;
  std::vector<std::string> notes;  // where we differ from the seed, and skipped measurements
  std::vector<StudyRow> rows;
  std::vector<StudyComparison> comparisons;
  // The plot: ours (and the seed's figures where numeric) per series against x.
  std::string plot_title, x_label, y_label = "ms";
  bool log_x = false, log_y = true;
};

// How many comparisons of a study order as the seed does: the verdicts "same ordering: yes" of
// those "same ordering: yes|no"; n/a, ties, growth factors and context lines are not counted.
struct Agreement {
  int same = 0, compared = 0;
};
Agreement count_agreement(const StudyResult& r);

// A row or comparison left out of the table and HTML: not measured for want of a device.
bool wants_device(const StudyResult& r, const StudyRow& row);
bool wants_device(const StudyResult& r, const StudyComparison& c);

// What the JSON document records once about its run, so a kept report (docs/studies-h200.json)
// says where its figures come from.
struct StudiesProvenance {
  std::string command;  // "mad bench --study all --format json"
  std::string started;  // UTC, ISO 8601
  std::string device;   // the GPU's name, or "" without one
  std::string driver, runtime, cpu;
  int cpu_threads = 0;
};

struct StudyConfig {
  bool quick = false;  // reduced sizes, fewer runs (CI: seconds on two cores)
  bool gpu = false;    // CUDA compiled in and a device present
  std::function<void(const std::string&)> progress;
};

// What a study's run function writes to.
class StudyRun {
 public:
  StudyRun(const StudyConfig& config, StudyResult result);
  const StudyConfig& config() const { return config_; }
  StudyResult& result() { return result_; }

  void say(const std::string& line) const;
  void note(const std::string& line) { result_.notes.push_back(line); }
  // `full` unchanged, or with --quick each side divided by `quick_divisor` (at least 16 pixels).
  int scaled(int full, int quick_divisor) const;

  // The CPU reference on one thread (the seeds' "sequential"), through cpu_timer.h.
  Measurement cpu_one_thread(const std::function<void()>& fn) const;
  // A registered GPU variant timed by tools/bench/kernel_bench.h; nullopt without a device, or
  // when it fails (a note says why, and the study goes on).
  std::optional<Measurement> gpu(const std::string& what,
                                 const std::function<KernelTiming()>& bench);
  // The plot's title and x axis (y: ours in ms, log scale unless log_y is cleared).
  void plot(const std::string& title, const std::string& x_label, bool log_x);
  // Options for kernel_bench: the study's warm-up and run counts.
  int gpu_runs() const { return config_.quick ? 5 : 21; }

  // Appends a row; ratio filled when the seed has a time and ours is comparable (not --quick).
  StudyRow& add(const std::string& label, const std::string& series, double x,
                std::optional<SeedFigure> seed, const std::string& ours_what,
                std::optional<Measurement> ours);

  // "seed: A is r x faster than B (where); ours: A' is r' x faster than B'; same ordering".
  // seed times in any one unit; ours in ms (NaN: not measured, the verdict says so).
  void compare_times(const std::string& subject, const std::string& seed_a, double seed_a_time,
                     const std::string& seed_b, double seed_b_time, const std::string& where,
                     const std::string& ours_a, double ours_a_ms, const std::string& ours_b,
                     double ours_b_ms);
  // As compare_times for a seed that states only which is faster (a claim, no numbers).
  void compare_claim(const std::string& subject, const std::string& seed_claim,
                     bool seed_a_faster, const std::string& ours_a, double ours_a_ms,
                     const std::string& ours_b, double ours_b_ms);
  // As compare_claim, ours_a's and ours_b's times looked up by those names in `times`.
  void compare_claim(const std::string& subject, const std::string& seed_claim,
                     bool seed_a_faster, const Timings& times, const std::string& ours_a,
                     const std::string& ours_b);
  // A count over a sweep: "ours: PREFIX at HITS of MEASURED widths"; same ordering when the
  // hits are a majority (or all, with `need_all`); n/a when nothing was measured.
  void compare_count(const std::string& subject, const std::string& seed_text,
                     const std::string& ours_prefix, int hits, int measured, bool need_all);
  // Growth of one quantity between two configurations: seed factor (NaN: only a claim in
  // `seed_text`) against ours, and ours / seed.
  void compare_growth(const std::string& subject, const std::string& seed_text,
                      double seed_factor, double ours_factor);

 private:
  StudyConfig config_;
  StudyResult result_;
};

// "40 regs, smem 15360+0 B, 128 thr/blk, occ 75%" (+ ", 3 kernels" when several ran), or "-".
std::string format_resources(const ResourceSummary& r);

// A median in ms, or NaN when not measured; and back (NaN: nullopt).
double median_ms(const std::optional<Measurement>& m);
std::optional<Measurement> as_measurement(double ms);

struct Study : StudyInfo {
  std::function<void(StudyRun&)> run;
};

// Every study, in the order --list-studies and --study all show them.
const std::vector<Study>& study_table();

// "all" or a comma list of names; InvalidArgument (exit 2) naming the valid ones otherwise.
std::vector<const Study*> parse_studies(const std::string& list);

// Runs one study (its rows, comparisons and notes).
StudyResult run_study(const Study& study, const StudyConfig& config);

// Outputs (study_report.cpp).
std::string format_study_list();
std::string format_studies_table(const std::vector<StudyResult>& results);
nlohmann::json studies_json(const std::vector<StudyResult>& results,
                            const StudiesProvenance& provenance = {});
std::string format_studies_html(const std::vector<StudyResult>& results,
                                const std::vector<std::string>& device_lines);

// How a seed figure and ours print: "1.629317 s", "> 45 s", "26.1 ms", "-".
std::string format_seed_figure(const SeedFigure& f);
std::string format_ms(double ms);

}  // namespace mad::bench
