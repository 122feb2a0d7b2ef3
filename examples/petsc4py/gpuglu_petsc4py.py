#!/usr/bin/env python3
"""gpuglu from Python: a PETSc solve through petsc4py with gpuglu as the factorization.

A 2-D Poisson system (5-point Laplacian on an n x n grid, a known solution) is solved
with gpuglu's LU (-pc_type lu), Cholesky (-pc_type cholesky, the matrix flagged SPD) or
ILU-preconditioned GMRES (-pc_type ilu), choosing gpuglu one of two ways:

  options   the PETSc options database, as a C program's command line would:
            -pc_factor_mat_solver_type gpuglu, read by KSP.setFromOptions()
  api       PC.setFactorSolverType("gpuglu") in the script

The plugin library is loaded at PETSc's initialization by -dll_append (petsc4py.init), as
any existing PETSc application loads it; every -mat_gpuglu_* option works as in C.

  python3 gpuglu_petsc4py.py --plugin build/petsc_plugin/libpetscgpuglu.so [-n 64]
      [--factor lu|cholesky|ilu] [--select options|api] [--check] [PETSc options...]

--check runs every factor in both ways and exits 1 unless each relative residual is below
1e-10 (1e-8 for ILU-GMRES, which iterates to its tolerance) and the factorization was
gpuglu's. The plugin path may also come from GPUGLU_PETSC_PLUGIN.
"""
import argparse
import os
import sys

import petsc4py


def parse():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plugin", default=os.environ.get("GPUGLU_PETSC_PLUGIN", ""),
                   help="libpetscgpuglu.so (default: $GPUGLU_PETSC_PLUGIN)")
    p.add_argument("-n", type=int, default=48, help="grid points per side (default 48)")
    p.add_argument("--factor", choices=["lu", "cholesky", "ilu"], default="lu")
    p.add_argument("--select", choices=["options", "api"], default="options")
    p.add_argument("--check", action="store_true", help="every factor, both ways, checked")
    args, petsc_args = p.parse_known_args()
    if not args.plugin or not os.path.exists(args.plugin):
        p.error("the gpuglu PETSc plugin was not found: give --plugin PATH or set GPUGLU_PETSC_PLUGIN")
    return args, petsc_args


ARGS, PETSC_ARGS = parse()
# -dll_append must reach PetscInitialize: it registers the gpuglu MatSolverType.
petsc4py.init([sys.argv[0], "-dll_append", os.path.abspath(ARGS.plugin)] + PETSC_ARGS)
from petsc4py import PETSc  # noqa: E402  (after init, by petsc4py's rule)


def laplacian(n):
    """The 5-point Laplacian on an n x n grid, AIJ, assembled row by row."""
    size = n * n
    a = PETSc.Mat().createAIJ([size, size], nnz=5, comm=PETSc.COMM_SELF)
    for i in range(n):
        for j in range(n):
            row = i * n + j
            a.setValue(row, row, 4.0)
            for (ii, jj) in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                if 0 <= ii < n and 0 <= jj < n:
                    a.setValue(row, ii * n + jj, -1.0)
    a.assemble()
    return a


def solve(n, factor, select):
    """Solves A x = A x_true; returns (relative residual, the factorization's solver type)."""
    a = laplacian(n)
    if factor == "cholesky":
        a.setOption(PETSc.Mat.Option.SPD, True)
    x_true, b = a.createVecs()
    x_true.setArray([1.0 + (k % 7) / 7.0 for k in range(n * n)])
    a.mult(x_true, b)
    x = b.duplicate()

    ksp = PETSc.KSP().create(comm=PETSc.COMM_SELF)
    ksp.setOperators(a)
    ksp.setOptionsPrefix("s%s%s_" % (factor, select))  # each solve its own options
    opts = PETSc.Options(ksp.getOptionsPrefix())
    if factor == "ilu":
        ksp.setType(PETSc.KSP.Type.GMRES)
        ksp.setTolerances(rtol=1e-12, max_it=500)
    else:
        ksp.setType(PETSc.KSP.Type.PREONLY)
    pc = ksp.getPC()
    pc.setType(factor)
    if select == "api":
        pc.setFactorSolverType("gpuglu")
    else:
        opts["pc_factor_mat_solver_type"] = "gpuglu"
    ksp.setFromOptions()
    ksp.solve(b, x)

    r = b.duplicate()
    a.mult(x, r)
    r.aypx(-1.0, b)  # r = b - A x
    return r.norm() / b.norm(), pc.getFactorSolverType()


def main():
    if not ARGS.check:
        res, solver = solve(ARGS.n, ARGS.factor, ARGS.select)
        PETSc.Sys.Print("%s with %s (chosen by %s): relative residual %.2e"
                        % (ARGS.factor, solver, ARGS.select, res))
        return 0
    failed = 0
    for factor in ("lu", "cholesky", "ilu"):
        for select in ("options", "api"):
            res, solver = solve(ARGS.n, factor, select)
            limit = 1e-8 if factor == "ilu" else 1e-10
            ok = solver == "gpuglu" and res < limit
            failed += not ok
            PETSc.Sys.Print("%-8s %-7s %-7s relative residual %.2e  %s"
                            % (factor, select, solver, res, "ok" if ok else "FAILED"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
