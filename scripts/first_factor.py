#!/usr/bin/env python3
"""The first factorization in a process (gpuglu_first_factor_bench): each matrix factored in
fresh processes with the kernel warm-up beside the analysis (Options::cuda.kernel_warm_up, the
default) and without it (--no-kernel-warm-up), the sides alternating per round; records
`first_factor` (analysis + first factorization, ms; ours: with the warm-up, peer: without)
and `first_factor_alone` (the first factorization alone), medians of the rounds, to --out.

  first_factor.py --exe build/bench/gpuglu_first_factor_bench --matrices "lap3d7:64x64x32 ..."
                  [--ldlt] [--rounds 3] [--device NAME] [--out results.jsonl] [--run TAG] [--smoke]

--smoke (CTest bench_first_factor_smoke, label gpu): one round of a small LU and LDL^T, each
side's backward error checked; exit 77 (skipped) where no GPU answers.
"""
import argparse
import datetime
import json
import re
import statistics
import subprocess
import sys

SIDES = (("kernel_warm_up", []), ("no_kernel_warm_up", ["--no-kernel-warm-up"]))


def one(exe, matrix, extra, timeout):
    proc = subprocess.run([exe, "--matrix", matrix] + extra, capture_output=True, text=True, timeout=timeout)
    m = re.search(r"^first_factor: (\{.*\})\s*$", proc.stdout, re.M)
    if proc.returncode != 0 or not m:
        raise RuntimeError(f"{matrix} {' '.join(extra)}: exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return json.loads(m.group(1))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--exe", required=True)
    p.add_argument("--matrices", default="", help="generator specs and .mtx files, space-separated")
    p.add_argument("--ldlt", action="store_true")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--device", default="")
    p.add_argument("--out")
    p.add_argument("--run", default="")
    p.add_argument("--smoke", action="store_true")
    args = p.parse_args()
    if args.smoke:
        try:
            subprocess.run(["nvidia-smi", "-L"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except (OSError, subprocess.CalledProcessError):
            print("first_factor.py --smoke: no GPU (nvidia-smi -L fails): skipped")
            return 77
        return smoke(args)
    if not args.matrices:
        p.error("--matrices is required")
    return measure(args)


def smoke(args):
    for ldlt in (False, True):
        for name, flags in SIDES:
            r = one(args.exe, "lap3d7:12x12x12", flags + (["--ldlt"] if ldlt else []), args.timeout)
            if r["backend"] != "cuda" or not r["backward_error"] <= 1e-14:
                print(f"first_factor.py --smoke: {name} ({r['factorization']}): {r}")
                return 1
    print("first_factor.py --smoke: both sides, LU and LDL^T: passed")
    return 0


def measure(args):
    failed = False
    for matrix in args.matrices.split():
        got = {name: [] for name, _ in SIDES}
        try:
            for _ in range(args.rounds):
                for name, flags in SIDES:
                    got[name].append(one(args.exe, matrix, flags + (["--ldlt"] if args.ldlt else []), args.timeout))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"first_factor.py: {e}")
            failed = True
            continue
        med = {name: {k: statistics.median(r[k] for r in runs) for k in
                      ("analyze_ms", "first_factor_ms", "first_factor_device_ms", "refactor_ms", "first_solve_ms",
                       "second_solve_ms", "residual", "backward_error")} for name, runs in got.items()}
        ours, peer = med["kernel_warm_up"], med["no_kernel_warm_up"]
        first = got["kernel_warm_up"][0]
        print(f"{matrix} ({first['factorization']}, n {first['n']}, nnz(L+U) {first['nnz_factor']}), median of "
              f"{args.rounds}: analysis + first factorization {ours['analyze_ms'] + ours['first_factor_ms']:.1f} ms "
              f"with the warm-up, {peer['analyze_ms'] + peer['first_factor_ms']:.1f} without; first factorization "
              f"{ours['first_factor_ms']:.1f} / {peer['first_factor_ms']:.1f}; refactorization "
              f"{ours['refactor_ms']:.1f} / {peer['refactor_ms']:.1f}; first solve {ours['first_solve_ms']:.2f} / "
              f"{peer['first_solve_ms']:.2f}")
        if not args.out:
            continue
        with open(args.out, "a") as f:
            for bench, key in (("first_factor", lambda s: s["analyze_ms"] + s["first_factor_ms"]),
                               ("first_factor_alone", lambda s: s["first_factor_ms"])):
                rec = {"date": datetime.date.today().isoformat(), "device": args.device, "benchmark": bench,
                       "matrix": matrix, "kind": "generated" if ":" in matrix else "file", "n": first["n"],
                       "nnz": first["nnz"], "nnz_factor": first["nnz_factor"], "ours": "gpuglu-kernel-warm-up",
                       "ours_ms": round(key(ours), 3), "peer": "gpuglu-no-kernel-warm-up",
                       "peer_ms": round(key(peer), 3), "factorization": first["factorization"],
                       "rounds": args.rounds, "data": "host arrays, a fresh process per side and round"}
                for side, s in (("ours", ours), ("peer", peer)):
                    for k, v in s.items():
                        rec[f"{side}_{k}"] = v
                if args.run:
                    rec["run"] = args.run
                f.write(json.dumps(rec) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
