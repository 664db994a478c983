"""Two kernels timed alone, to compare two source trees of pygraph500 process by process.

- kernel 1: ``build_csr`` on the Kronecker graph of ``--scale`` (edgefactor 16, seeds 2 and
  3), ``--builds`` times in one process (the first build also pays for first-touched memory);
- kernel 2 on a path of ``--path`` vertices (the number of levels dominates): each of the
  queue-driven algorithms from the end, a quarter and the middle, the median of
  ``--repeats`` searches after one warm-up.

One line of output, so that runs of two trees can be interleaved and compared:

    for i in 1 2 3; do
      PYTHONPATH=A/src python benchmarks/bench_kernels.py --label A
      PYTHONPATH=B/src python benchmarks/bench_kernels.py --label B
    done
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from pygraph500 import EdgeList, build_csr, kronecker
from pygraph500.bfs import ALGORITHMS

PATH_ALGORITHMS = ("direction-optimizing", "topdown-queue", "topdown-bitmap")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--builds", type=int, default=4)
    ap.add_argument("--path", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()

    build_csr(kronecker(4, 1))  # compiled code loaded before any timing
    edges = kronecker(args.scale)
    builds = []
    for _ in range(args.builds):
        t0 = time.perf_counter()
        graph = build_csr(edges)
        builds.append(time.perf_counter() - t0)
        del graph

    n = args.path
    src = np.arange(n - 1, dtype=np.int64)
    path = build_csr(EdgeList(src, src + 1, n))
    searches = []
    for name in PATH_ALGORITHMS:
        bfs = ALGORITHMS[name]
        for root in (0, n // 4, n // 2):
            bfs(path, root, depth=False)
            times = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                bfs(path, root, depth=False)
                times.append(time.perf_counter() - t0)
            searches.append(f"{name}@{root}={np.median(times) * 1e3:.2f}ms")
    print(args.label, f"build_csr(SCALE {args.scale}) s:",
          " ".join(f"{t:.3f}" for t in builds), "| path:", " ".join(searches))


if __name__ == "__main__":
    main()
