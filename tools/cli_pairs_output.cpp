#include "tools/cli_pairs_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "common/error.h"
#include "datasets/csv.h"
#include "mad/result_json.h"

namespace mad::cli {

nlohmann::json result_object(const std::string& ref, const std::string& dist, const ScoreResult* r,
                             const std::string& error, const std::string& backend_reason) {
  nlohmann::json j;
  if (r) j = result_to_json(*r);
  j["backend_reason"] = backend_reason;
  j["ref"] = ref;
  j["dist"] = dist;
  if (!r) j["error"] = error;
  return j;
}

namespace {
datasets::ResultsKind kind_of(const PairsOutputOptions& o) {
  return o.json ? datasets::ResultsKind::JsonLines : datasets::ResultsKind::Pairs;
}
}  // namespace

PairsOutput::PairsOutput(const PairsOutputOptions& options, const datasets::RunSettings& settings)
    : options_(options), settings_(settings) {
  std::error_code ec;
  if (options_.out.empty() || !options_.resume || !std::filesystem::exists(options_.out, ec))
    return;
  previous_ = datasets::read_results_file(options_.out, kind_of(options_));
  if (!previous_.rows.empty()) datasets::require_same_settings(options_.out, settings_);
  for (std::size_t i = 0; i < previous_.rows.size(); ++i) {
    const datasets::FinishedRow& row = previous_.rows[i];
    if (row.line > 0)
      by_line_.emplace(row.line, i);  // a second row of one line (never written) stays unused
    else
      ++by_pair_[{row.ref, row.dist}];
  }
}

bool PairsOutput::take_finished(const datasets::PairRow& row) {
  if (!row.error.empty()) return false;
  const auto it = by_line_.find(row.line);
  if (it != by_line_.end()) {
    const datasets::FinishedRow& done = previous_.rows[it->second];
    if (done.ref != row.ref || done.dist != row.dist)
      throw InvalidArgument("'" + options_.out + "' holds, for line " + std::to_string(row.line) +
                            " of the list, the pair " + done.ref + ", " + done.dist +
                            "; the list's line " + std::to_string(row.line) + " is now " +
                            row.ref + ", " + row.dist +
                            ": the list changed since that run. Resume with the list it was "
                            "made from, pass --force to score everything again, or write to "
                            "another --out");
    done_lines_.insert(row.line);
    return true;
  }
  const auto legacy = by_pair_.find({row.ref, row.dist});
  if (legacy == by_pair_.end() || legacy->second == 0) return false;
  --legacy->second;
  done_lines_.insert(row.line);
  return true;
}

void PairsOutput::open(const std::string& list_path) {
  for (const auto& [line, index] : by_line_)
    if (!done_lines_.count(line))
      throw InvalidArgument("'" + options_.out + "' holds a row for line " +
                            std::to_string(line) + " (" + previous_.rows[index].dist + ") but " +
                            list_path +
                            " has no pair on that line: it was made from another list. Resume "
                            "with that list, pass --force to start over, or write to another "
                            "--out");
  if (options_.out.empty()) {
    if (!options_.json) print(datasets::join_csv(datasets::results_header(kind_of(options_))));
    return;
  }
  std::error_code ec;
  if (options_.resume && std::filesystem::exists(options_.out, ec)) {
    file_.emplace(datasets::ResultsWriter::resume(options_.out, previous_, kind_of(options_)));
    if (!options_.quiet)
      std::fprintf(stderr, "mad: %zu pair(s) already in %s%s\n", previous_.rows.size(),
                   options_.out.c_str(),
                   previous_.failed_rows ? " (the failed ones are scored again)" : "");
  } else {
    file_.emplace(datasets::ResultsWriter::create(options_.out, options_.force, kind_of(options_)));
  }
  datasets::write_settings(options_.out, settings_);
}

void PairsOutput::write(int line, const std::string& ref, const std::string& dist,
                        const ScoreResult* r, const std::string& error,
                        const std::string& backend_reason) {
  if (options_.json) {
    nlohmann::json j = result_object(ref, dist, r, error, backend_reason);
    j["line"] = line;
    print(j.dump());
  } else {
    print(datasets::join_csv(datasets::pairs_csv_row(ref, dist, r, error, backend_reason, line)));
  }
}

void PairsOutput::print(const std::string& line) {
  if (file_) {
    file_->write_line(line);
    return;
  }
  errno = 0;
  std::cout << line << "\n" << std::flush;
  if (!std::cout)
    throw InputError(std::string("error while writing the results to standard output: ") +
                     (errno ? std::strerror(errno) : "an unknown write error"));
}

}  // namespace mad::cli
