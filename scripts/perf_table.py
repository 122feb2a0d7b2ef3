#!/usr/bin/env python3
"""Turns docs/performance/results.jsonl into the tables of docs/performance_history.md (where the generated tables live).

Keeps, for every (device, benchmark, matrix, ours, peer), the newest record, and writes
one table per device and benchmark between the markers
<!-- perf-tables:begin --> and <!-- perf-tables:end --> of docs/performance_history.md, with the
geometric mean of ours_ms / peer_ms over the circuit-like matrices (SuiteSparse
circuit/ folder and the circuit/powergrid generators) and over all matrices.
Time ratios below 1 mean gpuglu is faster.
"""
import argparse
import json
import math
import os
import sys
from collections import OrderedDict

import perf_plots  # scripts/perf_plots.py: the SVG pictures and their perf-plots block

BEGIN, END = '<!-- perf-tables:begin -->', '<!-- perf-tables:end -->'


def load(path):
    latest = OrderedDict()
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f'{path}:{number}: not JSON: {e}')
            if 'ours' not in r or 'benchmark' not in r:
                continue  # multi_gpu_bench.py's per-solver records: their own tables (docs/performance.md)
            key = (r['device'], r['benchmark'], r['matrix'], r['ours'], r['peer'])
            latest.pop(key, None)
            latest[key] = r
    return list(latest.values())


def circuit_like(r):
    return r.get('kind') == 'circuit' or r['matrix'].startswith(('circuit:', 'powergrid:'))


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def fmt(v, digits=3):
    return '—' if v is None else f'{v:.{digits}f}'


def table(records):
    peers = list(OrderedDict.fromkeys(r['peer'] for r in records))
    lines = ['| matrix | n | nnz | nnz(L+U) | levels | ours | ours ms | ' +
             ' | '.join(f'{p} ms | ratio' for p in peers) + ' |',
             '|' + '---|' * (7 + 2 * len(peers))]
    by_matrix = OrderedDict()
    for r in records:
        by_matrix.setdefault((r['matrix'], r['ours']), {})[r['peer']] = r
    ratios = {p: {'circuit': [], 'all': []} for p in peers}
    for (matrix, ours), row in by_matrix.items():
        first = next(iter(row.values()))
        cells = [matrix, str(first['n']), str(first['nnz']), str(first['nnz_factor']),
                 str(int(first.get('levels', 0))), ours, fmt(first['ours_ms'])]
        for p in peers:
            r = row.get(p)
            if r is None or r['peer_ms'] is None:
                # A peer the benchmark chose not to run (too large, not SPD, past the
                # deadline) is not a peer that failed.
                skipped = r is not None and str(r.get('peer_note', '')).startswith('skipped')
                cells += ['skipped' if skipped else 'failed' if r else '—', '—']
                continue
            ratio = r['ours_ms'] / r['peer_ms'] if r['ours_ms'] is not None and r['peer_ms'] > 0 else None
            cells += [fmt(r['peer_ms']), fmt(ratio, 2)]
            if ratio is None:
                continue
            ratios[p]['all'].append(ratio)
            if circuit_like(r):
                ratios[p]['circuit'].append(ratio)
        lines.append('| ' + ' | '.join(cells) + ' |')
    summary = []
    for p in peers:
        summary.append(f'- vs {p}: geometric mean time ratio {fmt(geomean(ratios[p]["circuit"]), 2)} on circuit-like '
                       f'matrices ({len(ratios[p]["circuit"])}), {fmt(geomean(ratios[p]["all"]), 2)} on all '
                       f'({len(ratios[p]["all"])})')
    return lines + [''] + summary


def render(records):
    out = []
    groups = OrderedDict()
    for r in records:
        groups.setdefault((r['device'], r['benchmark']), []).append(r)
    for (device, bench), rs in groups.items():
        dates = sorted({r['date'] for r in rs})
        # Records with "warmup": 0 (the MPI benchmark: one run of a whole program each) say so.
        runs = 'one run each, no warm-up' if rs[0].get('warmup') == 0 else \
            f'median of {int(rs[0].get("repeat", 0)) or "?"} runs after a warm-up'
        out += [f'### {bench} on {device}', '',
                f'Measured {dates[0]}' + (f' to {dates[-1]}' if len(dates) > 1 else '') +
                f'; {runs}. ratio = ours ms / peer ms (below 1: gpuglu is faster).', '']
        out += table(rs) + ['']
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--results', default='docs/performance/results.jsonl')
    ap.add_argument('--doc', default='docs/performance_history.md')
    ap.add_argument('--print', action='store_true', help='print the tables instead of editing the doc')
    ap.add_argument('--plots-dir', help='folder of the SVG pictures (default: plots/ beside the results); '
                    'drawn when the doc has the perf-plots markers')
    args = ap.parse_args()
    records = load(args.results)
    text = render(records)
    if args.print:
        print(text)
        return
    doc = open(args.doc).read() if os.path.exists(args.doc) else f'# Performance\n\n{BEGIN}\n{END}\n'
    if BEGIN not in doc or END not in doc:
        sys.exit(f'{args.doc}: markers {BEGIN} / {END} missing')
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    doc = head + BEGIN + '\n' + text + '\n' + END + tail
    plots_dir = args.plots_dir or os.path.join(os.path.dirname(args.results), 'plots')
    doc = perf_plots.update_doc(doc, records, plots_dir, os.path.dirname(os.path.abspath(args.doc))) or doc
    with open(args.doc, 'w') as f:
        f.write(doc)


if __name__ == '__main__':
    main()
