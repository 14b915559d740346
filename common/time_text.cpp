#include "common/time_text.h"

#include <ctime>

namespace mad {

std::string time_now_text(TimeZone zone, const char* format) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  if (zone == TimeZone::Utc)
    gmtime_r(&t, &tm);
  else
    localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, format, &tm);
  return buf;
}

}  // namespace mad
