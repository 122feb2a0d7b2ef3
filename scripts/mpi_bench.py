#!/usr/bin/env python3
"""gpuglu under MPI (issue 16's benchmark): PETSc tutorials built unmodified, every solver run
in the same invocation on the same ranks.

--mode lu: SNES ex14 (3-D Bratu, 7-point stencil on a DMDA, Newton with an analytic Jacobian:
every Newton step refactors the same pattern with new values) with -pc_type lu, per solver and
rank count: gpuglu (the MPIAIJ matrix gathered to rank 0 and factored there, on its GPU with
-mat_gpuglu_backend cuda) against MUMPS and SuperLU_DIST on the same ranks. Per call, from
rank 0's -log_trace: the first factorization (the first PCSetUp: MatLUFactorSym + the first
MatLUFactorNum), the refactorizations (the later PCSetUp calls), MatSolve; inside each, the
time moving data (MatCreateSubMats: gpuglu's gather of A; VecScatterBegin/End: the right-hand
side to the root and the solution back). PCSetUp, KSPSolve and SNESSolve totals from the same
trace. Records "benchmark": "mpi_lu", one per gpuglu variant, peer and rank count; ours_ms /
peer_ms are the linear solver's whole time in the Newton solve (PCSetUp + KSPSolve: every
factorization and solve). A closing line per rank count says whether gathering paid.

--mode dd: the PETSc ways past one factor, one example each, gpuglu against the same
configuration with PETSc's own LU/ILU (sequential blocks) or MUMPS (parallel blocks):
bjacobi/asm/gasm with an LU or ILU(0) per subdomain and GAMG with a gathered coarse LU on
ex14, fieldsplit with an LU per field block on SNES ex19 (2-D driven cavity, 4 fields).
PCSetUp + KSPSolve time (-log_view, max over ranks) and Krylov iterations. Records
"benchmark": "mpi_dd".
--mode small: one rank, ex14 on small grids (--small-grids) with -pc_type lu or ilu,
gpuglu (and --reference-plugin's build) against PETSc's own, --rounds fresh processes per side
alternating: the whole run as -log_view's Time (sec) counts it, medians. Records
"benchmark": "small_runs".

  mpi_bench.py --mode lu --ex14 bench/petsc_snes_ex14 --plugin petsc_plugin/libpetscgpuglu.so
               [--grid 400x400x6] [--ranks 4,8,16] [--solvers gpuglu,mumps,superlu_dist,gpuglu+supernodal@16]
               [--gpuglu-options "-mat_gpuglu_backend cuda"] [--timeout 240] [--budget-s S]
               [--out results.jsonl] [--device NAME] [--verbose]
  mpi_bench.py --mode dd --ex14 ... --ex19 bench/petsc_snes_ex19 --plugin ... [--grid 40x40x40]
               [--ex19-grid 128x128] [--dd-ranks 4] [--configs bjacobi_lu,asm_lu,gasm_lu,bjacobi_ilu,gamg_coarse,fieldsplit]
  mpi_bench.py --mode small --ex14 ... --plugin ... [--small-grids 5x5x5,10x10x10] [--small-pcs lu,ilu]
               [--rounds 3] [--reference-plugin DIR/libpetscgpuglu.so] [--gpuglu-variants 'cpu=-mat_gpuglu_backend cpu']
MPIEXEC (default mpiexec) and MPIEXEC_ARGS (split on blanks) name the launcher; MPIEXEC_WRAPPER a
program each rank runs the example under.
"""
import argparse
import datetime
import json
import os
import re
import shlex
import subprocess
import statistics
import sys
import tempfile
import time

LOG_EVENTS = ("MatLUFactorSym", "MatLUFactorNum", "MatSolve", "PCSetUp", "KSPSolve", "SNESSolve",
              "MatCreateSubMats", "VecScatterBegin", "VecScatterEnd")
MOVE_EVENTS = ("MatCreateSubMats", "VecScatterBegin", "VecScatterEnd")

