#include "mad/video/stmad.h"

#include <cmath>
#include <limits>
#include <utility>

#include "common/error.h"
#include "mad/options.h"
#include "mad/video/motion.h"
#include "mad/video/motion_weights.h"
#include "mad/video/slice_store.h"
#include "mad/video/stmad_pooling.h"

namespace mad {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string size_text(int width, int height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

void check_frame(const LumaFrame& frame, int width, int height, std::int64_t t, const char* clip) {
  if (frame.width != width || frame.height != height)
    throw InputError(std::string(clip) + " frame " + std::to_string(t) + " is " +
                     size_text(frame.width, frame.height) + ", the clip's frames are " +
                     size_text(width, height));
  const std::size_t held = frame.bit_depth <= 8 ? frame.samples8.size() : frame.samples16.size();
  if (held != frame.pixels())
    throw InputError(std::string(clip) + " frame " + std::to_string(t) + " holds " +
                     std::to_string(held) + " samples, not " + std::to_string(frame.pixels()));
}

// d_appear of every slice pair, column slices first (tags 0..n_c-1), then row slices. The
// scorer computes d_detect too, which ST-MAD ignores here: an appearance-only path through the
// backends would save that work (about a third of each slice's cost).
void score_slices(const video::SliceStore& ref, const video::SliceStore& dist, BatchScorer& scorer,
                  std::vector<double>& lo_col, std::vector<double>& lo_row) {
  const int n_col = ref.column_slices(), n_row = ref.row_slices();
  std::vector<double> lo(static_cast<std::size_t>(n_col + n_row), kNaN);
  std::size_t delivered = 0;
  auto take = [&](std::vector<BatchScorer::Finished> rows) {
    for (BatchScorer::Finished& f : rows) {
      if (f.tag >= lo.size() || f.tag != delivered)
        throw InternalError("a slice result out of order (was the scorer's queue empty?)");
      if (!f.ok) {
        if (f.failure) std::rethrow_exception(f.failure);
        throw InputError("a slice image could not be scored: " + f.error);
      }
      lo[f.tag] = f.result.lo;
      ++delivered;
    }
  };
  auto submit = [&](std::uint64_t tag, LumaFrame r, LumaFrame d) {
    take(scorer.submit(tag, std::make_shared<const SourceImage>(to_source_image(std::move(r))),
                       std::make_shared<const SourceImage>(to_source_image(std::move(d)))));
  };
  for (int k = 0; k < n_col; ++k)
    submit(static_cast<std::uint64_t>(k), ref.column_slice(k), dist.column_slice(k));
  for (int k = 0; k < n_row; ++k)
    submit(static_cast<std::uint64_t>(n_col + k), ref.row_slice(k), dist.row_slice(k));
  take(scorer.drain());
  if (delivered != lo.size()) throw InternalError("slice results missing");
  lo_col.assign(lo.begin(), lo.begin() + n_col);
  lo_row.assign(lo.begin() + n_col, lo.end());
}

}  // namespace

struct StmadModel::Impl {
  int width, height;
  video::MotionGrid grid;
  std::unique_ptr<video::MotionAccumulator> motion;
  video::SliceStore ref_slices, dist_slices;
  std::vector<double> hi, lo;
  std::int64_t frames = 0;
  bool finished = false;

