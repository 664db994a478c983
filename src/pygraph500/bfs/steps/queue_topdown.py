"""Top-down levels with queue frontiers (thesis Algorithms 1 and 2).

- ``topdown_levels_serial``: top-down levels, serial, the queue used as a FIFO (thesis
  Algorithm 1 level by level: the next level is appended behind the current one). It runs
  level after level while each level's work (frontier + edges) is at most ``limit``, so a
  graph of thousands of small levels (a path, a grid) costs one call and no per-level
  launch. Frontiers of one or two vertices are walked in registers (``thin_frontier``): a
  path's BFS is a chain of dependent loads, and a round trip through the queue per level
  lengthens it. ``q`` needs room for the frontier plus every vertex still to be reached:
  a frontier that starts at ``q[0]`` always fits in N entries. When the frontier is small
  next to the dequeued part, it is moved back to ``q[0]`` (amortised O(1) per vertex): on
  a path or a grid the queue's live part stays in cache instead of sweeping N entries.
  (Hot loop: indices are cast to uint64, which spares numba's negative-index check on
  every access, and the log is kept in locals, written back at the end.)
- ``topdown_level_parallel``: one top-down level over all threads (thesis Algorithm 2): the
  frontier's adjacency entries (prefix sum of its degrees) are cut into equal ranges claimed
  dynamically by the threads (a hub's list may be split: skewed degrees stay balanced);
  claimed vertices go to a per-thread buffer flushed to the next queue at a position
  reserved with an atomic fetch-and-add. No lock, no duplicate, no second pass.

Each has a ``_digraph`` form that also takes a directed graph's in-edges (``directed``: m_u
loses the claimed vertices' in-degrees, the deterministic pass reads in-rows); the plain
names are those forms on an undirected graph (None for the in-edges).

The records (``graph``, ``search``, ``log``) and the names of the level log's locals are
those of ``thin_frontier``. A serial stretch's frontier is the record ``front`` = (s, e,
level, m_f, m_u, prev_nf): the frontier ``q[s:e]`` at depth ``level``, its degree sum,
the unvisited vertices' degree sum, the previous frontier's size.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...primitives import fetch_add, fetch_or
from ...primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint
from ...primitives.direction import go_bottom_up
from ...primitives.hints import hold, prefetch
from ..types import TOP_DOWN
from .canonical import first_parents, lower_parent_atomic
from .directed import degree_sums_parallel, in_degree_sum
from .level_log import log_end_batch, log_write_run
from .thin_frontier import claim_neighbours, thin_frontier_levels

__all__ = ["topdown_levels_serial", "topdown_levels_serial_digraph", "topdown_level_parallel",
           "topdown_level_parallel_digraph"]

# Dynamic scheduling of the parallel level: its edges are cut into this many chunks per thread.
_CHUNKS_PER_THREAD = 8
# The serial levels prefetch the lines of the vertices this many labels above and below.
_NEAR = 8


@njit(inline="always")
def _prefetch_near(graph, search, keep_depth, u):
    """Ask for the lines of the vertices ``_NEAR`` labels above and below ``u``: their
    parent (and depth) words, row offsets and rows (the row's place guessed from a grid's
    degree). On a graph numbered with locality (a grid, a mesh) they are claimed a few
    levels on, far down the queue by then: a frontier crossing the rows of a grid touches a
    line per vertex in each array, a new line every few levels, in an order (the stride of
    a grid row) the hardware's prefetchers do not follow. On a 1000 x 1000 grid
    (``bench_high_diameter.py``) from a corner 21 -> 11.5 ms, from the centre 21 -> 16 ms.
    Elsewhere: a few instructions per vertex of a small level. Every array is held to the
    end (``primitives.hints.hold``): without it this function cost more than it saved."""
    indptr, indices = graph
    parent, depth, _ = search
    row = as_uint(indptr[u])
    near = as_uint(_NEAR)
    far = as_uint(4 * _NEAR)  # the rows of a grid's vertices _NEAR labels away
    prefetch(parent, u + near)
    prefetch(indptr, u + near)
    prefetch(indices, row + far)
    if keep_depth:
        prefetch(depth, u + near)
    if u >= near and row >= far:
        prefetch(parent, u - near)
        prefetch(indptr, u - near)
        prefetch(indices, row - far)
        if keep_depth:
            prefetch(depth, u - near)
    hold(indptr)  # one release of each array, at the end (``primitives.hints``)
    hold(indices)
    hold(parent)
    hold(depth)


@njit(cache=True)
def _claim_level(graph, search, q, s, e, d, det, near):
    """One serial top-down level: the unvisited neighbours of ``q[s:e]`` claimed at depth
    ``d`` into ``q[e:]``; returns (the queue's new end, their degree sum: the next m_f).
    ``near``: the labels have locality (``_prefetch_near``; on a graph numbered at random
    its lines are wasted traffic: a grid relabelled at random was about a fifth slower with
    them). Its
    own compiled function, called once per level: inlined in the level loop, where the log's
    locals are live too, its loop ran short of registers and kept the arrays' addresses on
    the stack (a grid's search about 1.07x slower)."""
    _, depth, _ = search
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    tail = e
    scout = 0
    for i in range(s, e):
        u = as_uint(q[as_uint(i)])
        if near:
            _prefetch_near(graph, search, keep_depth, u)
        _, tail, claimed = claim_neighbours(graph, search, keep_depth, det, d, u, q, tail)
        scout += claimed
    return tail, scout


@njit(inline="always")
def _beside(indptr, indices, u):
    """Whether ``u``'s list holds u - 1 or u + 1 (its first 32 entries): the labels have
    locality there (a grid numbered by rows, a mesh, a path in order)."""
    a = indptr[u]
    for k in range(a, min(indptr[u + ONE], a + 32)):
        v = as_uint(indices[as_uint(k)])
        if v == u + ONE or u == v + ONE:
            return True
    return False


@njit(cache=True)
def topdown_levels_serial(graph, search, q, front, det, log, tune):
    """``topdown_levels_serial_digraph`` on an undirected graph."""
    return topdown_levels_serial_digraph(graph, None, search, q, front, det, log, tune)


@njit(cache=True)
def topdown_levels_serial_digraph(graph, in_indptr, search, q, front, det, log, tune):
    """Serial top-down levels on the FIFO ``q`` (the module's docstring says how): the
    frontier is ``q[s:e]`` (``front``), the next level is appended behind it. Runs while the
    frontier is not empty, the level's work ``nf + m_f`` is at most ``limit`` and (when
    ``switch``) Beamer's test (``alpha``) does not call for bottom-up; ``tune``: (limit,
    switch, alpha, grain: the log's ``TIME_GRAIN``). Returns the ``front`` it stopped at.
    ``in_indptr``: a directed graph's in-edge offsets (m_u counts in-degrees, ``directed``),
    or None. ``det``: the deterministic rule (``canonical``: a vertex met again in the level
    that claimed it takes the smaller parent); frontiers of two then stay here."""
    indptr, indices = graph
    stats, dirs, batches, state = log
    s, e, level, m_f, m_u, prev_nf = front
    limit, switch, alpha, grain = tune
    nlev = state[0]
    nb = state[1]
    t_last = state[2]
    acc = state[3]
    nrow = state[4]
    rf = re = -1
    rc = 0
    big = min(limit + 1, grain)  # one test for the common case of a small level
    rows_left = stats.shape[0] - 2  # a level writes at most 2 rows and 2 batches
    batches_left = batches.shape[0] - 2
    while e > s:
        if nrow > rows_left or nb > batches_left:
            break  # the driver grows the log and calls again
        nf = e - s
        work = nf + m_f
        if work >= big:
            if work > limit:
                break
            if acc > 0:  # a big level is timed on its own
                nb, t_last = log_end_batch(batches, nb, nlev, t_last)
                acc = 0
        if switch and go_bottom_up(nf, prev_nf, m_f, m_u, alpha):
            break
        if nf <= 2 and work < big and not (det is not None and nf == 2):
            if s > 0:
                q[0] = q[s]
                q[nf - 1] = q[e - 1]
            e, level, m_f, m_u, prev_nf, run = thin_frontier_levels(
                graph, in_indptr, search, q, (nf, level, m_f, m_u), log,
                (nlev, nb, t_last, acc, nrow, rf, re, rc), (limit, grain, rows_left, batches_left))
            nlev, nb, t_last, acc, nrow, rf, re, rc = run
            s = 0
            continue
        # the labels have locality where the level's first vertex has a neighbour beside it
        tail, scout = _claim_level(graph, search, q, s, e, level + 1, det,
                                   _beside(indptr, indices, as_uint(q[as_uint(s)])))
        if nf == rf and m_f == re:  # extend the run of equal levels (the test is inline:
            rc += 1                 # a helper called at every level costs 3x more)
        else:
            nrow = log_write_run(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
            rf = nf
            re = m_f
            rc = 1
        nlev += 1
        acc += work
        if acc >= grain:
            nb, t_last = log_end_batch(batches, nb, nlev, t_last)
            acc = 0
        # m_u loses their in-degrees (``directed``; a digraph's read apart from the claims)
        m_u -= scout if in_indptr is None else in_degree_sum(in_indptr, q, e, tail)
        prev_nf = nf
        m_f = scout
        s = e
        e = tail
        level += 1
        if (e - s) * 8 < s:  # keep the queue's live part small: move the frontier to q[0]
            for i in range(e - s):
                q[as_uint(i)] = q[as_uint(s + i)]
            e -= s
            s = 0
    state[0] = nlev
    state[1] = nb
    state[2] = t_last
    state[3] = acc
    state[4] = log_write_run(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
    return s, e, level, m_f, m_u, prev_nf


@njit(cache=True)
def _copy_buffer(buf, t, cnt, q, at):
    """q[at:at + cnt] = buf[t, :cnt] (a plain loop: inside a prange numba's array analysis
    mistakes the slice assignment's sizes)."""
    for j in range(cnt):
        q[at + j] = buf[t, j]


@njit(inline="always")
def _chunk(wp, total, c, nchunks):
    """Chunk ``c`` of the level's adjacency entries: (first entry, end, its frontier index)."""
    lo = (total * c) // nchunks
    hi = (total * (c + 1)) // nchunks
    return lo, hi, np.searchsorted(wp, lo, side="right") - 1  # wp[i] <= lo < wp[i + 1]


@njit(cache=True)
def topdown_level_parallel(graph, search, queues, level, threads, det):
    """``topdown_level_parallel_digraph`` on an undirected graph; returns (edges examined,
    found, m_f of next)."""
    edges, found, scout, _ = topdown_level_parallel_digraph(graph, None, None, search, queues,
                                                            level, threads, det)
    return edges, found, scout


@njit(cache=True, parallel=True)
def topdown_level_parallel_digraph(graph, in_indptr, in_indices, search, queues, level, threads,
                                   det):
    """One parallel top-down level from the frontier ``f`` at depth ``level``; the next
    frontier goes to ``q2[:found]`` (in no particular order). ``queues``: (f, q2);
    ``threads``: (nthreads, bufcap: each one's buffer of claimed vertices). Returns (edges
    examined, found, m_f of next, their in-degree sum: what m_u loses). ``in_indptr``,
    ``in_indices``: a directed graph's in-edges (``directed``), or None.
    ``det``: a second pass gives each new vertex its smallest frontier neighbour
    (``canonical``: race-free, after the claims): forward over the same chunks, or backward
    from the new vertices (``first_parents``, over their in-rows), whichever has fewer
    entries."""
    indptr, indices = graph
    parent, depth, visited = search
    f, q2 = queues
    nthreads, bufcap = threads
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    wp = _frontier_offsets(indptr, f, nthreads)
    total = wp[f.shape[0]]
    nchunks = _CHUNKS_PER_THREAD * nthreads
    counter = np.zeros(1, np.int64)
    tail = np.zeros(1, np.int64)
    scouts = np.zeros(nthreads, np.int64)
    buf = np.empty((nthreads, bufcap), q2.dtype)
    d = level + 1
    for t in prange(nthreads):
        cnt = 0
        scout = 0
        while True:  # dynamic schedule (numba's prange has none): claim the next chunk
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            pos, hi, i = _chunk(wp, total, c, nchunks)
            while pos < hi:
                u = f[as_uint(i)]
                u64 = np.int64(u)
                base = indptr[as_uint(u)] - wp[as_uint(i)]
                end = min(hi, wp[as_uint(i) + ONE])
                for p in range(pos, end):
                    v = as_uint(indices[as_uint(base + p)])
                    w = v >> WORD_SHIFT
                    bit = ONE << (v & BIT_MASK)
                    if (visited[w] & bit) == ZERO:
                        if (fetch_or(visited, w, bit) & bit) == ZERO:  # claimed by us
                            parent[v] = u64
                            if keep_depth:
                                depth[v] = d
                            buf[t, cnt] = v
                            cnt += 1
                            if in_indptr is None:  # a digraph's: after the claims
                                scout += indptr[v + ONE] - indptr[v]
                            if cnt == bufcap:
                                _copy_buffer(buf, t, cnt, q2, fetch_add(tail, 0, np.int64(cnt)))
                                cnt = 0
                pos = end
                i += 1
        if cnt > 0:
            _copy_buffer(buf, t, cnt, q2, fetch_add(tail, 0, np.int64(cnt)))
        scouts[t] = scout
    nfound = fetch_add(tail, 0, np.int64(0))
    m_next = scouts.sum()
    m_in = m_next
    if in_indptr is not None:
        m_next, m_in = degree_sums_parallel(indptr, in_indptr, q2[:nfound], nthreads)
    if det is not None and m_in < total:  # the claims are done (the prange's end is a barrier)
        if in_indptr is not None:
            first_parents(in_indptr, in_indices, parent, depth, visited, q2[:nfound], level,
                          nthreads)
        else:
            first_parents(indptr, indices, parent, depth, visited, q2[:nfound], level,
                          nthreads)
    elif det is not None:
        _lower_forward(graph, parent, depth, f, wp, nchunks, d, nthreads)
    return total, nfound, m_next, m_in


@njit(cache=True, parallel=True)
def _frontier_offsets(indptr, f, nthreads):
    """wp[i]: the adjacency entries of ``f[:i]``, ``wp[len(f)]`` their total (a parallel
    prefix sum of the frontier's degrees: read once, in blocks, then each block scanned
    from its offset)."""
    nf = f.shape[0]
    wp = np.empty(nf + 1, np.int64)
    nblk = 4 * nthreads if nf >= 1 << 14 else 1
    bsum = np.zeros(nblk + 1, np.int64)
    for b in prange(nblk):
        acc = 0
        for i in range((nf * b) // nblk, (nf * (b + 1)) // nblk):
            u = as_uint(f[as_uint(i)])
            dg = indptr[u + ONE] - indptr[u]
            wp[as_uint(i)] = dg
            acc += dg
        bsum[b + 1] = acc
    for b in range(nblk):
        bsum[b + 1] += bsum[b]
    for b in prange(nblk):
        acc = bsum[b]
        for i in range((nf * b) // nblk, (nf * (b + 1)) // nblk):
            dg = wp[as_uint(i)]
            wp[as_uint(i)] = acc
            acc += dg
    wp[nf] = bsum[nblk]
    return wp


@njit(cache=True, parallel=True)
def _lower_forward(graph, parent, depth, f, wp, nchunks, d, nthreads):
    """The forward deterministic pass after a parallel level (``canonical``): the level's
    chunks of ``f``'s edges again, each neighbour claimed at depth ``d`` lowering its
    parent to the frontier vertex (an atomic minimum)."""
    indptr, indices = graph
    total = wp[f.shape[0]]
    claimed = np.zeros(1, np.int64)  # chunks claimed
    for t in prange(nthreads):
        while True:
            c = fetch_add(claimed, 0, np.int64(1))
            if c >= nchunks:
                break
            pos, hi, i = _chunk(wp, total, c, nchunks)
            while pos < hi:
                u64 = np.int64(f[as_uint(i)])
                base = indptr[as_uint(u64)] - wp[as_uint(i)]
                end = min(hi, wp[as_uint(i) + ONE])
                for p in range(pos, end):
                    v = as_uint(indices[as_uint(base + p)])
                    if depth[v] == d:
                        lower_parent_atomic(parent, v, u64)
                pos = end
                i += 1

