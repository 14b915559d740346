#include "mad/options.h"

#include "common/error.h"

namespace mad {

std::string to_string(MadVersion v) {
  return v == MadVersion::V2011 ? "2011" : "2010";
}
std::string to_string(InputClass c) {
  switch (c) {
    case InputClass::Uint8: return "uint8";
    case InputClass::Double: return "double";
    default: return "auto";
  }
}
std::string to_string(Backend b) {
  switch (b) {
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
    default: return "auto";
  }
}
std::string to_string(Precision p) {
  return p == Precision::Double ? "double" : "float";
}

MadVersion parse_mad_version(const std::string& s) {
  if (s == "2011") return MadVersion::V2011;
  if (s == "2010") return MadVersion::V2010;
  throw InvalidArgument("unknown MAD version '" + s + "' (expected 2011 or 2010)");
}
InputClass parse_input_class(const std::string& s) {
  if (s == "auto") return InputClass::Auto;
  if (s == "uint8") return InputClass::Uint8;
  if (s == "double") return InputClass::Double;
  throw InvalidArgument("unknown input class '" + s + "' (expected auto, uint8 or double)");
}
Backend parse_backend(const std::string& s) {
  if (s == "auto") return Backend::Auto;
  if (s == "cpu") return Backend::Cpu;
  if (s == "cuda") return Backend::Cuda;
  throw InvalidArgument("unknown backend '" + s + "' (expected auto, cpu or cuda)");
}
Precision parse_precision(const std::string& s) {
  if (s == "double") return Precision::Double;
  if (s == "float") return Precision::Float;
  throw InvalidArgument("unknown precision '" + s + "' (expected double or float)");
}

double detect_scale(MadVersion v) {
  return v == MadVersion::V2011 ? 200.0 : 1.0;
}

}  // namespace mad
