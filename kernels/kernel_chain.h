// A chain of preprocessing kernels run one after the other on one image (issue 11, seed 003:
// "images could be loaded once and passed through multiple filters without returning them to
// the host", line 212): `mad kernel gray,smooth,nick IN OUT`.
//
// Each stage takes the previous stage's output exactly as `mad kernel` would take it from a
// file, so a chain's output equals running its kernels one at a time (a test checks it):
// gray/darken need RGB and give gray; smoothing keeps the channels; nick and the histogram
// take gray, or the MATLAB gray of RGB (with a note). Alpha is dropped before the first stage.
// The CPU form runs the CPU references in sequence; the CUDA form keeps the image on the
// device between stages (one upload, one download) and runs each kernel's default variant.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/image_io.h"
#include "kernels/histogram.h"
#include "kernels/kernel_variant.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"

namespace mad::kernels {

// Notes a stage adds to its outcome (the same text on both backends).
inline constexpr const char* kNoteAlphaIgnored = "alpha channel ignored";
inline constexpr const char* kNoteColourToGray =
    "computed on the MATLAB rgb2gray of the colour image";

// Parses "gray,smooth,nick" (one name is a chain of one). Throws InvalidArgument for an empty
// or unknown name, gray/darken anywhere but first (their input must be RGB, and no stage
// gives RGB back) and the histogram anywhere but last (its result is not an image).
std::vector<KernelKind> parse_kernel_chain(const std::string& list);
// "gray,smooth,nick".
std::string kernel_chain_name(const std::vector<KernelKind>& chain);
bool chain_contains(const std::vector<KernelKind>& chain, KernelKind kind);

struct ChainParams {
  NickParams nick;
  SmoothBorder border = SmoothBorder::Clip;
};

struct ChainOutput {
  RawImage8 image;                     // the last stage's image (not for a final histogram)
  std::optional<Histogram> histogram;  // a final histogram
  std::vector<std::string> notes;
};

// How the CUDA chain moves the image between stages: kept on the device, or (the baseline of
// `mad bench --study seed003-chain`) downloaded to the host and uploaded again after every
// stage but the last, into the same device buffers.
enum class ChainTransfers { DeviceResident, HostRoundTrips };

// Runs `chain` (parse_kernel_chain's rules) with each kernel's default CUDA variant; throws
// InputError for an input a stage refuses (gray of a gray image, a nick window larger than
// the image), GpuError without a device or CUDA backend. Synchronous.
ChainOutput run_chain_cuda(const std::vector<KernelKind>& chain, const RawImage8& image,
                           const ChainParams& params,
                           ChainTransfers transfers = ChainTransfers::DeviceResident);

// "gray=VARIANT,smooth=VARIANT,...": the default variants run_chain_cuda runs.
std::string chain_cuda_variants(const std::vector<KernelKind>& chain, SmoothBorder border);

}  // namespace mad::kernels
