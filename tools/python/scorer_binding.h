// The Python module's scorer behind mad.Scorer, mad.score and mad.score_batch. It holds only
// batch scorers (mad/batch_scorer.h): one for host images and one per device that GPU arrays
// came from, each keeping its per-shape plans warm; one pair is a batch of depth one. The
// backend is resolved once, when the scorer is made. Scoring runs with the GIL released; a
// batch checks for Ctrl-C between pairs.
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <utility>
#include <variant>
#include <vector>

#include "mad/batch_scorer.h"
#include "mad/scoring_options.h"
#include "result_binding.h"

namespace mad::python {

// The scoring options given to mad.Scorer as keywords ({"precision": "float", "mad_version":
// 2010}), checked against the table (mad/scoring_options.h): a keyword it has no Python
// spelling for raises TypeError listing those it has; a value other than a str or an int
// raises TypeError (a flag's row, e.g. stmad, takes True or False). Values are then checked as
// the command line checks them. `command` (a CommandBits bit) picks the rows: mad.Scorer takes
// `mad score`'s, mad.video `mad video`'s; `others` names the caller's own keywords.
GivenOptions scoring_keywords(const pybind11::dict& keywords, unsigned command = kScoreCommand,
                              const char* others = "maps, threads");

class PyScorer {
 public:
  // `given`: the scoring options' keywords (scoring_keywords); a backend of "auto" is resolved
  // here (choose_backend). Refuses, as the command line does (refuse_unhonoured), options that
  // would do nothing on that backend (precision float on the CPU), and `threads` (> 0: the
  // CPU's worker threads while this scorer runs; 0: every core) on CUDA.
  PyScorer(const GivenOptions& given, bool maps, int threads);

  Backend backend() const { return choice_.backend; }
  const std::string& backend_reason() const { return choice_.reason; }

  // `ref`/`dist`: a path (str), a numpy array or a device-array dict (array_input.h). The
  // caller keeps the arrays' producers alive during the call.
  PyResult score(const pybind11::handle& ref, const pybind11::handle& dist);

  // Scores the pairs `pairs` yields: (ref, dist, keep) tuples, or a str, the message of a pair
  // refused before it got here. `keep` is held until that pair is collected (GPU arrays'
  // producers). Returns (results, error): results[i] is a Result or the message of
  // a refused pair (str), for every pair taken from `pairs`, in order. `error` is None, or the
  // exception that stopped the batch early (KeyboardInterrupt from Ctrl-C, or one raised by
  // `pairs`; its __traceback__ set), after the pairs already taken were finished. GPU failures
  // raise.
  pybind11::tuple score_many(const pybind11::iterator& pairs);

 private:
  using Source = std::variant<GrayImage, DeviceImage>;
  using Finished = BatchScorer::Finished;
  // The scorers a call used, with their device (-1: host).
  using Used = std::vector<std::pair<BatchScorer*, int>>;

  static Source to_source(const pybind11::handle& obj, const std::string& what);
  // Throws InputError unless both images are on the host or both on one device.
  static void check_pair(const Source& ref, const Source& dist);
  BatchScorer& host_batch();
  BatchScorer& device_batch(int device);  // call with `device` current
  // These call without the GIL.
  std::vector<Finished> submit(std::uint64_t tag, Source ref, Source dist, Used& used);
  std::vector<Finished> drain(const Used& used);
  // After a failure the scorers may hold pairs of the call: drop them (their destructors
  // finish what is in flight) so that the next call starts clean.
  void forget(const Used& used);

  ScoreOptions options_;  // backend resolved
  BackendChoice choice_;
  int threads_ = 0;
  std::unique_ptr<BatchScorer> host_batch_;
  std::map<int, std::unique_ptr<BatchScorer>> device_batches_;
};

}  // namespace mad::python
