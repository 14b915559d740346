// The batch scorer over the scheduler and fake slots (fake_slots.h): randomized schedules of
// 1 to 20 shapes with failures injected at slot construction, submit and collect, under a
// memory budget. Properties: every pair is delivered exactly once and in order; a failure
// fails its own pair only; no slot takes a pair while busy; memory never passes the budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "mad/batch_scorer.h"
#include "mad/engine/pair_engine.h"
#include "mad/engine/pair_prefetcher.h"
#include "tests/engine/fake_slots.h"
#include "tests/support/test_support.h"

namespace mad::test {
namespace {

struct Schedule {
  std::vector<std::pair<int, int>> shapes;       // per pair
  std::vector<int> reference;                    // per pair: which reference image it uses
  std::map<int, Fault> submit_faults, collect_faults;
  std::set<int> make_faults;                     // by construction attempt
  std::size_t budget = SIZE_MAX;
  int slots_per_shape = 4;
  std::size_t max_shapes = 3;
};

Schedule random_schedule(std::mt19937& rng, int pairs) {
  Schedule s;
  std::uniform_int_distribution<int> side(34, 120), n_shapes(1, 20), pct(0, 99);
  std::vector<std::pair<int, int>> shapes(static_cast<std::size_t>(n_shapes(rng)));
  for (auto& sh : shapes) sh = {side(rng), side(rng)};
  std::uniform_int_distribution<std::size_t> pick(0, shapes.size() - 1);
  for (int i = 0; i < pairs; ++i) {
    // Runs of a shape (a reference's pairs), as datasets come, or a new shape each time.
    if (i == 0 || pct(rng) < 40) s.shapes.push_back(shapes[pick(rng)]);
    else s.shapes.push_back(s.shapes.back());
    s.reference.push_back(i > 0 && s.shapes[i] == s.shapes[i - 1] && pct(rng) < 70
                              ? s.reference.back()
                              : i);
    const int f = pct(rng);
    if (f < 4) s.submit_faults[i] = Fault::Input;
    else if (f < 8) s.collect_faults[i] = Fault::Input;
  }
  for (int m = 0; m < 40; ++m)
    if (pct(rng) < 5) s.make_faults.insert(m);
  // A budget between "one slot of the largest shape" and "everything at once", sometimes none.
  const FakeGpu sizing;
  std::size_t largest = 0, all = 0;
  for (const auto& sh : shapes) {
    largest = std::max(largest, sizing.cost(sh.first, sh.second).total(1));
    all += sizing.cost(sh.first, sh.second).total(4);
  }
  if (pct(rng) < 80)
    s.budget = std::uniform_int_distribution<std::size_t>(largest, std::max(largest, all))(rng);
  s.slots_per_shape = std::uniform_int_distribution<int>(1, 4)(rng);
  s.max_shapes = std::uniform_int_distribution<std::size_t>(1, 4)(rng);
  return s;
}

// A device failure injected into one pair's submit or collect (at < 0: none).
struct DeviceFault {
  int at = -1;
  Where where = Where::Submit;
};

// Runs a schedule through a BatchScorer on fake slots; returns the delivered rows in order and
// counts the GpuErrors that reached the caller in `gpu_errors`. A GpuError at submit fails that
// pair and the run goes on; one at collect stops the submitting, as the engine stops a failed
// device's worker, and the pairs in flight are drained.
std::vector<BatchScorer::Finished> run(const Schedule& s, FakeGpu& gpu, DeviceFault device = {},
                                       int* gpu_errors = nullptr) {
  int errors = 0;
  gpu.fault = [&](Where w, int n) {
    if (w == Where::Make) return s.make_faults.count(n) ? Fault::Input : Fault::None;
    if (n == device.at && w == device.where) return Fault::Gpu;
    const auto& faults = w == Where::Submit ? s.submit_faults : s.collect_faults;
    const auto it = faults.find(n);
    return it == faults.end() ? Fault::None : it->second;
  };
  ScoreOptions options;
  options.backend = Backend::Cuda;
  BatchScorer batch(options, fake_scheduler(gpu, {s.slots_per_shape, s.max_shapes, s.budget}));
  std::map<int, std::shared_ptr<const GrayImage>> refs;
  std::vector<BatchScorer::Finished> rows;
  auto keep = [&](std::vector<BatchScorer::Finished> done) {
    for (auto& f : done) rows.push_back(std::move(f));
  };
  bool stopped = false;
  for (std::size_t i = 0; i < s.shapes.size() && !stopped; ++i) {
    const auto [w, h] = s.shapes[i];
    auto& ref = refs[s.reference[i]];
    if (!ref) ref = std::make_shared<const GrayImage>(numbered_image(w, h, 0, 50));
    auto dst = std::make_shared<const GrayImage>(numbered_image(w, h, static_cast<int>(i)));
    try {
      keep(batch.submit(i, ref, dst));
    } catch (const GpuError&) {
      ++errors;
      if (device.where == Where::Submit) {
        EXPECT_EQ(static_cast<int>(i), device.at);
        keep(batch.submit_failed(i, "device failed"));  // as the engine would stop; go on here
      } else {
        stopped = true;
      }
    }
  }
  try {
    keep(batch.drain());
  } catch (const GpuError&) {  // the failed collect was a drain's: the failed pair is done
    ++errors;
    keep(batch.drain());
  }
  if (gpu_errors) *gpu_errors = errors;
  return rows;
}

// all_delivered: every pair of the schedule has its row (false: the run stopped at a device's
// failure, and the rows are the first ones, in order).
void expect_properties(const Schedule& s, const FakeGpu& gpu,
                       const std::vector<BatchScorer::Finished>& rows, int gpu_fault_at = -1,
                       bool all_delivered = true) {
  if (all_delivered) ASSERT_EQ(rows.size(), s.shapes.size());
  ASSERT_LE(rows.size(), s.shapes.size());
  std::set<int> made_fail_pairs;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    ASSERT_EQ(r.tag, i) << "delivered out of order";
    const int n = static_cast<int>(i);
    const bool injected = s.submit_faults.count(n) || s.collect_faults.count(n) || n == gpu_fault_at;
    if (r.ok) {
      EXPECT_FALSE(injected) << "pair " << n << " had a fault injected but was scored";
      EXPECT_EQ(r.result.d_detect, n) << "pair " << n << " got another pair's outputs";
      EXPECT_EQ(r.result.width, s.shapes[i].first);
    } else {
      // Its own injected fault, or the slot it needed could not be built (before it got
      // as far as its own fault): never another pair's.
      const std::string mine = "pair " + std::to_string(n);  // the message's last words
      const bool own = injected && ((r.error.size() >= mine.size() &&
                                     r.error.compare(r.error.size() - mine.size(), mine.size(),
                                                     mine) == 0) ||
                                    r.error == "device failed");
      const bool construction = r.error.find("injected: slot construction") != std::string::npos;
      EXPECT_TRUE(own || construction) << "pair " << n << ": " << r.error;
    }
  }
  EXPECT_EQ(gpu.busy_submits, 0) << "a slot took a pair while busy";
  EXPECT_LE(gpu.peak_live_bytes, s.budget) << "memory passed the budget";
  EXPECT_EQ(gpu.live_bytes, 0u) << "slots outlived their scorer";
}

TEST(BatchEngine, SeventeenSizesInRandomOrderAllScored) {
  // The crash of issue 25: more shapes than are kept, with pairs in flight.
  std::vector<std::pair<int, int>> sizes;
  for (int i = 0; i < 17; ++i) sizes.push_back({34 + 7 * i, 40 + 3 * (i % 5)});
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    Schedule s;
    for (int rep = 0; rep < 2; ++rep)
      for (const auto& sh : sizes) s.shapes.push_back(sh);
    std::shuffle(s.shapes.begin(), s.shapes.end(), rng);
    for (std::size_t i = 0; i < s.shapes.size(); ++i) s.reference.push_back(static_cast<int>(i));
    FakeGpu gpu;
    const auto rows = run(s, gpu);
    expect_properties(s, gpu, rows);
    for (const auto& r : rows) EXPECT_TRUE(r.ok) << r.error;
  }
}

