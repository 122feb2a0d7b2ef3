#!/usr/bin/env bash
# Runs on the GPU machine, in the repository root, with .device-bundle carried
# (scripts/pack_device_bundle.sh made it here): unpacks the CUDA build and the libraries
# it needs, runs the GPU tests (label gpu), compute-sanitizer on them, PETSc examples with
# the CUDA backend, the GPU benchmark and the end-to-end PETSc benchmark (gpuglu against
# PETSc's KLU, MUMPS, SuperLU); results go to $OUT (results.jsonl, logs).
#
# Usage (device tool): scripts/device_run.sh [tests|analysis|sanitize|sanitize_ldlt|sanitize_complex|zbench|petsc|bench|e2e|trsv|ilu_gmres|levels|ab|ldlt|ldlt_e2e|supernodal|ts|mpi|dd_defaults|dd_profile|icc|small|small_profile|first_solve|first_factor|multi_gpu|split]...
#   (default: all but trsv, ilu_gmres, levels and ldlt; trsv = the triangular-solve tests and
#   gpuglu_trsv_bench, ilu_gmres = ILU(0)-GMRES through PETSc on one rank and with
#   bjacobi/ILU on GPUGLU_DEVICE_ILU_RANKS (16) ranks; levels = the GPU level analysis by
#   Kahn's algorithm: its tests, compute-sanitizer on them, and gpuglu_trsv_bench
#   --analysis-only under its launch-shape knobs; all issue 4).
#   GPUGLU_DEVICE_SANITIZE_TOOLS: the sanitize step's tools (memcheck racecheck).
#   ab: this build's gpuglu_lu_bench against the reference build packed with it
#   (GPUGLU_BUNDLE_REFERENCE), alternately, GPUGLU_DEVICE_AB_ROUNDS (2) rounds each on
#   GPUGLU_DEVICE_AB_MATRICES with each LU engine of GPUGLU_DEVICE_AB_ENGINES (auto column):
#   refactorization and solve, same run, same machine; likewise
#   gpuglu_ldlt_bench (gpuglu's LDL^T and its LU, GPUGLU_DEVICE_AB_LDLT_MATRICES) and
#   gpuglu_trsv_bench (GPUGLU_DEVICE_AB_TRSV_MATRICES) where the reference has them
#   (GPUGLU_DEVICE_AB_BENCHES: which, default "lu ldlt trsv"; the LU bench always runs).
#   ldlt: gpuglu_ldlt_bench (issue 13), gpuglu's LDL^T on the GPU against its LU, UMFPACK,
#   CHOLMOD (one core and all), MUMPS and cuDSS on GPUGLU_DEVICE_LDLT_MATRICES (generator
#   specs, and collection files as paths below ../shared/collection, packed with the bundle);
#   GPUGLU_DEVICE_LDLT_ARGS: more gpuglu_ldlt_bench arguments (--no-umfpack, --ordering metis);
#   OPENBLAS_CORETYPE passes through to the CPU peers' BLAS.
#   mpi: issue 16's MPI benchmark (scripts/mpi_bench.py; the step's comment lists its knobs).
#   dd_defaults: issue 29's domain decomposition with no gpuglu option (the step's comment);
#   dd_profile: -log_view events of its losing configurations, gpuglu against the peer.
#   icc: -pc_type icc through PETSc on one rank (the ex6 test program), gpuglu against PETSc's
#   ICC, alternating rounds.
#   small_profile: where a small run's time goes (the step's comment).
#   small: issue 29's small problems on one rank (scripts/mpi_bench.py --mode small; the step's
#   comment), gpuglu (and the bundle's reference plugin) against PETSc's own LU and ILU.
#   first_solve: issue 27's first solve through PETSc (scripts/first_solve.py; the step's comment
#   lists its knobs): gpuglu on one rank against MUMPS on all cores, cuDSS, KLU and PETSc's LU.
#   first_factor: a fresh process's first factorization with the kernel warm-up against
#   without it (scripts/first_factor.py, gpuglu_first_factor_bench; the step's comment).
#   multi_gpu: issue 30 on a several-GPU machine: the device-selection and split-factor tests
#   (GPUGLU_DEVICE_MULTI_GPU_TESTS, a ctest -R filter) plain and under compute-sanitizer
#   memcheck, then scripts/multi_gpu_bench.py (bjacobi/asm LU subdomains on one GPU against
#   all of them; GPUGLU_DEVICE_MULTI_GPU_ARGS: more of its arguments; _BENCH=0: not run).
#   split: issue 30's one factorization over two GPUs (gpuglu_split_bench) against one GPU,
#   cuDSS and cuDSS's multi-GPU mode on GPUGLU_DEVICE_SPLIT_MATRICES (specs, and collection
#   files as paths below ../shared/collection; default the 3-D Laplacians, the generated
#   circuit and G3_circuit where the bundle carries it); GPUGLU_DEVICE_SPLIT_ARGS: more of its
#   arguments.
#   devres: issue 15's device-resident operation with the CUDA PETSc 3.26.1, from the bundle
#   .device-bundle-cuda-petsc (scripts/pack_devres_bundle.sh; used whenever devres is the only
#   step, or GPUGLU_DEVICE_BUNDLE names it): its GPU tests (PETSc's copy counters on
#   AIJCUSPARSE / CUDA vectors, SparseLU on device data) and scripts/devres_bench.py
#   (ILU(0)-GMRES on the GPU against PETSc's ILU and cuSPARSE ILU; LU refactor + solve with
#   device-resident Mat/Vec against the host path). About 4 minutes on the H100 machine.
#   GPUGLU_DEVICE_DEVRES_TESTS: the ctest -R filter; GPUGLU_DEVICE_DEVRES_ARGS: more
#   devres_bench.py arguments (--ilu-problems, --lu-problems, --rounds, --mode, --ranks).
set -uo pipefail
root=$(pwd)
deps=/tmp/gpuglu-deps
out=${OUT:-$root/device-out}
mkdir -p "$deps" "$out"
steps=("$@")
[[ ${#steps[@]} -gt 0 ]] || steps=(tests sanitize petsc bench e2e)
want() { local s; for s in "${steps[@]}"; do [[ $s == "$1" ]] && return 0; done; return 1; }

bundle=${GPUGLU_DEVICE_BUNDLE:-}
[[ -z $bundle && ${#steps[@]} -eq 1 && ${steps[0]} == devres ]] && bundle=.device-bundle-cuda-petsc
bundle=${bundle:-.device-bundle}
xz -dc "$bundle/bundle.tar.xz" | tar -C "$deps" -xf - || { echo "device_run.sh: no bundle in $bundle" >&2; exit 1; }
build_rel=$(cat "$deps/build_dir")
source_root=$(cat "$deps/source_root")
tar -C "$root" -xf "$deps/build.tar"
# The build tree holds absolute paths of this machine's checkout: make them resolve here.
if [[ $source_root != "$root" && ! -e $source_root ]]; then
  mkdir -p "$(dirname "$source_root")"
  ln -s "$root" "$source_root"
fi
build=$source_root/$build_rel
# GPUGLU_MATRIX_DIR is <checkout>/../shared/matrices, which resolves (physically, through
# the link above) to the parent of this tree here.
shared=$(cd "$root/.." && pwd -P)/shared
if [[ -d $deps/matrices && ! -e $shared/matrices ]]; then
  mkdir -p "$shared"
  ln -s "$deps/matrices" "$shared/matrices"
fi
# The collection files the bundle carries (pack_device_bundle.sh: GPUGLU_BUNDLE_COLLECTION).
if [[ -d $deps/collection && ! -e $shared/collection ]]; then
  mkdir -p "$shared"
  ln -s "$deps/collection" "$shared/collection"
fi
export LD_LIBRARY_PATH=$deps/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMPI_MCA_mca_base_component_path=$deps/openmpi/lib/openmpi3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PATH=/usr/local/cuda/bin:$PATH
# The GPU machine is a VM whose CPUID hides the CPU model: OpenBLAS's DYNAMIC_ARCH then falls
# back to its Prescott (SSE3) kernels, which made the BLAS-based peers (CHOLMOD, UMFPACK,
# MUMPS) understate what the CPU can do (docs/performance_history.md, LDL^T). Name the kernels
# the CPU's flags allow.
if [[ -z ${OPENBLAS_CORETYPE:-} ]]; then
  if grep -q -m1 avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -q -m1 avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
status=0

# Debian's OpenMPI and PMIx from the bundle (pack_device_bundle.sh: mpi/): the launcher, the
# daemon a one-process run starts, their plugins, help texts and settings. For PMIx's
# plugins the folder alone is not enough: the machine's pmix-mca-params.conf (in PMIx's
# sysconfdir) names the machine's own PMIx plugins, which Debian's PMIx cannot load
# (warnings on the H100 machine), so PMIX_SYSCONFDIR points where there is none.
mpi=$deps/mpi
use_bundled_mpi() {
  export LD_LIBRARY_PATH=$mpi/lib:$LD_LIBRARY_PATH
  export PMIX_MCA_mca_base_component_path=$mpi/pmix PMIX_PKGLIBDIR=$mpi/pmix PMIX_SYSCONFDIR=$mpi/etc
  export PMIX_PKGDATADIR=$mpi/share/pmix
  export OPAL_BINDIR=$mpi/bin OPAL_PKGDATADIR=$mpi/share/openmpi OPAL_SYSCONFDIR=$mpi/etc
  export OMPI_MCA_btl_vader_single_copy_mechanism=none OMP_NUM_THREADS=1
}

if want tests; then
  # GPUGLU_DEVICE_TESTS_FILTER: a ctest -R filter within the gpu label (default: all of them).
  (cd "$build" && ctest -L gpu ${GPUGLU_DEVICE_TESTS_FILTER:+-R "$GPUGLU_DEVICE_TESTS_FILTER"} --output-on-failure \
     --timeout 600) 2>&1 | tee "$out/gpu_tests.log"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
fi

if want sanitize; then
  gpu_test=$build/tests/gpu/gpuglu_cuda_tests
  if [[ -x $gpu_test ]]; then
    for tool in ${GPUGLU_DEVICE_SANITIZE_TOOLS:-memcheck racecheck}; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$gpu_test" --gtest_filter='Generated/CudaLUMatrices.*/powergrid*:CudaLU.perturb*:CudaLU.device_refinement*:SparseLUCudaRepivot.*:SparseLUCudaRecovery.*:SparseLUCudaTrsv.*' \
        > "$out/sanitize_$tool.log" 2>&1
      rc=$?
      echo "compute-sanitizer $tool: exit $rc ($(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitize_$tool.log") clean summaries)"
      tail -3 "$out/sanitize_$tool.log"
      [[ $rc -eq 0 ]] || status=1
    done
  fi
fi

# The LDL^T engine (issue 13): its small cases under the same tools (the larger ones take
# minutes under the sanitizers, and METIS runs out of memory under memcheck on them).
if want sanitize || want sanitize_ldlt; then
  ldlt_test=$build/tests/gpu/gpuglu_cuda_ldlt_tests
  if [[ -x $ldlt_test ]]; then
    for tool in ${GPUGLU_DEVICE_SANITIZE_TOOLS:-memcheck racecheck}; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$ldlt_test" \
        --gtest_filter='Generated/CudaLDLTMatrices.*/lap2d5*:Generated/CudaLDLTMatrices.*/kkt*:CudaLDLT.perturbed*:CudaLDLT.full_and*:CudaLDLT.nan*:CudaLDLT.missing*:CudaLDLT.each*' \
        > "$out/sanitize_ldlt_$tool.log" 2>&1
      rc=$?
      echo "compute-sanitizer $tool (LDL^T): exit $rc ($(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitize_ldlt_$tool.log") clean summaries)"
      tail -3 "$out/sanitize_ldlt_$tool.log"
      [[ $rc -eq 0 ]] || status=1
    done
  fi
  # The supernodal LDL^T (issue 28): its small cases, every kernel path but the large GEMM one.
  sn_ldlt_test=$build/tests/gpu/gpuglu_cuda_supernodal_ldlt_tests
  if [[ -x $sn_ldlt_test ]]; then
    for tool in ${GPUGLU_DEVICE_SANITIZE_TOOLS:-memcheck racecheck}; do
      compute-sanitizer --tool $tool --error-exitcode 9 "$sn_ldlt_test" \
        --gtest_filter='Matrices/CudaSupernodalLdlt.*/lap2d5*:Matrices/CudaSupernodalLdlt.*/kkt*:Matrices/CudaSupernodalLdlt.*/zero_blocks:CudaSupernodalLdltErrors.*' \
        > "$out/sanitize_sn_ldlt_$tool.log" 2>&1
      rc=$?
      echo "compute-sanitizer $tool (supernodal LDL^T): exit $rc ($(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitize_sn_ldlt_$tool.log") clean summaries)"
      tail -3 "$out/sanitize_sn_ldlt_$tool.log"
      [[ $rc -eq 0 ]] || status=1
    done
  fi
