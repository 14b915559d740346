// libFuzzer target: the results.csv reader behind `mad eval --resume`
// (datasets/results_file.h), and the rewrite that --resume performs with what it read.
// Property: a file that reads without error, rewritten by ResultsWriter::resume, reads back
// with the same finished pairs and scores (bit for bit) and nothing else: no failed rows, no
// duplicates, no partial line. Any bytes must give a log or an InputError.
// Seeds: tests/fuzz/corpus/results_file/.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/error.h"
#include "datasets/results_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mad;
  using datasets::ResultsLog;
  static const auto file = fuzz::scratch_dir() / "results.csv";
  const std::string path = fuzz::write_file(file, data, size);
  ResultsLog log;
  try {
    log = datasets::read_results_file(path);
  } catch (const InputError&) {
    return 0;
  }
  { datasets::ResultsWriter writer = datasets::ResultsWriter::resume(path, log); }
  const ResultsLog again = datasets::read_results_file(path);
  fuzz::require(again.failed_rows == 0 && again.duplicate_rows == 0 && !again.dropped_partial_line,
                "a resumed file holds finished rows only");
  fuzz::require(again.finished.size() == log.finished.size(), "resume keeps every finished pair");
  for (const auto& [key, row] : log.finished) {
    const auto it = again.finished.find(key);
    fuzz::require(it != again.finished.end(), "resume keeps every finished pair");
    fuzz::require(std::memcmp(&it->second.mad, &row.mad, sizeof row.mad) == 0,
                  "resume keeps the scores bit for bit");
    fuzz::require(it->second.fields == row.fields, "resume keeps every field");
  }
  return 0;
}
