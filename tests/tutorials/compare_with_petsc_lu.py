#!/usr/bin/env python3
"""Runs an unmodified PETSc tutorial twice - once with gpuglu loaded through
-dll_append, once with PETSc's own LU - and checks that gpuglu was really used
and that both give the same result: equal iteration counts and error/residual
norms that are both small (or agree to a relative tolerance)."""
import argparse
import os
import re
import subprocess
import sys

NUMBERS = [
    (re.compile(r"Norm of error ([0-9.eE+-]+) iterations (\d+)"), ("norm", "its")),
    (re.compile(r"Number of iterations =\s+(\d+)"), ("its",)),
    (re.compile(r"Residual norm ([0-9.eE+-]+)"), ("norm",)),
    (re.compile(r"Residual norm < (1\.e-12)"), ("norm",)),
]


def run(cmd):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if proc.returncode != 0:
        sys.exit(f"FAILED ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout}")
    return proc.stdout


def parse(out):
    found = {}
    for rx, keys in NUMBERS:
        m = rx.search(out)
        if m:
            for k, v in zip(keys, m.groups()):
                found.setdefault(k, float(v))
    if "norm" not in found:
        sys.exit("no norm found in the output:\n" + out)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nsize", type=int, default=1)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--tol", type=float, default=1e-8, help="absolute bound for both norms")
    ap.add_argument("--peer-solver", default="petsc",
                    help="solver type of the reference run: PETSc's own LU, or klu where PETSc's LU cannot "
                         "factor the matrix (it stops on the missing diagonal entries of MNA matrices)")
    ap.add_argument("--solver-option", default=None,
                    help="the option that names the factor package (default: -pc_factor_mat_solver_type, or "
                         "-sub_pc_factor_mat_solver_type under -sub_pc_type), e.g. "
                         "-mg_coarse_pc_factor_mat_solver_type for a multigrid coarse solver")
    ap.add_argument("prog", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    prog = [x for x in a.prog if x != "--"]
    mpiexec = [os.environ.get("MPIEXEC", "mpiexec"), "-n", str(a.nsize)]
    solver = a.solver_option or (
        "-sub_pc_factor_mat_solver_type" if "-sub_pc_type" in prog else "-pc_factor_mat_solver_type")

    ours = run(mpiexec + prog + ["-dll_append", a.plugin, solver, "gpuglu", "-ksp_view"])
    theirs = run(mpiexec + prog + [solver, a.peer_solver])
    if not re.search(r"solver type: gpuglu|package used to perform factorization: gpuglu", ours):
        sys.exit("gpuglu was not used (no 'gpuglu' solver package in -ksp_view):\n" + ours)
    o, t = parse(ours), parse(theirs)
    print(f"gpuglu: {o}   petsc: {t}")
    # Exact block solves give the same Krylov iterations; rounding may shift one.
    if abs(o.get("its", 0) - t.get("its", 0)) > 1:
        sys.exit(f"iteration counts differ: gpuglu {o.get('its')} vs petsc {t.get('its')}")
    if not (o["norm"] <= a.tol and t["norm"] <= a.tol):
        rel = abs(o["norm"] - t["norm"]) / max(abs(t["norm"]), 1e-300)
        if rel > 1e-6:
            sys.exit(f"norms differ: gpuglu {o['norm']} vs petsc {t['norm']}")
    print("PASS")


if __name__ == "__main__":
    main()