fi

# Complex scalars on the CUDA engines (issue 15): the LU, ILU and LDL^H kernels and the
# complex triangular solves on small cases under the same tools (`sanitize_complex` alone).
if want sanitize || want sanitize_complex; then
  gpu_test=$build/tests/gpu/gpuglu_cuda_tests
  ztrsv_test=$build/tests/gpu/gpuglu_cuda_trsv_complex_tests
  for tool in ${GPUGLU_DEVICE_SANITIZE_TOOLS:-memcheck racecheck}; do
    for t in "$gpu_test" "$ztrsv_test"; do
      [[ -x $t ]] || continue
      filter='*'
      [[ $t == "$gpu_test" ]] && filter='ComplexCudaLU.perturbed*:ComplexCudaLU.nan*:ComplexCudaLU.ilu0*:ComplexCudaLDLT.hermitian_icc0*'
      log="$out/sanitize_complex_$(basename "$t")_$tool.log"
      timeout 280 compute-sanitizer --tool $tool --error-exitcode 9 "$t" --gtest_filter="$filter" > "$log" 2>&1
      rc=$?
      echo "compute-sanitizer $tool (complex, $(basename "$t")): exit $rc ($(grep -c 'ERROR SUMMARY: 0 errors' "$log") clean summaries)"
      tail -3 "$log"
      [[ $rc -eq 0 ]] || status=1
    done
  done
fi

if want petsc; then
  plugin=$build/petsc_plugin/libpetscgpuglu.so
  tut=$build/tests/tutorials
  if [[ -f $plugin && -x $tut/petsc_tutorial_ex2 ]]; then
    bash "$source_root/tests/tutorials/make_data.sh" "$build/examples/gpuglu_mmgen" "$build/examples/gpuglu_mm_to_petsc" \
      "$tut/data" > /dev/null 2>&1 || true
    for args in "$tut/petsc_tutorial_ex2 -m 200 -n 200" \
                "$tut/petsc_tutorial_ex10 -f0 $tut/data/circuit.petsc -f1 $tut/data/circuit.petsc"; do
      echo "== $args (gpuglu, CUDA backend)"
      $args -ksp_type preonly -pc_type lu -dll_append "$plugin" -pc_factor_mat_solver_type gpuglu \
        -mat_gpuglu_backend cuda -ksp_view 2>&1 | grep -E "backend|device|Norm|Residual|iterations|ERROR" | head -12
    done 2>&1 | tee "$out/petsc_examples.log"
    # Cholesky (LDL^T) and ICC on the CUDA backend against PETSc's own / MUMPS (issue 13),
    # one rank through the bundled launcher (as the ILU runs below).
    [[ -x $mpi/bin/orterun ]] && (
    use_bundled_mpi
    export MPIEXEC=$mpi/bin/mpiexec
    for run in "petsc_tutorial_ex2 -m 200 -n 200 -ksp_type preonly -pc_type cholesky" \
               "petsc_tutorial_ex2 -m 200 -n 200 -ksp_type cg -pc_type icc" \
               "petsc_tutorial_ex10 -f0 $tut/data/elasticity.petsc -f1 $tut/data/elasticity.petsc -ksp_type preonly -pc_type cholesky" \
               "petsc_tutorial_ex10 -f0 $tut/data/elasticity.petsc -f1 $tut/data/elasticity.petsc -mat_type sbaij -ksp_type preonly -pc_type cholesky" \
               "petsc_tutorial_ex10 -f0 $tut/data/kkt.petsc -f1 $tut/data/kkt.petsc -ksp_type preonly -pc_type cholesky --peer mumps"; do
      peer=petsc
      [[ $run == *"--peer mumps"* ]] && peer=mumps && run=${run% --peer mumps}
      read -r exe rest <<< "$run"
      echo "== $exe $rest (gpuglu LDL^T, CUDA backend; peer $peer)"
      python3 "$source_root/tests/tutorials/compare_with_petsc_lu.py" --plugin "$plugin" --peer-solver "$peer" -- \
        "$tut/$exe" $rest -mat_gpuglu_backend cuda 2>&1 | tail -2
    done
    ) 2>&1 | tee -a "$out/petsc_examples.log"
    # ILU with the CUDA backend under MPI, the ranks sharing the one GPU (issue 4): bjacobi
    # and asm sub-solvers against PETSc's own ILU, as the CPU tutorial tests do.
    if [[ -x $mpi/bin/orterun ]]; then
      (
        use_bundled_mpi
        export MPIEXEC=$mpi/bin/mpiexec
        for run in "2 -pc_type bjacobi -sub_pc_type ilu" "4 -pc_type asm -sub_pc_type ilu"; do
          read -r np rest <<< "$run"
          echo "== ex2 np $np $rest (gpuglu ILU, CUDA backend, one shared GPU)"
          python3 "$source_root/tests/tutorials/compare_with_petsc_lu.py" --nsize "$np" --plugin "$plugin" -- \
            "$tut/petsc_tutorial_ex2" -m 150 -n 150 -ksp_type gmres $rest -sub_mat_gpuglu_backend cuda 2>&1 | tail -2
        done
      ) 2>&1 | tee -a "$out/petsc_examples.log"
      grep -q "^FAILED\|differ\|was not used" "$out/petsc_examples.log" && status=1
    fi
  else
    echo "device_run.sh: no PETSc plugin in $build_rel (configured without PETSc?)"
  fi
fi

if want bench; then
  bench=$build/bench/gpuglu_lu_bench
  if [[ -x $bench ]]; then
    # GPU refactorization against KLU (one core) and cusolverRf, same run, same machine.
    # Per-level profiles as one archive: the device tool returns a limited number of files.
    levels=$(mktemp -d)
    GPUGLU_BENCH_LEVEL_CSV=$levels \
    "$bench" --backend cuda --threads 1 --warmup 2 --repeat 10 --no-petsc --no-umfpack --out "$out/results.jsonl" \
      ${GPUGLU_DEVICE_BENCH_MATRICES:---matrix circuit:20000:200 --matrix circuit:200000:2000 --matrix powergrid:60000:300} \
      2>&1 | tee "$out/bench.log"
    tar -C "$levels" -czf "$out/level_profiles.tar.gz" . && rm -rf "$levels"
  fi
fi

