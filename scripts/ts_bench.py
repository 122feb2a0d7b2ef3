#!/usr/bin/env python3
"""End-to-end time stepping through PETSc (issue 14's benchmark): PETSc's unmodified
reaction-diffusion tutorial (ts ex5, two components on an N x N periodic grid, implicit
stepping, a Newton solve with a direct LU per stage) run once per factor package in the same
run, -log_view parsed: MatLUFactorSym, MatLUFactorNum, MatSolve, TSStep (the whole time
stepping) and the run's total time, each with its call count. gpuglu is loaded with
-dll_append; the peers are PETSc's own LU, KLU and MUMPS (where the PETSc build has them).

  ts_bench.py --exe bench/petsc_ts_ex5 --plugin petsc_plugin/libpetscgpuglu.so
              [--grid 224] [--steps 10] [--solvers gpuglu,petsc,klu,mumps]
              [--gpuglu-options "-mat_gpuglu_backend cuda"] [--out results.jsonl] [--device NAME]
              [--info]

--info adds -info :mat to gpuglu's run and prints its gpuglu lines (every solve's time,
refinement steps and backward errors; recoveries): where MatSolve's time goes.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys

EVENTS = ("MatLUFactorSym", "MatLUFactorNum", "MatSolve", "TSStep")


def run(args, solver):
    cmd = [os.environ.get("MPIEXEC", "mpiexec"), "-n", "1", args.exe, "-da_grid_x", str(args.grid), "-da_grid_y",
           str(args.grid), "-ts_max_steps", str(args.steps), "-ksp_type", "preonly", "-pc_type", "lu",
           "-pc_factor_mat_solver_type", solver, "-log_view"]
    if solver == "gpuglu":
        cmd += ["-dll_append", args.plugin] + args.gpuglu_options.split()
        if args.info:
            cmd += ["-info", ":mat"]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % args.timeout
    if proc.returncode != 0:
        return None, proc.stdout[-2000:]
    found = {}
    for event in EVENTS:
        m = re.search(r"^%s\s+(\d+)\s+[\d.]+\s+([0-9.eE+-]+)" % event, proc.stdout, re.M)
        if m:
            found[event] = (int(m.group(1)), 1000.0 * float(m.group(2)))
    m = re.search(r"^Time \(sec\):\s+([0-9.eE+-]+)", proc.stdout, re.M)
    if m:
        found["total"] = (1, 1000.0 * float(m.group(1)))
    if "TSStep" not in found:
        return None, "no TSStep in -log_view:\n" + proc.stdout[-2000:]
    if solver == "gpuglu" and args.info:
        lines = [l for l in proc.stdout.splitlines() if "gpuglu" in l and l.startswith("[")]
        print(f"gpuglu -info ({len(lines)} lines):")
        for l in lines[:60]:
            print("  " + l)
    return found, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--grid", type=int, default=224)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--solvers", default="gpuglu,petsc,klu,mumps")
    ap.add_argument("--gpuglu-options", default="")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="")
    ap.add_argument("--device", default="")
    ap.add_argument("--info", action="store_true")
    args = ap.parse_args()

    results = {}
    for solver in args.solvers.split(","):
        found, why = run(args, solver)
        results[solver] = found
        if found is None:
            print(f"{solver}: failed\n{why}", file=sys.stderr)
    print(f"ts ex5, {args.grid}x{args.grid} grid ({2 * args.grid * args.grid} unknowns), {args.steps} steps (ms; calls)")
    print("%-8s" % "solver" + "".join("%22s" % e for e in EVENTS + ("total",)))
    for solver, found in results.items():
        if found is None:
            print("%-8s failed" % solver)
            continue
        cells = ["%13.1f (%5d)" % found[e][::-1] if e in found else "%22s" % "-" for e in EVENTS + ("total",)]
        print("%-8s" % solver + "".join("%22s" % c for c in cells))
    ours = results.get("gpuglu")
    if not args.out or ours is None:
        return 0 if ours is not None else 1
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    with open(args.out, "a") as f:
        for solver, found in results.items():
            if solver == "gpuglu":
                continue
            record = {"date": date, "device": args.device, "benchmark": "ts_e2e",
                      "matrix": f"ts-ex5:{args.grid}x{args.grid}", "n": 2 * args.grid * args.grid, "nnz": 0,
                      "nnz_factor": 0, "ours": "gpuglu " + args.gpuglu_options.strip(),
                      "ours_ms": ours["TSStep"][1], "peer": solver,
                      "peer_ms": found["TSStep"][1] if found else None, "steps": args.steps}
            for event in EVENTS + ("total",):
                if event in ours:
                    record[f"ours_{event}_ms"], record[f"ours_{event}_calls"] = ours[event][1], ours[event][0]
                if found and event in found:
                    record[f"peer_{event}_ms"], record[f"peer_{event}_calls"] = found[event][1], found[event][0]
            if found is None:
                record["peer_note"] = "failed"
            f.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
