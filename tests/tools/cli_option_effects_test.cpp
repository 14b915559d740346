// Every option of `mad score`, `mad eval`, `mad kernel` and `mad bench` either does what it
// claims or is refused with exit 2 and a message (issue 14). One table per subcommand drives the
// real binary on tiny images (48x40 pairs; a synthetic KADID-layout dataset of 40x40 images); a
// last test checks that the tables name every option the parsers know, so a new option needs a row
// here.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/gpu_info.h"
#include "common/image_io.h"
#include "tests/support/test_support.h"
#include "tools/cli_commands.h"

namespace fs = std::filesystem;

namespace mad {
namespace {

// One option's row: the options it is given with (added to the subcommand's base arguments),
// and either the exit code 2 with words of the message, or a check of its effect. Arguments that
// begin with the subcommand's name are the whole command line.
struct Row {
  std::string option;  // the long name the row covers ("REF", "DIR" for positionals)
  std::string args;
  bool gpu_only_effect = false;  // on the CPU backend the option must be refused instead
  std::string refused;           // non-empty: expect exit 2 and this text in the output
  std::function<void(const test::CommandResult&)> effect;
};

fs::path g_dir;  // the suite's scratch folder

std::string text(const std::string& name) {
  std::ifstream in(g_dir / name);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
nlohmann::json json(const std::string& s) {
  if (s.empty()) {
    ADD_FAILURE() << "no JSON was written";
    return nlohmann::json::object();
  }
  return nlohmann::json::parse(s);
}
std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// The fields of column `name` of a CSV text whose fields hold no commas, in row order.
std::vector<std::string> column_of(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line, field;
  std::vector<std::string> out;
  std::getline(in, line);
  std::istringstream header(line);
  std::size_t at = 0;
  while (std::getline(header, field, ',') && field != name) ++at;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    for (std::size_t i = 0; i <= at && std::getline(row, field, ','); ++i)
      if (i == at) out.push_back(field);
  }
  return out;
}

class OptionEffects : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = test::fresh_scratch_dir("mad_option_effects");
    g_dir = dir_;
    test::write_random_png((dir_ / "ref.png").string(), 48, 40, 1);
    test::write_random_png((dir_ / "dist.png").string(), 48, 40, 2);
    std::ofstream(dir_ / "list.csv") << "ref,dist\nref.png,dist.png\ndist.png,ref.png\n";
    std::ofstream(dir_ / "rand.csv") << "ref,dist,score\nref.png,dist.png,1\ndist.png,ref.png,2\n";
    const auto made =
        mad("eval " + q("data") + " --make-synthetic --synthetic-refs 1 --synthetic-size 40x40");
    ASSERT_EQ(made.exit_code, 0) << made.out;
    {  // three pairs are enough, and keep each eval run short
      std::ifstream in(dir_ / "data" / "dmos.csv");
      std::string kept, line;
      for (int n = 0; n < 4 && std::getline(in, line); ++n) kept += line + "\n";
      in.close();
      std::ofstream(dir_ / "data" / "dmos.csv") << kept;
    }
    // Six references of five pairs, scored once, for the bootstrap's rows.
    const auto boot = mad("eval boot --make-synthetic --synthetic-refs 6 --synthetic-types 1 "
                          "--synthetic-size 34x34 -q && " + std::string(MAD_BINARY) +
                          " eval boot --backend cpu --out boot.csv -q --bootstrap 10");
    ASSERT_EQ(boot.exit_code, 0) << boot.out;
    std::ofstream(dir_ / "data" / "manifest.csv")
        << "ref,dist,score\nimages/I01.png,images/I01_01_01.png,1\n"
           "images/I01.png,images/I01_01_05.png,2\nimages/I01.png,images/I01_02_05.png,3\n";
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static std::string q(const std::string& name) { return "'" + (dir_ / name).string() + "'"; }
  static test::CommandResult mad(const std::string& args) {
    return test::run_command("cd '" + dir_.string() + "' && " + MAD_BINARY + " " + args + " 2>&1");
  }
  // Runs each row (the files a row writes are removed first) and checks it.
  static void walk(const std::string& base, const std::vector<Row>& rows) {
    const bool gpu = test::gpu_available();
    for (const Row& row : rows) {
      SCOPED_TRACE(base + " " + row.args);
      for (const char* f :
           {"out.csv", "out.csv.settings", "out.json", "sum.json", "rep.html", "k.png", "k.jpg"})
        fs::remove(dir_ / f);
      // A row whose arguments name the subcommand runs as it is, without the base.
      const bool whole = row.args.rfind(base.substr(0, base.find(' ')) + " ", 0) == 0;
      const test::CommandResult r = mad(whole ? row.args : base + " " + row.args);
      if (!row.refused.empty() && (!row.gpu_only_effect || !gpu)) {
        EXPECT_EQ(r.exit_code, kExitUsage) << r.out;
        EXPECT_NE(r.out.find(row.refused), std::string::npos) << r.out;
      } else if (row.effect) {
        row.effect(r);
      }
    }
  }
  static fs::path dir_;
};
fs::path OptionEffects::dir_;

void ok(const test::CommandResult& r) {
  ASSERT_EQ(r.exit_code, 0) << r.out;
}

// --threads 1 leaves the scoring on the main thread: traced, `mad ARGS` starts no thread (on two
// cores and more the default starts workers: 10 on this project's 2-core CI). Where strace is
// missing the row says so and checks the exit code only.
void expect_no_thread_started(const std::string& args) {
  if (test::run_command("command -v strace >/dev/null").exit_code != 0) {
    std::cout << "strace is not installed: the thread count of --threads 1 is not checked\n";
    return;
  }
  const fs::path trace = g_dir / "threads.trace";
  const test::CommandResult r =
      // LeakSanitizer cannot run under ptrace (it aborts, exit 134): off for the traced run of an
      // ASan build (CI's second stage); other builds ignore the variable.
      test::run_command("cd '" + g_dir.string() + "' && ASAN_OPTIONS=\"${ASAN_OPTIONS:-}" +
                        ":detect_leaks=0\" strace -f -qq -e trace=clone,clone3 -o '" +
                        trace.string() + "' " + MAD_BINARY + " " + args + " > /dev/null 2>&1");
  ASSERT_EQ(r.exit_code, 0) << args;
  EXPECT_EQ(text("threads.trace").find("clone"), std::string::npos) << text("threads.trace");
  fs::remove(trace);
}

// `mad ARGS` in the suite's folder: the run a row compares its own with.
test::CommandResult run_here(const std::string& args) {
  return test::run_command("cd '" + g_dir.string() + "' && " + MAD_BINARY + " " + args + " 2>&1");
}

// The threads `mad ARGS` starts (clone calls, traced); -1 where strace is missing.
int threads_started(const std::string& args) {
  if (test::run_command("command -v strace >/dev/null").exit_code != 0) return -1;
  const fs::path trace = g_dir / "count.trace";
  const test::CommandResult r = test::run_command(
      "cd '" + g_dir.string() + "' && ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" " +
      "strace -f -qq -e trace=clone,clone3 -o '" + trace.string() + "' " + MAD_BINARY + " " +
      args + " > /dev/null 2>&1");
  EXPECT_EQ(r.exit_code, 0) << args;
  std::istringstream in(text("count.trace"));
  int clones = 0;
  for (std::string line; std::getline(in, line);) clones += line.find("clone") != line.npos;
  fs::remove(trace);
  return clones;
}

// The numbers of `names` (columns of a results CSV, or fields of a JSON object) in order.
std::vector<double> numbers(const std::string& csv, const std::vector<std::string>& names) {
  std::vector<double> out;
  for (const auto& name : names)
    for (const auto& field : column_of(csv, name)) out.push_back(std::stod(field));
  return out;
}
std::vector<double> numbers(const nlohmann::json& j, const std::vector<std::string>& names) {
  std::vector<double> out;
  for (const auto& name : names) out.push_back(j.at(name).get<double>());
  return out;
}

// A GPU kernel or transform other than the default computes the same scores by another route:
// equal within rounding, and not bit for bit (the option was applied, not only recorded).
void expect_another_route(const std::vector<double>& got, const std::vector<double>& by_default) {
  ASSERT_EQ(got.size(), by_default.size());
  ASSERT_FALSE(got.empty());
  EXPECT_NE(got, by_default) << "the same bits as the default: the option changed nothing";
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], by_default[i], 1e-6 * std::max(1.0, std::abs(by_default[i]))) << i;
}

