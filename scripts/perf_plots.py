#!/usr/bin/env python3
"""Draws the GPU comparisons of docs/performance/results.jsonl as SVG pictures.

Called by scripts/perf_table.py (so `python3 scripts/perf_table.py` redoes the tables and
the pictures); also runs alone. Python's standard library only: the SVG is written by
hand, deterministically (same records -> byte-identical files, no timestamps).

Pictures, for the device DEVICE, from the newest record per (device, benchmark, matrix,
ours, peer) as the tables use:
  - per benchmark and gpuglu variant, horizontal bars of peer_ms / ours_ms per matrix and
    peer on a log scale, drawn from 1 (right of the line at 1: gpuglu is faster); a peer
    with no time on a matrix (skipped or failed) is an "x";
  - a performance profile (Dolan & More) of lu_refactor over the matrices on which every
    solver has a time.
The markdown that shows them goes between <!-- perf-plots:begin --> and
<!-- perf-plots:end --> of docs/performance.md.
"""
import argparse
import math
import os
import sys
import textwrap
from collections import OrderedDict
from xml.sax.saxutils import escape

BEGIN, END = '<!-- perf-plots:begin -->', '<!-- perf-plots:end -->'
DEVICE = 'NVIDIA H100 80GB HBM3'
PREFIX = 'h100_'

# (file stem, benchmark, ours, what ours is called, peers in drawing order)
RATIO_CHARTS = [
    ('lu_refactor_column', 'lu_refactor', 'gpuglu-cuda-1t', 'gpuglu column engine',
     ['cudss_refactor', 'cusolverrf', 'klu_refactor']),
    ('lu_refactor_supernodal', 'lu_refactor', 'gpuglu-supernodal-cuda-1t', 'gpuglu supernodal engine',
     ['cudss_refactor', 'cusolverrf', 'klu_refactor']),
    ('lu_solve_column', 'lu_solve', 'gpuglu-cuda-1t', 'gpuglu column engine',
     ['cudss_solve', 'cusolverrf_solve', 'klu_solve']),
    ('lu_solve_supernodal', 'lu_solve', 'gpuglu-supernodal-cuda-1t', 'gpuglu supernodal engine',
     ['cudss_solve', 'cusolverrf_solve', 'klu_solve']),
    ('ldlt_numeric', 'ldlt_numeric', 'gpuglu-ldlt-cuda-1t', 'gpuglu LDL^T',
     ['cudss_ldlt', 'cholmod_numeric_1t', 'cholmod_numeric_16t', 'mumps_ldlt', 'umfpack_numeric', 'gpuglu_lu']),
]
# (file stem, benchmark, solvers: (label, 'ours' or 'peer', name in the records))
PROFILE = ('lu_refactor_profile', 'lu_refactor', [
    ('gpuglu column engine', 'ours', 'gpuglu-cuda-1t'),
    ('gpuglu supernodal engine', 'ours', 'gpuglu-supernodal-cuda-1t'),
    ('cuDSS', 'peer', 'cudss_refactor'),
    ('cusolverRf', 'peer', 'cusolverrf'),
    ('KLU', 'peer', 'klu_refactor'),
])

# Okabe-Ito colours (tell apart with colour-blindness), fixed per peer family.
PEER_COLORS = OrderedDict([
    ('cudss', '#009E73'), ('cusolverrf', '#0072B2'), ('klu', '#E69F00'),
    ('cholmod_numeric_16t', '#D55E00'), ('cholmod', '#E69F00'), ('mumps', '#CC79A7'),
    ('umfpack', '#56B4E9'), ('gpuglu', '#555555'),
])
FALLBACK_COLORS = ['#009E73', '#0072B2', '#E69F00', '#D55E00', '#CC79A7', '#56B4E9', '#555555']
PROFILE_STYLES = [('#000000', ''), ('#CC79A7', '6 3'), ('#009E73', ''), ('#0072B2', '2 2'), ('#E69F00', '8 3 2 3')]
FONT = 'Helvetica, Arial, sans-serif'
WIDTH = 760


