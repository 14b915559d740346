// The pair engine (mad/engine/pair_engine.h), with small PNGs written here: outcomes in job order from
// several workers, scores bit-identical to mad::score (CPU, and GPU where there is one), failed
// rows delivered in their place (a pre-failed job decodes nothing), and a stopped run resumed
// over the rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/allotment.h"
#include "common/image_io.h"
#include "mad/batch_scorer.h"
#include "mad/devices.h"
#include "mad/engine/pair_engine.h"
#include "mad/engine/pair_prefetcher.h"
#include "mad/score.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {
namespace fs = std::filesystem;

constexpr int kSide = 40;  // just above MAD's 34x34 minimum: quick on the CPU

// A scratch folder of 8-bit gray PNGs: refN.png and distN_K.png (ref N plus K-dependent noise).
class Images {
 public:
  explicit Images(const std::string& name)
      : dir_(fs::temp_directory_path() / ("mad_pair_engine_" + name)) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~Images() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, std::uint32_t seed) const {
    RawImage8 img;
    img.width = img.height = kSide;
    img.channels = 1;
    std::uint32_t state = seed * 2654435761u + 1;
    for (int i = 0; i < kSide * kSide; ++i) {
      state = state * 1664525u + 1013904223u;
      img.samples.push_back(static_cast<std::uint8_t>(state >> 24));
    }
    const std::string path = (dir_ / name).string();
    save_png8(path, img);
    return path;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  fs::path dir_;
};

// Three references with two distorted images each, in reference groups.
std::vector<PairJob> grouped_jobs(const Images& images) {
  std::vector<PairJob> jobs;
  for (std::uint32_t r = 0; r < 3; ++r) {
    const std::string ref = images.write("ref" + std::to_string(r) + ".png", 100 + r);
    for (std::uint32_t k = 0; k < 2; ++k)
      jobs.push_back({jobs.size(), ref,
                      images.write("dist" + std::to_string(r) + "_" + std::to_string(k) + ".png",
                                   200 + 10 * r + k),
                      ""});
  }
  return jobs;
}

EngineOptions cpu_options(int workers, bool in_order) {
  EngineOptions o(choose_backend(Backend::Cpu));
  o.cpu_workers = workers;
  o.in_order = in_order;
  return o;
}

struct Delivered {
  std::vector<std::size_t> ids;       // in delivery order
  std::map<std::size_t, double> mad;  // scored pairs
  std::map<std::size_t, std::string> errors;
};

Delivered run(const std::vector<PairJob>& jobs, const EngineOptions& o, std::size_t stop_after = 0,
              EngineReport* report = nullptr) {
  Delivered d;
  const EngineReport r = score_pairs(
      jobs, o,
      [&](const PairOutcome& p) {
        d.ids.push_back(p.id);
        if (p.result)
          d.mad[p.id] = p.result->mad;
        else
          d.errors[p.id] = p.error;
      },
      [&] { return stop_after && d.ids.size() >= stop_after; });
  if (report) *report = r;
  return d;
}

using test::same_bits;

TEST(PairEngine, InOrderDeliversJobOrderFromSeveralWorkers) {
  const Images images("order");
  const auto jobs = grouped_jobs(images);
  EngineReport report;
  const Delivered d = run(jobs, cpu_options(2, true), 0, &report);
  std::vector<std::size_t> expected;
  for (const auto& j : jobs) expected.push_back(j.id);
  EXPECT_EQ(d.ids, expected);
  EXPECT_EQ(report.workers, 2);
  EXPECT_EQ(report.scored, jobs.size());
  EXPECT_EQ(report.failed, 0u);
  // The workers' wait on decoding is part of their time: between 0 and workers x wall time.
  EXPECT_GE(report.decode_wait_seconds, 0.0);
  EXPECT_LE(report.decode_wait_seconds, report.workers * report.seconds);
  EXPECT_EQ(report.gpu_wait_seconds, 0.0);  // the CPU backend has no GPU to wait on
  // Bit-identical to the single-pair API.
  ScoreOptions so;
  so.backend = Backend::Cpu;
  for (const auto& j : jobs) {
    const double expected_mad = score(load_gray_image(j.ref), load_gray_image(j.dist), so).mad;
    EXPECT_TRUE(same_bits(d.mad.at(j.id), expected_mad)) << j.dist;
  }
}

