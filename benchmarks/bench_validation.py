"""Where a root's validation against the CSR goes, step by step, at one SCALE.

Builds the Kronecker graph of ``--scale`` (edgefactor 16, seeds 2 and 3) the way
``graph500 run`` does (``KroneckerTuples`` counted and placed: no tuples held), searches
``--roots`` roots with the default algorithm, and for each times ``validate_csr`` whole and
its steps alone, each after the whole call (so its kernels are compiled and warm):

- pointer rules: parent range, root, parents reached, depths from the parent walks
  (``bfs_tree.pointer_rules``; one random read per vertex);
- levels: the choice of how the rows pass judges the edges (``on_csr.level_table``: on a
  Graph500 tree, a sample finds the two levels whose rows it skips);
- rows: the one pass over the rows (``csr_kernels.bfs_pass``: the tree edges in the rows,
  and every entry of the rows outside those two levels, one random read each).

Then the two big steps alone with 1 and 2 threads (median of 3), to see what the second
core buys a memory-bound pass; and, per root, interleaved, median of ``--repeats``: the rows
pass judging every edge from its smaller end and skipping the core rows, with the share of
the sampled entries in the core (what ``on_csr.CORE_SHARE`` is set from); the rows at
level L + 2 (L: the core's lower level) reading four bits a neighbour or only behind a set
bit of the sieve (``csr_kernels.pack_levels``: a bit for each 8 vertices, set when one of
them is at level L or less), with the share of the sieve's bits set; and the rows pass
against its floor, the same tree with every reached level clamped into the core (so that no
row reads a level: what the level reads cost).

``--growth LO HI`` instead: how validation grows from SCALE LO to HI (issue 17: no faster
than the edges). Both graphs are built and held, and the two SCALEs take turns, root by
root, ``--repeats`` times: each turn a search then its ``validate_csr``, timed, as ``graph500
run`` does (so the small graph's arrays are as warm as in its own run), and both SCALEs see
the same moments of a noisy machine, where two separate runs differ by more than the
growth's distance to its target. Prints the medians, the ratio, and the ratios of the
adjacency entries and of the input tuples.

    python benchmarks/bench_validation.py [--scale 22] [--roots 4] [--repeats 5]
    python benchmarks/bench_validation.py --growth 20 25 [--roots 4] [--repeats 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numba
import numpy as np

from pygraph500.bfs import DEFAULT_ALGORITHM, get_algorithm
from pygraph500.generator.tuples import KroneckerTuples
from pygraph500.graph.build import count_tuples, place_tuples
from pygraph500.validate import csr_kernels as ck
from pygraph500.validate import validate_csr
from pygraph500.validate.on_csr import core_levels, level_table
from pygraph500.validate.bfs_tree import narrow, pointer_rules, threads_for


def _seconds(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def steps(g, parent, root: int) -> tuple[dict, tuple]:
    """validate_csr whole, then its steps alone; the seconds, and the rows pass's arguments
    for ``main``'s thread counts."""
    n = g.num_vertices
    out = {"validate_csr": _seconds(lambda: validate_csr(g, parent, root))}
    with threads_for(n + int(g.indptr[-1])):
        res = {}
        out["pointer rules"] = _seconds(lambda: res.update(p=pointer_rules(parent, root, n)))
        p64, _, depth, _ = res["p"]
        lev = narrow(depth)
        out["levels"] = _seconds(lambda: res.update(t=level_table(lev, g.indptr)))
        mode, table, core, shallow = res["t"]
        args = (g.indptr, g.indices, lev, table, mode, core, shallow, p64, root,
                g.tuple_degree, ck.row_bounds(g.indptr))
        out["rows"] = _seconds(lambda: ck.bfs_pass(*args))
    return out, args


def _interleaved(runs, repeats: int) -> list[float]:
    """The rows pass's median seconds on each argument tuple of ``runs``, taking turns."""
    times = [[] for _ in runs]
    for _ in range(repeats):
        for t, a in zip(times, runs):
            t.append(_seconds(lambda: ck.bfs_pass(*a)))
    return [statistics.median(t) for t in times]


def _core_share(g, lev) -> tuple[int, float]:
    """The core's lower level and its share of the sampled adjacency entries."""
    core = core_levels(lev, g.indptr, 0.0)
    counts = ck.level_sample(lev, g.indptr)
    return core, (counts[core] + counts[core + 1]) / counts.sum()


def _graph(scale: int):
    tuples = KroneckerTuples(scale, 16, (2, 3))
    return place_tuples(tuples, count_tuples(tuples))


