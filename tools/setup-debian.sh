#!/usr/bin/env bash
# Installs what mad needs to build and test on Debian 12 / Ubuntu (the CUDA toolkit itself is
# optional and not installed here: with it the GPU backend is built, without it the CPU path).
# The python3-* packages build and test the Python module (tools/python, tests/python);
# python3-distributed is Dask (mad.dask, tests/python/test_dask.py); python3-pil is Pillow, whose
# images tests/python/test_pil.py scores. slurmctld, slurmd and slurm-client (munge comes with
# them) run docs/slurm/mad-shards.sh under a one-node Slurm that tests/slurm starts and stops
# (Debian's whole slurm-wlm and munge installed in 22 s here).
set -euo pipefail
packages=(cmake g++ make pkg-config libpng-dev libdeflate-dev libjpeg-dev libtiff-dev libstb-dev libfftw3-dev
          libeigen3-dev libcli11-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev
          libmatio-dev
          python3-dev python3-numpy python3-pytest python3-pybind11 pybind11-dev python3-setuptools
          python3-pip python3-venv python3-distributed python3-pil
          slurmctld slurmd slurm-client)
# MAD_SETUP_FUZZ=1 adds clang and its libFuzzer runtime (tools/fuzz-smoke.sh, CI).
[ "${MAD_SETUP_FUZZ:-0}" = 1 ] && packages+=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