def color(peer, index):
    for prefix, c in PEER_COLORS.items():
        if peer.startswith(prefix):
            return c
    return FALLBACK_COLORS[index % len(FALLBACK_COLORS)]


def num(v):
    """A coordinate: one decimal, no trailing zero (deterministic, small)."""
    s = f'{v:.1f}'
    s = s[:-2] if s.endswith('.0') else s
    return '0' if s == '-0' else s


def text_width(s, size):
    return len(s) * size * 0.58


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt_ratio(v):
    return f'{v:.2f}' if v < 10 else f'{v:.1f}' if v < 100 else f'{v:.0f}'


def date_range(records):
    dates = sorted({r['date'] for r in records})
    return dates[0] if len(dates) == 1 else f'{dates[0]} to {dates[-1]}'


class Svg:
    def __init__(self, width, height):
        self.width, self.height, self.items = width, height, []

    def add(self, s):
        self.items.append(s)

    def text(self, x, y, s, size=11, anchor='start', extra=''):
        a = '' if anchor == 'start' else f' text-anchor="{anchor}"'
        sz = '' if size == 11 else f' font-size="{num(size)}"'
        self.add(f'<text x="{num(x)}" y="{num(y)}"{a}{sz}{extra}>{escape(s)}</text>')

    def line(self, x1, y1, x2, y2, stroke='#000', width=1, extra=''):
        w = '' if width == 1 else f' stroke-width="{num(width)}"'
        self.add(f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" stroke="{stroke}"{w}{extra}/>')

    def render(self, title):
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(self.width)} {num(self.height)}" '
                f'width="{num(self.width)}" height="{num(self.height)}" font-family="{FONT}" font-size="11" '
                f'fill="#222">\n<title>{escape(title)}</title>\n'
                f'<rect width="100%" height="100%" fill="#fff"/>\n' + '\n'.join(self.items) + '\n</svg>\n')


class LogAxis:
    def __init__(self, lo, hi, x0, x1):
        self.lo = 10.0 ** math.floor(math.log10(lo) + 1e-9)
        self.hi = 10.0 ** math.ceil(math.log10(hi) - 1e-9)
        if self.hi <= self.lo:
            self.hi = self.lo * 10
        self.x0, self.x1 = x0, x1

    def __call__(self, v):
        f = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        return self.x0 + f * (self.x1 - self.x0)

    def ticks(self):
        """(value, major) pairs: decades major, 2 and 5 minor when there are few decades."""
        out = []
        decades = round(math.log10(self.hi / self.lo))
        for k in range(decades + 1):
            d = self.lo * 10 ** k
            out.append((d, True))
            if decades <= 4 and k < decades:
                out += [(2 * d, False), (5 * d, False)]
        return out


def tick_label(v):
    return f'{v:g}' if 1e-4 <= v < 1e5 else f'1e{round(math.log10(v))}'


def draw_log_grid(svg, axis, y_top, y_bottom):
    for v, major in axis.ticks():
        x = axis(v)
        svg.line(x, y_top, x, y_bottom, '#d8d8d8' if major else '#eeeeee')
        if major or axis.hi / axis.lo <= 1e3:
            svg.text(x, y_bottom + 14, tick_label(v), 10, 'middle', '' if major else ' fill="#777"')