def growth(lo: int, hi: int, roots: int, repeats: int) -> None:
    """``--growth``: validate_csr at two SCALEs, turn about (see the module docstring)."""
    graphs = {s: _graph(s) for s in (lo, hi)}
    bfs = get_algorithm(DEFAULT_ALGORITHM)
    picks = {s: np.flatnonzero(g.degree() > 0)[:roots] for s, g in graphs.items()}
    times = {lo: [], hi: []}
    for rep in range(repeats + 1):  # the first round compiles and warms: not counted
        for i in range(roots):
            for s, g in graphs.items():
                r = int(picks[s][i])
                parent = bfs(g, r, depth=False).parent
                t = _seconds(lambda: validate_csr(g, parent, r))
                if rep:
                    times[s].append(t)
    print("| SCALE | input tuples | adjacency entries | validate_csr s (median) | "
          "min .. max | ns an entry |")
    print("|---|---|---|---|---|---|")
    med = {}
    for s, g in graphs.items():
        med[s] = statistics.median(times[s])
        entries = int(g.indptr[-1])
        print(f"| {s} | {16 << s} | {entries} | {med[s]:.4f} | {min(times[s]):.4f} .. "
              f"{max(times[s]):.4f} | {1e9 * med[s] / entries:.2f} |")
    e_lo, e_hi = (int(graphs[s].indptr[-1]) for s in (lo, hi))
    print(f"- SCALE {lo} to {hi}: validation {med[hi] / med[lo]:.1f}x; adjacency entries "
          f"{e_hi / e_lo:.2f}x; input tuples {2 ** (hi - lo)}x; load at the end "
          f"{os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=22)
    ap.add_argument("--roots", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--growth", type=int, nargs=2, metavar=("LO", "HI"))
    args = ap.parse_args()
    print(f"# {numba.get_num_threads()} threads, load "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.growth:
        growth(*args.growth, args.roots, args.repeats)
        return
    print(f"# SCALE {args.scale}")
    g = _graph(args.scale)
    entries = int(g.indptr[-1])
    print(f"# {g.num_vertices} vertices, {entries} adjacency entries (the rows pass streams "
          f"each once; ns an entry below: validate_csr's seconds / entries)")
    bfs = get_algorithm(DEFAULT_ALGORITHM)
    roots = np.flatnonzero(g.degree() > 0)[:args.roots]
    print("| root | validate_csr s | ns an entry | pointer rules s | levels s | rows s |")
    print("|---|---|---|---|---|---|")
    trees = []
    for r in roots:
        parent = bfs(g, int(r), depth=False).parent
        validate_csr(g, parent, int(r))  # compiled and warm
        t, rows_args = steps(g, parent, int(r))
        trees.append(rows_args)
        print(f"| {r} | {t['validate_csr']:.3f} | {1e9 * t['validate_csr'] / entries:.2f} | "
              f"{t['pointer rules']:.3f} | "
              f"{t['levels']:.4f} | {t['rows']:.3f} |")
    print("\n| root | core's share of entries | rows s, every edge from its smaller end | "
          "rows s, core rows skipped | ratio |")
    print("|---|---|---|---|---|")
    for r, a in zip(roots, trees):
        core, share = _core_share(g, a[2])
        every, skip = _interleaved([a[:5] + (c,) + a[6:] for c in (-1, core)], args.repeats)
        print(f"| {r} | {share:.3f} | {every:.3f} | {skip:.3f} | {every / skip:.2f} |")
    print("\n| root | rows s, level L + 2 rows read four bits a neighbour | only behind the "
          "sieve's bits | ratio | bits set |")
    print("|---|---|---|---|---|")
    for r, a in zip(roots, trees):
        off, on = _interleaved([a[:6] + (sh,) + a[7:] for sh in (a[6][:0], a[6])], args.repeats)
        print(f"| {r} | {off:.4f} | {on:.4f} | {off / on:.2f} | "
              f"{np.unpackbits(a[6]).mean():.3f} |")
    print("\n| root | rows s | with no level read (every reached level clamped into the "
          "core) | the level reads' share |")
    print("|---|---|---|---|")
    for r, a in zip(roots, trees):
        lev, core = a[2], a[5]
        if core < 0:
            continue
        clamped = np.where(lev < 0, lev, core + (lev > core)).astype(lev.dtype)
        rows, floor = _interleaved([a, a[:2] + (clamped,) + a[3:]], args.repeats)
        print(f"| {r} | {rows:.4f} | {floor:.4f} | {1 - floor / rows:.2f} |")
    n = g.num_vertices
    for threads in (1, 2):  # the last root's
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        walk = statistics.median(_seconds(lambda: pointer_rules(parent, int(r), n))
                                 for _ in range(3))
        rows = statistics.median(_seconds(lambda: ck.bfs_pass(*rows_args)) for _ in range(3))
        print(f"- {threads} thread(s): pointer rules {walk:.3f} s, rows {rows:.3f} s")


if __name__ == "__main__":
    main()
