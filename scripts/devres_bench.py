#!/usr/bin/env python3
"""Issue 15's device-resident benchmarks through PETSc: bench/petsc_devres_bench run once
per configuration (same program, same problem, same machine, one after the other), its own
timing line and -log_view parsed into JSONL records.

  ilu_gmres: ILU(0)-GMRES(30) to rtol 1e-8, a round = new values (MatScale) + KSPSolve.
    ours  gpuglu on MATAIJCUSPARSE / CUDA vectors (-mat_gpuglu_backend cuda): everything on
          the GPU (GMRES by PETSc's CUDA vectors, ILU(0) and its solves by gpuglu)
    peers petsc_ilu           PETSc's ILU(0), host Mat/Vec (one core)
          petsc_cusparse_ilu  PETSc's cuSPARSE ILU(0) (MATSOLVERCUSPARSE), AIJCUSPARSE / CUDA
          gpuglu_host         gpuglu's GPU ILU(0) with host Mat/Vec (GMRES on the host: issue 4's setup)
  lu: LU refactorization + one solve per round (KSPPREONLY, PCLU), gpuglu on the GPU
    ours  gpuglu on MATAIJCUSPARSE / CUDA vectors (values and vectors stay on the device)
    peers gpuglu_host         the same gpuglu with host Mat/Vec (values and vectors copied)

Records: benchmark "ilu_gmres" (peers as above; field "device_resident": true) and
"lu_devres"; ours_ms / peer_ms = median of the rounds (ms); extras: iterations, first
round, and from -log_view the calls and the CpuToGpu / GpuToCpu copies of MatSolve,
MatLUFactorNum, PCApply and KSPSolve ("ours_copies"/"peer_copies"), so that the claim "no
copies per solve" is in the record.

With --ranks N (N > 1) every configuration runs under mpiexec on N ranks, each owning an
equal block of rows: ILU(0) becomes block Jacobi, one ILU(0) block per rank, each package
chosen for the blocks (-sub_pc_factor_mat_solver_type; issue 29's "4 ranks, ~1e6 unknowns,
device-resident against PETSc's CPU ILU on the same ranks"), LU the gathered factor. The
ranks share the GPU(s) the machine shows. MPIEXEC names the launcher (default mpiexec),
MPIEXEC_ARGS (split on blanks) its arguments.

  devres_bench.py --exe build/bench/petsc_devres_bench [--mode ilu_gmres,lu] [--ranks 1]
      [--ilu-problems convdiff3d:100x100x100] [--lu-problems circuit:200000:2000]
      [--rounds 3] [--warmup 1] [--out results.jsonl] [--device NAME] [--timeout 300]
      [--deadline-s S]  (no run starts after S seconds; a later one runs at most until then:
                         what is left is recorded as skipped, the records written so far stay)
      [--smoke]   (tiny problems, checks only that every configuration runs and parses)
"""
import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import time

EVENTS = ("KSPSolve", "PCSetUp", "PCApply", "MatSolve", "MatLUFactorNum", "MatMult")

GPU = ["-mat_type", "aijcusparse", "-vec_type", "cuda"]
HOST = ["-mat_type", "aij", "-vec_type", "standard"]
GPUGLU = ["-pc_factor_mat_solver_type", "gpuglu", "-mat_gpuglu_backend", "cuda"]
CONFIGS = {
    "ilu_gmres": [
        ("gpuglu_device", GPU + GPUGLU),
        ("petsc_cusparse_ilu", GPU + ["-pc_factor_mat_solver_type", "cusparse"]),
        ("petsc_ilu", HOST + ["-pc_factor_mat_solver_type", "petsc"]),
        ("gpuglu_host", HOST + GPUGLU),
    ],
    "lu": [
        ("gpuglu_device", GPU + GPUGLU),
        ("gpuglu_host", HOST + GPUGLU),
    ],
}
OURS_NAME = "gpuglu-cuda-device-resident"
BENCHMARK = {"ilu_gmres": "ilu_gmres", "lu": "lu_devres"}


def parse_log_view(text):
    """{event: {"calls", "ms" (None where -log_view shows n/a), "to_gpu", "to_cpu"}} from the
    event lines of -log_view (a CUDA PETSc's lines end with GPU Mflop/s, CpuToGpu count and
    size, GpuToCpu count and size, GPU %F). Events of several stages are summed."""
    found = {}
    for line in text.splitlines():
        tok = line.split()
        if len(tok) < 12 or tok[0] not in EVENTS or not tok[1].isdigit():
            continue
        e = found.setdefault(tok[0], {"calls": 0, "ms": 0.0, "to_gpu": 0.0, "to_cpu": 0.0})
        e["calls"] += int(tok[1])
        try:
            e["ms"] = None if e["ms"] is None else e["ms"] + 1000.0 * float(tok[3])
        except ValueError:
            e["ms"] = None  # n/a: GPU runs time events only with -log_view_gpu_time
        try:
            e["to_gpu"] += float(tok[-5])
            e["to_cpu"] += float(tok[-3])
        except ValueError:
            pass
    return found


def block_options(options):
    """A single-rank configuration's options for bjacobi's blocks: the factor's package and
    gpuglu's own options move under the blocks' prefix, sub_."""
    return ["-sub" + o[1:] if o.startswith(("-pc_factor_", "-mat_gpuglu_")) else o for o in options]


