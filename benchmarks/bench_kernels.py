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

``--phases`` times kernel 1's steps instead (``build_csr(..., phases=...)``: count, offsets,
scatter, sort + dedup, compaction; a table of the ``--builds`` builds, best and median), then
two of its choices against what they replaced, on the same data, one thread, median of
``--repeats``, interleaved:

- rows of 17-64 entries (as the scatter leaves them: the tuples' order) sorted by one bucket
  pass and an insertion sort (``build``'s choice) against the insertion sort alone;
- the compaction's block moves (the build's own blocks) as ``llvm.memmove`` against an
  element loop;

and the cost of memory the process touches for the first time (``--touch-mib`` written
fresh, then written again), which is much of the scatter on a VM:

    python benchmarks/bench_kernels.py --phases [--scale 20] [--builds 6] [--repeats 7]
"""
from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np
from numba import njit

from pygraph500 import EdgeList, build_csr, kronecker
from pygraph500.bfs import ALGORITHMS
try:  # the steps --phases sets against each other (an older tree, compared by the one-line
    # mode through PYTHONPATH, may not have them)
    from pygraph500.graph.build import (_BUCKET_MAX, _INSERTION_MAX,
                                        _bucket_then_insertion_sort, _move_left, row_ranges)
    try:
        from pygraph500.graph.weights import insertion_sort
    except ImportError:  # a tree from before its underscore was dropped
        from pygraph500.graph.build import _insertion_sort as insertion_sort
except ImportError:
    row_ranges = None

PATH_ALGORITHMS = ("direction-optimizing", "topdown-queue", "topdown-bitmap")
PHASES = ("count", "offsets", "scatter", "sort + dedup", "compaction")


@njit(cache=True)
def _sort_rows(out, starts, bucket, label_bits):
    """Sort every row out[starts[r]:starts[r + 1]] (at most _BUCKET_MAX entries) in place."""
    tmp = np.empty(_BUCKET_MAX, out.dtype)
    cnt = np.empty(2 * _BUCKET_MAX + 1, np.int64)
    for r in range(starts.shape[0] - 1):
        if bucket:
            _bucket_then_insertion_sort(out, starts[r], starts[r + 1], tmp, cnt, label_bits)
        else:
            insertion_sort(out, starts[r], starts[r + 1])


@njit(cache=True)
def _moves(out, src, dst, count, memmove):
    """Move block k from src[k] to dst[k] <= src[k], in order (blocks may overlap the last
    one's source), by memmove or one element at a time."""
    for k in range(src.shape[0]):
        s, d = src[k], dst[k]
        if s == d:
            continue
        if memmove:
            _move_left(out, d, s, count[k])
        else:
            for i in range(count[k]):
                out[d + i] = out[s + i]


def medium_rows(edges: EdgeList, tuple_degree: np.ndarray):
    """The rows of _INSERTION_MAX + 1 .. _BUCKET_MAX entries before duplicates are dropped,
    in the scatter's order (an EdgeList is one piece: its tuples' order), and their starts."""
    keep = edges.src != edges.dst
    src, dst = edges.src[keep].astype(np.int32), edges.dst[keep].astype(np.int32)
    keys = np.empty(2 * src.shape[0], np.int32)
    vals = np.empty_like(keys)
    keys[0::2], keys[1::2] = src, dst
    vals[0::2], vals[1::2] = dst, src
    del src, dst, keep
    sel = (tuple_degree > _INSERTION_MAX) & (tuple_degree <= _BUCKET_MAX)
    mask = sel[keys]
    keys, vals = keys[mask], vals[mask]
    rows = vals[np.argsort(keys, kind="stable")]
    starts = np.zeros(int(sel.sum()) + 1, np.int64)
    np.cumsum(tuple_degree[sel], out=starts[1:])
    assert starts[-1] == rows.shape[0]
    return rows, starts


def compaction_blocks(graph):
    """The compaction's moves for this graph: each row range's block, from where step 4 left
    it (rows at their places before duplicates were dropped) to its final place."""
    before = np.zeros(graph.num_vertices + 1, np.int64)
    np.cumsum(graph.tuple_degree, out=before[1:])
    vb = row_ranges(before)
    after = graph.indptr
    return before[vb[:-1]], after[vb[:-1]], after[vb[1:]] - after[vb[:-1]], int(before[-1])


def _interleaved(fns: dict, repeats: int) -> dict:
    """Median seconds of each function, called in turn ``repeats`` times."""
    times = {k: [] for k in fns}
    for _ in range(repeats):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t0)
    return {k: float(np.median(v)) for k, v in times.items()}


def first_touch(mib: int) -> tuple[float, float]:
    """ms per MiB writing ``mib`` MiB of fresh memory, and writing it again."""
    a = np.empty(mib << 20, np.uint8)
    t0 = time.perf_counter()
    a[:] = 1
    t1 = time.perf_counter()
    a[:] = 2
    t2 = time.perf_counter()
    return (t1 - t0) * 1e3 / mib, (t2 - t1) * 1e3 / mib


def phases(args) -> None:
    edges = kronecker(args.scale)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')} build_csr phases, SCALE {args.scale} "
          f"({edges.num_edges:,} tuples), {numba.get_num_threads()} threads; load "
          f"{os.getloadavg()[0]:.2f}\n")
    print("| build | " + " | ".join(f"{p} s" for p in PHASES) + " | total s |")
    print("|---" * (len(PHASES) + 2) + "|")
    runs = []
    for i in range(args.builds):
        laps = {}
        t0 = time.perf_counter()
        graph = build_csr(edges, phases=laps)
        laps["total"] = time.perf_counter() - t0
        runs.append(laps)
        print(f"| {i + 1} | " + " | ".join(f"{laps[p]:.3f}" for p in PHASES + ("total",))
              + " |", flush=True)
        if i + 1 < args.builds:
            del graph
    for name, pick in (("best", np.min), ("median", np.median)):
        print(f"| {name} | " + " | ".join(f"{pick([r[p] for r in runs]):.3f}"
                                         for p in PHASES + ("total",)) + " |")

    rows, starts = medium_rows(edges, graph.tuple_degree)
    label_bits = max(1, (graph.num_vertices - 1).bit_length())
    done, times = {}, {False: [], True: []}
    for i in range(args.repeats + 1):  # the first round compiles both, untimed
        for bucket in (False, True):
            work = rows.copy()  # the rows as the scatter left them, copied outside the clock
            t0 = time.perf_counter()
            _sort_rows(work, starts, bucket, label_bits)
            if i:
                times[bucket].append(time.perf_counter() - t0)
            done[bucket] = work
    t = {"insertion": np.median(times[False]), "bucket": np.median(times[True])}
    ends = np.zeros(rows.shape[0], bool)
    ends[starts[1:-1] - 1] = True
    ok = np.array_equal(done[True], done[False]) and bool(np.all(
        (np.diff(done[True]) >= 0) | ends[:-1]))
    print(f"\nrows of {_INSERTION_MAX + 1}-{_BUCKET_MAX} entries ({starts.shape[0] - 1:,} rows, "
          f"{rows.shape[0]:,} entries), one thread, median of {args.repeats}: insertion sort "
          f"alone {t['insertion'] * 1e3:.1f} ms, one bucket pass then insertion "
          f"{t['bucket'] * 1e3:.1f} ms: {t['insertion'] / t['bucket']:.2f}x "
          f"(same rows, sorted: {'yes' if ok else 'NO'})")

    src, dst, count, total = compaction_blocks(graph)
    out = np.zeros(total, graph.indices.dtype)
    _moves(out, src, dst, count, True)  # both compiled before timing
    _moves(out, src, dst, count, False)
    t = _interleaved({"loop": lambda: _moves(out, src, dst, count, False),
                      "memmove": lambda: _moves(out, src, dst, count, True)}, args.repeats)
    moved = int(count[src != dst].sum())
    print(f"compaction's block moves ({src.shape[0]} blocks, {moved:,} entries moved), one "
          f"thread, median of {args.repeats}: element loop {t['loop'] * 1e3:.1f} ms, memmove "
          f"{t['memmove'] * 1e3:.1f} ms: {t['loop'] / t['memmove']:.2f}x")
    fresh, again = first_touch(args.touch_mib)
    print(f"memory touched for the first time: {fresh:.2f} ms per MiB ({args.touch_mib} MiB "
          f"written fresh), {again:.2f} ms per MiB written again; load "
          f"{os.getloadavg()[0]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--label", default="")
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--builds", type=int, default=4)
    ap.add_argument("--path", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--phases", action="store_true",
                    help="kernel 1's steps, two of its choices against the old ones, first touch")
    ap.add_argument("--touch-mib", type=int, default=256)
    args = ap.parse_args()

    build_csr(kronecker(4, 1))  # compiled code loaded before any timing
    if args.phases:
        if row_ranges is None:
            raise SystemExit("--phases needs a pygraph500 whose build_csr times its phases")
        phases(args)
        return
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
