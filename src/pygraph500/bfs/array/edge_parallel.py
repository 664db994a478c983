"""Seed 004's naive GPU BFS on the array backend: one work item per edge per level.

Every level looks at every directed edge (u, v) of the graph: where depth[u] is the current
level and v is unvisited, v gets depth + 1 and parent u (several edges may reach the same v:
one write wins, any of them is a valid parent). Quadratic in the number of levels by nature,
O(M) per level, and no queue at all.
"""
from __future__ import annotations

import numpy as np

from .search import prepare
from .steps import LevelRecorder, finish_result, new_parent

__all__ = ["bfs_edge_parallel"]


def bfs_edge_parallel(graph, root, *, backend="cpu", depth=True, on_device=False, **options):
    """Edge-parallel BFS (seed 004) from ``root``; ``backend`` as for sort-unique."""
    be, xp, r, n, indptr, indices = prepare(graph, root, backend)
    parent, _ = new_parent(xp, n, r, False)
    lev = xp.full(n, -1, dtype=np.int64)  # the algorithm needs the depths either way
    lev[r] = 0
    # the edge list form: entry k's row by a binary search in indptr (CuPy's repeat takes
    # no array of counts)
    src = xp.searchsorted(indptr, xp.arange(int(indptr[-1]), dtype=np.int64), side="right") - 1
    dst = indices.astype(np.int64)
    m = int(dst.shape[0])
    rec = LevelRecorder(be)
    level = 0
    clq = 1
    while True:
        rec.start()
        active = lev[src] == level
        t_expand = rec.lap()
        e = xp.flatnonzero(active & (lev[dst] < 0))
        t_search = rec.lap()
        v = dst[e]
        parent[v] = src[e]
        lev[v] = level + 1
        found = int(xp.count_nonzero(lev == level + 1)) if e.shape[0] else 0
        t_update = rec.lap()
        rec.level(clq, m, e.shape[0], found, (t_expand, t_search, 0.0, t_update))
        if not found:
            break
        clq = found
        level += 1
    return finish_result(be, parent, lev if depth else None, r, rec, on_device)