// --decode-threads: each worker's pool has exactly that many threads (the report sums them),
// whatever the cores, and the scores stay those of the default pools.
TEST(PairEngine, DecodeThreadsSetsEachWorkersPool) {
  const Images images("decode_threads");
  const auto jobs = grouped_jobs(images);
  EngineReport by_default, asked;
  const Delivered a = run(jobs, cpu_options(2, true), 0, &by_default);
  EngineOptions options = cpu_options(2, true);
  options.decode_threads = 5;
  const Delivered b = run(jobs, options, 0, &asked);
  EXPECT_EQ(asked.decode_threads, 10u);
  EXPECT_EQ(b.ids, a.ids);
  for (const auto& j : jobs) EXPECT_TRUE(same_bits(b.mad.at(j.id), a.mad.at(j.id))) << j.dist;
}

// Each worker's timing (issue 26): when its first pair came back, its steady rate from its
// 32nd pair on, and no steady rate for a worker with too few pairs to have one. Two reference
// groups of 70 and 20 pairs: worker 0 gets the first, worker 1 the second.
TEST(PairEngine, WorkerTimingSplitsTheStartFromTheSteadyRate) {
  const Images images("timing");
  std::vector<PairJob> jobs;
  const std::size_t group_sizes[] = {70, 20};
  for (std::uint32_t r = 0; r < 2; ++r) {
    const std::string ref = images.write("ref" + std::to_string(r) + ".png", 300 + r);
    for (std::uint32_t k = 0; k < group_sizes[r]; ++k)
      jobs.push_back({jobs.size(), ref,
                      images.write("d" + std::to_string(r) + "_" + std::to_string(k) + ".png",
                                   400 + 100 * r + k),
                      ""});
  }
  EngineReport report;
  run(jobs, cpu_options(2, true), 0, &report);
  ASSERT_EQ(report.worker_timing.size(), 2u);
  const WorkerTiming& busy = report.worker_timing[0];
  const WorkerTiming& brief = report.worker_timing[1];
  EXPECT_EQ(busy.pairs, 70u);
  EXPECT_EQ(brief.pairs, 20u);
  EXPECT_GT(busy.first_seconds, 0.0);
  EXPECT_LE(busy.first_seconds, busy.steady_from_seconds);
  EXPECT_LT(busy.steady_from_seconds, busy.last_seconds);
  EXPECT_LE(busy.last_seconds, report.seconds);
  EXPECT_DOUBLE_EQ(busy.steady_pairs_per_second(),
                   (70.0 - WorkerTiming::kSteadyFrom) /
                       (busy.last_seconds - busy.steady_from_seconds));
  EXPECT_GT(brief.first_seconds, 0.0);
  EXPECT_LE(brief.first_seconds, brief.last_seconds);
  EXPECT_EQ(brief.steady_from_seconds, 0.0);  // never reached its 32nd pair
  EXPECT_EQ(brief.steady_pairs_per_second(), 0.0);
}

