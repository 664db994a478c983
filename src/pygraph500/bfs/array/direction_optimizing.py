"""Beamer's direction-optimizing BFS on the array backend (``direction-optimizing`` with
``--backend gpu``; on NumPy it is reachable as ``bfs_direction_optimizing_array``).

Top-down levels are sort-unique levels (thesis 4.3.2: expand, binary search, sort-unique);
bottom-up levels are ``steps.bottom_up_step`` over a frontier mask. The switching rule and
its defaults are those of the compiled ``direction-optimizing``: bottom-up when the frontier
grows and its edges exceed the unvisited vertices' edges / alpha, top-down again when it
shrinks below N / beta; the edge counts are kept up to date, never recounted.
"""
from __future__ import annotations

import numpy as np

from .._common import check_root
from ..types import BOTTOM_UP, TOP_DOWN
from .search import resolve_backend
from .steps import (LevelRecorder, as_backend_graph, bottom_up_step, check_memory,
                    finish_result, gather, new_parent, queue_offsets, sort_unique)

__all__ = ["bfs_direction_optimizing_array"]


def bfs_direction_optimizing_array(graph, root, *, backend="cpu", alpha=15.0, beta=18.0,
                                   depth=True, **options):
    """Direction-optimizing BFS from ``root`` with ``backend.xp``; see the module."""
    be = resolve_backend(backend)
    xp = be.xp
    r = check_root(graph, root)
    n = graph.num_vertices
    check_memory(graph, be)
    indptr, indices = as_backend_graph(graph, be)
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
        if bottom_up:
            bottom_up = not (nf < prev_nf and nf <= n / beta)
        else:
            bottom_up = nf > prev_nf and m_u > 0 and m_f * alpha > m_u
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
            rec.start()
            start, newoff, m = queue_offsets(xp, indptr, q)
            t_expand = rec.lap()
            v, p = gather(xp, indices, q, start, newoff, m)
            t_search = rec.lap()
            fresh = parent[v] < 0
            v, p = v[fresh], p[fresh]
            lv = v.shape[0]
            v, p = sort_unique(xp, v, p, n)
            t_prune = rec.lap()
            parent[v] = p
            if dep is not None:
                dep[v] = level + 1
            t_update = rec.lap()
            rec.level(nf, m, lv, v.shape[0], (t_expand, t_search, t_prune, t_update), TOP_DOWN)
            q = v
        prev_nf = nf
        m_f = int(deg[q].sum()) if q.shape[0] else 0
        m_u -= m_f
        level += 1
    return finish_result(be, parent, dep, r, rec)
