#!/usr/bin/env python3
"""Factors on distinct GPUs (issue 30), through PETSc: the same run on one GPU
(CUDA_VISIBLE_DEVICES=0) and on all the machine's GPUs, alternately, so both share the
machine's state. SNES ex14 (3-D Bratu, Newton) with bjacobi or asm LU subdomains: several
local blocks in one process (gpuglu spreads a process's factors over its devices) and one
rank per GPU (ranks map to devices by node-local rank). -log_view's max over ranks per event;
records `<N>_gpu` (two_gpu, four_gpu: all N devices) / `one_gpu` go to --out with the device, n, nnz and the Krylov iterations.

  multi_gpu_bench.py --ex14 bench/petsc_snes_ex14 --plugin petsc_plugin/libpetscgpuglu.so
                     --devices 2 [--grid 64x64x64] [--rounds 3] [--bind] [--out results.jsonl]
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mpi_bench  # noqa: E402  (its mpiexec runner and -log_view parser)

EVENTS = ("MatLUFactorSym", "MatLUFactorNum", "MatSolve", "PCSetUp", "KSPSolve")

# name -> (ranks, options): every subdomain an LU by gpuglu on the GPU.
CONFIGS = {
    "bjacobi_lu_blocks": (1, "-pc_type bjacobi -pc_bjacobi_blocks {d}"),
    "bjacobi_lu_ranks": ("{d}", "-pc_type bjacobi"),
    "asm_lu_ranks": ("{d}", "-pc_type asm -pc_asm_overlap 1"),
}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ex14", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--devices", type=int, required=True)
    p.add_argument("--grid", default="64x64x64")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--configs", default=",".join(CONFIGS))
    p.add_argument("--device-name", default="")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--out")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--bind", action="store_true",
                   help="also run on all devices with each rank shown only its own (scripts/gpuglu_rank_gpu.sh)")
    args = p.parse_args()
    args.budget_s = 0
    d = args.devices
    common = mpi_bench.grid_options("xyz", args.grid) + [
        "-ksp_type", "gmres", "-ksp_rtol", "1e-8", "-sub_pc_type", "lu", "-sub_pc_factor_mat_solver_type", "gpuglu",
        "-sub_mat_gpuglu_backend", "cuda", "-dll_append", args.plugin]
    many = {2: "two_gpu", 4: "four_gpu", 8: "eight_gpu"}.get(d, f"{d}_gpu")
    visible = {"one_gpu": "0", many: ",".join(str(i) for i in range(d))}
    # --bind: the same on all devices, each rank shown only its own (scripts/gpuglu_rank_gpu.sh).
    wrapper = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpuglu_rank_gpu.sh")
    if args.bind:
        visible[many + "_bound"] = visible[many]
    failed = False
    print(f"ex14 {args.grid}, {d} GPUs, median of {args.rounds} (ms, -log_view max over ranks)")
    for name in args.configs.split(","):
        ranks_spec, opts = CONFIGS[name]
        ranks = int(str(ranks_spec).format(d=d))
        options = common + opts.format(d=d).split()
        got = {k: [] for k in visible}
        info = {}
        for _ in range(args.rounds):
            for label, devices in visible.items():
                os.environ["CUDA_VISIBLE_DEVICES"] = devices
                os.environ["MPIEXEC_WRAPPER"] = wrapper if label.endswith("_bound") else ""
                found, why = mpi_bench.run(args, ranks, args.ex14, options)
                if why:
                    print(f"{name} {label}: {why}")
                    failed = True
                    continue
                got[label].append(found["log"])
                info = {k: found[k] for k in ("n", "nnz", "iterations", "newton") if k in found}
        med = {label: {e: statistics.median(r[e][1] for r in runs) for e in EVENTS if runs and all(e in r for r in runs)}
               for label, runs in got.items()}
        for label in visible:
            if label == "one_gpu":
                continue
            row = [f"{name:18s} ranks {ranks} {label:15s}"]
            for e in EVENTS:
                one, two = med["one_gpu"].get(e), med[label].get(e)
                if one is not None and two is not None:
                    row.append(f"{e} {one:.0f}/{two:.0f} ({one / two:.2f}x)")
            print("  ".join(row))
        if args.out:
            with open(args.out, "a") as f:
                for label, events in med.items():
                    rec = {"bench": "multi_gpu_dd", "config": name, "solver": label, "ranks": ranks,
                           "devices": 1 if label == "one_gpu" else d, "device": args.device_name,
                           "matrix": f"snes-ex14:{args.grid}", "rounds": len(got[label]),
                           "peer": "one_gpu" if label != "one_gpu" else None}
                    rec.update(info)
                    rec.update({f"{e}_ms": round(v, 2) for e, v in events.items()})
                    f.write(json.dumps(rec) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
