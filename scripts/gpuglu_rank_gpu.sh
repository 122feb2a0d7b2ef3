#!/usr/bin/env bash
# Runs a command with CUDA_VISIBLE_DEVICES narrowed to this MPI rank's share of the node's GPUs,
# for MPI runs with several GPUs per node:
#
#   mpiexec -n 4 scripts/gpuglu_rank_gpu.sh ./app -pc_type bjacobi -sub_pc_factor_mat_solver_type gpuglu ...
#
# Why: the CUDA driver's start-up in every process enumerates every GPU it can see (about
# 0.2 s per GPU on an H200 node, docs/performance.md "Several GPUs"), so each of 4 ranks that
# sees 4 GPUs pays four times what a rank that sees only its own pays. gpuglu maps ranks to GPUs
# the same way without this (docs/user_guide.md, "GPUs per process"): rank r of n takes GPU
# r mod count when n >= count, and GPUs d with d mod n == r when there are fewer ranks than GPUs.
# The rank exports GPUGLU_RANKS_PER_DEVICE (the node's ranks per GPU) so that backend auto still
# knows it shares its GPU with that many ranks once it sees only one.
set -euo pipefail
first_set() { for v in "$@"; do [[ -n ${!v:-} ]] && { echo "${!v}"; return; }; done; echo ""; }
rank=$(first_set OMPI_COMM_WORLD_LOCAL_RANK MPI_LOCALRANKID SLURM_LOCALID PMIX_LOCAL_RANK)
size=$(first_set OMPI_COMM_WORLD_LOCAL_SIZE MPI_LOCALNRANKS PMIX_LOCAL_SIZE)
if [[ -n ${CUDA_VISIBLE_DEVICES+x} ]]; then
  IFS=, read -r -a gpus <<< "$CUDA_VISIBLE_DEVICES"
else
  # The device files, not a CUDA or NVML call: counting must not pay the start-up it avoids.
  gpus=()
  for f in /dev/nvidia[0-9]*; do [[ -e $f ]] && gpus+=("${f#/dev/nvidia}"); done
fi
count=${#gpus[@]}
if [[ -n $rank && -n $size && $count -gt 0 ]]; then
  if (( size >= count )); then
    export CUDA_VISIBLE_DEVICES=${gpus[rank % count]}
    export GPUGLU_RANKS_PER_DEVICE=$(( (size + count - 1) / count ))
  else
    mine=()
    for ((d = rank; d < count; d += size)); do mine+=("${gpus[d]}"); done
    export CUDA_VISIBLE_DEVICES=$(IFS=,; echo "${mine[*]}")
    export GPUGLU_RANKS_PER_DEVICE=1
  fi
fi
exec "$@"
