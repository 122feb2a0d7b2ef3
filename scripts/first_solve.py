#!/usr/bin/env python3
"""Issue 27's first_solve benchmark: one linear system through PETSc from the assembled matrix
to its solution (ksp ex10's -ksp_type preonly -pc_type lu: MatLUFactorSymbolic,
MatLUFactorNumeric, MatSolve; b = A * ones), gpuglu against its peers in the same run on the
same machine: MUMPS on all cores (the matrix distributed as MPIAIJ over --mumps-ranks ranks;
a list such as 16,1 runs it on each),
cuDSS from host data, and KLU and PETSc's own LU on one core where that is cheap.

Every (matrix, solver) is a fresh process of bench/gpuglu_first_solve_bench, so that each
solve is its process's first: library loading, lazily loaded GPU code and first-touch memory
are in its time; the CUDA context is not (the program makes it before the clock starts).
gpuglu and the one-rank peers run on one rank (gpuglu with OMP_NUM_THREADS = all cores for its
host parts, KLU and PETSc's LU with 1), MUMPS under $MPIEXEC -n RANKS with one thread per rank.
KLU and PETSc's LU are skipped where gpuglu's factorization needs more than --cheap-flops
flops (their fill is at least as large). The runs' JSON lines go to --runs; each pair (gpuglu's
run, a peer's run) of a matrix becomes a "first_solve" record in --out: ours_ms and peer_ms =
setup (KSPSetUp: symbolic + numeric) + solve (KSPSolve), both sides' split, nnz(L+U), flops,
residual and backward error as ours_* / peer_* extras; the peer's name carries its rank count
(mumps-16r). A failed or skipped peer has peer_ms null and peer_note; a failed gpuglu gives no
records (its run line says why) and its peers are not run. MUMPS runs that end in INFOG(1) = -8
or -9 (workspace too small) are repeated with -mat_mumps_icntl_14 80, then 320, as a user would;
the record's peer_petsc_options and peer_earlier_failures say so.

  first_solve.py --exe build/bench/gpuglu_first_solve_bench [--matrices "SPEC|FILE ..."]
      [--collection DIR] [--solvers gpuglu,mumps,cudss,klu,petsc] [--mumps-ranks N[,M...]]
      [--backend cuda|cpu|auto] [--gpuglu-options "-mat_gpuglu_..."] [--peer-options "-mat_mumps_..."]
      [--cheap-flops 2e10]
      [--timeout 120] [--budget-s 480] [--runs FILE] [--out FILE] [--device NAME]
  first_solve.py --merge RUNS.jsonl [--out FILE]      (records and tables from earlier runs)

--matrices: generator specs (with a colon) and files (.mtx, .mtx.xz; relative ones below
--collection); missing files are skipped. Default: DEFAULT_GENERATED, then every .mtx / .mtx.xz
in the collection's circuit, general, spd and sym-indefinite folders (smallest file first, the
compressed ones last).
MPIEXEC (default mpiexec) and MPIEXEC_ARGS (split on blanks) name the launcher.
"""
import argparse
import datetime
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perf_table  # noqa: E402  (scripts/perf_table.py: the tables' layout)

DEFAULT_GENERATED = ("circuit:200000:2000 powergrid:60000:300 lap3d7:40x40x40 convdiff3d:48x48x48 "
                     "lap3d27:32x32x32 elast3d:16x16x16 lap3d7:64x64x64")
COLLECTION_FOLDERS = ("circuit", "general", "spd", "sym-indefinite")
ONE_RANK_PEERS = ("klu", "petsc", "cudss")
CHEAP_ONLY = ("klu", "petsc")  # serial factorizations: run where gpuglu's flops say they are cheap
# INFOG(1) = -8 or -9: MUMPS's workspace, estimated by its analysis, was too small (pivots
# delayed beyond the estimate). As a user would, the run is repeated with more (ICNTL(14): the
# percentage added; MUMPS's default is 20 or so), twice at most; the record keeps the options.
MUMPS_ICNTL14 = (80, 320)
STANDARD = ("date", "device", "benchmark", "matrix", "kind", "n", "nnz", "nnz_factor", "ours", "ours_ms", "peer",
            "peer_ms", "peer_note")