TEST(BatchEngine, RandomizedSchedulesHoldEveryProperty) {
  std::mt19937 rng(20261127);
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Schedule s = random_schedule(rng, 1 + trial % 60);
    FakeGpu gpu;
    const auto rows = run(s, gpu);
    expect_properties(s, gpu, rows);
    if (HasFatalFailure() || HasNonfatalFailure()) break;
  }
}

// A device's failure is the run's (exit 4), never one pair's failed row (exit 5): the GpuError
// must reach the caller, once, whether the device fails at a submit or at a collect.
// A random schedule of 30 pairs whose device fails at pair `at` (drawn here): no slot fails to
// be made, and pair `at` meets no injected fault of its own before the device's.
Schedule schedule_failing_at(std::mt19937& rng, int& at) {
  Schedule s = random_schedule(rng, 30);
  s.make_faults.clear();
  at = std::uniform_int_distribution<int>(0, 29)(rng);
  s.submit_faults.erase(at);
  return s;
}

TEST(BatchEngine, AGpuErrorPropagatesAndTheOtherPairsSurvive) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    int at = 0;
    const Schedule s = schedule_failing_at(rng, at);
    FakeGpu gpu;
    int gpu_errors = 0;
    const auto rows = run(s, gpu, {at, Where::Submit}, &gpu_errors);
    EXPECT_EQ(gpu_errors, 1) << "the device's failure at pair " << at << " became a row";
    ASSERT_GT(rows.size(), static_cast<std::size_t>(at));
    EXPECT_EQ(rows[at].error, "device failed");  // the caller's row, not one the scorer made
    expect_properties(s, gpu, rows, at);
    if (HasFailure()) break;
  }
}

