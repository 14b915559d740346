// The pair engine (mad/engine/pair_engine.h) as `mad eval` drives it, on a dataset: several workers
// score every pair exactly once with the same results as one worker, results are delivered one
// at a time, decode errors are reported per pair, and --gpus is checked against the backend and
// the visible devices.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>

#include "common/error.h"
#include "datasets/dataset.h"
#include "mad/devices.h"
#include "mad/engine/pair_engine.h"
#include "tests/datasets/tiny_datasets.h"

namespace mad::datasets {
namespace {

std::vector<PairJob> jobs_of(const Dataset& d) {
  std::vector<PairJob> jobs;
  for (std::size_t i : order_by_reference(d.entries))
    jobs.push_back({i, d.entries[i].ref, d.entries[i].dist});
  return jobs;
}

std::map<std::size_t, double> run(const std::vector<PairJob>& jobs, int workers, int* max_parallel,
                                  std::map<std::size_t, std::string>* errors = nullptr) {
  EngineOptions o(choose_backend(Backend::Cpu));
  o.cpu_workers = workers;
  std::map<std::size_t, double> mad;
  std::atomic<int> inside{0};
  *max_parallel = 0;
  const EngineReport r = score_pairs(jobs, o, [&](const PairOutcome& p) {
    *max_parallel = std::max(*max_parallel, ++inside);
    EXPECT_TRUE(mad.emplace(p.id, p.result ? p.result->mad : -1.0).second) << "entry twice";
    if (!p.result && errors) (*errors)[p.id] = p.error;
    --inside;
  });
  EXPECT_EQ(r.workers, workers);
  EXPECT_EQ(r.scored + r.failed, jobs.size());
  return mad;
}

TEST(EvalPairEngine, SeveralWorkersGiveTheSameScoresAsOne) {
  const test::TinyDatasets data("runner");
  const auto jobs = jobs_of(read_dataset(data.path("kadid10k"), DatasetKind::Kadid10k));
  int parallel = 0;
  const auto one = run(jobs, 1, &parallel);
  const auto three = run(jobs, 3, &parallel);
  EXPECT_EQ(parallel, 1);  // on_done is never entered twice at once
  ASSERT_EQ(one.size(), jobs.size());
  EXPECT_EQ(one, three);  // bit-identical: the CPU path is deterministic
}

TEST(EvalPairEngine, DecodeErrorsAreReportedPerPairAndTheRunGoesOn) {
  const test::TinyDatasets data("runner_bad");
  data.write("kadid10k/images/I02_01_02.png", "garbage");
  const Dataset d = read_dataset(data.path("kadid10k"), DatasetKind::Kadid10k);
  std::map<std::size_t, std::string> errors;
  int parallel = 0;
  const auto mad = run(jobs_of(d), 2, &parallel, &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.begin()->first, 5u);  // the 6th row of dmos.csv
  EXPECT_NE(errors.begin()->second.find("I02_01_02.png"), std::string::npos)
      << errors.begin()->second;
  EXPECT_EQ(mad.size(), 8u);
}

TEST(EvalPairEngine, ShouldStopEndsTheRunEarly) {
  const test::TinyDatasets data("runner_stop");
  const auto jobs = jobs_of(read_dataset(data.path("kadid10k"), DatasetKind::Kadid10k));
  EngineOptions o(choose_backend(Backend::Cpu));
  std::size_t done = 0;
  const EngineReport r = score_pairs(
      jobs, o, [&](const PairOutcome&) { ++done; }, [&] { return done >= 3; });
  EXPECT_EQ(done, 3u);
  EXPECT_EQ(r.scored, 3u);
}

TEST(EvalPairEngine, WorkerPlansFollowTheBackend) {
  EngineOptions o(choose_backend(Backend::Cpu));
  o.gpus = 1;
  EXPECT_THROW(plan_workers(o), InvalidArgument);
  o.gpus = 0;
  o.cpu_workers = 0;
  EXPECT_THROW(plan_workers(o), InvalidArgument);
  o.cpu_workers = 2;
  EXPECT_EQ(plan_workers(o).workers, 2);
  EXPECT_EQ(plan_workers(o).devices.size(), 2u);
  if (gpu_count() == 0) {
    EXPECT_THROW(choose_backend(Backend::Cuda), GpuError);  // no device: no GPU backend
    EXPECT_THROW(select_gpu(0), GpuError);
  } else {
    EngineOptions g(choose_backend(Backend::Cuda));
    g.gpus = gpu_count() + 1;
    EXPECT_THROW(plan_workers(g), GpuError);
    g.gpus = 0;
    EXPECT_EQ(plan_workers(g).workers, gpu_count());
  }
}

}  // namespace
}  // namespace mad::datasets