def matrix_name(spec):
    """The name the program gives a matrix (bench_matrices.cpp): the spec, or the file's stem."""
    base = os.path.basename(spec)
    for tail in (".mtx.xz", ".mtx"):
        if base.endswith(tail) and ":" not in spec:
            return base[: -len(tail)]
    return spec


def matrix_list(args):
    if args.matrices:
        items = args.matrices.split()
    else:
        files = []
        for folder in COLLECTION_FOLDERS:
            for pattern in ("*.mtx", "*.mtx.xz"):
                files += glob.glob(os.path.join(args.collection, folder, pattern))
        # Smallest first, compressed ones (G3_circuit) last: an overrun of the budget cuts the largest.
        items = DEFAULT_GENERATED.split() + sorted(files, key=lambda f: (f.endswith(".xz"), os.path.getsize(f)))
    out = []
    for m in items:
        if ":" in m:
            out.append(m)
            continue
        path = m if os.path.isabs(m) or os.path.exists(m) else os.path.join(args.collection, m)
        if os.path.exists(path):
            out.append(path)
        else:
            print(f"first_solve: {m} not found (collection {args.collection}): skipped", flush=True)
    return out


def default_device(backend):
    if backend != "cpu":
        try:
            name = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                                  text=True, timeout=30).stdout.splitlines()
            if name and name[0].strip():
                return name[0].strip()
        except (OSError, subprocess.TimeoutExpired):
            pass
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


class Runner:
    def __init__(self, args):
        self.args = args
        self.deadline = time.monotonic() + args.budget_s if args.budget_s else None

    def run(self, matrix, solver, ranks, more_options=""):
        """Runs one first solve; returns None, or why no run line came (timed out, crashed)."""
        a = self.args
        timeout = a.timeout
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left < 10:
                return "skipped: the budget (--budget-s) is spent"
            timeout = min(timeout, int(left))
        cmd = [a.exe, "--matrix", matrix, "--solver", solver, "--backend", a.backend, "--out", a.runs,
               "--device", a.device]
        env = dict(os.environ)
        if solver == "gpuglu":
            env["OMP_NUM_THREADS"] = str(os.cpu_count())
            if a.gpuglu_options:
                cmd += ["--petsc-options", a.gpuglu_options]
        else:
            env["OMP_NUM_THREADS"] = "1"
            options = " ".join(o for o in (a.peer_options, more_options) if o)
            if options:
                cmd += ["--petsc-options", options]
        if ranks > 1:
            cmd = ([os.environ.get("MPIEXEC", "mpiexec"), "-n", str(ranks)] +
                   shlex.split(os.environ.get("MPIEXEC_ARGS", "")) + cmd)
        lines_before = count_lines(a.runs)
        t0 = time.monotonic()
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                                  timeout=timeout)
            output, why = proc.stdout, None if proc.returncode == 0 else f"exit {proc.returncode}"
        except subprocess.TimeoutExpired as e:
            output = e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace")
            why = f"timed out after {timeout} s"
        if a.verbose:
            print(f"$ {shlex.join(cmd)}  ({time.monotonic() - t0:.1f} s)", flush=True)
        for line in output.splitlines():
            if line.startswith(matrix_name(matrix) + " ") or "FAILED" in line:
                print(line, flush=True)
        if count_lines(a.runs) > lines_before:
            return None
        tail = " ".join(output.strip().splitlines()[-3:])[-400:]
        return f"{why or 'no run line'}: {tail}" if tail else (why or "no run line")


def count_lines(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for _ in f)


