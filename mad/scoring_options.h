// The one table of scoring options (issue 38), on libvmaf's model, where each feature extractor
// declares its options as rows (name, help, type, default, range) and one loop parses them.
// Each row says everything the front doors need about one option, once: its command-line and
// Python spelling, help, accepted values, default, the backends that honour it, whether it
// changes a score (and so enters a results file's settings record, under which key), and how
// its value is applied. From the table come the CLI registration (tools/cli_options.cpp), the
// refusal of options the chosen backend does not honour (refuse_unhonoured, here), the settings
// keys of results files, Python's keywords (tools/python) and the option table of docs/cli.md
// (options_markdown; a test keeps the two equal). Adding an option means adding a row here and
// writing the code that uses it: a ScoreOptions field for a scoring option (set by `apply`), or
// the run's own variable for a run option (the workers and threads, read by each front door).
//
// CUDA-free, public: front doors include it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "mad/options.h"
#include "mad/score.h"

namespace mad {

// The backends that honour an option: on the others a front door refuses it (exit 2).
enum class Honoured { AnyBackend, CudaOnly, CpuOnly };

// Where a given value goes.
enum class OptionTarget {
  Score,  // ScoreOptions, through the row's `apply`: it changes how MAD scores
  Run,    // the run's workers or threads (a front door's own variable): never a score
  // A video run's frames and figures (mad/video/video_scorer.h's VideoOptions, read there by
  // video_options): never a frame's score, but the pooled figures, so they have settings keys.
  Video,
  // How a command reads its input (a raw clip's size and pixel format): never a score.
  Input,
};

// The commands that take an option, as a bitmask of these bits: a command registers only its
// rows (tools/cli_options.cpp), Python takes a row's keyword where its command's bit is set
// (the scorer is `score`'s, mad.video is `video`'s), and docs/cli.md's table lists them.
enum CommandBits : unsigned {
  kScoreCommand = 1u,
  kEvalCommand = 2u,
  kVideoCommand = 4u,
  kEveryCommand = kScoreCommand | kEvalCommand | kVideoCommand,
};
// "score, eval, video": the commands of `bits`, as help and docs name them.
std::string command_names(unsigned bits);

struct ScoringOption {
  const char* cli;         // "--a5"
  const char* python;      // Python's keyword ("precision"); "" when Python does not take it
  // The value's placeholder in usage lines: "VARIANT", "SIZE", "N"; "" for a flag (given as
  // "true").
  const char* value_name;
  const char* values;      // the accepted values, as help lists them: "auto | cpu | cuda"
  const char* default_value;  // the default as written on the command line; "" when described
  const char* help;           // what it does, one sentence (help and docs/cli.md alike)
  const char* group;          // the --help group: "Scoring", "GPU only", "Workers"
  OptionTarget target;
  Honoured honoured;
  // Where the option needs another backend: what it does (the refusal's words, e.g. "picks a
  // GPU kernel"; "" for none), and whether the refusal names the value given (precision=float
  // is refused, precision=double is the CPU's own: see cpu_value).
  const char* does;
  bool names_value;
  // A CudaOnly option's value that the CPU honours as its own ("double" for --precision);
  // "" when the CPU honours none. What the refusal then adds ("the CPU computes in double").
  const char* cpu_value;
  const char* cpu_note;
  // The key of the results settings record; "" when the option does not change a score.
  const char* settings_key;
  // Score options: sets the option's field from the text given (throws InvalidArgument naming
  // the accepted values). Null for run options.
  void (*apply)(ScoreOptions& options, const std::string& value);
  // Score options with a settings key: the value recorded for a run of `options` on the
  // resolved `backend`, e.g. "none" for a GPU variant on the CPU.
  std::string (*recorded)(const ScoreOptions& options, Backend backend);
  // Options with a whole-number value: the accepted range (min < max; checked as the value is
  // read), and what to do instead of a value outside it ("leave it out for one").
  long long min, max;
  const char* range_hint;
  // The commands that take it (CommandBits).
  unsigned commands = kEveryCommand;
};

// Every row, in the order of help and docs.
const std::vector<ScoringOption>& scoring_options();
// The rows `command` (one CommandBits bit) takes, in the same order.
std::vector<const ScoringOption*> scoring_options_of(unsigned command);
// The row of `cli` ("--precision"); Error (a programming error) when there is none.
const ScoringOption& scoring_option(const std::string& cli);

// The options a user gave, as written: each row with its text ("true" for a bare flag).
using GivenOptions = std::vector<std::pair<const ScoringOption*, std::string>>;

// ScoreOptions with every given Score option applied over the defaults (run options are the
// front door's own). InvalidArgument names a bad value.
ScoreOptions apply_scoring_options(const GivenOptions& given);

// True when a given option is honoured by the CUDA backend alone (--precision double excepted):
// a run then asks for the GPU whatever its size.
bool needs_cuda(const GivenOptions& given);

// Why a run uses the CPU, as the end of a sentence: "--backend cpu was given", "no CUDA device
// was found" or "this build has no CUDA backend".
std::string why_cpu(const BackendChoice& choice);

// Refuses (InvalidArgument, exit 2) the first given option that `choice`'s backend does not
// honour, saying what it does, why this backend runs and what to do. `subject` names the run in
// the message: "this run" (the command line), "this scorer" (Python, which rewrites the
// option names in its own words).
void refuse_unhonoured(const GivenOptions& given, const BackendChoice& choice,
                       const std::string& subject = "this run");

// The settings record's scoring keys and values of a run of `options` on `backend`, in table
// order (the Score rows; a video run adds its Video rows' through mad/video/video_scorer.h).
std::vector<std::pair<std::string, std::string>> recorded_settings(const ScoreOptions& options,
                                                                   Backend backend);

// docs/cli.md's table of these options (Markdown), as a test compares it.
std::string options_markdown();

}  // namespace mad
