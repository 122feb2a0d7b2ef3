#!/usr/bin/env bash
# The test command: install the Debian packages, build, and run every test label
# (unit, extended, petsc, tutorial, gpu). GPUGLU_PETSC=<prefix> tests against a PETSc that
# scripts/build_petsc.sh built (default: Debian's 3.18). Tests that need ../shared/matrices or a
# GPU report "skipped" when those are absent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
"$root/scripts/build.sh"
source "$root/scripts/mpi_env.sh"
if [[ -n ${GPUGLU_PETSC:-} ]]; then  # the same choice as build.sh
  build=${GPUGLU_BUILD_DIR:-$root/build-petsc-$(basename "$GPUGLU_PETSC")}
  export LD_LIBRARY_PATH=$GPUGLU_PETSC/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else
  build=${GPUGLU_BUILD_DIR:-$root/build}
fi
cd "$build"
ctest --output-on-failure -j "${GPUGLU_TEST_JOBS:-2}" "$@"
