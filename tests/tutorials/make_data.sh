#!/usr/bin/env bash
# Writes the PETSc binary systems (matrix + right-hand side) that ex10 reads.
set -euo pipefail
mmgen=$1 mm2petsc=$2 out=$3
mkdir -p "$out"
make_one() {  # name spec
  "$mmgen" "$2" "$out/$1.mtx"
  "$mm2petsc" -fin "$out/$1.mtx" -fout "$out/$1.petsc" -rhs Ax
}
make_one circuit circuit:3000:40:7
make_one convdiff convdiff3d:12x12x12:5
# The same convection-diffusion matrix with every 7th diagonal entry stored as an exact zero:
# ILU(0) meets a zero pivot in row 0, so -pc_factor_shift_type decides what happens.
awk 'BEGIN { size = 1 } /^%/ { print; next } size { print; size = 0; next }
     { if ($1 == $2 && ($1 - 1) % 7 == 0) $3 = 0; print }' "$out/convdiff.mtx" > "$out/convdiff_zero_diag.mtx"
"$mm2petsc" -fin "$out/convdiff_zero_diag.mtx" -fout "$out/convdiff_zero_diag.petsc" -rhs Ax
# Symmetric systems for -pc_type cholesky / icc: 3-D elasticity (SPD), and a KKT system
# [H A^T; A 0] whose zero block PETSc's own Cholesky cannot pivot on (the peer is MUMPS).
make_one elasticity elast3d:6x5x5
make_one kkt kkt:400:120:3
