#!/bin/sh
# Install what building and testing cudakernels needs and the machine lacks (Debian/Ubuntu):
# Octave with its headers and mkoctfile, make, a C compiler. The CUDA toolkit (nvcc) cannot come
# from here portably: without it this says where to get it and fails.
set -eu
need=""
command -v octave-cli >/dev/null 2>&1 || need="$need octave"
command -v mkoctfile >/dev/null 2>&1 || need="$need liboctave-dev"
command -v make >/dev/null 2>&1 || need="$need make"
command -v cc >/dev/null 2>&1 || need="$need gcc"
if [ -n "$need" ]; then
  echo "installing:$need"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $need
fi
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "nvcc not found: install the NVIDIA CUDA toolkit (12.x or 13.x) and put nvcc on PATH" >&2
  exit 1
fi
echo "dependencies present: octave $(octave-cli --version | sed -n '1s/.*version //p'), nvcc"