// The GPU backend through the engine (decoding pool, a sleeping GPU thread, overlapped slots,
// reused references): the scores of the single-pair API on the same backend, and the wait
// counters within the workers' time.
TEST(PairEngine, TheGpuBackendScoresAsTheSinglePairApi) {
  if (gpu_count() == 0) GTEST_SKIP() << "no CUDA device";
  const Images images("gpu");
  const auto jobs = grouped_jobs(images);
  EngineOptions o(choose_backend(Backend::Cuda));
  o.in_order = true;
  EngineReport report;
  const Delivered d = run(jobs, o, 0, &report);
  ASSERT_EQ(report.backend, Backend::Cuda);
  EXPECT_EQ(report.scored, jobs.size());
  EXPECT_GE(report.gpu_wait_seconds, 0.0);
  EXPECT_GE(report.decode_wait_seconds, 0.0);
  EXPECT_LE(report.gpu_wait_seconds + report.decode_wait_seconds, report.workers * report.seconds);
  ScoreOptions so;
  so.backend = Backend::Cuda;
  for (const auto& j : jobs) {
    const double expected_mad = score(load_gray_image(j.ref), load_gray_image(j.dist), so).mad;
    EXPECT_TRUE(same_bits(d.mad.at(j.id), expected_mad)) << j.dist;
  }
  // Two workers on each device: twice the workers, the same scores in the same order.
  o.workers_per_gpu = 2;
  EngineReport two;
  const Delivered d2 = run(jobs, o, 0, &two);
  EXPECT_EQ(two.workers, 2 * report.workers);
  EXPECT_EQ(two.gpus, report.gpus);
  EXPECT_EQ(d2.ids, d.ids);
  for (const auto& j : jobs) EXPECT_TRUE(same_bits(d2.mad.at(j.id), d.mad.at(j.id))) << j.dist;
}

TEST(PairEngine, WorkersPerGpuIsCheckedAgainstTheBackend) {
  EngineOptions o = cpu_options(1, true);
  o.workers_per_gpu = 2;
  EXPECT_THROW(plan_workers(o), InvalidArgument);  // the CPU backend has no GPU to share
  o.workers_per_gpu = 0;
  EXPECT_THROW(plan_workers(o), InvalidArgument);
}

TEST(PairEngine, FailedRowsAreDeliveredInTheirPlace) {
  const Images images("failed");
  auto jobs = grouped_jobs(images);
  jobs[1].dist = images.path("missing.png");        // a decode error
  jobs[3].error = "line 5: expected two columns";   // failed before scoring
  jobs[3].dist = images.path("never_decoded.png");  // (does not exist either)
  EngineReport report;
  const Delivered d = run(jobs, cpu_options(1, true), 0, &report);
  ASSERT_EQ(d.ids.size(), jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) EXPECT_EQ(d.ids[i], i);
  ASSERT_EQ(d.errors.size(), 2u);
  EXPECT_NE(d.errors.at(1).find("missing.png"), std::string::npos) << d.errors.at(1);
  EXPECT_EQ(d.errors.at(3), "line 5: expected two columns");
  EXPECT_EQ(report.scored, jobs.size() - 2);
  EXPECT_EQ(report.failed, 2u);
}

