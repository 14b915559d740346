#include "scorer_binding.h"

#include <algorithm>
#include <string>
#include <vector>

#include "array_input.h"
#include "common/error.h"
#include "mad/gpu_select.h"

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

void require_same_kind(bool ref_on_device, bool dist_on_device) {
  if (ref_on_device != dist_on_device)
    throw InputError(
        "reference and distorted must both be host images or both GPU arrays (got one of each)");
}

}  // namespace

PyScorer::Source PyScorer::to_source(const py::handle& obj, const std::string& what) {
  if (py::isinstance<py::str>(obj)) return load_gray_image(obj.cast<std::string>());
  if (py::isinstance<py::dict>(obj)) return device_image_from_dict(obj.cast<py::dict>(), what);
  if (py::isinstance<py::array>(obj)) return gray_from_array(obj.cast<py::array>(), what);
  throw InvalidArgument(what + ": expected a path, a numpy array or a GPU array (got " +
                        py::str(py::type::of(obj).attr("__name__")).cast<std::string>() + ")");
}

BatchScorer& PyScorer::host_batch() {
  if (!host_batch_) host_batch_ = std::make_unique<BatchScorer>(options_);
  return *host_batch_;
}

BatchScorer& PyScorer::device_batch(int device) {
  auto& batch = device_batches_[device];
  if (!batch) {
    if (options_.backend == Backend::Cpu)
      throw InvalidArgument(
          "backend 'cpu' cannot score GPU arrays (they would need a host copy);"
          " use backend 'auto' or 'cuda', or copy them to the host");
    ScoreOptions gpu = options_;
    gpu.backend = Backend::Cuda;
    batch = std::make_unique<BatchScorer>(gpu);
  }
  return *batch;
}

ScoreResult PyScorer::score(const py::handle& ref, const py::handle& dist) {
  Source r = to_source(ref, "reference");
  Source d = to_source(dist, "distorted");
  require_same_kind(std::holds_alternative<DeviceImage>(r), std::holds_alternative<DeviceImage>(d));
  py::gil_scoped_release unlocked;
  if (auto* host_ref = std::get_if<GrayImage>(&r)) {
    if (!host_) host_ = std::make_unique<Scorer>(options_);
    return host_->score(*host_ref, std::get<GrayImage>(d));
  }
  const DeviceImage& device_ref = std::get<DeviceImage>(r);
  DeviceGuard guard(device_ref.device);
  BatchScorer& batch = device_batch(device_ref.device);
  auto done = batch.submit_device(0, device_ref, std::get<DeviceImage>(d));
  if (done.empty()) done = batch.drain();
  if (!done.at(0).ok) throw InputError(done[0].error);
  return std::move(done[0].result);
}

py::list PyScorer::score_many(const py::sequence& refs, const py::sequence& dists) {
  const std::size_t n = py::len(refs);
  if (py::len(dists) != n)
    throw InvalidArgument("refs and dists differ in length (" + std::to_string(n) + " and " +
                          std::to_string(py::len(dists)) + ")");
  std::vector<py::object> out(n);
  auto keep = [&](std::vector<BatchScorer::Finished> finished) {
    py::gil_scoped_acquire locked;
    for (auto& f : finished) out[f.tag] = f.ok ? py::cast(std::move(f.result)) : py::cast(f.error);
  };
  // The scorers this batch used, with their device (-1: host).
  std::vector<std::pair<BatchScorer*, int>> used;
  auto use = [&](BatchScorer& b, int device) -> BatchScorer& {
    if (std::find(used.begin(), used.end(), std::make_pair(&b, device)) == used.end())
      used.emplace_back(&b, device);
    return b;
  };
  auto drain_all = [&] {
    py::gil_scoped_release unlocked;
    for (auto [b, device] : used) {
      if (device < 0) {
        keep(b->drain());
      } else {
        DeviceGuard guard(device);
        keep(b->drain());
      }
    }
  };
  try {
    for (std::size_t i = 0; i < n; ++i) {
      // Ctrl-C: finish what is in flight (the device may still read the inputs), then raise.
      if (PyErr_CheckSignals() != 0) {
        py::error_already_set interrupted;
        drain_all();
        throw interrupted;
      }
      Source r, d;
      try {
        r = to_source(refs[i], "reference");
        d = to_source(dists[i], "distorted");
        require_same_kind(std::holds_alternative<DeviceImage>(r),
                          std::holds_alternative<DeviceImage>(d));
      } catch (const InputError& e) {
        out[i] = py::cast(std::string(e.what()));
        continue;
      }
      py::gil_scoped_release unlocked;
      if (auto* host_ref = std::get_if<GrayImage>(&r)) {
        keep(use(host_batch(), -1)
                 .submit(i, std::make_shared<const GrayImage>(std::move(*host_ref)),
                         std::make_shared<const GrayImage>(std::move(std::get<GrayImage>(d)))));
      } else {
        const DeviceImage& device_ref = std::get<DeviceImage>(r);
        DeviceGuard guard(device_ref.device);
        keep(use(device_batch(device_ref.device), device_ref.device)
                 .submit_device(i, device_ref, std::get<DeviceImage>(d)));
      }
    }
    drain_all();
  } catch (const py::error_already_set&) {
    throw;
  } catch (...) {
    // A GPU failure: these scorers may hold pairs of this batch; drop them (their destructors
    // finish what is in flight) so that the next call starts clean.
    py::gil_scoped_release unlocked;
    for (auto [b, device] : used) {
      if (b == host_batch_.get()) {
        host_batch_.reset();
      } else {
        DeviceGuard guard(device);
        device_batches_.erase(device);
      }
    }
    throw;
  }
  py::list result;
  for (auto& o : out) result.append(o);
  return result;
}

}  // namespace mad::python
