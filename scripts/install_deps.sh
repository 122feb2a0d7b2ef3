#!/usr/bin/env bash
# Installs the Debian packages gpuglu builds against (PETSc 3.18 with OpenMPI, hypre,
# MUMPS, SuperLU, SuiteSparse; METIS; GoogleTest; the PETSc examples package whose
# test-harness tools and tutorials the tests use; OpenBLAS with pthreads, which Debian's
# alternatives then make libblas.so.3 and liblapack.so.3, so that CHOLMOD and MUMPS in
# gpuglu_ldlt_bench can use every core; python3-petsc4py, which tests/petsc4py and
# examples/petsc4py use). Skips apt when all are present.
# The CUDA toolkit is not a Debian package here: /usr/local/cuda is used when present.
set -euo pipefail
packages=(
  build-essential cmake pkg-config python3 git
  petsc-dev libpetsc-real3.18-dev libpetsc3.18-dev-examples python3-petsc4py
  openmpi-bin libopenmpi-dev
  libsuitesparse-dev libmetis-dev libsuperlu-dev libhypre-dev libmumps-dev
  libgtest-dev
  libopenblas0-pthread
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gpuglu: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
