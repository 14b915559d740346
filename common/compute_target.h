// Which backend computes and in what precision: the one Backend and the one Precision of the
// whole tree, below every user (kernels/ for `mad kernel`, detection/ and appearance/ for their
// CUDA forms, mad/ for scoring), with their user-visible names.
#pragma once

#include <string>

namespace mad {

// Auto: chosen once where a run starts, by mad/backend_choice.h's choose_backend (every command,
// `mad kernel` and `mad bench` included).
enum class Backend { Auto, Cpu, Cuda };
// The CUDA path's arithmetic: Double is the faithful mode, Float the fast one. The CPU path is
// always double.
enum class Precision { Double, Float };

// "auto", "cpu", "cuda"; "double", "float".
std::string to_string(Backend b);
std::string to_string(Precision p);
// Parsers throw InvalidArgument listing the accepted values.
Backend parse_backend(const std::string& s);
Precision parse_precision(const std::string& s);

}  // namespace mad