# --mode dd: name -> (program, options common to both sides, the option(s) naming the
# sub-solver's package, the peer package).
# Krylov tolerances are the same on both sides, so iterations compare.
DD_CONFIGS = {
    "bjacobi_lu": ("ex14", "-ksp_type gmres -ksp_rtol 1e-8 -pc_type bjacobi -sub_pc_type lu",
                   "-sub_pc_factor_mat_solver_type", "petsc"),
    "asm_lu": ("ex14", "-ksp_type gmres -ksp_rtol 1e-8 -pc_type asm -pc_asm_overlap 1 -sub_pc_type lu",
               "-sub_pc_factor_mat_solver_type", "petsc"),
    "gasm_lu": ("ex14", "-ksp_type gmres -ksp_rtol 1e-8 -pc_type gasm -pc_gasm_overlap 1 -sub_pc_type lu",
                "-sub_pc_factor_mat_solver_type", "petsc"),
    # Many small factors per rank (issue 29's batching question): eight LU blocks per rank.
    "bjacobi_lu_blocks": ("ex14", "-ksp_type gmres -ksp_rtol 1e-8 -pc_type bjacobi -pc_bjacobi_local_blocks 8 "
                          "-sub_pc_type lu", "-sub_pc_factor_mat_solver_type", "petsc"),
    "bjacobi_ilu": ("ex14", "-ksp_type gmres -ksp_rtol 1e-8 -pc_type bjacobi -sub_pc_type ilu",
                    "-sub_pc_factor_mat_solver_type", "petsc"),
    # GAMG's coarse grid kept larger than its default (50 rows) so that its LU is real work;
    # its coarse matrix is parallel (MPIAIJ), so the gpuglu side is the gathered factor.
    "gamg_coarse": ("ex14", "-ksp_type gmres -ksp_rtol 1e-8 -pc_type gamg -pc_gamg_coarse_eq_limit 20000 "
                    "-mg_coarse_ksp_type preonly -mg_coarse_pc_type lu",
                    "-mg_coarse_pc_factor_mat_solver_type", "mumps"),
    # The same subdomain solvers on ex19's 2-D grid (4 fields per point), where subdomains of
    # 1e5 unknowns and more (issue 29's larger dd_defaults) keep PETSc's own LU affordable.
    "bjacobi_lu_2d": ("ex19", "-ksp_type fgmres -ksp_rtol 1e-8 -pc_type bjacobi -sub_pc_type lu",
                      "-sub_pc_factor_mat_solver_type", "petsc"),
    "asm_lu_2d": ("ex19", "-ksp_type fgmres -ksp_rtol 1e-8 -pc_type asm -pc_asm_overlap 1 -sub_pc_type lu",
                  "-sub_pc_factor_mat_solver_type", "petsc"),
    # ex19's velocities + vorticity in one block, temperature in the other, each factored
    # whole (parallel blocks: gathered gpuglu against MUMPS), as ex19's own fieldsplit_3 test.
    "fieldsplit": ("ex19", "-ksp_type fgmres -ksp_rtol 1e-8 -pc_type fieldsplit -pc_fieldsplit_block_size 4 "
                   "-pc_fieldsplit_type multiplicative -pc_fieldsplit_0_fields 0,1,2 -pc_fieldsplit_1_fields 3 "
                   "-fieldsplit_0_ksp_type preonly -fieldsplit_0_pc_type lu "
                   "-fieldsplit_1_ksp_type preonly -fieldsplit_1_pc_type lu",
                   "-fieldsplit_0_pc_factor_mat_solver_type -fieldsplit_1_pc_factor_mat_solver_type", "mumps"),
}


def parse_trace(path):
    """Rank 0's -log_trace as a forest of (name, begin, end, children), times in ms."""
    roots, stack = [], []
    pat = re.compile(r"\[\d+\]\s+([0-9.eE+-]+)\s+Event (begin|end):\s+(\S+)")
    with open(path) as f:
        for line in f:
            m = pat.search(line)
            if not m:
                continue
            t, kind, name = 1000.0 * float(m.group(1)), m.group(2), m.group(3)
            if kind == "begin":
                node = [name, t, None, []]
                (stack[-1][3] if stack else roots).append(node)
                stack.append(node)
            elif stack and stack[-1][0] == name:
                stack.pop()[2] = t
    return roots


def calls(roots, name):
    """Durations (ms) of the outermost calls of `name`, and the data-moving time inside each."""
    out = []

    def walk(nodes, in_same):
        for node in nodes:
            if node[0] == name and not in_same:
                if node[2] is not None:
                    out.append((node[2] - node[1], moving(node[3])))
                walk(node[3], True)
            else:
                walk(node[3], in_same)

    walk(roots, False)
    return out


