// libFuzzer target: the `mad score --pairs LIST.csv` reader (mad/results/pairs_list.h, with the
// CSV splitter of mad/results/csv.h). read_pairs_list takes a path, so the input is written to a
// scratch file first. A list must give rows (malformed rows carry an error and their raw fields) or an
// InputError; rows come in file order with 1-based line numbers.
// Seeds: tests/fuzz/corpus/pairs_list/.
#include <cstddef>
#include <cstdint>

#include "common/error.h"
#include "mad/results/csv.h"
#include "mad/results/pairs_list.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mad;
  static const auto list = fuzz::scratch_dir() / "pairs.csv";
  const std::string path = fuzz::write_file(list, data, size);
  std::vector<results::PairRow> rows;
  try {
    rows = results::read_pairs_list(path);
  } catch (const InputError&) {
    return 0;
  }
  int previous = 0;
  for (const auto& r : rows) {
    fuzz::require(r.line > previous, "rows come in file order with increasing line numbers");
    previous = r.line;
    if (r.error.empty())
      fuzz::require(!r.ref.empty() && !r.dist.empty(), "a row without error has both paths");
    // The results CSV echoes these paths: the writer must quote them into one record that
    // reads back unchanged.
    const std::vector<std::string> fields = {r.ref, r.dist, r.error};
    const std::string record = results::join_csv(fields);
    if (record.find_first_of("\r\n") == std::string::npos)
      fuzz::require(results::split_csv_line(record) == fields, "join_csv round-trips");
  }
  return 0;
}
