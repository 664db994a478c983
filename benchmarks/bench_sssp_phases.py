"""Where a kernel-3 search's time goes: delta-stepping's phases before its first pull, the
pulls, and the phases after, from each search's own log (``result.phases``: the bucket
steps, timed in batches, and the pull rows), on the graph and search keys of
``bench_peers.py`` (Graph500 Kronecker, edgefactor 16, the run's first keys).

``--set NAME=VALUE`` runs a variant with a tunable of ``sssp.delta_stepping`` changed (read
at call time: DELTA_SCALE, LOOK_AHEAD, MIN_RUN, SERIAL_WORK, PARALLEL_TAKE, PULL_RATIO,
PULL_WIDEN); several variants and the defaults run in alternating rounds in one process.
Figures are medians over the rounds of the mean per search; "whole" is the wall time of
``sssp_delta_stepping`` (state made and unpacked included), the parts are the log's, and so
are the counts: the adjacency entries the steps before the first pull relaxed, and the
pulls.

    python benchmarks/bench_sssp_phases.py [--scale 20] [--roots 8] [--rounds 3]
        [--set PULL_RATIO=4] [--set DELTA_SCALE=0.16 --set PULL_WIDEN=4] ...
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from bench_peers import our_graph

PARTS = ("before the pull", "pulls", "after the pull", "whole")
COUNTS = ("M entries relaxed before the pull", "pulls")


def _pulls(log) -> tuple[np.ndarray, int]:
    """A search log's pull rows (a mask) and the row of its first pull (or the row count)."""
    pull = np.asarray(log.extra["pull"]) == 1
    return pull, int(np.argmax(pull)) if pull.any() else pull.shape[0]


def split(result) -> np.ndarray:
    """Seconds of one search's phases before its first pull, in its pulls, after it."""
    pull, first = _pulls(result.phases)
    t = np.asarray(result.phases.time)
    after = np.arange(t.shape[0]) > first
    return np.array([t[:first].sum(), t[pull].sum(), t[after & ~pull].sum()])


def counts(result) -> np.ndarray:
    """Adjacency entries relaxed before one search's first pull, and its pulls."""
    pull, first = _pulls(result.phases)
    return np.array([np.asarray(result.phases.edges_examined)[:first].sum(), pull.sum()])


def one_round(graph, roots, variant: dict) -> np.ndarray:
    """Mean per search, with the tunables of ``variant`` set: seconds of each of PARTS, then
    COUNTS."""
    from pygraph500.sssp import delta_stepping as ds

    saved = {name: getattr(ds, name) for name in variant}
    for name, value in variant.items():
        setattr(ds, name, value)
    try:
        total = np.zeros(len(PARTS) + len(COUNTS))
        for root in roots:
            t0 = time.perf_counter()
            result = ds.sssp_delta_stepping(graph, root)
            total[3] += time.perf_counter() - t0
            total[:3] += split(result)
            total[4:] += counts(result)
    finally:
        for name, value in saved.items():
            setattr(ds, name, value)
    return total / len(roots)


def parse_set(text: str) -> dict:
    from pygraph500.sssp import delta_stepping as ds

    out = {}
    for item in text.split(","):
        name, _, value = item.partition("=")
        if name not in ds.__all__ or not isinstance(getattr(ds, name, None), (int, float)):
            raise argparse.ArgumentTypeError(f"{name!r} is not a tunable of delta_stepping")
        out[name] = type(getattr(ds, name))(float(value))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=int, default=20)
    ap.add_argument("--roots", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--set", dest="variants", type=parse_set, action="append", default=[],
                    metavar="NAME=VALUE[,NAME=VALUE]")
    args = ap.parse_args()
    engine, roots = our_graph(args.scale, args.threads)
    graph, roots = engine.graph, roots[:args.roots]
    variants = [{}] + args.variants
    for variant in variants:  # untimed: compiles, and the first touch of every buffer
        one_round(graph, roots[:1], variant)
    got = [[] for _ in variants]
    for r in range(args.rounds):
        order = range(len(variants)) if r % 2 == 0 else reversed(range(len(variants)))
        for i in order:
            got[i].append(one_round(graph, roots, variants[i]))
    print(f"### Kernel 3's phases, SCALE {args.scale}, {len(roots)} keys, {args.rounds} rounds, "
          f"{args.threads} threads ({time.strftime('%Y-%m-%d')}, load "
          f"{os.getloadavg()[0]:.2f})\n")
    print("| variant | " + " | ".join(f"{p} ms" for p in PARTS) + " | whole, each round ms | "
          + " | ".join(COUNTS) + " |")
    print("|---|" + "---:|" * (len(PARTS) + 1 + len(COUNTS)))
    for variant, rounds in zip(variants, got):
        a = np.array(rounds)
        ms = a[:, :len(PARTS)] * 1e3
        med = np.median(ms, axis=0)
        entries, pulls = np.median(a[:, len(PARTS):], axis=0)
        name = ", ".join(f"{k}={v}" for k, v in variant.items()) or "defaults"
        print(f"| {name} | " + " | ".join(f"{x:.1f}" for x in med) + " | "
              + " / ".join(f"{x:.1f}" for x in ms[:, 3]) + f" | {entries / 1e6:.2f} | "
              f"{pulls:.2f} |")


if __name__ == "__main__":
    main()
