"""Our BFS against scipy on the high-diameter graphs, per root, interleaved in one process.

The graphs and roots are ``bench_bfs.py``'s: a ``--grid`` x ``--grid`` grid (roots: corner,
middle of an edge, centre) and a path of ``--path`` vertices (an end, a quarter, the middle).
For each root, after one warm-up of each, the searches alternate (ours, scipy, ours, scipy,
...) ``--repeats`` times: a shared machine's load then falls on both alike, and the ratio of
the two medians (``scipy / ours``: above 1, ours is faster) is what to read; the median of
the per-pair ratios is printed beside it. Each result is freed before the next search, as
in ``bench_bfs.py`` (memory a process touches for the first time costs milliseconds per MB
on some VMs; a search that reuses freed memory does not pay it, for either side).

- ours: ``ALGORITHMS[name](graph, root, depth=False)`` (the parent array only, like scipy's
  predecessors), each ``--algorithms`` (default: the default algorithm), at each
  ``--threads`` count (default: numba's);
``--relabel`` runs each graph a second time with its labels permuted at random (the same
roots): the graphs above are numbered in order (a path 0, 1, 2, ...; a grid by rows), which
the chain walk and the serial levels' prefetches of ours use; permuted, neither side has
locality in its labels.

- scipy: ``scipy.sparse.csgraph.breadth_first_order(A, root, directed=True,
  return_predecessors=True)`` on the same CSR (float64 data, int32 indices: nothing is
  converted inside the call).

Our parent arrays are validated (``pygraph500.validate``) and scipy's reach compared with
ours at every root, untimed. ``--clock cpu`` times with ``time.thread_time`` (the calling
thread's CPU time: less sensitive to other processes, but blind to other threads' work:
only for serial searches, which ours are on these graphs), ``wall`` (default) with
``time.perf_counter``. The load average is printed before and after.

    python benchmarks/bench_high_diameter.py [--threads 1 2] [--repeats 15] [--clock cpu]
                                             [--relabel]
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_bfs import graph_title, machine_info, make_graph  # noqa: E402


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def time_root(systems, clock, repeats):
    """Median seconds of each system (a dict of zero-argument calls), interleaved; and the
    median over repeats of scipy's time / each system's."""
    for f in systems.values():  # warm-up
        f()
    times = {k: [] for k in systems}
    for _ in range(repeats):
        for name, f in systems.items():
            res = None  # noqa: F841  (the previous result is freed before the next search)
            gc.collect()
            t0 = clock()
            res = f()  # noqa: F841
            times[name].append(clock() - t0)
    sc = np.array(times["scipy"])
    return ({k: float(np.median(v)) for k, v in times.items()},
            {k: float(np.median(sc / np.array(v))) for k, v in times.items()})


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", type=int, default=1000, help="grid side (1000)")
    ap.add_argument("--path", type=int, default=1_000_000, help="path vertices (1,000,000)")
    ap.add_argument("--repeats", type=int, default=15, help="timed pairs per root (15)")
    ap.add_argument("--threads", type=int, nargs="+", default=None,
                    help="numba thread counts to run ours at (default: numba's)")
    ap.add_argument("--algorithms", nargs="+", default=None,
                    help="which of ours (default: the default algorithm)")
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    ap.add_argument("--graphs", nargs="+", choices=["grid", "path"], default=["grid", "path"])
    ap.add_argument("--relabel", action="store_true",
                    help="also run each graph with its labels permuted at random (seed 1): "
                         "no locality in the labels, for either side")
    args = ap.parse_args(argv)

    import numba
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order

    from pygraph500.bfs import ALGORITHMS, DEFAULT_ALGORITHM
    from pygraph500.graph import EdgeList, build_csr
    from pygraph500.validate import validate

    algos = args.algorithms or [DEFAULT_ALGORITHM]
    unknown = [a for a in algos if a not in ALGORITHMS]
    if unknown:
        ap.error(f"unknown algorithm(s): {', '.join(unknown)}")
    threads = args.threads or [numba.get_num_threads()]
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter
    info = machine_info()
    print(f"{info['date']} {info['cpu']}, {info['cores']} cores; numpy {info['numpy']}, "
          f"scipy {info['scipy']}, numba {info['numba']}; clock {args.clock}; median of "
          f"{args.repeats} interleaved pairs per root; load before: {load()}\n")
    print("| graph | root | ours | threads | ours ms | scipy ms | scipy / ours | "
          "median of pair ratios |")
    print("|---|---|---|---|---|---|---|---|")
    worst = {}
    runs = [(kind, False) for kind in args.graphs]
    if args.relabel:
        runs += [(kind, True) for kind in args.graphs]
    for kind, relabel in runs:
        spec = {"kind": kind, "side": args.grid, "n": args.path}
        edges, roots, labels = make_graph(spec)
        title = graph_title(spec)
        if relabel:  # the same graph and roots under a random permutation of the labels
            perm = np.random.default_rng(1).permutation(edges.num_vertices)
            edges = EdgeList(perm[edges.src], perm[edges.dst], edges.num_vertices)
            roots = perm[roots]
            title += ", labels permuted"
        graph = build_csr(edges)
        n = graph.num_vertices
        a = sp.csr_matrix((np.ones(graph.num_directed_edges), graph.indices, graph.indptr),
                          shape=(n, n))
        for root, lab in zip(roots.tolist(), labels):
            ref = breadth_first_order(a, root, directed=True, return_predecessors=True)
            for algo in algos:
                for t in threads:
                    numba.set_num_threads(t)
                    bfs = ALGORITHMS[algo]
                    res = bfs(graph, root, depth=False)
                    if not validate(edges, res.parent, root).valid:
                        raise SystemExit(f"{algo}: invalid tree from root {root}")
                    if np.count_nonzero(res.parent >= 0) != ref[0].shape[0]:
                        raise SystemExit(f"{algo}: reach differs from scipy's at root {root}")
                    del res
                    systems = {"ours": lambda: bfs(graph, root, depth=False),
                               "scipy": lambda: breadth_first_order(
                                   a, root, directed=True, return_predecessors=True)}
                    med, pair = time_root(systems, clock, args.repeats)
                    ratio = med["scipy"] / med["ours"]
                    key = (title, algo, t)
                    worst[key] = min(worst.get(key, np.inf), ratio)
                    print(f"| {title} | {lab} | {algo} | {t} | "
                          f"{med['ours'] * 1e3:.2f} | {med['scipy'] * 1e3:.2f} | "
                          f"**{ratio:.2f}** | {pair['ours']:.2f} |", flush=True)
    print(f"\nload after: {load()}\n")
    for (title, algo, t), r in worst.items():
        print(f"- {title}, {algo}, {t} thread(s): worst root {r:.2f}x scipy")


if __name__ == "__main__":
    main()
