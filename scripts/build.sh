#!/usr/bin/env bash
# Configures and builds gpuglu into ${GPUGLU_BUILD_DIR:-build} (Release). The CUDA
# backend is compiled when /usr/local/cuda/bin/nvcc exists, even without a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# GPUGLU_PETSC=<prefix>: build against that PETSc (scripts/build_petsc.sh) instead of
# Debian's, in build-petsc-<its name> unless GPUGLU_BUILD_DIR says otherwise.
if [[ -n ${GPUGLU_PETSC:-} ]]; then
  export PKG_CONFIG_PATH=$GPUGLU_PETSC/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  build=${GPUGLU_BUILD_DIR:-$root/build-petsc-$(basename "$GPUGLU_PETSC")}
else
  build=${GPUGLU_BUILD_DIR:-$root/build}
fi
jobs=${GPUGLU_JOBS:-$(nproc)}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release ${GPUGLU_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
