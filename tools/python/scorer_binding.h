// The Python module's scorer: one set of warm plans (host Scorer, host BatchScorer, one GPU
// BatchScorer per device that GPU arrays came from) behind mad.Scorer, mad.score and
// mad.score_batch. Scoring runs with the GIL released; a batch checks for Ctrl-C between pairs.
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <variant>

#include "mad/batch_scorer.h"
#include "mad/score.h"

namespace mad::python {

class PyScorer {
 public:
  explicit PyScorer(ScoreOptions options) : options_(std::move(options)) {}
  const ScoreOptions& options() const { return options_; }

  // `ref`/`dist`: a path (str), a numpy array or a device-array dict (array_input.h).
  ScoreResult score(const pybind11::handle& ref, const pybind11::handle& dist);
  // One entry per pair, in order: a ScoreResult, or the error message (str) of a pair whose
  // inputs MAD refused. GPU failures raise. Raises KeyboardInterrupt (after finishing the
  // pairs in flight) when Ctrl-C arrives.
  pybind11::list score_many(const pybind11::sequence& refs, const pybind11::sequence& dists);

 private:
  using Source = std::variant<GrayImage, DeviceImage>;
  static Source to_source(const pybind11::handle& obj, const std::string& what);
  BatchScorer& host_batch();
  BatchScorer& device_batch(int device);  // call with `device` current

  ScoreOptions options_;
  std::unique_ptr<Scorer> host_;
  std::unique_ptr<BatchScorer> host_batch_;
  std::map<int, std::unique_ptr<BatchScorer>> device_batches_;
};

}  // namespace mad::python
