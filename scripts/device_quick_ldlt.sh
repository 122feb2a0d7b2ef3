#!/usr/bin/env bash
# A short first look at the supernodal LDL^T on the GPU machine (issue 28): its GPU tests,
# one benchmark pass on a few matrices against cuDSS, and memcheck on its small cases.
# Run after scripts/device_run.sh has unpacked the bundle (any step); OUT as device_run.sh's.
set -uo pipefail
deps=/tmp/gpuglu-deps
build=$(cat "$deps/source_root")/$(cat "$deps/build_dir")
out=${OUT:-$(pwd)/device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$deps/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
timeout 200 "$build/tests/gpu/gpuglu_cuda_supernodal_ldlt_tests" 2>&1 | tee "$out/sn_ldlt_tests.log" | grep -E "OK|FAILED|Failure|error|Expected|Which is|PASSED" | head -80
shared=$(cd "$(pwd)/.." && pwd -P)/shared
OMP_NUM_THREADS=1 timeout ${QUICK_BENCH_TIMEOUT:-150} "$build/bench/gpuglu_ldlt_bench" --backend cuda --warmup 1 --repeat 3 \
  --budget-ms 1500 --no-umfpack --no-cholmod --no-mumps --out "$out/quick.jsonl" ${QUICK_MATRICES:-} 2>&1 | tee "$out/quick_bench.log"
if [[ -n ${QUICK_MEMCHECK:-} ]]; then
  compute-sanitizer --tool memcheck --error-exitcode 9 "$build/tests/gpu/gpuglu_cuda_supernodal_ldlt_tests" \
    --gtest_filter="$QUICK_MEMCHECK" > "$out/memcheck.log" 2>&1
  echo "memcheck exit $?"; grep -E "ERROR SUMMARY|Invalid|out of bounds" "$out/memcheck.log" | sort | uniq -c | head
fi
