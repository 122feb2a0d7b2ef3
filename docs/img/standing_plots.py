#!/usr/bin/env python3
"""Draws the pictures of docs/performance.md ("current standing") from
docs/performance/results.jsonl, as small PNGs in docs/img/.

    python3 docs/img/standing_plots.py        # needs matplotlib (pip install matplotlib)

Records: the newest one per (benchmark, matrix, ours, peer), as scripts/perf_table.py keeps
them. gpuglu is the default GPU LU (the supernodal engine, record label OURS below); tuma1 and
rajat19, on which its static pivots fail and the recovery ladder factors them, are recorded
under FALLBACK_OURS.

  standing_lu_vs_cudss.png   cuDSS ms / gpuglu ms per matrix, refactorization and solve, both
                             on device-resident values and vectors (refactor_device_ms,
                             solve_device_ms against cuDSS's REFACTORIZATION / SOLVE phases)
  standing_lu_vs_klu_rf.png  KLU ms / gpuglu ms and cusolverRf ms / gpuglu ms, refactorization
                             (gpuglu from host values: ours_ms)
"""
import json
import math
import os
from collections import OrderedDict

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, 'docs', 'performance', 'results.jsonl')
OUT = os.path.dirname(os.path.abspath(__file__))
DEVICE = 'NVIDIA H100 80GB HBM3'
OURS = 'gpuglu-supernodal-panel-sched-resident-dense64-stepped-cuda-1t'
FALLBACK_OURS = 'gpuglu-cuda-1t'
FALLBACK_MATRICES = ('tuma1', 'rajat19')


def load():
    latest = OrderedDict()
    with open(RESULTS) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                key = (r['device'], r['benchmark'], r['matrix'], r['ours'], r['peer'])
                latest.pop(key, None)
                latest[key] = r
    return latest


def pick(latest, benchmark, peer):
    rows = {}
    for (device, bench, matrix, ours, p), r in latest.items():
        if device != DEVICE or bench != benchmark or p != peer:
            continue
        if ours == OURS or (ours == FALLBACK_OURS and matrix in FALLBACK_MATRICES):
            rows[matrix] = r
    return rows


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(map(math.log, values)) / len(values)) if values else None


def bars(ax, names, series, title):
    """series: [(label, colour, {matrix: ratio})]; horizontal bars from 1 on a log axis."""
    names = list(names) + ['geometric mean']
    labels = [m + ' *' if m in FALLBACK_MATRICES else m for m in names]
    h = 0.8 / len(series)
    for k, (label, colour, ratios) in enumerate(series):
        values = [ratios.get(m) for m in names[:-1]]
        values.append(geomean(values))
        labelled = False
        for i, v in enumerate(values):
            y = i + (k - (len(series) - 1) / 2) * h
            if v is None:
                ax.plot([1], [y], marker='x', color=colour, markersize=5)
                continue
            ax.barh(y, v - 1 if v >= 1 else 1 - v, left=1 if v >= 1 else v, height=h * 0.9, color=colour,
                    label=None if labelled else label)
            labelled = True
            ax.text(v * (1.04 if v >= 1 else 0.96), y, (f'{v:.3g}×' if v < 100 else f'{v:.0f}×'), va='center',
                    ha='left' if v >= 1 else 'right', fontsize=6.5)
    ax.set_xscale('log')
    finite = [v for _, _, r in series for v in r.values() if v]
    ax.set_xlim(min(finite + [0.5]) / 2.5, max(finite + [2]) * 2.5)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f'{v:g}'))
    ax.axvline(1, color='#222', linewidth=1)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(labels, fontsize=7.5)
    ax.invert_yaxis()
    ax.grid(axis='x', which='both', color='#e4e4e4', linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_title(title, fontsize=9)
    ax.tick_params(axis='x', labelsize=7)


def order(rows):
    return sorted(rows, key=lambda m: rows[m]['nnz_factor'])


def dates(*row_sets):
    ds = sorted({r['date'] for rows in row_sets for r in rows.values()})
    return ds[0] if len(ds) == 1 else f'{ds[0]} to {ds[-1]}'


def main():
    latest = load()
    ref = pick(latest, 'lu_refactor', 'cudss_refactor')
    sol = pick(latest, 'lu_solve', 'cudss_solve')
    names = order(ref)
    refactor = {m: r['peer_ms'] / r['refactor_device_ms'] for m, r in ref.items() if r.get('refactor_device_ms')}
    solve = {m: r['peer_ms'] / r['solve_device_ms'] for m, r in sol.items()
             if r.get('solve_device_ms') and r['peer_ms']}
    fig, ax = plt.subplots(figsize=(7.2, 5.6), dpi=100)
    bars(ax, names, [('refactorization', '#009E73', refactor), ('solve', '#0072B2', solve)],
         'gpuglu default LU vs cuDSS, device-resident data, H100 — cuDSS ms / gpuglu ms\n'
         f'(right of 1: gpuglu faster; records {dates(ref, sol)}; matrices by nnz(L+U);\n'
         '* static pivots fail: factored by the recovery ladder)')
    ax.legend(fontsize=7.5, loc='lower right')
    ax.set_xlabel('cuDSS time / gpuglu time (log scale)', fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(OUT, 'standing_lu_vs_cudss.png'))
    plt.close(fig)

    klu = pick(latest, 'lu_refactor', 'klu_refactor')
    rf = pick(latest, 'lu_refactor', 'cusolverrf')
    names = order(klu)
    fig, ax = plt.subplots(figsize=(7.2, 4.6), dpi=100)
    bars(ax, names, [
        ('KLU refactor (one core)', '#E69F00',
         {m: r['peer_ms'] / r['ours_ms'] for m, r in klu.items() if r['peer_ms']}),
        ('cusolverRf refactor (GPU)', '#CC79A7',
         {m: r['peer_ms'] / r['ours_ms'] for m, r in rf.items() if r['peer_ms']}),
    ], 'gpuglu default LU refactorization vs KLU and cusolverRf, H100 — peer ms / gpuglu ms\n'
       f'(gpuglu from host values; × = peer failed; records {dates(klu, rf)}; by nnz(L+U))')
    ax.legend(fontsize=7.5, loc='lower right')
    ax.set_xlabel('peer time / gpuglu time (log scale)', fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(OUT, 'standing_lu_vs_klu_rf.png'))
    plt.close(fig)


if __name__ == '__main__':
    main()
