#include "video_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/clip_reader.h"
#include "common/error.h"
#include "mad/backend_choice.h"
#include "mad/video/video_scorer.h"
#include "scorer_binding.h"

namespace py = pybind11;

namespace mad::python {
namespace {

// The frames of one Python iterator: of one clip (each item an H x W array), or of both
// (each item a (ref, dist) pair of them; the side not asked for waits in `pending_`, at most
// a frame or two as VideoScorer's reader reads both clips in step). Items are pulled under the
// GIL by VideoScorer's reader thread while the calling thread waits with the GIL released; each
// is copied into a LumaFrame and let go, so memory holds a few frames, never the clip.
class FrameSource {
 public:
  FrameSource(py::object iterator, bool pairs, ClipFormat format)
      : iterator_(std::move(iterator)), pairs_(pairs), format_(std::move(format)) {}
  ~FrameSource() {
    py::gil_scoped_acquire gil;  // Python objects are let go under the GIL
    iterator_ = py::object();
    error_.reset();
  }

  // The next frame of `side` (0 ref, 1 dist); false at the iterator's end.
  bool next(int side, const std::string& name, std::int64_t index, LumaFrame& frame) {
    if (!pending_[side].empty()) {
      frame = std::move(pending_[side].front());
      pending_[side].pop_front();
      return true;
    }
    if (ended_) return false;
    py::gil_scoped_acquire gil;
    PyObject* item = PyIter_Next(iterator_.ptr());
    if (!item) {
      if (PyErr_Occurred()) {
        error_.emplace();  // fetches the exception: raised again when the scoring returns
        throw InputError(name + ": frame " + std::to_string(index) +
                         ": the frames' iterator raised an exception");
      }
      ended_ = true;
      return false;
    }
    const py::object held = py::reinterpret_steal<py::object>(item);
    if (!pairs_) {
      frame = to_frame(held, name, index);
      return true;
    }
    if (!py::isinstance<py::tuple>(held) && !py::isinstance<py::list>(held))
      throw InputError("frame " + std::to_string(index) +
                       ": an iterable of frame pairs yields (ref, dist) pairs");
    const py::sequence both = held;
    if (both.size() != 2)
      throw InputError("frame " + std::to_string(index) + ": a frame pair has 2 frames, not " +
                       std::to_string(both.size()));
    frame = to_frame(both[side], name, index);
    pending_[1 - side].push_back(to_frame(both[1 - side], side ? "ref" : "dist", index));
    return true;
  }

  // The exception the iterator raised, if any (raised by the caller once the scoring stopped).
  std::optional<py::error_already_set>& error() { return error_; }

 private:
  // An H x W uint8 or uint16 array of the clip's size, copied (any strides) into a frame.
  LumaFrame to_frame(const py::handle& object, const std::string& name, std::int64_t index) {
    const std::string what = name + " frame " + std::to_string(index);
    if (!py::isinstance<py::array>(object))
      throw InputError(what + " is a " +
                       py::str(py::type::of(object).attr("__name__")).cast<std::string>() +
                       ", not a numpy array");
    const py::array a = py::reinterpret_borrow<py::array>(object);
    const bool wide = format_.bit_depth > 8;
    if (a.ndim() != 2 || a.shape(0) != format_.height || a.shape(1) != format_.width)
      throw InputError(what + " is not " + std::to_string(format_.height) + " x " +
                       std::to_string(format_.width) + " (H x W) like the clip's first frame");
    if (wide ? !a.dtype().is(py::dtype::of<std::uint16_t>())
             : !a.dtype().is(py::dtype::of<std::uint8_t>()))
      throw InputError(what + " is " + py::str(a.dtype()).cast<std::string>() + "; the clip's " +
                       (wide ? "pixel format " + format_.pixel_format() + " takes uint16"
                             : std::string("first frame was uint8")));
    LumaFrame f;
    f.width = format_.width;
    f.height = format_.height;
    f.bit_depth = format_.bit_depth;
    if (!wide) {
      const auto c = py::array_t<std::uint8_t, py::array::c_style>::ensure(a);
      f.samples8.assign(c.data(), c.data() + f.pixels());
      return f;
    }
    const auto c = py::array_t<std::uint16_t, py::array::c_style>::ensure(a);
    f.samples16.assign(c.data(), c.data() + f.pixels());
    const unsigned top = (1u << format_.bit_depth) - 1u;
    for (std::uint16_t s : f.samples16)
      if (s > top)
        throw InputError(what + " holds " + std::to_string(s) + ", above " +
                         std::to_string(top) + ", the largest " +
                         std::to_string(format_.bit_depth) + "-bit sample (pixel_format=\"" +
                         format_.pixel_format() + "\")");
    return f;
  }