// The JSON document a run printed (after any notes before it).
nlohmann::json printed_json(const test::CommandResult& r) {
  return nlohmann::json::parse(r.out.substr(r.out.find('{')));
}

// The effect of a row whose run succeeds and prints JSON holding `value` at `pointer`
// (e.g. "/nick/window").
std::function<void(const test::CommandResult&)> prints(const std::string& pointer,
                                                       const nlohmann::json& value) {
  return [pointer, value](const test::CommandResult& r) {
    ok(r);
    EXPECT_EQ(printed_json(r)[nlohmann::json::json_pointer(pointer)], value);
  };
}

// The effect of a row whose run succeeds and prints `text`.
std::function<void(const test::CommandResult&)> says(const std::string& text) {
  return [text](const test::CommandResult& r) {
    ok(r);
    EXPECT_NE(r.out.find(text), std::string::npos) << r.out;
  };
}

// Columns of a results file scored without a row's option: the default's figures that the row's
// are set against.
using DefaultScores = std::function<std::vector<double>(const std::vector<std::string>&)>;

// A GPU-only row that names another kernel or transform than the default's and writes out.csv
// (`args`): with a device, the settings record holds `setting` (key=value) and `columns` are
// the default's by another route; without one, the option is refused saying `refused`.
Row another_route_row(const std::string& option, const std::string& args,
                      const std::string& refused, const std::string& setting,
                      const std::vector<std::string>& columns, const DefaultScores& by_default) {
  return {option, args, true, refused, [setting, columns, by_default](auto& r) {
            ok(r);
            EXPECT_NE(text("out.csv.settings").find(setting), std::string::npos);
            const std::vector<double> got = numbers(text("out.csv"), columns);
            expect_another_route(got, by_default(columns));
          }};
}

// The columns of `mad score --pairs list.csv` with the default backend (the GPU, where the
// rows that compare with them run) and variants.
std::vector<double> score_gpu_scores(const std::vector<std::string>& columns) {
  ok(run_here("score --pairs list.csv --out base.csv --force"));
  return numbers(text("base.csv"), columns);
}

