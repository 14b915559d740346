#include "appearance/appearance_workspace_cpu.h"

#include "common/workspace_cpu.h"

namespace mad::appearance {

void AppearanceWorkspaceCpu::prepare(int width, int height, int images, int workers) {
  const BlockGrid grid(width, height);
  const std::size_t pixels = static_cast<std::size_t>(width) * height;
  spectra.resize(images);
  fft.resize(images);  // fitted by the transforms
  stats.resize(images);
  for (std::vector<Complex>& s : spectra) fit_buffer(s, pixels);
  for (SubbandStats& st : stats) {
    st.grid = grid;
    for (std::vector<double>* v : {&st.std, &st.skew, &st.kurt})
      fit_buffer(*v, st.plane_size() * kSubbands);
  }
  scratch.resize(workers);
  magnitude.resize(workers);
  for (auto& s : scratch)
    if (!s || s->pixels() != pixels) {
      s = std::make_unique<SubbandScratch>(pixels);
      count_workspace_allocation();
    }
  for (Image<double>& m : magnitude) fit_image(m, width, height);
  fit_buffer(eta, grid.count());
  fit_image(plane, width, height);
  if (!workspace_poisoning()) return;
  for (std::vector<Complex>& s : spectra) poison_buffer(s);
  for (CpuFftBuffers& f : fft) f.poison();
  for (SubbandStats& st : stats)
    for (std::vector<double>* v : {&st.std, &st.skew, &st.kurt}) poison_buffer(*v);
  for (auto& s : scratch) s->poison();
  for (Image<double>& m : magnitude) poison_image(m);
  poison_buffer(eta);
  poison_image(plane);
}

void AppearanceWorkspaceCpu::release() { *this = AppearanceWorkspaceCpu(); }

}  // namespace mad::appearance
