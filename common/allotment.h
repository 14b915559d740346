// The CPUs and memory this process may use, as a cluster or a container grants them, rather
// than what the machine has (issue 39 item 3). Slurm, Kubernetes, Docker and `taskset` set
// three things: the CPU affinity mask (sched_getaffinity), the cgroup v2 CPU quota (cpu.max)
// and the cgroup v2 memory limit (memory.max). A job given 4 CPUs of a 128-core node that
// started 128 threads would have them take turns on 4; one given 8 GiB of a 1 TiB node that
// sized its buffers from the node's memory would be killed.
//
// The cgroup is the process's own (/proc/self/cgroup's "0::PATH" line) under the cgroup v2
// mount (found in /proc/self/mounts; /sys/fs/cgroup when none is listed). A limit set on an
// ancestor binds its descendants too, so the lowest over the cgroup and its ancestors counts.
// MAD_CGROUP_ROOT, when set, replaces the mount: the tests give a folder of their own there
// (docs/cli.md). cgroup v1's files are not read (the affinity mask still is).
#pragma once

#include <cstddef>
#include <string>

namespace mad {

struct Allotment {
  int hardware_cpus = 1;  // std::thread::hardware_concurrency(): the CPUs online
  int affinity_cpus = 0;  // CPUs in the affinity mask; 0: it could not be read
  double cgroup_cpus = 0.0;  // cpu.max quota / period, the lowest found; 0: no quota
  // What mad uses: the least of the three (the quota rounded up: rounding down would leave up
  // to a CPU's worth of the quota unused), at least 1; and which one set it ("hardware",
  // "affinity mask" or "cgroup cpu.max").
  int cpus = 1;
  std::string cpus_from = "hardware";
  std::size_t physical_memory_bytes = 0;  // 0: it could not be read
  std::size_t cgroup_memory_bytes = 0;    // memory.max, the lowest found; 0: no limit
  // The lesser of the two (0 when neither is known), and which one it is ("physical" or
  // "cgroup memory.max").
  std::size_t memory_bytes = 0;
  std::string memory_from = "physical";
  std::string cgroup;  // the cgroup folder read; "" when none was found
};

// The limits of the cgroup folder `root`/`relative` and of its ancestors up to `root`
// (included). When `root`/`relative` does not exist (a cgroup namespace that shows another
// path), `root` alone is read.
struct CgroupLimits {
  double cpus = 0.0;             // 0: no quota
  std::size_t memory_bytes = 0;  // 0: no limit
  std::string folder;            // the folder the walk started from ("" when root is absent)
};
CgroupLimits read_cgroup_limits(const std::string& root, const std::string& relative);

// "150000 100000" -> 1.5; "max 100000", "" or anything unreadable -> 0 (no quota).
double parse_cpu_max(const std::string& text);
// "8589934592" -> 8589934592; "max", "" or anything unreadable -> 0 (no limit).
std::size_t parse_memory_max(const std::string& text);

// The process's cgroup path inside the v2 hierarchy ("/" when it is the root or unknown).
std::string own_cgroup_path();

// Reads the allotment now (the affinity mask is the calling thread's).
Allotment read_allotment();

// The allotment read at the first call, the same for the rest of the process: thread counts
// and memory budgets are sized from it once.
const Allotment& process_allotment();

}  // namespace mad
