"""Beamer's direction-optimizing BFS, compiled with numba and parallel over all numba threads.

Level loop in Python, one compiled kernel per level (so each level is timed with
``time.perf_counter``), except that runs of small top-down levels are done by one serial
kernel that times each level with a monotonic clock (a path of a million vertices has a
million levels; a Python iteration and a parallel launch per level would dominate).

Top-down step (frontier queue -> next queue): the frontier's adjacency entries, counted by a
prefix sum of the frontier degrees, are cut into equal ranges, one per chunk (a hub's list may
be split between chunks: skewed degrees stay balanced). A vertex is claimed with an atomic
compare-and-swap on ``parent[v]`` (-1 -> u), so exactly one thread claims it, writes its depth
and appends it to its chunk buffer; full buffers are flushed to the next queue at a position
reserved with an atomic fetch-and-add. No locks, no duplicates, no second pass.

Bottom-up step (frontier bitmap -> next bitmap): chunks own whole 64-vertex words, so the next
bitmap is written without races; each unvisited vertex scans its neighbours for one whose bit
is set in the frontier bitmap and stops at the first hit.

Switching (Beamer et al., SC'12): with n_f the frontier size, m_f its degree sum and m_u the
degree sum of the unvisited vertices (all kept up to date incrementally, never by an O(N)
rescan), go bottom-up when the frontier is growing and ``m_f > m_u / alpha`` (and ``m_u > 0``);
go back top-down when ``n_f <= N / beta`` and the frontier is shrinking. One guard is added:
a frontier of at most ``N / beta`` vertices that is not shrinking also goes back when
``m_f <= m_u / alpha`` (a bottom-up level costs O(N/64) at least; without the guard a long
path behind a hub would be walked bottom-up). Queue <-> bitmap conversions (O(N), parallel)
happen only at switches. A large ``alpha`` favours bottom-up, a small one top-down.
"""
from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit, prange

from ..errors import InputError
from ..graph.types import CSRGraph, index_dtype
from ._common import cas, check_root, clock_ns, cttz, fetch_add, levels_from_arrays
from .types import BFSResult

__all__ = ["bfs_direction_optimizing"]

# A top-down level whose work (frontier vertices + adjacency entries) is below this runs in
# the serial multi-level kernel; above it, the parallel one.
SERIAL_WORK = 1 << 14
# Per-chunk buffer of claimed vertices in the parallel top-down step.
_BUF = 2048
# Stats rows per call of the serial multi-level kernel.
_SERIAL_LEVELS = 4096

_TD = "top-down"
_BU = "bottom-up"


@njit(cache=True)
def _go_bottom_up(nf, prev_nf, m_f, m_u, alpha):
    """Beamer's top-down -> bottom-up test: the frontier is growing and m_f > m_u / alpha.

    Never when no unvisited vertex has an edge (m_u == 0: the next level finds nothing, and
    top-down finds that out in O(m_f), bottom-up in O(N)).
    """
    return nf > prev_nf and m_u > 0 and m_f > m_u / alpha


@njit(cache=True)
def _td_serial(indptr, indices, parent, depth, q, nf, prev_nf, q2, level, m_f, m_u, alpha,
               limit, stats):
    """Serial top-down levels while the frontier is small and top-down is the choice.

    Stops before a level whose work exceeds ``limit`` or that should go bottom-up, when the
    frontier is empty, or when ``stats`` is full. Returns (levels done, nf, prev_nf, m_f, m_u,
    swapped): when ``swapped`` the frontier is in ``q2``.
    """
    nlev = 0
    swapped = False
    cap = stats.shape[0]
    while nf > 0 and nlev < cap:
        if _go_bottom_up(nf, prev_nf, m_f, m_u, alpha) or m_f + nf > limit:
            break
        t0 = clock_ns()
        tail = 0
        scout = 0
        d = level + 1
        for i in range(nf):
            u = q[i]
            for k in range(indptr[u], indptr[u + 1]):
                v = indices[k]
                if parent[v] < 0:
                    parent[v] = u
                    depth[v] = d
                    q2[tail] = v
                    tail += 1
                    scout += indptr[v + 1] - indptr[v]
        t1 = clock_ns()
        stats[nlev, 0] = nf
        stats[nlev, 1] = m_f
        stats[nlev, 2] = tail
        stats[nlev, 3] = t1 - t0
        nlev += 1
        m_u -= scout
        m_f = scout
        prev_nf = nf
        nf = tail
        level += 1
        q, q2 = q2, q
        swapped = not swapped
    return nlev, nf, prev_nf, m_f, m_u, swapped


