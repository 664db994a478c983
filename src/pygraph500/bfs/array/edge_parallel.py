"""The course project's naive GPU BFS (paper 004) on the array backend: one work item per edge per level.

Every level looks at every directed edge (u, v) of the graph: where depth[u] is the current
level and v is unvisited, v gets depth + 1 and parent u (several edges may reach the same v:
one write wins, any of them is a valid parent). Quadratic in the number of levels by nature,
O(M) per level, and no queue at all.
"""
from __future__ import annotations

import numpy as np

from .queue_based import prepare
from ...primitives.xp_steps import put, read_counts, spill
from .steps import LevelRecorder, finish_result, new_parent

__all__ = ["bfs_edge_parallel"]


def bfs_edge_parallel(graph, root, *, backend="cpu", depth=True, on_device=False):
    """Edge-parallel BFS (paper 004) from ``root``; ``backend`` as for sort-unique."""
    be, xp, r, n, indptr, indices = prepare(graph, root, backend)
    parent, lev = new_parent(xp, n, r, True)  # the algorithm needs the depths either way
    # the edge list form: entry k's row by a binary search in indptr (CuPy's repeat takes
    # no array of counts)
    m = indices.shape[0]
    src = xp.searchsorted(indptr, xp.arange(m, dtype=np.int64), side="right") - 1
    dst = indices.astype(np.int64)
    slots = spill(xp, m, n)  # where the edges that find nothing write
    found_buf = xp.zeros(1, dtype=np.int64)
    rec = LevelRecorder(be, prunes=False)
    level = 0
    clq = 1
    while clq:
        rec.start(clq, m)
        active = lev[src] == level
        rec.lap("expand")
        new = active & (lev[dst] < 0)
        rec.lap("search")
        put(xp, parent, dst, src, new, slots)  # one of a vertex's writes wins: any is valid
        put(xp, lev, dst, level + 1, new, slots)
        won = new & (parent[dst] == src)  # one element per vertex found
        rec.device(fresh=xp.count_nonzero(new))
        rec.lap("update")
        clq, = read_counts(be, found_buf, xp.count_nonzero(won))  # the level's host read
        level += 1
    return finish_result(be, parent, lev if depth else None, r, rec, on_device)
