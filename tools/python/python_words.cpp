#include "python_words.h"

#include <regex>

#include "common/error.h"

namespace py = pybind11;

namespace mad::python {

std::string python_words(const std::string& message) {
  // The keyword, then its value when one follows (a word of letters, digits, '.' or '_').
  static const std::regex flag(
      R"(--(backend|precision|input-class|mad-version|threads)\b( ([A-Za-z0-9_.]+))?)");
  std::string out;
  auto last = message.cbegin();
  for (std::sregex_iterator it(message.begin(), message.end(), flag), end; it != end; ++it) {
    const std::smatch& m = *it;
    out.append(last, m[0].first);
    std::string name = m[1].str();
    for (char& c : name)
      if (c == '-') c = '_';
    const bool numeric = name == "mad_version" || name == "threads";
    out += name + "=";
    if (m[3].matched) out += numeric ? m[3].str() : "\"" + m[3].str() + "\"";
    last = m[0].second;
  }
  out.append(last, message.cend());
  return out;
}

namespace {
// The module's exception types (owned by pybind11 for the life of the process), for the
// translator below, which can capture nothing.
PyObject *error_type, *input_error_type, *invalid_argument_type, *gpu_error_type;
}  // namespace

void register_errors(py::module_& m) {
  // The types through py::register_exception (pybind11 keeps them for the process; a
  // function-local static py::exception crashed the first translation with the GIL released
  // under pybind11 3.1 / Python 3.12 on the GPU machine), then one translator, registered last
  // so that it is tried first, that puts each message in Python's words.
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
  python_words("");  // builds its pattern now, not inside the first translation
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