def run(args, mode, problem, options):
    left = args.deadline_s - (time.time() - args.start) if args.deadline_s else args.timeout
    if left <= 5:
        return None, "skipped: deadline"
    if args.ranks > 1 and mode == "ilu_gmres":
        options = block_options(options)
    launch = []
    if args.ranks > 1:
        launch = [os.environ.get("MPIEXEC", "mpiexec"), "-n", str(args.ranks)] + shlex.split(os.environ.get("MPIEXEC_ARGS", ""))
    cmd = launch + [args.exe, "-mode", mode, "-problem", problem, "-rounds", str(args.rounds), "-warmup", str(args.warmup),
           "-log_view"] + options
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=min(args.timeout, left))
    except subprocess.TimeoutExpired:
        return None, f"timed out after {min(args.timeout, left):.0f} s"
    m = re.search(r"^devres: (\{.*\})\s*$", proc.stdout, re.M)
    if proc.returncode != 0 or not m:
        return None, f"exit {proc.returncode}:\n" + proc.stdout[-3000:]
    result = json.loads(m.group(1))
    result["events"] = parse_log_view(proc.stdout)
    result["options"] = " ".join(options)
    return result, ""


def copies(result):
    return {e: {"calls": v["calls"], "to_gpu": v["to_gpu"], "to_cpu": v["to_cpu"]}
            for e, v in result["events"].items() if e in ("MatSolve", "MatLUFactorNum", "PCApply", "KSPSolve")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--mode", default="ilu_gmres,lu")
    ap.add_argument("--ilu-problems", default="convdiff3d:100x100x100")
    ap.add_argument("--lu-problems", default="circuit:200000:2000")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--out", default="")
    ap.add_argument("--device", default="")
    ap.add_argument("--deadline-s", type=float, default=0)
    ap.add_argument("--ranks", type=int, default=1)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    args.start = time.time()
    if args.smoke:
        # The CTest smoke run (label gpu): skipped (77) where no GPU answers.
        try:
            subprocess.run(["nvidia-smi", "-L"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError):
            print("devres_bench.py --smoke: no GPU (nvidia-smi -L fails): skipped")
            return 77
        args.ilu_problems, args.lu_problems, args.rounds, args.warmup = "convdiff3d:12x10x8", "circuit:2000:20", 1, 0

    status = 0
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    for mode in args.mode.split(","):
        problems = (args.ilu_problems if mode == "ilu_gmres" else args.lu_problems).split(",")
        for problem in problems:
            results, notes = {}, {}
            for name, options in CONFIGS[mode]:
                result, why = run(args, mode, problem, options)
                results[name] = result
                if result is None:
                    notes[name] = why.splitlines()[0] if why else "failed"
                    print(f"{mode} {problem} {name}: {why}", file=sys.stderr)
                    if not why.startswith("skipped"):
                        status = 1
                    continue
                ev = result["events"].get("MatSolve", {})
                print(f"{mode:9s} {problem:24s} {name:19s} median {result['median_ms']:10.2f} ms  first "
                      f"{result['first_ms']:10.2f} ms  its {result['iterations']:4d}  {result['mat_type']}/"
                      f"{result['vec_type']}  MatSolve {ev.get('calls', 0)} calls, copies "
                      f"{ev.get('to_gpu', 0):g} up {ev.get('to_cpu', 0):g} down  error {result['rel_error']:.1e}")
            ours = results.get("gpuglu_device")
            if ours is None or not args.out:
                continue
            with open(args.out, "a") as f:
                for name, _ in CONFIGS[mode]:
                    if name == "gpuglu_device":
                        continue
                    peer = results.get(name)
                    # Several ranks: the problem's name says how it was split, as mpi_bench.py's records do.
                    name = problem if args.ranks == 1 else f"{problem}:np{args.ranks}" + (":bjacobi" if mode == "ilu_gmres" else "")
                    record = {"date": date, "device": args.device, "benchmark": BENCHMARK[mode], "matrix": name,
                              "kind": "generated", "n": ours["n"], "nnz": ours["nnz"], "nnz_factor": 0,
                              "ours": OURS_NAME, "ours_ms": ours["median_ms"], "peer": name,
                              "peer_ms": peer["median_ms"] if peer else None, "device_resident": True,
                              "repeat": args.rounds, "warmup": args.warmup,
                              "ours_first_ms": ours["first_ms"], "ours_iterations": ours["iterations"],
                              "ours_rel_error": ours["rel_error"], "ours_options": ours["options"],
                              "ours_copies": copies(ours)}
                    if mode == "ilu_gmres":
                        record.update({"restart": 30, "rtol": 1e-8, "ranks": args.ranks, "ours_ranks": args.ranks,
                                       "pc": "bjacobi" if args.ranks > 1 else "ilu"})
                    elif args.ranks > 1:
                        record.update({"ranks": args.ranks, "ours_ranks": args.ranks})
                    if peer:
                        record.update({"peer_first_ms": peer["first_ms"], "peer_iterations": peer["iterations"],
                                       "peer_rel_error": peer["rel_error"], "peer_options": peer["options"],
                                       "peer_copies": copies(peer)})
                    else:
                        record["peer_note"] = notes.get(name, "failed")
                    f.write(json.dumps(record) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
