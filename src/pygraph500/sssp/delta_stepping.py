"""Delta-stepping (Meyer & Sanders), compiled with numba and parallel over all numba threads.

The shape is that of the GAP benchmark suite's sssp.cc (Beamer et al.): bucket ``i`` holds
the vertices whose tentative distance lies in ``[i * delta, (i + 1) * delta)``; a phase takes
the lowest non-empty bucket as its frontier and relaxes ALL edges of its vertices at once
(light and heavy together), each lowering appending the vertex to the issuing thread's local
bin of its new bucket (``bins``). A bucket is processed again while relaxations refill it
(light edges); then the next non-empty one is found from the per-thread bin counts. A vertex
is skipped when it is popped from a bucket its distance has since left (processed earlier,
with its lower distance) or when it was already popped in this phase (duplicates).

Per phase (compiled driver ``_search``, no Python per phase): drain the bucket's bins into the
frontier, dropping the stale and the repeated entries and noting degrees (each thread drains
its own bins in parallel for buckets of more than ``PARALLEL_TAKE`` entries), a prefix sum of
the degrees, then relax the frontier's edges in edge-balanced chunks claimed dynamically by
the threads (``_relax_parallel``) or, for phases with little work (``SERIAL_WORK``), in the
driver itself (its lowerings spread over the threads' bins, so that the next drain is
parallel too): a path's million tiny phases must not each wake the thread pool. The
adjacency lists of the frontier vertices a few places ahead are prefetched (``state``).

Where the time goes (SCALE 20, default delta, the quiet 2-core VM): 33M edge relaxations at
about 5 ns each per thread (a random read of the target's state word; the CSR is 250 MB),
1.8M lowerings, 1240 phases. One thread 250 ms, two 170 ms: the kernel scales 2x on edges
that lower nothing, about 1.6x where many lower (compare-and-swap on lines the other core
reads), and the drains (24 ms) and small phases (10 ms) barely scale.

State: one int64 word per vertex (``state``: float32 distance bits and parent, lowered by
compare-and-swap only on a strict decrease), which makes the parents a tree whose edges hold
``distance[v] == float32(distance[parent] + w)`` exactly; the argument is in ``state``.

Default delta: ``DELTA_SCALE * mean weight / average degree`` (average degree = adjacency
entries / vertices, 30 on a Graph500 Kronecker graph; the mean weight of at most 4096 evenly
spaced entries, about 0.45 there: duplicates keep their lightest weight), i.e. about 0.0013 on
Graph500 graphs. Measured on Graph500 Kronecker graphs with Graph500 weights, 2 threads on the
2-core development VM (shared: load average 1-2), median ms per root over the first 4-8
Graph500 roots, by DELTA_SCALE:

    DELTA_SCALE   0.04   0.08   0.15   0.3    0.6    1.2
    SCALE 18      42.8   38.1   39.5   44.7   49.1   52.1   (edges relaxed 7.7M .. 12.3M)
    SCALE 20       -     174    190    -      -      -      (33.1M, 36.0M; 0.25: 204)
    SCALE 22      1003   1063   993    1052   -      -      (132M .. 219M; min 925-948 all)

A smaller delta relaxes fewer edges again (SCALE 20 has 31.4M adjacency entries) but makes
more phases (1240 at the default on SCALE 20, 900 at 0.002); the optimum is flat between
0.04 and 0.15, and 0.08 relaxes the fewest edges for its speed. The window of ``bins.RING`` =
2048 buckets spans the distances of these graphs (at most about 2.2) at the default delta.
(Tried and dropped, no faster within this VM's noise: a float32 copy of the distances as the
relaxation's filter, vertex jobs without the drain pass, a bitmap of settled vertices to skip
their state, a branch-free filter pass; the prefetching of adjacency lists is what helped:
1.4x on SCALE 20.)
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from ..bfs.types import check_positive
from ..graph.types import CSRGraph
from ..primitives import cas, clock_ns, fetch_add, fetch_or
from ..primitives.bits import f32_bits
from .bins import (CHUNK, CHUNK_MASK, RING, chunks_needed, grow_pool, new_bins, push,
                   release_slot, slot_size)
from .state import (check_search, finish_state, init_state, log_close, log_grow,
                    new_phase_log, phase_table, prefetch, word_distance)
from .types import SSSPResult

__all__ = ["sssp_delta_stepping", "default_delta", "DELTA_SCALE", "SERIAL_WORK",
           "PARALLEL_TAKE", "TIME_GRAIN"]

# delta = DELTA_SCALE * mean weight / average degree (see the module docstring).
DELTA_SCALE = 0.08
# A phase whose frontier + edges is at most this runs serially in the driver (4096 and 32768
# measured alike on SCALE 18 and 20; the lower one parallelises more). Read at call time.
SERIAL_WORK = 1 << 12
# Phases with less work than this are timed together. Read at call time.
TIME_GRAIN = 1 << 10
# Buckets with more entries than this are drained by all threads. Read at call time.
PARALLEL_TAKE = 1 << 11
_CHUNKS_PER_THREAD = 16
_MAX_BIN = np.int64(1) << 62
_ONE = np.uint64(1)


# Software prefetch distances (in frontier vertices, and in bucket entries while draining): a
# frontier vertex's adjacency list (its first two cache lines of neighbours and of weights) is
# prefetched _AHEAD vertices before its turn, its indptr entry _AHEAD_PTR before. Written out
# at each loop (an inline helper taking arrays would cost reference-count updates per call).
_AHEAD = 4
_AHEAD_PTR = 8
_AHEAD_TAKE = 8


@njit(inline="always")
def _bin(x, inv_delta):
    """The bucket of distance ``x`` (float32): floor(x / delta), monotone in x."""
    f = np.float64(x) * inv_delta
    return np.int64(f) if f < 4.0e18 else _MAX_BIN


# The relaxation of one edge and the append of a lowered vertex to a bin are written out in
# full in the parallel kernel and in the driver's serial phase (see ``bins``: a compiled call
# per edge would cost more than the edge).

@njit(cache=True, parallel=True)
def _relax_parallel(indptr, indices, weights, state, front, wp, inv_delta, base, pool, cnext,
                    fstack, ctr, lcount, lhead, ltail, nthreads, tstats):
    """Relax every edge of the frontier ``front`` (``wp``: exclusive prefix of its degrees,
    ``len(front) + 1`` entries) in edge-balanced chunks claimed dynamically; a lowering is a
    compare-and-swap of the state word, the vertex appended to the thread's own bin. Returns
    the number of distances lowered."""
    nf = front.shape[0]
    total = wp[nf]
    nchunks = min(_CHUNKS_PER_THREAD * nthreads, total)
    counter = np.zeros(1, np.int64)
    for t in prange(nthreads):
        lowered = 0
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            lo = (total * c) // nchunks
            hi = (total * (c + 1)) // nchunks
            i = np.searchsorted(wp, lo, side="right") - 1  # wp[i] <= lo < wp[i + 1]
            pos = lo
            while pos < hi:
                if i + _AHEAD_PTR < nf:
                    prefetch(indptr, front[i + _AHEAD_PTR])
                if i + _AHEAD < nf:
                    a = indptr[front[i + _AHEAD]]
                    prefetch(indices, a)
                    prefetch(weights, a)
                    prefetch(indices, a + 16)
                    prefetch(weights, a + 16)
                u = front[i]
                start = indptr[u] - wp[i]
                end = min(hi, wp[i + 1])
                du = word_distance(state[u])
                u64 = np.int64(u)
                for e in range(start + pos, start + end):
                    v = indices[e]
                    nd = np.float32(du + weights[e])
                    nbits = np.int64(f32_bits(nd))
                    old = state[v]
                    while nbits < (old >> 32):  # strictly shorter: install unless beaten
                        if cas(state, v, old, (nbits << 32) | u64):
                            lowered += 1
                            rel = _bin(nd, inv_delta) - base
                            s = rel if rel < RING else RING
                            n = lcount[t, s]
                            k = n & CHUNK_MASK
                            if k == 0:  # the list is empty or its last chunk full
                                fresh = fstack[fetch_add(ctr, 0, np.int64(1))]
                                if n == 0:
                                    lhead[t, s] = fresh
                                else:
                                    cnext[ltail[t, s]] = fresh
                                ltail[t, s] = fresh
                            pool[np.int64(ltail[t, s]) * CHUNK + k] = v
                            lcount[t, s] = n + 1
                            break
                        old = state[v]
                pos = end
                i += 1
        tstats[t, 0] = lowered
    total_lowered = 0
    for t in range(nthreads):
        total_lowered += tstats[t, 0]
    return total_lowered


@njit(cache=True)
def _take_list(pool, cnext, lcount, lhead, t, s, state, taken, cur, inv_delta, indptr, front,
               wp, at):
    """Copy the live entries of thread ``t``'s list of slot ``s`` (distance still in bucket
    ``cur``, not yet taken in this phase: claimed in the bitmap ``taken`` by an atomic
    fetch-and-or) to ``front[at:]``, their degrees to ``wp[at:]``. Returns how many."""
    n = lcount[t, s]
    c = lhead[t, s]
    k = 0
    out = at
    while k < n:
        take = min(CHUNK, n - k)
        off = np.int64(c) * CHUNK
        for j in range(take):
            if j + _AHEAD_TAKE < take:
                a = pool[off + j + _AHEAD_TAKE]
                prefetch(state, a)
                prefetch(indptr, a)
            u = pool[off + j]
            if _bin(word_distance(state[u]), inv_delta) != cur:
                continue  # stale: its distance moved to an earlier bucket, relaxed there
            word = u >> 6
            bit = _ONE << np.uint64(u & 63)
            if (taken[word] & bit) != 0 or (fetch_or(taken, word, bit) & bit) != 0:
                continue  # a repeat: taken already in this phase
            front[out] = u
            wp[out] = indptr[u + 1] - indptr[u]
            out += 1
        k += take
        if k < n:
            c = cnext[c]
    return out - at


@njit(cache=True, parallel=True)
def _take_parallel(pool, cnext, lcount, lhead, s, state, taken, cur, inv_delta, indptr, front,
                   wp, nthreads):
    """``_take_list`` for every thread's list at once (thread t drains its own), then the
    parts moved together. Returns the frontier size."""
    offs = np.zeros(nthreads + 1, np.int64)
    for t in range(nthreads):
        offs[t + 1] = offs[t] + lcount[t, s]
    got = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        got[t] = _take_list(pool, cnext, lcount, lhead, t, s, state, taken, cur, inv_delta,
                            indptr, front, wp, offs[t])
    out = got[0]
    for t in range(1, nthreads):
        src = offs[t]
        for j in range(got[t]):
            front[out + j] = front[src + j]
            wp[out + j] = wp[src + j]
        out += got[t]
    return out


@njit(cache=True)
def _redistribute(pool, cnext, fstack, ctr, lcount, lhead, ltail, state, taken, inv_delta,
                  base):
    """The ring is empty: move the overflow's live entries (distance still at or beyond the
    old window) into a new window starting at their lowest bucket. Returns (the new base, or
    -1 when nothing is left; the pool's arrays)."""
    n = slot_size(lcount, RING)
    live = np.empty(n, np.int32)
    nl = 0
    newbase = _MAX_BIN
    limit = base + RING
    for t in range(lcount.shape[0]):
        nt = lcount[t, RING]
        c = lhead[t, RING]
        k = 0
        while k < nt:
            take = min(CHUNK, nt - k)
            off = np.int64(c) * CHUNK
            for j in range(take):
                u = pool[off + j]
                b = _bin(word_distance(state[u]), inv_delta)
                word = u >> 6
                bit = _ONE << np.uint64(u & 63)
                if b >= limit and (taken[word] & bit) == 0:
                    taken[word] |= bit
                    live[nl] = u
                    nl += 1
                    newbase = min(newbase, b)
            k += take
            if k < nt:
                c = cnext[c]
    release_slot(cnext, fstack, ctr, lcount, lhead, RING)
    for j in range(nl):
        taken[live[j] >> 6] = 0
    if nl == 0:
        return np.int64(-1), pool, cnext, fstack
    sp = fetch_add(ctr, 0, np.int64(0))
    need = chunks_needed(nl, RING + 1)
    if cnext.shape[0] - sp < need:
        pool, cnext, fstack = grow_pool(pool, cnext, fstack, sp, need)
    for j in range(nl):
        u = live[j]
        rel = _bin(word_distance(state[u]), inv_delta) - newbase
        push(pool, cnext, fstack, ctr, lcount, lhead, ltail, 0, rel if rel < RING else RING, u)
    return newbase, pool, cnext, fstack


@njit(cache=True)
def _search(indptr, indices, weights, root, state, inv_delta, nthreads, serial_work,
            parallel_take, grain, chunks, rows, batches):
    """The whole search (see the module docstring). Returns the log (rows, batches, number
    of rows, number of batches)."""
    pool, cnext, fstack, ctr, lcount, lhead, ltail = new_bins(nthreads, chunks)
    taken = np.zeros((state.shape[0] + 63) >> 6, np.uint64)  # entries taken in this phase
    tstats = np.zeros((nthreads, 8), np.int64)
    front = np.empty(1024, np.int32)
    wp = np.empty(1025, np.int64)
    nrow = 0
    nb = 0
    t_last = clock_ns()
    open_work = 0
    push(pool, cnext, fstack, ctr, lcount, lhead, ltail, 0, 0, np.int32(root))
    base = np.int64(0)
    cur = np.int64(0)
    while True:
        # ---- the next non-empty bucket ------------------------------------------------
        s = cur - base
        tot = 0
        while s < RING:
            for t in range(nthreads):
                tot += lcount[t, s]
            if tot > 0:
                break
            s += 1
        if s == RING:  # the window is empty: open the next one on the overflow
            base, pool, cnext, fstack = _redistribute(pool, cnext, fstack, ctr, lcount, lhead,
                                                      ltail, state, taken, inv_delta, base)
            if base < 0:
                break
            cur = base
            continue
        cur = base + s
        # ---- its live entries -> the frontier, degrees -> wp; chunks freed ------------
        if tot + 1 > front.shape[0]:
            cap = max(2 * front.shape[0], tot + 1)
            front = np.empty(cap, np.int32)
            wp = np.empty(cap + 1, np.int64)
        if tot >= parallel_take and nthreads > 1:
            nf = _take_parallel(pool, cnext, lcount, lhead, s, state, taken, cur, inv_delta,
                                indptr, front, wp, nthreads)
        else:
            nf = 0
            for t in range(nthreads):
                n = lcount[t, s]
                c = lhead[t, s]
                k = 0
                while k < n:
                    take = min(CHUNK, n - k)
                    off = np.int64(c) * CHUNK
                    for j in range(take):
                        if j + _AHEAD_TAKE < take:
                            a = pool[off + j + _AHEAD_TAKE]
                            prefetch(state, a)
                            prefetch(indptr, a)
                        u = pool[off + j]
                        if _bin(word_distance(state[u]), inv_delta) != cur:
                            continue
                        word = u >> 6
                        bit = _ONE << np.uint64(u & 63)
                        if taken[word] & bit:
                            continue
                        taken[word] |= bit
                        front[nf] = u
                        wp[nf] = indptr[u + 1] - indptr[u]
                        nf += 1
                    k += take
                    if k < n:
                        c = cnext[c]
        for i in range(nf):  # forget the claims (every set bit is a frontier vertex's)
            taken[front[i] >> 6] = 0
        sp = ctr[0]
        for t in range(nthreads):  # the slot's chunks back on the free stack
            c = lhead[t, s]
            for _ in range((lcount[t, s] + CHUNK - 1) // CHUNK):
                sp -= 1
                fstack[sp] = c
                c = cnext[c]
            lcount[t, s] = 0
        if nf == 0:
            ctr[0] = sp
            continue
        edges = np.int64(0)
        for i in range(nf):
            d = wp[i]
            wp[i] = edges
            edges += d
        wp[nf] = edges
        need = chunks_needed(edges, nthreads * (RING + 1))
        if cnext.shape[0] - sp < need:
            pool, cnext, fstack = grow_pool(pool, cnext, fstack, sp, need)
        if nrow + 1 > rows.shape[0] or nb + 3 > batches.shape[0]:
            rows, batches = log_grow(rows, batches, nrow, nb)
        # ---- relax ----------------------------------------------------------------------
        serial = nthreads == 1 or nf + edges <= serial_work
        lowered = 0
        if serial:  # the parallel kernel's loop, without atomics (no other thread runs)
            for i in range(nf):
                if i + _AHEAD_PTR < nf:
                    prefetch(indptr, front[i + _AHEAD_PTR])
                if i + _AHEAD < nf:
                    a = indptr[front[i + _AHEAD]]
                    prefetch(indices, a)
                    prefetch(weights, a)
                    prefetch(indices, a + 16)
                    prefetch(weights, a + 16)
                u = front[i]
                du = word_distance(state[u])
                u64 = np.int64(u)
                tt = i % nthreads  # spread over the threads' bins: the next drain is parallel
                for e in range(indptr[u], indptr[u + 1]):
                    v = indices[e]
                    nd = np.float32(du + weights[e])
                    nbits = np.int64(f32_bits(nd))
                    if nbits < (state[v] >> 32):
                        state[v] = (nbits << 32) | u64
                        lowered += 1
                        rel = _bin(nd, inv_delta) - base
                        s = rel if rel < RING else RING
                        n = lcount[tt, s]
                        k = n & CHUNK_MASK
                        if k == 0:
                            fresh = fstack[sp]
                            sp += 1
                            if n == 0:
                                lhead[tt, s] = fresh
                            else:
                                cnext[ltail[tt, s]] = fresh
                            ltail[tt, s] = fresh
                        pool[np.int64(ltail[tt, s]) * CHUNK + k] = v
                        lcount[tt, s] = n + 1
            ctr[0] = sp
        else:
            ctr[0] = sp
            if open_work > 0:
                nb, t_last = log_close(batches, nb, nrow, t_last)
                open_work = 0
            lowered = _relax_parallel(indptr, indices, weights, state, front[:nf],
                                      wp[:nf + 1], inv_delta, base, pool, cnext, fstack, ctr,
                                      lcount, lhead, ltail, nthreads, tstats)
        rows[nrow, 0] = nf
        rows[nrow, 1] = edges
        rows[nrow, 2] = lowered
        rows[nrow, 3] = cur
        nrow += 1
        open_work += nf + edges
        if not serial or open_work >= grain:
            nb, t_last = log_close(batches, nb, nrow, t_last)
            open_work = 0
    if nb + 1 > batches.shape[0]:
        rows, batches = log_grow(rows, batches, nrow, nb)
    nb, t_last = log_close(batches, nb, nrow, t_last)
    return rows, batches, nrow, nb


def default_delta(graph: CSRGraph) -> float:
    """``DELTA_SCALE * mean weight / average degree`` (see the module docstring); 1.0 for a
    graph without edges or with all sampled weights 0."""
    m = int(graph.indptr[-1])
    n = max(int(graph.num_vertices), 1)
    if m == 0:
        return 1.0
    step = max(1, m // 4096)
    wmean = float(np.mean(graph.weights[::step][:4096], dtype=np.float64))
    if not wmean > 0 or not np.isfinite(wmean):
        return 1.0
    return DELTA_SCALE * wmean / (m / n)


def sssp_delta_stepping(graph: CSRGraph, root, *, delta=None, **options) -> SSSPResult:
    """Shortest paths from ``root`` by parallel delta-stepping (see the module docstring).

    ``delta``: the bucket width (default ``default_delta(graph)``; ``inf`` makes one bucket:
    a label-correcting search). Phases are logged in ``result.phases`` with the bucket each
    processed (``extra["bucket"]``). Which of several equally short parents a vertex gets may
    vary between runs with several threads. Other options are accepted for registry
    uniformity and ignored.
    """
    r = check_search(graph, root)
    d = default_delta(graph) if delta is None else check_positive("delta", delta)
    n = graph.num_vertices
    nthreads = numba.get_num_threads()
    state = init_state(n, r)
    rows, batches = new_phase_log()
    chunks = 2 * nthreads * (RING + 1) + n // (4 * CHUNK)
    rows, batches, nrow, nb = _search(graph.indptr, graph.indices, graph.weights, r, state,
                                      1.0 / d, nthreads, SERIAL_WORK, PARALLEL_TAKE,
                                      TIME_GRAIN, chunks, rows, batches)
    parent, dist = finish_state(state, nthreads)
    return SSSPResult(parent=parent, distance=dist, root=r,
                      phases=phase_table(rows, batches, nrow, nb))
