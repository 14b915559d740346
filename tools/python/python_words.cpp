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

void register_errors(py::module_& m) {
  static py::exception<Error> error(m, "Error", PyExc_RuntimeError);
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  static py::exception<InvalidArgument> invalid_argument(m, "InvalidArgument", PyExc_ValueError);
  static py::exception<GpuError> gpu_error(m, "GpuError", PyExc_RuntimeError);
  input_error.doc() = "An image MAD cannot score (unreadable, wrong shape or dtype, too small).";
  invalid_argument.doc() = "An option value MAD refuses, or options that contradict each other.";
  gpu_error.doc() = "A CUDA failure, or the CUDA backend asked for where there is none.";
  // The most derived classes first: a GpuError is also an Error.
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(input_error.ptr(), python_words(e.what()).c_str());
    } catch (const InvalidArgument& e) {
      PyErr_SetString(invalid_argument.ptr(), python_words(e.what()).c_str());
    } catch (const GpuError& e) {
      PyErr_SetString(gpu_error.ptr(), python_words(e.what()).c_str());
    } catch (const Error& e) {
      PyErr_SetString(error.ptr(), python_words(e.what()).c_str());
    }
  });
}

}  // namespace mad::python
