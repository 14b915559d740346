#include "results_binding.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "mad/results/pairs_output.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "result_binding.h"

namespace py = pybind11;

namespace mad::python {
namespace {

using Rows = std::vector<std::pair<std::string, std::string>>;

results::RunSettings settings_of(const Rows& rows) {
  results::RunSettings s;
  for (const auto& [key, value] : rows) results::set_setting(s, key, value);
  return s;
}

// A results file of `mad score --pairs` (CSV), written or resumed from Python. The list is
// given pair by pair (take_finished) before open(), as the command line reads its list twice.
class PyPairsResults {
 public:
  PyPairsResults(const std::string& out, const Rows& settings, bool resume, bool force)
      : output_(options(out, resume, force), settings_of(settings)) {}

  // The finished row of the list's `line` (1-based) for the pair (ref, dist): (mad, hi, lo,
  // sig, width, height) as the file holds them, or None when the pair is still to score.
  py::object take_finished(int line, const std::string& ref, const std::string& dist) {
    results::PairRow row;
    row.line = line;
    row.ref = ref;
    row.dist = dist;
    if (!output_.take_finished(row)) return py::none();
    const results::FinishedRow& done = *output_.finished_row(line);
    const auto& header = results::results_header(results::ResultsKind::Pairs);
    const auto field = [&](const char* name) {
      return done.fields[std::find(header.begin(), header.end(), name) - header.begin()];
    };
    return py::make_tuple(done.mad, std::stod(field("hi")), std::stod(field("lo")),
                          std::stod(field("sig")), std::stoi(field("width")),
                          std::stoi(field("height")));
  }

  void open(const std::string& list_name) { output_.open(list_name); }

  void write(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) output_.write_line(line);
  }

  void close() { output_.close(); }

 private:
  static results::PairsOutputOptions options(const std::string& out, bool resume, bool force) {
    results::PairsOutputOptions o;
    o.out = out;
    o.resume = resume;
    o.force = force;
    o.quiet = true;  // a library says nothing on stderr
    o.words = {"resume=True", "force=True", "out"};
    return o;
  }

  results::PairsOutput output_;
};

}  // namespace

void bind_results(py::module_& m) {
  py::class_<PyPairsResults>(m, "_PairsResults",
                             "The results file of `mad score --pairs LIST --out FILE`, written "
                             "and resumed by the command line's rules (mad/results).")
      .def(py::init<const std::string&, const Rows&, bool, bool>(), py::arg("out"),
           py::arg("settings"), py::arg("resume"), py::arg("force"))
      .def("take_finished", &PyPairsResults::take_finished, py::arg("line"), py::arg("ref"),
           py::arg("dist"))
      .def("open", &PyPairsResults::open, py::arg("list_name"))
      .def("write", &PyPairsResults::write, py::arg("lines"))
      .def("close", &PyPairsResults::close);

  m.def(
      "_pairs_row",
      [](const std::string& ref, const std::string& dist, const py::object& result,
         const std::string& backend_reason, int line) {
        if (py::isinstance<py::str>(result))
          return results::pairs_row_text(false, line, ref, dist, nullptr,
                                         result.cast<std::string>(), backend_reason);
        const PyResult& r = result.cast<const PyResult&>();
        return results::pairs_row_text(false, line, ref, dist, &r.result, "", backend_reason);
      },
      py::arg("ref"), py::arg("dist"), py::arg("result"), py::arg("backend_reason"),
      py::arg("line"),
      "One row of a results file: `result` a mad.Result, or the message of a failed pair.");

  m.def(
      "_run_settings",
      [](const std::string& backend, int mad_version, const std::string& input_class,
         const std::string& precision) {
        ScoreOptions o;
        o.version = parse_mad_version(std::to_string(mad_version));
        o.input_class = parse_input_class(input_class);
        o.precision = parse_precision(precision);
        return results::setting_rows(results::run_settings(o, parse_backend(backend)));
      },
      py::arg("backend"), py::arg("mad_version"), py::arg("input_class"), py::arg("precision"),
      "The settings record, as (key, value) rows, of a scorer of these options on the resolved "
      "`backend`.");
}

}  // namespace mad::python
