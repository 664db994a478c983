"""What ``deterministic=True`` costs: each compiled BFS algorithm timed with the option off and
on, alternately, on the same Kronecker graph and roots.

``deterministic=True`` makes the parent of every vertex the smallest neighbour one level up
(``bfs.steps.canonical``): the same tree for any number of threads and any run. Here, per
algorithm (``direction-optimizing`` first), one warm-up search in each mode, then for every
root one search of each mode, the order swapped from root to root (so neither mode always
runs on the cache the other left). ``depth=False`` as the benchmark runs kernel 2 (the
deterministic mode keeps depths inside the search all the same).

Printed per algorithm and mode: the median time, the harmonic-mean TEPS (numerator of a root:
``count_component_edges(edges, parent)``, as ``bench_bfs.py`` and the Graph500 count them;
hmean = 1 / mean(time / nedge)) and the cost of the deterministic mode (1 - its hmean TEPS
over the default's). Then the checks, untimed: the deterministic trees of two repeated runs are
identical, those of 1 and 2 threads are identical, and every algorithm's deterministic tree
is the one ``direction-optimizing`` gives.

``--depth`` adds a third mode, the default with ``depth=True`` (what keeping the depth array
costs alone, the part of the deterministic cost the rule needs), timed in the same rotation.

    python benchmarks/bench_deterministic.py [--scale 20] [--roots 16] [--algorithms ...]
                                             [--depth]

Output: a markdown table on stdout, progress on stderr. The target: deterministic
``direction-optimizing`` loses at most 15% of its harmonic-mean TEPS at SCALE 20.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from bench_bfs import (fmt_ratio, hmean_teps, machine_info,  # this folder: one copy of each
                       pick_algorithms)

COMPILED = ["direction-optimizing", "topdown-queue", "topdown-bitmap", "bottomup", "reference"]


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _timed(fn, graph, root, det, depth=False):
    t0 = time.perf_counter()
    res = fn(graph, root, depth=depth, deterministic=det)
    return time.perf_counter() - t0, res


def _same_trees(fn, graph, roots, threads):
    """(identical over two runs, identical for 1 and ``threads`` threads, the trees)."""
    import numba

    first = [fn(graph, r, depth=False, deterministic=True).parent for r in roots]
    again = all(np.array_equal(p, fn(graph, r, depth=False, deterministic=True).parent)
                for r, p in zip(roots, first))
    numba.set_num_threads(1)
    try:
        serial = all(np.array_equal(p, fn(graph, r, depth=False, deterministic=True).parent)
                     for r, p in zip(roots, first))
    finally:
        numba.set_num_threads(threads)
    return again, serial, first


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=20, help="Kronecker SCALE (default 20)")
    ap.add_argument("--roots", type=int, default=16,
                    help="the first K of the reference's 64 search keys (default 16)")
    ap.add_argument("--algorithms", nargs="*", default=COMPILED, metavar="NAME",
                    help=f"algorithms to time (default: {' '.join(COMPILED)})")
    ap.add_argument("--check-roots", type=int, default=4,
                    help="roots of the identical-tree checks (default 4)")
    ap.add_argument("--depth", action="store_true",
                    help="also the default with depth=True (the depth array's cost alone)")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

    import numba

    from pygraph500.benchmark import choose_roots
    from pygraph500.bfs import ALGORITHMS, DEFAULT_ALGORITHM
    from pygraph500.generator import kronecker
    from pygraph500.graph import build_csr
    from pygraph500.validate import count_component_edges

    algos = pick_algorithms(ap, args.algorithms, ALGORITHMS, DEFAULT_ALGORITHM)
    threads = numba.get_num_threads()
    info = machine_info()
    print(f"## deterministic=True: its cost ({info['date']})\n")
    print("`" + " ".join(["python benchmarks/bench_deterministic.py"] + sys.argv[1:]) + "`")
    print(f"\nMachine: {info['cpu']}, {info['cores']} cores, {info['memory']}, {info['os']}; "
          f"Python {info['python']}, numpy {info['numpy']}, numba {info['numba']} "
          f"({threads} threads); load average {os.getloadavg()[0]:.2f} at the start.")

    t0 = time.perf_counter()
    edges = kronecker(args.scale, 16)
    graph = build_csr(edges)
    roots = [int(r) for r in choose_roots(graph.degree() > 0)[:args.roots]]
    _log(f"SCALE {args.scale}: graph in {time.perf_counter() - t0:.1f} s, {len(roots)} roots")
    nedge = [count_component_edges(edges, ALGORITHMS[DEFAULT_ALGORITHM](graph, r).parent)
             for r in roots]

    print(f"\nKronecker SCALE {args.scale}, edgefactor 16: N = {graph.num_vertices:,}, "
          f"{graph.num_directed_edges // 2:,} distinct undirected edges, {len(roots)} roots; "
          f"each root searched once per mode, the modes alternating.\n")
    print("| algorithm | median ms | det. median ms | hmean MTEPS | det. hmean MTEPS | "
          "cost | identical: runs | 1 vs " + str(threads) + " threads | = " + DEFAULT_ALGORITHM
          + " |" + (" depth=True hmean MTEPS | its cost |" if args.depth else ""))
    print("|---" * (11 if args.depth else 9) + "|")
    modes = [False, True] + (["depth"] if args.depth else [])
    canonical = None
    for name in algos:
        fn = ALGORITHMS[name]
        for mode in modes:  # warm-up (and compilation) of every mode
            _timed(fn, graph, roots[0], mode is True, mode == "depth")
        times = {mode: [] for mode in modes}
        for i, r in enumerate(roots):
            for mode in modes[i % len(modes):] + modes[:i % len(modes)]:  # rotated per root
                t, res = _timed(fn, graph, r, mode is True, mode == "depth")
                times[mode].append(t)
                del res
        teps = {mode: hmean_teps(times[mode], nedge) for mode in times}
        cost = 1.0 - teps[True] / teps[False]
        again, serial, trees = _same_trees(fn, graph, roots[:args.check_roots], threads)
        if canonical is None:
            canonical = trees
        same = all(np.array_equal(a, b) for a, b in zip(trees, canonical))
        yes = {True: "yes", False: "**no**"}
        print(f"| {name} | {np.median(times[False]) * 1e3:.2f} | "
              f"{np.median(times[True]) * 1e3:.2f} | {teps[False] / 1e6:.1f} | "
              f"{teps[True] / 1e6:.1f} | {cost * 100:+.1f}% "
              f"(x{fmt_ratio(teps[False] / teps[True])}) | {yes[again]} | {yes[serial]} | "
              f"{yes[same]} |" + (f" {teps['depth'] / 1e6:.1f} | "
                                  f"{(1.0 - teps['depth'] / teps[False]) * 100:+.1f}% |"
                                  if args.depth else ""))
        _log(f"{name}: done")
    print(f"\ncost: 1 - (deterministic hmean TEPS) / (default hmean TEPS); xR: default over "
          f"deterministic. identical: the deterministic trees of the first "
          f"{min(args.check_roots, len(roots))} roots, two runs, 1 and {threads} threads, and "
          f"against {DEFAULT_ALGORITHM}'s. Load average at the end "
          f"{os.getloadavg()[0]:.2f}.")


if __name__ == "__main__":
    main()
