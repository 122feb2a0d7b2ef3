#!/usr/bin/env bash
# Configures and builds gpuglu into ${GPUGLU_BUILD_DIR:-build} (Release). The CUDA
# backend is compiled when /usr/local/cuda/bin/nvcc exists, even without a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GPUGLU_BUILD_DIR:-$root/build}
jobs=${GPUGLU_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release ${GPUGLU_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