  Impl(int w, int h, Backend backend)
      : width(w),
        height(h),
        grid(video::motion_grid(w, h)),
        motion(video::make_motion_accumulator(grid, backend)),
        ref_slices(w, h),
        dist_slices(w, h) {}
};

StmadModel::StmadModel(int width, int height, Backend motion_backend) {
  if (width < 34 || height < 34)
    throw InputError("ST-MAD needs frames of at least 34x34 pixels (MAD's minimum); these are " +
                     size_text(width, height));
  if (motion_backend != Backend::Cpu && motion_backend != Backend::Cuda)
    throw InvalidArgument("ST-MAD's motion weights need a resolved backend (cpu or cuda)");
  impl_ = std::make_unique<Impl>(width, height, motion_backend);
}

StmadModel::~StmadModel() = default;

void StmadModel::add_frames(const LumaFrame& ref, const LumaFrame& dist) {
  Impl& m = *impl_;
  if (m.finished) throw InternalError("StmadModel::add_frames after finish");
  check_frame(ref, m.width, m.height, m.frames, "reference");
  check_frame(dist, m.width, m.height, m.frames, "distorted");
  m.ref_slices.add(ref);
  m.dist_slices.add(dist);
  m.motion->add_luma(ref, m.grid);  // the reference alone (§4)
  ++m.frames;
}

void StmadModel::add_frame_indices(double d_detect, double lo) {
  // ST-MAD's detection index is d_detect x 10 (its own copy of the stage; spec §3.1).
  impl_->hi.push_back(d_detect * detect_scale(MadVersion::Stmad2011));
  impl_->lo.push_back(lo);
}

StmadFigures StmadModel::finish(BatchScorer& scorer) {
  Impl& m = *impl_;
  if (m.finished) throw InternalError("StmadModel::finish called twice");
  m.finished = true;
  if (m.frames == 0) throw InputError("ST-MAD of a clip without frames");
  if (static_cast<std::int64_t>(m.hi.size()) != m.frames)
    throw InternalError("ST-MAD got indices of " + std::to_string(m.hi.size()) + " frames for " +
                        std::to_string(m.frames) + " frames");
  if (scorer.options().input_class != InputClass::Double)
    throw InvalidArgument(
        "ST-MAD scores frames and slices with input class double (its "
        "release passes 8-bit frames as doubles); this scorer uses " +
        to_string(scorer.options().input_class));

  StmadFigures f{};
  f.frames = m.frames;
  const video::SpatialFigures spatial = video::pool_spatial(m.hi, m.lo);
  f.smad = spatial.smad;
  f.mad_hi = spatial.mad_hi;
  f.mad_lo = spatial.mad_lo;
  f.sigma = spatial.sigma;

  const video::MotionWeights w =
      video::motion_weights(m.motion->speed_sums(), m.motion->pairs(), m.grid);
  f.w_row = w.w_row;
  f.w_col = w.w_col;
  f.m_row = w.m_row;
  f.m_col = w.m_col;
  f.static_reference = w.static_reference;
  if (w.static_reference)
    f.notes.push_back(
        "The reference clip is static (no motion in any 8x8 window), so every slice is weighted "
        "equally. The authors' release stops with an error on such a clip (a typo in its "
        "zero-motion branch); mad does what that branch intends.");

  f.temporal = m.frames >= kStmadMinFrames;
  if (f.temporal) {
    score_slices(m.ref_slices, m.dist_slices, scorer, f.lo_col, f.lo_row);
    f.sts_row = video::slice_term(f.w_row, f.lo_row, f.m_row);
    f.sts_col = video::slice_term(f.w_col, f.lo_col, f.m_col);
    f.tmad = video::pool_temporal(f.sts_row, f.sts_col);
  } else {
    f.lo_col.assign(static_cast<std::size_t>(m.ref_slices.column_slices()), kNaN);
    f.lo_row.assign(static_cast<std::size_t>(m.ref_slices.row_slices()), kNaN);
    f.tmad = f.sts_row = f.sts_col = kNaN;
    f.notes.push_back("TMAD and STMAD are not defined for a clip of " + std::to_string(m.frames) +
                      " frames: ST-MAD's slice images are as long as the clip, and MAD's "
                      "appearance stage needs at least " +
                      std::to_string(kStmadMinFrames) +
                      " (the authors' release gives NaN). SMAD is given.");
  }
  const video::Combination c = video::combine_stmad(f.smad, f.tmad, f.m_row, f.m_col);
  f.mov_index = c.mov_index;
  f.beta = c.beta;
  f.stmad = c.stmad;  // NaN when TMAD is
  return f;
}

}  // namespace mad