// The rows of `mad score`. Base: no options but the pair (or --pairs) each row adds.
std::vector<Row> score_rows(const std::string& pair) {
  const std::string cpu_json = "--backend cpu --json " + pair;
  return {
      {"REF", pair, false, "", says("MAD ")},
      {"DIST", "ref.png", false, "REF and DIST"},
      {"--json", "--json " + pair, false, "",
       [](auto& r) {
         ok(r);
         EXPECT_TRUE(printed_json(r).contains("backend_reason"));
       }},
      {"--backend", cpu_json, false, "", prints("/backend_reason", "requested")},
      {"--backend", "--backend gpu " + pair, false, "expected auto, cpu or cuda"},
      // 2010 scales d_detect by 1 instead of 200: the same lo, hi 200 times smaller.
      {"--mad-version", "--mad-version 2010 " + cpu_json, false, "",
       [cpu_json](auto& r) {
         ok(r);
         const auto base = printed_json(run_here("score " + cpu_json));
         EXPECT_EQ(printed_json(r)["mad_version"], 2010);
         EXPECT_EQ(printed_json(r)["lo"], base["lo"]);
         EXPECT_NEAR(printed_json(r)["hi"].template get<double>() * 200,
                     base["hi"].template get<double>(), 1e-9 * base["hi"].template get<double>());
       }},
      // Double input skips the uint8 path's rounding: another hi for the same 8-bit pair.
      {"--input-class", "--input-class double " + cpu_json, false, "",
       [cpu_json](auto& r) {
         ok(r);
         EXPECT_EQ(printed_json(r)["input_class"], "double");
         EXPECT_NE(printed_json(r)["hi"], printed_json(run_here("score " + cpu_json))["hi"]);
       }},
      {"--precision", "--precision float --json " + pair, true, "needs the CUDA backend",
       prints("/precision", "float")},
      {"--precision", "--backend cpu --precision float " + pair, false, "--backend cpu was given"},
      // GPU-only rows name a variant of another algorithm than the default's (a5-fast,
      // det-fast, the fused transform): with a device, the scores differ from the default's in
      // their last bits; without one, the option is refused.
      {"--a5", "--a5 a5-original --json " + pair, true, "--a5 picks a GPU kernel",
       [pair](auto& r) {
         ok(r);
         EXPECT_EQ(printed_json(r)["a5_variant"], "a5-original");
         expect_another_route(
             numbers(printed_json(r), {"mad", "hi", "lo"}),
             numbers(printed_json(run_here("score --json " + pair)), {"mad", "hi", "lo"}));
       }},
      another_route_row("--det-variant",
                        "--det-variant det-original --pairs list.csv --out out.csv",
                        "--det-variant picks a GPU kernel", "det_variant=det-original",
                        {"mad", "hi"}, score_gpu_scores),
      // fused, not cufft: in double the default already runs cufft (subband_transform.h), and
      // 48x40 factors into 2, 3 and 5, which fused runs.
      another_route_row("--subband-transform",
                        "--subband-transform fused --pairs list.csv --out out.csv",
                        "--subband-transform picks a GPU transform", "subband_transform=fused",
                        {"mad", "lo"}, score_gpu_scores),
      // 1 KiB holds no pair: the limit is what stops it.
      {"--gpu-memory-limit", "--gpu-memory-limit 1KiB " + pair, true, "limits GPU memory",
       [](auto& r) {
         EXPECT_NE(r.exit_code, 0) << r.out;
         EXPECT_NE(r.out.find("--gpu-memory-limit allows"), std::string::npos) << r.out;
       }},
      {"--maps", "--backend cpu --maps maps " + pair, false, "",
       [](auto& r) {
         ok(r);
         EXPECT_FALSE(text("maps/map_hi.png").empty());
       }},
      {"--threads", "--backend cpu --threads 1 " + pair, false, "",
       [pair](auto& r) {
         ok(r);
         expect_no_thread_started("score --backend cpu --threads 1 " + pair);
       }},
      {"--threads", "--backend cpu --threads 0 " + pair, false, "leave --threads out"},
      {"--threads", "--backend cpu --threads -2 " + pair, false, "outside [1,"},
      // The closing line reports the decoders' pool as the engine built it: 3 differs from the
      // default (the cores left free) on CI's 2 cores and on hosts of many.
      {"--decode-threads", "--backend cpu --pairs list.csv --out out.csv --decode-threads 3", false,
       "",
       [](auto& r) {
         ok(r);
         EXPECT_NE(r.out.find("mad: decoding: 4 images, "), std::string::npos) << r.out;
         EXPECT_NE(r.out.find(" on 3 thread(s)"), std::string::npos) << r.out;
         EXPECT_EQ(lines(text("out.csv")), 3u);
       }},
      {"--decode-threads", "--backend cpu --pairs list.csv --decode-threads 0", false,
       "leave it out for the default"},
      {"--decode-threads", "--decode-threads 2 " + pair, false, "no --pairs was given"},
      {"--out", "--backend cpu --out out.csv " + pair, false, "",
       [](auto& r) {
         ok(r);
         EXPECT_EQ(text("out.csv").rfind("ref,dist,mad", 0), 0u);
       }},
      {"--force", "--force " + pair, false, "neither was given"},
      {"--reference", "--backend cpu --distorted dist.png --reference ref.png", false, "",
       says("MAD ")},
      {"--distorted", "--reference ref.png", false, "REF and DIST"},
      {"--shard", "--backend cpu --pairs list.csv --shard 2/2 --out out.csv", false, "",
       [](auto& r) {
         EXPECT_NE(r.exit_code, kExitUsage) << r.out;
         EXPECT_NE(text("out.csv.settings").find("shard=2/2\n"), std::string::npos);
       }},
      {"--shard", "--shard 1/2 " + pair, false, "no --pairs was given"},
      {"--shard", "--backend cpu --pairs list.csv --shard 3/2", false, "is not I/N"},
      {"--quiet", "--backend cpu --pairs list.csv --out out.csv -q", false, "",
       [](auto& r) {
         ok(r);
         EXPECT_EQ(r.out, "");  // without -q: "mad: 2 pairs scored, ..."
         EXPECT_EQ(lines(text("out.csv")), 3u);
       }},
      {"--resume", "--resume --out out.csv " + pair, false, "one pair is simply scored again"},
      {"--pairs", "--backend cpu --pairs list.csv", false, "", says("ref,dist,mad")},
      {"--pairs", "--backend cpu --pairs list.csv --json --out out.json", false, "",
       [](auto& r) {
         ok(r);
         std::istringstream in(text("out.json"));
         int objects = 0;
         for (std::string line; std::getline(in, line); ++objects)
           EXPECT_TRUE(nlohmann::json::parse(line).contains("mad")) << line;
         EXPECT_EQ(objects, 2);
       }},
      {"--list-variants", "--list-variants", false, "",
       [](auto& r) {
         ok(r);
         if (!gpu_backend_compiled()) {
           EXPECT_NE(r.out.find("no CUDA backend"), std::string::npos) << r.out;
           return;
         }
         for (const char* v : {"a5-fast", "a5-direct", "det-original"})
           EXPECT_NE(r.out.find(v), std::string::npos) << v << "\n" << r.out;
       }},
      {"--list-variants", "--list-variants --json", false, "takes no other argument"},
  };
}