def moving(nodes, in_move=False):
    """ms spent in the outermost gather/scatter events below these nodes."""
    total = 0.0
    for node in nodes:
        if node[0] in MOVE_EVENTS and not in_move and node[2] is not None:
            total += node[2] - node[1]
        else:
            total += moving(node[3], in_move or node[0] in MOVE_EVENTS)
    return total


def mean(values):
    return sum(values) / len(values) if values else None


def parse_log_view(text):
    found = {}
    for event in LOG_EVENTS:
        m = re.search(r"^%s\s+(\d+)\s+[\d.]+\s+([0-9.eE+-]+)" % event, text, re.M)
        if m:
            found[event] = (int(m.group(1)), 1000.0 * float(m.group(2)))
    return found


def parse_view(text):
    """n, nnz(A), nnz of the factor and the Krylov iterations from -snes_view."""
    info = {}
    # The last one is the outer KSP's (sub-solvers, multigrid levels and splits print theirs first).
    found = list(re.finditer(r"linear system matrix(?: = precond matrix)?:\s*\n\s*Mat Object:.*\n(?:.*type:.*\n)?"
                             r"\s*rows=(\d+), cols=\d+.*\n(?:.*\n)??\s*total: nonzeros=(\d+)", text))
    if found:
        m = found[-1]
        info["n"], info["nnz"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"Factored matrix follows:(?:.*\n){1,6}?\s*total: nonzeros=(\d+)", text)
    if m and int(m.group(1)) > 0:
        info["nnz_factor"] = int(m.group(1))
    m = re.search(r"total number of linear solver iterations=(\d+)", text)
    if m:
        info["iterations"] = int(m.group(1))
    m = re.search(r"Number of SNES iterations = (\d+)", text)
    if m:
        info["newton"] = int(m.group(1))
    m = re.search(r"Nonlinear solve (converged|did not converge)[^\n]*", text)
    if m:
        info["snes_reason"] = m.group(0).strip()
    # PETSc's own account of the whole run (PetscInitialize to PetscFinalize, -dll_append's load
    # included), and the nonlinear residual's reduction where -snes_monitor printed it.
    m = re.search(r"^Time \(sec\):\s+([0-9.eE+-]+)", text, re.M)
    if m:
        info["petsc_time_ms"] = 1000.0 * float(m.group(1))
    norms = [float(x) for x in re.findall(r"SNES Function norm\s+([0-9.eE+-]+)", text)]
    if len(norms) > 1 and norms[0] > 0:
        info["snes_residual_reduction"] = norms[-1] / norms[0]
    return info


STARTED = time.time()


def error_summary(text):
    """PETSc's error messages and call stacks, rank 0's first, without the version and configure
    lines; else the output's tail."""
    skip = ("See https", "Petsc Release", "Configure options", "Libraries linked", "Option left", "----")
    lines = [l for l in text.splitlines() if "PETSC ERROR:" in l and not any(k in l for k in skip)]
    lines.sort(key=lambda l: not l.startswith("[0]"))  # rank 0's first: the gathered factor's root
    return "\n".join(lines[:12]) if lines else text[-2000:]


