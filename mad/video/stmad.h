// ST-MAD, MAD's video model (Vu, Vu & Chandler, ICIP 2011), as the authors' 2011 release
// computes it (shared/stmad-spec.md is the contract; docs/algorithm.md, "ST-MAD"):
//  * SMAD from the per-frame indices of the run's scorer (HI = 10 x d_detect, input class
//    double): SMAD = MadHi^(σ/4) + MadLo^(1-σ), a sum;
//  * motion weights from the reference alone (Lucas-Kanade on 8x8 windows, motion.h), on the
//    host or the GPU with the same bits;
//  * TMAD from d_appear of the spatiotemporal slice pairs (rows and columns 8k+4, slice_store.h),
//    weighted by the motion; STMAD = 2.5 log10(β SMAD) + TMAD.
// Frames stream through add_frames/add_frame_indices; only the slices (a quarter of both clips'
// luma, as native samples) and the previous reference frame are kept.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/compute_target.h"
#include "common/luma_frame.h"
#include "mad/batch_scorer.h"

namespace mad {

struct StmadFigures {
  double smad, tmad, stmad;            // NaN where not defined (tmad/stmad for T < 34)
  double mad_hi, mad_lo, sigma;        // SMAD's pooled means (HI after the x10 scale) and exponent
  double m_row, m_col, mov_index, beta;
  std::vector<double> w_row, w_col, lo_row, lo_col;  // weights and slice indices
  std::int64_t frames = 0;
  bool temporal = false;               // TMAD defined (frames >= 34)
  bool static_reference = false;       // every window speed 0: uniform weights used (see below)
  std::vector<std::string> notes;      // user-facing sentences, e.g. why TMAD is not defined
  double sts_row = 0, sts_col = 0;     // TMAD's two slice terms (NaN for T < 34)
};

// The fewest frames for which TMAD is defined: a slice is an image T frames long, and MAD's
// appearance stage needs 34 pixels each way.
constexpr std::int64_t kStmadMinFrames = 34;

class StmadModel {
 public:
  // For frames of width x height (both >= 34, else InputError). The motion weights run on
  // `motion_backend` (Backend::Cuda: a kernel on the current device; Cpu: host code).
  StmadModel(int width, int height, Backend motion_backend);
  ~StmadModel();
  StmadModel(const StmadModel&) = delete;
  StmadModel& operator=(const StmadModel&) = delete;

  // Frame t of both clips, in order from t = 0: keeps rows and columns 8k+4 (the slices) and adds
  // the motion of reference frames (t-1, t). Frames of any bit depth (LumaFrame::value scale).
  // A frame of another size than the model's, or a bit depth other than its clip's first
  // frame's, is an InputError.
  void add_frames(const LumaFrame& ref, const LumaFrame& dist);
  // Frame t's indices from the run's scorer, in the same order: d_detect UNSCALED (ScoreResult::
  // d_detect) and lo. The scorer must have scored the frame with input class Double.
  void add_frame_indices(double d_detect, double lo);
  // Scores the column and row slice pairs through `scorer` (the run's own BatchScorer: same backend
  // and precision, input class Double; use submit()/drain() so slices overlap on the GPU) and
  // returns the figures. Call once, after every frame, with nothing queued on the scorer.
  // InvalidArgument when the scorer's input class is not Double; a slice pair the scorer
  // cannot score throws its error.
  StmadFigures finish(BatchScorer& scorer);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mad
