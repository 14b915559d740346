// Memory sizes as users write them and the statements the front doors print about a pair's
// memory: the public face of mad/backends/memory_check.h, which holds the checks themselves.
#pragma once

#include <cstddef>
#include <string>

namespace mad {

// "--gpu-memory-limit" values: a byte count ("1073741824") or a number with a binary unit
// ("512MiB", "1.5 GiB", "80G"; units B, K/KiB, M/MiB, G/GiB, T/TiB, case-insensitive; K, M, G
// and T mean the binary units). Throws InvalidArgument for anything else, for 0 and for
// values beyond 2^63.
std::size_t parse_memory_size(const std::string& text);
// "512 B", "3.5 MiB", "63.1 GiB".
std::string format_bytes(std::size_t bytes);

// "a 16000x16000 pair needs about 63.0 GiB of memory on the CPU path (2 threads)" for pairs
// at or above kCpuMemoryStatementThreshold, "" below it: the CLI prints it before scoring.
std::string cpu_memory_statement(int width, int height, int threads, bool want_maps);

}  // namespace mad
