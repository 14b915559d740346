// Issue 39 item 3: mad sizes its threads and its decoding budget from what the process is
// allotted, not from the machine: under `taskset -c 0` one scoring and one decoding thread (it
// started two on a 2-core machine before), and under a cgroup (given here through
// MAD_CGROUP_ROOT, a folder of the test's own) the quota's CPUs and memory.max's memory. The
// figures used are in `mad eval --json`'s settings.allotment; decode_threads is the decoding
// pool's real size.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <thread>

#include "common/error.h"
#include "tests/tools/cli_scratch.h"

namespace mad {
namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

class Allotted : public test::CliScratch {
 protected:
  void SetUp() override {
    CliScratch::SetUp();
    ASSERT_EQ(mad("eval data --make-synthetic --synthetic-refs 1 --synthetic-types 1 "
                  "--synthetic-size 40x40 -q")
                  .exit_code,
              kExitOk);
  }
  // `mad eval` of the set on the CPU, run behind `prefix` (a command or variables); its JSON.
  nlohmann::json eval_json(const std::string& prefix) {
    std::filesystem::remove(path("sum.json"));
    const auto r = test::run_command("cd '" + dir_.string() + "' && " + prefix + " " +
                                     MAD_BINARY + " eval data --backend cpu --bootstrap 10 " +
                                     "--out out.csv --force --json sum.json -q 2>&1");
    EXPECT_EQ(r.exit_code, kExitOk) << r.out;
    return nlohmann::json::parse(read("sum.json"), nullptr, false);
  }
  // The run was sized for one CPU, found where `from` says: one scoring and one decoding thread.
  static void expect_one_cpu(const nlohmann::json& j, const std::string& from) {
    const auto& a = j["settings"]["allotment"];
    EXPECT_EQ(a["cpus"], 1) << a;
    EXPECT_EQ(a["cpus_from"], from) << a;
    EXPECT_EQ(a["scoring_threads"], 1) << a;
    EXPECT_EQ(j["run"]["decode_threads"], 1) << j["run"];
  }
  static bool two_cpus() {
    const auto r = test::run_command("taskset -c 0,1 true 2>&1");
    return r.exit_code == 0 && std::thread::hardware_concurrency() >= 2;
  }
};

TEST_F(Allotted, TasksetLimitsTheScoringAndDecodingThreads) {
  if (!two_cpus()) GTEST_SKIP() << "needs taskset and 2 CPUs";
  const auto one = eval_json("taskset -c 0");
  EXPECT_EQ(one["settings"]["allotment"]["affinity_cpus"], 1) << one["settings"];
  expect_one_cpu(one, "affinity mask");
  const auto two = eval_json("taskset -c 0,1");
  EXPECT_EQ(two["settings"]["allotment"]["cpus"], 2) << two["settings"];
  EXPECT_EQ(two["settings"]["allotment"]["scoring_threads"], 2) << two["settings"];
  EXPECT_EQ(two["run"]["decode_threads"], 2) << two["run"];
  // --threads still sets the scoring threads, over the allotment.
  const auto r = test::run_command("cd '" + dir_.string() + "' && taskset -c 0 " + MAD_BINARY +
                                   " eval data --backend cpu --bootstrap 10 --out out.csv "
                                   "--force --json sum.json -q --threads 3 2>&1");
  ASSERT_EQ(r.exit_code, kExitOk) << r.out;
  EXPECT_EQ(nlohmann::json::parse(read("sum.json"))["settings"]["allotment"]["scoring_threads"],
            3);
}

// A cgroup of half a CPU and 2 GiB: one CPU (the quota rounded up), and a decoding budget of a
// quarter of the 2 GiB (1/16 of it would be below the 1 GiB floor of a large host).
TEST_F(Allotted, ACgroupQuotaAndMemoryLimitSizeTheRun) {
  write("cgroup/cpu.max", "50000 100000\n");
  write("cgroup/memory.max", std::to_string(2 * kGiB) + "\n");
  const auto j = eval_json("MAD_CGROUP_ROOT='" + path("cgroup") + "'");
  const auto& a = j["settings"]["allotment"];
  EXPECT_EQ(a["cgroup_cpus"], 0.5) << a;
  expect_one_cpu(j, "cgroup cpu.max");
  EXPECT_EQ(a["cgroup_memory_bytes"], 2 * kGiB) << a;
  if (a["physical_memory_bytes"].get<std::size_t>() > 2 * kGiB) {
    EXPECT_EQ(a["memory_bytes"], 2 * kGiB) << a;
    EXPECT_EQ(a["memory_from"], "cgroup memory.max") << a;
    EXPECT_EQ(a["decode_memory_bytes"], kGiB / 2) << a;
  }
  // No limits in the cgroup: the host's memory, and a budget of 1..8 GiB.
  write("cgroup/cpu.max", "max 100000\n");
  write("cgroup/memory.max", "max\n");
  const auto free = eval_json("MAD_CGROUP_ROOT='" + path("cgroup") + "'");
  const auto& f = free["settings"]["allotment"];
  EXPECT_EQ(f["cgroup_memory_bytes"], 0) << f;
  EXPECT_EQ(f["memory_from"], "physical") << f;
  if (f["physical_memory_bytes"].get<std::size_t>() >= 16 * kGiB) {
    EXPECT_GE(f["decode_memory_bytes"].get<std::size_t>(), kGiB) << f;
  }
}

// memory.max also bounds the memory check of a pair on the CPU: what the host has free is not
// what the job may take (1 MiB: no pair fits).
TEST_F(Allotted, ACgroupMemoryLimitBoundsTheCpuMemoryCheck) {
  write("cgroup/memory.max", "1048576\n");
  const auto r = test::run_command("cd '" + dir_.string() + "' && MAD_CGROUP_ROOT='" +
                                   path("cgroup") + "' " + MAD_BINARY +
                                   " score --backend cpu ref.png dist.png 2>&1");
  EXPECT_EQ(r.exit_code, kExitInput) << r.out;
  EXPECT_TRUE(test::has(r.out, "of memory on the CPU path")) << r.out;
  EXPECT_EQ(mad("score --backend cpu ref.png dist.png").exit_code, kExitOk);
}

}  // namespace
}  // namespace mad
