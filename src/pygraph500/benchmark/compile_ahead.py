"""A cold first run compiles its kernels in several processes at once.

numba compiles one function at a time per process, so the first run after an install spent
its whole warm-up compiling on one core. An engine's warm-up splits into independent parts
(``Engine.warm_up_parts``: for the embedded engine the search, the generator, and kernel 1 with
the validator), each on tiny inputs made without compiled code (``tiny_edges``,
``tiny_bfs_tree``). ``compile_ahead`` runs them at the same time, one group per usable core:
the first group in this process, the others in worker processes (``python -m
pygraph500.benchmark.compile_ahead``, not multiprocessing, which would re-run a user's
``__main__``) that leave their kernels in numba's on-disk cache. Each kernel is compiled by
one process only. The engine's ordinary warm-up then loads them from the cache and compiles
whatever a part missed: a failed worker costs time, never correctness.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys

import numpy as np

from ..graph.types import EdgeList

__all__ = ["compile_ahead", "usable_cores", "balance", "tiny_edges", "tiny_bfs_tree",
           "TINY_ROOT"]

TINY_ROOT = 0


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def balance(costs: dict[str, float], groups: int) -> list[list[str]]:
    """The parts split into at most ``groups`` groups of similar total cost (heaviest part
    first into the lightest group); the group holding the heaviest part comes first."""
    bins: list[list] = [[0.0, []] for _ in range(max(1, min(groups, len(costs))))]
    for name in sorted(costs, key=lambda n: -costs[n]):
        lightest = min(bins, key=lambda b: b[0])
        lightest[0] += costs[name]
        lightest[1].append(name)
    return [names for _, names in bins if names]


def tiny_edges(weighted: bool = False) -> EdgeList:
    """16 vertices, 21 tuples as the generator gives them (int64 labels, float32 weights in
    [0, 1)): a ring with two chords, a duplicate and a self-loop."""
    ring = np.arange(16, dtype=np.int64)
    src = np.concatenate([ring, np.array([0, 1, 0, 3, 5], dtype=np.int64)])
    dst = np.concatenate([(ring + 1) % 16, np.array([8, 9, 1, 3, 12], dtype=np.int64)])
    weight = None
    if weighted:
        weight = np.random.default_rng(0).random(src.shape[0], dtype=np.float32)
    return EdgeList(src, dst, 16, weight)


def tiny_bfs_tree(edges: EdgeList, root: int = TINY_ROOT) -> np.ndarray:
    """A BFS parent array of ``edges`` from scipy (root its own parent, -1 unreached)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order

    n = edges.num_vertices
    a = sp.coo_array((np.ones(edges.num_edges), (edges.src, edges.dst)), shape=(n, n))
    _, pred = breadth_first_order(a.tocsr(), root, directed=False, return_predecessors=True)
    parent = np.where(pred < 0, -1, pred).astype(np.int64)
    parent[root] = root
    return parent


def compile_ahead(engine) -> None:
    """Run ``engine``'s warm-up parts at once on the usable cores (see the module docstring);
    nothing when there is one core or one part. Errors are left to the ordinary warm-up."""
    groups = balance(engine.warm_up_parts(), usable_cores())
    if len(groups) < 2:
        return
    workers = [_start_worker(engine, names) for names in groups[1:]]
    done = False
    try:
        for name in groups[0]:
            try:
                engine.warm_up_part(name)
            except Exception:  # noqa: BLE001  (the ordinary warm-up meets it again, and says it)
                pass
        done = True
    finally:
        for w in workers:
            if w is not None:
                if not done:
                    w.kill()
                w.wait()


def _start_worker(engine, names):
    """A process running ``type(engine)(engine.config).warm_up_part(name)`` for ``names``."""
    try:
        job = pickle.dumps((type(engine), engine.config, names))
        proc = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        return None
    try:
        proc.stdin.write(job)
        proc.stdin.close()
    except OSError:
        pass
    return proc


def _work() -> None:
    engine_class, config, names = pickle.load(sys.stdin.buffer)
    engine = engine_class(config)
    for name in names:
        engine.warm_up_part(name)


if __name__ == "__main__":
    _work()