if want supernodal; then
  # The supernodal LU engine (issue 14): its GPU tests against the CPU engine, memcheck on the
  # small ones, then gpuglu_lu_bench with each LU engine on the same matrices against KLU,
  # cusolverRf and cuDSS (same run).
  sn_test=$build/tests/gpu/gpuglu_cuda_supernodal_tests
  {
    if [[ -x $sn_test ]]; then
      "$sn_test" --gtest_brief=1 --gtest_filter="${GPUGLU_DEVICE_SUPERNODAL_FILTER:-*}"
      rc=$?
      echo "supernodal GPU tests: exit $rc"
      [[ $rc -eq 0 ]] || status=1
      compute-sanitizer --tool memcheck --error-exitcode 9 "$sn_test" \
        --gtest_filter="${GPUGLU_DEVICE_SUPERNODAL_SANITIZE:-*circuit_2000*:*powergrid_1200*:*pivot*:*nan*:*NaN*:*unstaged*:*stepped*}" \
        > "$out/sanitize_supernodal.log" 2>&1
      rc=$?
      echo "compute-sanitizer memcheck (supernodal): exit $rc ($(grep -c 'ERROR SUMMARY: 0 errors' "$out/sanitize_supernodal.log") clean summaries)"
      tail -3 "$out/sanitize_supernodal.log"
      [[ $rc -eq 0 ]] || status=1
    else
      echo "device_run.sh: no gpuglu_cuda_supernodal_tests in $build_rel"
      status=1
    fi
    bench=$build/bench/gpuglu_lu_bench
    sn_matrices=()
    coll=$shared/collection
    for m in ${GPUGLU_DEVICE_SUPERNODAL_MATRICES:-circuit:20000:200 circuit:200000:2000 powergrid:60000:300 \
        circuit/memplus.mtx general/bayer10.mtx spd/bcsstk18.mtx lap3d7:40x40x40}; do
      if [[ $m == *:* ]]; then sn_matrices+=(--matrix "$m")
      elif [[ -f $coll/$m ]]; then sn_matrices+=(--matrix "$coll/$m")
      else echo "supernodal: $m is not in the bundle"; fi
    done
    # supernodal+fsolve: the supernodal engine with its solves through F; supernodal+unstepped:
    # with every level's panels one block per supernode; supernodal+staged: panels staged 16
    # columns at a time instead of resident whole; supernodal+denseN: supernodes of N columns
    # and more factored by cuSOLVER, 0: none; supernodal+levelsolve: panel solves a launch per
    # level; supernodal+threadsN: the self-scheduled sweeps on blocks of N threads (CudaTuning);
    # +orderNAME: Options::ordering (amd, metis, ...); +streamsN: a level's blocked and GEMM
    # supernodes on N streams (CudaTuning).
    for engine in ${GPUGLU_DEVICE_SUPERNODAL_ENGINES:-supernodal column}; do
      flags=(--lu-engine "${engine%%+*}")
      [[ $engine == *+fsolve* ]] && flags+=(--f-solve)
      [[ $engine == *+unstepped* ]] && flags+=(--stepped-max-nodes 0)
      [[ $engine == *+staged* ]] && flags+=(--no-resident)
      [[ $engine =~ \+dense([0-9]+) ]] && flags+=(--dense-min-cols "${BASH_REMATCH[1]}")
      [[ $engine == *+levelsolve* ]] && flags+=(--level-solve)
      [[ $engine =~ \+threads([0-9]+) ]] && flags+=(--solve-threads "${BASH_REMATCH[1]}")
      [[ $engine =~ \+order([a-z]+) ]] && flags+=(--ordering "${BASH_REMATCH[1]}")
      [[ $engine =~ \+streams([0-9]+) ]] && flags+=(--streams "${BASH_REMATCH[1]}")
      echo "== gpuglu_lu_bench ${flags[*]}"
      # GPUGLU_DEVICE_SUPERNODAL_SKIP: peers left out (e.g. klu,cusolverrf for G3_circuit).
      skip=()
      [[ -n ${GPUGLU_DEVICE_SUPERNODAL_SKIP:-} ]] && skip=(--skip "$GPUGLU_DEVICE_SUPERNODAL_SKIP")
      # GPUGLU_DEVICE_SUPERNODAL_THREADS: Options::num_threads (the analysis's and the CPU engine's).
      timeout ${GPUGLU_DEVICE_SUPERNODAL_TIMEOUT:-240} "$bench" --backend cuda "${flags[@]}" \
        --threads ${GPUGLU_DEVICE_SUPERNODAL_THREADS:-1} \
        --warmup 1 --repeat 5 --analysis-repeat ${GPUGLU_DEVICE_SUPERNODAL_ANALYSIS_REPEAT:-3} --no-petsc --no-umfpack \
        "${skip[@]}" --out "$out/results.jsonl" "${sn_matrices[@]}"
      echo "bench ($engine): exit $?"
    done
  } 2>&1 | tee "$out/supernodal.log"
fi

if want ts; then
  # Issue 14's end-to-end run: PETSc's reaction-diffusion tutorial (ts ex5, GPUGLU_DEVICE_TS_GRID^2
  # x 2 unknowns) with gpuglu on the GPU (column and supernodal engines) against PETSc's own LU,
  # KLU and MUMPS, -log_view's MatLUFactorSym / MatLUFactorNum / MatSolve / TSStep.
  ts_exe=$build/bench/petsc_ts_ex5
  if [[ -x $ts_exe && -x $mpi/bin/orterun ]]; then
    (
      use_bundled_mpi
      export MPIEXEC=$mpi/bin/mpiexec
      # The peers once (with the first variant), gpuglu once per variant; each run under
      # GPUGLU_DEVICE_TS_TIMEOUT seconds. GPUGLU_DEVICE_TS_INFO=1: gpuglu's -info lines (each solve).
      solvers=${GPUGLU_DEVICE_TS_SOLVERS:-gpuglu,petsc,klu,mumps}
      # The defaults (backend auto, lu_engine auto: the supernodal engine on the GPU), then the
      # column engine on the GPU.
      for variant in "-mat_gpuglu_backend auto" "-mat_gpuglu_backend cuda -mat_gpuglu_lu_engine column"; do
        OMP_NUM_THREADS=1 python3 "$root/scripts/ts_bench.py" --exe "$ts_exe" --plugin "$build/petsc_plugin/libpetscgpuglu.so" \
          --grid ${GPUGLU_DEVICE_TS_GRID:-224} --steps ${GPUGLU_DEVICE_TS_STEPS:-10} --gpuglu-options "$variant" \
          --timeout ${GPUGLU_DEVICE_TS_TIMEOUT:-150} --solvers "$solvers" --out "$out/results.jsonl" \
          --device "$(head -1 "$out/device.txt" | cut -d, -f1)" ${GPUGLU_DEVICE_TS_INFO:+--info}
        echo "ts ($variant): exit $?"
        solvers=gpuglu
      done
    ) 2>&1 | tee "$out/ts.log"
  else
    echo "device_run.sh: no petsc_ts_ex5 or bundled mpiexec in $build_rel" | tee "$out/ts.log"
    status=1
  fi
fi

if want mpi; then
  # Issue 16's MPI benchmark (scripts/mpi_bench.py), PETSc tutorials built unmodified. lu: SNES ex14 (3-D Bratu, Newton: a first factorization, then
  # refactorizations of the same pattern) on GPUGLU_DEVICE_MPI_GRID points (400x400x6: 960,000
  # rows), -pc_type lu on GPUGLU_DEVICE_MPI_RANKS ranks: gpuglu gathered to rank 0's GPU (column
  # engine on every rank count, supernodal on 16; METIS ordering: AMD fills 3-D meshes far
  # more) against MUMPS and SuperLU_DIST on the same ranks; per call from
  # rank 0's -log_trace, with the gather/scatter time inside each phase. dd: on
  # GPUGLU_DEVICE_MPI_DD_RANKS ranks, bjacobi/asm/gasm with an LU (or ILU(0)) per subdomain,
  # GAMG with a gathered coarse LU (ex14 on GPUGLU_DEVICE_MPI_DD_GRID) and fieldsplit with an
  # LU per block (ex19, 4 fields), gpuglu against PETSc's LU/ILU or MUMPS.
  # GPUGLU_DEVICE_MPI_TIMEOUT: seconds per lu run (150); GPUGLU_DEVICE_MPI_SOLVERS: the lu solvers;
  # GPUGLU_DEVICE_MPI_OPTIONS, GPUGLU_DEVICE_MPI_DD_OPTIONS: gpuglu's options in either mode.
  ex14=$build/bench/petsc_snes_ex14 ex19=$build/bench/petsc_snes_ex19
  if [[ -x $ex14 && -x $ex19 && -x $mpi/bin/orterun ]]; then
    (
      use_bundled_mpi
      export MPIEXEC=$mpi/bin/mpiexec
      # Up to one rank per hardware thread, unbound: bound to OpenMPI's hwthread slots in order,
      # 4 or 8 ranks would pair up on the two threads of a core where the CPU has two per core,
      # while the kernel's scheduler spreads busy processes over the cores first.
      export MPIEXEC_ARGS="--use-hwthread-cpus --bind-to none --mca pml ob1 --mca btl self,vader"
      echo "== CPU: $(lscpu | grep -m1 'Model name' | sed 's/.*: *//'), $(nproc) CPUs," \
        "$(lscpu | grep -m1 'Thread(s) per core' | sed 's/.*: *//') threads per core, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
      device=$(head -1 "$out/device.txt" | cut -d, -f1)
      common=(--ex14 "$ex14" --ex19 "$ex19" --plugin "$build/petsc_plugin/libpetscgpuglu.so" --out "$out/results.jsonl"
              --device "$device" --verbose)
      # The budgets (seconds for all runs of a mode: each run's timeout is cut to what is left,
      # none starts with less than 10 s) keep the step within GPUGLU_DEVICE_MPI_BUDGET (480 s):
      # lu 355 s, dd 115 s, and 5 s each for a timed-out run to end. Estimated
      # (docs/performance.md, "gpuglu under MPI"): lu about 6.5 minutes, dd 1-1.5; the lu runs
      # go by rank count, the supernodal variant last, so an overrun skips that first.
      budget=${GPUGLU_DEVICE_MPI_BUDGET:-480}
      python3 "$root/scripts/mpi_bench.py" --mode lu "${common[@]}" --grid "${GPUGLU_DEVICE_MPI_GRID:-400x400x6}" \
        --ranks "${GPUGLU_DEVICE_MPI_RANKS:-4,8,16}" \
        --solvers "${GPUGLU_DEVICE_MPI_SOLVERS:-gpuglu,mumps,superlu_dist,gpuglu+supernodal@16}" \
        --gpuglu-options "${GPUGLU_DEVICE_MPI_OPTIONS:--mat_gpuglu_backend cuda -mat_gpuglu_ordering metis}" \
        --timeout ${GPUGLU_DEVICE_MPI_TIMEOUT:-150} --budget-s $((budget - 125))
      echo "mpi lu: exit $?"
      python3 "$root/scripts/mpi_bench.py" --mode dd "${common[@]}" --grid "${GPUGLU_DEVICE_MPI_DD_GRID:-40x40x40}" \
        --ex19-grid "${GPUGLU_DEVICE_MPI_DD_EX19_GRID:-128x128}" --dd-ranks "${GPUGLU_DEVICE_MPI_DD_RANKS:-4}" \
        --gpuglu-options "${GPUGLU_DEVICE_MPI_DD_OPTIONS:--mat_gpuglu_backend cuda}" --timeout 60 --budget-s 115
      echo "mpi dd: exit $?"
    ) > "$out/mpi.log" 2>&1
    # The tables, verdicts and failures; the command lines and their wall times stay in mpi.log.
    grep -vE '^\$ |^  \(' "$out/mpi.log" | head -100
    grep -qE '^mpi lu: exit 0$' "$out/mpi.log" && grep -qE '^mpi dd: exit 0$' "$out/mpi.log" || status=1
  else
    echo "device_run.sh: no petsc_snes_ex14/ex19 or bundled mpiexec in $build_rel" | tee "$out/mpi.log"
    status=1
  fi