TEST(PairEngine, AStoppedRunResumesOverTheRest) {
  const Images images("resume");
  const auto jobs = grouped_jobs(images);
  const Delivered full = run(jobs, cpu_options(1, true));
  EngineReport report;
  const Delivered first = run(jobs, cpu_options(1, true), 2, &report);
  EXPECT_EQ(first.ids, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(report.scored, 2u);
  // Resume: the jobs not delivered yet, as a front end rebuilds them from its results file.
  std::vector<PairJob> rest;
  for (const auto& j : jobs)
    if (!first.mad.count(j.id)) rest.push_back(j);
  const Delivered second = run(rest, cpu_options(2, false));
  std::map<std::size_t, double> both = first.mad;
  both.insert(second.mad.begin(), second.mad.end());
  ASSERT_EQ(both.size(), full.mad.size());
  for (const auto& [id, mad] : full.mad) EXPECT_TRUE(same_bits(both.at(id), mad)) << id;
}

// The decode-ahead depth: fixed when given; otherwise it starts small and, once the first pair's
// size is known, becomes as many pairs as the memory budget holds, capped by max_pairs. Pairs
// come out in list order with their images either way.
TEST(PairPrefetcher, DepthFollowsTheMemoryBudgetOfTheFirstPair) {
  Images images("prefetch_depth");
  std::vector<PairPaths> paths;
  for (std::uint32_t i = 0; i < 12; ++i)
    paths.push_back({images.write("r" + std::to_string(i) + ".png", i),
                     images.write("d" + std::to_string(i) + ".png", 50 + i)});
  const SourceImage one = load_source_image(paths[0].ref, false);
  const std::size_t pair_bytes = decoded_pair_bytes(one, one);
  EXPECT_EQ(pair_bytes, 2u * kSide * kSide * (sizeof(double) + 1));

  const auto depth_after_first = [&](PrefetchDepth depth) {
    PairPrefetcher prefetcher(paths, depth);
    const std::size_t initial = prefetcher.lookahead();
    std::size_t after = 0;
    for (std::size_t i = 0; prefetcher.has_next(); ++i) {
      const LoadedPair p = prefetcher.next();
      EXPECT_EQ(p.index, i);
      EXPECT_TRUE(p.error.empty()) << p.error;
      EXPECT_TRUE(p.dist && p.dist->width() == kSide);
      if (i == 0) after = prefetcher.lookahead();
    }
    return std::make_pair(initial, after);
  };
  EXPECT_EQ(depth_after_first({32, 2, std::size_t{1} << 30}),
            std::make_pair(std::size_t{2}, std::size_t{32}));
  EXPECT_EQ(depth_after_first({32, 2, 5 * pair_bytes + 1}),
            std::make_pair(std::size_t{2}, std::size_t{5}));
  EXPECT_EQ(depth_after_first({32, 2, pair_bytes / 2}),
            std::make_pair(std::size_t{2}, std::size_t{1}));
  EXPECT_EQ(depth_after_first({3, 8, std::size_t{1} << 30}),
            std::make_pair(std::size_t{3}, std::size_t{3}));
}

// A GPU worker's depth also stays within its page-locked pool (PrefetchDepth::pinned_bytes), so
// that every distorted colour image decoded ahead can get its page-locked copy: at most the
// distorted images the pool holds, never below kMinPinnedLookahead, and the memory budget and
// max_pairs still apply. Gray images take no page-locked copy, so the pool does not limit them.
TEST(PairPrefetcher, AGpuWorkersDepthStaysWithinItsPageLockedPool) {
  Images images("prefetch_pinned");
  std::vector<PairPaths> colour, gray;
  for (std::uint32_t i = 0; i < 6; ++i) {
    RawImage8 rgb;
    rgb.width = rgb.height = kSide;
    rgb.channels = 3;
    for (int k = 0; k < 3 * kSide * kSide; ++k)
      rgb.samples.push_back(static_cast<std::uint8_t>((k * 37 + i * 11) % 251));
    const std::string path = images.path("c" + std::to_string(i) + ".png");
    save_png8(path, rgb);
    colour.push_back({path, path});
    gray.push_back({images.write("g" + std::to_string(i) + ".png", i),
                    images.write("h" + std::to_string(i) + ".png", 50 + i)});
  }
  const std::size_t image_bytes = 3u * kSide * kSide;  // one distorted image's colour samples
  const auto depth_after_first = [](const std::vector<PairPaths>& paths, PrefetchDepth depth) {
    PairPrefetcher prefetcher(paths, depth, /*keep_8bit=*/true);
    std::size_t after = 0;
    for (std::size_t i = 0; prefetcher.has_next(); ++i) {
      const LoadedPair p = prefetcher.next();
      EXPECT_TRUE(p.ref && p.dist) << p.error;
      if (i == 0) after = prefetcher.lookahead();
    }
    return after;
  };
  ASSERT_TRUE(load_source_image(colour[0].dist, true).has_colour());
  ASSERT_FALSE(load_source_image(gray[0].dist, true).has_colour());
  const std::size_t big = std::size_t{1} << 30;
  ASSERT_GT(kMinPinnedLookahead, 3u);
  ASSERT_LT(kMinPinnedLookahead, 20u);
  EXPECT_EQ(depth_after_first(colour, {64, 2, big, 0, 0}), 64u);  // no pool
  EXPECT_EQ(depth_after_first(colour, {64, 2, big, 0, 20 * image_bytes + 7}), 20u);
  EXPECT_EQ(depth_after_first(colour, {64, 2, big, 0, 3 * image_bytes}), kMinPinnedLookahead);
  EXPECT_EQ(depth_after_first(colour, {12, 2, big, 0, 20 * image_bytes}), 12u);  // max_pairs
  EXPECT_EQ(depth_after_first(colour, {64, 2, 5 * 2 * image_bytes, 0, 20 * image_bytes}), 5u);
  EXPECT_EQ(depth_after_first(gray, {64, 2, big, 0, 3 * image_bytes}), 64u);  // gray: no copy
}

// `count` pairs of gray PNGs, each run of `per_reference` pairs sharing a reference (as datasets
// list them).
std::vector<PairPaths> shared_reference_pairs(const Images& images, std::uint32_t count,
                                              std::uint32_t per_reference) {
  std::vector<PairPaths> paths;
  for (std::uint32_t i = 0; i < count; ++i)
    paths.push_back({images.write("r" + std::to_string(i / per_reference) + ".png",
                                  i / per_reference),
                     images.write("d" + std::to_string(i) + ".png", 50 + i)});
  return paths;
}

// Decoding for a GPU worker (keep_8bit), an 8-bit gray file is its uint8 plane alone: no double
// plane is built, and a pair counts 1 byte a pixel against the memory budget, so more pairs fit
// ahead (5 here, where the double planes as well would leave room for 1). Decoding for a CPU
// worker, the double plane is there, as load_gray_image makes it, and the pair counts 9 bytes a
// pixel.
TEST(PairPrefetcher, AGpuWorkersGrayPairHoldsItsUint8PlaneAlone) {
  Images images("prefetch_gray8");
  const std::vector<PairPaths> paths = shared_reference_pairs(images, 12, 3);
  const std::size_t uint8_pair = 2u * kSide * kSide;
  for (const bool keep_8bit : {true, false}) {
    SCOPED_TRACE(keep_8bit ? "GPU worker" : "CPU worker");
    PairPrefetcher prefetcher(paths, {32, 2, 5 * uint8_pair + 1}, keep_8bit);
    std::size_t after = 0;
    for (std::size_t i = 0; prefetcher.has_next(); ++i) {
      const LoadedPair p = prefetcher.next();
      ASSERT_TRUE(p.ref && p.dist) << p.error;
      const std::pair<const SourceImage*, std::string> sides[] = {{p.ref.get(), paths[i].ref},
                                                                 {p.dist.get(), paths[i].dist}};
      for (const auto& [image, path] : sides) {
        const GrayImage want = load_gray_image(path);
        EXPECT_FALSE(image->has_colour());
        EXPECT_EQ(image->gray8_only(), keep_8bit);
        EXPECT_EQ(image->width(), kSide);
        EXPECT_EQ(image->height(), kSide);
        EXPECT_EQ(image->gray.gray8, want.gray8);
        if (keep_8bit)
          EXPECT_TRUE(image->gray.pixels.empty());
        else
          EXPECT_EQ(test::max_abs_diff(image->gray.pixels.cview(), want.pixels.cview()), 0.0);
      }
      EXPECT_EQ(decoded_pair_bytes(*p.ref, *p.dist),
                keep_8bit ? uint8_pair : uint8_pair * (1 + sizeof(double)));
      if (i == 0) after = prefetcher.lookahead();
    }
    EXPECT_EQ(after, keep_8bit ? 5u : 1u);
  }
}

// The uint8 planes a GPU worker's decoder keeps score, on the CPU backend (which widens them on
// the host), with the same bits as the gray images load_gray_image makes of the same files.
TEST(PairPrefetcher, AGpuWorkersGrayPairsScoreAsTheGrayLoaderOnTheCpu) {
  Images images("prefetch_gray8_scores");
  const std::vector<PairPaths> paths = shared_reference_pairs(images, 4, 2);
  ScoreOptions o;
  o.backend = Backend::Cpu;
  BatchScorer batch(o, ResolvedBackend(o.backend));
  Scorer single(o);
  PairPrefetcher prefetcher(paths, {4, 2, std::size_t{1} << 30}, /*keep_8bit=*/true);
  std::vector<BatchScorer::Finished> done;
  for (std::uint64_t i = 0; prefetcher.has_next(); ++i) {
    const LoadedPair p = prefetcher.next();
    ASSERT_TRUE(p.ref && p.dist && p.ref->gray8_only() && p.dist->gray8_only()) << p.error;
    for (auto& f : batch.submit(i, p.ref, p.dist)) done.push_back(std::move(f));
  }
  for (auto& f : batch.drain()) done.push_back(std::move(f));
  ASSERT_EQ(done.size(), paths.size());
  for (std::size_t i = 0; i < done.size(); ++i) {
    ASSERT_TRUE(done[i].ok) << done[i].error;
    const ScoreResult want =
        single.score(load_gray_image(paths[i].ref), load_gray_image(paths[i].dist));
    EXPECT_TRUE(same_bits(done[i].result.mad, want.mad)) << i;
    EXPECT_TRUE(same_bits(done[i].result.hi, want.hi)) << i;
    EXPECT_TRUE(same_bits(done[i].result.lo, want.lo)) << i;
  }
}

// A reference that fails to decode fails each of its pairs, naming the file, and the next
// reference's pairs decode as usual; the counters see every decode, failed ones included, and
// a repeated reference is decoded once.
TEST(PairPrefetcher, AFailedReferenceFailsItsPairsOnly) {
  Images images("prefetch_ref_error");
  const std::string missing = images.path("no_such_reference.png");
  const std::string good = images.write("r.png", 3);
  std::vector<PairPaths> paths;
  for (std::uint32_t i = 0; i < 3; ++i)
    paths.push_back({missing, images.write("a" + std::to_string(i) + ".png", 10 + i)});
  for (std::uint32_t i = 0; i < 3; ++i)
    paths.push_back({good, images.write("b" + std::to_string(i) + ".png", 20 + i)});
  PairPrefetcher prefetcher(paths, {4, 2, std::size_t{1} << 30});
  for (std::size_t i = 0; prefetcher.has_next(); ++i) {
    const LoadedPair p = prefetcher.next();
    EXPECT_EQ(p.index, i);
    if (i < 3) {
      EXPECT_NE(p.error.find("no_such_reference.png"), std::string::npos) << p.error;
      EXPECT_FALSE(p.ref || p.dist);
    } else {
      EXPECT_TRUE(p.error.empty()) << p.error;
      ASSERT_TRUE(p.ref && p.dist);
      EXPECT_EQ(p.ref->width(), kSide);
    }
  }
  EXPECT_EQ(prefetcher.decoded_images(), 8u);  // 6 distorted, 2 references
  EXPECT_GT(prefetcher.decode_seconds(), 0.0);
  EXPECT_GE(prefetcher.decode_threads(), 1u);
}

}  // namespace
}  // namespace mad

