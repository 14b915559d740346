#include "mad/results/results_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "mad/results/csv.h"
#include "mad/results/text_file.h"
#include "mad/results/result_json.h"
#include "mad/results/video_results.h"

namespace mad::results {
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

std::vector<std::string> without(const std::vector<std::string>& header, const char* column) {
  std::vector<std::string> h;
  for (const auto& name : header)
    if (name != column) h.push_back(name);
  return h;
}

// The headers a file of `kind` may have: today's, then those of older versions (before `line`
// was added to mad score's rows, and before `backend_reason`).
// Video rows (VideoPairs) have only today's header.
std::vector<std::vector<std::string>> accepted_headers(const std::vector<std::string>& header,
                                                       ResultsKind kind) {
  if (kind == ResultsKind::VideoPairs) return {header};
  std::vector<std::vector<std::string>> h = {header, without(header, "backend_reason")};
  if (h[0].back() == "line") {
    h[1] = without(header, "line");
    h.push_back(without(h[1], "backend_reason"));
  }
  return h;
}

// Why the last stream operation failed, as the system says it ("No space left on device").
std::string system_reason() {
  return errno ? std::strerror(errno) : "an unknown write error";
}

// Adds a finished row to the log: every row is kept, the first of a pair is the one found.
void add_finished(ResultsLog& log, FinishedRow row) {
  const bool fresh = log.finished.emplace(PairKey{row.ref, row.dist}, log.rows.size()).second;
  if (!fresh) ++log.duplicate_rows;
  log.rows.push_back(std::move(row));
}

int line_number(const std::string& text, const std::string& path, int at) {
  if (text.empty()) return 0;
  const double v = parse_number(text, path, at, "line");
  if (v < 1 || v > 2e9 || v != static_cast<int>(v)) throw_at(path, at, "line must be a line number");
  return static_cast<int>(v);
}

// A row read under `file_header`, in today's columns (columns it lacks stay empty).
std::vector<std::string> in_todays_columns(std::vector<std::string> fields,
                                           const std::vector<std::string>& file_header,
                                           const std::vector<std::string>& header) {
  if (file_header == header) return fields;
  std::vector<std::string> out(header.size());
  for (std::size_t i = 0; i < header.size(); ++i)
    for (std::size_t k = 0; k < file_header.size(); ++k)
      if (file_header[k] == header[i]) out[i] = std::move(fields[k]);
  return out;
}

// A JSON Lines results file (mad score --pairs --json --out): objects with ref, dist and mad,
// or with error. A last line without its newline was cut short by an interruption.
ResultsLog read_json_lines(const std::string& path) {
  const auto lines = read_lines(path);
  const bool complete = ends_with_newline(path);
  ResultsLog log;
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const auto& l = lines[k];
    if (trim(l.text).empty()) continue;
    if (k + 1 == lines.size() && !complete) {
      log.dropped_partial_line = true;
      break;
    }
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(l.text);
    } catch (const nlohmann::json::exception&) {
      throw_at(path, l.line, "not a JSON object (expected one result of mad score --json a line)");
    }
    if (!j.is_object() || !j.contains("ref") || !j.contains("dist") || !j["ref"].is_string() ||
        !j["dist"].is_string())
      throw_at(path, l.line, "not a result of mad score --json (no ref and dist)");
    if (j.contains("error")) {
      ++log.failed_rows;
      continue;
    }
    if (!j.contains("mad") || !j["mad"].is_number())
      throw_at(path, l.line, "a result without a numeric mad");
    if (j.contains("line") && !j["line"].is_number_integer())
      throw_at(path, l.line, "line must be a line number");
    FinishedRow row;
    row.mad = j["mad"].get<double>();
    // A number since issue 28 (as --mad-version takes it); older files hold it as a string.
    const auto version = j.find("mad_version");
    if (version != j.end())
      row.mad_version = version->is_number() ? std::to_string(version->get<int>())
                                             : version->get<std::string>();
    row.backend = j.value("backend", "");
    row.fields = {l.text};
    row.ref = j["ref"].get<std::string>();
    row.dist = j["dist"].get<std::string>();
    row.line = j.value("line", 0);
    add_finished(log, std::move(row));
  }
  return log;
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

const FinishedRow* ResultsLog::find(const PairKey& key) const {
  const auto it = finished.find(key);
  return it == finished.end() ? nullptr : &rows[it->second];
}

const std::vector<std::string>& results_header(ResultsKind kind) {
  static const std::vector<std::string> none;
  static const std::vector<std::string> pairs = [] {
    std::vector<std::string> v = result_csv_header();
    v.push_back("line");
    return v;
  }();
  switch (kind) {
    case ResultsKind::Eval: return eval_csv_header();
    case ResultsKind::Pairs: return pairs;
    case ResultsKind::VideoPairs: return video_results_header();
    default: return none;
  }
}

std::vector<std::string> eval_csv_row(const std::string& ref, const std::string& dist,
                                      const ScoreResult* result, const std::string& error,
                                      const std::string& backend_reason,
                                      const EvalPairFields& pair) {
  std::vector<std::string> row = result_csv_row(ref, dist, result, error, backend_reason);
  row.insert(row.end(), {format_double(pair.subjective), pair.type, pair.level});
  return row;
}

