"""The first run's compile time (issue 17, item 5): a cold ``graph500 run --scale 10`` (fresh
numba cache, no compiled marker) and a cached one, wall and CPU seconds (user + sys, workers
included), several repeats, the variants interleaved (A, B, A, B, ...):

- ``parallel``: this tree as installed: the warm-up's parts compiled at once on every usable
  core (``benchmark.compile_ahead``);
- ``serial``: this tree, everything compiled in the one process (``usable_cores`` patched
  to 1);
- ``--baseline REF``: the package of git revision REF (e.g. ``main``), unpacked afresh for
  each cold run (its cache lives beside its modules).

Targets: cold <= 25 s, cached <= 1.5 s on 2 cores.

    python benchmarks/bench_compile.py [--repeats 3] [--baseline main] [--scale 10]
    python benchmarks/bench_compile.py --profile [--baseline main]   # per function, cold
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Every variant runs the CLI through this wrapper, which reports its own CPU seconds and its
# worker processes' apart: with a core for each process (a quiet machine) the wall time is
# about the larger of the two, whatever the load now.
WRAPPER = """import atexit, resource, sys
def cpu():
    own, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    print("#cpu", own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime, file=sys.stderr)
atexit.register(cpu)
{patch}from pygraph500.cli import main
sys.exit(main(sys.argv[1:]))
"""
SERIAL = "import pygraph500.benchmark.compile_ahead as c; c.usable_cores = lambda: 1\n"
# --profile: numba's compile events in the run's own process: each function's CPU seconds (of
# the compiling thread, so little changed by the load) without the callees it compiled
# meanwhile, and its number of signatures.
PROFILE = """import collections, time
from numba.core import event
spent, sigs, stack = collections.Counter(), collections.Counter(), []
class Compiles(event.Listener):
    def on_start(self, ev):
        stack.append([time.thread_time(), 0.0])
    def on_end(self, ev):
        t0, inner = stack.pop()
        dt = time.thread_time() - t0
        if stack:
            stack[-1][1] += dt
        f = ev.data["dispatcher"].py_func
        spent[f.__module__ + "." + f.__qualname__] += dt - inner
        sigs[f.__module__ + "." + f.__qualname__] += 1
event.register("numba:compile", Compiles())
def table():
    print(f"#compiled {sum(spent.values()):.1f} CPU s, {len(spent)} functions, "
          f"{sum(sigs.values())} signatures", file=sys.stderr)
    for name, t in spent.most_common(25):
        print(f"#{t:7.2f} s {sigs[name]:2d} x {name}", file=sys.stderr)
atexit.register(table)
"""


def timed(cmd: list[str], env: dict) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds of the process itself, of its worker processes)."""
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    own, kids = map(float, done.stderr.rsplit("#cpu", 1)[1].split())
    return wall, own, kids


def unpack(ref: str, into: str) -> str:
    """The src/ tree of git revision ``ref`` under ``into``; returns its src directory."""
    archive = subprocess.run(["git", "-C", ROOT, "archive", ref, "src"], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    return os.path.join(into, "src")


def cold_then_cached(variant: str, args, tmp: str) -> tuple[tuple, tuple]:
    """One cold run then one cached run of ``variant`` in a fresh cache."""
    run = ["run", "--scale", str(args.scale), "--quiet"]
    env = dict(os.environ)
    fresh = tempfile.mkdtemp(dir=tmp)
    patch = SERIAL if variant == "serial" else ""
    if variant == "baseline":
        env["PYTHONPATH"] = unpack(args.baseline, fresh)  # cache and marker in that copy
        env.pop("NUMBA_CACHE_DIR", None)
    else:
        env["NUMBA_CACHE_DIR"] = fresh  # the cache and the compiled marker
    cmd = [sys.executable, "-c", WRAPPER.format(patch=patch), *run]
    cold = timed(cmd, env)
    cached = timed(cmd, env)
    shutil.rmtree(fresh, ignore_errors=True)
    return cold, cached


def profile(args) -> None:
    """One cold run of each variant with numba's compile events of the run's own process."""
    variants = [("serial", SERIAL), ("parallel (its own process)", "")]
    if args.baseline:
        variants.append((f"baseline {args.baseline}", ""))
    for what, patch in variants:
        with tempfile.TemporaryDirectory() as fresh:
            env = dict(os.environ, NUMBA_CACHE_DIR=fresh)
            if what.startswith("baseline"):
                env["PYTHONPATH"] = unpack(args.baseline, fresh)
            cmd = [sys.executable, "-c", WRAPPER.format(patch=patch + PROFILE), "run",
                   "--scale", str(args.scale), "--quiet"]
            done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, check=True)
        print(f"# {what}, load {os.getloadavg()[0]:.2f}:")
        print("\n".join(line[1:] for line in done.stderr.splitlines()
                        if line.startswith("#") and not line.startswith("#cpu")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--baseline", metavar="REF", default=None,
                    help="also time the package of this git revision (e.g. main)")
    ap.add_argument("--variants", default="parallel,serial",
                    help="comma-separated: parallel, serial (baseline is added by --baseline)")
    ap.add_argument("--profile", action="store_true",
                    help="instead: where a cold run's compile time goes, function by function")
    args = ap.parse_args()
    if args.profile:
        return profile(args)
    variants = args.variants.split(",") + (["baseline"] if args.baseline else [])
    print(f"# {platform.node()}: {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f} at the start; SCALE {args.scale}")
    results: dict[str, list] = {v: [] for v in variants}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.repeats):
            for v in variants:
                (cw, co, ck), (hw, ho, hk) = cold_then_cached(v, args, tmp)
                results[v].append((cw, co + ck, max(co, ck), hw, ho + hk))
                print(f"{v:9s} repeat {rep}: cold {cw:6.1f} s wall, CPU {co:5.1f} s here + "
                      f"{ck:5.1f} s workers; cached {hw:5.2f} s wall {ho + hk:5.2f} s CPU; "
                      f"load {os.getloadavg()[0]:.2f}", flush=True)
    print(f"# medians of {args.repeats}; load average {os.getloadavg()[0]:.2f} at the end; "
          "critical CPU: the larger of this process's and its workers' CPU seconds, the wall "
          "time with a core for each")
    print("| variant | cold wall s | cold CPU s | cold critical CPU s | cached wall s | "
          "cached CPU s |")
    print("|---|---|---|---|---|---|")
    med = {v: np.median(np.array(r), axis=0) for v, r in results.items()}
    for v, m in med.items():
        print(f"| {v} | {m[0]:.1f} | {m[1]:.1f} | {m[2]:.1f} | {m[3]:.2f} | {m[4]:.2f} |")
    for v in variants[1:]:
        print(f"# cold critical CPU {v} / {variants[0]} = {med[v][2] / med[variants[0]][2]:.2f}")
    m = med[variants[0]]
    print(f"# targets ({variants[0]}): cold {m[0]:.1f} s wall, {m[2]:.1f} s critical CPU <= 25; "
          f"cached {m[3]:.2f} s wall <= 1.5")


if __name__ == "__main__":
    main()
