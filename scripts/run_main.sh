#!/usr/bin/env bash
# The main job: install the Debian packages, build, and solve a 200k-unknown
# circuit-like MNA system through PETSc with -pc_type lu -pc_factor_mat_solver_type gpuglu,
# refactoring it as a Newton loop would: one line per step with the seconds of the analysis,
# the numeric factorization and the solve, the residual and error, then the solver view.
# Extra arguments go to the solver program (e.g. -matrix lap3d7:60x60x60).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install_deps.sh"
"$root/scripts/build.sh"
source "$root/scripts/mpi_env.sh"
build=${GPUGLU_BUILD_DIR:-$root/build}
exec mpiexec -n 1 --bind-to none "$build/examples/gpuglu_solve" -matrix circuit:200000:2000 -newton_steps 5 \
  -ksp_type preonly -pc_type lu -pc_factor_mat_solver_type gpuglu -ksp_view "$@"
