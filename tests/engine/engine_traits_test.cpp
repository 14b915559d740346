// The engine reads what differs between backends from their traits (mad/backends/pair_backend.h),
// never from which backend runs: a fake backend with one trait on and off behaves differently.
// And the backend reaches BatchScorer and the engine resolved: Auto cannot get there.
#include <gtest/gtest.h>

#include <type_traits>

#include "mad/batch_scorer.h"
#include "mad/devices.h"
#include "mad/engine/engine_run.h"
#include "mad/engine/prefetch_plan.h"
#include "tests/engine/fake_slots.h"
#include "tests/support/test_support.h"

namespace mad::test {
namespace {

// Three 8-bit gray pairs on disk, each distorted image carrying its pair's number.
std::vector<PairJob> gray8_jobs(const std::string& name) {
  const auto dir = fresh_scratch_dir(name);
  std::vector<PairJob> jobs;
  const std::string ref = write_numbered_png(dir, "ref.png", 0, 50);
  for (int i = 0; i < 3; ++i)
    jobs.push_back({static_cast<std::size_t>(i), ref,
                    write_numbered_png(dir, "d" + std::to_string(i) + ".png", 300 + i, 100), ""});
  return jobs;
}

// A fake device backend with `traits`, scoring on `gpu`'s fake slots.
BackendMaker fake_maker(FakeGpu& gpu, BackendTraits traits) {
  return {ResolvedBackend(Backend::Cuda), traits, [&gpu](const ScoreOptions&) {
            return std::unique_ptr<PairBackend>(fake_scheduler(gpu, {4, 3, SIZE_MAX}));
          }};
}

EngineReport run_on(const BackendMaker& maker, const std::vector<PairJob>& jobs,
                    std::vector<double>& d_detect) {
  EngineOptions options(choose_backend(Backend::Cpu));
  options.in_order = true;
  return score_pairs_on(maker, jobs, options, [&](const PairOutcome& o) {
    d_detect.push_back(o.result ? o.result->d_detect : -1.0);
  }, {});
}

TEST(EngineTraits, EightBitSamplesReachABackendThatTakesThem) {
  const auto jobs = gray8_jobs("traits_8bit");
  for (const bool takes : {true, false}) {
    FakeGpu gpu;
    BackendTraits traits;
    traits.takes_8bit_samples = takes;
    std::vector<double> d_detect;
    run_on(fake_maker(gpu, traits), jobs, d_detect);
    EXPECT_EQ(d_detect, (std::vector<double>{300, 301, 302})) << "takes 8-bit: " << takes;
    // On: the decoder keeps each gray file's uint8 plane alone; off: it makes double planes.
    EXPECT_EQ(gpu.gray8_only_inputs, takes ? 6 : 0);
    EXPECT_EQ(gpu.plane_inputs, takes ? 0 : 6);
  }
}

TEST(EngineTraits, ABackendOnDevicesGetsItsWorkersBoundToThem) {
  const auto jobs = gray8_jobs("traits_devices");
  FakeGpu host_gpu;
  std::vector<double> d_detect;
  const EngineReport host = run_on(fake_maker(host_gpu, BackendTraits{}), jobs, d_detect);
  ASSERT_EQ(host.devices.size(), 1u);
  EXPECT_EQ(host.devices[0].rfind("cpu worker 0", 0), 0u) << host.devices[0];
  BackendTraits on_devices;
  on_devices.uses_devices = true;
  FakeGpu device_gpu;
  d_detect.clear();
  if (gpu_count() == 0) {
    // The worker binds its thread to device 0 before it scores: here there is none.
    EXPECT_THROW(run_on(fake_maker(device_gpu, on_devices), jobs, d_detect), GpuError);
    EXPECT_TRUE(d_detect.empty());
  } else {
    const EngineReport r = run_on(fake_maker(device_gpu, on_devices), jobs, d_detect);
    EXPECT_EQ(r.devices[0].rfind("GPU 0: ", 0), 0u) << r.devices[0];
  }
}

TEST(EngineTraits, DecodingLeavesTheCoresSpinningScorersHold) {
  EngineOptions options(choose_backend(Backend::Cpu));
  BackendTraits traits;
  EXPECT_EQ(prefetch_depth(options, 2, traits, 16).threads, 8u);
  traits.holds_core_while_waiting = true;
  EXPECT_EQ(prefetch_depth(options, 2, traits, 16).threads, 7u);  // (16 - 2) / 2
}

TEST(EngineTraits, PageLockedCopiesOnlyForABackendThatReadsThem) {
  EngineOptions options(choose_backend(Backend::Cpu));
  options.decode_memory_bytes = std::size_t{1} << 30;
  BackendTraits traits;
  EXPECT_EQ(prefetch_depth(options, 1, traits, 4).pinned_bytes, 0u);
  traits.reads_page_locked_copies = true;
  EXPECT_EQ(prefetch_depth(options, 1, traits, 4).pinned_bytes, std::size_t{256} << 20);
}

// What each real backend asks of the engine: the CUDA backend everything its GPU workers had
// (a device each, 8-bit samples, page-locked copies, a spinning thread), the CPU backend none.
TEST(EngineTraits, EachBackendStatesItsOwn) {
  const BackendTraits cuda = backend_traits(ResolvedBackend(Backend::Cuda));
  EXPECT_TRUE(cuda.uses_devices);
  EXPECT_TRUE(cuda.takes_8bit_samples);
  EXPECT_TRUE(cuda.reads_page_locked_copies);
  EXPECT_TRUE(cuda.holds_core_while_waiting);
  const BackendTraits cpu = backend_traits(ResolvedBackend(Backend::Cpu));
  EXPECT_FALSE(cpu.uses_devices || cpu.takes_8bit_samples || cpu.reads_page_locked_copies ||
               cpu.holds_core_while_waiting);
  EXPECT_EQ(backend_maker(ResolvedBackend(Backend::Cpu)).make(ScoreOptions{})->kind(),
            Backend::Cpu);
}

TEST(ResolvedBackendOnly, AutoCannotReachABatchScorer) {
  // No constructor resolves Auto: a scorer takes a ResolvedBackend, which names Cpu or Cuda.
  static_assert(!std::is_constructible_v<BatchScorer, ScoreOptions>);
  static_assert(!std::is_convertible_v<Backend, ResolvedBackend>);
  EXPECT_THROW(ResolvedBackend{Backend::Auto}, InvalidArgument);
  // The request Auto on a resolved backend: the scorer runs on it, choosing nothing.
  const std::size_t before = backend_choices_made();
  ScoreOptions options;
  options.backend = Backend::Auto;
  BatchScorer cpu(options, ResolvedBackend(Backend::Cpu));
  EXPECT_EQ(cpu.backend(), Backend::Cpu);
  EXPECT_EQ(cpu.options().backend, Backend::Cpu);
  EXPECT_EQ(backend_choices_made(), before);
  // Options naming the other backend contradict the one given.
  options.backend = Backend::Cuda;
  EXPECT_THROW(BatchScorer(options, ResolvedBackend(Backend::Cpu)), InvalidArgument);
}

}  // namespace
}  // namespace mad::test
