// The results room (mad/results) for the Python module: mad.dask writes and resumes the results
// file of `mad score --pairs LIST --out FILE` through the command line's own code, so that the
// format, the settings record and the resume rule exist once and either one resumes the
// other's file.
#pragma once

#include <pybind11/pybind11.h>

namespace mad::python {

// _PairsResults (a results file opened as `mad score --pairs` opens it), _pairs_row (one row's
// text) and _run_settings (the settings record of a scorer's options).
void bind_results(pybind11::module_& m);

}  // namespace mad::python
