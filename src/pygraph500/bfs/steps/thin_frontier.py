"""Frontiers of one or two vertices (a path, a chain) walked in registers.

A BFS along a path is a chain of dependent loads; a round trip through a queue or a bitmap
per level lengthens it. ``thin_frontier_levels`` keeps the frontier in locals while each of
its vertices finds exactly one new one; the serial top-down stretches of ``queue_topdown``
and ``bitmap_topdown`` hand such frontiers to it. ``claim_neighbours`` is the serial claim of
one vertex's unvisited neighbours into a queue, shared with ``queue_topdown``.

Names of the level log's locals (``level_log``): ``nlev`` levels, ``nb`` batches, ``t_last``
clock at the last batch end, ``acc`` work since, ``nrow`` rows; the open run of equal
levels is ``rc`` levels of frontier ``rf`` and ``re`` edges.
"""
from __future__ import annotations

from numba import njit

from ...primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint
from ..types import TOP_DOWN
from .canonical import lower_parent
from .level_log import log_end_batch, log_write_run

__all__ = ["claim_neighbours", "thin_frontier_levels"]


@njit(inline="always")
def claim_neighbours(indptr, indices, parent, depth, visited, keep_depth, det, d, u, q, found):
    """Claim the unvisited neighbours of ``u`` into ``q[found:]`` (serial); returns (the
    last one claimed, or ``u``; the new ``found``). ``det``: neighbours claimed earlier in
    this level take ``u`` as parent if it is smaller (``canonical.lower_parent``)."""
    last = u
    for k in range(indptr[u], indptr[u + ONE]):
        v = as_uint(indices[as_uint(k)])
        w = v >> WORD_SHIFT
        bit = ONE << (v & BIT_MASK)
        if (visited[w] & bit) == ZERO:
            visited[w] = visited[w] | bit
            parent[v] = u
            if keep_depth:
                depth[v] = d
            q[as_uint(found)] = v
            found += 1
            last = v
        elif det:
            lower_parent(parent, depth, v, u, d)
    return last, found


@njit(cache=True)
def thin_frontier_levels(indptr, indices, parent, depth, visited, q, nf, level, m_f, m_u, limit,
                         stats, dirs, batches, nlev, nb, t_last, acc, nrow, rf, re, rc, grain,
                         rows_left, batches_left):
    """Serial top-down levels while the frontier ``q[0:nf]`` has one or two vertices and
    each of them finds exactly one new vertex (a path, a chain): the frontier stays in
    registers, since a BFS along a path is a chain of dependent loads and a round trip
    through the queue per level lengthens it (1.5x faster on a path). The inner loop only
    claims; a run of levels with the same edge count is logged once, and runs end where a
    timing batch closes. The caller (``topdown_levels_serial``,
    ``bitmap_topdown_levels_serial``) has checked that the first level is small and stays
    top-down; the frontier is not growing here, so Beamer's test is never met. Stops after
    a level that breaks the pattern (its new vertices are then ``q[0:e]``), or before a
    level that is not small or finds the log full (its frontier is then ``q[0:e]``).
    No deterministic rule here (``canonical``): a single frontier vertex cannot meet its own
    claim again, and the deterministic mode sends no frontier of two (a runtime test in
    this loop costs the default mode 10% on a path).
    Returns (e, level, m_f, m_u, prev_nf, nlev, nb, t_last, acc, nrow, rf, re, rc)."""
    keep_depth = depth.shape[0] != 0
    small = min(limit, grain - 1)
    a = as_uint(q[0])
    b = as_uint(q[nf - 1])
    while True:
        work = nf + m_f
        budget = (grain - acc + work - 1) // work  # levels until the timing batch closes
        done = 0
        pattern = True
        next_m_f = m_f
        if nf == 1:  # two copies of the loop: no test of nf per level
            while done < budget:
                a, found = claim_neighbours(indptr, indices, parent, depth, visited, keep_depth,
                                            False, level + done + 1, a, q, 0)
                done += 1
                if found != 1:
                    pattern = False
                    break
                next_m_f = indptr[a + ONE] - indptr[a]
                m_u -= next_m_f
                if next_m_f != m_f:
                    break
        else:
            while done < budget:
                a, found = claim_neighbours(indptr, indices, parent, depth, visited, keep_depth,
                                            False, level + done + 1, a, q, 0)
                pattern = found == 1
                b, found = claim_neighbours(indptr, indices, parent, depth, visited, keep_depth,
                                            False, level + done + 1, b, q, found)
                done += 1
                if not (pattern and found == 2):
                    pattern = False
                    break
                next_m_f = indptr[a + ONE] - indptr[a] + indptr[b + ONE] - indptr[b]
                m_u -= next_m_f
                if next_m_f != m_f:
                    break
        if nf == rf and m_f == re:
            rc += done
        else:
            nrow = log_write_run(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
            rf = nf
            re = m_f
            rc = done
        nlev += done
        level += done
        acc += done * work
        if acc >= grain:
            nb, t_last = log_end_batch(batches, nb, nlev, t_last)
            acc = 0
        if not pattern:  # the last level's new vertices are q[0:found]
            m_f = 0
            for i in range(found):
                v = as_uint(q[as_uint(i)])
                m_f += indptr[v + ONE] - indptr[v]
            m_u -= m_f
            return found, level, m_f, m_u, nf, nlev, nb, t_last, acc, nrow, rf, re, rc
        m_f = next_m_f
        if nf + m_f > small or nrow > rows_left or nb > batches_left:
            q[0] = a
            if nf == 2:
                q[1] = b
            return nf, level, m_f, m_u, nf, nlev, nb, t_last, acc, nrow, rf, re, rc
