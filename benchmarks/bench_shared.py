"""How the compiled default behaves on a shared machine (issue 17, item 3): the whole
benchmark under several thread wait policies, on a quiet machine and beside one busy process.

numba's parallel kernels run on an OpenMP (libgomp) thread team: between parallel regions a
worker spins for a while before it sleeps. When another process holds one of the cores, the
spinning workers and a descheduled team member wait for each other at every barrier. The
settings compared (each a fresh ``python -m pygraph500 run --json``):

- ``default``: what the process gets with nothing set: libgomp's spin, or the bounded spin
  pygraph500 chooses when other processes are running at the start
  (``backend.threads.shared_machine``);
- ``GOMP_SPINCOUNT=300000``: libgomp's own default, named (so pygraph500 leaves it alone);
- ``OMP_WAIT_POLICY=active`` / ``passive``: spin for ever / sleep at once;
- ``GOMP_SPINCOUNT=N``: spin N times, then sleep (libgomp's bounded spin);
- ``NUMBA_THREADING_LAYER=workqueue``: numba's own thread pool instead of OpenMP.

The busy neighbour is one process spinning in Python for the whole run. ``--settings`` picks
some of these by name, or any environment as ``VAR=VALUE`` (``GOMP_SPINCOUNT=1000``: the
bounded spin the default uses beside busy processes, here forced); ``--quiet-only`` skips the
runs beside the busy process.

    python benchmarks/bench_shared.py [--scale 18] [--roots 16] [--repeats 2]
                                      [--settings default GOMP_SPINCOUNT=1000] [--quiet-only]
"""
from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_mpi import run_json  # noqa: E402

SETTINGS = {
    "default": {},
    "GOMP_SPINCOUNT=300000": {"GOMP_SPINCOUNT": "300000"},
    "OMP_WAIT_POLICY=active": {"OMP_WAIT_POLICY": "active"},
    "OMP_WAIT_POLICY=passive": {"OMP_WAIT_POLICY": "passive"},
    "GOMP_SPINCOUNT=10000": {"GOMP_SPINCOUNT": "10000"},
    "NUMBA_THREADING_LAYER=workqueue": {"NUMBA_THREADING_LAYER": "workqueue"},
}
_OURS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "NUMBA_THREADING_LAYER")


def one(scale: int, roots: int, env: dict) -> float:
    full = {k: v for k, v in os.environ.items() if k not in _OURS}
    full.update(env)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [sys.executable, "-m", "pygraph500", "run", "--scale", str(scale), "--roots",
               str(roots), "--json", out, "--quiet"]
        doc, _ = run_json(cmd, out, full)
    return doc["official"]["bfs  harmonic_mean_TEPS"]


def setting(name: str) -> dict:
    """The environment of a setting: a name of SETTINGS, or VAR=VALUE[,VAR=VALUE...]."""
    if name in SETTINGS:
        return SETTINGS[name]
    pairs = [p.split("=", 1) for p in name.split(",")]
    if not all(len(p) == 2 and p[0] for p in pairs):
        raise SystemExit(f"--settings: {name!r} is neither one of {list(SETTINGS)} nor VAR=VALUE")
    return dict(pairs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=18)
    ap.add_argument("--roots", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--settings", nargs="+", default=list(SETTINGS), metavar="SETTING")
    ap.add_argument("--quiet-only", action="store_true", help="no runs beside a busy process")
    args = ap.parse_args()
    settings = {name: setting(name) for name in args.settings}
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores; SCALE {args.scale}, {args.roots} roots; median of "
          f"{args.repeats}; load {os.getloadavg()[0]:.2f}")
    rows = {}
    for busy in (False,) if args.quiet_only else (False, True):
        hog = None
        if busy:
            hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            time.sleep(1.0)
        try:
            for name, env in settings.items():
                teps = [one(args.scale, args.roots, env) for _ in range(args.repeats)]
                rows[(name, busy)] = float(np.median(teps))
                print(f"# {name}, {'busy neighbour' if busy else 'quiet'}: "
                      f"{rows[(name, busy)] / 1e6:.1f} MTEPS", flush=True)
        finally:
            if hog is not None:
                hog.kill()
                hog.wait()
    print()
    print("| setting | quiet MTEPS | with one busy process MTEPS | busy / quiet |")
    print("|---|---|---|---|")
    for name in settings:
        q, b = rows[(name, False)], rows.get((name, True))
        busy = "- | -" if b is None else f"{b / 1e6:.1f} | {b / q:.3f}"
        print(f"| {name} | {q / 1e6:.1f} | {busy} |")


if __name__ == "__main__":
    main()
