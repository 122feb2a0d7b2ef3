#!/usr/bin/env python3
"""PETSc's own test harness, driven on gpuglu's PETSc-style tests (tests/petsc).

The example programs here carry /*TEST ... TEST*/ blocks and expected outputs in
output/<name>_<suffix>.out, exactly like PETSc's examples. This driver reuses the
tools Debian ships with libpetsc3.18-dev-examples instead of reimplementing them:

  list      testparse.py parses the TEST blocks; one line per test case
            ("<executable> <script name> <label>") for CMake to make one ctest each.
  generate  gmakegentest.py (PETSc's generator, as an external package such as SLEPc
            uses it) writes one bash script per test case, built on petsc_harness.sh;
            results are compared with petscdiff, the numeric-tolerant diff.
  run       runs one generated script and turns its counts file into an exit status
            (0 passed, 1 failed, 77 skipped).
"""
import argparse
import glob
import os
import subprocess
import sys

SKIPPED = 77
PKG_NAME = 'gpuglu'
PKG_ARCH = 'conf'  # <testdir>/conf/include/gpugluconf.h: the package's defines for "requires:"


def petsc_tools(config_dir):
    sys.path.insert(0, config_dir)
    import testparse  # noqa: E402  (PETSc's parser of TEST blocks)
    import gmakegentest  # noqa: E402  (PETSc's script generator)
    return testparse, gmakegentest


def test_sources(srcdir):
    return sorted(f for f in glob.glob(os.path.join(srcdir, '*.cpp')))


def rpath(srcdir):
    """The tests' folder relative to the generator's source root: names scripts and labels."""
    return os.path.basename(os.path.normpath(srcdir))


def cmd_list(args):
    testparse, _ = petsc_tools(args.config_dir)
    for src in test_sources(args.srcdir):
        parsed = testparse.parseTestFile(src, 0)
        exfile = os.path.basename(src)
        if exfile not in parsed:
            continue
        execname = os.path.splitext(exfile)[0]
        for test in sorted(parsed[exfile]):
            if test in testparse.buildkeys:
                continue
            label = rpath(args.srcdir) + '-' + testparse.getDefaultOutputFileRoot(test)
            print(execname, test, label)


def write_package_conf(testdir, have_cuda):
    include = os.path.join(testdir, PKG_ARCH, 'include')
    os.makedirs(include, exist_ok=True)
    with open(os.path.join(include, PKG_NAME + 'conf.h'), 'w') as f:
        f.write('/* gpuglu build features, read by gmakegentest.py for "requires:" */\n')
        if have_cuda:
            f.write('#define GPUGLU_HAVE_CUDA 1\n')


def cmd_generate(args):
    _, gmakegentest = petsc_tools(args.config_dir)
    testdir = os.path.abspath(args.testdir)
    srcdir = os.path.abspath(args.srcdir)
    write_package_conf(testdir, args.have_cuda)
    generator = gmakegentest.generateExamples(
        petsc_dir=args.petsc_dir, petsc_arch='', pkg_dir=testdir, pkg_arch=PKG_ARCH, pkg_name=PKG_NAME,
        pkg_pkgs=rpath(srcdir), srcdir=os.path.dirname(srcdir), testdir=testdir)
    files = [os.path.basename(s) for s in test_sources(srcdir)]
    generator.genPetscTests(srcdir, [], files, {})
    if args.stamp:
        with open(args.stamp, 'w') as f:
            f.write('generated\n')


def read_counts(path):
    counts = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.strip().partition(' ')
            counts[key] = value
    return counts


def cmd_run(args):
    testdir = os.path.abspath(args.testdir)
    script = os.path.join(testdir, args.rpath, args.test + '.sh')
    counts_file = os.path.join(testdir, 'counts', args.label + '.counts')
    if not os.path.isfile(script):
        print('missing generated script %s (build the petsc_harness_scripts target)' % script)
        return 1
    # A stale counts file must not make a crashed run look like a pass.
    if os.path.exists(counts_file):
        os.remove(counts_file)
    proc = subprocess.run(['bash', script] + args.script_args, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    sys.stdout.write(proc.stdout)
    if not os.path.isfile(counts_file):
        print('# harness script ended (status %d) without writing %s' % (proc.returncode, counts_file))
        return 1
    counts = read_counts(counts_file)
    total = int(counts.get('total', '0'))
    failed = int(counts.get('failed', '0'))
    success = int(counts.get('success', '0'))
    skip = int(counts.get('skip', '0') or 0)
    print('# %s: total %d, success %d, failed %d%s' % (args.label, total, success, failed,
                                                      ', skipped' if skip > 0 else ''))
    if failed > 0:
        print('# failures:%s' % counts.get('failures', ''))
        return 1
    if skip > 0 and success == 0:
        return SKIPPED
    return 0 if success > 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--config-dir', help="PETSc's harness tools (testparse.py, gmakegentest.py)")
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('list')
    p.add_argument('--srcdir', required=True)
    p = sub.add_parser('generate')
    p.add_argument('--srcdir', required=True)
    p.add_argument('--testdir', required=True)
    p.add_argument('--petsc-dir', required=True)
    p.add_argument('--have-cuda', type=int, default=0)
    p.add_argument('--stamp')
    p = sub.add_parser('run')
    p.add_argument('--testdir', required=True)
    p.add_argument('--rpath', default='petsc')
    p.add_argument('--test', required=True, help='script name, e.g. runex1_circuit')
    p.add_argument('--label', required=True, help='counts label, e.g. petsc-ex1_circuit')
    p.add_argument('script_args', nargs='*', help='passed to the script (e.g. -v, -m to update outputs)')
    args = parser.parse_args()
    if args.command in ('list', 'generate') and not args.config_dir:
        parser.error('--config-dir is required for ' + args.command)
    return {'list': cmd_list, 'generate': cmd_generate, 'run': cmd_run}[args.command](args) or 0


if __name__ == '__main__':
    sys.exit(main())
