// MATLAB .mat variables as LIVE Release 2 stores its scores (dmos.mat, dmos_realigned.mat,
// refnames_all.mat), read with libmatio when the build found it (MAD_HAVE_MATIO). Without it
// every function throws InputError explaining that libmatio is needed and how to get by
// without it (a CSV manifest).
#pragma once

#include <string>
#include <vector>

namespace mad::datasets {

// True when this build links libmatio.
bool mat_files_supported();

// The message given when a .mat file must be read but libmatio is absent.
std::string mat_unsupported_message(const std::string& file);

// A real numeric variable (any numeric or logical class) as doubles in MATLAB's column-major
// order. Throws InputError naming the file and variable when the file cannot be opened, the
// variable is absent, or it is not a real numeric array.
std::vector<double> read_mat_numbers(const std::string& file, const std::string& variable);
// True when `variable` exists in `file` (false when the file cannot be opened).
bool mat_has_variable(const std::string& file, const std::string& variable);
// A cell array of character rows (e.g. refnames_all), in column-major order.
std::vector<std::string> read_mat_strings(const std::string& file, const std::string& variable);

// Writers for tests and tools that build LIVE-layout data (MAT5, uncompressed): a 1xN double
// row vector and a 1xN cell of char rows. Throw Error when libmatio is absent.
void write_mat_file(const std::string& file,
                    const std::vector<std::pair<std::string, std::vector<double>>>& numbers,
                    const std::vector<std::pair<std::string, std::vector<std::string>>>& strings);

}  // namespace mad::datasets
