"""Whole-process cost of the output discipline (issue 38): temporaries fsynced and renamed, a
description beside `generate`'s output, signal handling, the lazily loaded package.

`graph500 generate --scale 22` and `graph500 run --scale 20` of this tree are run turn about
with the same commands of another revision (``--before``, default the commit before the
discipline), ``--rounds`` times each after one untimed warm-up run of each (which also fills
each tree's kernel cache). Prints every round's wall seconds, each command's median and range,
and the ratio of this tree's median to the other's, with the median of the per-round ratios
(which holds when the machine's speed drifts). A ratio within the spread of the rounds is
noise. Check `uptime` first: the runs need a quiet machine.

    python benchmarks/bench_outputs.py [--before REV] [--rounds 7] [--gen-scale 22] [--run-scale 20]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BEFORE = "0b6b239"  # the last commit before the output discipline


def _timed(cmd, env, cwd) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return took


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", default=BEFORE, help=f"the revision to compare with (default "
                                                     f"{BEFORE})")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--gen-scale", type=int, default=22)
    ap.add_argument("--run-scale", type=int, default=20)
    args = ap.parse_args(argv)
    print(f"# load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    work = tempfile.mkdtemp(prefix="bench-outputs-")
    old = os.path.join(work, "before")
    subprocess.run(["git", "-C", REPO, "worktree", "add", "--detach", old, args.before],
                   check=True, capture_output=True)
    try:
        trees = {"this tree": os.path.join(REPO, "src"), args.before: os.path.join(old, "src")}
        commands = {
            f"generate --scale {args.gen_scale}": ["generate", "--scale", str(args.gen_scale),
                                                   "--out", os.path.join(work, "g.bin"), "-q"],
            f"run --scale {args.run_scale}": ["run", "--scale", str(args.run_scale), "-q"],
        }
        for what, argv_ in commands.items():
            times = {t: [] for t in trees}
            for rnd in range(args.rounds + 1):  # round 0: the untimed warm-up
                for tree, src in trees.items():
                    env = dict(os.environ, PYTHONPATH=src)
                    took = _timed([sys.executable, "-m", "pygraph500", *argv_], env, work)
                    if rnd:
                        times[tree].append(took)
            new, base = times["this tree"], times[args.before]
            print(f"\n{what}: wall seconds per round (this tree / {args.before})")
            for a, b in zip(new, base):
                print(f"  {a:7.3f}  {b:7.3f}  ratio {a / b:.3f}")
            for tree, t in times.items():
                print(f"  {tree:>10}: median {statistics.median(t):.3f} s "
                      f"(range {min(t):.3f}-{max(t):.3f})")
            print(f"  ratio of medians {statistics.median(new) / statistics.median(base):.3f}, "
                  f"median of the rounds' ratios "
                  f"{statistics.median(a / b for a, b in zip(new, base)):.3f}")
    finally:
        subprocess.run(["git", "-C", REPO, "worktree", "remove", "--force", old],
                       capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