def append_failure(args, matrix, solver, ranks, why):
    """A run line for a run that wrote none (timed out, crashed, skipped), so the merge sees it."""
    line = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"), "device": args.device,
            "benchmark": "first_solve_run", "matrix": matrix_name(matrix), "kind": "", "n": 0, "nnz": 0,
            "nnz_factor": 0, "ours": solver if solver != "gpuglu" else "gpuglu-" + args.backend, "ours_ms": None,
            "peer": "", "peer_ms": None, "solver": solver, "ranks": ranks, "failure": why}
    with open(args.runs, "a") as f:
        f.write(json.dumps(line) + "\n")


def last_run(path, matrix, solver, ranks):
    found = None
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("benchmark") == "first_solve_run" and r["matrix"] == matrix_name(matrix) and \
                    r.get("solver") == solver and int(r.get("ranks", 1)) == ranks:
                found = r
    return found


def measure(args):
    matrices = matrix_list(args)
    solvers = args.solvers.split(",")
    runner = Runner(args)
    failures = 0
    for matrix in matrices:
        ours = None
        if "gpuglu" in solvers:
            why = runner.run(matrix, "gpuglu", 1)
            if why:
                append_failure(args, matrix, "gpuglu", 1, why)
            ours = last_run(args.runs, matrix, "gpuglu", 1)
            if ours is None or ours.get("failure"):
                print(f"first_solve: gpuglu failed on {matrix_name(matrix)}: "
                      f"{(ours or {}).get('failure', why)}; its peers are not run", flush=True)
                failures += 1
                continue
        runs = [(s, r) for s in solvers if s != "gpuglu"
                for r in ([1] if s in ONE_RANK_PEERS else [int(x) for x in str(args.mumps_ranks).split(",")])]
        for solver, ranks in runs:
            flops = (ours or {}).get("factor_flops")
            if solver in CHEAP_ONLY and flops is not None and flops > args.cheap_flops:
                append_failure(args, matrix, solver, ranks,
                               f"skipped: gpuglu's factorization takes {flops:.3g} flops (--cheap-flops "
                               f"{args.cheap_flops:.3g}); a one-core {solver} would take minutes")
                continue
            more = ""
            for icntl14 in MUMPS_ICNTL14 + (None,):
                why = runner.run(matrix, solver, ranks, more)
                if why:
                    append_failure(args, matrix, solver, ranks, why)
                    break
                failure = last_run(args.runs, matrix, solver, ranks).get("failure", "")
                if solver != "mumps" or icntl14 is None or not re.search(r"INFOG\(1\) = -(8|9)\b", failure):
                    break
                more = f"-mat_mumps_icntl_14 {icntl14}"
                print(f"first_solve: MUMPS's workspace was too small ({failure}); again with {more}", flush=True)
    return failures