fi

if want small; then
  # Issue 29's small problems: ex14 on one rank, -pc_type lu and ilu, a fresh process per run
  # (the plugin's libraries and the CUDA start-up are in its time), gpuglu with no gpuglu option
  # against PETSc's own, and the bundle's reference plugin where it has one;
  # GPUGLU_DEVICE_SMALL_GRIDS, GPUGLU_DEVICE_SMALL_PCS, GPUGLU_DEVICE_SMALL_ROUNDS,
  # GPUGLU_DEVICE_SMALL_VARIANTS (more gpuglu sides: 'cpu=-mat_gpuglu_backend cpu;...').
  ex14=$build/bench/petsc_snes_ex14
  if [[ -x $ex14 && -x $mpi/bin/orterun ]]; then
    (
      use_bundled_mpi
      export MPIEXEC=$mpi/bin/mpiexec CUDA_VISIBLE_DEVICES=0
      export MPIEXEC_ARGS="--use-hwthread-cpus --bind-to none --mca pml ob1 --mca btl self,vader"
      unset OMP_NUM_THREADS  # one rank: gpuglu's default threads, as a user's run has them
      device=$(head -1 "$out/device.txt" | cut -d, -f1)
      reference=()
      [[ -f $deps/reference/libpetscgpuglu.so ]] && reference=(--reference-plugin "$deps/reference/libpetscgpuglu.so")
      python3 "$root/scripts/mpi_bench.py" --mode small --ex14 "$ex14" --plugin "$build/petsc_plugin/libpetscgpuglu.so" \
        "${reference[@]}" --out "$out/results.jsonl" --device "$device" \
        --small-grids "${GPUGLU_DEVICE_SMALL_GRIDS:-5x5x5,10x10x10,16x16x16,24x24x24,40x40x40}" \
        --small-pcs "${GPUGLU_DEVICE_SMALL_PCS:-lu,ilu}" --rounds "${GPUGLU_DEVICE_SMALL_ROUNDS:-3}" \
        --gpuglu-variants "${GPUGLU_DEVICE_SMALL_VARIANTS:-}" \
        --timeout 60 --budget-s "${GPUGLU_DEVICE_SMALL_BUDGET:-300}"
      echo "small: exit $?"
    ) > "$out/small.log" 2>&1
    grep -vE '^\$ |^  \(' "$out/small.log" | head -60
  else
    echo "device_run.sh: small needs bench/petsc_snes_ex14 and the bundle's MPI"; status=1
  fi
fi

if want small_profile; then
  # Where a small run's time goes: ex14 on one rank (GPUGLU_DEVICE_SMALL_PROFILE_GRIDS, default
  # "5 10", n^3), PETSc's LU against gpuglu with no option and with one thread, each run's
  # -log_view events and the shared objects it loaded that a PETSc-only run does not need
  # (LD_DEBUG=files: libgpuglu, SuiteSparse, METIS, and CUDA's where anything started it).
  ex14=$build/bench/petsc_snes_ex14
  (
    use_bundled_mpi
    unset OMP_NUM_THREADS
    export CUDA_VISIBLE_DEVICES=0
    for g in ${GPUGLU_DEVICE_SMALL_PROFILE_GRIDS:-5 10}; do
      grid="-da_grid_x $g -da_grid_y $g -da_grid_z $g -pc_type lu"
      for side in petsc gpuglu "gpuglu -mat_gpuglu_threads 1" petsc gpuglu; do
        echo "== ${g}^3 $side"
        opts=(-pc_factor_mat_solver_type $side)
        [[ $side == gpuglu* ]] && opts+=(-dll_append "$build/petsc_plugin/libpetscgpuglu.so")
        LD_DEBUG=files LD_DEBUG_OUTPUT=/tmp/gpuglu-lddebug "$ex14" $grid "${opts[@]}" -log_view > /tmp/gpuglu-small.txt 2>&1
        grep -E "^Time \(sec\)|^(MatLUFactorSym|MatLUFactorNum|MatSolve|SNESSolve|PCSetUp|KSPSolve) " /tmp/gpuglu-small.txt |
          awk '{printf "  %-16s %s\n", $1, ($1 == "Time" ? $3 : $4)}'
        echo "  loaded: $(cat /tmp/gpuglu-lddebug.* 2>/dev/null | grep -oE 'file=[^ ]+' | sort -u | wc -l) objects;" \
             "$(cat /tmp/gpuglu-lddebug.* 2>/dev/null | grep -oE 'file=[^ ]*lib(cuda|cudart|cublas|cublasLt|cusparse|cusolver|nvrtc|nvJitLink|gpuglu|petscgpuglu)[.][^ ]*' | sort -u | tr '\n' ' ')"
        rm -f /tmp/gpuglu-lddebug.*
      done
    done
  ) > "$out/small_profile.log" 2>&1
  cat "$out/small_profile.log" | head -120
fi

if want dd_defaults; then
  # Issue 29's dd_defaults: scripts/mpi_bench.py --mode dd with no gpuglu option, on
  # GPUGLU_DEVICE_DD_RANKS (4) ranks sharing one GPU (CUDA_VISIBLE_DEVICES=0 on a machine with
  # more), gpuglu against PETSc's LU/ILU or MUMPS on the same ranks: the default sizes (ex14
  # 40^3, ex19 128^2), then subdomains of 1e5 unknowns and more (ex14 74^3 for ILU and GAMG,
  # ex19 320^2 = 409,600 unknowns for the LU subdomains and fieldsplit);
  # GPUGLU_DEVICE_DD_SMALL_CONFIGS / _LARGE_CONFIGS: the configurations of either;
  # GPUGLU_DEVICE_DD_SIZES: which sizes run ("small large"); GPUGLU_DEVICE_DD_ROUNDS: runs per
  # side, alternating, medians recorded (1); GPUGLU_DEVICE_DD_SMALL_BUDGET / _LARGE_BUDGET: seconds
  # for either size (150 / 240).
  ex14=$build/bench/petsc_snes_ex14 ex19=$build/bench/petsc_snes_ex19
  if [[ -x $ex14 && -x $ex19 && -x $mpi/bin/orterun ]]; then
    (
      use_bundled_mpi
      export MPIEXEC=$mpi/bin/mpiexec CUDA_VISIBLE_DEVICES=0
      export MPIEXEC_ARGS="--use-hwthread-cpus --bind-to none --mca pml ob1 --mca btl self,vader"
      device=$(head -1 "$out/device.txt" | cut -d, -f1)
      common=(--mode dd --ex14 "$ex14" --ex19 "$ex19" --plugin "$build/petsc_plugin/libpetscgpuglu.so"
              --out "$out/results.jsonl" --device "$device" --gpuglu-options "" --dd-ranks "${GPUGLU_DEVICE_DD_RANKS:-4}"
              --dd-rounds "${GPUGLU_DEVICE_DD_ROUNDS:-1}")
      sizes=" ${GPUGLU_DEVICE_DD_SIZES:-small large} "
      [[ $sizes != *" small "* ]] || python3 "$root/scripts/mpi_bench.py" "${common[@]}" --grid 40x40x40 --ex19-grid 128x128 \
        --configs "${GPUGLU_DEVICE_DD_SMALL_CONFIGS:-bjacobi_lu,bjacobi_lu_blocks,asm_lu,gasm_lu,bjacobi_ilu,gamg_coarse,fieldsplit,bjacobi_lu_2d}" \
        --timeout 60 --budget-s "${GPUGLU_DEVICE_DD_SMALL_BUDGET:-150}"
      echo "dd_defaults small: exit $?"
      [[ $sizes != *" large "* ]] || python3 "$root/scripts/mpi_bench.py" "${common[@]}" --grid 74x74x74 --ex19-grid 320x320 \
        --configs "${GPUGLU_DEVICE_DD_LARGE_CONFIGS:-bjacobi_ilu,gamg_coarse,bjacobi_lu_2d,asm_lu_2d,fieldsplit}" \
        --timeout 90 --budget-s "${GPUGLU_DEVICE_DD_LARGE_BUDGET:-240}"
      echo "dd_defaults large: exit $?"
    ) > "$out/dd_defaults.log" 2>&1
    grep -vE '^\$ |^  \(' "$out/dd_defaults.log" | head -60
  else
    echo "device_run.sh: no petsc_snes_ex14/ex19 or bundled mpiexec in $build_rel" | tee "$out/dd_defaults.log"
    status=1
  fi
fi

