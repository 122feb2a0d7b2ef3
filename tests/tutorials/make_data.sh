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
