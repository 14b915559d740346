// The files an eval report is written to: the JSON summary, the HTML report and, beside the
// report, what a paper takes as it is (eval_report_paper.cpp). Shared by `mad eval` and `mad
// merge` of eval shards, so both name, check and write them alike.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "datasets/eval_report.h"

namespace mad::datasets {

// A file written beside the HTML report: its path and what it holds.
struct ReportSideFile {
  std::string path;
  std::string (*render)(const EvalReport&);
};

// The side files of a report written to `html`, its name with the extension replaced:
// X.figure.svg (the figure), X.types.csv and X.types.tex (the agreement table). The middle word
// keeps them off the names users give the results and the summary (X.csv, X.json): with plain
// X.csv, `--out X.csv --html X.html` lost the results (issue 39). Empty for an empty `html`.
std::vector<ReportSideFile> report_side_files(const std::string& html);

// Refuses (InvalidArgument, exit 2), before anything is scored or written: a report file that
// is the results file `out`, its settings record or another report file (`json`, `html`, the
// side files); and an existing side file unless `replace` (--force, or --resume, which
// rewrites the report of the run it continues). The user named `json` and `html`, and they are
// replaced as before; the side files take names the user never typed.
void check_report_files(const std::string& out, const std::string& json, const std::string& html,
                        bool replace);

// Writes the JSON summary to `json` and the HTML report to `html` with its side files ("" =
// none), naming each side file on `log` (null = silent). Throws InputError when one cannot be
// written.
void write_report_files(const EvalReport& r, const std::string& json, const std::string& html,
                        std::FILE* log);

}  // namespace mad::datasets
