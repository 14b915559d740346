#include "scorer_binding.h"

#include <algorithm>
#include <string>

#include "array_input.h"
#include "common/error.h"
#include "common/thread_count_scope.h"
#include "mad/devices.h"
#include "python_words.h"

namespace py = pybind11;

namespace mad::python {
namespace {

// Makes a device current for the calling thread and restores the previous one.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device) : previous_(current_gpu()) {
    if (device != previous_) select_gpu(device);
  }
  ~DeviceGuard() {
    try {
      if (current_gpu() != previous_) select_gpu(previous_);
    } catch (const Error&) {
    }
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_;
};

// `threads` is the scorer's own (not a scoring option of the table): its range, and its refusal
// on CUDA, where the CPU's threads do nothing.
void refuse_idle_threads(const BackendChoice& choice, int threads) {
  if (threads < 0 || threads > 65536)
    throw InvalidArgument("threads must be between 1 and 65536 (got " + std::to_string(threads) +
                          "); leave it out to use every core");
  if (choice.backend == Backend::Cuda && threads > 0)
    throw InvalidArgument("threads=" + std::to_string(threads) +
                          " sets the CPU backend's worker threads; this scorer uses the CUDA "
                          "backend (" +
                          choice.reason +
                          "): leave threads out, or pass "
                          "backend=\"cpu\"");
}

}  // namespace

GivenOptions scoring_keywords(const py::dict& keywords, unsigned command, const char* others) {
  // The scorer takes `mad score`'s keywords (mad.video takes the video command's).
  const std::vector<const ScoringOption*> rows = scoring_options_of(command);
  std::string names;  // the keywords the table has, for the message
  for (const ScoringOption* row : rows)
    if (*row->python) names += (names.empty() ? "" : ", ") + std::string(row->python);
  for (const auto& item : keywords) {
    const std::string name = py::str(item.first).cast<std::string>();
    bool known = false;
    for (const ScoringOption* row : rows) known = known || name == row->python;
    if (!known || name.empty())
      throw py::type_error("unexpected keyword '" + name + "' (the scoring options are " + names +
                           "; and " + others + ")");
  }
  GivenOptions given;
  for (const ScoringOption* row_of : rows) {
    const ScoringOption& row = *row_of;
    if (!*row.python || !keywords.contains(row.python)) continue;
    const py::handle value = keywords[row.python];
    if (!*row.value_name && py::isinstance<py::bool_>(value)) {  // a flag: True or False
      given.emplace_back(&row, value.cast<bool>() ? "true" : "false");
      continue;
    }
    if (py::isinstance<py::bool_>(value) ||
        !(py::isinstance<py::str>(value) || py::isinstance<py::int_>(value)))
      throw py::type_error(std::string(row.python) + " takes a str or an int (got " +
                           py::str(py::type::of(value).attr("__name__")).cast<std::string>() +
                           ")");
    given.emplace_back(&row, py::str(value).cast<std::string>());
  }
  return given;
}

PyScorer::PyScorer(const GivenOptions& given, bool maps, int threads)
    : options_(apply_scoring_options(given)),
      choice_(choose_backend(options_.backend)),
      threads_(threads) {
  options_.want_maps = maps;
  refuse_unhonoured(given, choice_, "this scorer");
  refuse_idle_threads(choice_, threads_);
  options_.backend = choice_.backend;
}

PyScorer::Source PyScorer::to_source(const py::handle& obj, const std::string& what) {
  if (py::isinstance<py::str>(obj)) return load_gray_image(obj.cast<std::string>());
  if (py::isinstance<py::dict>(obj)) return device_image_from_dict(obj.cast<py::dict>(), what);
  if (py::isinstance<py::array>(obj)) return gray_from_array(obj.cast<py::array>(), what);
  throw InvalidArgument(what + ": expected a path, a numpy array or a GPU array (got " +
                        py::str(py::type::of(obj).attr("__name__")).cast<std::string>() + ")");
}

void PyScorer::check_pair(const Source& ref, const Source& dist) {
  const auto* r = std::get_if<DeviceImage>(&ref);
  const auto* d = std::get_if<DeviceImage>(&dist);
  if (!r != !d)
    throw InputError(
        "reference and distorted must both be host images or both GPU arrays (got one of each)");
  if (r && r->device != d->device)
    throw InputError("reference is on GPU " + std::to_string(r->device) + " and distorted on GPU " +
                     std::to_string(d->device) +
                     ": MAD scores a pair on one device (move one of them there first)");
}

BatchScorer& PyScorer::host_batch() {
  if (!host_batch_) host_batch_ = std::make_unique<BatchScorer>(options_, choice_.backend);
  return *host_batch_;
}

BatchScorer& PyScorer::device_batch(int device) {
  auto& batch = device_batches_[device];
  if (!batch) {
    if (options_.backend == Backend::Cpu)
      throw InvalidArgument(
          "backend=\"cpu\" cannot score GPU arrays (they would need a host copy);"
          " use backend=\"auto\" or \"cuda\", or copy them to the host");
    batch = std::make_unique<BatchScorer>(options_, choice_.backend);
  }
  return *batch;
}

