// The library's messages in the Python module's words. The C++ core phrases its errors for the
// command line ("--backend cuda: no CUDA device is available"); a Python user passed
// backend="cuda", so every message that reaches Python names the keyword instead. Also
// registers the module's exception classes, which carry the rewritten messages.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace mad::python {

// Rewrites the options Python has as keywords (the scoring options' table, mad/scoring_options.h,
// and threads): "--backend cuda" -> backend="cuda", "--mad-version 2010" -> mad_version=2010,
// "--threads 2" -> threads=2, a bare "--threads" -> threads=. Options with no Python keyword
// (e.g. --gpu-memory-limit) are left as they are.
std::string python_words(const std::string& message);

// mad.Error (RuntimeError), mad.InputError and mad.InvalidArgument (ValueError), mad.GpuError
// (RuntimeError), each raised with python_words(what()).
void register_errors(pybind11::module_& m);

}  // namespace mad::python
