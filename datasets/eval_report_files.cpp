#include "datasets/eval_report_files.h"

#include <filesystem>
#include <utility>

#include "common/error.h"
#include "common/text_file.h"
#include "mad/results/results_settings.h"

namespace mad::datasets {
namespace fs = std::filesystem;
namespace {

// One spelling of a path, so that "a/x.csv" and "./a/../a/x.csv" are seen as one file.
std::string same_file_key(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec);
  return (ec ? fs::path(path) : p).lexically_normal().string();
}

}  // namespace

std::vector<ReportSideFile> report_side_files(const std::string& html) {
  if (html.empty()) return {};
  const auto beside = [&html](const char* suffix) {
    return fs::path(html).replace_extension(suffix).string();
  };
  return {{beside(".figure.svg"), report_figure_svg},
          {beside(".types.csv"), report_table_csv},
          {beside(".types.tex"), report_table_latex}};
}

void check_report_files(const std::string& out, const std::string& json, const std::string& html,
                        bool replace) {
  // Each file the run writes, with the option (or rule) that names it; a later one may not be
  // an earlier one.
  std::vector<std::pair<std::string, std::string>> files = {
      {out, "the results file (--out)"}, {results::settings_path(out), "the results' settings record"}};
  if (!json.empty()) files.push_back({json, "--json"});
  if (!html.empty()) files.push_back({html, "--html"});
  const std::vector<ReportSideFile> side = report_side_files(html);
  for (const ReportSideFile& f : side) files.push_back({f.path, "a file beside --html"});
  for (std::size_t i = 2; i < files.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (same_file_key(files[i].first) == same_file_key(files[k].first))
        throw InvalidArgument("'" + files[i].first + "' would be both " + files[k].second +
                              " and " + files[i].second +
                              ", and one would overwrite the other: give them different names");
  if (replace) return;
  std::error_code ec;
  for (const ReportSideFile& f : side)
    if (fs::exists(f.path, ec))
      throw InvalidArgument("'" + f.path + "' exists, and --html " + html +
                            " writes it (the report's figure and table beside it): pass --force "
                            "to replace it, or name the report otherwise");
}

void write_report_files(const EvalReport& r, const std::string& json, const std::string& html,
                        std::FILE* log) {
  if (!json.empty()) write_text_file(json, report_to_json(r).dump(2) + "\n");
  if (html.empty()) return;
  write_text_file(html, report_to_html(r));
  for (const ReportSideFile& f : report_side_files(html)) {
    const std::string text = f.render(r);
    if (text.empty()) continue;
    write_text_file(f.path, text);
    if (log) std::fprintf(log, "mad eval: wrote %s\n", f.path.c_str());
  }
}

}  // namespace mad::datasets
