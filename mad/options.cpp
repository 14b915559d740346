#include "mad/options.h"

#include <cstddef>
#include <initializer_list>
#include <string>

#include "common/error.h"

namespace mad {

std::string to_string(MadVersion v) {
  switch (v) {
    case MadVersion::V2011: return "2011";
    case MadVersion::V2010: return "2010";
    default: return "stmad";
  }
}
std::string to_string(InputClass c) {
  switch (c) {
    case InputClass::Uint8: return "uint8";
    case InputClass::Double: return "double";
    default: return "auto";
  }
}

namespace {

// The value among `values` (all of the type's values, in the order the message lists them)
// whose to_string is `s`; otherwise InvalidArgument "unknown <what> 's' (expected a, b or c)".
template <class Enum>
Enum parse_by_name(const std::string& s, std::initializer_list<Enum> values, const char* what) {
  std::string expected;
  std::size_t listed = 0;
  for (const Enum v : values) {
    if (s == to_string(v)) return v;
    const bool last = ++listed == values.size();
    expected += (listed == 1 ? "" : last ? " or " : ", ") + to_string(v);
  }
  throw InvalidArgument("unknown " + std::string(what) + " '" + s + "' (expected " + expected +
                        ")");
}

}  // namespace

MadVersion parse_mad_version(const std::string& s) {
  return parse_by_name(s, {MadVersion::V2011, MadVersion::V2010, MadVersion::Stmad2011},
                       "MAD version");
}
InputClass parse_input_class(const std::string& s) {
  return parse_by_name(s, {InputClass::Auto, InputClass::Uint8, InputClass::Double}, "input class");
}

double detect_scale(MadVersion v) {
  switch (v) {
    case MadVersion::V2011: return 200.0;
    case MadVersion::V2010: return 1.0;
    default: return 10.0;  // ST-MAD's hi_index.m (shared/stmad-spec.md §3.1)
  }
}

}  // namespace mad