def ratio_chart(records, benchmark, ours, ours_label, peers):
    """SVG text of one ratio chart, or None when there is nothing to draw."""
    rs = [r for r in records if r['device'] == DEVICE and r['benchmark'] == benchmark and r['ours'] == ours
          and r['peer'] in peers]
    if not rs:
        return None
    rows = OrderedDict()
    for r in rs:
        rows.setdefault(r['matrix'], {})[r['peer']] = r
    peers = [p for p in peers if any(p in row for row in rows.values())]
    matrices = sorted(rows, key=lambda m: (next(iter(rows[m].values())).get('nnz_factor') or 0, m))

    def ratio(r):
        if r is None or r.get('peer_ms') is None or not r.get('ours_ms') or r['peer_ms'] <= 0:
            return None
        return r['peer_ms'] / r['ours_ms']

    values = [ratio(row.get(p)) for row in rows.values() for p in peers]
    values = [v for v in values if v]
    means = OrderedDict()
    for p in peers:
        pv = [ratio(rows[m].get(p)) for m in matrices]
        pv = [v for v in pv if v]
        if pv:
            means[p] = (geomean(pv), len(pv))

    bar_h = 7 if len(peers) <= 3 else 5.5
    gap = 7
    group_h = len(peers) * bar_h + gap
    label_size = 10.5
    labels = matrices + ['geometric mean']
    x0 = 14 + max(text_width(s, label_size) for s in labels)
    x1 = WIDTH - 48
    axis = LogAxis(min(values + [1.0]) / 1.15, max(values + [1.0]) * 1.15, x0, x1)  # room for a bar's end
    top = 74
    y_plot_end = top + group_h * (len(matrices) + 1) + 6
    missing_any = any(ratio(rows[m].get(p)) is None for m in matrices for p in peers)
    height = y_plot_end + 46 + (14 if missing_any else 0)
    svg = Svg(WIDTH, height)
    title = f'{benchmark} on {DEVICE}: {ours_label} vs peers'
    svg.text(10, 20, title, 14, extra=' font-weight="bold"')
    svg.text(10, 37, f'gpuglu = {ours}; records {date_range(rs)}; matrices ordered by nnz(L+U); '
             'bars drawn from 1', 10.5, extra=' fill="#555"')
    # Legend.
    lx = 10
    for i, p in enumerate(peers):
        svg.add(f'<rect x="{num(lx)}" y="48" width="12" height="10" fill="{color(p, i)}"/>')
        svg.text(lx + 16, 57, p, 10.5)
        lx += 16 + text_width(p, 10.5) + 18
    # Groups: shading, labels, bars.
    y = top
    for g, m in enumerate(labels):
        gy = y + g * group_h
        if g % 2 == 0:
            svg.add(f'<rect x="4" y="{num(gy)}" width="{num(x1 - 4)}" height="{num(group_h)}" fill="#f5f5f5"/>')
        if g == len(matrices):
            svg.line(4, gy, x1, gy, '#999')
        svg.text(x0 - 6, gy + group_h / 2 + 3.5, m, label_size, 'end',
                 ' font-style="italic"' if g == len(matrices) else '')
    draw_log_grid(svg, axis, top, y_plot_end - 6)
    one = axis(1.0)
    svg.add('<g class="bars">')
    for g, m in enumerate(labels):
        gy = top + g * group_h + gap / 2
        for i, p in enumerate(peers):
            by = gy + i * bar_h
            if g < len(matrices):
                r = rows[m].get(p)
                v = ratio(r)
                if v is None:
                    if r is not None:  # peer skipped or failed: an x at 1
                        note = str(r.get('peer_note') or 'no time')
                        svg.add(f'<text class="missing" x="{num(one + 3)}" y="{num(by + bar_h - 0.5)}" '
                                f'font-size="9" fill="{color(p, i)}">×<title>{escape(f"{m}, {p}: {note}")}'
                                '</title></text>')
                    continue
                tip = f'{m}, {p}: {fmt_ratio(v)}x'
                extra = ''
            else:
                if p not in means:
                    continue
                v, count = means[p]
                tip = f'geometric mean vs {p} over {count} matrices: {fmt_ratio(v)}x'
                extra = ' stroke="#222" stroke-width="0.6"'
            xa, xb = sorted((one, axis(v)))
            w = max(xb - xa, 1.0)
            svg.add(f'<rect class="bar" x="{num(xa)}" y="{num(by + 0.5)}" width="{num(w)}" height="{num(bar_h - 1)}" '
                    f'fill="{color(p, i)}"{extra}><title>{escape(tip)}</title></rect>')
            if g == len(matrices):
                svg.text(xb + 3 if v >= 1 else xa - 3, by + bar_h - 1, f'{fmt_ratio(v)}×', 7.5,
                         'start' if v >= 1 else 'end')
    svg.add('</g>')
    svg.line(one, top, one, y_plot_end - 6, '#222', 1.5)
    svg.line(x0, y_plot_end - 6, x1, y_plot_end - 6, '#222')
    svg.text((x0 + x1) / 2, y_plot_end + 26, 'peer ms / gpuglu ms (log scale; above 1: gpuglu is faster)',
             11, 'middle')
    if missing_any:
        svg.text(10, y_plot_end + 44, '× at 1: that peer has no time on the matrix (skipped or failed; '
                 'the note is in results.jsonl)', 10, extra=' fill="#555"')
    return svg.render(title)