if want dd_profile; then
  # Where dd_defaults' losses go: -log_view events of single runs on 4 ranks sharing GPU 0,
  # gpuglu with no option against its peer: bjacobi ILU(0) on ex14 74^3 (and gpuglu on one
  # thread per rank), fieldsplit and GAMG's coarse LU at the small sizes.
  ex14=$build/bench/petsc_snes_ex14 ex19=$build/bench/petsc_snes_ex19
  (
    use_bundled_mpi
    export CUDA_VISIBLE_DEVICES=0
    # GPUGLU_DEVICE_PROFILE_BIND: mpiexec's placement options (--bind-to none, as mpi_bench.py's
    # runs); GPUGLU_DEVICE_PROFILE_CASES: which of ilu, fieldsplit, gamg, blocks;
    # GPUGLU_DEVICE_PROFILE_ILU_GRID: the ILU case's grid (74: 74^3); GPUGLU_DEVICE_PROFILE_ILU_ARGS:
    # more options for it (-sub_pc_factor_levels 1).
    bind=${GPUGLU_DEVICE_PROFILE_BIND:---use-hwthread-cpus --bind-to none}
    cases=" ${GPUGLU_DEVICE_PROFILE_CASES:-ilu fieldsplit gamg} "
    # With -ksp_view among the options (GPUGLU_DEVICE_PROFILE_GPUGLU_ARGS), gpuglu's own lines
    # follow: where each factor ran and why, its analysis, factorization and solve times.
    run4() { echo "== $*"; "$mpi/bin/mpiexec" -n 4 $bind --mca pml ob1 --mca btl self,vader \
      "$@" -dll_append "$build/petsc_plugin/libpetscgpuglu.so" -log_view 2>&1 |
      grep -E "^(MatSolve|MatMult|MatLUFactorSym|MatLUFactorNum|MatILUFactorSym|MatCholFactorSym|MatCreateSubMats|MatGetOrdering|KSPSolve|PCSetUp|PCApply|VecScatterBegin|VecScatterEnd|SNESSolve) |^ +(backend|GPU not used|device|n|analysis time \(ms\)|last factorization time \(ms\)|last solve time \(ms\)):" |
      awk '/^ /{sub(/^ +/, "    "); print; next} {printf "  %-18s %6s %s %s\n", $1, $2, $4, $5}'; }
    g=${GPUGLU_DEVICE_PROFILE_ILU_GRID:-74}  # the ILU case's ex14 grid (g^3)
    ilu="-da_grid_x $g -da_grid_y $g -da_grid_z $g -ksp_type gmres -ksp_rtol 1e-8 -pc_type bjacobi -sub_pc_type ilu ${GPUGLU_DEVICE_PROFILE_ILU_ARGS:-}"
    if [[ $cases == *" ilu "* ]]; then
      run4 "$ex14" $ilu -sub_pc_factor_mat_solver_type petsc
      run4 "$ex14" $ilu -sub_pc_factor_mat_solver_type gpuglu
      run4 "$ex14" $ilu -sub_pc_factor_mat_solver_type gpuglu -sub_mat_gpuglu_threads 1
      run4 "$ex14" $ilu -sub_pc_factor_mat_solver_type petsc
    fi
    # GPUGLU_DEVICE_PROFILE_FS_GRID: the fieldsplit case's ex19 grid (128: 128^2; dd_defaults'
    # large: 320).
    fg=${GPUGLU_DEVICE_PROFILE_FS_GRID:-128}
    fs="-da_grid_x $fg -da_grid_y $fg -ksp_type fgmres -ksp_rtol 1e-8 -pc_type fieldsplit -pc_fieldsplit_block_size 4
        -pc_fieldsplit_type multiplicative -pc_fieldsplit_0_fields 0,1,2 -pc_fieldsplit_1_fields 3
        -fieldsplit_0_ksp_type preonly -fieldsplit_0_pc_type lu -fieldsplit_1_ksp_type preonly -fieldsplit_1_pc_type lu"
    # GPUGLU_DEVICE_PROFILE_GPUGLU_ARGS: more options for the gpuglu runs of fieldsplit, GAMG and
    # the blocks.
    extra=${GPUGLU_DEVICE_PROFILE_GPUGLU_ARGS:-}
    # blocks: eight LU blocks per rank on ex14 40^3 (dd_defaults' bjacobi_lu_blocks), PETSc's LU,
    # gpuglu, and gpuglu without the solves' backward-error check (what the check costs there).
    blocks="-da_grid_x 40 -da_grid_y 40 -da_grid_z 40 -ksp_type gmres -ksp_rtol 1e-8 -pc_type bjacobi
        -pc_bjacobi_local_blocks 8 -sub_pc_type lu"
    [[ $cases == *" blocks "* ]] && for side in petsc gpuglu unchecked petsc; do
      run4 "$ex14" $blocks -sub_pc_factor_mat_solver_type ${side/unchecked/gpuglu} \
        $([[ $side != petsc ]] && echo "$extra") $([[ $side == unchecked ]] && echo "-sub_mat_gpuglu_refine_steps 0")
    done
    [[ $cases == *" fieldsplit "* ]] && for peer in mumps gpuglu; do
      run4 "$ex19" $fs -fieldsplit_0_pc_factor_mat_solver_type $peer -fieldsplit_1_pc_factor_mat_solver_type $peer \
        $([[ $peer == gpuglu ]] && echo "$extra")
    done
    # gpuglu kept on the CPU (GPUGLU_DEVICE_PROFILE_CPU=1): what the CUDA start-up costs these runs.
    [[ $cases == *" fieldsplit "* && ${GPUGLU_DEVICE_PROFILE_CPU:-0} == 1 ]] &&
      run4 "$ex19" $fs -fieldsplit_0_pc_factor_mat_solver_type gpuglu -fieldsplit_1_pc_factor_mat_solver_type gpuglu \
        -fieldsplit_0_mat_gpuglu_backend cpu -fieldsplit_1_mat_gpuglu_backend cpu
    # GPUGLU_DEVICE_PROFILE_GAMG_GRID: the GAMG case's ex14 grid (40: 40^3; dd_defaults' large: 74).
    gg=${GPUGLU_DEVICE_PROFILE_GAMG_GRID:-40}
    gamg="-da_grid_x $gg -da_grid_y $gg -da_grid_z $gg -ksp_type gmres -ksp_rtol 1e-8 -pc_type gamg
          -pc_gamg_coarse_eq_limit 20000 -mg_coarse_ksp_type preonly -mg_coarse_pc_type lu"
    [[ $cases == *" gamg "* ]] && for peer in mumps gpuglu; do
      run4 "$ex14" $gamg -mg_coarse_pc_factor_mat_solver_type $peer $([[ $peer == gpuglu ]] && echo "$extra")
    done
    [[ $cases == *" gamg "* && ${GPUGLU_DEVICE_PROFILE_CPU:-0} == 1 ]] &&
      run4 "$ex14" $gamg -mg_coarse_pc_factor_mat_solver_type gpuglu -mg_coarse_mat_gpuglu_backend cpu
  ) 2>&1 | tee "$out/dd_profile.log"
fi

if want icc; then
  # ICC(0)-CG on one rank: set-up (MatICCFactorSym, MatCholFctrNum, PCSetUp), solves and
  # iterations, gpuglu against PETSc's own ICC, GPUGLU_DEVICE_ICC_ROUNDS (3) alternating rounds
  # over GPUGLU_DEVICE_ICC_MATRICES (generator specs).
  ex6=$build/tests/petsc/harness/petsc/ex6
  (
    use_bundled_mpi
    for r in $(seq "${GPUGLU_DEVICE_ICC_ROUNDS:-3}"); do
      for m in ${GPUGLU_DEVICE_ICC_MATRICES:-lap2d5:180x180 lap3d7:32x32x32}; do
        for side in gpuglu petsc; do
          echo "$m $side $("$ex6" -matrix "$m" -flag spd -ksp_type cg -ksp_rtol 1e-8 -residual_tol 1e-6 -pc_type icc \
            $([[ $side == gpuglu ]] && echo "-dll_append $build/petsc_plugin/libpetscgpuglu.so -pc_factor_mat_solver_type gpuglu") \
            -ksp_converged_reason -log_view 2>&1 |
            awk '/iterations/ {printf "its %s ", $NF} /^(MatICCFactorSym|MatCholFctrNum|MatSolve|PCSetUp|KSPSolve) / {printf "%s %.2f ", $1, $4 * 1000}')"
        done
      done
    done
  ) 2>&1 | tee "$out/icc.log"
fi

if want e2e; then
  e2e=$build/bench/gpuglu_petsc_e2e_bench
  if [[ -x $e2e ]]; then
    # MatLUFactorNumeric + MatSolve through PETSc: gpuglu on the GPU against PETSc's KLU, MUMPS
    # and SuperLU on one core each (OMP_NUM_THREADS=1 also keeps MUMPS's BLAS to one thread).
    # Repeat 5: SuperLU and MUMPS refactor these matrices in seconds, and the device run has 10 minutes.
    e2e_matrices=()
    for m in ${GPUGLU_DEVICE_E2E_MATRICES:-circuit:200000:2000 powergrid:60000:300}; do e2e_matrices+=(--matrix "$m"); done
    OMP_NUM_THREADS=1 "$e2e" --backend cuda --warmup 1 --repeat 5 --out "$out/results.jsonl" "${e2e_matrices[@]}" \
      2>&1 | tee "$out/e2e.log"
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
  else
    echo "device_run.sh: no gpuglu_petsc_e2e_bench in $build_rel (configured without PETSc?)" | tee "$out/e2e.log"
  fi
fi

