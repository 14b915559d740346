// `mad score --pairs` reads and scores a long list a chunk at a time, so its memory does not grow
// with the list (issue 14: a 10^6-row list streams in flat memory). The rows name missing images:
// each fails at once, so the run measures the list and the engine, not the scoring.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace fs = std::filesystem;

namespace mad {
namespace {

// Runs `mad score --pairs LIST --backend cpu` with its output discarded; returns the child's
// exit code and peak resident memory (KiB, from wait4).
std::pair<int, long> run_list(const fs::path& list) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(MAD_BINARY, MAD_BINARY, "score", "--pairs", list.c_str(), "--backend", "cpu",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  EXPECT_EQ(wait4(pid, &status, 0, &usage), pid);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
}

fs::path write_list(const fs::path& dir, int rows) {
  const fs::path list = dir / ("list_" + std::to_string(rows) + ".csv");
  std::ofstream out(list);
  out << "ref,dist\n";
  // Paths of a realistic length (~60 characters), a few references shared as in datasets.
  for (int i = 0; i < rows; ++i)
    out << "missing/reference_images/I" << (i % 25) << ".png,missing/distorted_images/I" << (i % 25)
        << "_" << i << "_distortion.png\n";
  return list;
}

TEST(CliPairsMemory, ALongListStreamsInFlatMemory) {
  if (test::kAddressSanitizer) GTEST_SKIP() << "resident memory under ASan measures its quarantine";
  const fs::path dir = test::fresh_scratch_dir("mad_pairs_memory");
  // 5000 rows fit in one chunk; 25000 rows are six. Holding the whole list (the old behaviour)
  // grew the peak by about 0.34 KiB a row, i.e. ~6.6 MiB between the two; a chunked run stays
  // within noise of the small one.
  const auto [small_exit, small_peak] = run_list(write_list(dir, 5000));
  const auto [large_exit, large_peak] = run_list(write_list(dir, 25000));
  EXPECT_EQ(small_exit, kExitPartial);  // every row fails (missing images) and is reported
  EXPECT_EQ(large_exit, kExitPartial);
  constexpr long kFlatKiB = 3 * 1024;  // allocator and stdio noise, far below 20000 rows' paths
  EXPECT_LT(large_peak - small_peak, kFlatKiB)
      << "peak " << small_peak << " KiB for 5000 rows, " << large_peak << " KiB for 25000";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mad
