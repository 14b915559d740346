// The `mad._mad` extension: ScoreOptions from keyword arguments, Result, Scorer, the error
// classes and the GPU transfer counters. The Python package (mad/__init__.py) turns user
// inputs into what PyScorer takes and shapes batch results.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>

#include "common/error.h"
#include "common/image_io.h"
#include "mad/device_image.h"
#include "mad/options.h"
#include "scorer_binding.h"

namespace py = pybind11;
using mad::python::PyScorer;

namespace {

mad::ScoreOptions make_options(const std::string& backend, int mad_version,
                               const std::string& input_class, const std::string& precision,
                               bool maps) {
  mad::ScoreOptions o;
  o.backend = mad::parse_backend(backend);
  o.version = mad::parse_mad_version(std::to_string(mad_version));
  o.input_class = mad::parse_input_class(input_class);
  o.precision = mad::parse_precision(precision);
  o.want_maps = maps;
  return o;
}

py::object map_array(const mad::Image<double>& map) {
  if (map.empty()) return py::none();
  py::array_t<double> out({map.height(), map.width()});
  auto w = out.mutable_unchecked<2>();
  for (int y = 0; y < map.height(); ++y)
    for (int x = 0; x < map.width(); ++x) w(y, x) = map(y, x);
  return std::move(out);
}

}  // namespace

PYBIND11_MODULE(_mad, m) {
  m.doc() = "MAD (Most Apparent Distortion) image quality, C++/CUDA core. Use the `mad` package.";

  // InputError and InvalidArgument are ValueErrors, GpuError and other library errors
  // RuntimeErrors; each carries the CLI's message.
  // pybind11 tries the translators last-registered first: the base class goes first.
  py::register_exception<mad::Error>(m, "Error", PyExc_RuntimeError);
  auto input_error = py::register_exception<mad::InputError>(m, "InputError", PyExc_ValueError);
  py::register_exception<mad::InvalidArgument>(m, "InvalidArgument", PyExc_ValueError);
  py::register_exception<mad::GpuError>(m, "GpuError", PyExc_RuntimeError);
  input_error.doc() = "An image MAD cannot score (unreadable, wrong shape or dtype, too small).";

  py::class_<mad::ScoreResult>(m, "Result", "One pair's MAD score and how it was computed.")
      .def_readonly("mad", &mad::ScoreResult::mad, "MAD index (0 = no visible distortion)")
      .def_readonly("hi", &mad::ScoreResult::hi, "detection index d_detect (version's scaling)")
      .def_readonly("lo", &mad::ScoreResult::lo, "appearance index d_appear")
      .def_readonly("sig", &mad::ScoreResult::sig, "weight alpha of the combination")
      .def_readonly("d_detect", &mad::ScoreResult::d_detect, "unscaled d_detect")
      .def_readonly("width", &mad::ScoreResult::width)
      .def_readonly("height", &mad::ScoreResult::height)
      .def_readonly("seconds", &mad::ScoreResult::seconds, "wall time of the computation")
      .def_property_readonly("backend",
                             [](const mad::ScoreResult& r) { return mad::to_string(r.backend); })
      .def_property_readonly("precision",
                             [](const mad::ScoreResult& r) { return mad::to_string(r.precision); })
      .def_property_readonly("mad_version",
                             [](const mad::ScoreResult& r) {
                               return r.version == mad::MadVersion::V2011 ? 2011 : 2010;
                             })
      .def_property_readonly(
          "input_class", [](const mad::ScoreResult& r) { return mad::to_string(r.input_class); })
      .def_property_readonly(
          "hi_map", [](const mad::ScoreResult& r) { return map_array(r.map_hi); },
          "map.HI (unscaled) as an HxW float64 array when maps=True, else None (a new copy)")
      .def_property_readonly(
          "lo_map", [](const mad::ScoreResult& r) { return map_array(r.map_lo); },
          "map.LO as an HxW float64 array when maps=True, else None (a new copy)")
      .def("__repr__", [](const mad::ScoreResult& r) {
        return "mad.Result(mad=" + py::repr(py::float_(r.mad)).cast<std::string>() +
               ", hi=" + py::repr(py::float_(r.hi)).cast<std::string>() +
               ", lo=" + py::repr(py::float_(r.lo)).cast<std::string>() + ", " +
               std::to_string(r.width) + "x" + std::to_string(r.height) +
               ", backend=" + mad::to_string(r.backend) + ")";
      });

  py::class_<PyScorer>(m, "_Scorer")
      .def(py::init([](const std::string& backend, int mad_version, const std::string& input_class,
                       const std::string& precision, bool maps) {
             return PyScorer(make_options(backend, mad_version, input_class, precision, maps));
           }),
           py::arg("backend"), py::arg("mad_version"), py::arg("input_class"), py::arg("precision"),
           py::arg("maps"))
      .def("score", &PyScorer::score, py::arg("ref"), py::arg("dist"))
      .def("score_many", &PyScorer::score_many, py::arg("refs"), py::arg("dists"))
      .def_property_readonly("backend", [](const PyScorer& s) {
        return mad::to_string(mad::resolve_backend(s.options().backend));
      });

  m.def(
      "gpu_transfer_counters",
      [] {
        const mad::TransferCounters c = mad::gpu_transfer_counters();
        return py::make_tuple(c.h2d_bytes, c.d2h_bytes);
      },
      "(host->device bytes, device->host bytes) the GPU pipeline has copied in this process.");
  m.def(
      "load_gray",
      [](const std::string& path) -> py::array {
        mad::GrayImage g;
        {
          py::gil_scoped_release unlocked;
          g = mad::load_gray_image(path);
        }
        const auto& p = g.pixels;
        if (g.is_8bit()) {
          py::array_t<std::uint8_t> out({p.height(), p.width()});
          std::copy(g.gray8.begin(), g.gray8.end(), out.mutable_data());
          return std::move(out);
        }
        return map_array(p).cast<py::array>();
      },
      py::arg("path"),
      "The gray plane MAD scores for an image file: uint8 HxW for 8-bit files (colour by "
      "MATLAB's rgb2gray), float64 on the 0..255 scale for 16-bit ones.");
  m.def("supported_formats", &mad::supported_formats, "Image file formats this build decodes.");
}
