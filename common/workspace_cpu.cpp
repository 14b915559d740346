#include "common/workspace_cpu.h"

#include <atomic>

namespace mad {
namespace {
std::atomic<std::uint64_t> g_allocations{0};
std::atomic<bool> g_poisoning{false};
}  // namespace

std::uint64_t workspace_allocations() { return g_allocations.load(); }

void set_workspace_poisoning(bool on) { g_poisoning.store(on); }
bool workspace_poisoning() { return g_poisoning.load(); }

void count_workspace_allocation() { g_allocations.fetch_add(1); }

}  // namespace mad
