#include "mad/scoring_options.h"

#include <string>

#include "common/error.h"
#include "mad/memory_limits.h"
#include "mad/variants.h"

namespace mad {
namespace {

// A GPU variant as recorded: its registered name on the GPU, "none" on the CPU, which has none.
template <VariantFamily family, VariantPick ScoreOptions::*member>
std::string recorded_variant(const ScoreOptions& o, Backend backend) {
  return backend == Backend::Cuda ? variant_name(family, o.*member) : "none";
}

template <VariantFamily family, VariantPick ScoreOptions::*member>
void apply_variant(ScoreOptions& o, const std::string& value) {
  o.*member = pick_variant(family, value);
}

// The row of a GPU kernel variant option: honoured by CUDA alone, recorded by the name that runs.
template <VariantFamily family, VariantPick ScoreOptions::*member>
ScoringOption kernel_variant_row(const char* cli, const char* help, const char* key) {
  return {cli, "", "VARIANT", "a name mad score --list-variants shows", "", help, "GPU only",
          OptionTarget::Score, Honoured::CudaOnly, "picks a GPU kernel", false, "", "", key,
          apply_variant<family, member>, recorded_variant<family, member>, 0, 0, ""};
}

// The rows. Messages and help are the user's words: keep them in step with docs/cli.md (the
// generated table there is checked against this one).
std::vector<ScoringOption> make_table() {
  std::vector<ScoringOption> t;
  // A Score row that every backend honours, in help group "Scoring": the rest is its own.
  const auto any_backend_row = [](const char* cli, const char* python, const char* value_name,
                                  const char* values, const char* default_value, const char* help,
                                  const char* key, decltype(ScoringOption::apply) apply,
                                  decltype(ScoringOption::recorded) recorded) {
    return ScoringOption{cli, python, value_name, values, default_value, help, "Scoring",
                         OptionTarget::Score, Honoured::AnyBackend, "", false, "", "", key,
                         apply, recorded, 0, 0, ""};
  };
  t.push_back(any_backend_row(
      "--backend", "backend", "NAME", "auto | cpu | cuda", "auto",
      "Where MAD runs: auto uses CUDA when this build has it and a device is present", "backend",
      [](ScoreOptions& o, const std::string& v) { o.backend = parse_backend(v); },
      [](const ScoreOptions&, Backend b) { return to_string(b); }));
  t.push_back(any_backend_row(
      "--mad-version", "mad_version", "VERSION", "2011 | 2010 | stmad", "2011",
      "Which release to reproduce: 2011 (x200 on d_detect, the final release), 2010 (April "
      "2010) or stmad (x10: ST-MAD's per-frame HI; use with --input-class double, as ST-MAD "
      "reads frames)",
      "mad_version", [](ScoreOptions& o, const std::string& v) { o.version = parse_mad_version(v); },
      [](const ScoreOptions& o, Backend) { return to_string(o.version); }));
  t.push_back(any_backend_row(
      "--input-class", "input_class", "NAME", "auto | uint8 | double", "auto",
      "How 8-bit input is read: uint8 (255 takes the luminance of 254, as the original on "
      "imread arrays) or double; auto is uint8 for 8-bit image files, double for video frames",
      "input_class",
      [](ScoreOptions& o, const std::string& v) { o.input_class = parse_input_class(v); },
      [](const ScoreOptions& o, Backend) { return to_string(o.input_class); }));
  t.push_back({"--precision", "precision", "NAME", "double | float", "double",
               "GPU arithmetic: double (faithful) or float (fast, within ~2e-4 of double)",
               "Scoring", OptionTarget::Score, Honoured::CudaOnly, "", true, "double",
               "the CPU computes in double", "precision",
               [](ScoreOptions& o, const std::string& v) { o.precision = parse_precision(v); },
               [](const ScoreOptions& o, Backend b) {
                 return b == Backend::Cuda ? to_string(o.precision) : std::string("double");
               },
               0, 0, ""});
  t.push_back(kernel_variant_row<VariantFamily::A5, &ScoreOptions::a5_variant>(
      "--a5", "GPU A5 local-statistics variant (all give the same scores)", "a5_variant"));
  t.push_back(kernel_variant_row<VariantFamily::Detection, &ScoreOptions::det_variant>(
      "--det-variant", "GPU detection block-statistics variant (all give the same scores)",
      "det_variant"));
  t.push_back({"--subband-transform", "", "NAME", "fused | cufft", "",
               "How the appearance stage forms its subbands (default: fused in float where its "
               "CTAs fit 96 KiB (measured no slower), else cufft; fused refuses sides with a "
               "prime factor above 5); scores agree within 1e-12",
               "GPU only", OptionTarget::Score, Honoured::CudaOnly, "picks a GPU transform",
               false, "", "", "subband_transform",
               apply_variant<VariantFamily::SubbandTransform, &ScoreOptions::subband_transform>,
               [](const ScoreOptions& o, Backend b) {
                 // Without the option the stage picks per shape and precision: "default".
                 if (b != Backend::Cuda) return std::string("none");
                 if (o.subband_transform.is_default()) return std::string("default");
                 return variant_name(VariantFamily::SubbandTransform, o.subband_transform);
               },
               0, 0, ""});
  t.push_back({"--gpu-memory-limit", "", "SIZE", "bytes, or a size such as 8GiB", "",
               "GPU memory this process may use on each GPU, all shapes and workers together "
               "(default: the free memory)",
               "GPU only", OptionTarget::Score, Honoured::CudaOnly, "limits GPU memory", false,
               "", "", "",
               [](ScoreOptions& o, const std::string& v) {
                 o.gpu_memory_limit = parse_memory_size(v);
               },
               nullptr, 0, 0, ""});
  // Video options (mad video): which frames are scored and what is pooled. They change the
  // pooled figures, not a frame's score: recorded under their keys by mad/video's
  // video_settings, applied by its video_options.
  const auto video_row = [](const char* cli, const char* python, const char* value_name,
                            const char* values, const char* default_value, const char* help,
                            const char* key, long long min, long long max,
                            const char* range_hint) {
    ScoringOption row{cli, python, value_name, values, default_value, help, "Video",
                      OptionTarget::Video, Honoured::AnyBackend, "", false, "", "", key,
                      nullptr, nullptr, min, max, range_hint};
    row.commands = kVideoCommand;
    return row;
  };
  t.push_back(video_row("--stmad", "stmad", "", "a flag", "",
                        "Also ST-MAD of the clip (SMAD, TMAD, STMAD: docs/algorithm.md); needs "
                        "input class double and every frame",
                        "stmad", 0, 0, ""));
  t.push_back(video_row("--subsample", "subsample", "N", "1 .. 1000000", "1",
                        "Score every Nth frame of the range, as vmaf's --subsample", "subsample",
                        1, 1000000, "1 scores every frame"));
  t.push_back(video_row("--first-frame", "first_frame", "N", "0 .. 1000000000000", "0",
                        "Frames of both clips skipped before the range (0-based)", "first_frame",
                        0, 1000000000000LL, "0 starts at the first frame"));
  t.push_back(video_row("--frame-count", "frame_count", "N", "1 .. 1000000000000", "",
                        "At most this many frames from --first-frame on (default: to the end)",
                        "frame_count", 1, 1000000000000LL, "leave it out for every frame"));
  // Input options: a raw clip's layout (a Y4M clip carries its own, and refuses them).
  const auto input_row = [](const char* cli, const char* python, const char* value_name,
                            const char* values, const char* help, long long min,
                            long long max) {
    ScoringOption row{cli, python, value_name, values, "", help, "Raw input",
                      OptionTarget::Input, Honoured::AnyBackend, "", false, "", "", "",
                      nullptr, nullptr, min, max, "the frame's size in pixels"};
    row.commands = kVideoCommand;
    return row;
  };
  t.push_back(input_row("--width", "width", "W", "1 .. 65536",
                        "Raw (.yuv) clips: the frame's width", 1, 65536));
  t.push_back(input_row("--height", "height", "H", "1 .. 65536",
                        "Raw (.yuv) clips: the frame's height", 1, 65536));
  t.push_back(input_row("--pixel-format", "pixel_format", "NAME",
                        "yuv420p | yuv422p | yuv444p | gray, and their 10le, 12le, 16le forms",
                        "Raw (.yuv) clips: the planes' layout, as ffmpeg and vmaf name it", 0,
                        0));
  // Run options: how many workers score, and the threads decoding for them (never the scores).
  // The commands that take one register it with add_run_option.
  t.push_back({"--gpus", "", "N", "0 .. 1024", "0", "CUDA workers, one per GPU (0 = every visible GPU)",
               "Workers", OptionTarget::Run, Honoured::CudaOnly, "sets the CUDA workers", false,
               "", "--cpu-workers sets the CPU's", "", nullptr, nullptr, 0, 1024,
               "0 uses every visible GPU", kEvalCommand});
  t.push_back({"--workers-per-gpu", "", "N", "1 .. 16", "1",
               "CUDA workers sharing each GPU, each with its own thread and slots: one pair's "
               "host work then runs beside another's",
               "Workers", OptionTarget::Run, Honoured::CudaOnly,
               "sets the CUDA workers of each GPU", false, "", "--cpu-workers sets the CPU's", "",
               nullptr, nullptr, 1, 16, "leave it out for one", kEvalCommand});
  t.push_back({"--cpu-workers", "", "N", "1 .. 1024", "1",
               "CPU backend: pairs scored side by side (each also uses --threads)", "Workers",
               OptionTarget::Run, Honoured::CpuOnly, "sets the CPU backend's workers", false, "",
               "--gpus sets the GPU workers", "", nullptr, nullptr, 1, 1024,
               "leave it out for one", kEvalCommand});
  t.push_back({"--decode-threads", "", "N", "1 .. 1024", "",
               "Threads decoding images ahead of the scoring (mad score: with --pairs; default: "
               "the cores the workers leave free, shared among them)",
               "Workers", OptionTarget::Run, Honoured::AnyBackend, "", false, "", "", "", nullptr,
               nullptr, 1, 1024, "leave it out for the default", kScoreCommand | kEvalCommand});
  return t;
}

}  // namespace

const std::vector<ScoringOption>& scoring_options() {
  static const std::vector<ScoringOption> table = make_table();
  return table;
}

std::vector<const ScoringOption*> scoring_options_of(unsigned command) {
  std::vector<const ScoringOption*> rows;
  for (const ScoringOption& row : scoring_options())
    if (row.commands & command) rows.push_back(&row);
  return rows;
}

std::string command_names(unsigned bits) {
  std::string out;
  for (const auto& [bit, name] : {std::pair<unsigned, const char*>{kScoreCommand, "score"},
                                  {kEvalCommand, "eval"},
                                  {kVideoCommand, "video"}})
    if (bits & bit) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

const ScoringOption& scoring_option(const std::string& cli) {
  for (const ScoringOption& row : scoring_options())
    if (cli == row.cli) return row;
  throw Error("no scoring option " + cli + " in mad/scoring_options.cpp");
}

ScoreOptions apply_scoring_options(const GivenOptions& given) {
  ScoreOptions o;
  for (const auto& [row, value] : given)
    if (row->apply) row->apply(o, value);
  return o;
}

namespace {

// True when `backend` does not honour `row` given as `value`.
bool unhonoured(const ScoringOption& row, const std::string& value, Backend backend) {
  if (row.honoured == Honoured::CudaOnly)
    return backend == Backend::Cpu && !(*row.cpu_value && value == row.cpu_value);
  if (row.honoured == Honoured::CpuOnly) return backend == Backend::Cuda;
  return false;
}

}  // namespace

bool needs_cuda(const GivenOptions& given) {
  for (const auto& [row, value] : given)
    if (unhonoured(*row, value, Backend::Cpu)) return true;
  return false;
}

std::string why_cpu(const BackendChoice& choice) {
  if (choice.requested) return "--backend cpu was given";
  return choice.compiled ? "no CUDA device was found" : "this build has no CUDA backend";
}

void refuse_unhonoured(const GivenOptions& given, const BackendChoice& choice,
                       const std::string& subject) {
  for (const auto& [row, value] : given) {
    if (!unhonoured(*row, value, choice.backend)) continue;
    const std::string named = std::string(row->cli) + (row->names_value ? " " + value : "");
    const std::string does = *row->does ? " " + std::string(row->does) + " and" : "";
    const std::string note = *row->cpu_note ? std::string(row->cpu_note) : "";
    if (choice.backend == Backend::Cpu) {
      const std::string or_gpu = choice.requested ? ", or use --backend cuda on a machine with a GPU"
                                 : choice.compiled ? ", or run where a CUDA device is visible"
                                                   : ", or use a build with the CUDA backend";
      // A note on the value ("the CPU computes in double") comes first; one on the other
      // backend's option ("--cpu-workers sets the CPU's") after the advice to drop it.
      const bool value_note = *row->cpu_value != '\0';
      throw InvalidArgument(named + does + " needs the CUDA backend; " + subject +
                            " uses the CPU because " + why_cpu(choice) + " (" +
                            (value_note && !note.empty() ? note + ": " : "") + "drop " + named +
                            (!value_note && !note.empty() ? "; " + note : "") + or_gpu + ")");
    }
    throw InvalidArgument(named + does + " needs the CPU backend; " + subject +
                          " uses the CUDA backend (" + choice.reason + "): drop " + named +
                          (note.empty() ? "" : " (" + note + ")") + ", or add --backend cpu");
  }
}

std::vector<std::pair<std::string, std::string>> recorded_settings(const ScoreOptions& options,
                                                                   Backend backend) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const ScoringOption& row : scoring_options())
    if (row.target == OptionTarget::Score && *row.settings_key)
      out.emplace_back(row.settings_key, row.recorded(options, backend));
  return out;
}

std::string options_markdown() {
  // A cell's text, its '|' escaped so that it does not end the cell.
  const auto cell = [](const std::string& s) {
    std::string out;
    for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
  };
  const auto code = [&](const std::string& s) {
    return s.empty() ? std::string("-") : "`" + cell(s) + "`";
  };
  std::string out =
      "| Option | Commands | Python | Values | Default | Backends | Settings key | What it "
      "does |\n"
      "|---|---|---|---|---|---|---|---|\n";
  for (const ScoringOption& row : scoring_options()) {
    std::string honoured = row.honoured == Honoured::AnyBackend ? "cpu, cuda"
                           : row.honoured == Honoured::CudaOnly ? "cuda"
                                                                : "cpu";
    if (*row.cpu_value) honoured += " (cpu: " + std::string(row.cpu_value) + ")";
    const std::string usage = std::string(row.cli) + (*row.value_name ? " " : "") + row.value_name;
    out += "| " + code(usage) + " | " + command_names(row.commands) + " | " +
           code(row.python) + " | " + cell(row.values) + " | " +
           code(row.default_value) + " | " + honoured + " | " + code(row.settings_key) + " | " +
           cell(row.help) + " |\n";
  }
  return out;
}

}  // namespace mad
