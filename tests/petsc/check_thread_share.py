#!/usr/bin/env python3
"""The default of -mat_gpuglu_threads under MPI: the rank's share of its node.

Runs ex1 on 2 ranks (block Jacobi, a gpuglu LU per rank, CPU backend, -ksp_view) and reads
rank 0's "device: CPU, T threads (the rank's share of its node: N processors, R ranks; this
rank may run on P)". Then R must be 2 (both ranks run on this machine) and
T = max(1, min(P, N // R)). Unbound (--bind-to none) every rank may run on what this
script may run on, so P and N must equal its affinity count; with mpiexec's default binding
they can only be smaller. With -sub_mat_gpuglu_threads 1 the line names no share. The
gathered LU's root (-pc_type lu on the 2 ranks) adds what the other rank, waiting for it,
leaves of its share.

usage: check_thread_share.py MPIEXEC EX1
"""
import os
import re
import subprocess
import sys

SHARE = (r'device: CPU, (\d+) threads \(the rank\'s share of its node: (\d+) processors, (\d+) ranks; '
         r'this rank may run on (\d+)')
LINE = re.compile(SHARE + r'\)')


def run(mpiexec, ex1, launch, extra):
    cmd = [mpiexec, '-n', '2'] + launch + [ex1, '-matrix', 'lap2d5:24x24', '-ksp_type', 'gmres', '-ksp_rtol', '1e-12',
                                           '-pc_type', 'bjacobi', '-sub_pc_type', 'lu',
                                           '-sub_pc_factor_mat_solver_type', 'gpuglu', '-sub_mat_gpuglu_backend',
                                           'cpu', '-residual_tol', '1e-9', '-ksp_view'] + extra
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return out


def check_share(out, what, exact):
    m = LINE.search(out)
    if not m:
        print(f'{what}: no "device: CPU ... rank\'s share" line in\n{out}')
        return 1
    threads, node, ranks, mine = map(int, m.groups())
    print(f'{what}: {m.group(0)}')
    bad = 0
    if ranks != 2:
        print(f'  ranks on the node {ranks}, expected 2')
        bad += 1
    if threads != max(1, min(mine, node // ranks)):
        print(f'  threads {threads}, expected max(1, min({mine}, {node} // {ranks}))')
        bad += 1
    here = len(os.sched_getaffinity(0))
    if exact and (mine != here or node != here):
        print(f'  unbound ranks may run on {here} processors, as this script; the line says {mine} and {node}')
        bad += 1
    if not 1 <= mine <= node <= os.cpu_count():
        print(f'  expected 1 <= {mine} <= {node} <= {os.cpu_count()} (online processors)')
        bad += 1
    return bad


ROOT = re.compile(SHARE + r'; with the spare processors of 1 rank of its group waiting for it\)')


def check_root_share(mpiexec, ex1):
    """The gathered LU of the 2-rank matrix: its root (rank 0) takes its share and what the
    other rank, waiting for it, leaves, at most the processors that rank does not busy:
    unbound both may run anywhere, so T = max(1, min(P - 1, S + (S - 1))) with
    S = max(1, min(P, N // 2))."""
    cmd = [mpiexec, '-n', '2', '--bind-to', 'none', ex1, '-matrix', 'lap2d5:24x24', '-ksp_type', 'preonly',
           '-pc_type', 'lu', '-pc_factor_mat_solver_type', 'gpuglu', '-mat_gpuglu_backend', 'cpu',
           '-residual_tol', '1e-9', '-ksp_view']
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = ROOT.search(out)
    if not m:
        print(f'gathered root: no "device: CPU ... waiting for it" line in\n{out}')
        return 1
    threads, node, ranks, mine = map(int, m.groups())
    share = max(1, min(mine, node // ranks))
    print(f'gathered root: {m.group(0)}')
    if threads != max(1, min(mine - 1, share + (share - 1))):
        print(f'  threads {threads}, expected max(1, min({mine} - 1, {share} + {share - 1}))')
        return 1
    return 0


def main():
    mpiexec, ex1 = sys.argv[1], sys.argv[2]
    bad = check_share(run(mpiexec, ex1, ['--bind-to', 'none'], []), 'unbound', exact=True)
    bad += check_share(run(mpiexec, ex1, [], []), 'default binding', exact=False)
    bad += check_root_share(mpiexec, ex1)
    out = run(mpiexec, ex1, [], ['-sub_mat_gpuglu_threads', '1'])
    if 'device: CPU, 1 threads\n' not in out or LINE.search(out):
        print(f'-sub_mat_gpuglu_threads 1: expected the plain "device: CPU, 1 threads" in\n{out}')
        bad += 1
    else:
        print('explicit: device: CPU, 1 threads')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
