#include "common/compute_target.h"

#include "common/enum_names.h"
#include "common/error.h"

namespace mad {
namespace {

constexpr EnumName<Backend> kBackends[] = {
    {Backend::Auto, "auto"}, {Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}};
constexpr EnumName<Precision> kPrecisions[] = {{Precision::Double, "double"},
                                               {Precision::Float, "float"}};

// The value named `s`, else InvalidArgument "unknown <what> 's' (expected a, b or c)".
template <class E, std::size_t N>
E parse_named(const EnumName<E> (&table)[N], const std::string& s, const char* what) {
  std::string expected;
  for (std::size_t i = 0; i < N; ++i) {
    if (s == table[i].second) return table[i].first;
    expected += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + table[i].second;
  }
  throw InvalidArgument("unknown " + std::string(what) + " '" + s + "' (expected " + expected +
                        ")");
}

}  // namespace

std::string to_string(Backend b) {
  return enum_name(kBackends, b);
}
std::string to_string(Precision p) {
  return enum_name(kPrecisions, p);
}
Backend parse_backend(const std::string& s) {
  return parse_named(kBackends, s, "backend");
}
Precision parse_precision(const std::string& s) {
  return parse_named(kPrecisions, s, "precision");
}

}  // namespace mad
