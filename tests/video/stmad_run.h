// Runs ST-MAD the way `mad video --stmad` does: each frame pair through the run's BatchScorer
// (input class double), its d_detect and LO into the model, the slices through the same scorer.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "common/error.h"
#include "common/luma_frame.h"
#include "mad/backend_choice.h"
#include "mad/batch_scorer.h"
#include "mad/video/stmad.h"

namespace mad::test {

// Frame t of the reference (distorted == false) or the distorted clip.
using ClipFrames = std::function<LumaFrame(int t, bool distorted)>;

struct StmadRun {
  StmadFigures figures;
  std::vector<double> hi, lo;  // per frame: HI in ST-MAD's scale (x10) and LO
};

inline ScoreOptions stmad_scoring_options(Backend backend) {
  ScoreOptions o;
  o.backend = backend;
  o.version = MadVersion::Stmad2011;
  o.input_class = InputClass::Double;
  return o;
}

inline StmadRun run_stmad(const ClipFrames& frames, int frame_count, int width, int height,
                          Backend backend = Backend::Cpu,
                          ScoreOptions options = stmad_scoring_options(Backend::Cpu)) {
  options.backend = backend;
  BatchScorer scorer(options, ResolvedBackend(backend));
  StmadModel model(width, height, backend);
  StmadRun run;
  for (int t = 0; t < frame_count; ++t) {
    LumaFrame r = frames(t, false), d = frames(t, true);
    model.add_frames(r, d);
    std::vector<BatchScorer::Finished> rows = scorer.submit(
        static_cast<std::uint64_t>(t),
        std::make_shared<const SourceImage>(to_source_image(std::move(r))),
        std::make_shared<const SourceImage>(to_source_image(std::move(d))));
    for (BatchScorer::Finished& f : scorer.drain()) rows.push_back(std::move(f));
    for (const BatchScorer::Finished& f : rows) {
      if (!f.ok) throw InputError(f.error);
      model.add_frame_indices(f.result.d_detect, f.result.lo);
      run.hi.push_back(f.result.hi);
      run.lo.push_back(f.result.lo);
    }
  }
  run.figures = model.finish(scorer);
  return run;
}

}  // namespace mad::test
