#include "common/y4m_header.h"

#include <cstdint>
#include <sstream>
#include <vector>

#include "common/error.h"

namespace mad {
namespace {

// A Y4M C tag and what it means. 4:2:0 has four chroma sitings; they place the chroma samples
// differently but lay the planes out alike, and only luma is read.
struct Colorspace {
  std::string tag;
  ChromaSubsampling chroma;
  int bit_depth;
};

// ffmpeg's names: the 8-bit tags, then "420p10" ... "444p16" and "mono10" ... "mono16".
std::vector<Colorspace> colorspaces() {
  using C = ChromaSubsampling;
  std::vector<Colorspace> all = {{"420jpeg", C::k420, 8},  {"420paldv", C::k420, 8},
                                 {"420mpeg2", C::k420, 8}, {"420", C::k420, 8},
                                 {"422", C::k422, 8},      {"444", C::k444, 8},
                                 {"mono", C::kMono, 8}};
  for (int depth : {10, 12, 16}) {
    const std::string d = std::to_string(depth);
    all.push_back({"420p" + d, C::k420, depth});
    all.push_back({"422p" + d, C::k422, depth});
    all.push_back({"444p" + d, C::k444, depth});
    all.push_back({"mono" + d, C::kMono, depth});
  }
  return all;
}

// Decimal digits only, at most 9 of them (no sign, no overflow); -1 otherwise.
long long parse_count(const std::string& text) {
  if (text.empty() || text.size() > 9) return -1;
  long long v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// The largest width or height: 8K is 7680x4320; 65536 leaves room and keeps a frame's size
// far from overflowing.
constexpr long long kMaxSide = 65536;

int parse_side(const std::string& token, const std::string& name) {
  const long long v = parse_count(token.substr(1));
  if (v < 1 || v > kMaxSide)
    throw InputError(name + ": bad Y4M " + (token[0] == 'W' ? "width" : "height") + " '" + token +
                     "' (a whole number of 1 to 65536 pixels)");
  return static_cast<int>(v);
}

void parse_rate(const std::string& token, const std::string& name, ClipFormat& f) {
  const std::string value = token.substr(1);
  const std::size_t colon = value.find(':');
  const long long num = colon == std::string::npos ? -1 : parse_count(value.substr(0, colon));
  const long long den = colon == std::string::npos ? -1 : parse_count(value.substr(colon + 1));
  if (num < 1 || den < 1)
    throw InputError(name + ": bad Y4M frame rate '" + token +
                     "' (F takes two positive whole numbers, e.g. F25:1 or F30000:1001)");
  f.fps_num = static_cast<int>(num);
  f.fps_den = static_cast<int>(den);
}

void check_interlacing(const std::string& token, const std::string& name) {
  const std::string mode = token.substr(1);
  if (mode == "p") return;
  std::string what;
  if (mode == "t" || mode == "b")
    what = std::string("interlaced (") + token + ": " + (mode == "t" ? "top" : "bottom") +
           " field first)";
  else if (mode == "m")
    what = "interlaced (Im: mixed, field order per frame)";
  else if (mode == "?")
    what = "of unknown field order (I?): it may hold two fields per frame";
  else
    what = "of unknown interlacing '" + token + "'";
  throw InputError(name + ": the clip is " + what +
                   "; mad scores whole progressive frames only. Deinterlace it first (e.g. "
                   "ffmpeg -vf bwdif), or, if its frames are progressive, say so in the "
                   "header (ffmpeg -vf setfield=prog -f yuv4mpegpipe writes Ip)");
}

void parse_colorspace(const std::string& token, const std::string& name, ClipFormat& f) {
  const std::string tag = token.substr(1);
  for (const Colorspace& c : colorspaces())
    if (c.tag == tag) {
      f.chroma = c.chroma;
      f.bit_depth = c.bit_depth;
      f.y4m_colorspace = tag;
      return;
    }
  throw InputError(name + ": unsupported Y4M colorspace '" + token + "'; mad reads C" +
                   y4m_colorspaces() + " (convert with ffmpeg -pix_fmt, e.g. yuv420p)");
}

}  // namespace

std::string y4m_colorspaces() {
  std::string out;
  for (const Colorspace& c : colorspaces()) out += (out.empty() ? "" : " C") + c.tag;
  return out;
}

ClipFormat parse_y4m_header(const std::string& line, const std::string& name) {
  const std::string magic = kY4mMagic;
  if (line.compare(0, magic.size(), magic) != 0 && line != "YUV4MPEG2")
    throw InputError(name + ": not a YUV4MPEG2 (Y4M) stream: it does not start with '" + magic +
                     "'");
  ClipFormat f;
  bool has_width = false, has_height = false;
  std::istringstream tokens(line.substr(magic.size() - 1));
  std::string token;
  // Tags are space-separated; a later copy of a tag replaces an earlier one. A (aspect),
  // X (extensions) and letters this reader does not know carry nothing mad uses.
  while (tokens >> token) {
    switch (token[0]) {
      case 'W':
        f.width = parse_side(token, name);
        has_width = true;
        break;
      case 'H':
        f.height = parse_side(token, name);
        has_height = true;
        break;
      case 'F': parse_rate(token, name, f); break;
      case 'I': check_interlacing(token, name); break;
      case 'C': parse_colorspace(token, name, f); break;
      default: break;
    }
  }
  if (!has_width || !has_height)
    throw InputError(name + ": the Y4M header has no " + (has_width ? "height (H)" : "width (W)"));
  // Without C, YUV4MPEG2 means 8-bit 4:2:0 (mjpegtools' and ffmpeg's default).
  return f;
}

}  // namespace mad
