// The `mad._mad` extension: ScoreOptions from keyword arguments, Result, the scorer, the error
// classes and the GPU transfer counters. The Python package (mad/__init__.py) turns user
// inputs into what PyScorer takes and shapes batch results.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>

#include "common/image_io.h"
#include "common/parallel.h"
#include "mad/device_image.h"
#include "mad/options.h"
#include "result_binding.h"
#include "results_binding.h"
#include "scorer_binding.h"
#include "python_words.h"
#include "video_binding.h"

#if MAD_HAVE_STB
#include <stb/stb_image.h>
#endif

namespace py = pybind11;
using mad::python::PyScorer;

PYBIND11_MODULE(_mad, m) {
  m.doc() = "MAD (Most Apparent Distortion) image quality, C++/CUDA core. Use the `mad` package.";

  // InputError and InvalidArgument are ValueErrors, GpuError and other library errors
  // RuntimeErrors; each carries the library's message in Python's words (python_words.h).
  mad::python::register_errors(m);
  mad::python::bind_result(m);
  mad::python::bind_results(m);
  mad::python::bind_video(m);

  py::class_<PyScorer>(m, "_Scorer")
      .def(py::init([](const py::dict& options, bool maps, int threads) {
             return std::make_unique<PyScorer>(mad::python::scoring_keywords(options), maps,
                                               threads);
           }),
           py::arg("options"), py::arg("maps"), py::arg("threads"))
      .def("score", &PyScorer::score, py::arg("ref"), py::arg("dist"))
      .def("score_many", &PyScorer::score_many, py::arg("pairs"))
      .def_property_readonly("backend",
                             [](const PyScorer& s) { return mad::to_string(s.backend()); })
      .def_property_readonly("backend_reason", &PyScorer::backend_reason);

  m.def(
      "gpu_transfer_counters",
      [] {
        const mad::TransferCounters c = mad::gpu_transfer_counters();
        return py::make_tuple(c.h2d_bytes, c.d2h_bytes);
      },
      "(host->device bytes, device->host bytes) the GPU pipeline has copied in this process.");
  m.def("_thread_count", &mad::thread_count,
        "The CPU backend's worker count on the calling thread now (a scorer's `threads` sets "
        "it for that scorer's own work alone).");
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
        return mad::python::image_array(p).cast<py::array>();
      },
      py::arg("path"),
      "The gray plane MAD scores for an image file: uint8 HxW for 8-bit files (colour by "
      "MATLAB's rgb2gray), float64 on the 0..255 scale for 16-bit ones.");
  m.def("supported_formats", &mad::supported_formats, "Image file formats this build decodes.");
  // For mad.dask (issue 27): its tasks group pairs by shape, read from the headers alone, as
  // `mad score --shard` weighs them (mad/results/pairs_shard.cpp).
  m.def(
      "_image_size",
      [](const std::string& path) -> py::object {
#if MAD_HAVE_STB
        int w = 0, h = 0, c = 0;
        if (stbi_info(path.c_str(), &w, &h, &c) && w > 0 && h > 0) return py::make_tuple(w, h);
#endif
        return py::none();
      },
      py::arg("path"), "(width, height) from an image file's header; None when unreadable.");
}
