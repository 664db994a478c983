"""`make run` on a fresh clone: the whole first use, from `git clone` to the official block.

The repository's commit (``--rev``, default this checkout's HEAD: commit what you want
measured) is cloned into a temporary directory, and there, one after the other:

1. ``make .venv/.installed``: the virtual environment and ``pip install -e '.[test,plot,mpi]'``
   (pip's own cache is used unless ``--no-pip-cache``: then every wheel is downloaded, and
   the figure depends on the network);
2. ``make run SCALE=S``: the first run, which compiles the numba kernels into the clone's own
   cache (``NUMBA_CACHE_DIR`` is unset for it);
3. ``make run SCALE=S`` again: the kernels now load from the cache.

``make run`` on a fresh clone is steps 1 and 2 (what a new user's first ``make run`` does);
the first run's compilation is step 2 minus step 3. Each step's wall seconds and the CPU
seconds (user + sys) of its processes are printed; CPU seconds move less with the load.

    python benchmarks/bench_make_run.py [--scale 20] [--rev HEAD] [--no-pip-cache]
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd: list[str], cwd: str, env: dict) -> tuple[float, float, str]:
    """(wall s, CPU s of the children, stdout) of one command; exits on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n"
                         f"{proc.stderr[-4000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--rev", default="HEAD", help="the commit to clone (default: HEAD)")
    ap.add_argument("--no-pip-cache", action="store_true",
                    help="download every wheel (PIP_NO_CACHE_DIR=1)")
    ap.add_argument("--python", default="python3", help="the interpreter make uses (PYTHON)")
    ap.add_argument("--dir", default=None, help="where the clone goes (default: a temporary one)")
    args = ap.parse_args(argv)
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", args.rev], capture_output=True,
                         text=True, check=True).stdout.strip()
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "VIRTUAL_ENV", "PYTHONPATH")}
    if args.no_pip_cache:
        env["PIP_NO_CACHE_DIR"] = "1"
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores; commit {rev[:12]}; SCALE {args.scale}; pip cache "
          f"{'off' if args.no_pip_cache else 'on'}; load {os.getloadavg()[0]:.2f}\n")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        clone = os.path.join(tmp, "pygraph500")
        steps = [("git clone", ["git", "clone", "--quiet", "--no-checkout", ROOT, clone], tmp)]
        rows = []
        for name, cmd, cwd in steps:
            rows.append((name, *timed(cmd, cwd, env)[:2]))
        subprocess.run(["git", "-C", clone, "checkout", "--quiet", rev], check=True)
        make = ["make", f"PYTHON={args.python}"]
        steps = [("venv + install (make .venv/.installed)", make + [".venv/.installed"]),
                 (f"first make run SCALE={args.scale} (compiles)", make + ["run",
                                                                          f"SCALE={args.scale}"]),
                 (f"second make run SCALE={args.scale} (cached)", make + ["run",
                                                                         f"SCALE={args.scale}"])]
        for name, cmd in steps:
            wall, cpu, out = timed(cmd, clone, env)
            rows.append((name, wall, cpu))
            print(f"# {name}: {wall:.1f} s (load {os.getloadavg()[0]:.2f})", file=sys.stderr,
                  flush=True)
    (_, clone_w, clone_c), (_, inst_w, inst_c), (_, run1_w, run1_c), (_, run2_w, run2_c) = rows
    rows += [("compilation (first run - second run)", run1_w - run2_w, run1_c - run2_c),
             (f"make run SCALE={args.scale} on a fresh clone (install + first run)",
              inst_w + run1_w, inst_c + run1_c)]
    print("| step | wall s | CPU s (user + sys) |")
    print("|---|---|---|")
    for name, wall, cpu in rows:
        print(f"| {name} | {wall:.1f} | {cpu:.1f} |")
    print(f"\nload at the end {os.getloadavg()[0]:.2f}; the second run's official block:\n")
    print(out.strip())


if __name__ == "__main__":
    main()
