"""The serial queue BFS of thesis Algorithm 1 (the Graph500 reference's sequential BFS).

One FIFO queue, a parent array and a depth array, compiled with numba. The queue holds the
vertices in level order, so level boundaries are just queue positions: that is how the
per-level statistics (and per-level times, read from a monotonic clock inside the compiled
loop, with the level log of ``steps.level_log``) are recorded without changing the algorithm.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..graph.types import CSRGraph, index_dtype
from . import steps
from .steps.canonical import det_flag, lower_parent
from .steps.level_log import log_close, log_level, log_room, log_start, log_table, new_log
from .types import TOP_DOWN, BFSResult, check_root

__all__ = ["bfs_reference"]


@njit(cache=True)
def _serial_levels(graph, parent, depth, queue, at, grain, det, log):
    """Algorithm 1 from queue position ``at`` = (head, tail, level start, level end, edges of
    the level so far), recording each level in the log when its last vertex is dequeued.
    Returns True when the queue is empty, False (``at`` updated) when the log is full.
    ``det``: a vertex met again in the level that found it takes the smaller parent
    (``steps.canonical``)."""
    indptr, indices = graph
    stats, _, batches, state = log
    head, tail, level_start, level_end, edges = at[0], at[1], at[2], at[3], at[4]
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
            elif det is not None:
                lower_parent(parent, depth, v, u, du)
        edges += e - s
        if head == level_end:  # the last vertex of this level was dequeued
            log_level(log, level_end - level_start, edges, TOP_DOWN, grain)
            level_start = level_end
            level_end = tail
            edges = 0
            if state[4] + 2 > stats.shape[0] or state[1] + 2 > batches.shape[0]:
                break
    at[0], at[1], at[2], at[3], at[4] = head, tail, level_start, level_end, edges
    return head == tail


@njit(cache=True)
def _serial_bfs(graph, root, parent, depth, queue, grain, det, log):
    """Algorithm 1; returns the log (grown when it filled up)."""
    log_start(log)
    parent[root] = root
    depth[root] = 0
    queue[0] = root
    at = np.array([0, 1, 0, 1, 0], dtype=np.int64)
    done = False
    while not done:
        log = log_room(log, 4)
        done = _serial_levels(graph, parent, depth, queue, at, grain, det, log)
    log_close(log)
    return log


def bfs_reference(graph: CSRGraph, root, *, depth=True, deterministic=False) -> BFSResult:
    """Serial queue BFS (thesis Algorithm 1) from ``root``.

    Returns parent (int64, -1 where not reached, parent[root] == root), depth (int32 when
    N < 2**31, else int64; -1 where not reached) and the per-level statistics (all
    'top-down'; the last level discovers nothing). Serial, so the same every run: a vertex's
    parent is its first neighbour dequeued; ``deterministic=True`` makes it the smallest
    neighbour one level up instead (``steps.canonical``), the rule of the compiled parallel
    algorithms. ``depth=False``: result depth None.
    """
    r = check_root(graph, root)
    n = graph.num_vertices
    parent = np.full(n, -1, dtype=np.int64)
    dep = np.full(n, -1, dtype=index_dtype(n))  # Algorithm 1 needs it either way
    queue = np.empty(n, dtype=graph.indices.dtype)
    log = _serial_bfs((graph.indptr, graph.indices), r, parent, dep, queue, steps.TIME_GRAIN,
                      det_flag(deterministic), new_log(n, graph.num_directed_edges))
    return BFSResult(parent=parent, root=r, depth=dep if depth else None,
                     levels=log_table(log))
