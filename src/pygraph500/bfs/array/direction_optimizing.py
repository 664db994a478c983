"""Beamer's direction-optimizing BFS on the array backend (``direction-optimizing`` with
``--backend gpu``; on NumPy it is reachable as ``bfs_direction_optimizing_array``).

Top-down levels are sort-unique levels (thesis 4.3.2: expand, binary search, sort-unique);
bottom-up levels are ``primitives.arrays.bottom_up_step`` over a frontier mask. The switching rule and
its defaults are those of the compiled ``direction-optimizing``: bottom-up when the frontier
grows and its edges exceed the unvisited vertices' edges / alpha, top-down again when it is
below N / beta and shrinking or no longer worth bottom-up (``primitives.direction``); the
edge counts are kept up to date, never recounted.
"""
from __future__ import annotations

import numpy as np

from ..types import BOTTOM_UP
from .search import prepare, top_down_level
from ...primitives.arrays import bottom_up_step
from ...primitives.direction import go_bottom_up, go_top_down
from .steps import LevelRecorder, finish_result, new_parent

__all__ = ["bfs_direction_optimizing_array"]


def bfs_direction_optimizing_array(graph, root, *, backend="cpu", alpha=15.0, beta=18.0,
                                   depth=True, on_device=False, **options):
    """Direction-optimizing BFS from ``root`` with ``backend.xp``; see the module."""
    be, xp, r, n, indptr, indices = prepare(graph, root, backend)
    deg = xp.diff(indptr)
    parent, dep = new_parent(xp, n, r, depth)
    rec = LevelRecorder(be)
    q = xp.asarray([r], dtype=np.int64)
    m_f = int(deg[r])
    m_u = int(indptr[-1]) - m_f
    prev_nf = 0
    level = 0
    cand = None  # unvisited vertices with neighbours, made at the first bottom-up level
    bottom_up = False
    while q.shape[0]:
        nf = q.shape[0]
        if bottom_up:  # the compiled direction-optimizing's rule (primitives.direction)
            bottom_up = not go_top_down(nf, prev_nf, n, beta, m_f, m_u, alpha)
        else:
            bottom_up = go_bottom_up(nf, prev_nf, m_f, m_u, alpha)
        if bottom_up:  # ---- a bottom-up level
            rec.start()
            front = xp.zeros(n, dtype=bool)
            front[q] = True
            if cand is None:
                cand = xp.flatnonzero((parent < 0) & (deg > 0))
            else:
                cand = cand[parent[cand] < 0]
            t_expand = rec.lap()
            found, cand, examined = bottom_up_step(xp, indptr, indices, parent, dep, level,
                                                   front, cand)
            t_search = rec.lap()
            rec.level(nf, examined, cand.shape[0] + found.shape[0], found.shape[0],
                      (t_expand, t_search, 0.0, 0.0), BOTTOM_UP)
            q = found
        else:  # ---- a sort-unique top-down level
            q = top_down_level(xp, indptr, indices, parent, dep, q, level, n, "sort-unique",
                               rec)
        prev_nf = nf
        m_f = int(deg[q].sum()) if q.shape[0] else 0
        m_u -= m_f
        level += 1
    return finish_result(be, parent, dep, r, rec, on_device)
