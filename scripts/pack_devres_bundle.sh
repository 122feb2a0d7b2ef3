#!/usr/bin/env bash
# Packs a build made against the CUDA PETSc 3.26.1 (scripts/build_petsc.sh real cuda;
# GPUGLU_PETSC=<its prefix> scripts/build.sh) for the GPU machine, which has CUDA 13.0 but no
# PETSc: the build tree without objects and the libraries its binaries load (libpetsc.so.3.26,
# MUMPS, ScaLAPACK, OpenBLAS, OpenMPI with Debian's launcher for the two-rank test, ...; not
# CUDA's own, which the GPU machine's CUDA 13.0 provides, the version PETSc was built with
# here), xz-compressed into .device-bundle-cuda-petsc/bundle.tar.xz (git-ignored, below
# 64 MiB). No ../shared matrices; the benchmarks and tests it serves do not need the CPU-only
# benchmark programs either, which stay behind. scripts/device_run.sh devres unpacks and runs it.
#
# Usage: scripts/pack_devres_bundle.sh [BUILD_DIR]   (default build-petsc-petsc-3.26.1-real-cuda)
#   GPUGLU_PETSC: the CUDA PETSc's prefix (default: the one the build dir was configured with)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build-petsc-petsc-3.26.1-real-cuda}" && pwd)
petsc_lib=$(grep -oP '(?<=pkgcfg_lib_PETSC_petsc:FILEPATH=).*' "$build/CMakeCache.txt" || true)
petsc=${GPUGLU_PETSC:-$(dirname "$(dirname "$petsc_lib")")}
[[ -f $petsc/include/petscconf.h ]] || { echo "pack_devres_bundle.sh: no PETSc at '$petsc' (GPUGLU_PETSC)" >&2; exit 1; }
grep -q '^#define PETSC_HAVE_CUDA 1' "$petsc/include/petscconf.h" ||
  { echo "pack_devres_bundle.sh: $petsc is not configured with CUDA" >&2; exit 1; }
for exe in tests/petsc_device/petsc_device_resident bench/petsc_devres_bench tests/gpu/gpuglu_cuda_tests; do
  [[ -x $build/$exe ]] || { echo "pack_devres_bundle.sh: $build/$exe is missing (build it first)" >&2; exit 1; }
done
# ldd finds libpetsc through these; pkg-config names the PETSc whose petscdiff travels.
export LD_LIBRARY_PATH=$petsc/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PKG_CONFIG_PATH=$petsc/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# What device_run.sh devres does not run (CPU benchmarks, the CPU unit tests, the harness's
# and tutorials' programs) stays behind: the bundle carries libpetsc's dependencies instead.
exclude='bench/gpuglu_(lu|ldlt|trsv|ilu_gmres|petsc_e2e)_bench|bench/petsc_ts_ex5|tests/unit/|tests/tutorials/|tests/petsc/|tests/install/|examples/'
GPUGLU_BUNDLE_OUT=$root/.device-bundle-cuda-petsc GPUGLU_BUNDLE_SHARED=0 GPUGLU_BUNDLE_EXCLUDE=$exclude \
  "$root/scripts/pack_device_bundle.sh" "$build"
echo "$petsc" > "$root/.device-bundle-cuda-petsc/petsc_prefix"
