// The table of scoring options (mad/scoring_options.h): each row applies its value, records the
// value a results file keeps, is refused where its backend does not run, and docs/cli.md's
// option table is the one the code generates.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "common/error.h"
#include "mad/scoring_options.h"
#include "mad/variants.h"
#include "tests/support/given_options.h"

namespace mad {
namespace {

using test::given;

std::string recorded(const ScoreOptions& o, Backend b, const std::string& key) {
  for (const auto& [k, v] : recorded_settings(o, b))
    if (k == key) return v;
  ADD_FAILURE() << "no settings key " << key;
  return {};
}

// What each row sets: a value other than the default reaches ScoreOptions.
TEST(ScoringOptions, EveryScoreOptionIsApplied) {
  const ScoreOptions o = apply_scoring_options(given({{"--backend", "cpu"},
                                                      {"--mad-version", "2010"},
                                                      {"--input-class", "double"},
                                                      {"--precision", "float"},
                                                      {"--a5", "a5-direct"},
                                                      {"--det-variant", "det-original"},
                                                      {"--subband-transform", "cufft"},
                                                      {"--gpu-memory-limit", "1KiB"}}));
  EXPECT_EQ(o.backend, Backend::Cpu);
  EXPECT_EQ(o.version, MadVersion::V2010);
  EXPECT_EQ(o.input_class, InputClass::Double);
  EXPECT_EQ(o.precision, Precision::Float);
  EXPECT_EQ(variant_name(VariantFamily::A5, o.a5_variant), "a5-direct");
  EXPECT_EQ(variant_name(VariantFamily::Detection, o.det_variant), "det-original");
  EXPECT_EQ(variant_name(VariantFamily::SubbandTransform, o.subband_transform), "cufft");
  EXPECT_EQ(o.gpu_memory_limit, 1024u);
  // Every Score row was given above: a new one needs its line here.
  std::size_t score_rows = 0;
  for (const ScoringOption& row : scoring_options())
    score_rows += row.target == OptionTarget::Score;
  EXPECT_EQ(score_rows, 8u);
}

// A row's written default is ScoreOptions' default: applying it changes no recorded setting.
TEST(ScoringOptions, WrittenDefaultsAreTheDefaults) {
  for (const ScoringOption& row : scoring_options()) {
    if (row.target != OptionTarget::Score || !*row.default_value) continue;
    ScoreOptions o;
    row.apply(o, row.default_value);
    for (Backend b : {Backend::Cpu, Backend::Cuda})
      EXPECT_EQ(recorded_settings(o, b), recorded_settings(ScoreOptions{}, b)) << row.cli;
  }
}

TEST(ScoringOptions, BadValuesAreRefusedNamingTheAcceptedOnes) {
  test::expect_each_refused([](const GivenOptions& g) { apply_scoring_options(g); },
                            {"--backend=gpu", "--mad-version=2012", "--a5=a5-nonexistent",
                             "--subband-transform=fft", "--gpu-memory-limit=lots"});
  EXPECT_THROW(scoring_option("--no-such-option"), Error);
}

// Variants are recorded by the name that runs, on the GPU; the CPU has none.
TEST(ScoringOptions, SettingsRecordWhatRan) {
  ScoreOptions o;
  EXPECT_EQ(recorded(o, Backend::Cuda, "a5_variant"), variant_name(VariantFamily::A5, {}));
  EXPECT_EQ(recorded(o, Backend::Cuda, "subband_transform"), "default");
  EXPECT_EQ(recorded(o, Backend::Cpu, "a5_variant"), "none");
  EXPECT_EQ(recorded(o, Backend::Cpu, "det_variant"), "none");
  o.precision = Precision::Float;
  EXPECT_EQ(recorded(o, Backend::Cuda, "precision"), "float");
  EXPECT_EQ(recorded(o, Backend::Cpu, "precision"), "double");
  EXPECT_EQ(recorded(o, Backend::Cuda, "backend"), "cuda");
  o.version = MadVersion::V2010;
  o.input_class = InputClass::Uint8;
  EXPECT_EQ(recorded(o, Backend::Cpu, "mad_version"), "2010");
  EXPECT_EQ(recorded(o, Backend::Cpu, "input_class"), "uint8");
  // The keys are unique, and only options that change a score have one.
  std::set<std::string> keys;
  for (const auto& [key, value] : recorded_settings(o, Backend::Cpu))
    EXPECT_TRUE(keys.insert(key).second) << key;
  EXPECT_EQ(keys.count("gpu_memory_limit"), 0u);
}

BackendChoice cpu_requested() {
  return BackendChoice{ResolvedBackend(Backend::Cpu), /*requested=*/true, /*compiled=*/true,
                       "requested"};
}

BackendChoice cuda_found() {
  return BackendChoice{ResolvedBackend(Backend::Cuda), /*requested=*/false, /*compiled=*/true,
                       "auto: CUDA device found (H200)"};
}

std::string refusal(const GivenOptions& g, const BackendChoice& c) {
  try {
    refuse_unhonoured(g, c);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "";
}

TEST(ScoringOptions, OptionsTheBackendDoesNotHonourAreRefused) {
  const BackendChoice cpu = cpu_requested(), cuda = cuda_found();
  EXPECT_EQ(refusal(given({{"--precision", "float"}}), cpu),
            "--precision float needs the CUDA backend; this run uses the CPU because --backend "
            "cpu was given (the CPU computes in double: drop --precision float, or use --backend "
            "cuda on a machine with a GPU)");
  EXPECT_EQ(refusal(given({{"--precision", "double"}}), cpu), "");  // the CPU's own
  for (const char* name : {"--a5", "--det-variant", "--subband-transform", "--gpu-memory-limit",
                           "--gpus", "--workers-per-gpu"}) {
    EXPECT_NE(refusal(given({{name, "x"}}), cpu).find(std::string(name) + " "), std::string::npos);
    EXPECT_NE(refusal(given({{name, "x"}}), cpu).find("needs the CUDA backend"), std::string::npos);
    EXPECT_EQ(refusal(given({{name, "x"}}), cuda), "") << name;
  }
  EXPECT_NE(refusal(given({{"--a5", "a5-direct"}}), cpu).find("--a5 picks a GPU kernel"),
            std::string::npos);
  const std::string cpu_workers = refusal(given({{"--cpu-workers", "2"}}), cuda);
  EXPECT_NE(cpu_workers.find("needs the CPU backend; this run uses the CUDA backend (auto: CUDA"),
            std::string::npos)
      << cpu_workers;
  EXPECT_EQ(refusal(given({{"--cpu-workers", "2"}}), cpu), "");
  for (const char* name : {"--backend", "--mad-version", "--input-class"}) {
    EXPECT_EQ(refusal(given({{name, "x"}}), cpu), "") << name;
    EXPECT_EQ(refusal(given({{name, "x"}}), cuda), "") << name;
  }
  // A GPU-only option asks for the GPU (a lone pair's size then no longer decides).
  EXPECT_TRUE(needs_cuda(given({{"--det-variant", "det-fast"}})));
  EXPECT_TRUE(needs_cuda(given({{"--precision", "float"}})));
  EXPECT_FALSE(needs_cuda(given({{"--precision", "double"}, {"--mad-version", "2010"}})));
  // Python's words: the subject is the scorer.
  try {
    refuse_unhonoured(given({{"--precision", "float"}}), cpu, "this scorer");
    ADD_FAILURE() << "not refused";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("; this scorer uses the CPU"), std::string::npos);
  }
}

// docs/cli.md holds options_markdown() between its two marker lines: a row changed in the table
// and not in the docs (or the reverse) fails here, printing the table to paste.
TEST(ScoringOptions, DocsTableIsTheGeneratedOne) {
  std::ifstream in(std::string(MAD_SOURCE_DIR) + "/docs/cli.md");
  const std::string doc(std::istreambuf_iterator<char>(in), {});
  ASSERT_FALSE(doc.empty()) << "docs/cli.md not found";
  const std::string begin = "<!-- scoring-options: generated by options_markdown() -->\n";
  const std::string end = "<!-- scoring-options: end -->";
  const std::size_t from = doc.find(begin);
  ASSERT_NE(from, std::string::npos) << "docs/cli.md lacks the line " << begin;
  const std::size_t to = doc.find(end, from);
  ASSERT_NE(to, std::string::npos) << "docs/cli.md lacks the line " << end;
  const std::string in_doc = doc.substr(from + begin.size(), to - from - begin.size());
  EXPECT_EQ(in_doc, options_markdown())
      << "docs/cli.md's scoring-option table differs from mad/scoring_options.cpp; paste:\n"
      << options_markdown();
}

}  // namespace
}  // namespace mad