TEST_F(OptionEffects, Score) {
  walk("score", score_rows(q("ref.png") + " " + q("dist.png")));
  // --out refuses an existing file; --force replaces it; --resume skips what is done and
  // refuses other settings, naming them.
  const std::string pairs = "score --backend cpu --pairs list.csv --out out.csv";
  fs::remove(dir_ / "out.csv");
  ok(mad(pairs));
  EXPECT_EQ(mad(pairs).exit_code, kExitUsage);  // --resume or --force decide
  ok(mad(pairs + " --force"));
  const auto resumed = mad(pairs + " --resume");
  ok(resumed);
  EXPECT_NE(resumed.out.find("2 already done"), std::string::npos) << resumed.out;
  const auto mixed = mad(pairs + " --resume --mad-version 2010");
  EXPECT_EQ(mixed.exit_code, kExitUsage);
  EXPECT_NE(mixed.out.find("made with --mad-version 2011; this run uses 2010"), std::string::npos)
      << mixed.out;
  fs::remove(dir_ / "out.csv.settings");  // as an older mad left it: settings unknown
  const auto unknown = mad(pairs + " --resume");
  EXPECT_EQ(unknown.exit_code, kExitUsage);
  EXPECT_NE(unknown.out.find("--force"), std::string::npos) << unknown.out;
}

// The rows of `mad eval`, run on a KADID-layout dataset of three 40x40 pairs.
// --synthetic-format NAME: the set's files carry EXTENSION, hold the PNG set's images ("data",
// the same size and seed) with CHANNELS channels, and dmos.csv names them, so the set scores
// as the PNG set does; a build without the writer's LIBRARY refuses it.
Row synthetic_format_row(const std::string& name, const std::string& extension, int channels,
                         const std::string& library) {
  const std::vector<std::string> formats = supported_formats();
  if (std::find(formats.begin(), formats.end(), name) == formats.end())
    return {"--synthetic-format", "eval more --make-synthetic --synthetic-format " + name, false,
            library + " was not found at configure time"};
  const std::string set = "fmt-" + name;
  return {"--synthetic-format",
          "eval " + set +
              " --make-synthetic --synthetic-refs 1 --synthetic-types 1 --synthetic-size "
              "40x40 --synthetic-format " +
              name + " 2>&1 && " + MAD_BINARY + " eval " + set +
              " --backend cpu --out out.csv --limit 3 --bootstrap 10 2>&1 && " + MAD_BINARY +
              " eval data --backend cpu --out " + set + ".csv --force --bootstrap 10",
          false, "", [=](auto& r) {
            ok(r);
            EXPECT_NE(r.out.find("40x40 " + extension + " files"), std::string::npos) << r.out;
            for (const char* image : {"I01", "I01_01_03"}) {
              const fs::path file = g_dir / set / "images" / (image + extension);
              ASSERT_TRUE(fs::exists(file)) << file;
              EXPECT_FALSE(fs::exists(g_dir / set / "images" / (std::string(image) + ".png")));
              EXPECT_EQ(load_raw_image8(file.string()).channels, channels) << file;
              EXPECT_EQ(
                  load_gray_image(file.string()).gray8,
                  load_gray_image((g_dir / "data/images" / (std::string(image) + ".png")).string())
                      .gray8)
                  << file;
            }
            EXPECT_NE(text(set + "/dmos.csv").find("I01_01_05" + extension + ",I01" + extension),
                      std::string::npos);
            // The three pairs score as the PNG set's first three (the same images).
            const std::string scored = text("out.csv");
            EXPECT_EQ(lines(scored), 4u) << scored;
            EXPECT_NE(scored.find("I01_01_03" + extension), std::string::npos) << scored;
            const std::vector<std::string> scores = column_of(scored, "mad");
            EXPECT_EQ(scores.size(), 3u);
            EXPECT_EQ(scores, column_of(text(set + ".csv"), "mad"));
          }};
}

// The rows that compare scores run on the two random 48x40 pairs (rand.csv): "data"'s pairs are
// too weak for the detection stage (hi 0, so mad 0) and have no pixel at 255 (where the input
// classes differ).
const std::string kRandEval = "eval . --manifest rand.csv --lower-is-better --out out.csv";
// Their hi column scored on the CPU with the defaults (run once, kept); not all 0.
const std::vector<double>& eval_cpu_hi() {
  static const std::vector<double> hi = [] {
    ok(run_here("eval . --manifest rand.csv --lower-is-better --backend cpu --out base-cpu.csv "
                "--force -q"));
    return numbers(text("base-cpu.csv"), {"hi"});
  }();
  EXPECT_NE(hi, std::vector<double>(hi.size(), 0.0)) << "no pair shows the detection stage";
  return hi;
}
// Their columns scored with the default backend (the GPU, where these rows run) and variants.
std::vector<double> eval_gpu_scores(const std::vector<std::string>& columns) {
  ok(run_here("eval . --manifest rand.csv --lower-is-better --out base-gpu.csv --force -q"));
  return numbers(text("base-gpu.csv"), columns);
}

