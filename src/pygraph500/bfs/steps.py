"""The steps the compiled BFS algorithms are made of: one home for each.

Used by ``topdown-queue``, ``topdown-bitmap``, ``bottomup`` and ``direction-optimizing``
(each module holds only its level loop, a compiled driver that calls these kernels).

State of a search
-----------------
- ``parent`` (int64) and ``depth``: written only for reached vertices during the search;
  ``finish`` writes -1 for the others at the end (so no O(N) initialisation pass is needed
  for vertices the search reaches, and a connected graph is written once). A ``depth`` of
  length 0 means depths are not wanted: the kernels then skip them (the Graph500 output is
  the parent array; depths cost a scattered write per vertex).
- ``visited``: a bitmap (uint64 words; vertex v is bit ``v & 63`` of word ``v >> 6``) of the
  reached vertices. It is the "already seen?" test of every top-down step: N/8 bytes, so it
  stays in cache where ``parent`` would not. Parallel steps claim a vertex with an atomic
  fetch-and-or on its word: exactly one thread sees the bit go from 0 to 1.
- a frontier is either a queue (a slice of a vertex array) or a bitmap like ``visited``.

Steps
-----
- ``td_serial``: top-down levels, serial, the queue used as a FIFO (thesis Algorithm 1
  level by level: the next level is appended behind the current one). It runs level after
  level while each level's work (frontier + edges) is at most ``limit``, so a graph of
  thousands of small levels (a path, a grid) costs one call and no per-level launch.
- ``td_parallel``: one top-down level over all threads (thesis Algorithm 2): the frontier's
  adjacency entries (prefix sum of its degrees) are cut into equal ranges claimed
  dynamically by the threads (a hub's list may be split: skewed degrees stay balanced);
  claimed vertices go to a per-thread buffer flushed to the next queue at a position
  reserved with an atomic fetch-and-add. No lock, no duplicate, no second pass.
- ``tdb_serial`` / ``tdb_parallel``: top-down levels with bitmap frontiers (thesis
  Algorithm 3). A frontier is a hierarchical bitmap (``new_frontier_bitmaps``: the vertex
  bits, a bit per non-zero word, a bit per non-zero summary word), so a level visits only
  set bits and never scans N/64 words; expand each set vertex, mark the next bitmap and its
  summaries (atomic or in parallel). Consumed words are cleared as they are read.
- ``bu_step``: one bottom-up level (Beamer): every unvisited vertex (``cand``) scans its
  neighbours for one in the frontier bitmap and stops at the first hit. Threads own whole
  words, so the bitmaps are written without atomics.
- ``queue_to_bitmap``, ``unvisited_bitmap``, ``bitmap_to_queue``: the conversions.

Parallel kernels take ``nthreads`` (``numba.get_num_threads()``, read by the Python caller:
calling it inside a kernel would keep the kernel out of numba's on-disk cache) and cut
their work into per-thread slots ``prange(nthreads)``; chunks are claimed from a shared
counter with an atomic fetch-and-add (dynamic scheduling: a slow thread does less, the
others do not wait for it). A value updated only by atomics inside a ``prange`` loop is read
after the loop with an atomic too (``fetch_add(a, i, 0)``): numba does not see the atomics as
writes, and a plain read in the same function may return a stale value.

Level log
---------
Every driver records its levels in a log (``new_log``): ``stats`` rows (frontier, edges
examined, count: a run of ``count`` equal consecutive levels, so a path's million levels
take a few rows), ``dirs`` (direction code per row), ``batches`` (end level, nanoseconds)
and ``state`` (levels, batches, clock at the last close, work since, rows). The arrays start
small and grow (``log_room``: drivers return the final ones), so a search reserves no O(N)
log up front. A level whose work is at least ``TIME_GRAIN`` is timed on its own (as is
every parallel or bottom-up level); smaller ones are timed together until their work
reaches the grain (a clock read costs ~25 ns, more than a level of a path), and
``LevelTable`` splits a batch's time among its levels in proportion to their work.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..graph.types import index_dtype
from ..primitives import clock_ns, cttz, fetch_add, fetch_or, popcount
from ..primitives.direction import go_bottom_up
from .types import TOP_DOWN, LevelTable

__all__ = [
    "SERIAL_WORK", "BUF", "TIME_GRAIN", "new_search", "new_log", "log_table", "new_bitmap",
    "new_frontier_bitmaps",
    "mark_root", "log_start", "log_room", "log_close", "log_level", "finish", "end_search",
    "td_serial", "td_parallel", "tdb_serial", "tdb_parallel", "bu_step",
    "queue_to_bitmap", "unvisited_bitmap", "bitmap_to_queue",
]

# A top-down level whose work (frontier vertices + adjacency entries) is at most this runs in a
# serial kernel; above it, in a parallel one. Read at call time (tests lower it).
SERIAL_WORK = 1 << 14
# Per-thread buffer of claimed vertices in the parallel top-down step. Read at call time.
BUF = 2048
# Levels with less work than this are timed together (see the module docstring).
TIME_GRAIN = 1 << 10
# Dynamic scheduling: work is cut into this many chunks per thread.
_TD_CHUNKS = 8
_WORD_CHUNKS = 32

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_U1 = np.uint64(1)
_U6 = np.uint64(6)
_U63 = np.uint64(63)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(inline="always")
def _u(i):
    """An index known to be >= 0, as uint64 (no negative-index check on access)."""
    return np.uint64(i)


# ---- the level log ---------------------------------------------------------------------------

def new_log(num_vertices: int, num_entries: int, rows: int = 64):
    """An empty log (room for ``rows`` rows; ``log_room`` grows it) for a search of a graph of
    ``num_vertices`` vertices and ``num_entries`` adjacency entries."""
    dt = np.int32 if max(int(num_vertices), int(num_entries)) < 2**31 else np.int64
    return (np.empty((rows, 3), dt), np.empty(rows, np.int8), np.empty((rows, 2), np.int64),
            np.zeros(5, np.int64))


def log_table(arrays, log) -> LevelTable:
    """The LevelTable of a finished search: ``arrays`` (stats, dirs, batches) as returned by
    its driver (grown copies of the log's, or the same), ``log`` the search's log (for its
    state). Columns are derived when first read."""
    stats, dirs, batches = arrays
    state = log[3]
    nlev, nb, nrow = int(state[0]), int(state[1]), int(state[4])
    return LevelTable.from_log(stats[:nrow], dirs[:nrow], batches[:nb], nlev)


def new_bitmap(n: int, rows: int = 0) -> np.ndarray:
    """An all-zero bitmap of ``n`` bits (``rows`` > 0: that many, as rows of a 2-D array)."""
    nwords = (n + 63) // 64
    return np.zeros((rows, nwords) if rows else nwords, dtype=np.uint64)


def new_search(graph, with_depth=True):
    """(parent, depth, visited, log) for one search of ``graph``, allocated here and now.

    parent and depth are left uninitialised: the search writes the reached vertices and
    ``finish`` the others; depth is empty when not ``with_depth``. Nothing is reused
    between searches.
    """
    n = graph.num_vertices
    parent = np.empty(n, dtype=np.int64)
    depth = np.empty(n if with_depth else 0, dtype=index_dtype(n))
    return parent, depth, new_bitmap(n), new_log(n, graph.num_directed_edges)


@njit(cache=True)
def log_start(state):
    state[0] = 0  # levels
    state[1] = 0  # batches
    state[2] = clock_ns()  # start of the open batch
    state[3] = 0  # work in the open batch
    state[4] = 0  # rows


@njit(cache=True)
def log_room(stats, dirs, batches, state, need):
    """The log's arrays with room for ``need`` more rows and batches: the same arrays, or
    copies twice as large. Drivers call it before logging; the serial stretches stop when
    they run short of room (two rows and three batches per level)."""
    nrow = state[4]
    if nrow + need > stats.shape[0]:
        cap = max(2 * stats.shape[0], nrow + need)
        grown = np.empty((cap, stats.shape[1]), stats.dtype)
        grown[:nrow] = stats[:nrow]
        stats = grown
        grown_dirs = np.empty(cap, dirs.dtype)
        grown_dirs[:nrow] = dirs[:nrow]
        dirs = grown_dirs
    nb = state[1]
    if nb + need > batches.shape[0]:
        cap = max(2 * batches.shape[0], nb + need)
        grown_b = np.empty((cap, 2), batches.dtype)
        grown_b[:nb] = batches[:nb]
        batches = grown_b
    return stats, dirs, batches


@njit(cache=True)
def log_close(batches, state):
    """Close the open batch of levels (when there is one) at the clock's now."""
    if state[3] > 0:
        t = clock_ns()
        nb = state[1]
        batches[nb, 0] = state[0]
        batches[nb, 1] = t - state[2]
        state[1] = nb + 1
        state[2] = t
        state[3] = 0


@njit(cache=True)
def log_level(stats, dirs, batches, state, nf, edges, code, grain):
    """Record a level just done (a row of its own); close the batch when its work reaches
    ``grain`` (0: now)."""
    r = state[4]
    stats[r, 0] = nf
    stats[r, 1] = edges
    stats[r, 2] = 1
    dirs[r] = code
    state[4] = r + 1
    state[0] += 1
    state[3] += nf + edges
    if state[3] >= grain:
        log_close(batches, state)


@njit(cache=True)
def _run_end(stats, dirs, nrow, rf, re, rc, code):
    """Write the open run of ``rc`` equal levels (rf, re) of a serial stretch as one row
    (serial stretches log runs of equal consecutive levels as one row; a path's million
    levels take a few rows). Returns the number of rows."""
    if rc > 0:
        stats[nrow, 0] = rf
        stats[nrow, 1] = re
        stats[nrow, 2] = rc
        dirs[nrow] = code
        nrow += 1
    return nrow


@njit(cache=True)
def _batch_end(batches, nb, nlev, t_last):
    """Close a batch at level ``nlev`` now; returns (nb, now)."""
    t = clock_ns()
    batches[nb, 0] = nlev
    batches[nb, 1] = t - t_last
    return nb + 1, t


# ---- start and end of a search -----------------------------------------------------------

@njit(cache=True)
def mark_root(parent, depth, visited, root):
    parent[root] = root
    if depth.shape[0]:
        depth[root] = 0
    visited[root >> 6] |= _ONE << np.uint64(root & 63)


@njit(cache=True, parallel=True)
def finish(parent, depth, visited, nthreads):
    """parent = depth = -1 for every vertex not in ``visited`` (the only O(N) pass)."""
    n = parent.shape[0]
    nwords = visited.shape[0]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    nchunks = max(1, min(nwords, 4 * nthreads))
    for c in prange(nchunks):
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            word = visited[w]
            if word == _ALL:
                continue
            base = w * 64
            for b in range(min(64, n - base)):
                if not (word >> np.uint64(b)) & _ONE:
                    parent[base + b] = -1
                    if keep_depth:
                        depth[base + b] = -1


@njit(cache=True)
def end_search(parent, depth, visited, nthreads, stats, dirs, batches, state):
    """The end of every compiled search: close the level log's last batch and mark the
    vertices never reached (``finish``). Returns the log's arrays (grown if need be)."""
    stats, dirs, batches = log_room(stats, dirs, batches, state, 4)
    log_close(batches, state)
    finish(parent, depth, visited, nthreads)
    return stats, dirs, batches


# ---- top-down with queues ----------------------------------------------------------------

@njit(inline="always")
def _claim_list(indptr, indices, parent, depth, visited, keep_depth, d, u, q, found):
    """Claim the unvisited neighbours of ``u`` into ``q[found:]`` (serial); returns (the
    last one claimed, or ``u``; the new ``found``)."""
    last = u
    for k in range(indptr[u], indptr[u + _U1]):
        v = _u(indices[_u(k)])
        w = v >> _U6
        bit = _ONE << (v & _U63)
        if (visited[w] & bit) == _ZERO:
            visited[w] = visited[w] | bit
            parent[v] = u
            if keep_depth:
                depth[v] = d
            q[_u(found)] = v
            found += 1
            last = v
    return last, found


@njit(cache=True)
def _thin(indptr, indices, parent, depth, visited, q, nf, level, m_f, m_u, limit, stats, dirs,
          batches, nlev, nb, t_last, acc, nrow, rf, re, rc, grain, rows_left, batches_left):
    """``td_serial``'s levels while the frontier ``q[0:nf]`` has one or two vertices and
    each of them finds exactly one new vertex (a path, a chain): the frontier stays in
    registers, since a BFS along a path is a chain of dependent loads and a round trip
    through the queue per level lengthens it (1.5x faster on a path). The inner loop only
    claims; a run of levels with the same edge count is logged once, and runs end where a
    timing batch closes. The caller has checked that the first level is small and stays in
    ``td_serial``; the frontier is not growing here, so Beamer's test is never met. Stops
    after a level that breaks the pattern (its new vertices are then ``q[0:e]``), or before
    a level that is not small or finds the log full (its frontier is then ``q[0:e]``).
    Returns (e, level, m_f, m_u, prev_nf, nlev, nb, t_last, acc, nrow, rf, re, rc)."""
    keep_depth = depth.shape[0] != 0
    small = min(limit, grain - 1)
    a = _u(q[0])
    b = _u(q[nf - 1])
    while True:
        work = nf + m_f
        budget = (grain - acc + work - 1) // work  # levels until the timing batch closes
        done = 0
        pattern = True
        next_m_f = m_f
        if nf == 1:  # two copies of the loop: no test of nf per level
            while done < budget:
                a, found = _claim_list(indptr, indices, parent, depth, visited, keep_depth,
                                       level + done + 1, a, q, 0)
                done += 1
                if found != 1:
                    pattern = False
                    break
                next_m_f = indptr[a + _U1] - indptr[a]
                m_u -= next_m_f
                if next_m_f != m_f:
                    break
        else:
            while done < budget:
                a, found = _claim_list(indptr, indices, parent, depth, visited, keep_depth,
                                       level + done + 1, a, q, 0)
                pattern = found == 1
                b, found = _claim_list(indptr, indices, parent, depth, visited, keep_depth,
                                       level + done + 1, b, q, found)
                done += 1
                if not (pattern and found == 2):
                    pattern = False
                    break
                next_m_f = indptr[a + _U1] - indptr[a] + indptr[b + _U1] - indptr[b]
                m_u -= next_m_f
                if next_m_f != m_f:
                    break
        if nf == rf and m_f == re:
            rc += done
        else:
            nrow = _run_end(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
            rf = nf
            re = m_f
            rc = done
        nlev += done
        level += done
        acc += done * work
        if acc >= grain:
            nb, t_last = _batch_end(batches, nb, nlev, t_last)
            acc = 0
        if not pattern:  # the last level's new vertices are q[0:found]
            m_f = 0
            for i in range(found):
                v = _u(q[_u(i)])
                m_f += indptr[v + _U1] - indptr[v]
            m_u -= m_f
            return found, level, m_f, m_u, nf, nlev, nb, t_last, acc, nrow, rf, re, rc
        m_f = next_m_f
        if nf + m_f > small or nrow > rows_left or nb > batches_left:
            q[0] = a
            if nf == 2:
                q[1] = b
            return nf, level, m_f, m_u, nf, nlev, nb, t_last, acc, nrow, rf, re, rc


@njit(cache=True)
def td_serial(indptr, indices, parent, depth, visited, q, s, e, level, m_f, m_u, prev_nf,
              limit, switch, alpha, stats, dirs, batches, state, grain):
    """Serial top-down levels on the FIFO ``q``: the frontier is ``q[s:e]``, the next level is
    appended behind it. Runs while the frontier is not empty, the level's work
    ``nf + m_f`` is at most ``limit`` and (when ``switch``) Beamer's test does not call for
    bottom-up. Returns (s, e, level, m_f, m_u, prev_nf) of the frontier it stopped at.

    ``q`` needs room for the frontier plus every vertex still to be reached: a frontier
    that starts at ``q[0]`` always fits in N entries. When the frontier is small next to
    the dequeued part, it is moved back to ``q[0]`` (amortised O(1) per vertex): on a path
    or a grid the queue's live part stays in cache instead of sweeping N entries. (Hot loop:
    indices are cast to uint64, which spares numba's negative-index check on every access,
    and the log is kept in locals, written back at the end.)

    Frontiers of one or two vertices are walked in registers (``_thin``): a path's BFS is a
    chain of dependent loads, and a round trip through the queue per level lengthens it.
    """
    nlev = state[0]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
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
                nb, t_last = _batch_end(batches, nb, nlev, t_last)
                acc = 0
        if switch and go_bottom_up(nf, prev_nf, m_f, m_u, alpha):
            break
        if nf <= 2 and work < big:
            if s > 0:
                q[0] = q[s]
                q[nf - 1] = q[e - 1]
            (e, level, m_f, m_u, prev_nf, nlev, nb, t_last, acc, nrow, rf, re,
             rc) = _thin(indptr, indices, parent, depth, visited, q, nf, level, m_f, m_u, limit,
                         stats, dirs, batches, nlev, nb, t_last, acc, nrow, rf, re, rc, grain,
                         rows_left, batches_left)
            s = 0
            continue
        tail = e
        for i in range(s, e):
            last, tail = _claim_list(indptr, indices, parent, depth, visited, keep_depth,
                                     level + 1, _u(q[_u(i)]), q, tail)
        scout = 0
        for i in range(e, tail):  # the next frontier's degrees (Beamer's m_f)
            v = _u(q[_u(i)])
            scout += indptr[v + _U1] - indptr[v]
        if nf == rf and m_f == re:  # extend the run of equal levels (the test is inline:
            rc += 1                 # a helper called at every level costs 3x more)
        else:
            nrow = _run_end(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
            rf = nf
            re = m_f
            rc = 1
        nlev += 1
        acc += work
        if acc >= grain:
            nb, t_last = _batch_end(batches, nb, nlev, t_last)
            acc = 0
        m_u -= scout
        prev_nf = nf
        m_f = scout
        s = e
        e = tail
        level += 1
        if (e - s) * 8 < s:  # keep the queue's live part small: move the frontier to q[0]
            for i in range(e - s):
                q[_u(i)] = q[_u(s + i)]
            e -= s
            s = 0
    state[0] = nlev
    state[1] = nb
    state[2] = t_last
    state[3] = acc
    state[4] = _run_end(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
    return s, e, level, m_f, m_u, prev_nf


@njit(cache=True)
def _flush(buf, t, cnt, q, at):
    """q[at:at + cnt] = buf[t, :cnt] (a plain loop: inside a prange numba's array analysis
    mistakes the slice assignment's sizes)."""
    for j in range(cnt):
        q[at + j] = buf[t, j]


@njit(cache=True, parallel=True)
def td_parallel(indptr, indices, parent, depth, visited, f, q2, level, bufcap, nthreads):
    """One parallel top-down level from the frontier ``f``; the next frontier goes to
    ``q2[:found]`` (in no particular order). Returns (edges examined, found, m_f of next)."""
    nf = f.shape[0]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    # wp[i]: adjacency entries of f[:i] (parallel prefix sum of the frontier degrees: the
    # degrees are read once, in blocks, then each block is scanned from its offset)
    wp = np.empty(nf + 1, np.int64)
    nblk = 4 * nthreads if nf >= 1 << 14 else 1
    bsum = np.zeros(nblk + 1, np.int64)
    for b in prange(nblk):
        acc = 0
        for i in range((nf * b) // nblk, (nf * (b + 1)) // nblk):
            u = _u(f[_u(i)])
            dg = indptr[u + _U1] - indptr[u]
            wp[_u(i)] = dg
            acc += dg
        bsum[b + 1] = acc
    for b in range(nblk):
        bsum[b + 1] += bsum[b]
    for b in prange(nblk):
        acc = bsum[b]
        for i in range((nf * b) // nblk, (nf * (b + 1)) // nblk):
            dg = wp[_u(i)]
            wp[_u(i)] = acc
            acc += dg
    total = bsum[nblk]
    wp[nf] = total

    nchunks = _TD_CHUNKS * nthreads
    counter = np.zeros(1, np.int64)
    tail = np.zeros(1, np.int64)
    scouts = np.zeros(nthreads, np.int64)
    buf = np.empty((nthreads, bufcap), q2.dtype)
    d = level + 1
    for t in prange(nthreads):
        cnt = 0
        scout = 0
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            lo = (total * c) // nchunks
            hi = (total * (c + 1)) // nchunks
            if lo >= hi:
                continue
            i = np.searchsorted(wp, lo, side="right") - 1  # wp[i] <= lo < wp[i + 1]
            pos = lo
            while pos < hi:
                u = f[_u(i)]
                u64 = np.int64(u)
                base = indptr[_u(u)] - wp[_u(i)]
                end = min(hi, wp[_u(i) + _U1])
                for p in range(pos, end):
                    v = _u(indices[_u(base + p)])
                    w = v >> _U6
                    bit = _ONE << (v & _U63)
                    if (visited[w] & bit) == _ZERO:
                        if (fetch_or(visited, w, bit) & bit) == _ZERO:  # claimed by us
                            parent[v] = u64
                            if keep_depth:
                                depth[v] = d
                            buf[t, cnt] = v
                            cnt += 1
                            scout += indptr[v + _U1] - indptr[v]
                            if cnt == bufcap:
                                _flush(buf, t, cnt, q2, fetch_add(tail, 0, np.int64(cnt)))
                                cnt = 0
                pos = end
                i += 1
        if cnt > 0:
            _flush(buf, t, cnt, q2, fetch_add(tail, 0, np.int64(cnt)))
        scouts[t] = scout
    return total, fetch_add(tail, 0, np.int64(0)), scouts.sum()


# ---- top-down with bitmaps ---------------------------------------------------------------

def new_frontier_bitmaps(n: int):
    """Two hierarchical frontier bitmaps for ``n`` vertices (rows 0 and 1): ``(b0, b1, b2)``
    where ``b0`` holds one bit per vertex, ``b1`` one bit per word of ``b0`` (set when the
    word is not zero) and ``b2`` one bit per word of ``b1``. A level visits only the set
    bits of the levels above: its cost is its frontier plus N/2**18 words, not N/64."""
    b0 = new_bitmap(n, rows=2)
    b1 = new_bitmap(b0.shape[1], rows=2)
    b2 = new_bitmap(b1.shape[1], rows=2)
    return b0, b1, b2


@njit(inline="always")
def _tdb_mark_atomic(b0, b1, b2, nx, vw, bit):
    """Set ``bit`` of word ``vw`` in frontier row ``nx`` and the summary bits above it,
    atomically; True when the word was zero before."""
    if fetch_or(b0, (nx, vw), bit) != _ZERO:
        return False
    w1 = vw >> _U6
    if fetch_or(b1, (nx, w1), _ONE << (vw & _U63)) == _ZERO:
        fetch_or(b2, (nx, w1 >> _U6), _ONE << (w1 & _U63))
    return True


@njit(inline="always")
def _tdb_expand_atomic(indptr, indices, parent, depth, visited, b0, b1, b2, cur, w1, d, edges,
                       found, scout, nlo, nhi):
    """Expand the frontier words of row ``cur`` under its summary word ``w1`` (clearing
    them) into the other row, claiming vertices atomically (the parallel step). Returns the
    running (edges, found, scout, lowest word marked, highest word marked), updated.
    ``tdb_serial`` writes the same expansion out without atomics in its level loop."""
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    nx = 1 - cur
    x1 = b1[cur, w1]
    b1[cur, w1] = _ZERO
    while x1 != _ZERO:
        c = cttz(x1)
        x1 ^= _ONE << c
        w = (_u(w1) << _U6) + c
        word = b0[cur, w]
        b0[cur, w] = _ZERO
        base = w << _U6
        while word != _ZERO:
            b = cttz(word)
            word ^= _ONE << b
            u = base + b
            s = indptr[u]
            e = indptr[u + _U1]
            edges += e - s
            for k in range(s, e):
                v = _u(indices[_u(k)])
                vw = v >> _U6
                bit = _ONE << (v & _U63)
                if (visited[vw] & bit) == _ZERO:
                    if (fetch_or(visited, vw, bit) & bit) != _ZERO:
                        continue
                    if _tdb_mark_atomic(b0, b1, b2, nx, vw, bit):
                        nlo = min(nlo, np.int64(vw))
                        nhi = max(nhi, np.int64(vw))
                    parent[v] = np.int64(u)
                    if keep_depth:
                        depth[v] = d
                    found += 1
                    scout += indptr[v + _U1] - indptr[v]
    return edges, found, scout, nlo, nhi


@njit(inline="always")
def _bits_to_thin(b0, b1, b2, cur, lo, hi, thin):
    """The one or two vertices of frontier row ``cur`` (set words ``lo`` and ``hi``) into
    ``thin``, their words and summary bits cleared."""
    k = 0
    for w in (lo, hi):
        x = b0[cur, w]
        b0[cur, w] = _ZERO
        b1[cur, w >> 6] = _ZERO
        b2[cur, w >> 12] = _ZERO
        while x != _ZERO:
            c = cttz(x)
            x ^= _ONE << c
            thin[k] = (w << 6) + np.int64(c)
            k += 1


@njit(inline="always")
def _thin_to_bits(b0, b1, b2, cur, thin, e, nwords):
    """The vertices ``thin[0:e]`` into the (empty) frontier row ``cur``; returns the lowest
    and highest word set."""
    lo = nwords
    hi = -1
    for i in range(e):
        v = _u(thin[i])
        vw = v >> _U6
        b0[cur, vw] |= _ONE << (v & _U63)
        m1 = vw >> _U6
        b1[cur, m1] |= _ONE << (vw & _U63)
        b2[cur, m1 >> _U6] |= _ONE << (m1 & _U63)
        lo = min(lo, np.int64(vw))
        hi = max(hi, np.int64(vw))
    return lo, hi


@njit(cache=True)
def tdb_serial(indptr, indices, parent, depth, visited, b0, b1, b2, cur, lo, hi, nf, level,
               m_f, limit, stats, dirs, batches, state, grain, thin):
    """Serial bitmap top-down levels while each level's work (frontier + edges + top-level
    words in its range) is at most ``limit``. ``(b0, b1, b2)``: the two hierarchical
    frontiers (``new_frontier_bitmaps``), the current one is row ``cur`` with set words in
    ``[lo, hi]``. Returns (cur, lo, hi, nf, level, m_f) where it stopped.

    A frontier of one or two vertices leaves the bitmap for ``_thin``'s register walk (a
    level of a path costs 4x less there than a walk of the three bitmap levels); the
    frontier it stops at returns to the bitmap. ``thin`` is its scratch: ``limit + 2``
    entries hold any frontier that a small level can find."""
    nlev = state[0]
    nb = state[1]
    t_last = state[2]
    acc = state[3]
    nrow = state[4]
    rf = re = -1
    rc = 0
    rows_left = stats.shape[0] - 2  # a level writes at most 2 rows and 2 batches
    batches_left = batches.shape[0] - 2
    nwords = b0.shape[1]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    while nf > 0:
        if nrow > rows_left or nb > batches_left:
            break  # the driver grows the log and calls again
        top0 = lo >> 12
        top1 = hi >> 12
        work = nf + m_f + (top1 - top0 + 1)
        if work > limit:
            break
        if work >= grain and acc > 0:
            nb, t_last = _batch_end(batches, nb, nlev, t_last)
            acc = 0
        if nf <= 2 and work < grain:
            _bits_to_thin(b0, b1, b2, cur, lo, hi, thin)
            (nf, level, m_f, no_m_u, no_prev, nlev, nb, t_last, acc, nrow, rf, re,
             rc) = _thin(indptr, indices, parent, depth, visited, thin, nf, level, m_f, 0,
                         limit, stats, dirs, batches, nlev, nb, t_last, acc, nrow, rf, re, rc,
                         grain, rows_left, batches_left)
            lo, hi = _thin_to_bits(b0, b1, b2, cur, thin, nf, nwords)
            continue
        edges = found = scout = 0
        nlo = nwords
        nhi = -1
        nx = 1 - cur
        d = level + 1
        # the expansion of ``_tdb_expand_atomic`` written out without atomics: a call per
        # level would cost more than a level of a path (numba counts references to each
        # array argument per call)
        for w2 in range(top0, top1 + 1):
            x2 = b2[cur, w2]
            if x2 == _ZERO:
                continue
            b2[cur, w2] = _ZERO
            while x2 != _ZERO:
                c2 = cttz(x2)
                x2 ^= _ONE << c2
                w1 = (_u(w2) << _U6) + c2
                x1 = b1[cur, w1]
                b1[cur, w1] = _ZERO
                while x1 != _ZERO:
                    c1 = cttz(x1)
                    x1 ^= _ONE << c1
                    w = (w1 << _U6) + c1
                    word = b0[cur, w]
                    b0[cur, w] = _ZERO
                    base = w << _U6
                    while word != _ZERO:
                        b = cttz(word)
                        word ^= _ONE << b
                        u = base + b
                        s = indptr[u]
                        e = indptr[u + _U1]
                        edges += e - s
                        for k in range(s, e):
                            v = _u(indices[_u(k)])
                            vw = v >> _U6
                            bit = _ONE << (v & _U63)
                            if (visited[vw] & bit) == _ZERO:
                                visited[vw] |= bit
                                old = b0[nx, vw]
                                b0[nx, vw] = old | bit
                                if old == _ZERO:
                                    m1 = vw >> _U6
                                    o1 = b1[nx, m1]
                                    b1[nx, m1] = o1 | (_ONE << (vw & _U63))
                                    if o1 == _ZERO:
                                        b2[nx, m1 >> _U6] |= _ONE << (m1 & _U63)
                                    nlo = min(nlo, np.int64(vw))
                                    nhi = max(nhi, np.int64(vw))
                                parent[v] = np.int64(u)
                                if keep_depth:
                                    depth[v] = d
                                found += 1
                                scout += indptr[v + _U1] - indptr[v]
        if nf == rf and edges == re:  # a run of equal levels (test inline, as in td_serial)
            rc += 1
        else:
            nrow = _run_end(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
            rf = nf
            re = edges
            rc = 1
        nlev += 1
        acc += work
        if acc >= grain:
            nb, t_last = _batch_end(batches, nb, nlev, t_last)
            acc = 0
        cur = nx
        lo = nlo
        hi = nhi
        nf = found
        m_f = scout
        level += 1
    state[0] = nlev
    state[1] = nb
    state[2] = t_last
    state[3] = acc
    state[4] = _run_end(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
    return cur, lo, hi, nf, level, m_f


@njit(cache=True, parallel=True)
def tdb_parallel(indptr, indices, parent, depth, visited, b0, b1, b2, cur, lo, hi, level,
                 nthreads):
    """One parallel bitmap top-down level from row ``cur`` of the hierarchical frontiers
    (set words in ``[lo, hi]``) into the other row: the summary words over ``[lo, hi]`` are
    cut into chunks claimed dynamically; a chunk clears the words it consumes. Returns
    (edges, found, m_f of next, lowest, highest word marked)."""
    s0 = lo >> 6
    nsum = (hi >> 6) + 1 - s0
    nchunks = max(1, min(nsum, _WORD_CHUNKS * nthreads))
    counter = np.zeros(1, np.int64)
    res = np.zeros((nthreads, 5), np.int64)
    for t in prange(nthreads):
        edges = found = scout = 0
        nlo = b0.shape[1]
        nhi = -1
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            for w1 in range(s0 + (nsum * c) // nchunks, s0 + (nsum * (c + 1)) // nchunks):
                if b1[cur, w1] != _ZERO:
                    edges, found, scout, nlo, nhi = _tdb_expand_atomic(
                        indptr, indices, parent, depth, visited, b0, b1, b2, cur, w1,
                        level + 1, edges, found, scout, nlo, nhi)
        res[t, 0] = edges
        res[t, 1] = found
        res[t, 2] = scout
        res[t, 3] = nlo
        res[t, 4] = nhi
    for w2 in range(lo >> 12, (hi >> 12) + 1):
        b2[cur, w2] = _ZERO
    return (res[:, 0].sum(), res[:, 1].sum(), res[:, 2].sum(), res[:, 3].min(),
            res[:, 4].max())


# ---- bottom-up ---------------------------------------------------------------------------

@njit(cache=True, parallel=True)
def bu_step(indptr, indices, parent, depth, visited, front, nxt, cand, level, nthreads):
    """One bottom-up level; returns (edges examined, found, m_f of next).

    ``cand``: the unvisited vertices worth a look; found vertices leave it (and join
    ``visited``), and so do vertices without neighbours (nothing can ever reach them).
    ``front``: the frontier; ``nxt`` gets the next one (every word written). Word chunks are
    claimed dynamically; a chunk's words of ``cand``, ``nxt`` and ``visited`` are its own.
    """
    nwords = front.shape[0]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    nchunks = max(1, min(nwords, _WORD_CHUNKS * nthreads))
    counter = np.zeros(1, np.int64)
    res = np.zeros((nthreads, 3), np.int64)
    d = level + 1
    for t in prange(nthreads):
        examined = 0
        awake = 0
        scout = 0
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
                todo = cand[w]
                if todo == _ZERO:
                    nxt[w] = _ZERO
                    continue
                found = _ZERO
                dead = _ZERO
                base = _u(w) << _U6
                while todo != _ZERO:
                    b = cttz(todo)
                    bit = _ONE << b
                    todo ^= bit
                    v = base + b
                    s = indptr[v]
                    e = indptr[v + _U1]
                    if s == e:
                        dead |= bit
                        continue
                    k = s
                    while k < e:
                        u = _u(indices[_u(k)])
                        if (front[u >> _U6] >> (u & _U63)) & _ONE:
                            break
                        k += 1
                    if k < e:
                        parent[v] = indices[_u(k)]
                        if keep_depth:
                            depth[v] = d
                        found |= bit
                        awake += 1
                        scout += e - s
                        examined += k - s + 1
                    else:
                        examined += e - s
                nxt[w] = found
                cand[w] ^= found | dead
                visited[w] |= found
        res[t, 0] = examined
        res[t, 1] = awake
        res[t, 2] = scout
    return res[:, 0].sum(), res[:, 1].sum(), res[:, 2].sum()


# ---- conversions -------------------------------------------------------------------------

@njit(cache=True, parallel=True)
def queue_to_bitmap(f, front, nthreads):
    """front = the set of the vertices in the queue ``f`` (O(N/64 + |f|))."""
    front[:] = _ZERO
    nf = f.shape[0]
    nchunks = 4 * nthreads if nf >= 1 << 14 else 1
    for c in prange(nchunks):
        for i in range((nf * c) // nchunks, (nf * (c + 1)) // nchunks):
            v = f[i]
            fetch_or(front, v >> 6, _ONE << np.uint64(v & 63))


@njit(cache=True, parallel=True)
def unvisited_bitmap(visited, cand, n):
    """cand = the vertices (< n) not in ``visited``."""
    nwords = visited.shape[0]
    for w in prange(nwords):
        cand[w] = ~visited[w]
    if n & 63:
        cand[nwords - 1] &= (_ONE << np.uint64(n & 63)) - _ONE


@njit(cache=True, parallel=True)
def bitmap_to_queue(front, q, nthreads):
    """q[:k] = the set bits of ``front`` in ascending order; returns k."""
    nwords = front.shape[0]
    nchunks = max(1, min(nwords, 4 * nthreads))
    counts = np.zeros(nchunks + 1, np.int64)
    for c in prange(nchunks):
        s = 0
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            s += popcount(front[w])
        counts[c + 1] = s
    for c in range(nchunks):
        counts[c + 1] += counts[c]
    for c in prange(nchunks):
        at = counts[c]
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            word = front[w]
            while word != _ZERO:
                b = cttz(word)
                word ^= _ONE << b
                q[at] = w * 64 + np.int64(b)
                at += 1
    return counts[nchunks]
