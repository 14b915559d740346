#!/usr/bin/env bash
# Builds and runs tools/probes/vkfft_probe.cu: VkFFT's convolution mode against the appearance
# stage's cuFFT sequence (issue 26, item 2). One call on the GPU machine, no interaction.
#
#   tools/probes/vkfft_probe.sh [DEB_ROOT]
#
# DEB_ROOT: a folder where Debian's libvkfft-dev .deb was unpacked (dpkg -x), so that
# DEB_ROOT/usr/include/vkFFT.h exists: the GPU machine lacks the package. Without it the script
# unpacks .debs/libvkfft-dev_*.deb (fetched with `cd .debs && apt-get download libvkfft-dev`)
# when present, else uses an installed /usr/include/vkFFT.h.
# VKFFT_PROBE_BUILD_ONLY=1 builds without running (a machine without a GPU).
# Prints the probe's "VKFFT:" lines (docs/lab/2026-11-27-vkfft-probe.md says what each means).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=${1:-}
if [ -z "$root" ]; then
  if ls .debs/libvkfft-dev_*.deb > /dev/null 2>&1; then
    root=/tmp/vkfft-probe-deb
    rm -rf "$root"
    dpkg -x "$(ls .debs/libvkfft-dev_*.deb | head -1)" "$root"
  else
    root=/
  fi
fi
include="$root/usr/include"
if [ ! -f "$include/vkFFT.h" ]; then
  echo "VKFFT: no vkFFT.h under $include (unpack libvkfft-dev's .deb with dpkg -x and pass the folder)"
  exit 2
fi
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cuda=$(dirname "$(dirname "$nvcc")")
build=${VKFFT_PROBE_DIR:-/tmp/vkfft-probe}
mkdir -p "$build"
rm -f "$build"/*.o
# The stage's own sources the probe calls (bank, filter products, error checks) build beside it
# in parallel. -isystem: vkFFT.h's warnings are not the probe's. The stubs folder lets -lcuda
# link where only the driver's libcuda.so.1 exists; the driver's library is the one loaded.
flags=(-std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I. -isystem "$include")
sources=(tools/probes/vkfft_probe.cu appearance/appearance_kernels_cuda.cu
         appearance/log_gabor_cuda.cu common/cuda_check.cu common/launch_log.cpp)
pids=()
for src in "${sources[@]}"; do
  "$nvcc" "${flags[@]}" -c "$src" -o "$build/$(basename "$src").o" & pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { echo "VKFFT: build FAILED"; exit 1; }; done
"$nvcc" -arch=sm_90 "$build"/*.o -o "$build/vkfft_probe" -L"$cuda/lib64/stubs" \
  -lcuda -lnvrtc -lcufft
echo "VKFFT: built with $("$nvcc" --version | tail -1) against $include/vkFFT.h"
[ "${VKFFT_PROBE_BUILD_ONLY:-0}" = 1 ] && exit 0
exec "$build/vkfft_probe"