const std::string kBootRun = "eval boot --backend cpu --out boot.csv --resume -q --json sum.json";
// Every bootstrap interval of a summary's overall statistics.
nlohmann::json intervals(const nlohmann::json& summary) {
  nlohmann::json out;
  for (const char* m : {"srocc", "krocc", "plcc", "rmse"}) out[m] = summary["overall"][m]["ci95"];
  return out;
}
// The intervals of "boot" with OPTIONS instead of a row's.
nlohmann::json boot_intervals(const std::string& options) {
  const auto r = run_here("eval boot --backend cpu --out boot.csv --resume -q --json boot.json" +
                          options);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  return intervals(json(text("boot.json")));
}

std::vector<Row> eval_rows() {
  const auto summary = [] { return json(text("sum.json")); };
  const auto results = [] { return text("out.csv"); };
  return {
      {"DIR", "", false, "", says("SROCC")},
      {"--dataset", "--dataset tid2013", false, "",
       [](auto& r) {  // a KADID folder read as TID2013: its files are not found
         EXPECT_EQ(r.exit_code, 3) << r.out;
         EXPECT_NE(r.out.find("TID layout"), std::string::npos) << r.out;
       }},
      {"--manifest", "--manifest data/manifest.csv --lower-is-better --json sum.json", false, "",
       [summary](auto&) { EXPECT_EQ(summary()["dataset"]["name"], "csv"); }},
      {"--higher-is-better", "--manifest data/manifest.csv --higher-is-better --json sum.json",
       false, "",
       [summary](auto&) { EXPECT_EQ(summary()["dataset"]["subjective_higher_is_better"], true); }},
      {"--manifest", "--dataset kadid10k --manifest manifest.csv", false, "drop --manifest"},
      {"--higher-is-better", "--higher-is-better", false, "fixes its own score direction"},
      {"--lower-is-better", "--manifest data/manifest.csv --lower-is-better --higher-is-better",
       false, "not both"},
      {"--out", "", false, "", [results](auto&) { EXPECT_EQ(lines(results()), 4u); }},
      {"--resume", "--resume --force", false, "not both"},
      {"--shard", "--shard 1/2", false, "",  // one reference: shard 1 of 2 holds its 3 pairs
       [results](auto& r) {
         ok(r);
         EXPECT_EQ(lines(results()), 4u);
         EXPECT_NE(text("out.csv.settings").find("shard=1/2\n"), std::string::npos);
         EXPECT_NE(r.out.find("statistics: none for shard 1/2"), r.out.npos) << r.out;
       }},
      {"--shard", "--shard 1/2 --seed 3", false, "which one --shard does not compute"},
      {"--shard", "--shard 2/1", false, "is not I/N"},
      // A first run of one pair, then --force over it: all three pairs, not the one kept.
      {"--force",
       "eval data --backend cpu --out out.csv --limit 1 && " + std::string(MAD_BINARY) +
           " eval data --backend cpu --out out.csv --force",
       false, "",
       [results](auto& r) {
         ok(r);
         EXPECT_EQ(lines(results()), 4u);
       }},
      {"--quiet", "-q", false, "",
       [](auto& r) {
         ok(r);  // without -q, notes such as "mad eval: one row per pair in out.csv"
         EXPECT_EQ(r.out.find("mad eval:"), r.out.npos) << r.out;
         EXPECT_NE(r.out.find("SROCC"), r.out.npos);
       }},
      {"--json", "--json sum.json", false, "",
       [summary](auto&) { EXPECT_TRUE(summary().contains("settings")); }},
      {"--html", "--html rep.html", false, "",
       [](auto&) { EXPECT_FALSE(text("rep.html").empty()); }},
      // 2010 scales d_detect by 1 instead of 200: each pair's hi 200 times smaller.
      {"--mad-version", kRandEval + " --backend cpu --mad-version 2010", false, "",
       [results](auto& r) {
         ok(r);
         EXPECT_NE(results().find(",2010,"), std::string::npos);
         const std::vector<double> hi = numbers(results(), {"hi"}), base = eval_cpu_hi();
         ASSERT_EQ(hi.size(), base.size());
         for (std::size_t i = 0; i < hi.size(); ++i)
           EXPECT_NEAR(hi[i] * 200, base[i], 1e-9 * base[i]);
       }},
      {"--backend", "--json sum.json", false, "",
       [summary](auto&) { EXPECT_EQ(summary()["settings"]["backend_reason"], "requested"); }},
      // The GPU-only rows leave the base's --backend cpu out: with a device they take effect,
      // recorded in the settings file; without one they are refused.
      {"--precision", "eval data --out out.csv --precision float", true, "needs the CUDA backend",
       [](auto& r) {
         ok(r);
         EXPECT_NE(text("out.csv.settings").find("precision=float"), std::string::npos);
       }},
      // Double input skips the uint8 path's rounding: other scores for the same 8-bit pairs.
      {"--input-class", kRandEval + " --backend cpu --input-class double", false, "",
       [results](auto& r) {
         ok(r);
         EXPECT_NE(text("out.csv.settings").find("input_class=double"), std::string::npos);
         const std::vector<double> hi = numbers(results(), {"hi"});
         EXPECT_EQ(hi.size(), 2u);
         EXPECT_NE(hi, eval_cpu_hi());
       }},
      // As in score's rows: another algorithm than the default's, the same scores but for
      // their last bits (on a device; without one, refused).
      another_route_row("--a5", kRandEval + " --a5 a5-original", "--a5 picks a GPU kernel",
                        "a5_variant=a5-original", {"mad", "lo"}, eval_gpu_scores),
      another_route_row("--det-variant", kRandEval + " --det-variant det-original",
                        "--det-variant picks a GPU kernel", "det_variant=det-original",
                        {"mad", "hi"}, eval_gpu_scores),
      another_route_row("--subband-transform", kRandEval + " --subband-transform fused",
                        "--subband-transform picks a GPU transform", "subband_transform=fused",
                        {"mad", "lo"}, eval_gpu_scores),
      {"--gpu-memory-limit", "eval data --out out.csv --gpu-memory-limit 1KiB", true,
       "limits GPU memory",
       [results](auto& r) {  // no pair fits: each fails, saying why
         EXPECT_NE(r.exit_code, 0) << r.out;
         EXPECT_NE((r.out + results()).find("--gpu-memory-limit allows"), std::string::npos)
             << r.out;
       }},
      {"--gpus", "--gpus 1", false, "--gpus sets the CUDA workers"},
      {"--gpus", "--gpus -1", false, "outside [0,"},
      {"--workers-per-gpu", "--workers-per-gpu 2", false,
       "--workers-per-gpu sets the CUDA workers"},
      {"--workers-per-gpu", "--workers-per-gpu 0", false, "outside [1,"},
      // The run's own account: one timing entry per worker that ran (the default runs one).
      {"--cpu-workers", "--cpu-workers 2 --json sum.json", false, "",
       [summary](auto&) {
         EXPECT_EQ(summary()["settings"]["workers"], 2);
         EXPECT_EQ(summary()["run"]["workers"].size(), 2u) << summary()["run"];
       }},
      {"--cpu-workers", "--cpu-workers 0", false, "outside [1,"},
      // A CPU worker's default is every core; 3 threads differ from it on CI's 2 cores and on
      // hosts of many.
      {"--decode-threads", "--decode-threads 3 --json sum.json", false, "",
       [summary](auto&) { EXPECT_EQ(summary()["run"]["decode_threads"], 3); }},
      {"--decode-threads", "--decode-threads 0", false, "leave it out for the default"},
      {"--limit", "--limit 1", false, "", [results](auto&) { EXPECT_EQ(lines(results()), 2u); }},
      {"--limit", "--limit -1", false, "leave --limit out"},
      {"--limit", "--limit 0", false, "leave --limit out"},
      // --figure picks a clip pair's figure: refused on an image dataset (its effect on a video
      // manifest: tests/datasets/video_eval_test.cpp).
      {"--figure", "--figure stmad", false, "applies with --dataset video"},
      // The scoring's threads, counted: one decoder either way, and a worker's parallel
      // stages start threads - 1 helpers each (none with one thread).
      {"--threads", "--threads 1 --json sum.json", false, "",
       [summary](auto& r) {
         ok(r);
         EXPECT_NE(summary()["settings"]["devices"][0].get<std::string>().find("up to 1 threads"),
                   std::string::npos)
             << summary()["settings"]["devices"];
         const std::string run = "eval data --backend cpu --out t.csv --force -q --decode-threads 1";
         const int one = threads_started(run + " --threads 1");
         if (one < 0) {
           std::cout << "strace is not installed: the threads of --threads are not counted\n";
           return;
         }
         EXPECT_LT(one, threads_started(run + " --threads 3"));
       }},
      {"--threads", "--threads 0", false, "leave --threads out"},
      // The bootstrap rows run on "boot" (six references: "data" has one, and resampling one
      // reference gives one sample), its pairs scored once: each row resumes with nothing left
      // to score, and its intervals differ from another count's or seed's.
      {"--bootstrap", kBootRun + " --bootstrap 7", false, "",
       [summary](auto&) {
         EXPECT_EQ(summary()["settings"]["bootstrap"]["resamples"], 7);
         EXPECT_NE(intervals(summary()), boot_intervals(" --bootstrap 400"));
       }},
      {"--bootstrap", "--bootstrap 0", false, "outside [1,"},
      {"--seed", kBootRun + " --bootstrap 50 --seed 7", false, "",
       [summary](auto&) {
         EXPECT_EQ(summary()["settings"]["bootstrap"]["seed"], 7);
         EXPECT_NE(intervals(summary()), boot_intervals(" --bootstrap 50 --seed 8"));
       }},
      {"--seed", "--seed -1", false, "outside [0,"},
      {"--make-synthetic", "--make-synthetic --limit 2", false,
       "has no effect with --make-synthetic"},
      {"--synthetic-refs", "--synthetic-refs 2", false, "only applies with --make-synthetic"},
      {"--synthetic-refs", "eval more --make-synthetic --synthetic-refs 0", false, "outside [1,"},
      {"--synthetic-size", "eval more --make-synthetic --synthetic-size 20x20", false, ">= 34"},
      {"--synthetic-size", "eval more --make-synthetic --synthetic-size 64by48", false, "WxH"},
      {"--synthetic-size",
       "eval siz --make-synthetic --synthetic-refs 1 --synthetic-types 1 --synthetic-size 64x48",
       false, "",
       [](auto& r) {  // references and distortions alike, width first
         ok(r);
         for (const char* image : {"siz/images/I01.png", "siz/images/I01_01_05.png"}) {
           const RawImage8 written = load_raw_image8((g_dir / image).string());
           EXPECT_EQ(written.width, 64) << image;
           EXPECT_EQ(written.height, 48) << image;
         }
       }},
      {"--synthetic-types",
       "eval typ --make-synthetic --synthetic-refs 1 --synthetic-types 25 --synthetic-size 34x34",
       false, "", [](auto&) { EXPECT_EQ(lines(text("typ/dmos.csv")), 126u); }},
      {"--synthetic-types", "eval more --make-synthetic --synthetic-types 26", false,
       "outside [1,"},
      {"--synthetic-types", "--synthetic-types 2", false, "only applies with --make-synthetic"},
      {"--synthetic-colour",
       "eval col --make-synthetic --synthetic-refs 1 --synthetic-types 1 --synthetic-colour "
       "--synthetic-size 34x34",
       false, "",
       [](auto&) {
         EXPECT_EQ(load_raw_image8((g_dir / "col/images/I01.png").string()).channels, 3);
         EXPECT_EQ(load_raw_image8((g_dir / "col/images/I01_01_01.png").string()).channels, 3);
       }},
      {"--synthetic-colour", "--synthetic-colour", false, "only applies with --make-synthetic"},
      synthetic_format_row("tiff", ".tif", 1, "libtiff"),
      synthetic_format_row("bmp", ".bmp", 3, "libstb"),
      {"--synthetic-format", "eval more --make-synthetic --synthetic-format gif", false,
       "--synthetic-format: synthetic image format 'gif': expected png, tiff or bmp"},
      {"--synthetic-format", "--synthetic-format bmp", false, "only applies with --make-synthetic"},
  };
}

