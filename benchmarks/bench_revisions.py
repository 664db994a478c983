"""One benchmark script at two revisions of this repository, interleaved on the same machine.

    python benchmarks/bench_revisions.py --base 3e32088 --rounds 2 -- \
        bench_bfs.py --scales 20 --roots 16 --skip-high-diameter --peers scipy

checks the base revision out into a temporary worktree (or takes ``--base`` as a checkout
when it names a folder, whose numba cache is then warm from earlier runs), then runs the
script (the
working tree's copy of it, so both sides measure alike) ``--rounds`` times per side,
alternating which side goes first, each run in a fresh process with the package of its
side first on ``PYTHONPATH`` (numba's cache is per source tree, so the first round of
each side may include compilation: ``--warm`` runs each side once untimed first). Every
run's output is printed whole, under a header naming the side and the round; the load
average before and after each run is printed beside it.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _run(script_args, src, label):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])]))
    before = os.getloadavg()[0]
    done = subprocess.run([sys.executable, os.path.join(HERE, script_args[0]),
                           *script_args[1:]], env=env, capture_output=True, text=True)
    after = os.getloadavg()[0]
    print(f"===== {label} (load {before:.2f} -> {after:.2f}, exit {done.returncode})",
          flush=True)
    print(done.stdout + done.stderr[-2000:], flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", required=True,
                   help="the revision to compare with: a git revision, or a checkout's folder")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--warm", action="store_true", help="one untimed run per side first")
    p.add_argument("script", nargs=argparse.REMAINDER,
                   help="-- then a script of benchmarks/ and its arguments")
    a = p.parse_args(argv)
    script = a.script[1:] if a.script[:1] == ["--"] else a.script
    if not script:
        p.error("name the benchmark script after --")
    if os.path.isdir(a.base):
        _compare(script, a, a.base)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-base-") as tmp:
        base = os.path.join(tmp, "base")
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "-q", base, a.base],
                       check=True)
        try:
            _compare(script, a, base)
        finally:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", base],
                           check=False)
    return 0


def _compare(script, a, base):
    sides = [("base " + a.base, os.path.join(base, "src")),
             ("this tree", os.path.join(ROOT, "src"))]
    if a.warm:
        for label, src in sides:
            _run(script, src, f"{label}, warm-up")
    for r in range(a.rounds):
        for label, src in (sides if r % 2 == 0 else sides[::-1]):
            _run(script, src, f"{label}, round {r + 1}")


if __name__ == "__main__":
    sys.exit(main())
