"""Frontiers of one or two vertices (a path, a chain) walked in registers.

A BFS along a path is a chain of dependent loads; a round trip through a queue or a bitmap
per level lengthens it. ``thin_frontier_levels`` keeps the frontier in locals while each of
its vertices finds exactly one new one; the serial top-down stretches of ``queue_topdown``
and ``bitmap_topdown`` hand such frontiers to it. Each step of a chain carries its vertex's
parent, list start and degree, so a vertex of degree two tests one neighbour, the one that
is not its parent (``_chain_step``); the loops of one and of two chains are compiled
functions of their own (``_walk_one``, ``_walk_two``), called once per timing batch, so
their registers hold the arrays' addresses. One chain numbered in order (a path read from a
file as 0, 1, 2, ...) is walked on its labels instead (``_run_in_order``): no level waits for
the one before. ``claim_neighbours`` is the serial claim of one
vertex's unvisited neighbours into a queue, shared with ``queue_topdown``.

Records: ``graph`` is (indptr, indices), ``search`` (parent, depth, visited) (``bfs.steps``),
``log`` a ``level_log.LevelLog``; a chain is (vertex, its parent, its list's start, its
degree). The serial stretches keep the level log's state in locals, handed on as one record
``run``: (``nlev`` levels, ``nb`` batches, ``t_last`` clock at the last batch end, ``acc``
work since, ``nrow`` rows, and the open run of equal levels: ``rf`` frontier, ``re`` edges,
``rc`` levels).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint
from ...primitives.hints import hold, prefetch
from ..types import TOP_DOWN
from .canonical import lower_parent
from .directed import chain_in_degrees, in_degree_sum
from .level_log import log_end_batch, log_write_run

__all__ = ["claim_neighbours", "thin_frontier_levels"]


@njit(inline="always")
def claim_neighbours(graph, search, keep_depth, det, d, u, q, found):
    """Claim the unvisited neighbours of ``u`` into ``q[found:]`` (serial); returns (the
    last one claimed, or ``u``; the new ``found``; the degree sum of those claimed, Beamer's
    m_f share). What the next level reads of a claimed vertex is asked for at its claim:
    its list bounds are read for the degree, its list is prefetched (on a grid from its
    centre the frontier's four sides interleave in the queue, and the hardware's stride
    prefetcher misses those lines: 1.15x). ``det``: neighbours claimed earlier in this
    level take ``u`` as parent if it is smaller (``canonical.lower_parent``)."""
    indptr, indices = graph
    parent, depth, visited = search
    last = u
    scout = 0
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
            kv = indptr[v]
            scout += indptr[v + ONE] - kv
            prefetch(indices, kv)
        elif det is not None:
            lower_parent(parent, depth, v, u, d)
    return last, found, scout


@njit(inline="always")
def _chain_step(graph, search, keep_depth, d, chain, q, found):
    """One level of a chain: claim the unvisited neighbours of its frontier vertex ``a``
    (``chain``: a, its parent ``pa``, list at ``ka``, degree ``da``) into ``q[found:]``;
    returns (the last one claimed, or ``a``; the new ``found``; its list's start and
    degree, read once here and carried to its own step). A vertex of degree two next to
    its parent has one neighbour to test, the other one: the common case on a path or a
    chain, a shorter step than the loop over its list (its vertex is x + y - pa, neighbours
    x and y, one of them pa: no branch on which). Inlined; its arrays are held to its end
    (``primitives.hints.hold``)."""
    indptr, indices = graph
    parent, depth, visited = search
    a, pa, ka, da = chain
    last = a
    general = True
    if da == 2:
        x = as_uint(indices[ka])
        y = as_uint(indices[ka + ONE])
        if x == pa or y == pa:
            general = False
            v = x + y - pa
            w = v >> WORD_SHIFT
            bit = ONE << (v & BIT_MASK)
            word = visited[w]
            if (word & bit) == ZERO:
                visited[w] = word | bit
                parent[v] = a
                if keep_depth:
                    depth[v] = d
                found += 1
                last = v
    if general:
        last, found, _ = claim_neighbours(graph, search, keep_depth, None, d, a, q, found)
    kv = as_uint(indptr[last])
    dv = indptr[last + ONE] - indptr[last]
    hold(graph)  # one release of each array, at the end (``primitives.hints``)
    hold(search)
    hold(indptr)
    hold(indices)
    hold(parent)
    hold(depth)
    hold(visited)
    hold(q)
    return last, found, kv, dv


@njit(cache=True)
def _run_in_order(graph, search, level, a, pa, budget):
    """Up to ``budget`` levels of one chain numbered in order: from ``a`` (degree two, its
    parent ``pa`` = a -+ 1) on to a + s, a + 2 s, ... (s = a - pa) while each vertex's
    neighbours are exactly its predecessor and its successor and the next one is not
    visited. Returns (levels walked, the last vertex claimed or ``a``, that vertex's
    parent).

    ``_chain_step`` computes the next vertex from the row it loaded: every level waits for
    two dependent loads (the row's start, then the row), 11 cycles, where scipy's queue
    waits about 10. Here the next vertex is v + s, known before the row is read: the rows
    are only checked, on branches the CPU predicts, so the loads of successive levels
    overlap. The visited word stays in a register while the chain is inside it (a read of
    the word just stored would chain the levels again). Any other shape ends the run
    before its level, which the general step then takes."""
    indptr, indices = graph
    parent, depth, visited = search
    keep_depth = depth.shape[0] != 0
    v = np.int64(a)
    s = v - np.int64(pa)
    t = 0
    wcur = as_uint(v) >> WORD_SHIFT  # a's own word (v + s may be outside the bitmap)
    word = visited[wcur]
    while t < budget:
        k = as_uint(indptr[as_uint(v)])
        if indices[k] != v - 1 or indices[k + ONE] != v + 1:
            break
        nxt = as_uint(v + s)
        w = nxt >> WORD_SHIFT
        if w != wcur:
            visited[wcur] = word
            wcur = w
            word = visited[w]
        bit = ONE << (nxt & BIT_MASK)
        if (word & bit) != ZERO:
            break
        word |= bit
        parent[nxt] = v
        if keep_depth:
            depth[nxt] = level + t + 1
        t += 1
        v = np.int64(nxt)
        if indptr[nxt + ONE] - indptr[nxt] != 2:
            break
    visited[wcur] = word
    return t, v, v - s


@njit(cache=True)
def _walk_one(graph, search, q, level, m_f, budget, chain):
    """Up to ``budget`` levels of one ``chain`` while each finds one vertex of degree
    ``m_f``. Returns (levels that kept the pattern, whether the last one tried did,
    ``found`` of the last step, the chain). Its own function, so that its loop keeps the
    arrays' addresses in registers."""
    indptr, _ = graph
    _, depth, _ = search
    keep_depth = depth.shape[0] != 0
    a, pa, ka, da = chain
    ok = 0  # levels that kept the pattern; each found a vertex of degree m_f but the last
    found = 1
    while ok < budget:
        if da == 2 and (a == pa + ONE or pa == a + ONE):  # perhaps a chain numbered in order
            t, v, pv = _run_in_order(graph, search, level + ok, a, pa, budget - ok)
            if t > 0:
                ok += t
                pa = as_uint(pv)
                a = as_uint(v)
                ka = as_uint(indptr[a])
                da = indptr[a + ONE] - indptr[a]
                if da != m_f:
                    break
                continue
        a2, found, ka2, da2 = _chain_step(graph, search, keep_depth, level + ok + 1,
                                          (a, pa, ka, da), q, 0)
        if found != 1:  # the new vertices are q[0:found] (none from a degree-2 step)
            return ok, False, found, (a, pa, ka, da)
        ok += 1
        pa = a
        a = a2
        ka = ka2
        da = da2
        if da != m_f:
            break
    return ok, True, found, (a, pa, ka, da)


@njit(cache=True)
def _walk_two(graph, search, q, level, m_f, budget, chain_a, chain_b):
    """``_walk_one`` for two chains side by side (a path from inside: two independent
    chains of loads, overlapped), while each finds one vertex and the two degrees add up
    to ``m_f``."""
    _, depth, _ = search
    keep_depth = depth.shape[0] != 0
    a, pa, ka, da = chain_a
    b, pb, kb, db = chain_b
    ok = 0
    found = 2
    while ok < budget:
        a2, found, ka2, da2 = _chain_step(graph, search, keep_depth, level + ok + 1,
                                          (a, pa, ka, da), q, 0)
        fa = found
        b2, found, kb2, db2 = _chain_step(graph, search, keep_depth, level + ok + 1,
                                          (b, pb, kb, db), q, fa)
        if not (fa == 1 and found == 2):
            # the new vertices are q[0:found]: put there those that a degree-2 step found
            # (a one-vertex find is its chain's last vertex, whichever step made it)
            if fa == 1:
                q[0] = a2
            if found - fa == 1:
                q[as_uint(fa)] = b2
            return ok, False, found, (a, pa, ka, da), (b, pb, kb, db)
        ok += 1
        pa = a
        a = a2
        ka = ka2
        da = da2
        pb = b
        b = b2
        kb = kb2
        db = db2
        if da + db != m_f:
            break
    return ok, True, found, (a, pa, ka, da), (b, pb, kb, db)


@njit(cache=True)
def thin_frontier_levels(graph, in_indptr, search, q, front, log, run, limits):
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
    ``in_indptr``: a directed graph's in-edge offsets, or None (``directed``): m_u then
    loses the in-degrees of the vertices claimed, summed after each walk along the parents
    it wrote (out of the walk's loop, and only on a digraph).
    ``front``: (nf, level, m_f, m_u); ``limits``: (limit, grain, rows_left, batches_left);
    ``run``: the caller's log locals (module docstring). Returns (e, level, m_f, m_u,
    prev_nf, run)."""
    indptr, _ = graph
    parent, _, _ = search
    stats, dirs, batches, _ = log
    nf, level, m_f, m_u = front
    nlev, nb, t_last, acc, nrow, rf, re, rc = run
    limit, grain, rows_left, batches_left = limits
    small = min(limit, grain - 1)
    # each chain: its vertex, parent (its step tests one neighbour, not two), list, degree
    a = as_uint(q[0])
    chain_a = (a, as_uint(parent[a]), as_uint(indptr[a]), indptr[a + ONE] - indptr[a])
    b = as_uint(q[nf - 1])
    chain_b = (b, as_uint(parent[b]), as_uint(indptr[b]), indptr[b + ONE] - indptr[b])
    found = 0
    while True:
        work = nf + m_f
        budget = (grain - acc + work - 1) // work  # levels until the timing batch closes
        if nf == 1:
            ok, pattern, found, chain_a = _walk_one(graph, search, q, level, m_f, budget,
                                                    chain_a)
            next_m_f = chain_a[3]
        else:
            ok, pattern, found, chain_a, chain_b = _walk_two(graph, search, q, level, m_f,
                                                             budget, chain_a, chain_b)
            next_m_f = chain_a[3] + chain_b[3]
        if ok > 0:
            if in_indptr is None:  # the unvisited edges lose each level's m_f
                m_u -= (ok - 1) * m_f + next_m_f  # (kept out of the hot loop)
            else:  # a digraph's: the in-degrees of the vertices each chain claimed
                m_u -= chain_in_degrees(in_indptr, parent, chain_a[0], ok)
                if nf == 2:
                    m_u -= chain_in_degrees(in_indptr, parent, chain_b[0], ok)
        done = ok if pattern else ok + 1
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
            m_u -= m_f if in_indptr is None else in_degree_sum(in_indptr, q, 0, found)
            return found, level, m_f, m_u, nf, (nlev, nb, t_last, acc, nrow, rf, re, rc)
        m_f = next_m_f
        if nf + m_f > small or nrow > rows_left or nb > batches_left:
            q[0] = chain_a[0]
            if nf == 2:
                q[1] = chain_b[0]
            return nf, level, m_f, m_u, nf, (nlev, nb, t_last, acc, nrow, rf, re, rc)