def profile_chart(records, benchmark, solvers):
    """SVG text of a performance profile, or None when no matrix has every solver's time."""
    rs = [r for r in records if r['device'] == DEVICE and r['benchmark'] == benchmark]
    times = OrderedDict()  # matrix -> solver index -> [ms]
    used = OrderedDict()
    for r in rs:
        for s, (_, kind, name) in enumerate(solvers):
            key = 'ours' if kind == 'ours' else 'peer'
            ms = r.get(key + '_ms')
            if r[key] == name and ms is not None and ms > 0:
                times.setdefault(r['matrix'], {}).setdefault(s, []).append(ms)
                used[id(r)] = r
    problems = sorted(m for m, t in times.items() if len(t) == len(solvers))
    if not problems:
        return None
    best = {m: min(geomean(times[m][s]) for s in range(len(solvers))) for m in problems}
    ratios = [sorted(geomean(times[m][s]) / best[m] for m in problems) for s in range(len(solvers))]
    used_records = [r for r in used.values() if r['matrix'] in problems]
    tau_max = max(max(r) for r in ratios) * 1.05
    legend_w = 190
    x0, x1, top, bottom = 56, WIDTH - legend_w, 60, 380
    axis = LogAxis(1.0, max(tau_max, 2.0), x0, x1)
    names, notes = '', []
    for m in ['matrices: ' + problems[0]] + problems[1:]:
        if names and len(names) + len(m) > 125:
            notes.append(names + ',')
            names = ''
        names += (', ' if names else '') + m
    notes.append(names)
    svg = Svg(WIDTH, bottom + 50 + 13 * len(notes))
    for k, note in enumerate(notes):
        svg.text(10, bottom + 52 + 13 * k, note, 9.5, extra=' fill="#555"')
    title = f'Performance profile: {benchmark} on {DEVICE}'
    svg.text(10, 20, title, 14, extra=' font-weight="bold"')
    svg.text(10, 37, f'{len(problems)} matrices on which all {len(solvers)} solvers have a time; records '
             f'{date_range(used_records)}; higher and further left is better', 10.5, extra=' fill="#555"')

    def y(f):
        return bottom - f * (bottom - top)

    draw_log_grid(svg, axis, top, bottom)
    for k in range(6):
        f = k / 5
        svg.line(x0, y(f), x1, y(f), '#d8d8d8')
        svg.text(x0 - 5, y(f) + 3.5, f'{f:g}', 10, 'end')
    svg.line(x0, bottom, x1, bottom, '#222')
    svg.line(x0, top, x0, bottom, '#222')
    svg.text((x0 + x1) / 2, bottom + 30, 'τ: time / best time on the matrix (log scale)', 11, 'middle')
    svg.text(16, (top + bottom) / 2, 'fraction of matrices within τ of the best', 11, 'middle',
             f' transform="rotate(-90 16 {num((top + bottom) / 2)})"')
    n = len(problems)
    for s, (label, _, _) in enumerate(solvers):
        stroke, dash = PROFILE_STYLES[s % len(PROFILE_STYLES)]
        rho = sum(1 for v in ratios[s] if v <= 1.0 + 1e-12) / n
        pts = [(axis(1.0), y(rho))]
        for k, v in enumerate(ratios[s]):
            if v <= 1.0 + 1e-12:
                continue
            xv = axis(v)
            pts += [(xv, pts[-1][1]), (xv, y((k + 1) / n))]
        pts.append((x1, pts[-1][1]))
        d = 'M' + ' L'.join(f'{num(px)} {num(py)}' for px, py in pts)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ''
        svg.add(f'<path class="profile" d="{d}" fill="none" stroke="{stroke}" stroke-width="2"{dash_attr}>'
                f'<title>{escape(label)}</title></path>')
        ly = top + 10 + s * 20
        svg.add(f'<line x1="{num(x1 + 16)}" y1="{num(ly)}" x2="{num(x1 + 46)}" y2="{num(ly)}" stroke="{stroke}" '
                f'stroke-width="2"{dash_attr}/>')
        svg.text(x1 + 52, ly + 4, label, 10.5)
    return svg.render(title)


