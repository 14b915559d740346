#include "common/workspace_cpu.h"

#include <atomic>

namespace mad {
namespace {
std::atomic<std::uint64_t> g_allocations{0};
std::atomic<bool> g_poisoning{false};
std::atomic<std::size_t> g_keep_limit{kWorkspaceKeepMaxPixels};
}  // namespace

bool keep_workspace(int width, int height) {
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) <=
         g_keep_limit.load();
}

std::size_t workspace_keep_limit() { return g_keep_limit.load(); }

std::size_t set_workspace_keep_limit(std::size_t pixels) { return g_keep_limit.exchange(pixels); }

std::uint64_t workspace_allocations() { return g_allocations.load(); }

void set_workspace_poisoning(bool on) { g_poisoning.store(on); }
bool workspace_poisoning() { return g_poisoning.load(); }

void count_workspace_allocation() { g_allocations.fetch_add(1); }

}  // namespace mad
