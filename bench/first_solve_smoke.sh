#!/usr/bin/env bash
# CTest bench_first_solve_smoke (bench/CMakeLists.txt): the first_solve benchmark on the CPU.
# 1. scripts/first_solve.py on a generated matrix and a small Matrix Market file written here:
#    gpuglu (CPU backend), KLU and PETSc's LU on one rank, MUMPS on two; cuDSS is recorded as
#    skipped (no cuDSS in a CPU build, or no GPU). Every solve must succeed (backward error below the
#    program's 1e-6) and a first_solve record be written per peer.
# 2. gpuglu (gathered to rank 0) and MUMPS on two ranks directly, both matrices.
# 3. scripts/perf_table.py must read the records and show every peer.
# Usage: first_solve_smoke.sh BENCH MPIEXEC PYTHON SCRIPTS_DIR WORKDIR
set -euo pipefail
bench=$1 mpiexec=$2 python=$3 scripts=$4 work=$5
mkdir -p "$work"
rm -f "$work"/*.jsonl
# 6 x 6, unsymmetric, row 3 without a diagonal entry (a pivot must come from elsewhere).
mtx=$work/tiny.mtx
cat > "$mtx" <<'MTX'
%%MatrixMarket matrix coordinate real general
6 6 15
1 1 4.0
2 1 -1.0
1 2 1.0
2 2 5.0
3 2 2.0
4 3 1.5
2 3 -2.0
3 4 3.0
4 4 6.0
5 4 -1.0
5 5 4.0
6 5 1.0
4 6 0.5
6 6 3.0
3 6 -1.0
MTX
export MPIEXEC=$mpiexec
"$python" "$scripts/first_solve.py" --exe "$bench" --matrices "convdiff3d:6x6x6 $mtx" --backend cpu \
  --mumps-ranks 2 --timeout 60 --runs "$work/runs.jsonl" --out "$work/records.jsonl" --device smoke | tee "$work/table.md"
# Two matrices x four peers (mumps-2r, cudss skipped, klu, petsc). PETSc's LU pivots on the
# diagonal: on tiny.mtx it fails (row 3 has none), which the records must say.
[[ $(wc -l < "$work/records.jsonl") -eq 8 ]] || { echo "first_solve_smoke.sh: expected 8 records" >&2; exit 1; }
for peer in mumps-2r klu cudss petsc; do
  grep -q "$peer ms" "$work/table.md" || { echo "first_solve_smoke.sh: no $peer column" >&2; exit 1; }
done
"$python" - "$work/records.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
for r in recs:
    assert r["benchmark"] == "first_solve" and r["ours_ms"] > 0, r
    assert r["ours_backward_error"] < 1e-12 and r["ours_residual"] < 1e-12, r
    peer_ok = r["peer_ms"] is not None
    expect_ok = r["peer"] in ("mumps-2r", "klu") or (r["peer"] == "petsc" and r["matrix"] != "tiny")
    assert peer_ok == expect_ok, (r["matrix"], r["peer"], r.get("peer_note"))
    if peer_ok:
        assert r["peer_backward_error"] < 1e-12, r
    if r["peer"] == "cudss":
        assert r["peer_note"].startswith("skipped"), r
    if r["peer"] == "mumps-2r":
        assert r["peer_ranks"] == 2 and r["peer_nnz_factor"] > 0 and r["peer_factor_flops"] > 0, r
    assert r["nnz_factor"] > 0 and r["ours_factor_flops"] > 0, r
print("first_solve_smoke.sh: records checked")
PY
# gpuglu gathered from two ranks and MUMPS on them, run lines only (the program's exit says
# whether every solve succeeded).
"$mpiexec" -n 2 "$bench" --matrix convdiff3d:6x6x6 --matrix "$mtx" --solver gpuglu,mumps --backend cpu \
  --out "$work/two_ranks.jsonl"
[[ $(grep -c '"ranks": 2' "$work/two_ranks.jsonl") -eq 4 ]] ||
  { echo "first_solve_smoke.sh: expected 4 two-rank run lines" >&2; exit 1; }
"$python" "$scripts/perf_table.py" --results "$work/records.jsonl" --print > "$work/perf_table.md"
grep -q "### first_solve on smoke" "$work/perf_table.md" || { echo "first_solve_smoke.sh: no perf_table table" >&2; exit 1; }
echo "first_solve_smoke.sh: PASS"
