#!/usr/bin/env bash
# The test command: install the Debian packages, build, and run every test label
# (unit, extended, petsc, tutorial, gpu). Tests that need ../shared/matrices or a
# GPU report "skipped" when those are absent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
"$root/scripts/build.sh"
source "$root/scripts/mpi_env.sh"
build=${GPUGLU_BUILD_DIR:-$root/build}
cd "$build"
ctest --output-on-failure -j "${GPUGLU_TEST_JOBS:-2}" "$@"