@njit(cache=True, parallel=True)
def _td_parallel(indptr, indices, parent, depth, q, nf, q2, tail, buf, level, wp):
    """One parallel top-down level; returns (edges examined, discovered, m_f of next)."""
    wp[0] = 0
    for i in range(nf):
        u = q[i]
        wp[i + 1] = wp[i] + indptr[u + 1] - indptr[u]
    total = wp[nf]
    nchunks = buf.shape[0]
    bufcap = buf.shape[1]
    scouts = np.zeros(nchunks, np.int64)
    tail[0] = 0
    d = level + 1
    for c in prange(nchunks):
        lo = (total * c) // nchunks
        hi = (total * (c + 1)) // nchunks
        if lo >= hi:
            continue
        # frontier index i with wp[i] <= lo < wp[i + 1]
        i = np.searchsorted(wp[: nf + 1], lo, side="right") - 1
        cnt = 0
        scout = 0
        pos = lo
        while pos < hi:
            u = q[i]
            u64 = np.int64(u)
            base = indptr[u] - wp[i]
            end = min(hi, wp[i + 1])
            for p in range(pos, end):
                v = indices[base + p]
                if parent[v] < 0:
                    if cas(parent, v, np.int64(-1), u64):
                        depth[v] = d
                        buf[c, cnt] = v
                        cnt += 1
                        scout += indptr[v + 1] - indptr[v]
                        if cnt == bufcap:
                            at = fetch_add(tail, 0, np.int64(cnt))
                            q2[at:at + cnt] = buf[c, :cnt]
                            cnt = 0
            pos = end
            i += 1
        if cnt > 0:
            at = fetch_add(tail, 0, np.int64(cnt))
            q2[at:at + cnt] = buf[c, :cnt]
        scouts[c] = scout
    return total, tail[0], scouts.sum()


@njit(cache=True, parallel=True)
def _bu_step(indptr, indices, parent, depth, front, nxt, cand, level, nchunks):
    """One bottom-up level; returns (edges examined, discovered, m_f of next).

    ``cand``: bitmap of the unvisited vertices that have neighbours (the only ones worth a
    look); found vertices leave it. ``front``: the frontier; ``nxt`` gets the next one.
    Chunk ``c`` owns words ``[w0, w1)`` of all three bitmaps: no races.
    """
    nwords = front.shape[0]
    res = np.zeros((nchunks, 3), np.int64)
    d = level + 1
    one = np.uint64(1)
    for c in prange(nchunks):
        w0 = (nwords * c) // nchunks
        w1 = (nwords * (c + 1)) // nchunks
        examined = 0
        awake = 0
        scout = 0
        for w in range(w0, w1):
            todo = cand[w]
            found = np.uint64(0)
            base = w * 64
            while todo != 0:
                b = cttz(todo)
                bit = one << b
                todo ^= bit
                v = base + np.int64(b)
                s = indptr[v]
                e = indptr[v + 1]
                k = s
                while k < e:
                    u = indices[k]
                    if (front[u >> 6] >> np.uint64(u & 63)) & one:
                        break
                    k += 1
                if k < e:
                    parent[v] = indices[k]
                    depth[v] = d
                    found |= bit
                    awake += 1
                    scout += e - s
                    examined += k - s + 1
                else:
                    examined += e - s
            nxt[w] = found
            cand[w] ^= found
        res[c, 0] = examined
        res[c, 1] = awake
        res[c, 2] = scout
    return res[:, 0].sum(), res[:, 1].sum(), res[:, 2].sum()


@njit(cache=True, parallel=True)
def _queue_to_bitmap(indptr, depth, level, front, cand, nchunks):
    """front = the vertices at ``level``; cand = the unvisited vertices with neighbours.

    Read from ``depth``: O(N), but only at a switch to bottom-up (whose steps are O(N) too).
    """
    n = depth.shape[0]
    nwords = front.shape[0]
    for c in prange(nchunks):
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            fw = np.uint64(0)
            cw = np.uint64(0)
            for v in range(w * 64, min(n, (w + 1) * 64)):
                dv = depth[v]
                bit = np.uint64(1) << np.uint64(v - w * 64)
                if dv == level:
                    fw |= bit
                elif dv < 0 and indptr[v + 1] > indptr[v]:
                    cw |= bit
            front[w] = fw
            cand[w] = cw


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, parallel=True)
def _bitmap_to_queue(front, q, nchunks):
    """q[:k] = the set bits of ``front`` in ascending order; returns k (only at a switch)."""
    nwords = front.shape[0]
    counts = np.zeros(nchunks + 1, np.int64)
    for c in prange(nchunks):
        s = 0
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            s += _popcount(front[w])
        counts[c + 1] = s
    for c in range(nchunks):
        counts[c + 1] += counts[c]
    for c in prange(nchunks):
        at = counts[c]
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            word = front[w]
            while word != np.uint64(0):
                b = cttz(word)
                word ^= np.uint64(1) << b
                q[at] = w * 64 + np.int64(b)
                at += 1
    return counts[nchunks]


def _record(fr_col, ed_col, di_col, dir_col, sec_col, nf, edges, found, direction, seconds):
    fr_col.append(int(nf))
    ed_col.append(int(edges))
    di_col.append(int(found))
    dir_col.append(direction)
    sec_col.append(seconds)


def _check_param(name, value):
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a positive number, got {value!r}") from None
    if not x > 0:
        raise InputError(f"{name} must be a positive number, got {value!r}")
    return x


