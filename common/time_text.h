// The wall-clock time now as text, for the "started" field of reports and results.
#pragma once

#include <string>

namespace mad {

enum class TimeZone { Local, Utc };

// The current time in `zone`, formatted by std::strftime with `format`
// (e.g. "%Y-%m-%d %H:%M:%S"); at most 31 characters.
std::string time_now_text(TimeZone zone, const char* format);

}  // namespace mad
