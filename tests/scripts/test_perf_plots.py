#!/usr/bin/env python3
"""scripts/perf_plots.py on a fixed fixture (perf_plots_fixture.jsonl), into a temporary
folder: the SVGs are well-formed XML with the expected bars, byte-identical between two
runs, and scripts/perf_table.py redoes only the two marker blocks of a doc.

Usage: test_perf_plots.py <scripts folder>  (python3's standard library only)
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

SCRIPTS = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else
                          os.path.join(os.path.dirname(__file__), '..', '..', 'scripts'))
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'perf_plots_fixture.jsonl')
SVG = '{http://www.w3.org/2000/svg}'

# file -> (bars: one per matrix and peer with a time plus one geometric mean per peer, x marks)
EXPECTED = {
    'h100_lu_refactor_column.svg': (4 * 3 - 1 + 3, 1),      # 4 matrices, KLU skipped on add32
    'h100_lu_refactor_supernodal.svg': (3 * 3 - 1 + 3, 1),  # 3 matrices
    'h100_lu_solve_column.svg': (3 + 3, 0),
    'h100_ldlt_numeric.svg': (2 + 2, 1),                    # CHOLMOD skipped (not SPD)
}
PROFILE = 'h100_lu_refactor_profile.svg'


def run(script, *args):
    subprocess.run([sys.executable, os.path.join(SCRIPTS, script), '--results', FIXTURE, *args], check=True)


def with_class(root, tag, cls):
    return [e for e in root.iter(SVG + tag) if e.get('class') == cls]


class PerfPlots(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def plots(self, name):
        out = os.path.join(self.tmp.name, name)
        run('perf_plots.py', '--out-dir', out)
        return out

    def test_svgs(self):
        out = self.plots('a')
        self.assertEqual(sorted(os.listdir(out)), sorted(list(EXPECTED) + [PROFILE]))
        for name in sorted(os.listdir(out)):
            path = os.path.join(out, name)
            with self.subTest(name=name):
                self.assertLess(os.path.getsize(path), 60000)
                root = ET.parse(path).getroot()  # well-formed XML
                self.assertEqual(root.tag, SVG + 'svg')
                self.assertTrue(root.get('viewBox'))
                self.assertIn('sans-serif', root.get('font-family'))
                if name == PROFILE:
                    self.assertEqual(len(with_class(root, 'path', 'profile')), 5)
                    subtitle = ''.join(root.itertext())
                    self.assertIn('2 matrices on which all 5 solvers have a time', subtitle)
                    continue
                bars, missing = EXPECTED[name]
                self.assertEqual(len(with_class(root, 'rect', 'bar')), bars)
                self.assertEqual(len(with_class(root, 'text', 'missing')), missing)
        # The newest record of a key counts: 0.5 ms, not the older 100 ms.
        with open(os.path.join(out, 'h100_lu_refactor_column.svg'), encoding='utf-8') as f:
            text = f.read()
        self.assertIn('circuit:1000:10, cudss_refactor: 0.50x', text)
        self.assertNotIn('AMD EPYC', text)

    def test_deterministic(self):
        a, b = self.plots('a'), self.plots('b')
        for name in sorted(os.listdir(a)):
            with open(os.path.join(a, name), 'rb') as fa, open(os.path.join(b, name), 'rb') as fb:
                self.assertEqual(fa.read(), fb.read(), name)

    def test_perf_table_redoes_only_the_blocks(self):
        doc = os.path.join(self.tmp.name, 'doc.md')
        parts = ['# Doc\n\nabove\n\n', '<!-- perf-plots:begin -->', '\nstale\n', '<!-- perf-plots:end -->',
                 '\n\nbetween\n\n', '<!-- perf-tables:begin -->', '\n', '<!-- perf-tables:end -->', '\n\nbelow\n']
        with open(doc, 'w', encoding='utf-8') as f:
            f.write(''.join(parts))
        plots = os.path.join(self.tmp.name, 'pics')
        run('perf_table.py', '--doc', doc, '--plots-dir', plots)
        with open(doc, encoding='utf-8') as f:
            text = f.read()
        outside = re.sub(r'<!-- perf-(plots|tables):begin -->.*?<!-- perf-\1:end -->', '', text, flags=re.S)
        self.assertEqual(outside, parts[0] + parts[4] + parts[8])
        self.assertNotIn('stale', text)
        self.assertIn('### lu_refactor on NVIDIA H100 80GB HBM3', text)
        links = re.findall(r'!\[[^]]*\]\(([^)]+\.svg)\)', text)
        self.assertEqual(len(links), len(EXPECTED) + 1)
        for link in links:
            self.assertTrue(os.path.isfile(os.path.join(self.tmp.name, link)), link)


if __name__ == '__main__':
    unittest.main(verbosity=2)
