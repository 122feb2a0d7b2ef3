#!/usr/bin/env bash
# Packs what the GPU machine lacks (it has CUDA, g++, CMake, OpenMPI and python, but no
# PETSc, SuiteSparse, METIS or SuperLU) into .device-bundle/ (git-ignored, carried by
# the device tool): the shared libraries gpuglu's binaries need from this machine
# (xz-compressed, below 64 MiB), plus PETSc's headers/pkg-config/harness so the tree
# can be built there. scripts/device_run.sh unpacks it on the GPU machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.device-bundle
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
petsc=$(pkg-config --variable=prefix petsc)
mkdir -p "$stage/lib" "$stage/include" "$stage/petsc"

# Shared libraries: everything PETSc, SuiteSparse, METIS, SuperLU and MPI pull in,
# except the C runtime the GPU machine's newer glibc/libstdc++ already provides.
seeds=("$(readlink -f "$petsc/lib/libpetsc_real.so")")
for l in amd colamd btf klu umfpack cholmod suitesparseconfig metis superlu gtest gtest_main; do
  seeds+=("$(readlink -f /usr/lib/x86_64-linux-gnu/lib$l.so)")
done
skip='^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libstdc\+\+|libgcc_s|libresolv|libutil)\.so'
for lib in $(for s in "${seeds[@]}"; do echo "$s"; ldd "$s" | awk '/=> \//{print $3}'; done | sort -u); do
  base=$(basename "$lib")
  [[ $base =~ $skip ]] && continue
  cp -L "$lib" "$stage/lib/$base"
  # keep the SONAME link names the binaries ask for
  soname=$(objdump -p "$lib" 2>/dev/null | awk '/SONAME/{print $2}')
  [ -n "$soname" ] && [ "$soname" != "$base" ] && ln -sf "$base" "$stage/lib/$soname"
done
# OpenMPI's run-time plugins of the same build as the packed libmpi.
cp -a /usr/lib/x86_64-linux-gnu/openmpi "$stage/openmpi"
rm -rf "$stage/openmpi/include"

# Headers and configuration to build against them there.
cp -a "$petsc/include" "$stage/petsc/include"
mkdir -p "$stage/petsc/lib/pkgconfig" "$stage/petsc/lib/petsc"
cp -a "$petsc/lib/petsc/bin" "$petsc/lib/petsc/conf" "$stage/petsc/lib/petsc/"
for h in suitesparse superlu metis.h gtest; do cp -aL /usr/include/$h "$stage/include/" ; done
cp -aL /usr/include/x86_64-linux-gnu/openmpi "$stage/include/openmpi" 2>/dev/null || cp -aL /usr/lib/x86_64-linux-gnu/openmpi/include "$stage/include/openmpi"
cp -a /usr/lib/x86_64-linux-gnu/cmake/GTest "$stage/gtest-cmake"
cp -a /usr/share/petsc/3.18/share/petsc/examples "$stage/petsc-examples"

mkdir -p "$out"
tar -C "$stage" -cf - . | xz -T0 -6 > "$out/bundle.tar.xz"
du -h "$out/bundle.tar.xz"