TEST_F(OptionEffects, Eval) {
  const std::vector<Row> rows = eval_rows();
  walk("eval data --backend cpu --out out.csv", rows);
  // The settings of --out are checked on --resume, naming the difference.
  const std::string base = "eval data --backend cpu --out out.csv --limit 2 --bootstrap 20";
  fs::remove(dir_ / "out.csv");
  ok(mad(base));
  const auto mixed = mad(base + " --resume --input-class double");
  EXPECT_EQ(mixed.exit_code, kExitUsage);
  EXPECT_NE(mixed.out.find("made with --input-class auto; this run uses double"), std::string::npos)
      << mixed.out;
}

// The rows of `mad kernel`. Base: smooth on the 48x40 reference into k.png, on the CPU.
std::vector<Row> kernel_rows() {
  const std::string nick = "kernel nick ref.png k.png --backend cpu --json ";
  return {
      {"KERNEL", "kernel nope ref.png k.png", false, "unknown kernel 'nope'"},
      {"KERNEL", "kernel histogram ref.png --backend cpu --json", false, "",
       [](auto& r) {
         ok(r);
         EXPECT_EQ(printed_json(r)["kernel"], "histogram");
         EXPECT_EQ(printed_json(r)["histogram"].size(), 256u);
       }},
      {"KERNEL", "kernel smooth,nick ref.png k.png --backend cpu --json", false, "",
       [](auto& r) {
         ok(r);
         EXPECT_EQ(printed_json(r)["kernel"], "smooth,nick");
         EXPECT_EQ(printed_json(r)["nick"]["window"], 15);
       }},
      {"KERNEL", "kernel smooth,gray ref.png k.png --backend cpu", false,
       "gray can only be the first kernel of a chain"},
      {"KERNEL", "kernel histogram,nick ref.png k.png --backend cpu", false,
       "histogram can only be the last kernel of a chain"},
      {"IN", "kernel smooth missing.png k.png --backend cpu", false, "",
       [](auto& r) { EXPECT_EQ(r.exit_code, kExitInput) << r.out; }},
      {"OUT", "", false, "",
       [](auto& r) {
         ok(r);
         EXPECT_EQ(text("k.png").substr(1, 3), "PNG");
       }},
      {"OUT", "kernel smooth ref.png k.jpg --backend cpu", false, "this build writes .png"},
      {"--variant", "--variant tile", false, "cannot be combined with --backend cpu"},
      {"--window", nick + "--window 7", false, "", prints("/nick/window", 7)},
      {"--window", "--window 7", false, "apply to nick only"},
      {"--window", "kernel nick ref.png k.png --backend cpu --window 0", false, "outside [2, 101]"},
      {"--window", "kernel nick ref.png k.png --backend cpu --window 017", false,
       "not a decimal integer"},
      {"--k", nick + "--k -0.05", false, "", prints("/nick/k", -0.05)},
      {"--k", "--k -0.1", false, "apply to nick only"},
      {"--even-window", nick + "--window 4 --even-window seed", false, "",
       prints("/nick/even_window", "seed")},
      {"--even-window", "--even-window seed", false, "apply to nick only"},
      {"--even-window", nick + "--even-window centre", false, "matlab or seed"},
      {"--border", "--border wrap --json", false, "", prints("/border", "wrap")},
      {"--border", "kernel nick ref.png k.png --backend cpu --border wrap", false,
       "--border applies to smooth only"},
      {"--border", "--border zero", false, "expected clip or wrap"},
      {"--variant", "kernel smooth,nick ref.png k.png --variant tile", false,
       "cannot be given with the chain smooth,nick"},
      {"--backend", "--json", false, "", prints("/backend", "cpu")},
      {"--backend", "kernel smooth ref.png k.png --backend gpu", false, "unknown backend 'gpu'"},
      {"--json", "--json", false, "", prints("/kernel", "smooth")},
      {"--list-variants", "kernel --list-variants", false, "", says("smooth")},
      {"--list-variants", "kernel --list-variants --json", false, "excludes"},
  };
}

