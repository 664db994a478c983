"""The relaxation of delta-stepping's jobs (``delta_phases`` makes them, ``delta_stepping``
drives): runs of weight-sorted rows, each with its vertex's distance, relaxed edge by edge.

Most targets are settled by the time their edge comes (see ``delta_phases``): one bit of the
settled bitmap skips them. The rest are read and lowered by compare-and-swap, the vertex
appended to a light list of its new bucket.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives import cas, fetch_add
from ..primitives.bits import LOW32, bits_f32, f32_bits
from .bins import CHUNK, CHUNK_MASK
from .delta_phases import bin_of, slot_of
from .state import prefetch

__all__ = ["relax_edges", "relax_parallel"]

_ONE = np.uint64(1)
_CHUNKS_PER_THREAD = 16
_AHEAD = 16  # prefetch distance: jobs ahead, their first _AHEAD_ENTRIES entries
_AHEAD_ENTRIES = 128
_LAG = 16  # unsettled targets are prefetched this many finds before their relaxation
_LAG_MASK = _LAG - 1


@njit(cache=True)
def relax_edges(lo, hi, graph, verts, jobs, window, bins, who):
    """Relax the job edges ``lo .. hi-1`` (positions in the jobs' runs laid end to end;
    ``jobs``: (jst, jud, wp), ``wp`` the exclusive prefix of the run lengths, one entry more
    than jobs; ``graph``: (indptr, nbr, wt); ``verts``: (state, settled); ``window``: (1 /
    delta, the window's base); ``who``: (t, spread, atomic), below). A settled
    target is skipped on its bit; otherwise a strictly shorter candidate is installed by
    compare-and-swap and the vertex appended to thread ``t``'s light list of its bucket
    (``spread`` > 0: to thread ``job % spread``'s, so that the next drain is parallel).
    Returns the number of distances lowered. ``atomic``: other threads relax at the same time
    (compare-and-swap; alone, a plain write: a locked instruction waits for every load before
    it, which ends the overlap of the prefetched state words' misses).

    The unsettled targets are few and far between: each is a read of a state word that is
    likely not cached, which alone would stall the loop. Their words are prefetched when
    found and the edges queued; an edge is relaxed ``_LAG`` finds later."""
    indptr, nbr, wt = graph
    state, settled = verts
    jst, jud, wp = jobs
    inv_delta, base = window
    pool, cnext, fstack, ctr, lcount, lhead, ltail = bins
    t, spread, atomic = who
    nj = wp.shape[0] - 1
    i = np.searchsorted(wp, lo, side="right") - 1  # wp[i] <= lo < wp[i + 1]
    qe = np.empty(_LAG, np.int64)  # the queue of found edges: position, job
    qi = np.empty(_LAG, np.int64)
    head = 0
    tail = 0
    lowered = 0
    e = jst[i] - wp[i] + lo
    e_end = jst[i] - wp[i] + min(hi, wp[i + 1])
    while True:
        found = False
        while True:  # ---- scan on to the next unsettled target
            if e < e_end:
                v = nbr[e]
                e += 1
                if settled[v >> 6] & (_ONE << np.uint64(v & 63)):
                    continue
                found = True
                break
            if wp[i + 1] >= hi:
                break
            i += 1
            if i + _AHEAD < nj:  # the first lines of a run a few runs on
                a = jst[i + _AHEAD]
                b = a + min(wp[i + _AHEAD + 1] - wp[i + _AHEAD], _AHEAD_ENTRIES)
                while a < b:
                    prefetch(nbr, a)
                    a += 16
            e = jst[i]
            e_end = jst[i] - wp[i] + min(hi, wp[i + 1])
        if found:
            prefetch(state, nbr[e - 1])
            prefetch(wt, e - 1)
            qe[tail & _LAG_MASK] = e - 1
            qi[tail & _LAG_MASK] = i
            tail += 1
            if tail - head < _LAG:
                continue
        elif head == tail:
            break
        # ---- relax the oldest queued edge (written out: a call per edge costs more)
        x = qe[head & _LAG_MASK]
        job = qi[head & _LAG_MASK]
        head += 1
        ud = jud[job]
        v = nbr[x]
        nd = np.float32(bits_f32(np.int32(ud & LOW32)) + wt[x])
        nbits = np.int64(f32_bits(nd))
        old = state[v]
        while nbits < (old >> 32):  # strictly shorter: install unless beaten
            nw = (nbits << 32) | (ud >> 32)
            if atomic:
                won = cas(state, v, old, nw)
            else:
                state[v] = nw
                won = True
            if won:
                lowered += 1
                s = slot_of(bin_of(nd, inv_delta), base)
                tt = np.int64(t) if spread == 0 else np.int64(job % spread)
                n = lcount[tt, s]
                k = n & CHUNK_MASK
                if k == 0:  # the list is empty or its last chunk full
                    fresh = fstack[fetch_add(ctr, 0, np.int64(1))]
                    if n == 0:
                        lhead[tt, s] = fresh
                    else:
                        cnext[ltail[tt, s]] = fresh
                    ltail[tt, s] = fresh
                pool[np.int64(ltail[tt, s]) * CHUNK + k] = v
                lcount[tt, s] = n + 1
                break
            old = state[v]
    return lowered


@njit(cache=True, parallel=True)
def relax_parallel(graph, verts, jobs, window, bins):
    """``relax_edges`` over every job edge, in edge-balanced chunks claimed dynamically by
    the threads. Returns the number of distances lowered."""
    nthreads = bins[4].shape[0]
    wp = jobs[2]
    total = wp[wp.shape[0] - 1]
    nchunks = min(_CHUNKS_PER_THREAD * nthreads, total)
    counter = np.zeros(1, np.int64)
    got = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        lowered = 0
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            lowered += relax_edges((total * c) // nchunks, (total * (c + 1)) // nchunks,
                                   graph, verts, jobs, window, bins,
                                   (np.int64(t), np.int64(0), True))
        got[t] = lowered
    return got.sum()