  py::object iterator_;
  bool pairs_;
  ClipFormat format_;
  std::deque<LumaFrame> pending_[2];
  bool ended_ = false;
  std::optional<py::error_already_set> error_;
};

// One clip of a FrameSource, as VideoScorer reads clips.
class PythonClipReader : public ClipReader {
 public:
  PythonClipReader(std::string name, ClipFormat format, std::shared_ptr<FrameSource> source,
                   int side)
      : ClipReader(std::move(name), std::move(format)), source_(std::move(source)), side_(side) {}
  bool read(LumaFrame& frame) override {
    if (!source_->next(side_, path(), frames_read(), frame)) return false;
    counted();
    return true;
  }
  bool skip() override {
    LumaFrame dropped;
    return read(dropped);
  }

 private:
  std::shared_ptr<FrameSource> source_;
  int side_;
};

// A pooled figure under the names the logs give it (frame_pooling.h), and its count.
py::dict pooled_dict(const PooledFigure& p) {
  py::dict d;
  for (const auto& [name, value] : named_figures(p)) d[py::str(name)] = value;
  d["count"] = p.count;
  return d;
}

py::dict stmad_dict(const StmadFigures& s) {
  py::dict d;
  d["smad"] = s.smad;
  d["tmad"] = s.tmad;
  d["stmad"] = s.stmad;
  d["mad_hi"] = s.mad_hi;
  d["mad_lo"] = s.mad_lo;
  d["sigma"] = s.sigma;
  d["m_row"] = s.m_row;
  d["m_col"] = s.m_col;
  d["mov_index"] = s.mov_index;
  d["beta"] = s.beta;
  d["w_row"] = s.w_row;
  d["w_col"] = s.w_col;
  d["lo_row"] = s.lo_row;
  d["lo_col"] = s.lo_col;
  d["frames"] = s.frames;
  d["temporal"] = s.temporal;
  d["static_reference"] = s.static_reference;
  d["notes"] = s.notes;
  return d;
}

// The scoring's outcome as mad/video.py shapes it: per-frame rows as four columns.
py::dict summary_dict(const VideoSummary& s, const std::vector<FrameRow>& rows,
                      const VideoOptions& options, const BackendChoice& choice) {
  std::vector<std::int64_t> frame;
  std::vector<double> mad, hi, lo;
  for (const FrameRow& r : rows) {
    frame.push_back(r.frame);
    mad.push_back(r.mad);
    hi.push_back(r.hi);
    lo.push_back(r.lo);
  }
  py::dict d;
  d["frame"] = py::array(py::cast(frame));
  d["mad"] = py::array(py::cast(mad));
  d["hi"] = py::array(py::cast(hi));
  d["lo"] = py::array(py::cast(lo));
  py::dict pooled;
  pooled["mad"] = pooled_dict(s.mad);
  pooled["hi"] = pooled_dict(s.hi);
  pooled["lo"] = pooled_dict(s.lo);
  d["pooled"] = pooled;
  d["stmad"] = s.stmad ? py::object(stmad_dict(*s.stmad)) : py::object(py::none());
  d["frames_scored"] = s.frames_scored;
  d["ref_frames"] = s.ref_frames;
  d["dist_frames"] = s.dist_frames;
  d["warnings"] = s.warnings;
  d["seconds"] = s.seconds;
  d["frames_per_second"] = s.frames_per_second;
  d["frames_per_second_after_first_frame"] = s.frames_per_second_running;
  d["seconds_to_first_frame"] = s.seconds_to_first_frame;
  d["width"] = s.format.width;
  d["height"] = s.format.height;
  d["pixel_format"] = s.format.pixel_format();
  d["fps"] = s.format.fps();
  d["backend"] = to_string(s.backend);
  d["backend_reason"] = choice.reason;
  d["precision"] = to_string(s.precision);
  d["input_class"] = to_string(s.input_class);
  d["settings"] = video_settings(options, s.backend);
  return d;
}

// A video run of the keywords given: its options, its backend (chosen once, here) and the
// refusal of options that would do nothing on it, as `mad video` refuses them.
struct VideoRun {
  GivenOptions given;
  VideoOptions options;
  BackendChoice choice;
  explicit VideoRun(const py::dict& keywords)
      : given(scoring_keywords(keywords, kVideoCommand, "nothing else")),
        options(video_options(given)),
        choice(choose_backend(options.score.backend)) {
    refuse_unhonoured(given, choice, "this run");
    options.score.backend = choice.backend;
  }
};

// Scores two readers with the GIL released; the rows are kept for the result.
py::dict score_readers(VideoRun& run, ClipReader& ref, ClipReader& dist) {
  VideoScorer scorer(run.options, run.choice.backend);
  std::vector<FrameRow> rows;
  VideoSummary summary;
  {
    py::gil_scoped_release unlocked;
    summary = scorer.score(ref, dist, [&](const FrameRow& row) { rows.push_back(row); });
  }
  return summary_dict(summary, rows, run.options, run.choice);
}

py::dict score_paths(const std::string& ref_path, const std::string& dist_path,
                     const py::dict& keywords) {
  VideoRun run(keywords);
  const std::optional<ClipFormat> raw = raw_format_option(run.given);
  const auto ref = ClipReader::open(ref_path, raw ? &*raw : nullptr);
  const auto dist = ClipReader::open(dist_path, raw ? &*raw : nullptr);
  return score_readers(run, *ref, *dist);
}

// `ref_frames`/`dist_frames`: iterators of H x W frames (dist_frames None: ref_frames yields
// (ref, dist) pairs). width, height and pixel_format give the frames' format (mad/video.py reads
// them from the first frame); the table's width/height/pixel_format keywords are refused here,
// as the frames carry their size.
py::dict score_frames(const py::object& ref_frames, const py::object& dist_frames, int width,
                      int height, const std::string& pixel_format, const py::dict& keywords) {
  for (const char* k : {"width", "height"})
    if (keywords.contains(k))
      throw InvalidArgument(std::string(k) +
                            "= describes a raw file; frames given as arrays carry their size");
  VideoRun run(keywords);
  const ClipFormat format = raw_clip_format(pixel_format, width, height);
  const bool pairs = dist_frames.is_none();
  const auto ref_source = std::make_shared<FrameSource>(ref_frames, pairs, format);
  const auto dist_source =
      pairs ? ref_source : std::make_shared<FrameSource>(dist_frames, false, format);
  PythonClipReader ref("ref", format, ref_source, 0), dist("dist", format, dist_source, 1);
  try {
    return score_readers(run, ref, dist);
  } catch (const InputError&) {
    // An exception of the iterator itself is the one Python sees (KeyboardInterrupt included).
    for (const auto& source : {ref_source, dist_source})
      if (source->error()) throw std::move(*source->error());
    throw;
  }
}

}  // namespace

void bind_video(py::module_& m) {
  m.def("_video_score_paths", &score_paths, py::arg("ref"), py::arg("dist"),
        py::arg("options"), "A clip pair from files (Y4M, or raw with width/height/pixel_format).");
  m.def("_video_score_frames", &score_frames, py::arg("ref_frames"), py::arg("dist_frames"),
        py::arg("width"), py::arg("height"), py::arg("pixel_format"), py::arg("options"),
        "A clip pair from iterators of H x W uint8/uint16 frames (or one of frame pairs).");
}

}  // namespace mad::python
