#!/usr/bin/env bash
# CTest bench_ilu_gmres_smoke (bench/CMakeLists.txt): gpuglu_ilu_gmres_bench on the CPU.
# 1. One rank: gpuglu (CPU backend), PETSc's ILU(0) and hypre's Euclid ILU(0) must converge,
#    gpuglu's GMRES iterations within one of PETSc's (same ILU(0), same natural ordering).
# 2. Two ranks: bjacobi/ILU and hypre must converge; their records take gpuglu's numbers
#    from step 1 (--ours-from).
# 3. scripts/perf_table.py must read the records and show every peer.
# Usage: ilu_gmres_smoke.sh BENCH MPIEXEC PYTHON PERF_TABLE WORKDIR [hypre|no-hypre]
# (no-hypre: a PETSc without hypre; its variants are left out.)
set -euo pipefail
bench=$1 mpiexec=$2 python=$3 perf_table=$4 work=$5 hypre=${6:-hypre}
mkdir -p "$work"
out=$work/records.jsonl
rm -f "$out"
problem=(--matrix convdiff3d:12x12x12 --backend cpu --warmup 1 --repeat 2 --require-all --out "$out")
peers=(petsc_ilu hypre_ilu petsc_bjacobi_ilu_2 hypre_ilu_2)
variants=gpuglu,petsc_ilu,hypre_ilu
parallel=()
if [[ $hypre == no-hypre ]]; then
  peers=(petsc_ilu petsc_bjacobi_ilu_2)
  variants=gpuglu,petsc_ilu
  parallel=(--variants petsc_bjacobi_ilu)
fi
"$bench" "${problem[@]}" --variants $variants --match-iterations petsc_ilu:1
"$mpiexec" -n 2 "$bench" "${problem[@]}" --ours-from "$out" "${parallel[@]}"
"$python" "$perf_table" --results "$out" --print | tee "$work/table.md"
for peer in "${peers[@]}"; do
  grep -q "$peer ms" "$work/table.md" || { echo "ilu_gmres_smoke.sh: no $peer column in the table" >&2; exit 1; }
done
[[ $(wc -l < "$out") -eq ${#peers[@]} ]] || { echo "ilu_gmres_smoke.sh: expected ${#peers[@]} records in $out" >&2; exit 1; }
echo "ilu_gmres_smoke.sh: PASS"
