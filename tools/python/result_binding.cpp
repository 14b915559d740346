#include "result_binding.h"

#include <pybind11/numpy.h>

#include <nlohmann/json.hpp>

#include "mad/results/result_json.h"

namespace py = pybind11;

namespace mad::python {
namespace {

// A year as an int (as mad_version= takes it); ST-MAD's scale by its name, "stmad".
py::object version_number(MadVersion v) {
  if (v == MadVersion::Stmad2011) return py::str(to_string(v));
  return py::int_(v == MadVersion::V2011 ? 2011 : 2010);
}

}  // namespace

py::object image_array(const Image<double>& map) {
  if (map.empty()) return py::none();
  py::array_t<double> out({map.height(), map.width()});
  auto w = out.mutable_unchecked<2>();
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) w(y, x) = map(y, x);
  return std::move(out);
}

namespace {

// A flat JSON object's scalar value as the Python object json.loads would give.
py::object scalar(const nlohmann::json& v) {
  if (v.is_number_float()) return py::float_(v.get<double>());
  if (v.is_number_unsigned()) return py::int_(v.get<std::uint64_t>());
  if (v.is_number_integer()) return py::int_(v.get<std::int64_t>());
  if (v.is_boolean()) return py::bool_(v.get<bool>());
  if (v.is_null()) return py::none();
  return py::str(v.get<std::string>());
}

std::string fmt(double v) {
  return py::repr(py::float_(v)).cast<std::string>();
}

}  // namespace

py::dict result_dict(const PyResult& r) {
  // From the CLI's own serializer, so the names cannot drift apart.
  const nlohmann::json json = results::result_to_json(r.result);  // a local: items() only borrows it
  py::dict d;
  for (const auto& [key, value] : json.items()) d[py::str(key)] = scalar(value);
  d["mad_version"] = version_number(r.result.version);  // the CLI writes it as text
  d["backend_reason"] = r.backend_reason;
  return d;
}

void bind_result(py::module_& m) {
  using R = PyResult;
  py::class_<R>(m, "Result", "One pair's MAD score and how it was computed.")
      .def_property_readonly(
          "mad", [](const R& r) { return r.result.mad; }, "MAD index (0 = no visible distortion)")
      .def_property_readonly(
          "hi", [](const R& r) { return r.result.hi; },
          "detection index d_detect (version's scaling)")
      .def_property_readonly(
          "lo", [](const R& r) { return r.result.lo; }, "appearance index d_appear")
      .def_property_readonly(
          "sig", [](const R& r) { return r.result.sig; }, "weight alpha of the combination")
      .def_property_readonly(
          "d_detect", [](const R& r) { return r.result.d_detect; }, "unscaled d_detect")
      .def_property_readonly("width", [](const R& r) { return r.result.width; })
      .def_property_readonly("height", [](const R& r) { return r.result.height; })
      .def_property_readonly(
          "seconds", [](const R& r) { return r.result.seconds; }, "wall time of the computation")
      .def_property_readonly("backend", [](const R& r) { return to_string(r.result.backend); })
      .def_property_readonly(
          "backend_reason", [](const R& r) { return r.backend_reason; },
          "why the backend was chosen (the CLI's backend_reason)")
      .def_property_readonly("precision", [](const R& r) { return to_string(r.result.precision); })
      .def_property_readonly("mad_version",
                             [](const R& r) { return version_number(r.result.version); })
      .def_property_readonly("input_class",
                             [](const R& r) { return to_string(r.result.input_class); })
      .def_property_readonly(
          "hi_map", [](const R& r) { return image_array(r.result.map_hi); },
          "map.HI (unscaled) as an HxW float64 array when maps=True, else None (a new copy)")
      .def_property_readonly(
          "lo_map", [](const R& r) { return image_array(r.result.map_lo); },
          "map.LO as an HxW float64 array when maps=True, else None (a new copy)")
      .def("to_dict", &result_dict,
           "The fields of `mad score --json` (names and types; mad_version an int or \"stmad\", "
           "backend_reason included; not the maps), ready for json.dumps.")
      .def("__repr__", [](const R& r) {
        return "mad.Result(mad=" + fmt(r.result.mad) + ", hi=" + fmt(r.result.hi) +
               ", lo=" + fmt(r.result.lo) + ", " + std::to_string(r.result.width) + "x" +
               std::to_string(r.result.height) + ", backend=" + to_string(r.result.backend) + ")";
      });
}

}  // namespace mad::python
