// JSON and CSV forms of a ScoreResult, shared by `mad score`, batch mode and `mad eval`.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mad/result.h"

namespace mad::results {

// {mad, hi, lo, sig, d_detect, width, height, mad_version, input_class, backend, precision,
//  a5_variant (GPU), seconds}
nlohmann::json result_to_json(const ScoreResult& r);

// One result as mad score's JSON writes it, one pair or a --pairs row (ref, dist,
// backend_reason; error for a failure, whose ScoreResult is null).
nlohmann::json result_object(const std::string& ref, const std::string& dist, const ScoreResult* r,
                             const std::string& error, const std::string& backend_reason);

// Column names and values of one results-CSV row (numbers with 17 significant digits).
// ref,dist,mad,hi,lo,sig,width,...,error,backend_reason; `backend_reason` (BackendChoice::reason)
// is the run's, so a failed row has one too.
const std::vector<std::string>& result_csv_header();
std::vector<std::string> result_csv_row(const std::string& ref, const std::string& dist,
                                        const ScoreResult* r, const std::string& error,
                                        const std::string& backend_reason);

// Shortest text that reads back to the same double (%.17g).
std::string format_double(double v);

}  // namespace mad::results
