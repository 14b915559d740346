// mad.video's C++ side (tools/python/mad/video.py shapes its inputs and result): a clip pair
// scored by mad/video's VideoScorer, from files or from frames that Python hands over one at a
// time, so a generator's clip is never held whole.
#pragma once

#include <pybind11/pybind11.h>

namespace mad::python {

// Registers _video_score_paths and _video_score_frames on the module.
void bind_video(pybind11::module_& m);

}  // namespace mad::python
