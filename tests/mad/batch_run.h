// Scoring a list of pairs through one BatchScorer, the way the many-pair paths use it: submitted
// in order and tagged by index, the finished pairs collected as they come back, drain included.
// Shared by the tests that compare whole batches (determinism, the GPU shape zoo).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "mad/backend_choice.h"
#include "mad/batch_scorer.h"

namespace mad::test {

// `pairs`: any list whose items have .ref and .dst that BatchScorer::submit takes.
template <class Pairs>
std::vector<BatchScorer::Finished> score_in_one_batch(const ScoreOptions& options,
                                                      const Pairs& pairs) {
  BatchScorer batch(options, ResolvedBackend(options.backend));
  std::vector<BatchScorer::Finished> done;
  for (std::size_t k = 0; k < pairs.size(); ++k)
    for (auto& f : batch.submit(k, pairs[k].ref, pairs[k].dst)) done.push_back(std::move(f));
  for (auto& f : batch.drain()) done.push_back(std::move(f));
  return done;
}

}  // namespace mad::test