def bfs_direction_optimizing(graph: CSRGraph, root, *, alpha=15.0, beta=18.0,
                             **options) -> BFSResult:
    """Direction-optimizing BFS from ``root`` (Beamer et al.), parallel over numba's threads.

    ``alpha``: go bottom-up when the frontier is growing and its edges exceed (edges of the
    unvisited vertices) / alpha: a huge alpha goes bottom-up as soon as the frontier grows, a
    tiny one stays top-down. ``beta``: go back top-down when the frontier is shrinking and
    holds at most N / beta vertices: a huge beta stays bottom-up longer.
    Returns parent (int64), depth (int32 when N < 2**31, else int64; -1 where not reached)
    and one LevelStats per level with its direction and time. The parent array is a valid BFS
    tree; with several threads, which valid parent a vertex gets may vary from run to run.
    Other options are accepted for registry uniformity and ignored.
    """
    alpha = _check_param("alpha", alpha)
    beta = _check_param("beta", beta)
    r = check_root(graph, root)
    n = graph.num_vertices
    indptr = graph.indptr
    indices = graph.indices
    itype = indices.dtype
    nthreads = numba.get_num_threads()

    parent = np.full(n, -1, dtype=np.int64)
    depth = np.full(n, -1, dtype=index_dtype(n))
    q = np.empty(n, dtype=itype)
    q2 = np.empty(n, dtype=itype)
    parent[r] = r
    depth[r] = 0
    q[0] = r
    nf = 1
    m_f = int(indptr[r + 1] - indptr[r])
    m_u = int(indptr[n]) - m_f

    # Per-level statistics as columns; LevelStats objects are made once at the end.
    fr_col: list[int] = []
    ed_col: list[int] = []
    di_col: list[int] = []
    dir_col: list[str] = []
    sec_col: list[float] = []
    level = 0
    # Allocated on first use.
    stats = None
    wp = buf = tail = front = nxt = cand = None
    td_chunks = 4 * nthreads
    bu_chunks = 16 * nthreads
    prev_nf = 0  # frontier size of the previous level: 'growing' means nf > prev_nf

    while nf > 0:
        # ---- top-down levels -------------------------------------------------------------
        if not _go_bottom_up(nf, prev_nf, m_f, m_u, alpha):
            if m_f + nf <= SERIAL_WORK:
                if stats is None:
                    stats = np.empty((_SERIAL_LEVELS, 4), dtype=np.int64)
                nlev, nf, prev_nf, m_f, m_u, swapped = _td_serial(
                    indptr, indices, parent, depth, q, nf, prev_nf, q2, level, m_f, m_u,
                    alpha, SERIAL_WORK, stats)
                if swapped:
                    q, q2 = q2, q
                fr_col += stats[:nlev, 0].tolist()
                ed_col += stats[:nlev, 1].tolist()
                di_col += stats[:nlev, 2].tolist()
                sec_col += (stats[:nlev, 3] * 1e-9).tolist()
                dir_col += [_TD] * nlev
                level += nlev
                continue
            if wp is None:
                wp = np.empty(n + 1, dtype=np.int64)
                buf = np.empty((td_chunks, _BUF), dtype=itype)
                tail = np.zeros(1, dtype=np.int64)
            t0 = time.perf_counter()
            edges, found, scout = _td_parallel(indptr, indices, parent, depth, q, nf, q2,
                                               tail, buf, level, wp)
            t1 = time.perf_counter()
            _record(fr_col, ed_col, di_col, dir_col, sec_col, nf, edges, found, _TD, t1 - t0)
            q, q2 = q2, q
            prev_nf = nf
            nf = int(found)
            m_f = int(scout)
            m_u -= m_f
            level += 1
            continue

        # ---- bottom-up levels ------------------------------------------------------------
        if front is None:
            nwords = (n + 63) // 64
            front = np.empty(nwords, dtype=np.uint64)
            nxt = np.empty(nwords, dtype=np.uint64)
            cand = np.empty(nwords, dtype=np.uint64)
        t0 = time.perf_counter()
        _queue_to_bitmap(indptr, depth, level, front, cand, bu_chunks)
        extra = time.perf_counter() - t0  # conversion, charged to the first bottom-up level
        while True:
            t0 = time.perf_counter()
            edges, found, scout = _bu_step(indptr, indices, parent, depth, front, nxt, cand,
                                           level, bu_chunks)
            t1 = time.perf_counter()
            found = int(found)
            _record(fr_col, ed_col, di_col, dir_col, sec_col, nf, edges, found, _BU,
                    t1 - t0 + extra)
            extra = 0.0
            front, nxt = nxt, front
            level += 1
            shrinking = found < nf
            prev_nf = nf
            nf = found
            m_f = int(scout)
            m_u -= m_f
            if nf == 0:
                break
            if nf <= n / beta and (shrinking or not (m_u > 0 and m_f > m_u / alpha)):
                t0 = time.perf_counter()
                _bitmap_to_queue(front, q, bu_chunks)
                sec_col[-1] += time.perf_counter() - t0  # charged to this level
                break
    levels = levels_from_arrays(fr_col, ed_col, di_col, sec_col, dir_col)
    return BFSResult(parent=parent, root=r, depth=depth, levels=levels)
