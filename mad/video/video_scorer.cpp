#include "mad/video/video_scorer.h"

#include <chrono>
#include <memory>
#include <thread>
#include <utility>

#include "common/error.h"
#include "mad/batch_scorer.h"
#include "mad/video/video_scorer_queue.h"

namespace mad {
namespace {

using video_detail::FramePair;
using video_detail::FramePairQueue;
using video_detail::ReadEnd;

// Frame pairs read ahead of the scoring: enough to keep the GPU's pairs in flight fed while the
// reader waits on a pipe, few enough that a 4K clip holds well under 100 MB of frames.
constexpr std::size_t kReadAhead = 4;
// How long the scoring waits for the reader before it finishes the pairs in flight: a wait this
// long means the reader, not the scorer, sets the pace, so the lost overlap costs nothing, and a
// stalled pipe then holds neither the rows scored nor a failure among them.
constexpr std::chrono::milliseconds kIdleBeforeDrain{100};

std::string describe(const ClipFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " + f.pixel_format();
}

void require_same_format(const ClipReader& ref, const ClipReader& dist) {
  const ClipFormat& a = ref.format();
  const ClipFormat& b = dist.format();
  if (a.width == b.width && a.height == b.height && a.chroma == b.chroma &&
      a.bit_depth == b.bit_depth)
    return;
  throw InputError(ref.path() + " is " + describe(a) + " but " + dist.path() + " is " +
                   describe(b) + ": the clips must have the same size and pixel format");
}

// The reader thread: reads the selected frames of both clips (skipping the others) into the
// queue until either clip or the range ends, then counts what is left of the longer clip so that
// a difference in length can be reported.
void read_clips(ClipReader& ref, ClipReader& dist, const VideoOptions& options,
                FramePairQueue& queue) {
  ReadEnd end;
  try {
    for (std::int64_t t = 0; !range_ended(options, t) && !queue.stopped(); ++t) {
      const bool wanted = frame_selected(options, t);
      FramePair pair;
      pair.frame = t;
      const bool got_ref = wanted ? ref.read(pair.ref) : ref.skip();
      const bool got_dist = wanted ? dist.read(pair.dist) : dist.skip();
      if (!got_ref || !got_dist) {
        end.ref_ended = !got_ref;
        end.dist_ended = !got_dist;
        if (got_ref)
          while (!queue.stopped() && ref.skip()) {
          }
        if (got_dist)
          while (!queue.stopped() && dist.skip()) {
          }
        break;
      }
      if (wanted && !queue.push(std::move(pair))) break;
    }
  } catch (...) {
    end.error = std::current_exception();
  }
  end.ref_frames = ref.frames_read();
  end.dist_frames = dist.frames_read();
  queue.finish(std::move(end));
}

// A clip's length as far as it is known: every frame when it was read to its end, else the
// frames read or what its size says.
std::int64_t known_length(const ClipReader& clip, std::int64_t read, bool ended) {
  if (ended) return read;
  return std::max(read, clip.frame_count_hint());
}

// A warning when the clips differ in length: one ended before the other, or (the range ended
// first) their sizes say they differ.
std::vector<std::string> length_warnings(const ClipReader& ref, const ClipReader& dist,
                                         const ReadEnd& end, std::int64_t ref_frames,
                                         std::int64_t dist_frames) {
  const bool differ = end.ref_ended != end.dist_ended ||
                      (!end.ref_ended && ref.frame_count_hint() >= 0 &&
                       dist.frame_count_hint() >= 0 && ref_frames != dist_frames);
  if (!differ) return {};
  return {ref.path() + " has " + std::to_string(ref_frames) + " frames and " + dist.path() +
          " has " + std::to_string(dist_frames) + ": only their first " +
          std::to_string(std::min(ref_frames, dist_frames)) + " frames are compared"};
}

// Stops and joins the reader thread however the scoring ends.
class ReaderThread {
 public:
  ReaderThread(ClipReader& ref, ClipReader& dist, const VideoOptions& options,
               FramePairQueue& queue)
      : ref_(ref),
        dist_(dist),
        queue_(queue),
        thread_(read_clips, std::ref(ref), std::ref(dist), std::cref(options), std::ref(queue)) {}
  // Still running here, the scoring threw (a scorer's or a log's error, an interrupt): the
  // reader may be waiting on a pipe whose writer stalled, so its read is cancelled rather than
  // waited for, and the error ends the run at once.
  ~ReaderThread() {
    if (thread_.joinable()) {
      ref_.cancel();
      dist_.cancel();
    }
    join();
  }
  void join() {
    if (!thread_.joinable()) return;
    queue_.stop();
    thread_.join();
  }

