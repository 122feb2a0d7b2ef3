#!/usr/bin/env python3
"""-help lists of gpuglu's list options against the core's name tables.

Runs the example once with -help and -print_option_tables: every "table -mat_gpuglu_X: a b c"
line (printed from include/gpuglu/options.hpp's tables) must equal the "(choose one of) a b c"
that PETSc's -help prints for -mat_gpuglu_X, and every list option in -help must have a table.
"""
import re
import subprocess
import sys


def main():
    cmd = sys.argv[1:] + ['-help', '-print_option_tables', '-matrix', 'lap2d5:5x5', '-ksp_type', 'preonly',
                          '-pc_type', 'lu', '-pc_factor_mat_solver_type', 'gpuglu']
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    tables = dict(re.findall(r'^table (-mat_gpuglu_\w+): (.*)$', out, re.M))
    helps = dict(re.findall(r'^\s*(-mat_gpuglu_\w+):? <.*?\(choose one of\) (.*?) \(None\)$', out, re.M))
    if not tables or not helps:
        print('no tables or no -help lists found:\n' + out)
        return 1
    bad = 0
    for option in sorted(set(tables) | set(helps)):
        t, h = tables.get(option), helps.get(option)
        if t != h:
            print(f'{option}: table [{t}] but -help [{h}]')
            bad += 1
        else:
            print(f'{option}: {h}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
