"""Where the 2D fold's communication is, level by level, on the emulated network: what
``--pipeline`` can hide and what it cannot (issue 43).

``ThreadComm`` ranks in this process (one numba thread each) on the mesh of
``mesh_shape(--procs)``, the 2D search at ``--scale`` from ``--roots`` of the reference's
keys, ``--repeats`` searches each, with the fold overlapped (``pipelined``) and not
(``at-once``), interleaved. Per level: the ranks' mean communication seconds of the
exchange (``bench_network``'s ``xchg``: what the network adds to the time blocked in the
fold's packets, not waiting for late peers) and the fold bytes a rank sent. A level whose
fold is a few hundred bytes has nothing to compute while its last packets travel, so its
latency stays.

    python benchmarks/bench_fold_levels.py [--scale 18] [--procs 16] [--roots 4]
        [--repeats 3] [--network latency=10us,bandwidth=1.25GB/s]
        [--algorithm topdown-queue] [--packet-bytes 65536]
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import threading

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_network  # noqa: E402  (this folder: one copy of each)

EXCHANGES = tuple(bench_network.EXCHANGES)
_current = threading.local()  # per rank thread: (its EmulatedComm, its per-level lists), level


def _timed_finish(finish):
    """``_Fold.finish`` that notes, for the rank thread searching, the level's exchange
    communication and fold bytes."""
    def wrapper(fold):
        now = getattr(_current, "run", None)
        if now is None:
            return finish(fold)
        comm, levels = now
        before = bench_network._exchanged(comm.summary())
        finish(fold)
        levels[_current.level].append(
            (bench_network._exchanged(comm.summary()) - before, fold.sent_bytes))
        _current.level += 1
    return wrapper


def rank(comm, args, keys):
    import numba

    numba.set_num_threads(1)
    runs = [(args.network, exchange) for exchange in EXCHANGES]
    wrapped, searchers = bench_network._searchers(comm, args.scale, runs, args.algorithm,
                                                  "sort-unique", "2d", args.packet_bytes)
    for searcher in searchers.values():
        searcher.search(keys[0])  # warm-up
    out = {run: collections.defaultdict(list) for run in runs}
    for root in keys:
        for _ in range(args.repeats):
            for run in runs:
                _current.run, _current.level = (wrapped[run], out[run]), 0
                comm.barrier()
                searchers[run].search(root)
                _current.run = None
    return {run[1]: dict(levels) for run, levels in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=18)
    ap.add_argument("--procs", type=int, default=16)
    ap.add_argument("--roots", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--network", default="latency=10us,bandwidth=1.25GB/s")
    ap.add_argument("--algorithm", default="topdown-queue")
    ap.add_argument("--packet-bytes", type=int, default=None)
    args = ap.parse_args()
    from pygraph500 import build_csr, choose_roots, kronecker
    from pygraph500.distributed import ThreadComm, search2d

    keys = [int(r) for r in choose_roots(build_csr(kronecker(args.scale)).degree() > 0,
                                         (2, 3), args.roots)]
    search2d._Fold.finish = _timed_finish(search2d._Fold.finish)
    ranks = ThreadComm.run(args.procs, rank, args, keys, timeout=3600)
    print(f"# SCALE {args.scale}, P = {args.procs}, {args.algorithm}, {args.network}, "
          f"{len(keys)} roots x {args.repeats}; per level: the exchange's communication (us, "
          f"the ranks' mean a search), fold bytes a rank sent, searches that reached it")
    print(f"{'level':>5} " + " ".join(f"{e + ' us':>14}" for e in EXCHANGES)
          + f" {'hidden':>7} {'bytes':>9} {'searches':>8}")
    totals = dict.fromkeys(EXCHANGES, 0.0)
    searches = len(keys) * args.repeats * args.procs
    for level in sorted(ranks[0][EXCHANGES[0]]):
        cells = []
        for exchange in EXCHANGES:  # the same levels, packets and bytes both ways
            rows = [row for r in ranks for row in r[exchange].get(level, [])]
            mean = np.mean([row[0] for row in rows]) * 1e6
            totals[exchange] += mean * len(rows) / searches
            cells.append(mean)
        sent, reached = np.mean([row[1] for row in rows]), len(rows) // args.procs
        print(f"{level:>5} " + " ".join(f"{c:>14.2f}" for c in cells)
              + f" {1 - cells[0] / cells[1]:>7.2f} {sent:>9.0f} {reached:>8}")
    print(f"{'all':>5} " + " ".join(f"{totals[e]:>14.2f}" for e in EXCHANGES)
          + f" {1 - totals[EXCHANGES[0]] / totals[EXCHANGES[1]]:>7.2f}")


if __name__ == "__main__":
    main()
