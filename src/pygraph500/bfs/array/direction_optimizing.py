"""Beamer's direction-optimizing BFS on the array backend (``direction-optimizing`` with
``--backend gpu``; on NumPy it is reachable as ``bfs_direction_optimizing_array``).

On a GPU both directions are numba.cuda kernels: top-down levels ``cuda_levels.top_down_level``
(a thread per adjacency entry of the queue, claims by atomic minimum: two launches where a
sort-unique level takes about 25), bottom-up levels
``primitives.cuda_steps.bottom_up_level`` (a thread per candidate, stopping at the first
neighbour in the frontier mask; it also writes the next queue and the candidates left).
Elsewhere (and with ``kernel=False``) top-down levels are sort-unique levels (thesis 4.3.2:
expand, binary search, sort-unique) and bottom-up levels
``primitives.xp_steps.bottom_up_step`` (whole lists gathered and matched against the mask). A
top-down level takes the smallest parent in both forms (the same parents); a bottom-up level
takes the first frontier neighbour in list order in the kernel, any of them in the array
step (whichever duplicate write wins). The switching rule and its defaults are those of the
compiled ``direction-optimizing``: bottom-up when the frontier grows and its edges exceed
the unvisited vertices' edges / alpha, top-down again when it is below N / beta and
shrinking or no longer worth bottom-up (``primitives.direction``); the edge counts are kept
up to date, never recounted.

Everything the switch and the shapes need is known on the host from the one read per level
(the next frontier's size and edges): the candidates of a bottom-up level (unvisited vertices
with neighbours) number the vertices with neighbours less those visited, and their lists
hold the unvisited vertices' edges. The two frontier masks and candidate lists are made once
per search and reused.
"""
from __future__ import annotations

import numpy as np

from ..types import BOTTOM_UP
from .queue_based import prepare, top_down_level
from ...primitives.xp_steps import SPARE, bottom_up_step, compact, spill
from ...primitives.direction import go_bottom_up, go_top_down
from .steps import LevelRecorder, Search, finish_result

__all__ = ["bfs_direction_optimizing_array"]


def bfs_direction_optimizing_array(graph, root, *, backend="cpu", alpha=15.0, beta=18.0,
                                   depth=True, on_device=False, kernel=None,
                                   top_down_kernel=None):
    """Direction-optimizing BFS from ``root`` with ``backend.xp``; see the module.
    ``kernel``: both directions' levels by the numba.cuda kernels (default: when the arrays
    are on a device; True under numba's CUDA simulator runs them on NumPy arrays, for
    tests); ``top_down_kernel=False`` keeps sort-unique top-down levels beside the
    bottom-up kernel, for comparing the two top-down forms."""
    be, xp, r, n, indptr, indices = prepare(graph, root, backend)
    kernel = be.on_cuda if kernel is None else kernel
    top_down_kernel = kernel if top_down_kernel is None else top_down_kernel and kernel
    if kernel:
        from ...primitives.cuda_steps import bottom_up_search_step
        from .cuda_levels import LevelCounts, top_down_search_step
        counts = LevelCounts(xp, 3)  # per level: next queue, its edges, FRESH or candidates left
    st = Search(be, indptr, indices, n, r, depth, count_linked=True)
    rec = LevelRecorder(be)
    m_f = st.m
    unvisited = st.linked - (m_f > 0)  # vertices with neighbours not reached yet
    prev_nf = 0
    level = 0
    fronts = cands = None  # made at the first bottom-up level
    held = 0  # candidates in cands[0]
    bottom_up = False
    while st.nq:
        nf = st.nq
        was_bottom_up = bottom_up
        if bottom_up:  # the compiled direction-optimizing's rule (primitives.direction)
            bottom_up = not go_top_down(nf, prev_nf, n, beta, m_f, st.m_u, alpha)
        else:
            bottom_up = go_bottom_up(nf, prev_nf, m_f, st.m_u, alpha)
        if not bottom_up and top_down_kernel:  # ---- a top-down level, by the kernels
            top_down_search_step(st, level, counts.row(level), min(st.m, unvisited), rec)
        elif not bottom_up:  # ---- a sort-unique top-down level
            top_down_level(st, level, "sort-unique", rec)
        else:  # ---- a bottom-up level
            rec.start(nf, st.m_u, BOTTOM_UP)
            if fronts is None:  # the unvisited vertices with neighbours, once
                fronts = [xp.zeros(n, dtype=bool), xp.zeros(n, dtype=bool)]
                cands = [xp.empty(n + SPARE, dtype=np.int64) for _ in range(2)]
                st.scans()
                compact(xp, (st.parent[:n] < 0) & (st.deg[:n] > 0), st.ids, cands[0],
                        st.slots_n)
            elif not was_bottom_up:  # drop the candidates the top-down levels reached
                cand = cands[0][:held]
                compact(xp, st.parent[cand] < 0, cand, cands[1], st.slots_n[:held])
                cands.reverse()
            held = unvisited
            if not was_bottom_up:  # the frontier mask of the queue
                fronts[0].fill(False)
                fronts[0][st.queue] = True
            cand = cands[0][:held]
            if kernel:  # a thread per candidate, stopping at its first frontier neighbour;
                rec.lap("expand")  # it writes the mask, the queue and the candidates left
                row = counts.row(level)
                bottom_up_search_step(xp, indptr, indices, st.parent, st.depth, level,
                                      fronts[0], cand, fronts[1], st.next_queue, cands[1], row)
                rec.lap("search")
                nq, m = row[0], row[1]
            else:  # whole lists gathered and matched against the mask
                slots = spill(xp, st.m_u, n)
                rec.lap("expand")
                found, deg = bottom_up_step(xp, indptr, indices, st.parent, st.depth, level,
                                            fronts[0], cand, st.m_u, slots)
                rec.lap("search")
                fronts[1].fill(False)
                fronts[1][cand] = found
                slots = slots[:held]
                compact(xp, ~found, cand, cands[1], slots)  # the candidates left
                nq = compact(xp, found, cand, st.next_queue, slots)  # the queue, for a switch
                m = xp.where(found, deg, 0).sum()
            rec.device(fresh=held)  # the candidates; LV: the vertices found (NLQ)
            rec.lap("update")
            held -= st.advance(nq, m)
            fronts.reverse()
            cands.reverse()
        prev_nf = nf
        m_f = st.m  # st.m_u: the unvisited vertices' edges, kept by st.advance
        unvisited -= st.nq
        level += 1
    return finish_result(be, st.parent, st.depth, r, rec, on_device)