def merge(runs_path):
    """first_solve records: per (device, matrix), the newest gpuglu run against each peer's newest."""
    latest, earlier = {}, {}
    with open(runs_path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            if r.get("benchmark") != "first_solve_run":
                continue
            key = (r["device"], r["matrix"], r.get("solver"), int(r.get("ranks", 1)))
            if key in latest and latest[key].get("failure"):
                earlier.setdefault(key, []).append(latest[key]["failure"])
            latest[key] = r
    records = []
    for (device, matrix, solver, ranks), ours in latest.items():
        if solver != "gpuglu" or ours.get("failure") or ours.get("ours_ms") is None:
            continue
        for (d2, m2, peer_solver, peer_ranks), p in latest.items():
            if (d2, m2) != (device, matrix) or peer_solver == "gpuglu":
                continue
            ok = not p.get("failure") and p.get("ours_ms") is not None
            rec = {"date": max(ours["date"], p["date"]), "device": device, "benchmark": "first_solve",
                   "matrix": matrix, "kind": ours["kind"], "n": ours["n"], "nnz": ours["nnz"],
                   "nnz_factor": ours["nnz_factor"], "ours": ours["ours"], "ours_ms": ours["ours_ms"],
                   "peer": peer_solver + (f"-{peer_ranks}r" if peer_ranks > 1 else ""),
                   "peer_ms": p["ours_ms"] if ok else None, "warmup": 0, "repeat": 1}
            if not ok:
                rec["peer_note"] = p.get("failure") or "failed"
            for side, run in (("ours", ours), ("peer", p)):
                for key, value in run.items():
                    if key not in STANDARD:
                        rec[f"{side}_{key}"] = value
            rec["peer_nnz_factor"] = p.get("nnz_factor", 0)
            if earlier.get((d2, m2, peer_solver, peer_ranks)):  # e.g. MUMPS before a larger ICNTL(14)
                rec["peer_earlier_failures"] = " | ".join(earlier[(d2, m2, peer_solver, peer_ranks)])
            if "levels" in ours:  # perf_table.py's levels column: gpuglu's schedule
                rec["levels"] = ours["levels"]
            records.append(rec)
    return records


def fmt(v, spec):
    return "—" if v is None else format(v, spec)


def detail_table(records):
    """Per matrix and solver: the setup's split, fill, flops and the solve's accuracy."""
    lines = ["| matrix | solver | ranks | total ms | symbolic ms | numeric ms | solve ms | nnz(L+U) | flops | "
             "residual | backward error |", "|" + "---|" * 11]
    seen = set()
    for r in records:
        for side, name in (("ours", r["ours"]), ("peer", r["peer"])):
            if (r["device"], r["matrix"], name) in seen:
                continue
            seen.add((r["device"], r["matrix"], name))
            get = lambda k: r.get(f"{side}_{k}")  # noqa: E731
            fill = r["nnz_factor"] if side == "ours" else r.get("peer_nnz_factor")
            total = r["ours_ms"] if side == "ours" else r["peer_ms"]
            if total is None:
                lines.append(f"| {r['matrix']} | {name} | {get('ranks')} | {r.get('peer_note', 'failed')[:80]} "
                             "|  |  |  |  |  |  |  |")
                continue
            lines.append(f"| {r['matrix']} | {name} | {get('ranks')} | {total:.4g} | {fmt(get('symbolic_ms'), '.4g')} "
                         f"| {fmt(get('numeric_ms'), '.4g')} | {fmt(get('solve_ms'), '.4g')} | "
                         f"{fill if fill else '—'} | {fmt(get('factor_flops'), '.3g')} | "
                         f"{fmt(get('residual'), '.1e')} | {fmt(get('backward_error'), '.1e')} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--exe")
    ap.add_argument("--matrices", default="")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--collection", default=os.path.normpath(os.path.join(here, "..", "..", "shared", "collection")))
    ap.add_argument("--solvers", default="gpuglu,mumps,cudss,klu,petsc")
    ap.add_argument("--mumps-ranks", default=str(os.cpu_count()),
                    help="rank counts of the multi-rank peers (MUMPS), comma-separated: 16 or 16,1")
    ap.add_argument("--backend", default="cuda", choices=("cuda", "cpu", "auto"))
    ap.add_argument("--gpuglu-options", default="", help="PETSc options of gpuglu's runs (-mat_gpuglu_...)")
    ap.add_argument("--peer-options", default="", help="PETSc options of the peers' runs (-mat_mumps_icntl_14 ...)")
    ap.add_argument("--cheap-flops", type=float, default=2e10)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--budget-s", type=float, default=0, help="all runs together; 0: no limit")
    ap.add_argument("--runs", default="first_solve_runs.jsonl")
    ap.add_argument("--out", default="", help="where the first_solve records are appended")
    ap.add_argument("--device", default="")
    ap.add_argument("--merge", metavar="RUNS", help="only merge these run lines into records and tables")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    failures = 0
    if args.merge:
        runs = args.merge
    else:
        if not args.exe:
            ap.error("--exe is needed unless --merge is given")
        args.device = args.device or default_device(args.backend)
        failures = measure(args)
        runs = args.runs
    records = merge(runs)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "a") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    print(perf_table.render(records))
    print(detail_table(records))
    return 1 if failures or not records else 0


if __name__ == "__main__":
    sys.exit(main())
