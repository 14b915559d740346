// mad.Result: one pair's ScoreResult with the reason its backend was chosen, as the command
// line reports them, and Result.to_dict(), the CLI's JSON object as a Python dict.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "mad/score.h"

namespace mad::python {

struct PyResult {
  ScoreResult result;
  std::string backend_reason;  // BackendChoice::reason of the scorer, as the CLI's JSON has it
};

// The CLI's JSON fields (mad/results/result_json.h) with their types, mad_version as an int, and
// backend_reason. JSON-serializable: floats, ints and strings only.
pybind11::dict result_dict(const PyResult& r);

void bind_result(pybind11::module_& m);

// An HxW float64 array of `image`'s values (a copy); None when it is empty.
pybind11::object image_array(const Image<double>& image);

}  // namespace mad::python