std::vector<std::string> pairs_csv_row(const std::string& ref, const std::string& dist,
                                       const ScoreResult* result, const std::string& error,
                                       const std::string& backend_reason, int line) {
  std::vector<std::string> row = result_csv_row(ref, dist, result, error, backend_reason);
  row.push_back(std::to_string(line));
  return row;
}

ResultsLog read_results_file(const std::string& path, ResultsKind kind) {
  if (kind == ResultsKind::JsonLines) return read_json_lines(path);
  const std::vector<std::string>& header = results_header(kind);
  const std::vector<std::vector<std::string>> headers = accepted_headers(header, kind);
  const int line_c = header.back() == "line" ? static_cast<int>(header.size()) - 1 : -1;
  const int ref_c = column(header, "ref"), dist_c = column(header, "dist"),
            mad_c = column(header, kind == ResultsKind::VideoPairs ? "mad_mean" : "mad"), err_c = column(header, "error"),
            ver_c = column(header, "mad_version"), be_c = column(header, "backend");
  const auto lines = read_lines(path);
  const bool complete = ends_with_newline(path);
  ResultsLog log;
  const std::vector<std::string>* file_header = nullptr;
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
    if (!file_header) {
      for (const auto& h : headers)
        if (f == h) file_header = &h;
      if (!file_header)
        throw_at(path, l.line,
                 std::string("not a results file of ") +
                     (kind == ResultsKind::Eval         ? "mad eval"
                      : kind == ResultsKind::VideoPairs ? "mad video --pairs"
                                                        : "mad score --pairs") +
                     " (expected the header " + join_csv(header) + ")");
      continue;
    }
    if (f.size() != file_header->size()) {
      if (last && !complete) {
        log.dropped_partial_line = true;
        break;
      }
      throw_at(path, l.line,
               "expected " + std::to_string(file_header->size()) + " fields, got " +
                   std::to_string(f.size()));
    }
    f = in_todays_columns(std::move(f), *file_header, header);
    if (!f[err_c].empty()) {
      ++log.failed_rows;
      continue;
    }
    if (last && !complete) {  // all fields present but the line may still be cut short
      log.dropped_partial_line = true;
      break;
    }
    FinishedRow row;
    row.mad = parse_number(f[mad_c], path, l.line, header[mad_c].c_str());
    row.mad_version = f[ver_c];
    row.backend = f[be_c];
    row.ref = f[ref_c];
    row.dist = f[dist_c];
    if (line_c >= 0) row.line = line_number(f[line_c], path, l.line);
    row.fields = std::move(f);
    add_finished(log, std::move(row));
  }
  if (!file_header && !lines.empty() && !(lines.size() == 1 && !complete))
    throw InputError(path + ": no header line");
  return log;
}

ResultsWriter::ResultsWriter(std::string path, std::ios::openmode mode)
    : path_(std::move(path)), out_(path_, mode) {
  if (!out_) throw InputError("cannot write results file '" + path_ + "': " + system_reason());
}

ResultsWriter ResultsWriter::create(const std::string& path, bool overwrite, ResultsKind kind,
                                    const std::string& resume, const std::string& force) {
  std::error_code ec;
  if (!overwrite && fs::exists(path, ec) && fs::file_size(path, ec) > 0)
    throw InvalidArgument("'" + path + "' exists: pass " + resume + " to continue that run or " +
                          force + " to replace it");
  ResultsWriter w(path, std::ios::out | std::ios::trunc);
  if (!results_header(kind).empty()) w.write(results_header(kind));
  return w;
}

ResultsWriter ResultsWriter::resume(const std::string& path, const ResultsLog& log,
                                    ResultsKind kind) {
  {
    ResultsWriter copy = replacing(path, kind);
    const bool csv = !results_header(kind).empty();
    for (const FinishedRow& row : log.rows)  // every row already written stays, in its order
      copy.out_ << (csv ? join_csv(row.fields) : row.fields.front()) << "\n";
    copy.commit();  // the old file stays until the copy is whole
  }
  return ResultsWriter(path, std::ios::out | std::ios::app);
}

ResultsWriter ResultsWriter::replacing(const std::string& path, ResultsKind kind) {
  ReplacementFile temp(path);
  ResultsWriter w(temp.temp_path(), std::ios::out | std::ios::trunc);
  w.path_ = path;
  w.pending_.emplace(std::move(temp));
  if (!results_header(kind).empty()) w.out_ << join_csv(results_header(kind)) << "\n";
  return w;
}

void ResultsWriter::commit() {
  if (!pending_) throw InternalError("ResultsWriter::commit: not a replacing writer");
  errno = 0;
  out_.flush();
  if (!out_)
    throw InputError("error while writing '" + pending_->temp_path() + "': " + system_reason() +
                     " ('" + path_ + "' is unchanged)");
  out_.close();
  pending_->commit();
  pending_.reset();
}

void ResultsWriter::write(const std::vector<std::string>& fields) {
  write_line(join_csv(fields));
}

void ResultsWriter::write_line(const std::string& line) {
  errno = 0;
  out_ << line << "\n" << std::flush;
  if (!out_)
    throw InputError("error while writing '" + path_ + "': " + system_reason() +
                     " (the rows before this one are complete: free space, then --resume)");
}

}  // namespace mad::results