 private:
  ClipReader &ref_, &dist_;
  FramePairQueue& queue_;
  std::thread thread_;
};

}  // namespace

bool frame_selected(const VideoOptions& options, std::int64_t frame) {
  if (frame < options.first_frame || range_ended(options, frame)) return false;
  return (frame - options.first_frame) % options.subsample == 0;
}

bool range_ended(const VideoOptions& options, std::int64_t frame) {
  return options.frame_count >= 0 && frame >= options.first_frame + options.frame_count;
}

VideoScorer::VideoScorer(VideoOptions options, ResolvedBackend backend)
    : options_(std::move(options)), backend_(backend) {
  // A video frame is luma samples, not an 8-bit image file: Auto reads it as double, the class
  // ST-MAD's frames always have (docs/video.md).
  if (options_.score.input_class == InputClass::Auto)
    options_.score.input_class = InputClass::Double;
  if (options_.stmad && options_.score.input_class != InputClass::Double)
    throw InvalidArgument(
        "--stmad needs --input-class double (ST-MAD's frames are always the double input "
        "class): drop --input-class uint8");
  if (options_.stmad && options_.subsample != 1)
    throw InvalidArgument(
        "--stmad needs every frame (its motion and slices follow consecutive frames): drop "
        "--subsample");
  if (options_.subsample < 1)
    throw InvalidArgument("--subsample must be 1 or more (1 scores every frame)");
  if (options_.first_frame < 0) throw InvalidArgument("--first-frame must be 0 or more");
  if (options_.frame_count < -1 || options_.frame_count == 0)
    throw InvalidArgument("--frame-count must be 1 or more (leave it out for every frame)");
}

VideoSummary VideoScorer::score(ClipReader& ref, ClipReader& dist,
                                const std::function<void(const FrameRow&)>& on_frame,
                                ProgressBar* progress) {
  const auto start = std::chrono::steady_clock::now();
  require_same_format(ref, dist);
  VideoSummary summary;
  summary.format = ref.format();
  summary.backend = backend_;
  summary.precision = backend_ == Backend::Cuda ? options_.score.precision : Precision::Double;
  summary.input_class = options_.score.input_class;

  std::unique_ptr<StmadModel> model;
  if (options_.stmad)
    model = std::make_unique<StmadModel>(summary.format.width, summary.format.height, backend_);
  BatchScorer scorer(options_.score, backend_);
  // One double per scored frame and figure: the percentiles need them all (frame_pooling.h).
  std::vector<double> mads, his, los;
  std::chrono::steady_clock::time_point first_row, last_row;
  const auto deliver = [&](std::vector<BatchScorer::Finished>&& finished) {
    for (BatchScorer::Finished& f : finished) {
      if (!f.ok) {
        if (f.failure) std::rethrow_exception(f.failure);
        throw InputError("frame " + std::to_string(f.tag) + ": " + f.error);
      }
      const FrameRow row{static_cast<std::int64_t>(f.tag), f.result.mad, f.result.hi, f.result.lo};
      last_row = std::chrono::steady_clock::now();
      if (mads.empty()) first_row = last_row;
      mads.push_back(row.mad);
      his.push_back(row.hi);
      los.push_back(row.lo);
      if (model) model->add_frame_indices(f.result.d_detect, f.result.lo);
      on_frame(row);
      if (progress) progress->tick();
    }
  };

  FramePairQueue queue(kReadAhead);
  ReaderThread reader(ref, dist, options_, queue);
  FramePair pair;
  while (queue.pop(pair, kIdleBeforeDrain, [&] { deliver(scorer.drain()); })) {
    if (model) model->add_frames(pair.ref, pair.dist);
    auto r = std::make_shared<const SourceImage>(to_source_image(std::move(pair.ref)));
    auto d = std::make_shared<const SourceImage>(to_source_image(std::move(pair.dist)));
    deliver(scorer.submit(static_cast<std::uint64_t>(pair.frame), std::move(r), std::move(d)));
  }
  // The frames read before a reader's error (a truncated frame) are scored and delivered first.
  deliver(scorer.drain());
  reader.join();
  const ReadEnd& end = queue.end();
  if (end.error) std::rethrow_exception(end.error);

  summary.frames_scored = static_cast<std::int64_t>(mads.size());
  summary.ref_frames = known_length(ref, end.ref_frames, end.ref_ended);
  summary.dist_frames = known_length(dist, end.dist_frames, end.dist_ended);
  summary.warnings = length_warnings(ref, dist, end, summary.ref_frames, summary.dist_frames);
  if (summary.frames_scored == 0)
    throw InputError("no frames to score: " + ref.path() + " has " +
                     std::to_string(summary.ref_frames) + " frames and " + dist.path() + " has " +
                     std::to_string(summary.dist_frames) + ", and the range starts at frame " +
                     std::to_string(options_.first_frame));
  summary.mad = pool_frames(mads);
  summary.hi = pool_frames(his);
  summary.lo = pool_frames(los);
  if (model) summary.stmad = model->finish(scorer);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  summary.frames_per_second =
      summary.seconds > 0 ? static_cast<double>(summary.frames_scored) / summary.seconds : 0;
  summary.seconds_to_first_frame = std::chrono::duration<double>(first_row - start).count();
  const double running = std::chrono::duration<double>(last_row - first_row).count();
  if (summary.frames_scored > 1 && running > 0)
    summary.frames_per_second_running = static_cast<double>(summary.frames_scored - 1) / running;
  return summary;
}

}  // namespace mad
