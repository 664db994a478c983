"""The serial queue BFS of thesis Algorithm 1 (the Graph500 reference's sequential BFS).

One FIFO queue, a parent array and a depth array, compiled with numba. The queue holds the
vertices in level order, so level boundaries are just queue positions: that is how the
per-level statistics (and per-level times, read from a monotonic clock inside the compiled
loop) are recorded without changing the algorithm.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..graph.types import CSRGraph, index_dtype
from ._common import check_root, clock_ns, levels_from_arrays
from .types import BFSResult

__all__ = ["bfs_reference"]


@njit(cache=True)
def _serial_bfs(indptr, indices, root, parent, depth, queue):
    """Algorithm 1; returns per-level (frontier, edges examined, discovered, time ns)."""
    cap = 64
    stats = np.empty((cap, 4), np.int64)
    nlev = 0

    parent[root] = root
    depth[root] = 0
    queue[0] = root
    head = 0
    tail = 1
    level_start = 0
    level_end = 1
    edges = 0
    t0 = clock_ns()
    while head < tail:
        u = queue[head]
        head += 1
        du = depth[u] + 1
        s = indptr[u]
        e = indptr[u + 1]
        for k in range(s, e):
            v = indices[k]
            if parent[v] == -1:
                parent[v] = u
                depth[v] = du
                queue[tail] = v
                tail += 1
        edges += e - s
        if head == level_end:  # the last vertex of this level was dequeued
            t1 = clock_ns()
            if nlev == cap:
                grown = np.empty((2 * cap, 4), np.int64)
                grown[:cap] = stats
                stats = grown
                cap *= 2
            stats[nlev, 0] = level_end - level_start
            stats[nlev, 1] = edges
            stats[nlev, 2] = tail - level_end
            stats[nlev, 3] = t1 - t0
            nlev += 1
            level_start = level_end
            level_end = tail
            edges = 0
            t0 = t1
    return stats[:nlev]


def bfs_reference(graph: CSRGraph, root, **options) -> BFSResult:
    """Serial queue BFS (thesis Algorithm 1) from ``root``.

    Returns parent (int64, -1 where not reached, parent[root] == root), depth (int32 when
    N < 2**31, else int64; -1 where not reached) and one LevelStats per level (all
    'top-down'; the last level discovers nothing). Options are accepted for registry
    uniformity and ignored: this algorithm has none.
    """
    r = check_root(graph, root)
    n = graph.num_vertices
    parent = np.full(n, -1, dtype=np.int64)
    depth = np.full(n, -1, dtype=index_dtype(n))
    queue = np.empty(n, dtype=graph.indices.dtype)
    stats = _serial_bfs(graph.indptr, graph.indices, r, parent, depth, queue)
    levels = levels_from_arrays(stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3] * 1e-9,
                                "top-down")
    return BFSResult(parent=parent, root=r, depth=depth, levels=levels)