std::vector<PyScorer::Finished> PyScorer::submit(std::uint64_t tag, Source ref, Source dist,
                                                 Used& used) {
  ThreadCountScope threads(threads_);  // this scorer's work alone
  auto use = [&](BatchScorer& b, int device) -> BatchScorer& {
    if (std::find(used.begin(), used.end(), std::make_pair(&b, device)) == used.end())
      used.emplace_back(&b, device);
    return b;
  };
  if (auto* host_ref = std::get_if<GrayImage>(&ref))
    return use(host_batch(), -1)
        .submit(tag, std::make_shared<const GrayImage>(std::move(*host_ref)),
                std::make_shared<const GrayImage>(std::move(std::get<GrayImage>(dist))));
  const DeviceImage& device_ref = std::get<DeviceImage>(ref);
  DeviceGuard guard(device_ref.device);
  return use(device_batch(device_ref.device), device_ref.device)
      .submit_device(tag, device_ref, std::get<DeviceImage>(dist));
}

std::vector<PyScorer::Finished> PyScorer::drain(const Used& used) {
  ThreadCountScope threads(threads_);  // this scorer's work alone
  std::vector<Finished> all;
  for (auto [b, device] : used) {
    std::vector<Finished> done;
    if (device < 0) {
      done = b->drain();
    } else {
      DeviceGuard guard(device);
      done = b->drain();
    }
    std::move(done.begin(), done.end(), std::back_inserter(all));
  }
  return all;
}

void PyScorer::forget(const Used& used) {
  py::gil_scoped_release unlocked;
  for (auto [b, device] : used) {
    if (device < 0) {
      host_batch_.reset();
    } else {
      DeviceGuard guard(device);
      device_batches_.erase(device);
    }
  }
}

PyResult PyScorer::score(const py::handle& ref, const py::handle& dist) {
  Source r = to_source(ref, "reference");
  Source d = to_source(dist, "distorted");
  check_pair(r, d);
  Used used;
  std::vector<Finished> done;
  try {
    py::gil_scoped_release unlocked;
    done = submit(0, std::move(r), std::move(d), used);
    if (done.empty()) done = drain(used);
  } catch (...) {
    forget(used);
    throw;
  }
  Finished& f = done.at(0);
  if (!f.ok) throw InputError(f.error);
  return PyResult{std::move(f.result), choice_.reason};
}

py::tuple PyScorer::score_many(const py::iterator& pairs) {
  std::vector<py::object> out;
  std::map<std::uint64_t, py::object> held;  // what each pair in flight keeps alive
  auto collect = [&](std::vector<Finished> finished) {
    for (auto& f : finished) {
      out[f.tag] = f.ok ? py::cast(PyResult{std::move(f.result), choice_.reason})
                        : py::str(python_words(f.error));
      held.erase(f.tag);
    }
  };
  py::object stopped = py::none();
  auto stop = [&] {  // takes the pending Python error, with its traceback
    PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
    PyErr_Fetch(&type, &value, &trace);
    PyErr_NormalizeException(&type, &value, &trace);
    if (trace) PyException_SetTraceback(value, trace);
    Py_XDECREF(type);
    Py_XDECREF(trace);
    stopped = py::reinterpret_steal<py::object>(value);
  };
  Used used;
  try {
    for (std::uint64_t i = 0;; ++i) {
      // Ctrl-C: finish the pairs taken (the device may still read their inputs), then report.
      if (PyErr_CheckSignals() != 0) {
        stop();
        break;
      }
      PyObject* raw = PyIter_Next(pairs.ptr());
      if (!raw) {
        if (PyErr_Occurred()) stop();
        break;
      }
      const auto item = py::reinterpret_steal<py::object>(raw);
      out.emplace_back(py::none());
      if (py::isinstance<py::str>(item)) {
        out[i] = item;
        continue;
      }
      const auto t = item.cast<py::tuple>();
      Source r, d;
      try {
        r = to_source(t[0], "reference");
        d = to_source(t[1], "distorted");
        check_pair(r, d);
      } catch (const InputError& e) {
        out[i] = py::str(python_words(e.what()));
        continue;
      } catch (const InvalidArgument& e) {
        out[i] = py::str(python_words(e.what()));
        continue;
      }
      held[i] = t[2];
      std::vector<Finished> done;
      {
        py::gil_scoped_release unlocked;
        done = submit(i, std::move(r), std::move(d), used);
      }
      collect(std::move(done));
    }
    std::vector<Finished> rest;
    {
      py::gil_scoped_release unlocked;
      rest = drain(used);
    }
    collect(std::move(rest));
  } catch (...) {
    forget(used);
    throw;
  }
  py::list results;
  for (auto& o : out) results.append(o);
  return py::make_tuple(results, stopped);
}

}  // namespace mad::python