def run(args, ranks, exe, options, trace=False, env=None):
    """One mpiexec run (env: its environment, default this one's); returns (measurements, None)
    or (None, why)."""
    timeout = args.timeout
    if args.budget_s:
        left = args.budget_s - (time.time() - STARTED)
        if left < 10:
            return None, f"skipped: the budget ({args.budget_s:g} s) is spent"
        timeout = min(timeout, left)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [os.environ.get("MPIEXEC", "mpiexec"), "-n", str(ranks)] + shlex.split(os.environ.get("MPIEXEC_ARGS", ""))
        # -log_view and -log_trace exclude each other (the one set up last takes PETSc's event
        # handlers; the other stays empty): a traced run takes its totals from the trace.
        # MPIEXEC_WRAPPER (split on blanks): a program each rank runs the example under
        # (scripts/gpuglu_rank_gpu.sh).
        cmd += shlex.split(os.environ.get("MPIEXEC_WRAPPER", ""))
        cmd += [exe] + options + ["-snes_view", "-snes_converged_reason"]
        cmd += ["-log_trace", os.path.join(tmp, "trace")] if trace else ["-log_view"]
        start = time.time()
        # SIGTERM first on a timeout: mpiexec then ends its ranks (a SIGKILL would orphan them).
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        try:
            stdout, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.communicate(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
            return None, f"timed out: after {timeout:.0f} s"
        wall = time.time() - start
        if args.verbose:
            print("$ " + " ".join(shlex.quote(c) for c in cmd) + f"\n  ({wall:.1f} s)", file=sys.stderr)
        if proc.returncode != 0:
            return None, f"exit {proc.returncode}:\n" + error_summary(stdout)
        found = {"wall_s": wall}
        found.update(parse_view(stdout))
        if "did not" in found.get("snes_reason", "did not"):
            return None, found.get("snes_reason", "no SNES converged reason") + "\n" + stdout[-1500:]
        if trace:
            path = os.path.join(tmp, "trace.0")
            if not os.path.exists(path):
                return None, "no -log_trace file of rank 0"
            roots = parse_trace(path)
            found["setup"], found["sym"], found["solve"] = (calls(roots, e) for e in
                                                           ("PCSetUp", "MatLUFactorSym", "MatSolve"))
            # rank 0's totals (the factor's root; the other ranks wait for it in the same calls)
            found["log"] = {e: (len(c), sum(d for d, _ in c)) for e in ("PCSetUp", "KSPSolve", "SNESSolve")
                            for c in [calls(roots, e)] if c}
        else:
            found["log"] = parse_log_view(stdout)
        if "KSPSolve" not in found["log"]:
            return None, "no KSPSolve in the log:\n" + stdout[-2000:]
        return found, None


def lu_phases(found):
    """The phases of one -pc_type lu run, in ms, from rank 0's trace: per call, and totals."""
    # One PCSetUp per Newton step, each one factorization: the first MatLUFactorSym +
    # MatLUFactorNum, then MatLUFactorNum alone (SuperLU_DIST's interface logs its
    # factorization as one MatLUFactor event instead, so PCSetUp is the common measure).
    setup, sym, solve, log = found["setup"], found["sym"], found["solve"], found["log"]
    p = {"newton": found.get("newton"), "wall_s": round(found["wall_s"], 2)}
    if setup:
        p["first_factor_ms"], p["first_factor_move_ms"] = setup[0]
    if sym:
        p["symbolic_ms"] = sym[0][0]
    if len(setup) > 1:
        p["refactor_ms"] = mean([c[0] for c in setup[1:]])
        p["refactor_move_ms"] = mean([c[1] for c in setup[1:]])
    p["refactor_calls"] = max(0, len(setup) - 1)
    if solve:
        p["solve_ms"] = mean([c[0] for c in solve])
        p["solve_move_ms"] = mean([c[1] for c in solve])
    p["solve_calls"] = len(solve)
    for event in ("PCSetUp", "KSPSolve", "SNESSolve"):
        if event in log:
            p[f"{event}_ms"] = log[event][1]
    if "PCSetUp" in log and "KSPSolve" in log:
        p["linear_ms"] = log["PCSetUp"][1] + log["KSPSolve"][1]
    for key in ("n", "nnz", "nnz_factor"):
        if key in found:
            p[key] = found[key]
    return p


def grid_options(prefix_dims, grid):
    dims = [int(d) for d in grid.split("x")]
    return sum(([f"-da_grid_{axis}", str(d)] for axis, d in zip(prefix_dims, dims)), [])


def solver_options(args, solver, option="-pc_factor_mat_solver_type"):
    """A solver name (gpuglu, gpuglu+ENGINE, mumps, superlu_dist, petsc) as PETSc options."""
    name, _, engine = solver.partition("+")
    opts = []
    for o in option.split():
        opts += [o, name]
    if name == "gpuglu":
        opts += ["-dll_append", args.plugin] + shlex.split(args.gpuglu_options)
        if engine:
            opts += ["-mat_gpuglu_lu_engine", engine]
    return opts


def note_of(why):
    """skipped (the budget is spent), timed out, or failed: what a record's peer_note says."""
    return next((n for n in ("skipped", "timed out") if why.startswith(n)), "failed")


def fmt(v, width=10, digits=1):
    return ("%*.*f" % (width, digits, v)) if isinstance(v, (int, float)) else "%*s" % (width, "-")


def mode_lu(args):
    base = grid_options("xyz", args.grid) + ["-ksp_type", "preonly", "-pc_type", "lu"]
    solvers = args.solvers.split(",")
    results, notes = {}, {}
    first = True
    for ranks in [int(r) for r in args.ranks.split(",")]:
        for entry in solvers:
            # NAME@R1/R2: that solver on those rank counts only
            solver, _, only = entry.partition("@")
            if only and str(ranks) not in only.split("/"):
                continue
            found, why = run(args, ranks, args.ex14, base + solver_options(args, solver), trace=True)
            results[(ranks, solver)] = lu_phases(found) if found else None
            if found is None:
                notes[(ranks, solver)] = note_of(why)
                print(f"{solver} on {ranks} ranks: {why}", file=sys.stderr)
            print_lu_row(ranks, solver, results[(ranks, solver)], notes.get((ranks, solver)), first)
            first = False
            sys.stdout.flush()
    n = next((r["n"] for r in results.values() if r and "n" in r), None)
    print(f"(ms, rank 0; first = first PCSetUp (MatLUFactorSym + MatLUFactorNum), refactor and solve = mean per call; "
          f"[move] = gather/scatter inside: MatCreateSubMats, VecScatter; linear = PCSetUp + KSPSolve; n = {n})")
    print_verdicts(results)
    if args.out:
        write_records(args, results, notes, "mpi_lu", lambda p: p.get("linear_ms"))
    # A gpuglu run that failed fails the benchmark; one the budget skipped or cut short does not.
    return 1 if any(note == "failed" for (_, s), note in notes.items() if s.startswith("gpuglu")) else 0


def print_verdicts(results):
    """Per rank count and gpuglu variant: its linear time against the fastest peer's, and how much
    of it moved data (the gather of A and the vectors' scatters: what gathering costs)."""
    for (ranks, solver), ours in results.items():
        if not solver.startswith("gpuglu") or not ours or "linear_ms" not in ours:
            continue
        peers = [(p["linear_ms"], name) for (r, name), p in results.items()
                 if r == ranks and not name.startswith("gpuglu") and p and "linear_ms" in p]
        moved = (ours.get("first_factor_move_ms") or 0) + ours["refactor_calls"] * (ours.get("refactor_move_ms") or 0) \
            + ours["solve_calls"] * (ours.get("solve_move_ms") or 0)
        line = f"{ranks} ranks, {solver}: linear {ours['linear_ms']:.1f} ms, of it gather/scatter {moved:.1f} ms " \
               f"({100 * moved / ours['linear_ms']:.0f}%)" if ours["linear_ms"] > 0 else f"{ranks} ranks, {solver}:"
        if peers:
            best, name = min(peers)
            line += f"; fastest peer {name} {best:.1f} ms: gpuglu/{name} = {ours['linear_ms'] / best:.2f}"
            if ours["linear_ms"] > best:
                line += " (gathering does not pay here" + \
                    (": even without the data movement)" if ours["linear_ms"] - moved > best else ")")
        print(line)


def print_lu_row(ranks, solver, p, note, first=False):
    if first:
        print(f"SNES ex14 (3-D Bratu) with -pc_type lu")
        print("%5s %-20s %10s %9s %10s %9s %9s %9s %10s %10s %6s" % (
            "ranks", "solver", "first", "[move]", "refactor", "[move]", "solve", "[move]", "linear", "SNES", "calls"))
    if p is None:
        print("%5d %-20s %s" % (ranks, solver, note))
        return
    print("%5d %-20s %s %s %s %s %s %s %s %s %3d/%-3d" % (
        ranks, solver, fmt(p.get("first_factor_ms")), fmt(p.get("first_factor_move_ms"), 9),
        fmt(p.get("refactor_ms")), fmt(p.get("refactor_move_ms"), 9), fmt(p.get("solve_ms"), 9, 2),
        fmt(p.get("solve_move_ms"), 9, 2), fmt(p.get("linear_ms")), fmt(p.get("SNESSolve_ms")),
        p["refactor_calls"], p["solve_calls"]))


def write_records(args, results, notes, benchmark, headline, matrix_of=None):
    """One record per (rank count or config, gpuglu variant, peer): the pair measured in this run."""
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    with open(args.out, "a") as f:
        for key, ours in results.items():
            ranks, solver = key
            if not solver.startswith("gpuglu") or ours is None:
                continue
            for (pranks, peer), theirs in results.items():
                if pranks != ranks or peer.startswith("gpuglu"):
                    continue
                rec = {"date": date, "device": args.device, "benchmark": benchmark,
                       "matrix": matrix_of(ranks) if matrix_of else f"snes-ex14:{args.grid}:np{ranks}",
                       "ranks": ranks if isinstance(ranks, int) else args.dd_ranks,
                       "n": ours.get("n", 0), "nnz": ours.get("nnz", 0), "nnz_factor": ours.get("nnz_factor", 0),
                       "ours": " ".join(["gpuglu" + ("+" + solver.partition("+")[2] if "+" in solver else ""),
                                         args.gpuglu_options.strip()]).strip(),
                       "ours_ms": headline(ours), "peer": peer,
                       "peer_ms": headline(theirs) if theirs else None, "repeat": ours.get("rounds", 1), "warmup": 0}
                rec = {k: round(v, 3) if isinstance(v, float) else v for k, v in rec.items()}
                for k, v in ours.items():
                    v = round(v, 3) if isinstance(v, float) else v
                    if k not in ("n", "nnz", "nnz_factor"):
                        rec[f"ours_{k}"] = v
                for k, v in (theirs or {}).items():
                    v = round(v, 3) if isinstance(v, float) else v
                    if k not in ("n", "nnz"):
                        rec[f"peer_{k}"] = v
                if theirs is None:
                    rec["peer_note"] = notes.get((pranks, peer), "failed")
                f.write(json.dumps(rec) + "\n")


def mode_dd(args):
    configs = args.configs.split(",")
    ranks = args.dd_ranks
    results, notes = {}, {}
    print(f"{ranks} ranks: ex14 (3-D Bratu) {args.grid}, ex19 (driven cavity, 4 fields) {args.ex19_grid}")
    print("%-12s %-8s %10s %10s %10s %6s %6s" % ("config", "solver", "PCSetUp", "KSPSolve", "linear", "its", "newton"))
    for config in configs:
        program, common, option, peer = DD_CONFIGS[config]
        exe = args.ex14 if program == "ex14" else args.ex19
        grid = grid_options("xyz", args.grid) if program == "ex14" else grid_options("xy", args.ex19_grid)
        # --dd-rounds fresh runs per side, the sides alternating (so that a slow spell of the
        # machine falls on both); the medians are the record.
        runs = {"gpuglu": [], peer: []}
        for _ in range(args.dd_rounds):
            for solver in ("gpuglu", peer):
                found, why = run(args, ranks, exe, grid + shlex.split(common) + solver_options(args, solver, option))
                if found:
                    runs[solver].append(found)
                else:
                    notes[(config, solver)] = note_of(why)
                    print(f"{config} / {solver}: {why}", file=sys.stderr)
        for solver in ("gpuglu", peer):
            found = runs[solver]
            p = None
            if found:
                linear = [f["log"].get("PCSetUp", (0, 0.0))[1] + f["log"]["KSPSolve"][1] for f in found]
                p = {k: found[0][k] for k in ("n", "nnz", "iterations", "newton") if k in found[0]}
                p["wall_s"] = round(statistics.median(f["wall_s"] for f in found), 2)
                for event in ("PCSetUp", "KSPSolve", "SNESSolve"):
                    if all(event in f["log"] for f in found):
                        p[f"{event}_ms"] = statistics.median(f["log"][event][1] for f in found)
                p["linear_ms"] = statistics.median(linear)
                p["linears_ms"] = [round(v, 1) for v in linear]
                p["rounds"] = len(found)
                notes.pop((config, solver), None)
            results[(config, solver)] = p
            if p is None:
                print("%-12s %-8s %s" % (config, solver, notes[(config, solver)]))
            else:
                print("%-12s %-8s %s %s %s %6s %6s  %s" % (config, solver, fmt(p.get("PCSetUp_ms")),
                                                         fmt(p.get("KSPSolve_ms")), fmt(p.get("linear_ms")),
                                                         p.get("iterations", "-"), p.get("newton", "-"),
                                                         " ".join(f"{v:.0f}" for v in p["linears_ms"])))
            sys.stdout.flush()
    print("(ms, -log_view max over ranks, medians of --dd-rounds runs (each run's linear last); its = Krylov "
          "iterations over all Newton steps; linear = PCSetUp + KSPSolve)")
    if args.out:
        grids = {"ex14": f"snes-ex14:{args.grid}", "ex19": f"snes-ex19:{args.ex19_grid}"}
        # With no gpuglu option the records are issue 29's dd_defaults.
        benchmark = "mpi_dd" if args.gpuglu_options.strip() else "dd_defaults"
        write_records(args, results, notes, benchmark, lambda p: p.get("linear_ms"),
                      matrix_of=lambda config: f"{grids[DD_CONFIGS[config][0]]}:np{ranks}:{config}")
    return 1 if any(note == "failed" for (_, s), note in notes.items() if s == "gpuglu") else 0


# --mode small: one rank, a fresh process per run, ex14 on small grids with a whole-matrix
# preconditioner: what a user of a small problem sees (issue 29: never slower than PETSc's
# own at any size), where the process's fixed costs (the plugin's libraries, the CUDA start-up)
# outweigh the solves.
# (ex14's Jacobian is not symmetric: its boundary rows hold the diagonal alone, so no Cholesky.)
SMALL_PCS = {"lu": "-pc_type lu", "ilu": "-pc_type ilu"}


def mode_small(args):
    """R rounds, the sides alternating; a record per (grid, pc, gpuglu side) against PETSc's own
    with the medians (headline: PETSc's Time (sec), the whole run as PETSc counts it)."""
    sides = ["gpuglu", "petsc"]
    envs = {"gpuglu": None, "petsc": None}
    variants = {}  # gpuglu+NAME -> its options beside --gpuglu-options
    for v in filter(None, (x.strip() for x in args.gpuglu_variants.split(";"))):
        name, _, opts = v.partition("=")
        variants["gpuglu+" + name.strip()] = opts
        sides.insert(-1, "gpuglu+" + name.strip())
        envs["gpuglu+" + name.strip()] = None
    if args.reference_plugin:
        sides.insert(1, "gpuglu@reference")
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = os.path.dirname(os.path.abspath(args.reference_plugin)) + ":" + env.get(
            "LD_LIBRARY_PATH", "")
        envs["gpuglu@reference"] = env
    print("%-10s %-9s %-18s %10s %10s %10s %8s" % ("grid", "pc", "solver", "time", "SNESSolve", "wall_s", "reduce"))
    results, notes = {}, {}
    for grid in args.small_grids.split(","):
        for pc in args.small_pcs.split(","):
            runs = {side: [] for side in sides}
            for _ in range(args.rounds):
                for side in sides:
                    opts = grid_options("xyz", grid) + shlex.split(SMALL_PCS[pc]) + ["-snes_monitor"]
                    if side.startswith("gpuglu"):
                        plugin = args.reference_plugin if side.endswith("@reference") else args.plugin
                        opts += ["-pc_factor_mat_solver_type", "gpuglu", "-dll_append", plugin]
                        opts += shlex.split(args.gpuglu_options) + shlex.split(variants.get(side, ""))
                    found, why = run(args, 1, args.ex14, opts, env=envs[side])
                    if found:
                        runs[side].append(found)
                    else:
                        notes[((grid, pc), side)] = note_of(why)
                        print(f"{grid} {pc} / {side}: {why}", file=sys.stderr)
            for side in sides:
                found = runs[side]
                if not found:
                    results[((grid, pc), side)] = None
                    continue
                med = lambda key: statistics.median(f[key] for f in found)
                p = {k: found[0][k] for k in ("n", "nnz", "nnz_factor", "iterations", "newton") if k in found[0]}
                p["time_ms"] = med("petsc_time_ms")
                p["wall_s"] = round(med("wall_s"), 3)
                p["SNESSolve_ms"] = statistics.median(f["log"]["SNESSolve"][1] for f in found if "SNESSolve" in f["log"])
                p["times_ms"] = [round(f["petsc_time_ms"], 2) for f in found]
                p["snes_residual_reduction"] = max(f.get("snes_residual_reduction", 0.0) for f in found)
                p["rounds"] = len(found)
                results[((grid, pc), side)] = p
                print("%-10s %-9s %-18s %s %s %s %8.1e" % (grid, pc, side, fmt(p["time_ms"]), fmt(p["SNESSolve_ms"], 10, 2),
                                                        fmt(p["wall_s"], 10, 2), p["snes_residual_reduction"]))
            sys.stdout.flush()
    print("(ms; time: -log_view's Time (sec), PetscInitialize to PetscFinalize; medians of --rounds fresh processes)")
    if args.out:
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        with open(args.out, "a") as f:
            for ((grid, pc), side), ours in results.items():
                theirs = results.get(((grid, pc), "petsc"))
                if side == "petsc" or ours is None:
                    continue
                rec = {"date": date, "device": args.device, "benchmark": "small_runs",
                       "matrix": f"snes-ex14:{grid}:np1:{pc}", "ranks": 1, "n": ours.get("n", 0),
                       "nnz": ours.get("nnz", 0), "nnz_factor": ours.get("nnz_factor", 0),
                       "ours": " ".join(filter(None, [side, args.gpuglu_options.strip(), variants.get(side, "").strip()])),
                       "ours_ms": round(ours["time_ms"], 3), "peer": "petsc",
                       "peer_ms": round(theirs["time_ms"], 3) if theirs else None,
                       "repeat": args.rounds, "warmup": 0}
                rec.update({f"ours_{k}": v for k, v in ours.items() if k not in ("n", "nnz", "nnz_factor", "time_ms")})
                rec.update({f"peer_{k}": v for k, v in (theirs or {}).items() if k not in ("n", "nnz", "time_ms")})
                if theirs is None:
                    rec["peer_note"] = notes.get(((grid, pc), "petsc"), "failed")
                f.write(json.dumps(rec) + "\n")
    return 1 if any(note == "failed" for (_, s), note in notes.items() if s.startswith("gpuglu")) else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=("lu", "dd", "small"), default="lu")
    ap.add_argument("--ex14", required=True, help="SNES ex14 (3-D Bratu) built unmodified")
    ap.add_argument("--ex19", help="SNES ex19 (driven cavity) built unmodified (--mode dd, fieldsplit)")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--grid", help="ex14's DMDA grid, NXxNYxNZ points, boundary included (lu 400x400x6, dd 40x40x40)")
    ap.add_argument("--ex19-grid", default="128x128")
    ap.add_argument("--ranks", default="4,8,16", help="--mode lu: rank counts")
    ap.add_argument("--dd-ranks", type=int, default=4, help="--mode dd: ranks")
    ap.add_argument("--dd-rounds", type=int, default=1, help="--mode dd: runs per side, alternating (medians)")
    ap.add_argument("--solvers", default="gpuglu,mumps,superlu_dist,gpuglu+supernodal@16",
                    help="--mode lu: gpuglu[+LU engine], mumps, superlu_dist; NAME@4/8: on those rank counts only")
    ap.add_argument("--configs", default=",".join(c for c in DD_CONFIGS if not c.endswith("_2d")), help="--mode dd: " + ", ".join(DD_CONFIGS))
    ap.add_argument("--gpuglu-options", default="", help="more options for every gpuglu run")
    ap.add_argument("--timeout", type=int, default=240, help="seconds per run")
    ap.add_argument("--budget-s", type=float, default=0,
                    help="seconds for all runs: each run's timeout is cut to what is left, none starts with "
                         "less than 10 s left (0: no budget)")
    ap.add_argument("--small-grids", default="5x5x5,10x10x10,16x16x16,24x24x24", help="--mode small: ex14 grids")
    ap.add_argument("--small-pcs", default="lu,ilu", help="--mode small: " + ", ".join(SMALL_PCS))
    ap.add_argument("--rounds", type=int, default=3, help="--mode small: fresh processes per side")
    ap.add_argument("--reference-plugin", default="", help="--mode small: another build's plugin, its libgpuglu beside it")
    ap.add_argument("--gpuglu-variants", default="",
                    help="--mode small: more gpuglu sides, 'NAME=OPTIONS;NAME=OPTIONS' (e.g. 'cpu=-mat_gpuglu_backend cpu')")
    ap.add_argument("--out", default="")
    ap.add_argument("--device", default="")
    ap.add_argument("--verbose", action="store_true", help="print each command line and its wall time")
    args = ap.parse_args()
    args.grid = args.grid or ("400x400x6" if args.mode == "lu" else "40x40x40")
    if args.mode == "dd" and not args.ex19 and any(DD_CONFIGS[c][0] == "ex19" for c in args.configs.split(",")):
        ap.error("--mode dd with fieldsplit needs --ex19")
    return {"lu": mode_lu, "dd": mode_dd, "small": mode_small}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