// The rows of `mad bench`. Base: the quick run of the combine group (CPU rows only here; with a
// GPU its GPU rows too), in seconds.
std::vector<Row> bench_rows() {
  const auto report = [] { return json(text("out.json")); };
  const std::string base = "bench --quick --kernels combine";
  return {
      {"--kernels", "--format json", false, "",
       [](auto& r) {
         ok(r);
         const auto doc = printed_json(r);
         for (const auto& row : doc["rows"]) EXPECT_EQ(row["group"], "combine");
       }},
      {"--kernels", "bench --quick --kernels combine,nope", false, "nope"},
      {"--sizes", "bench --quick --kernels gray --sizes 40x36 --format csv", false, "",
       says(",40,36,")},
      {"--sizes", "--sizes 0x5", false, "--sizes"},
      {"--windows", "bench --quick --kernels nick --sizes 40x36 --windows 2,5 --format csv", false,
       "",
       [](auto& r) {
         ok(r);
         EXPECT_NE(r.out.find("nick,w=2,"), std::string::npos) << r.out;
         EXPECT_NE(r.out.find("nick,w=5,"), std::string::npos) << r.out;
         EXPECT_EQ(r.out.find("nick,w=3,"), std::string::npos) << r.out;  // the quick sweep's
       }},
      {"--windows", "--windows 017", false, "plain decimal"},
      {"--windows", "--windows 102", false, "2..101"},
      {"--windows", "bench --study seed002-nick-blocks --windows 5", false, "--windows"},
      {"--nick-cpu",
       "bench --quick --kernels nick --sizes 40x36 --windows 5 --nick-cpu window-loop --format csv",
       false, "", says("the seed's window loop")},
      {"--nick-cpu", "--nick-cpu fast", false, "--nick-cpu"},
      {"--repeat", "bench --quick --kernels gray --sizes 40x36 --repeat 7 --format json", false, "",
       [](auto& r) {  // every row, CPU and GPU: the quick budget alone gives the CPU rows 2
         ok(r);
         const auto doc = printed_json(r);
         ASSERT_FALSE(doc["rows"].empty());
         for (const auto& row : doc["rows"]) EXPECT_EQ(row["runs"], 7) << row.dump();
       }},
      {"--repeat", "--repeat 0", false, "leave --repeat out"},
      {"--precision", "--precision float", false, "--kernels selects none of them"},
      {"--precision", "bench --quick --kernels fft --sizes 40x36 --precision float --format json",
       true, "only the CPU reference runs",
       [](auto& r) {
         ok(r);
         const auto doc = printed_json(r);
         int gpu_rows = 0;
         for (const auto& row : doc["rows"])
           if (row["backend"] == "cuda") {
             ++gpu_rows;
             EXPECT_EQ(row["precision"], "float");
           }
         EXPECT_GT(gpu_rows, 0);
       }},
      {"--precision", "--precision half", false, "--precision"},
      {"--format", "--format csv", false, "", says("group,case")},
      {"--format", "--format xml", false, "--format"},
      {"--html", "--html rep.html", false, "",
       [](auto& r) {
         ok(r);
         EXPECT_NE(text("rep.html").find("<html"), std::string::npos);
       }},
      {"--markdown", "--markdown out.csv", false, "",
       [](auto& r) {
         ok(r);
         EXPECT_NE(text("out.csv").find("|"), std::string::npos);
       }},
      {"--quick", base + " --format json", false, "", says("\"quick\": true")},
      {"--summary-from",
       base + " --format json > out.json && " + MAD_BINARY +
           " bench --summary-from out.json --html rep.html",
       false, "",
       [report](auto& r) {
         ok(r);
         EXPECT_FALSE(report()["rows"].empty());
         EXPECT_NE(text("rep.html").find("<html"), std::string::npos);
       }},
      {"--summary-from", "bench --summary-from out.json --quick", false, "--summary-from"},
      {"--study", "bench --study seed002-nick-blocks --quick --format json", false, "",
       [](auto& r) {
         ok(r);
         const auto doc = printed_json(r);
         EXPECT_EQ(doc["studies"][0]["name"], "seed002-nick-blocks");
       }},
      {"--study", "bench --study nope", false, "seed001-histogram-images"},
      {"--study", "bench --study seed002-nick-blocks --sizes 64x64", false, "--sizes"},
      {"--list-studies", "bench --list-studies", false, "", says("seed002-nick-windows")},
      {"--list-studies", "bench --list-studies --quick", false, "--list-studies"},
  };
}