def write_plots(records, out_dir, link_dir):
    """Writes the SVG files into out_dir (removing stale ones there) and returns the markdown
    that shows them, with links relative to link_dir (the folder of the doc)."""
    os.makedirs(out_dir, exist_ok=True)
    made = []
    for stem, benchmark, ours, label, peers in RATIO_CHARTS:
        svg = ratio_chart(records, benchmark, ours, label, peers)
        if svg:
            made.append((PREFIX + stem + '.svg', f'{benchmark}: {label} vs peers', svg))
    stem, benchmark, solvers = PROFILE
    svg = profile_chart(records, benchmark, solvers)
    if svg:
        made.append((PREFIX + stem + '.svg', f'performance profile of {benchmark}', svg))
    names = {name for name, _, _ in made}
    for old in sorted(os.listdir(out_dir)):
        if old.endswith('.svg') and old not in names:
            os.remove(os.path.join(out_dir, old))
    rel = os.path.relpath(out_dir, link_dir).replace(os.sep, '/')
    lines = [f'### Pictures: {DEVICE}', '', textwrap.fill(
             'Drawn from the same records as the tables below by `python3 scripts/perf_table.py` '
             '(scripts/perf_plots.py). Bars are peer ms / gpuglu ms per matrix on a log scale, drawn '
             'from 1: right of the line at 1, gpuglu is faster; the last group is the geometric mean; '
             'an × is a peer skipped or failed on that matrix. The performance profile gives, for each '
             'solver, the fraction of matrices on which its time is within a factor τ of the best '
             '(a time measured in several runs counts with its geometric mean).', 90), '']
    for name, alt, svg in made:
        with open(os.path.join(out_dir, name), 'w', encoding='utf-8', newline='\n') as f:
            f.write(svg)
        lines += [f'![{alt}]({rel}/{name})', '']
    return '\n'.join(lines)


def update_doc(doc, records, out_dir, link_dir):
    """doc's text with the block between the perf-plots markers redone (the SVGs written),
    or None when doc lacks the markers."""
    if BEGIN not in doc or END not in doc:
        return None
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + '\n' + write_plots(records, out_dir, link_dir) + END + tail


def main():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import perf_table
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--results', default='docs/performance/results.jsonl')
    ap.add_argument('--out-dir', default='docs/performance/plots', help='folder of the SVG files')
    ap.add_argument('--doc', help='markdown file whose perf-plots block to redo (default: none, only the SVGs)')
    args = ap.parse_args()
    records = perf_table.load(args.results)
    if not args.doc:
        write_plots(records, args.out_dir, args.out_dir)
        return
    with open(args.doc, encoding='utf-8') as f:
        doc = f.read()
    new = update_doc(doc, records, args.out_dir, os.path.dirname(os.path.abspath(args.doc)))
    if new is None:
        sys.exit(f'{args.doc}: markers {BEGIN} / {END} missing')
    with open(args.doc, 'w', encoding='utf-8') as f:
        f.write(new)


if __name__ == '__main__':
    main()
