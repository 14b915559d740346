// Issue 39 item 3: the CPUs and memory a process is allotted (common/allotment.h): its affinity
// mask, and the cgroup v2 cpu.max and memory.max of its cgroup and the cgroup's ancestors, read
// from a folder of the test's own (the files' formats are the kernel's:
// Documentation/admin-guide/cgroup-v2.rst). The command line's use of them:
// tests/tools/cli_allotment_test.cpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/allotment.h"
#include "tests/support/test_support.h"

#ifdef __linux__
#include <sched.h>
#endif

namespace mad {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t kGiB = std::size_t{1} << 30;

void write_file(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

TEST(Allotment, ParsesCpuMaxAndMemoryMaxAsTheKernelWritesThem) {
  EXPECT_DOUBLE_EQ(parse_cpu_max("150000 100000\n"), 1.5);
  EXPECT_DOUBLE_EQ(parse_cpu_max("400000 100000"), 4.0);
  EXPECT_EQ(parse_cpu_max("max 100000"), 0.0);
  EXPECT_EQ(parse_cpu_max(""), 0.0);
  EXPECT_EQ(parse_cpu_max("12x 100000"), 0.0);
  EXPECT_EQ(parse_cpu_max("100000 0"), 0.0);
  EXPECT_EQ(parse_memory_max("8589934592\n"), 8 * kGiB);
  EXPECT_EQ(parse_memory_max("max"), 0u);
  EXPECT_EQ(parse_memory_max(""), 0u);
}

// A limit on an ancestor binds its descendants: the lowest over the walk up to the root counts.
TEST(Allotment, TheLowestLimitOverTheCgroupAndItsAncestorsCounts) {
  const fs::path root = test::fresh_scratch_dir("mad_allotment_walk");
  write_file(root / "memory.max", "4294967296\n");
  write_file(root / "job/cpu.max", "200000 100000\n");
  write_file(root / "job/step/cpu.max", "max 100000\n");
  write_file(root / "job/step/memory.max", "8589934592\n");
  const CgroupLimits in_step = read_cgroup_limits(root.string(), "/job/step");
  EXPECT_DOUBLE_EQ(in_step.cpus, 2.0);
  EXPECT_EQ(in_step.memory_bytes, 4 * kGiB);
  EXPECT_EQ(in_step.folder, (root / "job/step").string());
  write_file(root / "job/step/cpu.max", "50000 100000\n");
  EXPECT_DOUBLE_EQ(read_cgroup_limits(root.string(), "/job/step").cpus, 0.5);
  // A path the root does not hold (another cgroup namespace), or one leaving it: the root alone.
  const CgroupLimits elsewhere = read_cgroup_limits(root.string(), "/not/here");
  EXPECT_EQ(elsewhere.cpus, 0.0);
  EXPECT_EQ(elsewhere.memory_bytes, 4 * kGiB);
  EXPECT_EQ(read_cgroup_limits(root.string(), "/../..").folder, root.string());
  EXPECT_EQ(read_cgroup_limits((root / "absent").string(), "/").folder, "");
  fs::remove_all(root);
}

#ifdef __linux__
// The calling thread's affinity mask limited to one CPU (as `taskset -c 0` does) is one CPU.
TEST(Allotment, AnAffinityMaskOfOneCpuAllotsOne) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof before, &before), 0);
  if (CPU_COUNT(&before) < 2) GTEST_SKIP() << "this process may run on one CPU only";
  int first = 0;
  while (!CPU_ISSET(first, &before)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const Allotment a = read_allotment();
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
  EXPECT_EQ(a.affinity_cpus, 1);
  EXPECT_EQ(a.cpus, 1);
  EXPECT_EQ(a.cpus_from, "affinity mask");
  const Allotment all = read_allotment();
  EXPECT_EQ(all.affinity_cpus, CPU_COUNT(&before));
}
#endif

// MAD_CGROUP_ROOT in place of the cgroup v2 mount: a quota of half a CPU is one CPU (rounded
// up), and 2 GiB of memory.max is the memory when the host has more.
TEST(Allotment, TheCgroupQuotaAndMemoryLimitBindUnderMadCgroupRoot) {
  const fs::path root = test::fresh_scratch_dir("mad_allotment_root");
  write_file(root / "cpu.max", "50000 100000\n");
  write_file(root / "memory.max", std::to_string(2 * kGiB) + "\n");
  ASSERT_EQ(setenv("MAD_CGROUP_ROOT", root.c_str(), 1), 0);
  const Allotment a = read_allotment();
  write_file(root / "cpu.max", "max 100000\n");
  write_file(root / "memory.max", "max\n");
  const Allotment unlimited = read_allotment();
  unsetenv("MAD_CGROUP_ROOT");
  fs::remove_all(root);
  EXPECT_DOUBLE_EQ(a.cgroup_cpus, 0.5);
  EXPECT_EQ(a.cpus, 1);
  EXPECT_EQ(a.cpus_from, "cgroup cpu.max");
  EXPECT_EQ(a.cgroup_memory_bytes, 2 * kGiB);
  if (a.physical_memory_bytes > 2 * kGiB) {
    EXPECT_EQ(a.memory_bytes, 2 * kGiB);
    EXPECT_EQ(a.memory_from, "cgroup memory.max");
  }
  EXPECT_EQ(unlimited.cgroup_cpus, 0.0);
  EXPECT_EQ(unlimited.cpus, std::min(unlimited.hardware_cpus, unlimited.affinity_cpus > 0
                                                                  ? unlimited.affinity_cpus
                                                                  : unlimited.hardware_cpus));
  EXPECT_EQ(unlimited.memory_bytes, unlimited.physical_memory_bytes);
  EXPECT_EQ(unlimited.memory_from, "physical");
}

}  // namespace
}  // namespace mad
