#include "datasets/results_file.h"

#include <filesystem>

#include "common/error.h"
#include "datasets/csv.h"
#include "datasets/dataset_io.h"
#include "mad/result_json.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

int column(const std::vector<std::string>& header, const char* name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  throw Error(std::string("results header lacks ") + name);
}

bool ends_with_newline(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() <= 0) return true;
  in.seekg(-1, std::ios::end);
  return in.get() == '\n';
}

}  // namespace

const std::vector<std::string>& eval_csv_header() {
  static const std::vector<std::string> h = [] {
    std::vector<std::string> v = result_csv_header();
    v.insert(v.end(), {"subjective", "type", "level"});
    return v;
  }();
  return h;
}

std::vector<std::string> eval_csv_row(const DatasetEntry& entry, const ScoreResult* result,
                                      const std::string& error) {
  std::vector<std::string> row = result_csv_row(entry.ref_name, entry.dist_name, result, error);
  row.insert(row.end(), {format_double(entry.subjective), entry.type, entry.level});
  return row;
}

ResultsLog read_results_file(const std::string& path) {
  const std::vector<std::string>& header = eval_csv_header();
  const int ref_c = column(header, "ref"), dist_c = column(header, "dist"),
            mad_c = column(header, "mad"), err_c = column(header, "error"),
            ver_c = column(header, "mad_version"), be_c = column(header, "backend");
  const auto lines = read_lines(path);
  const bool complete = ends_with_newline(path);
  ResultsLog log;
  bool seen_header = false;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const auto& l = lines[k];
    if (trim(l.text).empty()) continue;
    const bool last = k + 1 == lines.size();
    std::vector<std::string> f;
    try {
      f = split_csv_line(l.text);
    } catch (const InputError& e) {
      if (last && !complete) {  // cut inside a quoted field
        log.dropped_partial_line = true;
        break;
      }
      throw_at(path, l.line, e.what());
    }
    if (!seen_header) {
      if (f != header)
        throw_at(path, l.line,
                 "not a results file of mad eval (expected the header " + join_csv(header) + ")");
      seen_header = true;
      continue;
    }
    if (f.size() != header.size()) {
      if (last && !complete) {
        log.dropped_partial_line = true;
        break;
      }
      throw_at(
          path, l.line,
          "expected " + std::to_string(header.size()) + " fields, got " + std::to_string(f.size()));
    }
    if (!f[err_c].empty()) {
      ++log.failed_rows;
      continue;
    }
    if (last && !complete) {  // all fields present but the line may still be cut short
      log.dropped_partial_line = true;
      break;
    }
    FinishedRow row;
    row.mad = parse_number(f[mad_c], path, l.line, "mad");
    row.mad_version = f[ver_c];
    row.backend = f[be_c];
    row.fields = std::move(f);
    const PairKey key{row.fields[ref_c], row.fields[dist_c]};
    if (!log.finished.emplace(key, std::move(row)).second) ++log.duplicate_rows;
  }
  if (!seen_header && !lines.empty() && !(lines.size() == 1 && !complete))
    throw InputError(path + ": no header line");
  return log;
}

ResultsWriter::ResultsWriter(std::string path, std::ios::openmode mode)
    : path_(std::move(path)), out_(path_, mode) {
  if (!out_) throw InputError("cannot write results file '" + path_ + "'");
}

ResultsWriter ResultsWriter::create(const std::string& path, bool overwrite) {
  std::error_code ec;
  if (!overwrite && fs::exists(path, ec) && fs::file_size(path, ec) > 0)
    throw InputError("'" + path +
                     "' exists: pass --resume to continue that run or --force to "
                     "replace it");
  ResultsWriter w(path, std::ios::out | std::ios::trunc);
  w.write(eval_csv_header());
  return w;
}

ResultsWriter ResultsWriter::resume(const std::string& path, const ResultsLog& log) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::out | std::ios::trunc);
    if (!out) throw InputError("cannot write '" + tmp + "'");
    out << join_csv(eval_csv_header()) << "\n";
    for (const auto& [key, row] : log.finished) out << join_csv(row.fields) << "\n";
    out.flush();
    if (!out) throw InputError("error while writing '" + tmp + "'");
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);  // atomic on one file system: the old file stays until then
  if (ec) throw InputError("cannot replace '" + path + "': " + ec.message());
  return ResultsWriter(path, std::ios::out | std::ios::app);
}

void ResultsWriter::write(const std::vector<std::string>& fields) {
  out_ << join_csv(fields) << "\n" << std::flush;
  if (!out_) throw InputError("error while writing '" + path_ + "'");
}

}  // namespace mad::datasets
