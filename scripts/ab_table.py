#!/usr/bin/env python3
"""The ab step's table (scripts/device_run.sh ab): this build against a reference build, same
run, same machine. Reads the JSONL records the benchmarks wrote with --device SIDE-ROUND
(SIDE reference or current), takes the median of ours_ms over the rounds per benchmark,
matrix and solver, and prints current / reference (below 1: the change is faster).

Usage: ab_table.py FILE.jsonl [FILE.jsonl ...]
"""
import collections
import json
import statistics
import sys


def main(paths):
    times = collections.defaultdict(list)  # (benchmark, matrix, ours, side) -> [ms]
    seen = set()
    for path in paths:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                side, _, rnd = str(r.get('device', '')).rpartition('-')
                if side not in ('reference', 'current') or r.get('ours_ms') is None:
                    continue
                key = (r['benchmark'], r['matrix'], r.get('ours', ''), side)
                once = key + (rnd,)
                if once in seen:  # one record per peer: ours_ms once per round
                    continue
                seen.add(once)
                times[key].append(float(r['ours_ms']))
    rows = sorted({k[:3] for k in times})
    print('| benchmark | matrix | solver | reference ms | current ms | current / reference |')
    print('|---|---|---|---|---|---|')
    ratios = []
    for b, m, o in rows:
        ref, cur = times.get((b, m, o, 'reference')), times.get((b, m, o, 'current'))
        if not ref or not cur:
            continue
        rm, cm = statistics.median(ref), statistics.median(cur)
        ratio = cm / rm if rm > 0 else float('nan')
        ratios.append(ratio)
        print(f'| {b} | {m} | {o} | {rm:.4g} | {cm:.4g} | {ratio:.3f} |')
    if ratios:
        print(f'\n{len(ratios)} pairs; current / reference from {min(ratios):.3f} to {max(ratios):.3f}, '
              f'geometric mean {statistics.geometric_mean(ratios):.3f}')


if __name__ == '__main__':
    main(sys.argv[1:])