TEST_F(OptionEffects, Kernel) {
  walk("kernel smooth ref.png k.png --backend cpu", kernel_rows());
}

TEST_F(OptionEffects, Bench) {
  walk("bench --quick --kernels combine", bench_rows());
}

// The tables above cover every option the parsers know.
TEST(OptionEffectsTables, NameEveryOption) {
  CLI::App root{"mad"};
  const cli::Subcommand score = cli::add_score_command(root);
  const cli::Subcommand eval = cli::add_eval_command(root);
  const cli::Subcommand kernel = cli::add_kernel_command(root);
  const cli::Subcommand bench = cli::add_bench_command(root);
  std::set<std::string> score_names, eval_names, kernel_names, bench_names;
  for (const Row& row : score_rows("")) score_names.insert(row.option);
  for (const Row& row : eval_rows()) eval_names.insert(row.option);
  for (const Row& row : kernel_rows()) kernel_names.insert(row.option);
  for (const Row& row : bench_rows()) bench_names.insert(row.option);
  for (const auto& [cmd, names] : {std::pair{score.app, score_names},
                                   {eval.app, eval_names},
                                   {kernel.app, kernel_names},
                                   {bench.app, bench_names}})
    for (const CLI::Option* opt : cmd->get_options()) {
      if (opt == cmd->get_help_ptr()) continue;
      EXPECT_TRUE(names.count(opt->get_name())) << cmd->get_name() << " " << opt->get_name();
    }
}

}  // namespace
}  // namespace mad
