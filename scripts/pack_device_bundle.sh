#!/usr/bin/env bash
# Packs a CUDA build made on this machine for the GPU machine, which has CUDA 13, g++,
# CMake, OpenMPI and python but no PETSc, SuiteSparse or METIS: the build tree (binaries,
# CTest files, harness scripts; no object files) and every shared library its binaries
# need that the GPU machine lacks, xz-compressed into .device-bundle/bundle.tar.xz
# (git-ignored, carried by the device tool, below 64 MiB). Binaries built here run there
# (glibc 2.36 here, 2.39 there). With them go ../shared/matrices and the files of
# ../shared/collection that the ldlt and first_solve steps measure. scripts/device_run.sh unpacks
# and runs it.
#
# Usage: scripts/pack_device_bundle.sh BUILD_DIR   (configured with -DGPUGLU_ENABLE_CUDA=ON)
#   GPUGLU_BUNDLE_REFERENCE=OTHER_BUILD_DIR also packs that build's gpuglu_lu_bench and
#   libgpuglu (a reference, e.g. the commit before a refactoring) for device_run.sh's ab step,
#   and its PETSc plugin where it has one (a PETSc run's A/B: -dll_append it with
#   LD_LIBRARY_PATH on the reference's folder, which the plugin's RUNPATH gives way to).
#   GPUGLU_BUNDLE_OUT=DIR: where bundle.tar.xz goes (default .device-bundle);
#   GPUGLU_BUNDLE_SHARED=0: without ../shared's matrices and collection files;
#   GPUGLU_BUNDLE_EXCLUDE=REGEX: build-tree binaries (paths relative to the build dir) left out
#   (with the libraries only they need; the CTest files stay, so ctest -R selects the rest).
#   scripts/pack_devres_bundle.sh uses these for the slimmer CUDA-PETSc bundle.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: pack_device_bundle.sh BUILD_DIR}" && pwd)
[[ $build == "$root"/* ]] || { echo "pack_device_bundle.sh: $build is not inside $root" >&2; exit 1; }
grep -q 'GPUGLU_HAVE_CUDA:INTERNAL=ON\|GPUGLU_HAVE_CUDA:BOOL=ON\|GPUGLU_ENABLE_CUDA:BOOL=ON' "$build/CMakeCache.txt" ||
  echo "pack_device_bundle.sh: warning: $build does not look like a CUDA build" >&2
out=${GPUGLU_BUNDLE_OUT:-$root/.device-bundle}
exclude=${GPUGLU_BUNDLE_EXCLUDE:-}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib"

# The ELF files of the build tree, and PETSc's tutorial binaries built there.
mapfile -t all_elves < <(find "$build" -type f \( -perm -u+x -o -name '*.so*' \) ! -path '*/CMakeFiles/*' \
  -exec sh -c 'head -c4 "$1" | grep -q ELF && echo "$1"' _ {} \;)
elves=()
left_out=()
for e in "${all_elves[@]}"; do
  if [[ -n $exclude ]] && grep -q -E "^$build/($exclude)" <<<"$e"; then left_out+=("--exclude=${e#"$root"/}"); else elves+=("$e"); fi
done
# Everything they load, except the C/C++ runtime (newer there) and CUDA's own libraries
# (the GPU machine's toolkit provides them, matching its driver).
skip='^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libstdc\+\+|libgcc_s|libresolv|libutil|libcuda|libcudart|libcusparse|libcusolver|libcublas|libcublasLt|libnvJitLink|libnvrtc|libcurand|libgpuglu|libpetscgpuglu)(\.|-)'
for lib in $(for e in "${elves[@]}"; do ldd "$e" 2>/dev/null | awk '/=> \//{print $3}'; done | sort -u); do
  base=$(basename "$lib")
  [[ $base =~ $skip ]] && continue
  cp -L "$lib" "$stage/lib/$base"
done
# libblas.so.3 is what Debian's alternatives point at: OpenBLAS (pthreads) once install_deps.sh
# has installed it, and then libopenblas.so.0 and libgfortran came along above. The ldlt step
# runs CHOLMOD on all cores through it; the reference BLAS would run it on one.
if [[ -f $stage/lib/libopenblas.so.0 ]]; then
  echo "pack_device_bundle.sh: BLAS: OpenBLAS ($(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3))"
else
  echo "pack_device_bundle.sh: warning: libblas.so.3 is not OpenBLAS: CHOLMOD and MUMPS will run on one thread" >&2
fi
# PETSc opens these by name at run time (not through ldd); OpenMPI its plugins.
cp -a /usr/lib/x86_64-linux-gnu/openmpi "$stage/openmpi"
rm -rf "$stage/openmpi/include"
# mpiexec for the multi-rank runs of device_run.sh (step ilu_gmres). The GPU machine's own
# OpenMPI is another release than the libmpi travelling in lib/ (Debian's 4.1.4): its
# launcher would run with these libraries and plugins, and its PMIx server would talk to
# Debian's PMIx clients. So Debian's launcher travels too (orterun, orted), with the PMIx
# it was built with and both packages' data files, under mpi/: apart from lib/, so the
# one-process runs of the other steps keep the environment they have been measured in.
mkdir -p "$stage/mpi/bin" "$stage/mpi/lib" "$stage/mpi/share"
cp -L /usr/bin/orterun /usr/bin/orted "$stage/mpi/bin/"
ln -s orterun "$stage/mpi/bin/mpiexec"
pmix=/usr/lib/x86_64-linux-gnu/pmix2  # Debian 12's libpmix2, which its OpenMPI uses
cp -L "$pmix/lib/libpmix.so.2" "$stage/mpi/lib/"
cp -a "$pmix/lib/pmix" "$stage/mpi/pmix"              # PMIx's plugins
cp -a "$pmix/share/pmix" "$stage/mpi/share/pmix"      # its help texts
cp -a /usr/share/openmpi "$stage/mpi/share/openmpi"   # OpenMPI's help texts
rm -f "$stage/mpi/share/openmpi/"*wrapper-data.txt
cp -a /etc/openmpi "$stage/mpi/etc"                   # openmpi-mca-params.conf
# What the launcher, PMIx and OpenMPI's PMIx plugin load that lib/ does not hold yet (libmunge).
for lib in $(for e in "$stage/mpi/bin/orterun" "$stage/mpi/bin/orted" "$stage/mpi/lib/libpmix.so.2" \
               "$stage"/mpi/pmix/*.so "$stage/openmpi/lib/openmpi3/mca_pmix_ext3x.so"; do
               ldd "$e" 2>/dev/null | awk '/=> \//{print $3}'; done | sort -u); do
  base=$(basename "$lib")
  [[ $base =~ $skip || -e $stage/lib/$base || -e $stage/mpi/lib/$base ]] && continue
  cp -L "$lib" "$stage/mpi/lib/$base"
done
petsc=$(pkg-config --variable=prefix petsc 2>/dev/null || true)
if [[ -n $petsc ]]; then
  mkdir -p "$stage/petsc-bin"
  cp -a "$petsc/lib/petsc/bin/petscdiff" "$stage/petsc-bin/" 2>/dev/null || true
fi

# The SuiteSparse test matrices (../shared/matrices), which do not travel with the tree.
if [[ ${GPUGLU_BUNDLE_SHARED:-1} != 0 ]]; then
matrix_dir=$(grep -oP '(?<=GPUGLU_MATRIX_DIR:PATH=).*' "$build/CMakeCache.txt" || true)
[[ -z $matrix_dir ]] && matrix_dir=$root/../shared/matrices
if [[ -d $matrix_dir ]]; then
  cp -a "$matrix_dir" "$stage/matrices"
  readlink -f "$matrix_dir" > "$stage/matrix_dir"
fi

# The SuiteSparse collection files the ldlt and first_solve steps of device_run.sh measure
# (../shared/collection, which does not travel either): GPUGLU_BUNDLE_COLLECTION, paths below
# it, default the SPD and symmetric indefinite ones and G3_circuit (5.2 MiB, already
# xz-compressed): with cuDSS in the build (its pruned library is 16 MiB compressed) the bundle
# is 59 MiB at xz -9. The first_solve step measures whichever travel. With the small circuit
# and general ones added (rajat19, adder_dcop_05, add20, memplus, bayer10, wang3) a bundle of
# gpuglu_first_solve_bench alone (GPUGLU_BUNDLE_EXCLUDE the other programs) was 59 MiB with
# G3_circuit, too much beside the repository's own files (about 6 MiB of the device tool's 64),
# and 54 MiB without it.
collection_dir=$(dirname "$matrix_dir")/collection
[[ -d $collection_dir ]] || collection_dir=$root/../shared/collection
ldlt_collection="spd/bcsstk16.mtx spd/bcsstk18.mtx spd/Andrews.mtx sym-indefinite/aug3dcqp.mtx
  sym-indefinite/bloweya.mtx sym-indefinite/tuma1.mtx sym-indefinite/stokes64.mtx circuit/G3_circuit.mtx.xz"
for f in ${GPUGLU_BUNDLE_COLLECTION-$ldlt_collection}; do
  if [[ -f $collection_dir/$f ]]; then
    mkdir -p "$stage/collection/$(dirname "$f")"
    cp -L "$collection_dir/$f" "$stage/collection/$f"
    chmod u+w "$stage/collection/$f"  # shared/ is read-only; a later unpack overwrites these
  else
    echo "pack_device_bundle.sh: warning: no $collection_dir/$f" >&2
  fi
done
fi  # GPUGLU_BUNDLE_SHARED

# A reference build's benchmarks and library, run beside this build's by the ab step (the LU
# bench, the LDL^T, triangular-solve and analysis benches where the reference built them; a
# CPU-only reference build serves the analysis step).
if [[ -n ${GPUGLU_BUNDLE_REFERENCE:-} ]]; then
  mkdir -p "$stage/reference"
  cp -L "$GPUGLU_BUNDLE_REFERENCE/src/libgpuglu.so.0" "$stage/reference/"
  [[ -f $GPUGLU_BUNDLE_REFERENCE/petsc_plugin/libpetscgpuglu.so ]] &&
    cp -L "$GPUGLU_BUNDLE_REFERENCE/petsc_plugin/libpetscgpuglu.so" "$stage/reference/"
  for b in gpuglu_lu_bench gpuglu_ldlt_bench gpuglu_trsv_bench gpuglu_analysis_bench; do
    [[ -x $GPUGLU_BUNDLE_REFERENCE/bench/$b ]] && cp -L "$GPUGLU_BUNDLE_REFERENCE/bench/$b" "$stage/reference/"
  done
  git -C "$GPUGLU_BUNDLE_REFERENCE" rev-parse --short HEAD > "$stage/reference/commit" 2>/dev/null || echo unknown > "$stage/reference/commit"
fi

# The build tree without objects, as a path relative to the repository root.
rel=${build#"$root"/}
tar -C "$root" --exclude='*.o' --exclude='*/CMakeFiles/*.dir' --exclude='*.a' "${left_out[@]}" -cf "$stage/build.tar" "$rel"
echo "$rel" > "$stage/build_dir"
echo "$root" > "$stage/source_root"

mkdir -p "$out"
tar -C "$stage" -cf - . | xz -T0 -9 > "$out/bundle.tar.xz"
size=$(stat -c %s "$out/bundle.tar.xz")
echo "pack_device_bundle.sh: $out/bundle.tar.xz $((size / 1048576)) MiB (${#elves[@]} binaries, $(ls "$stage/lib" | wc -l) libraries)"
(( size < 63 * 1048576 )) || { echo "pack_device_bundle.sh: bundle over 63 MiB: the device tool carries 64 MiB" \
  "(GPUGLU_BUNDLE_COLLECTION=\"...\" packs fewer collection files)" >&2; exit 1; }
