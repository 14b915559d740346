#include "python_words.h"

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "mad/scoring_options.h"

namespace py = pybind11;

namespace mad::python {

namespace {

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

}  // namespace

// A plain scan, not std::regex: the module shares its process with extensions that bring their
// own, older libstdc++ (numpy's wheel in the GPU machine's torch environment); imported after
// them, std::regex's first use crashed the interpreter there.
std::string python_words(const std::string& message) {
  // The options Python takes as keywords: the scoring options' (their table), and threads.
  static const std::vector<std::pair<std::string, std::string>> kKeywords = [] {
    std::vector<std::pair<std::string, std::string>> k;
    for (const ScoringOption& row : scoring_options())
      if (*row.python) k.emplace_back(std::string(row.cli).substr(2), row.python);
    k.emplace_back("threads", "threads");
    return k;
  }();
  std::string out;
  std::size_t i = 0;
  while (i < message.size()) {
    const std::size_t dashes = message.find("--", i);
    if (dashes == std::string::npos) break;
    out.append(message, i, dashes - i);
    i = dashes + 2;
    const std::pair<std::string, std::string>* match = nullptr;
    for (const auto& k : kKeywords) {
      const std::size_t n = k.first.size();
      // The whole option name: not a prefix of a longer one.
      if (message.compare(i, n, k.first) == 0 &&
          (i + n == message.size() || !word_char(message[i + n])))
        match = &k;
    }
    if (!match) {
      out += "--";
      continue;
    }
    i += match->first.size();
    out += match->second + "=";
    // Its value when one follows: a space, then letters, digits, '.' or '_'. Numbers stay bare
    // (mad_version=2010, threads=2), words are quoted (backend="cuda").
    std::size_t end = i + 1;
    while (end < message.size() && (word_char(message[end]) || message[end] == '.')) ++end;
    if (i < message.size() && message[i] == ' ' && end > i + 1) {
      const std::string value = message.substr(i + 1, end - i - 1);
      const bool numeric = value.find_first_not_of("0123456789") == std::string::npos;
      out += numeric ? value : "\"" + value + "\"";
      i = end;
    }
  }
  if (i < message.size()) out.append(message, i, std::string::npos);
  return out;
}

namespace {
// The module's exception types (owned by pybind11 for the life of the process), for the
// translator below, which can capture nothing.
PyObject *error_type, *input_error_type, *invalid_argument_type, *gpu_error_type;
}  // namespace

void register_errors(py::module_& m) {
  // The types through py::register_exception (pybind11 keeps them for the process), then one
  // translator, registered last so that it is tried first, that puts each message in Python's
  // words.
  error_type = py::register_exception<Error>(m, "Error", PyExc_RuntimeError).ptr();
  auto& input = py::register_exception<InputError>(m, "InputError", PyExc_ValueError);
  auto& invalid = py::register_exception<InvalidArgument>(m, "InvalidArgument", PyExc_ValueError);
  auto& gpu = py::register_exception<GpuError>(m, "GpuError", PyExc_RuntimeError);
  input.doc() = "An image MAD cannot score (unreadable, wrong shape or dtype, too small).";
  invalid.doc() = "An option value MAD refuses, or options that contradict each other.";
  gpu.doc() = "A CUDA failure, or the CUDA backend asked for where there is none.";
  input_error_type = input.ptr();
  invalid_argument_type = invalid.ptr();
  gpu_error_type = gpu.ptr();
  // The most derived classes first: a GpuError is also an Error.
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(input_error_type, python_words(e.what()).c_str());
    } catch (const InvalidArgument& e) {
      PyErr_SetString(invalid_argument_type, python_words(e.what()).c_str());
    } catch (const GpuError& e) {
      PyErr_SetString(gpu_error_type, python_words(e.what()).c_str());
    } catch (const Error& e) {
      PyErr_SetString(error_type, python_words(e.what()).c_str());
    }
  });
}

}  // namespace mad::python