TEST(BatchEngine, AGpuErrorAtCollectPropagatesAndThePairsBeforeItSurvive) {
  std::mt19937 rng(8);
  for (int trial = 0; trial < 50; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    int at = 0;
    Schedule s = schedule_failing_at(rng, at);  // the pair reaches its collect
    s.collect_faults.erase(at);
    FakeGpu gpu;
    int gpu_errors = 0;
    const auto rows = run(s, gpu, {at, Where::Collect}, &gpu_errors);
    EXPECT_EQ(gpu_errors, 1) << "the device's failure at pair " << at << " became a row";
    // Every pair before it was taken, so each has its row; the failed pair's row names it.
    ASSERT_GT(rows.size(), static_cast<std::size_t>(at));
    EXPECT_FALSE(rows[at].ok);
    EXPECT_NE(rows[at].error.find("injected: collect of pair " + std::to_string(at)),
              std::string::npos)
        << rows[at].error;
    expect_properties(s, gpu, rows, at, /*all_delivered=*/false);
    if (HasFailure()) break;
  }
}

TEST(BatchEngine, APairLargerThanTheBudgetIsAFailedRowOnly) {
  FakeGpu gpu;
  Schedule s;
  s.shapes = {{40, 40}, {400, 400}, {40, 40}};
  s.reference = {0, 1, 0};
  s.budget = gpu.cost(100, 100).total(4);
  const auto rows = run(s, gpu);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0].ok);
  EXPECT_FALSE(rows[1].ok);
  EXPECT_NE(rows[1].error.find("400x400"), std::string::npos) << rows[1].error;
  EXPECT_TRUE(rows[2].ok);
  EXPECT_TRUE(rows[2].result.d_detect == 2);
}

