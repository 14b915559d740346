// A minimal fork-join loop over std::thread. Each index is processed by exactly one thread and
// writes only its own outputs, so results never depend on the thread count.
#pragma once

#include <functional>
#include <string>

namespace mad {

// Number of worker threads used by parallel_for (default: the CPUs the process is allotted,
// common/allotment.h: its affinity mask and cgroup CPU quota, not the machine's cores).
int thread_count();
// Overrides the worker count; 0 restores the default. Used by tests and `--threads`.
void set_thread_count(int threads);

// Names the calling thread (at most 15 characters are kept: Linux's limit), so that `top -H`,
// /proc/PID/task/*/comm and debuggers tell the engine's threads apart ("mad-decode",
// "mad-worker-0"). Does nothing where threads cannot be named.
void name_this_thread(const std::string& name);

// Calls fn(i) for i in [0, n). Exceptions from workers are rethrown on the caller's thread.
void parallel_for(int n, const std::function<void(int)>& fn);

}  // namespace mad