if want multi_gpu; then
  devices=$(nvidia-smi -L | wc -l)
  filter=${GPUGLU_DEVICE_MULTI_GPU_TESTS:-DeviceSelection|SplitFactor|SplitRoot|CudaSchurComplement}
  (cd "$build" && ctest -R "$filter" --output-on-failure --timeout 600) > "$out/multi_gpu_tests.log" 2>&1 || status=1
  grep -E "tests passed|Failed|Skipped|\*\*\*" "$out/multi_gpu_tests.log" | head -20
  for exe in $(cd "$build" && ctest -R "$filter" --show-only=json-v1 | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    print(t["command"][0] + "@" + t["name"])' | sort -u); do
    bin=${exe%@*} name=${exe#*@}
    compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" --gtest_filter="$name" > "$out/multi_gpu_memcheck.log" 2>&1
    rc=$?
    echo "memcheck $name: exit $rc, $(grep -m1 'ERROR SUMMARY' "$out/multi_gpu_memcheck.log")"
    [[ $rc -eq 0 ]] || status=1
  done
  ex14=$build/bench/petsc_snes_ex14
  # GPUGLU_DEVICE_MULTI_GPU_BENCH=0: the tests alone.
  if [[ ${GPUGLU_DEVICE_MULTI_GPU_BENCH:-1} != 0 && -x $ex14 && -x $mpi/bin/orterun ]]; then
    (
      use_bundled_mpi
      export MPIEXEC=$mpi/bin/mpiexec
      export MPIEXEC_ARGS="--use-hwthread-cpus --bind-to none --mca pml ob1 --mca btl self,vader"
      python3 "$root/scripts/multi_gpu_bench.py" --ex14 "$ex14" --plugin "$build/petsc_plugin/libpetscgpuglu.so" \
        --devices "$devices" --device-name "$(head -1 "$out/device.txt" | cut -d, -f1)" --out "$out/results.jsonl" \
        ${GPUGLU_DEVICE_MULTI_GPU_ARGS:-}
    ) 2>&1 | tee "$out/multi_gpu_bench.log" | tail -20
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
  fi
fi

if want split; then
  split_exe=$build/bench/gpuglu_split_bench
  if [[ -x $split_exe ]]; then
    split_args=()
    for m in ${GPUGLU_DEVICE_SPLIT_MATRICES:-lap3d7:48x48x48 lap3d7:64x64x64 circuit:1000000:10000 circuit/G3_circuit.mtx.xz}; do
      if [[ $m == */* ]]; then
        [[ -f $shared/collection/$m ]] && split_args+=(--matrix "$shared/collection/$m")
      else
        split_args+=(--matrix "$m")
      fi
    done
    # GPUGLU_DEVICE_SPLIT_WRAP: a command the bench runs under (a profiler: nsys profile ...).
    ${GPUGLU_DEVICE_SPLIT_WRAP:-} "$split_exe" "${split_args[@]}" --out "$out/results.jsonl" ${GPUGLU_DEVICE_SPLIT_ARGS:-} 2>&1 |
      tee "$out/split_bench.log" | tail -40
    [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
  else
    echo "device_run.sh: no gpuglu_split_bench in $build_rel" | tee "$out/split_bench.log"
  fi
fi

if want first_factor; then
  # The first factorization in a process with and without the kernel warm-up
  # (scripts/first_factor.py): GPUGLU_DEVICE_FIRST_FACTOR_MATRICES (LU) and
  # GPUGLU_DEVICE_FIRST_FACTOR_LDLT (LDL^T), generator specs; _ROUNDS, _RUN (the records' tag).
  ff_exe=$build/bench/gpuglu_first_factor_bench
  if [[ -x $ff_exe ]]; then
    ff=(python3 "$root/scripts/first_factor.py" --exe "$ff_exe" --rounds "${GPUGLU_DEVICE_FIRST_FACTOR_ROUNDS:-3}"
        --out "$out/results.jsonl" --device "$(head -1 "$out/device.txt" | cut -d, -f1)"
        --run "${GPUGLU_DEVICE_FIRST_FACTOR_RUN:-}")
    {
      "${ff[@]}" --matrices "${GPUGLU_DEVICE_FIRST_FACTOR_MATRICES:-lap3d7:64x64x32 lap3d7:48x48x48 circuit:200000:2000}" || status=1
      "${ff[@]}" --ldlt --matrices "${GPUGLU_DEVICE_FIRST_FACTOR_LDLT:-lap3d7:64x64x32 lap3d7:48x48x48}" || status=1
    } 2>&1 | tee "$out/first_factor.log"
  else
    echo "device_run.sh: no gpuglu_first_factor_bench in $build_rel" | tee "$out/first_factor.log"
    status=1
  fi
fi

if want first_solve; then
  # Issue 27's first solve (scripts/first_solve.py): one system through PETSc's KSP (preonly +
  # LU, b = A * ones) from the assembled matrix to its solution, each (matrix, solver) in a
  # fresh process: gpuglu on one rank (CUDA backend, OpenMP on all cores for its host parts),
  # MUMPS on GPUGLU_DEVICE_FIRST_SOLVE_RANKS ranks (default: every processor, nproc --all: use_bundled_mpi sets OMP_NUM_THREADS=1, which plain nproc reports; the matrix as MPIAIJ, one
  # thread per rank; a list such as 16,1 runs it on each), cuDSS from host data, KLU and PETSc's LU on one core where gpuglu's
  # factorization is below 2e10 flops. GPUGLU_DEVICE_FIRST_SOLVE_MATRICES: generator specs and
  # paths below ../shared/collection (default: the script's generated 3-D problems and circuits,
  # then every collection file the bundle carries, smallest first: pack_device_bundle.sh's
  # GPUGLU_BUNDLE_COLLECTION says which travel); _SOLVERS (gpuglu,mumps,
  # cudss,klu,petsc); _OPTIONS / _PEER_OPTIONS: gpuglu's / the peers' PETSc options (as a user
  # would give MUMPS -mat_mumps_icntl_14 after INFOG(1) = -9); _TIMEOUT: seconds per run (120);
  # _BUDGET: seconds for all runs (480). Run lines in first_solve_runs.jsonl, records
  # ("first_solve") in results.jsonl, the tables in first_solve.log.
  fs_exe=$build/bench/gpuglu_first_solve_bench
  if [[ -x $fs_exe && -x $mpi/bin/orterun ]]; then
    (
      use_bundled_mpi
      export MPIEXEC=$mpi/bin/mpiexec
      # As the mpi step: up to one rank per hardware thread, unbound (the scheduler spreads them).
      export MPIEXEC_ARGS="--use-hwthread-cpus --bind-to none --mca pml ob1 --mca btl self,vader"
      echo "== CPU: $(lscpu | grep -m1 'Model name' | sed 's/.*: *//'), $(nproc --all) CPUs," \
        "$(lscpu | grep -m1 'Thread(s) per core' | sed 's/.*: *//') threads per core, OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
      fs_matrices=()
      [[ -n ${GPUGLU_DEVICE_FIRST_SOLVE_MATRICES:-} ]] && fs_matrices=(--matrices "$GPUGLU_DEVICE_FIRST_SOLVE_MATRICES")
      python3 "$root/scripts/first_solve.py" --exe "$fs_exe" --collection "$shared/collection" "${fs_matrices[@]}" \
        --solvers "${GPUGLU_DEVICE_FIRST_SOLVE_SOLVERS:-gpuglu,mumps,cudss,klu,petsc}" \
        --mumps-ranks "${GPUGLU_DEVICE_FIRST_SOLVE_RANKS:-$(nproc --all)}" --backend cuda \
        --gpuglu-options "${GPUGLU_DEVICE_FIRST_SOLVE_OPTIONS:-}" \
        --peer-options "${GPUGLU_DEVICE_FIRST_SOLVE_PEER_OPTIONS:-}" --timeout "${GPUGLU_DEVICE_FIRST_SOLVE_TIMEOUT:-120}" \
        --budget-s "${GPUGLU_DEVICE_FIRST_SOLVE_BUDGET:-480}" --runs "$out/first_solve_runs.jsonl" \
        --out "$out/results.jsonl" --device "$(head -1 "$out/device.txt" | cut -d, -f1)" --verbose
      echo "first_solve: exit $?"
    ) > "$out/first_solve.log" 2>&1
    # The per-run lines and the tables; the command lines stay in first_solve.log.
    grep -vE '^\$ ' "$out/first_solve.log"
    grep -q '^first_solve: exit 0$' "$out/first_solve.log" || status=1
  else
    echo "device_run.sh: no gpuglu_first_solve_bench or bundled mpiexec in $build_rel" | tee "$out/first_solve.log"
    status=1
  fi
fi

if want trsv; then
  # Triangular solves (issue 4): the GPU tests of every kernel against the CPU reference
  # (including the 1M-row no-deadlock tests), the same kernels on complex values (issue 15),
  # then the kernels against cuSPARSE SpSV on Li's model problems and ../shared/matrices.
  # Pass/fail: the tests' result and the bench's correctness check; the table ends with
  # auto's speedup over cuSPARSE.
  trsv_bench=$build/bench/gpuglu_trsv_bench
  {
    for trsv_test in $build/tests/gpu/gpuglu_cuda_trsv_tests $build/tests/gpu/gpuglu_cuda_trsv_complex_tests; do
      what="trsv tests$([[ $trsv_test == *complex* ]] && echo " (complex)")"
      if [[ -x $trsv_test ]]; then
        "$trsv_test" --gtest_brief=1
        rc=$?
        echo "$what: $([[ $rc -eq 0 ]] && echo PASS || echo "FAIL (exit $rc)")"
        [[ $rc -eq 0 ]] || status=1
      else
        echo "$what: missing ($trsv_test)"; status=1
      fi
    done
    if [[ -x $trsv_bench ]]; then
      trsv_dir=()
      [[ -d $shared/matrices ]] && trsv_dir=(--matrix-dir "$shared/matrices")
      "$trsv_bench" --warmup 3 --repeat ${GPUGLU_DEVICE_TRSV_REPEAT:-20} --out "$out/results.jsonl" \
        ${GPUGLU_DEVICE_TRSV_MATRICES:---model-problems} "${trsv_dir[@]}"
      rc=$?
      [[ $rc -eq 0 ]] || status=1
    else
      echo "trsv bench: missing ($trsv_bench)"; status=1
    fi
  } > "$out/trsv.log" 2>&1
  grep -E ' \| |^trsv |^geometric|^L = |FAILED|FATAL|WRONG|skipped' "$out/trsv.log"
fi
if want ilu_gmres; then
  # ILU(0)-GMRES to rtol 1e-8 through PETSc (issue 4). One rank: gpuglu's ILU(0) on the GPU
  # against PETSc's ILU(0), hypre's Euclid ILU(0) (one core each) and cuSPARSE csrilu02 +
  # SpSV. Then bjacobi/ILU(0) and hypre on GPUGLU_DEVICE_ILU_RANKS ranks, recorded against
  # the one-rank gpuglu numbers (--ours-from). Matrices (GPUGLU_DEVICE_ILU_MATRICES):
  # generator specs and *.mtx paths as given, other names looked up as NAME.mtx below the
  # shared matrices. GPUGLU_DEVICE_ILU_REPEAT timed rounds (3) after one warm-up.
  ilu=$build/bench/gpuglu_ilu_gmres_bench
  if [[ -x $ilu && -x $mpi/bin/orterun ]]; then
    ilu_matrices=()
    for m in ${GPUGLU_DEVICE_ILU_MATRICES:-convdiff3d:100x100x100 add32 orsreg_1 watt__1 sherman1}; do
      if [[ $m == *:* || $m == *.mtx ]]; then ilu_matrices+=(--matrix "$m"); continue; fi
      f=$(find -L "$shared/matrices" -name "$m.mtx" 2>/dev/null | head -1)
      if [[ -n $f ]]; then ilu_matrices+=(--matrix "$f"); else echo "ilu_gmres: no $m.mtx below $shared/matrices"; status=1; fi
    done
    ranks=${GPUGLU_DEVICE_ILU_RANKS:-16}
    repeat=${GPUGLU_DEVICE_ILU_REPEAT:-3}
    (
      echo "== CPU: $(lscpu | grep -m1 'Model name' | sed 's/.*: *//'), $(nproc) CPUs, $(lscpu | grep -m1 'Thread(s) per core' | sed 's/.*: *//') threads per core"
      use_bundled_mpi
      # GPUGLU_DEVICE_ILU_VARIANTS: the one-rank variants (default all); GPUGLU_DEVICE_ILU_RANKS=1
      # skips the multi-rank run.
      variants=()
      [[ -n ${GPUGLU_DEVICE_ILU_VARIANTS:-} ]] && variants=(--variants "$GPUGLU_DEVICE_ILU_VARIANTS")
      # GPUGLU_DEVICE_ILU_CPU: a core (list) the one-rank run is bound to (taskset), so that
      # the host's scheduler cannot move it between variants; default unbound.
      pin=()
      [[ -n ${GPUGLU_DEVICE_ILU_CPU:-} ]] && pin=(taskset -c "$GPUGLU_DEVICE_ILU_CPU")
      "${pin[@]}" "$ilu" --backend cuda --warmup 1 --repeat "$repeat" --out "$out/results.jsonl" "${variants[@]}" "${ilu_matrices[@]}"
      rc1=$?
      if [[ $ranks -le 1 ]]; then
        echo "ilu_gmres: one rank exit $rc1"
        exit $rc1
      fi
      # One rank per hardware thread, bound to it (the machine may count hyperthreads as CPUs).
      "$mpi/bin/mpiexec" -n "$ranks" --use-hwthread-cpus --bind-to hwthread --mca pml ob1 --mca btl self,vader \
        "$ilu" --backend cuda --warmup 1 --repeat "$repeat" --ours-from "$out/results.jsonl" --out "$out/results.jsonl" \
        "${ilu_matrices[@]}"
      rc2=$?
      echo "ilu_gmres: one rank exit $rc1, $ranks ranks exit $rc2"
      [[ $rc1 -eq 0 && $rc2 -eq 0 ]]
    ) > "$out/ilu_gmres.log" 2>&1
    ilu_rc=$?
    grep -E '^[^ ]+ +[^ ]+ +(setup +[0-9]|failed:)|^ilu_gmres|^== ' "$out/ilu_gmres.log"
    [[ $ilu_rc -eq 0 ]] || { status=1; echo "ilu_gmres: FAILED; the log ends:"; tail -15 "$out/ilu_gmres.log"; }
  else
    echo "device_run.sh: no gpuglu_ilu_gmres_bench or bundled mpiexec in $build_rel (configured without PETSc? old bundle?)" |
      tee "$out/ilu_gmres.log"
    status=1
  fi
fi
if want levels; then
  levels_test=$build/tests/gpu/gpuglu_cuda_trsv_levels_tests
  trsv_bench=$build/bench/gpuglu_trsv_bench
  {
    if [[ -x $levels_test ]]; then
      timeout 300 "$levels_test" --gtest_brief=1
      rc=$?
      echo "levels tests: $([[ $rc -eq 0 ]] && echo PASS || echo "FAIL (exit $rc)")"
      [[ $rc -eq 0 ]] || status=1
      # Races and bad accesses on the small cases (the sanitizers slow kernels ~100x);
      # GPUGLU_DEVICE_LEVELS_SANITIZE=0 skips them.
      for tool in $([[ ${GPUGLU_DEVICE_LEVELS_SANITIZE:-1} == 0 ]] || echo memcheck racecheck synccheck); do
        timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 "$levels_test" \
          --gtest_filter='Generated/*lap2d5_8x700:Generated/*lap3d7*:Generated/*circuit_3000*:CudaTrsvLevels.one_level*:CudaTrsvLevels.a_cycle*' \
          > "$out/levels_sanitize_$tool.log" 2>&1
        rc=$?
        echo "compute-sanitizer $tool: exit $rc; $(grep -m1 'ERROR SUMMARY' "$out/levels_sanitize_$tool.log")"
        [[ $rc -eq 0 ]] || status=1
      done
    else
      echo "levels tests: missing ($levels_test)"; status=1
    fi
    if [[ -x $trsv_bench ]]; then
      # CPU against GPU levels on Li's model problems and ../shared/matrices, then the
      # launch-shape knobs (kahn_shape.hpp) on a few: grid barriers only, block 0 up to 1024
      # rows, 2 blocks per SM.
      trsv_dir=()
      [[ -d $shared/matrices ]] && trsv_dir=(--matrix-dir "$shared/matrices")
      "$trsv_bench" --analysis-only --out - ${GPUGLU_DEVICE_LEVELS_MATRICES:---model-problems} "${trsv_dir[@]}" ||
        status=1
      some=(--matrix lap2d5:1024x1024 --matrix lap2d5:64x16384 --matrix lap3d7:128x128x128
            --matrix lap3d27:128x128x128 --matrix lap3d7:32x32x2048 --matrix circuit:200000:2000)
      for knobs in "--kahn-narrow-rows 0" "--kahn-narrow-rows 1024" "--kahn-blocks-per-sm 2"; do
        echo "== $knobs"
        # $knobs unquoted: a flag and its value, two words
        "$trsv_bench" --analysis-only --out - $knobs "${some[@]}" || status=1
      done
    else
      echo "trsv bench: missing ($trsv_bench)"; status=1
    fi
  } > "$out/levels.log" 2>&1
  grep -E ' \| |^levels |^compute-sanitizer|^== |FAILED|FATAL|WRONG|DIFFER|skipped' "$out/levels.log"
fi
if want ab; then
  ref=$deps/reference
  bench=$build/bench/gpuglu_lu_bench
  if [[ -x $ref/gpuglu_lu_bench && -x $bench ]]; then
    ab_matrices=()
    for m in ${GPUGLU_DEVICE_AB_MATRICES:-circuit:20000:200 circuit:200000:2000 powergrid:60000:300}; do
      ab_matrices+=(--matrix "$m")
    done
    echo "== ab: this build against reference $(cat "$ref/commit")" | tee "$out/ab.log"
    for round in $(seq "${GPUGLU_DEVICE_AB_ROUNDS:-2}"); do
      for side in reference current; do
        if [[ $side == reference ]]; then
          run=(env LD_LIBRARY_PATH="$ref:$LD_LIBRARY_PATH" "$ref/gpuglu_lu_bench")
        else
          run=("$bench")
        fi
        for engine in ${GPUGLU_DEVICE_AB_ENGINES:-auto column}; do
          "${run[@]}" --backend cuda --lu-engine "$engine" --threads 1 --warmup 2 --repeat 10 --no-petsc --no-umfpack \
            --skip cusolverrf,cudss --device "$side-$round" --out "$out/ab.jsonl" "${ab_matrices[@]}" > "$out/ab_${side}_${engine}_$round.log" 2>&1 ||
            status=1
          grep -E '^[a-z].*\|' "$out/ab_${side}_${engine}_$round.log" | sed "s/^/$side $engine $round: /" | tee -a "$out/ab.log"
        done
        if [[ -x $ref/gpuglu_ldlt_bench && " ${GPUGLU_DEVICE_AB_BENCHES:-lu ldlt trsv} " == *" ldlt "* ]]; then
          if [[ $side == reference ]]; then
            run=(env LD_LIBRARY_PATH="$ref:$LD_LIBRARY_PATH" "$ref/gpuglu_ldlt_bench")
          else
            run=("$build/bench/gpuglu_ldlt_bench")
          fi
          ab_ldlt=()
          for m in ${GPUGLU_DEVICE_AB_LDLT_MATRICES:-lap3d7:30x30x30 kkt:5000:1000 shiftlap3d:24x24x24:0.5}; do ab_ldlt+=(--matrix "$m"); done
          "${run[@]}" --backend cuda --warmup 2 --repeat 10 --no-umfpack --no-cholmod --no-mumps --no-cudss \
            --device "$side-$round" --out "$out/ab_ldlt.jsonl" "${ab_ldlt[@]}" > "$out/ab_ldlt_${side}_$round.log" 2>&1 ||
            status=1
          grep -E '^[a-z].*\|' "$out/ab_ldlt_${side}_$round.log" | sed "s/^/ldlt $side $round: /" | tee -a "$out/ab.log"
        fi
        if [[ -x $ref/gpuglu_trsv_bench && " ${GPUGLU_DEVICE_AB_BENCHES:-lu ldlt trsv} " == *" trsv "* ]]; then
          if [[ $side == reference ]]; then
            run=(env LD_LIBRARY_PATH="$ref:$LD_LIBRARY_PATH" "$ref/gpuglu_trsv_bench")
          else
            run=("$build/bench/gpuglu_trsv_bench")
          fi
          "${run[@]}" --warmup 3 --repeat 20 --device "$side-$round" --out "$out/ab_trsv.jsonl" \
            ${GPUGLU_DEVICE_AB_TRSV_MATRICES:---matrix lap3d7:40x40x40 --matrix circuit:200000:2000} > "$out/ab_trsv_${side}_$round.log" 2>&1 || status=1
          grep -E ' \| ' "$out/ab_trsv_${side}_$round.log" | sed "s/^/trsv $side $round: /" | tee -a "$out/ab.log"
        fi
      done
    done
    python3 "$root/scripts/ab_table.py" "$out"/ab*.jsonl | tee -a "$out/ab.log"
  else
    echo "device_run.sh: ab needs a bundle packed with GPUGLU_BUNDLE_REFERENCE" | tee "$out/ab.log"
    status=1
  fi
fi
if want zbench; then
  # Complex scalars (issue 15): gpuglu_complex_bench - gpuglu's complex LU and LDL^T on the GPU
  # and the CPU against KLU, UMFPACK (complex, one core) and cuDSS (CUDA_C_64F), same run,
  # same values. GPUGLU_DEVICE_ZBENCH_LU / _LDLT: the matrices of kind lu (rotated phases) and
  # of the symmetric kinds (helmholtz: complex symmetric; hermitian); _TIMEOUT (300 s).
  zb=$build/bench/gpuglu_complex_bench
  if [[ -x $zb ]]; then
    zlu=(); for m in ${GPUGLU_DEVICE_ZBENCH_LU:-circuit:20000:200:3 circuit:200000:2000 powergrid:60000:300 \
        lap2d5:300x300 lap3d7:40x40x40}; do zlu+=(--matrix "$m"); done
    zsym=(); for m in ${GPUGLU_DEVICE_ZBENCH_LDLT:-lap2d5:300x300 lap3d7:40x40x40}; do zsym+=(--matrix "$m"); done
    {
      OMP_NUM_THREADS=1 timeout ${GPUGLU_DEVICE_ZBENCH_TIMEOUT:-300} "$zb" --kind lu --threads "$(nproc)" \
        --warmup 1 --repeat 5 --out "$out/results.jsonl" "${zlu[@]}"
      echo "zbench lu: exit $?"
      OMP_NUM_THREADS=1 timeout ${GPUGLU_DEVICE_ZBENCH_TIMEOUT:-300} "$zb" --kind helmholtz,hermitian \
        --threads "$(nproc)" --warmup 1 --repeat 5 --out "$out/results.jsonl" "${zsym[@]}"
      echo "zbench ldlt: exit $?"
    } 2>&1 | tee "$out/zbench.log"
  else
    echo "device_run.sh: no gpuglu_complex_bench in $build_rel"; status=1
  fi
fi

if want analysis; then
  # The analysis alone (issue 27): gpuglu_analysis_bench, the LU's (supernodal) and the LDL^T's,
  # on one thread and on all cores, over GPUGLU_DEVICE_ANALYSIS_MATRICES (generator specs and
  # collection files), and the reference build's bench beside it where the bundle has one
  # (a CPU-only build serves: the analysis never touches the GPU). Records: analysis.jsonl.
  abench=$build/bench/gpuglu_analysis_bench
  ref=$deps/reference
  a_matrices=()
  coll=$shared/collection
  for m in ${GPUGLU_DEVICE_ANALYSIS_MATRICES:-circuit/memplus.mtx circuit/rajat19.mtx general/wang3.mtx \
      general/bayer10.mtx spd/bcsstk18.mtx spd/Andrews.mtx sym-indefinite/tuma1.mtx circuit:200000 \
      lap3d7:40x40x40 elast3d:20x20x20 lap2d5:1000x1000 circuit/G3_circuit.mtx.xz}; do
    if [[ $m == *:* ]]; then a_matrices+=("$m")
    elif [[ -f $coll/$m ]]; then a_matrices+=("$coll/$m")
    else echo "analysis: $m is not in the bundle"; fi
  done
  {
    for side in reference current; do
      if [[ $side == reference ]]; then
        [[ -x $ref/gpuglu_analysis_bench ]] || continue
        run=(env LD_LIBRARY_PATH="$ref:$LD_LIBRARY_PATH" "$ref/gpuglu_analysis_bench")
        echo "== reference $(cat "$ref/commit")"
      else
        run=("$abench")
        echo "== current"
      fi
      for threads in 1 $(nproc); do
        for kind in lu ldlt; do
          flags=(--repeat ${GPUGLU_DEVICE_ANALYSIS_REPEAT:-3} --threads "$threads")
          [[ $kind == ldlt ]] && flags+=(--ldlt)
          timeout ${GPUGLU_DEVICE_ANALYSIS_TIMEOUT:-150} "${run[@]}" "${flags[@]}" "${a_matrices[@]}" |
            sed "s/^{/{\"side\": \"$side\", /" | tee -a "$out/analysis.jsonl"
        done
      done
    done
  } 2>&1 | tee "$out/analysis.log"
fi

# The Cholesky end to end through PETSc (issue 28's ksp ex56-style target): ex10 reads an SPD
# elasticity system (and a Laplacian) and solves it with -ksp_type preonly -pc_type cholesky:
# gpuglu on one rank and the GPU against MUMPS on every core (mpiexec -n $(nproc --all)),
# -log_view's PCSetUp, MatCholFctrSym, MatCholFctrNum, MatSolve and KSPSolve (max over ranks;
# ex10 solves the system twice, -f0 and -f1, its PreLoad stages: a line per stage).
if want ldlt_e2e; then
  plugin=$build/petsc_plugin/libpetscgpuglu.so
  tut=$build/tests/tutorials
  if [[ -f $plugin && -x $tut/petsc_tutorial_ex10 && -x $mpi/bin/orterun ]]; then
    (
      use_bundled_mpi
      data=$(mktemp -d)
      cores=$(nproc --all)
      for spec in ${GPUGLU_DEVICE_LDLT_E2E_MATRICES:-elast3d:20x20x20 elast3d:28x28x28 lap3d7:48x48x48}; do
        name=${spec//[:x]/_}
        "$build/examples/gpuglu_mmgen" "$spec" "$data/$name.mtx" &&
          "$build/examples/gpuglu_mm_to_petsc" -fin "$data/$name.mtx" -fout "$data/$name.petsc" -rhs Ax > /dev/null || continue
        events='^(PCSetUp|MatCholFctrSym|MatCholFctrNum|MatSolve|KSPSolve) '
        echo "== $spec: gpuglu (1 rank, CUDA backend)"
        timeout 300 "$tut/petsc_tutorial_ex10" -f0 "$data/$name.petsc" -f1 "$data/$name.petsc" -ksp_type preonly -pc_type cholesky \
          -pc_factor_mat_solver_type gpuglu -dll_append "$plugin" -mat_gpuglu_backend cuda -log_view 2>&1 |
          grep -E "$events|Residual norm" | awk '{print "  " $1, $2, $4}'
        echo "== $spec: MUMPS ($cores ranks)"
        timeout 300 "$mpi/bin/mpiexec" -n "$cores" --bind-to core "$tut/petsc_tutorial_ex10" -f0 "$data/$name.petsc" -f1 "$data/$name.petsc" \
          -ksp_type preonly -pc_type cholesky -pc_factor_mat_solver_type mumps -log_view 2>&1 |
          grep -E "$events|Residual norm" | awk '{print "  " $1, $2, $4}'
      done
      rm -rf "$data"
    ) 2>&1 | tee "$out/ldlt_e2e.log"
  else
    echo "device_run.sh: ldlt_e2e needs the plugin, ex10 and the bundled MPI" | tee "$out/ldlt_e2e.log"
  fi
fi

if want ldlt; then
  # gpuglu's LDL^T on the GPU against, in the same run on the same matrices and values: its LU
  # (GPU), UMFPACK, CHOLMOD on one core and on all (OpenBLAS threads), MUMPS's LDL^T through
  # PETSc (one core) and cuDSS (GPU, when the build has it). Small to large, so that the
  # deadline (no matrix or peer starts after GPUGLU_DEVICE_LDLT_DEADLINE seconds, 220) cuts the
  # largest; one-core CPU peers are skipped above 1e11 flops of the LDL^T (UMFPACK also above
  # 3e7 LU entries), gpuglu's LU above 3e10; slow factorizations repeat less (--budget-ms
  # 2000: at least a first factorization and one timed refactorization each). Planned for
  # about 4.5 minutes on the H100 machine; GPUGLU_DEVICE_LDLT_TIMEOUT (330 s) ends it.
  ldlt=$build/bench/gpuglu_ldlt_bench
  if [[ -x $ldlt ]]; then
    coll=$shared/collection
    ldlt_matrices=()
    {
      for m in ${GPUGLU_DEVICE_LDLT_MATRICES:-matrices/spd/nos7.mtx spd/bcsstk16.mtx spd/bcsstk18.mtx \
          sym-indefinite/aug3dcqp.mtx sym-indefinite/bloweya.mtx sym-indefinite/tuma1.mtx \
          sym-indefinite/stokes64.mtx kkt:5000:1000 kkt:10000:2000 shiftlap3d:40x40x40:0.5 lap3d7:40x40x40 \
          elast3d:20x20x20 spd/Andrews.mtx circuit/G3_circuit.mtx.xz lap2d5:1000x1000 \
          shiftlap3d:64x64x64:0.5 lap3d7:64x64x64}; do
        if [[ $m == *:* ]]; then ldlt_matrices+=(--matrix "$m"); continue; fi
        if [[ -f $coll/$m ]]; then ldlt_matrices+=(--matrix "$coll/$m")
        elif [[ -f $shared/$m ]]; then ldlt_matrices+=(--matrix "$shared/$m")
        else echo "ldlt: $m is not in the bundle"; fi
      done
      echo "== CPU: $(lscpu | grep -m1 'Model name' | sed 's/.*: *//'), $(nproc) CPUs," \
        "$(grep -m1 -o -E 'avx512f|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
      # OMP_NUM_THREADS=1: MUMPS, UMFPACK and OpenBLAS start on one thread; the benchmark sets
      # OpenBLAS's threads per peer (CHOLMOD's all-core run) and records them.
      OMP_NUM_THREADS=1 timeout ${GPUGLU_DEVICE_LDLT_TIMEOUT:-330} "$ldlt" --backend cuda --warmup 1 --repeat 5 \
        --budget-ms 2000 --deadline-s ${GPUGLU_DEVICE_LDLT_DEADLINE:-220} --max-cpu-flops 1e11 --max-lu-flops 3e10 \
        --spd G3_circuit --out "$out/results.jsonl" ${GPUGLU_DEVICE_LDLT_ARGS:-} "${ldlt_matrices[@]}"
      echo "ldlt: exit $?"
    } > "$out/ldlt.log" 2>&1
    cat "$out/ldlt.log"
    grep -q '^ldlt: exit 0$' "$out/ldlt.log" || status=1
  else
    echo "device_run.sh: no gpuglu_ldlt_bench in $build_rel" | tee "$out/ldlt.log"
    status=1
  fi
fi
if want devres; then
  devres_bench=$build/bench/petsc_devres_bench
  {
    if [[ ! -x $devres_bench || ! -x $build/tests/petsc_device/petsc_device_resident ]]; then
      echo "devres: $build_rel was not built against a CUDA PETSc (scripts/pack_devres_bundle.sh packs one)"
      exit 1
    fi
    # The CUDA libraries PETSc was linked with here must be the GPU machine's (CUDA 13.0 both).
    missing=$(ldd "$devres_bench" | grep 'not found')
    [[ -z $missing ]] || { echo "devres: libraries not found:"; echo "$missing"; exit 1; }
    use_bundled_mpi
    export MPIEXEC=$mpi/bin/mpiexec  # the two-rank test's launcher (tests/petsc_device)
    # A CUDA PETSc refuses to start on an MPI that is not GPU-aware (Debian's OpenMPI is not)
    # unless told so; the device-resident path moves no vector through MPI on one rank.
    export PETSC_OPTIONS="-use_gpu_aware_mpi 0 ${PETSC_OPTIONS:-}"
    rc=0
    (cd "$build" && timeout 100 ctest -L gpu -R "${GPUGLU_DEVICE_DEVRES_TESTS:-petsc_device|bench_devres_smoke|SparseLUCudaDevice|SparseLUCudaIlu|SparseLUCudaRecovery}" \
      --output-on-failure --timeout 120) || rc=1
    echo "devres tests: exit $rc"
    # --ranks N: the launcher as the dd steps run it (shared memory between the ranks only).
    MPIEXEC_ARGS=${MPIEXEC_ARGS:-"--bind-to none --mca pml ob1 --mca btl self,vader"} \
    python3 "$root/scripts/devres_bench.py" --exe "$devres_bench" --timeout 120 --deadline-s ${GPUGLU_DEVICE_DEVRES_DEADLINE:-230} --out "$out/results.jsonl" \
      --device "$(head -1 "$out/device.txt" | cut -d, -f1)" ${GPUGLU_DEVICE_DEVRES_ARGS:-} || rc=1
    echo "devres: exit $rc"
    exit $rc
  } 2>&1 | tee "$out/devres.log"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
fi
exit $status