TEST(BatchEngine, ScoringOneAtATimeKeepsOneSlotAndReusesTheReference) {
  FakeGpu gpu;
  ScoreOptions options;
  options.backend = Backend::Cuda;
  BatchScorer batch(options, fake_scheduler(gpu, {4, 3, SIZE_MAX}));
  const GrayImage ref = numbered_image(50, 40, 0, 50);
  for (int i = 1; i <= 5; ++i) {
    const GrayImage dst = numbered_image(50, 40, i);
    EXPECT_EQ(batch.score_one(ref, dst).d_detect, i);
  }
  EXPECT_EQ(gpu.slots_made, 1);              // a batch of depth one needs one slot
  EXPECT_EQ(batch.reference_reuses(), 4u);   // the same reference, pairs 2 to 5
  // A pair's own error is thrown as itself (a size mismatch is an InputError, exit 3).
  EXPECT_THROW(batch.score_one(ref, numbered_image(40, 40, 9)), InputError);
}

// A GPU worker's path from files to slots: the decoder (keep_8bit, as the engine's GPU workers
// decode) hands over 8-bit gray files as their uint8 planes alone, and the slots get exactly
// those planes (every pair's number, read from its distorted plane, comes back to its row),
// never a double plane.
TEST(BatchEngine, AGpuWorkerTakesGrayFilesAsTheirUint8PlanesAlone) {
  const auto dir = fresh_scratch_dir("batch_engine_gray8");
  std::vector<PairPaths> paths;
  auto write = [&](const std::string& name, int number, int fill) {
    return write_numbered_png(dir, name, number, fill);
  };
  for (int i = 0; i < 9; ++i)
    paths.push_back({write("r" + std::to_string(i / 3) + ".png", 0, 50 + i / 3),
                     write("d" + std::to_string(i) + ".png", 300 + i, 100)});
  FakeGpu gpu;
  ScoreOptions options;
  options.backend = Backend::Cuda;
  BatchScorer batch(options, fake_scheduler(gpu, {4, 3, SIZE_MAX}));
  PairPrefetcher prefetcher(paths, {4, 2, std::size_t{1} << 30}, /*keep_8bit=*/true);
  std::vector<BatchScorer::Finished> rows;
  for (std::uint64_t i = 0; prefetcher.has_next(); ++i) {
    const LoadedPair p = prefetcher.next();
    ASSERT_TRUE(p.ref && p.dist) << p.error;
    EXPECT_TRUE(p.ref->gray.pixels.empty() && p.dist->gray.pixels.empty());
    for (auto& f : batch.submit(i, p.ref, p.dist)) rows.push_back(std::move(f));
  }
  for (auto& f : batch.drain()) rows.push_back(std::move(f));
  ASSERT_EQ(rows.size(), paths.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ASSERT_TRUE(rows[i].ok) << rows[i].error;
    EXPECT_EQ(rows[i].result.d_detect, 300 + static_cast<int>(i));
    EXPECT_EQ(rows[i].result.width, 50);
    EXPECT_EQ(rows[i].result.height, 40);
    EXPECT_EQ(rows[i].result.input_class, InputClass::Uint8);
  }
  EXPECT_EQ(gpu.gray8_only_inputs, 2 * static_cast<int>(paths.size()));
  EXPECT_EQ(gpu.plane_inputs, 0);
}

TEST(BatchEngine, TheBackendIsChosenOncePerRun) {
  // A run that chose its backend passes the choice down: the engine and its scorers choose
  // nothing again (issue 25: `mad score` chose twice, `mad eval` four times or more).
  EngineOptions options(choose_backend(Backend::Cpu));
  options.cpu_workers = 2;
  const std::size_t before = backend_choices_made();
  std::vector<PairJob> jobs(3);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    jobs[i].id = i;
    jobs[i].error = "unreadable";  // delivered without decoding: the count is what matters
  }
  std::size_t delivered = 0;
  plan_workers(options);
  score_pairs(jobs, options, [&](const PairOutcome&) { ++delivered; });
  EXPECT_EQ(delivered, 3u);
  EXPECT_EQ(backend_choices_made(), before);
}

}  // namespace
}  // namespace mad::test
