#include "common/allotment.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <cctype>
#include <fstream>
#include <vector>
#include <thread>

#ifdef __linux__
#include <sched.h>
#include <unistd.h>
#endif

namespace mad {
namespace fs = std::filesystem;
namespace {

// The whitespace-separated words of a line. The numbers in them are read with strtod/strtoull,
// never with a stream's operator>>: in a Python process whose interpreter brought another
// libstdc++ (Ubuntu 24.04's python3.12 with a wheel-built torch venv), a stream's number
// extraction in our module jumped into garbage (an H200 run, 2026-11-29: SIGSEGV in
// std::istream::operator>>(double&) from the first cgroup read), while the C functions are
// libc's alone.
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// A whole word as a number (false for anything else: "max", "", "12x").
bool whole_double(const std::string& word, double& value) {
  char* end = nullptr;
  value = std::strtod(word.c_str(), &end);
  return !word.empty() && end != word.c_str() && *end == '\0';
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// The cgroup v2 hierarchy's mount point: MAD_CGROUP_ROOT, else /proc/self/mounts's cgroup2
// entry (under /sys/fs/cgroup/unified on hosts that mount v1 and v2 side by side).
std::string cgroup_root() {
  if (const char* forced = std::getenv("MAD_CGROUP_ROOT"); forced && *forced) return forced;
  std::ifstream mounts("/proc/self/mounts");
  for (std::string line; std::getline(mounts, line);) {
    const std::vector<std::string> w = words(line);  // device, mount point, type, ...
    if (w.size() >= 3 && w[2] == "cgroup2") return w[1];
  }
  return "/sys/fs/cgroup";
}

// CPUs in the calling thread's affinity mask; 0 when it cannot be read. The mask is asked
// for in growing sizes, as the kernel refuses a buffer smaller than its own CPU count.
int affinity_cpu_count() {
#ifdef __linux__
  for (int size = 1024; size <= (1 << 20); size *= 2) {
    cpu_set_t* set = CPU_ALLOC(size);
    if (!set) return 0;
    const std::size_t bytes = CPU_ALLOC_SIZE(size);
    const int got = sched_getaffinity(0, bytes, set) == 0 ? CPU_COUNT_S(bytes, set) : -1;
    CPU_FREE(set);
    if (got >= 0) return got;
    if (errno != EINVAL) return 0;
  }
#endif
  return 0;
}

std::size_t physical_memory() {
#ifdef __linux__
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
#endif
  return 0;
}

// The lower of two limits where 0 means none.
template <typename T>
T lower_limit(T a, T b) {
  return a == 0 ? b : b == 0 ? a : std::min(a, b);
}

}  // namespace

double parse_cpu_max(const std::string& text) {
  const std::vector<std::string> w = words(text);  // "QUOTA PERIOD", QUOTA "max" for none
  double q = 0.0, period = 0.0;
  if (w.size() < 2 || !whole_double(w[0], q) || !whole_double(w[1], period)) return 0.0;
  if (!(q > 0.0) || !(period > 0.0)) return 0.0;
  return q / period;
}

std::size_t parse_memory_max(const std::string& text) {
  const std::vector<std::string> w = words(text);
  if (w.empty() || !std::isdigit(static_cast<unsigned char>(w[0][0]))) return 0;  // "max": none
  char* end = nullptr;
  const unsigned long long bytes = std::strtoull(w[0].c_str(), &end, 10);
  if (*end != '\0') return 0;  // unreadable: no limit
  return static_cast<std::size_t>(bytes);
}

std::string own_cgroup_path() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::", 0) == 0) return line.size() > 3 ? line.substr(3) : "/";
  return "/";
}

CgroupLimits read_cgroup_limits(const std::string& root, const std::string& relative) {
  CgroupLimits limits;
  std::error_code ec;
  fs::path top = fs::path(root).lexically_normal();
  if (!top.has_filename() && top.has_parent_path()) top = top.parent_path();  // "a/b/" is "a/b"
  if (!fs::is_directory(top, ec)) return limits;
  fs::path at = (top / fs::path(relative).relative_path()).lexically_normal();
  if (!at.has_filename() && at.has_parent_path()) at = at.parent_path();
  // A path that leaves the root ("..") or names no folder there: the root alone.
  if (at.string().rfind(top.string(), 0) != 0 || !fs::is_directory(at, ec)) at = top;
  limits.folder = at.string();
  for (;;) {
    limits.cpus = lower_limit(limits.cpus, parse_cpu_max(first_line(at / "cpu.max")));
    limits.memory_bytes =
        lower_limit(limits.memory_bytes, parse_memory_max(first_line(at / "memory.max")));
    if (at == top || at.parent_path() == at) break;
    at = at.parent_path();
  }
  return limits;
}

Allotment read_allotment() {
  Allotment a;
  a.hardware_cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  a.affinity_cpus = affinity_cpu_count();
  const CgroupLimits cgroup = read_cgroup_limits(cgroup_root(), own_cgroup_path());
  a.cgroup = cgroup.folder;
  a.cgroup_cpus = cgroup.cpus;
  a.cpus = a.hardware_cpus;
  if (a.affinity_cpus > 0 && a.affinity_cpus < a.cpus) {
    a.cpus = a.affinity_cpus;
    a.cpus_from = "affinity mask";
  }
  const int quota_cpus = static_cast<int>(std::ceil(a.cgroup_cpus));
  if (quota_cpus > 0 && quota_cpus < a.cpus) {
    a.cpus = quota_cpus;
    a.cpus_from = "cgroup cpu.max";
  }
  a.physical_memory_bytes = physical_memory();
  a.cgroup_memory_bytes = cgroup.memory_bytes;
  a.memory_bytes = lower_limit(a.physical_memory_bytes, a.cgroup_memory_bytes);
  if (a.cgroup_memory_bytes != 0 && a.memory_bytes == a.cgroup_memory_bytes)
    a.memory_from = "cgroup memory.max";
  return a;
}

const Allotment& process_allotment() {
  static const Allotment once = read_allotment();
  return once;
}

}  // namespace mad
