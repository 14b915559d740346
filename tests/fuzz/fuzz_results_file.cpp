// libFuzzer target: the results.csv reader behind `mad eval --resume`
// (mad/results/results_file.h), and the rewrite that --resume performs with what it read.
// Property: a file that reads without error, rewritten by ResultsWriter::resume, reads back
// with the same finished rows, in order, and scores (bit for bit) and nothing else: no failed
// rows, no partial line (a pair's repeated rows stay: each is a line of a pairs list). Any bytes must give a log or an InputError.
// Seeds: tests/fuzz/corpus/results_file/.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/error.h"
#include "mad/results/results_file.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mad;
  using results::ResultsLog;
  static const auto file = fuzz::scratch_dir() / "results.csv";
  const std::string path = fuzz::write_file(file, data, size);
  ResultsLog log;
  try {
    log = results::read_results_file(path);
  } catch (const InputError&) {
    return 0;
  }
  { results::ResultsWriter writer = results::ResultsWriter::resume(path, log); }
  const ResultsLog again = results::read_results_file(path);
  fuzz::require(again.failed_rows == 0 && !again.dropped_partial_line,
                "a resumed file holds finished rows only");
  fuzz::require(again.rows.size() == log.rows.size() &&
                    again.duplicate_rows == log.duplicate_rows,
                "resume keeps every finished row, repeated pairs included");
  for (std::size_t i = 0; i < log.rows.size(); ++i) {
    fuzz::require(std::memcmp(&again.rows[i].mad, &log.rows[i].mad, sizeof(double)) == 0,
                  "resume keeps the scores bit for bit, in order");
    fuzz::require(again.rows[i].fields == log.rows[i].fields, "resume keeps every field");
  }
  return 0;
}