namespace mad {
namespace {

// The decoding budget without --lookahead or an explicit size: a sixteenth of the host's memory,
// 1..8 GiB and at most a quarter of it, read from the same source the test reads (/proc/meminfo's MemTotal is the kernel's
// count of the pages sysconf reports).
TEST(PairEngine, DefaultDecodeBudgetIsASixteenthOfMemoryWithin1To8GiB) {
  constexpr std::size_t kGiB = std::size_t{1} << 30;
  const std::size_t got = default_decode_memory_bytes();
  EXPECT_GE(got, kGiB);
  EXPECT_LE(got, 8 * kGiB);
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  while (meminfo >> key >> kib)
    if (key == "MemTotal:") break;
  if (key != "MemTotal:") GTEST_SKIP() << "no MemTotal in /proc/meminfo";
  const std::size_t cgroup = process_allotment().cgroup_memory_bytes;
  if (cgroup != 0 && cgroup < kib * 1024)  // tests/tools/cli_allotment_test.cpp covers this case
    GTEST_SKIP() << "a cgroup's memory.max is below the host's memory";
  const std::size_t want = std::min(std::clamp(kib * 1024 / 16, kGiB, 8 * kGiB), kib * 1024 / 4);
  // MemTotal excludes the kernel's reserved pages: within 3% of the physical count.
  EXPECT_NEAR(static_cast<double>(got), static_cast<double>(want), 0.03 * want);
}

}  // namespace
}  // namespace mad
