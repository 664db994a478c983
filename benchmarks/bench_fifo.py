"""Our BFS on thin graphs (a path, a grid) beside scipy's and a bare FIFO BFS in numba.

A BFS along a path is a chain of dependent loads (vertex -> its list's start -> its neighbour
-> ...), and a level is one vertex, so what a search does per level shows. The systems, on the
same CSR from the same roots:

- ``scipy``: ``breadth_first_order(A, root, directed=True, return_predecessors=True)``, as
  ``bench_bfs.py`` calls it (float64 data, int32 indices: nothing converted);
- ``fifo``: ``fifo_bfs`` below, scipy's loop compiled by numba and nothing else (int32
  parents and queue, no levels, no statistics): the floor a FIFO search can reach here;
- ``ours``: each of ``--algorithms`` (default: the default algorithm), ``depth=False`` as
  kernel 2 runs it; with ``--serial-work W ...`` each again with ``steps.SERIAL_WORK = W``
  (levels with less work than that run serially; the default is 16384).

Every round calls every system once from every root, in turn, so that the machine's drift
hits them all alike; the table gives the median over ``--repeats`` rounds (after one untimed
warm-up search each, which also checks that all systems reach the same vertices), the ns per
vertex reached at the worst root, and scipy's time over each system's (> 1: faster than
scipy) at that root.

    python benchmarks/bench_fifo.py [--graphs path grid] [--repeats 11]
                                    [--algorithms direction-optimizing topdown-queue]
                                    [--serial-work 4096] [--path 1000000] [--grid 1000]
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numba
import numpy as np
from numba import njit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_bfs import graph_title, make_graph  # noqa: E402


@njit(cache=True)
def fifo_bfs(indptr, indices, root):
    """The plain FIFO BFS of scipy's ``breadth_first_order``: (parent, visit order); the
    root is its own parent, unreached vertices -1."""
    n = indptr.shape[0] - 1
    parent = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int32)
    parent[root] = root
    queue[0] = root
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            if parent[v] < 0:
                parent[v] = u
                queue[tail] = v
                tail += 1
    return parent, queue[:tail]


def systems(graph, algorithms, serial_work):
    """{name: search(root) -> number of vertices reached}."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order

    from pygraph500.bfs import ALGORITHMS, steps

    n = graph.num_vertices
    a = sp.csr_matrix((np.ones(graph.indices.shape[0]), graph.indices, graph.indptr),
                      shape=(n, n))
    out = {"scipy": lambda r: breadth_first_order(a, r, directed=True,
                                                  return_predecessors=True)[0].shape[0],
           "fifo": lambda r: fifo_bfs(graph.indptr, graph.indices, r)[1].shape[0]}

    def ours(fn, work):
        def search(root):
            default = steps.SERIAL_WORK
            steps.SERIAL_WORK = default if work is None else work
            try:
                return int(np.count_nonzero(fn(graph, root, depth=False).parent >= 0))
            finally:
                steps.SERIAL_WORK = default
        return search

    for name in algorithms:
        out[f"ours: {name}"] = ours(ALGORITHMS[name], None)
        for w in serial_work:
            out[f"ours: {name}, SERIAL_WORK={w}"] = ours(ALGORITHMS[name], w)
    return out


def run_graph(spec, args) -> None:
    from pygraph500 import build_csr

    edges, roots, labels = make_graph(spec)
    graph = build_csr(edges)
    runs = systems(graph, args.algorithms, args.serial_work)
    reached = {}
    for name, search in runs.items():
        reached[name] = [search(int(r)) for r in roots]
    if len({tuple(v) for v in reached.values()}) != 1:
        raise SystemExit(f"systems reach different vertices: {reached}")
    times = {(name, i): [] for name in runs for i in range(len(roots))}
    for _ in range(args.repeats):
        for i, r in enumerate(roots):
            for name, search in runs.items():
                t0 = time.perf_counter()
                search(int(r))
                times[(name, i)].append(time.perf_counter() - t0)
    med = {k: float(np.median(v)) for k, v in times.items()}
    print(f"\n#### {graph_title(spec)}: median of {args.repeats} interleaved rounds; load "
          f"{os.getloadavg()[0]:.2f}\n")
    print("| system | " + " | ".join(f"ms, {lab}" for lab in labels)
          + " | ns per vertex (worst root) | scipy / this (worst root) |")
    print("|---" * (len(labels) + 3) + "|")
    for name in runs:
        ms = [med[(name, i)] * 1e3 for i in range(len(roots))]
        worst = int(np.argmax([med[(name, i)] / med[("scipy", i)] for i in range(len(roots))]))
        ns = med[(name, worst)] * 1e9 / reached[name][worst]
        ratio = med[("scipy", worst)] / med[(name, worst)]
        print(f"| {name} | " + " | ".join(f"{t:.2f}" for t in ms)
              + f" | {ns:.2f} | {ratio:.2f} |", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", nargs="+", choices=["path", "grid"], default=["path", "grid"])
    ap.add_argument("--algorithms", nargs="+", default=["direction-optimizing"])
    ap.add_argument("--serial-work", type=int, nargs="*", default=[],
                    help="also run ours with steps.SERIAL_WORK set to each of these")
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--path", type=int, default=1_000_000, help="vertices of the path")
    ap.add_argument("--grid", type=int, default=1000, help="side of the grid")
    args = ap.parse_args(argv)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, numba {numba.__version__} ({numba.get_num_threads()} "
          f"threads); load {os.getloadavg()[0]:.2f}")
    for g in args.graphs:
        run_graph({"kind": "path", "n": args.path} if g == "path"
                  else {"kind": "grid", "side": args.grid}, args)


if __name__ == "__main__":
    main()
