#include "mad/results/pairs_output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "common/error.h"
#include "mad/results/csv.h"
#include "mad/results/result_json.h"

namespace mad::results {

namespace {
ResultsKind kind_of(const PairsOutputOptions& o) {
  return o.json ? ResultsKind::JsonLines : o.csv_kind;
}
}  // namespace

std::string pairs_row_text(bool json, int line, const std::string& ref, const std::string& dist,
                           const ScoreResult* r, const std::string& error,
                           const std::string& backend_reason) {
  if (!json) return join_csv(pairs_csv_row(ref, dist, r, error, backend_reason, line));
  nlohmann::json j = result_object(ref, dist, r, error, backend_reason);
  j["line"] = line;
  return j.dump();
}

PairsOutput::PairsOutput(const PairsOutputOptions& options, const RunSettings& settings)
    : options_(options), settings_(settings) {
  std::error_code ec;
  if (options_.out.empty() || !options_.resume || !std::filesystem::exists(options_.out, ec))
    return;
  previous_ = read_results_file(options_.out, kind_of(options_));
  if (!previous_.rows.empty())
    require_same_settings(options_.out, settings_, options_.words.force, options_.words.out);
  for (std::size_t i = 0; i < previous_.rows.size(); ++i) {
    const FinishedRow& row = previous_.rows[i];
    if (row.line > 0)
      by_line_.emplace(row.line, i);  // a second row of one line (never written) stays unused
    else
      ++by_pair_[{row.ref, row.dist}];
  }
}

bool PairsOutput::take_finished(const PairRow& row) {
  if (!row.error.empty()) return false;
  const auto it = by_line_.find(row.line);
  if (it != by_line_.end()) {
    const FinishedRow& done = previous_.rows[it->second];
    if (done.ref != row.ref || done.dist != row.dist)
      throw InvalidArgument("'" + options_.out + "' holds, for line " + std::to_string(row.line) +
                            " of the list, the pair " + done.ref + ", " + done.dist +
                            "; the list's line " + std::to_string(row.line) + " is now " +
                            row.ref + ", " + row.dist +
                            ": the list changed since that run. Resume with the list it was "
                            "made from, pass " + options_.words.force +
                            " to score everything again, or write to another " +
                            options_.words.out);
    done_lines_.emplace(row.line, it->second);
    return true;
  }
  const auto legacy = by_pair_.find({row.ref, row.dist});
  if (legacy == by_pair_.end() || legacy->second == 0) return false;
  --legacy->second;
  done_lines_.emplace(row.line, previous_.find({row.ref, row.dist}) - previous_.rows.data());
  return true;
}

void PairsOutput::open(const std::string& list_path) {
  for (const auto& [line, index] : by_line_)
    if (!done_lines_.count(line))
      throw InvalidArgument("'" + options_.out + "' holds a row for line " +
                            std::to_string(line) + " (" + previous_.rows[index].dist + ") but " +
                            list_path +
                            " has no pair on that line: it was made from another list. Resume "
                            "with that list, pass " + options_.words.force +
                            " to start over, or write to another " + options_.words.out);
  if (options_.out.empty()) {
    if (!options_.json) write_line(join_csv(results_header(kind_of(options_))));
    return;
  }
  std::error_code ec;
  if (options_.resume && std::filesystem::exists(options_.out, ec)) {
    file_.emplace(ResultsWriter::resume(options_.out, previous_, kind_of(options_)));
    if (!options_.quiet)
      std::fprintf(stderr, "mad: %zu pair(s) already in %s%s\n", previous_.rows.size(),
                   options_.out.c_str(),
                   previous_.failed_rows ? " (the failed ones are scored again)" : "");
  } else {
    file_.emplace(ResultsWriter::create(options_.out, options_.force, kind_of(options_),
                                                 options_.words.resume, options_.words.force));
  }
  write_settings(options_.out, settings_);
}

const FinishedRow* PairsOutput::finished_row(int line) const {
  const auto it = done_lines_.find(line);
  return it == done_lines_.end() ? nullptr : &previous_.rows[it->second];
}

void PairsOutput::write(int line, const std::string& ref, const std::string& dist,
                        const ScoreResult* r, const std::string& error,
                        const std::string& backend_reason) {
  write_line(pairs_row_text(options_.json, line, ref, dist, r, error, backend_reason));
}

void PairsOutput::write_line(const std::string& line) {
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

}  // namespace mad::results
