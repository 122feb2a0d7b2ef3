#!/usr/bin/env bash
# CTest bench_mpi_smoke (bench/CMakeLists.txt): scripts/mpi_bench.py end to end on 2 ranks,
# gpuglu's CPU backend, tiny grids.
# 1. --mode lu: gathered gpuglu (column and supernodal engines) against MUMPS and
#    SuperLU_DIST on SNES ex14: every run must converge and its -log_trace give a first
#    factorization, refactorizations and solves.
# 2. --mode dd: every configuration (bjacobi/asm/gasm LU, bjacobi ILU, GAMG coarse LU,
#    fieldsplit) with gpuglu and with its peer must converge.
# 3. scripts/perf_table.py must read the records.
# Usage: mpi_smoke.sh PYTHON SCRIPTS_DIR EX14 EX19 PLUGIN WORKDIR [superlu_dist|no-superlu_dist]
#   (MPIEXEC in the environment; no-superlu_dist: a PETSc without it, left out of the lu mode)
set -euo pipefail
python=$1 scripts=$2 ex14=$3 ex19=$4 plugin=$5 work=$6 sludist=${7:-superlu_dist}
solvers=gpuglu,gpuglu+supernodal,mumps,superlu_dist
[[ $sludist == no-superlu_dist ]] && solvers=gpuglu,gpuglu+supernodal,mumps
nsolvers=$(tr ',' '\n' <<< "$solvers" | wc -l)
mkdir -p "$work"
out=$work/records.jsonl
rm -f "$out"
common=(--ex14 "$ex14" --plugin "$plugin" --gpuglu-options "-mat_gpuglu_backend cpu" --out "$out" --device smoke)
"$python" "$scripts/mpi_bench.py" --mode lu "${common[@]}" --grid 12x12x6 --ranks 2 \
  --solvers "$solvers" | tee "$work/lu.txt"
# Every solver: a first factorization, two refactorizations (Newton steps 2 and 3), three solves.
[[ $(grep -cE '^ +2 [a-z_+]+ .* 2/3 *$' "$work/lu.txt") -eq $nsolvers ]] ||
  { echo "mpi_smoke.sh: expected $nsolvers solvers with 2 refactorizations and 3 solves" >&2; exit 1; }
# GAMG's coarse grid limit (20000 rows) keeps the whole 12^3 problem on the coarse grid here.
"$python" "$scripts/mpi_bench.py" --mode dd "${common[@]}" --ex19 "$ex19" --grid 12x12x12 --ex19-grid 16x16 \
  --dd-ranks 2 | tee "$work/dd.txt"
if grep -q failed "$work/dd.txt"; then echo "mpi_smoke.sh: a dd configuration failed" >&2; exit 1; fi
"$python" "$scripts/perf_table.py" --results "$out" --print > "$work/table.md"
for bench in mpi_lu mpi_dd; do
  grep -q "### $bench on smoke" "$work/table.md" || { echo "mpi_smoke.sh: no $bench table" >&2; exit 1; }
done
# lu: 2 gpuglu variants x the peers; dd: 7 configurations x 1 peer (DD_CONFIGS but the 2-D ones).
records=$((2 * (nsolvers - 2) + 7))
[[ $(wc -l < "$out") -eq $records ]] || { echo "mpi_smoke.sh: expected $records records in $out" >&2; exit 1; }
echo "mpi_smoke.sh: PASS"
