"""Directed BFS (the Python API's ``directed=True``) against scipy's, on Kronecker digraphs.

The Graph500 generator's tuples read as directed edges ``src -> dst`` (SCALE ``--scales``,
edgefactor 16, seeds 2 3), as an out-edge CSR (``graph.directed_csr``) for ours and a
``csr_array`` of the same entries for scipy (float64 ones, int32 indices: nothing converted
inside the call). ``direction-optimizing`` reads the in-edge lists too (``CSRGraph.in_edges``,
built once per graph, on its first directed search): their build is timed on its own line.
Roots: the first ``--roots`` vertices with out-edges of a seeded shuffle.
Each system searches every root once untimed (warm-up), then ``--repeats`` rounds of every
root, interleaved; the figure is the median search time per root, then its mean over the
roots. Every search's reached set and levels are checked against scipy's
``shortest_path(..., directed=True, unweighted=True)`` on the first root.

    python benchmarks/bench_directed.py [--scales 16 20] [--roots 8] [--repeats 3]
        [--algorithms direction-optimizing topdown-queue topdown-bitmap reference] [--levels]

``--levels``: after the timings, each root's reach, the vertices with in-edges it never
reaches (a bottom-up level scans all their in-edges) and the directions of the first
algorithm's levels, then the level table of one search by each of our algorithms from the
root of largest reach (direction, frontier, edges examined, milliseconds).

Output: markdown on stdout (for RESULTS.md).
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, shortest_path

from pygraph500 import kronecker
from pygraph500.bfs import ALGORITHMS
from pygraph500.graph import directed_csr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[16, 20])
    ap.add_argument("--roots", type=int, default=8)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--levels", action="store_true")
    ap.add_argument("--algorithms", nargs="+",
                    default=["direction-optimizing", "topdown-queue", "topdown-bitmap",
                             "reference"])
    args = ap.parse_args()
    print(f"### Directed BFS against scipy, {time.strftime('%Y-%m-%d')}: {os.cpu_count()} "
          f"cores, load {os.getloadavg()[0]:.2f}\n")
    print("| SCALE | entries | system | mean of median seconds per root | x scipy |")
    print("|---:|---:|---|---:|---:|")
    built = {}
    levels = {}
    for scale in args.scales:
        e = kronecker(scale)
        n = e.num_vertices
        g = directed_csr(e.src, e.dst, n)
        t0 = time.perf_counter()
        g.in_edges  # the in-edge lists, built once per graph: timed apart from the searches
        built[scale] = time.perf_counter() - t0
        a = sp.csr_array((np.ones(g.indices.shape[0]), g.indices.astype(np.int32),
                          g.indptr.astype(np.int32)), shape=(n, n))
        rng = np.random.default_rng(scale)
        roots = [int(v) for v in rng.permutation(n) if g.indptr[v + 1] > g.indptr[v]]
        roots = roots[:args.roots]
        want = shortest_path(a, unweighted=True, directed=True, indices=roots[0])
        systems = {"scipy breadth_first_order":
                   lambda r: breadth_first_order(a, r, directed=True, return_predecessors=True)}
        for name in args.algorithms:
            res = ALGORITHMS[name](g, roots[0])
            assert np.array_equal(np.where(res.parent < 0, np.inf, res.depth), want), name
            systems[name] = lambda r, fn=ALGORITHMS[name]: fn(g, r, depth=False)
        times = {s: [[] for _ in roots] for s in systems}
        for fn in systems.values():
            for r in roots:
                fn(r)
        for _ in range(args.repeats):
            for s, fn in systems.items():
                for i, r in enumerate(roots):
                    t0 = time.perf_counter()
                    fn(r)
                    times[s][i].append(time.perf_counter() - t0)
        mean = {s: float(np.mean([np.median(t) for t in ts])) for s, ts in times.items()}
        base = mean["scipy breadth_first_order"]
        for s, t in mean.items():
            print(f"| {scale} | {g.indices.shape[0]} | {s} | {t:.5f} | {base / t:.2f} |")
        if args.levels:
            levels[scale] = level_tables(g, roots, args.algorithms, times)
    for scale, text in levels.items():
        print(f"\nSCALE {scale}, each root:\n\n{text}")
    for scale, t in built.items():
        print(f"\nSCALE {scale}: in-edge lists built in {t:.3f} s (once per graph)", end="")
    print(f"\n\nLoad average at the end: {os.getloadavg()[0]:.2f}")


def level_tables(g, roots, algorithms, times):
    """Markdown: per root, its reach, the vertices with in-edges it never reaches and their
    in-edges, the median times (``times``) and the first algorithm's directions; then each
    algorithm's levels (direction, frontier, edges examined, ms) from the root of largest
    reach."""
    in_degree = np.diff(g.in_edges[0])
    first = algorithms[0]
    out = [f"| root | reached | unreached with in-edges | their in-edges | scipy ms | {first} "
           f"ms | its levels |", "|---:|---:|---:|---:|---:|---:|---|"]
    reach = []
    for i, root in enumerate(roots):
        res = ALGORITHMS[first](g, root, depth=False)
        missed = (res.parent < 0) & (in_degree > 0)
        reach.append(int(np.count_nonzero(res.parent >= 0)))
        dirs = "".join("B" if d == "bottom-up" else "T" for d in res.levels.direction)
        out.append(f"| {root} | {reach[-1]} | {int(missed.sum())} | "
                   f"{int(in_degree[missed].sum())} | "
                   f"{np.median(times['scipy breadth_first_order'][i]) * 1e3:.2f} | "
                   f"{np.median(times[first][i]) * 1e3:.2f} | {dirs} |")
    root = roots[int(np.argmax(reach))]
    out += ["", f"root {root}, {max(reach)} vertices reached", "",
            "| system | levels: direction frontier / edges / ms |", "|---|---|"]
    for name in algorithms:
        lv = ALGORITHMS[name](g, root, depth=False).levels
        cells = [f"{'B' if lv.direction[i] == 'bottom-up' else 'T'} {lv.frontier[i]} / "
                 f"{lv.edges_examined[i]} / {lv.time[i] * 1e3:.2f}" for i in range(len(lv))]
        out.append(f"| {name} | {'; '.join(cells)} |")
    return "\n".join(out)


if __name__ == "__main__":
    main()
