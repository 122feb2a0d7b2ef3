#!/usr/bin/env bash
# The CPU benchmark of docs/performance.md: gpuglu's CPU backend (one thread) against KLU,
# UMFPACK and PETSc's own LU, same run, same machine, then end to end through PETSc against
# PETSc's KLU, MUMPS and SuperLU (when the build has PETSc); results appended to
# docs/performance/results.jsonl, then the tables regenerated.
# Usage: GPUGLU_BUILD_DIR=build scripts/run_cpu_bench.sh [extra bench options]
# (adds ../shared/matrices when present)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${GPUGLU_BUILD_DIR:-build}
bench=$build/bench/gpuglu_lu_bench
[[ -x $bench ]] || { echo "run_cpu_bench.sh: $bench not built (configure with -DGPUGLU_BUILD_BENCH=ON)" >&2; exit 1; }
matrices=(
  --matrix circuit:10000:100 --matrix circuit:20000:200 --matrix circuit:100000:1000
  --matrix circuit:200000:2000 --matrix circuit:500000:5000
  --matrix powergrid:20000:100 --matrix powergrid:60000:300
  --matrix lap2d5:300x300 --matrix lap3d7:25x25x25 --matrix convdiff3d:25x25x25
)
[[ -d ../shared/matrices ]] && matrices+=(--matrix-dir ../shared/matrices)
export OMP_NUM_THREADS=1
"$bench" --threads 1 --warmup 1 --repeat 5 --out docs/performance/results.jsonl "${matrices[@]}" "$@"
# End to end through PETSc (MatLUFactorNumeric + MatSolve). Fewer matrices: SuperLU and MUMPS
# take seconds per refactorization on the larger ones. Its failures are reported after the tables.
e2e=$build/bench/gpuglu_petsc_e2e_bench
e2e_status=0
if [[ -x $e2e ]]; then
  e2e_matrices=(--matrix circuit:20000:200 --matrix circuit:200000:2000 --matrix powergrid:60000:300
                --matrix lap2d5:300x300)
  [[ -d ../shared/matrices ]] && e2e_matrices+=(--matrix-dir ../shared/matrices)
  "$e2e" --backend cpu --threads 1 --warmup 1 --repeat 5 --out docs/performance/results.jsonl "${e2e_matrices[@]}" ||
    e2e_status=$?
fi
python3 scripts/perf_table.py
exit $e2e_status
