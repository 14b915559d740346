#include "mad/backends/memory_check.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/allotment.h"
#include "common/error.h"
#include "common/workspace_cpu.h"
#include "mad/backends/memory_estimate.h"

namespace mad {
namespace {

std::string shape_text(int width, int height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

std::string megapixels(std::size_t pixels) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f Mpixel", static_cast<double>(pixels) / 1e6);
  return buf;
}

const char* precision_text(Precision p) {
  return p == Precision::Double ? "double" : "float";
}

}  // namespace

std::size_t parse_memory_size(const std::string& text) {
  const auto fail = [&]() -> std::size_t {
    throw InvalidArgument("--gpu-memory-limit: '" + text +
                          "' is not a memory size (examples: 8GiB, 512MiB, 1.5G, 1073741824)");
  };
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const std::size_t number_start = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  const std::string number = text.substr(number_start, i - number_start);
  if (number.empty() || number.find('.') != number.rfind('.') || number == ".") return fail();
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit;
  for (; i < text.size(); ++i) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) break;
    unit += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  }
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i != text.size()) return fail();

  int shift = -1;
  if (unit.empty() || unit == "b")
    shift = 0;
  else if (unit == "k" || unit == "kib")
    shift = 10;
  else if (unit == "m" || unit == "mib")
    shift = 20;
  else if (unit == "g" || unit == "gib")
    shift = 30;
  else if (unit == "t" || unit == "tib")
    shift = 40;
  if (shift < 0) return fail();

  const double value = std::strtod(number.c_str(), nullptr) * std::ldexp(1.0, shift);
  // Whole bytes only, and within what a size_t and a double represent exactly enough.
  if (!(value >= 1.0) || value >= std::ldexp(1.0, 63)) return fail();
  if (shift == 0 && number.find('.') != std::string::npos) return fail();
  return static_cast<std::size_t>(value);
}

std::string format_bytes(std::size_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 5) v /= 1024.0, ++u;
  char buf[32];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%zu B", bytes);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

// The host's available memory, bounded by the process's cgroup memory.max (a Slurm job, a
// container): past that the process is killed, whatever the host has free.
static std::size_t host_memory_available_now();

std::size_t host_available_memory_bytes() {
  const std::size_t host = host_memory_available_now();
  const std::size_t limit = process_allotment().cgroup_memory_bytes;
  return limit != 0 && (host == 0 || limit < host) ? limit : host;
}

static std::size_t host_memory_available_now() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream in(line);
    std::string key;
    unsigned long long kib = 0;
    if (in >> key >> kib && key == "MemAvailable:") return static_cast<std::size_t>(kib) * 1024;
  }
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
  return 0;
}

GpuMemoryBudget gpu_memory_budget(std::size_t limit, std::size_t free_bytes, int shares) {
  GpuMemoryBudget b;
  b.limit = limit;
  b.free_bytes = free_bytes;
  b.shares = std::max(1, shares);
  const std::size_t whole = limit != 0             ? limit
                            : free_bytes == 0       ? SIZE_MAX
                            : free_bytes > kGpuMemoryReserve ? free_bytes - kGpuMemoryReserve
                                                             : 1;
  b.bytes = whole == SIZE_MAX ? whole : std::max<std::size_t>(1, whole / b.shares);
  return b;
}

std::string gpu_shape_too_large(int width, int height, Precision precision,
                                const GpuMemoryBudget& budget) {
  const GpuPairMemory m = estimate_gpu_pair_memory(width, height, precision);
  std::string message = "a " + shape_text(width, height) + " pair needs about " +
                        format_bytes(m.device_total(1)) + " of GPU memory in " +
                        precision_text(precision) + " precision, but ";
  if (budget.limit != 0)
    message += "--gpu-memory-limit allows " + format_bytes(budget.limit);
  else
    message += "the device has " + format_bytes(budget.free_bytes) + " free (" +
               format_bytes(kGpuMemoryReserve) + " of it kept in reserve)";
  if (budget.shares > 1)
    message += ", shared by " + std::to_string(budget.shares) + " workers (" +
               format_bytes(budget.bytes) + " each)";
  if (precision == Precision::Double) {
    const std::size_t f = estimate_gpu_pair_memory(width, height, Precision::Float).device_total(1);
    if (f <= budget.bytes) message += "; --precision float needs about " + format_bytes(f);
  }
  message += "; --backend cpu needs no GPU memory";
  return message;
}

void require_cpu_memory(int width, int height, int threads, bool want_maps, std::size_t available) {
  if (available == 0) return;
  const std::size_t need = estimate_cpu_pair_memory(width, height, threads, want_maps).total();
  if (need <= available) return;
  std::string message = "a " + shape_text(width, height) + " pair needs about " +
                        format_bytes(need) + " of memory on the CPU path with " +
                        std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
                        ", but " + format_bytes(available) + " is available";
  int fits = 0;
  for (int t = threads - 1; t >= 1 && fits == 0; --t)
    if (estimate_cpu_pair_memory(width, height, t, want_maps).total() <= available) fits = t;
  if (fits > 0)
    message += "; it fits with --threads " + std::to_string(fits) + " (about " +
               format_bytes(estimate_cpu_pair_memory(width, height, fits, want_maps).total()) + ")";
  else
    message += "; it does not fit even with --threads 1";
  throw InputError(message);
}

std::string cpu_memory_statement(int width, int height, int threads, bool want_maps) {
  const CpuPairMemory m = estimate_cpu_pair_memory(width, height, threads, want_maps);
  if (m.total() < kCpuMemoryStatementThreshold) return "";
  return "a " + shape_text(width, height) + " pair needs about " + format_bytes(m.total()) +
         " of memory on the CPU path (" + std::to_string(threads) +
         (threads == 1 ? " thread" : " threads") +
         (m.kept ? "; its stages' work space is kept for the next pair of this shape)"
                 : "; each stage's work space is freed when the stage ends, the pair being "
                   "above " + megapixels(workspace_keep_limit()) + ")");
}

}  // namespace mad
