"""The compiled steps of delta-stepping on weight-sorted rows (driven by ``delta_stepping``).

Rows are read in increasing order of weight (``nbr``/``wt``: ``CSRGraph.by_weight``). A STEP
of bucket ``cur`` turns the bucket's entries into JOBS, each a run of consecutive entries of
one vertex's row with that vertex's distance (``take``), then relaxes every edge of every job
(``relax_edges``, ``relax_parallel``). Two kinds of entry:

- light: a vertex lowered into bucket ``cur``, still there and not yet taken in this step
  (the ``taken`` bitmap). Its job is the head of its row whose candidates ``du + w`` fall in
  bucket ``cur`` itself (the whole row when it has at most ``min_run`` entries). A RECORD
  keeps (``u << 32 | du``, the rest of the row, the bucket the rest starts in).
- heavy (two words in their own bins: the rest of a row, ``u << 32 | du``): a SETTLED vertex
  whose row, from there, starts in bucket ``cur``. Its job runs up to the entries whose
  candidates fall after bucket ``cur + (cur - b(u)) * look`` (b(u): u's own bucket; at least
  ``min_run`` entries); the rest goes back into the bins at the bucket it starts in.

When a bucket is done, ``settle`` marks its vertices settled (the latest record of each,
which holds its final distance) and schedules the rest of each row as a heavy entry. So every edge
``(u, v, w)`` is relaxed with ``u``'s final distance (or again after each lowering of ``u``
within its own bucket), no later than the bucket of ``du + w`` (which exactness needs), and
mostly much later than ``u``'s own bucket: by then ``v`` is usually settled (97% of the edges
of a Graph500 SCALE 20 graph), and the relaxation skips it on one bit of the SETTLED bitmap
(128 KB at SCALE 20, in the core's cache) instead of reading its state word (8 MB, all over
memory). A settled ``v`` has its final distance (below ``cur * delta``, or beyond it when a
pull settled it: ``delta_pull``), which no candidate undercuts: skipping it changes
nothing. For the same reason a take skips an entry of a settled vertex.

Thread ``t`` of a parallel step drains its own lists of the slot into its own region of the
job and record arrays; the regions are then moved together. A vertex is claimed in a step by
a plain write to the ``taken`` bitmap (``_take_light`` says why that is safe). Appends go to
the appending thread's own lists (``bins``). The relaxation of the jobs is in
``delta_relax``.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives import fetch_add
from ..primitives.bits import LOW32, bits_f32
from .bins import CHUNK, CHUNK_MASK, RING, chunks_needed, grow_pool, push, release_slot
from .state import prefetch, word_distance

__all__ = ["MAX_BIN", "MAX_ENTRIES", "bin_of", "slot_of", "take", "take_parallel", "settle",
           "settle_parallel", "rebase"]

MAX_BIN = np.int64(1) << 62
_ONE = np.uint64(1)
_AHEAD_TAKE = 16  # prefetch distances: entries of a list ahead
# A heavy entry's first word: the row position of its rest << _REST_BITS | the entries the
# rest has (_REST_CAP and more: the row's end is read from indptr). Positions stay below
# MAX_ENTRIES.
_REST_BITS = 24
_REST_CAP = (1 << _REST_BITS) - 1
MAX_ENTRIES = 1 << (63 - _REST_BITS)


@njit(inline="always")
def bin_of(x, inv_delta):
    """The bucket of distance ``x`` (float32): floor(x / delta), monotone in x."""
    f = np.float64(x) * inv_delta
    return np.int64(f) if f < 4.0e18 else MAX_BIN


@njit(inline="always")
def slot_of(b, base):
    """The slot of bucket ``b`` in the window starting at ``base`` (the overflow past it)."""
    rel = b - base
    return rel if rel < RING else RING


@njit(inline="always")
def _pack_rest(e, end):
    return (e << _REST_BITS) | min(end - e, _REST_CAP)


@njit(inline="always")
def _unpack_rest(word, indptr, u):
    """(position, row end) of a heavy entry's first word; ``u``: its vertex."""
    e = word >> _REST_BITS
    k = word & _REST_CAP
    return e, (e + k if k < _REST_CAP else indptr[u + 1])


@njit(inline="always")
def _push_heavy(hbins, t, s, rest, ud):
    """Append the heavy entry (``rest``, ``u << 32 | du``) to thread ``t``'s list of slot
    ``s`` of the heavy bins ``hbins`` (``new_wide_bins``' tuple): two words in one chunk
    (CHUNK is even, the counts stay even)."""
    h_pool, h_next, h_free, h_ctr, h_count, h_head, h_tail = hbins  # names of its own
    n = h_count[t, s]
    k = n & CHUNK_MASK
    if k == 0:
        fresh = h_free[fetch_add(h_ctr, 0, np.int64(1))]
        if n == 0:
            h_head[t, s] = fresh
        else:
            h_next[h_tail[t, s]] = fresh
        h_tail[t, s] = fresh
    at = np.int64(h_tail[t, s]) * CHUNK + k
    h_pool[at] = rest
    h_pool[at + 1] = ud
    h_count[t, s] = n + 2


@njit(inline="always")
def _run_end(wt, du, lo, end, lim, inv_delta):
    """The first position in ``lo .. end-1`` whose candidate ``du + wt`` falls after bucket
    ``lim`` (``end`` if none): the row is sorted by weight, so a galloping search, which reads
    a few of the weights of a long run instead of all."""
    if lo >= end or bin_of(np.float32(du + wt[lo]), inv_delta) > lim:
        return lo
    ok = lo  # known in the run
    step = np.int64(16)
    nxt = lo + step
    while nxt < end and bin_of(np.float32(du + wt[nxt]), inv_delta) <= lim:
        ok = nxt
        step *= 2
        nxt = ok + step
    past = min(nxt, end)  # known past the run (or the row's end)
    while past - ok > 1:
        mid = (ok + past) >> 1
        if bin_of(np.float32(du + wt[mid]), inv_delta) <= lim:
            ok = mid
        else:
            past = mid
    return past


# ---- take: entries -> jobs and records ------------------------------------------------------

@njit(cache=True)
def _take_light(bins, t, step, graph, verts, jobs, recs, at):
    """Jobs (from ``at[0]``) and records (from ``at[1]``) of the live entries of thread
    ``t``'s light list of the step's slot not taken yet in this step, claimed by a plain
    write to ``taken`` even while the other threads drain the slot's other lists: a locked
    instruction would wait for every load before it, the prefetched ones too, and end the
    overlap of the entries' cache misses. A claim lost to another thread's write of the same
    word takes the vertex twice: the same run with the same distance (nothing relaxes during
    a take), which changes no distance, and the same record twice, which ``settle`` takes
    once. Returns (jobs, records) written; a vertex with no edge into bucket ``cur`` gets a
    record and no job."""
    pool, cnext, fstack, ctr, lcount, lhead, ltail = bins
    s, cur, base, inv_delta, look, min_run, heavy = step
    indptr, nbr, wt = graph
    state, taken, settled = verts
    jst, jud, wp = jobs
    rud, rc, rdue, rdeg = recs
    j0, r0 = at
    n = lcount[t, s]
    c = lhead[t, s]
    k = 0
    nj = j0
    nr = r0
    while k < n:
        take = min(CHUNK, n - k)
        off = np.int64(c) * CHUNK
        for j in range(take):
            if j + _AHEAD_TAKE < take:
                a = pool[off + j + _AHEAD_TAKE]
                prefetch(state, a)
                prefetch(indptr, a)
            if j + _AHEAD_TAKE // 2 < take:  # its row offset is on its way: its row's head
                prefetch(wt, indptr[pool[off + j + _AHEAD_TAKE // 2]])
            u = pool[off + j]
            w64 = u >> 6
            bit = _ONE << np.uint64(u & 63)
            if (settled[w64] & bit) != 0:
                continue  # settled: in an earlier bucket (stale) or by a pull
            word = state[u]
            du = word_distance(word)
            if bin_of(du, inv_delta) != cur:
                continue  # stale: lowered into an earlier bucket since, taken there
            if (taken[w64] & bit) != 0:
                continue  # a repeat: taken already in this step
            taken[w64] |= bit
            a = indptr[u]
            end = indptr[u + 1]
            e = end if end - a <= min_run else _run_end(wt, du, a, end, cur, inv_delta)
            ud = (np.int64(u) << 32) | (word >> 32)
            if e > a:
                jst[nj] = a
                jud[nj] = ud
                wp[nj] = e - a
                nj += 1
            rud[nr] = ud
            rc[nr] = _pack_rest(e, end)
            rdue[nr] = bin_of(np.float32(du + wt[e]), inv_delta) if e < end else -1
            rdeg[nr] = end - a
            nr += 1
        k += take
        if k < n:
            c = cnext[c]
    return nj - j0, nr - r0


@njit(cache=True)
def _take_heavy(hbins, t, step, graph, jobs, j0):
    """Jobs (from ``j0``) of thread ``t``'s heavy entries of the step's slot; the rest of
    each row goes back into thread ``t``'s heavy list of the bucket it starts in (a later
    slot, or the overflow). Returns the jobs written."""
    hpool, hcnext, hfstack, hctr, hcount, hhead, htail = hbins
    s, cur, base, inv_delta, look, min_run, heavy = step
    indptr, nbr, wt = graph
    jst, jud, wp = jobs
    n = hcount[t, s]
    c = hhead[t, s]
    k = 0
    nj = j0
    while k < n:
        take = min(CHUNK, n - k)
        off = np.int64(c) * CHUNK
        for j in range(0, take, 2):
            if j + 2 * _AHEAD_TAKE < take:
                x = hpool[off + j + 2 * _AHEAD_TAKE] >> _REST_BITS
                prefetch(wt, x)
                prefetch(wt, x + min_run)
            ud = hpool[off + j + 1]
            a, end = _unpack_rest(hpool[off + j], indptr, ud >> 32)
            du = bits_f32(np.int32(ud & LOW32))
            ahead = (cur - bin_of(du, inv_delta)) * look
            lim = cur + np.int64(ahead) if ahead < 4.0e18 else MAX_BIN
            e = _run_end(wt, du, min(end, a + min_run), end, lim, inv_delta)
            jst[nj] = a
            jud[nj] = ud
            wp[nj] = e - a
            nj += 1
            if e < end:
                _push_heavy(hbins, t, slot_of(bin_of(np.float32(du + wt[e]), inv_delta), base),
                            _pack_rest(e, end), ud)
        k += take
        if k < n:
            c = hcnext[c]
    return nj - j0


@njit(cache=True)
def take(bins, hbins, step, graph, verts, jobs, recs, r0):
    """Every thread's lists of the step's slot (the heavy ones too with its ``heavy``), one
    after the other on the calling thread. ``step``: (slot, bucket ``cur``, the window's
    base, 1 / delta, LOOK_AHEAD, MIN_RUN, heavy); ``graph``: (indptr, nbr, wt); ``verts``:
    (state, taken, settled); ``jobs``: (jst, jud, wp); ``recs``: (rud, rc, rdue, rdeg).
    Returns (jobs, records appended from ``r0``)."""
    heavy = step[6]
    nj = 0
    nr = 0
    for t in range(bins[4].shape[0]):
        if heavy:
            nj += _take_heavy(hbins, t, step, graph, jobs, nj)
        a, b = _take_light(bins, t, step, graph, verts, jobs, recs, (nj, r0 + nr))
        nj += a
        nr += b
    return nj, nr


@njit(cache=True, parallel=True)
def take_parallel(bins, hbins, step, graph, verts, jobs, recs, r0):
    """``take`` with each thread draining its own lists into its own region, the regions
    then moved together."""
    lcount = bins[4]
    hcount = hbins[4]
    s = step[0]
    heavy = step[6]
    jst, jud, wp = jobs
    rud, rc, rdue, rdeg = recs
    nthreads = lcount.shape[0]
    joff = np.zeros(nthreads + 1, np.int64)
    roff = np.zeros(nthreads + 1, np.int64)
    for t in range(nthreads):
        joff[t + 1] = joff[t] + lcount[t, s] + (hcount[t, s] // 2 if heavy else 0)
        roff[t + 1] = roff[t] + lcount[t, s]
    gj = np.zeros(nthreads, np.int64)
    gr = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        nh = 0
        if heavy:
            nh = _take_heavy(hbins, t, step, graph, jobs, joff[t])
        nl, nr = _take_light(bins, t, step, graph, verts, jobs, recs,
                             (joff[t] + nh, r0 + roff[t]))
        gj[t] = nh + nl
        gr[t] = nr
    nj = gj[0]
    nr = gr[0]
    for t in range(1, nthreads):
        src = joff[t]
        for j in range(gj[t]):
            jst[nj + j] = jst[src + j]
            jud[nj + j] = jud[src + j]
            wp[nj + j] = wp[src + j]
        nj += gj[t]
        src = r0 + roff[t]
        for j in range(gr[t]):
            rud[r0 + nr + j] = rud[src + j]
            rc[r0 + nr + j] = rc[src + j]
            rdue[r0 + nr + j] = rdue[src + j]
            rdeg[r0 + nr + j] = rdeg[src + j]
        nr += gr[t]
    return nj, nr


# ---- settle: a finished bucket's records -> settled bits, heavy entries ------------------------

@njit(cache=True)
def _settle_words(recs, nrec, settled, base, hbins, t, lo, hi):
    """The records (``recs``: rud, rc, rdue, rdeg) of a finished bucket whose vertices lie in
    the bitmap words ``lo .. hi-1``, latest first: the first record of each vertex holds its
    final distance (a vertex taken again in a later step was lowered in between), so it
    marks the vertex settled and schedules the rest of its row as a heavy entry, in thread
    ``t``'s lists (``t < 0``: spread over the threads'). No state word is read, and only
    the caller writes these words of the bitmap. Returns (vertices settled, their degrees'
    sum)."""
    rud, rc, rdue, rdeg = recs
    nthreads = hbins[4].shape[0]
    done = 0
    degrees = 0
    for i in range(nrec - 1, -1, -1):
        ud = rud[i]
        u = ud >> 32
        w64 = u >> 6
        if w64 < lo or w64 >= hi:
            continue
        bit = _ONE << np.uint64(u & 63)
        if settled[w64] & bit:
            continue
        settled[w64] |= bit
        done += 1
        degrees += rdeg[i]
        if rdue[i] >= 0:
            _push_heavy(hbins, t if t >= 0 else done % nthreads, slot_of(rdue[i], base),
                        rc[i], ud)
    return done, degrees


@njit(cache=True)
def settle(recs, nrec, settled, base, hbins):
    """A finished bucket's records on the calling thread (``_settle_words`` over the whole
    bitmap). Returns (vertices settled, their degrees' sum)."""
    return _settle_words(recs, nrec, settled, base, hbins, np.int64(-1), 0, settled.shape[0])


@njit(cache=True, parallel=True)
def settle_parallel(recs, nrec, settled, base, hbins):
    """``settle`` with each thread taking the records of its share of the bitmap's words
    (each scans all the records, a sequential read). Returns (vertices settled, their
    degrees' sum)."""
    nthreads = hbins[4].shape[0]
    nwords = settled.shape[0]
    got = np.zeros((nthreads, 2), np.int64)
    for t in prange(nthreads):
        got[t, 0], got[t, 1] = _settle_words(recs, nrec, settled, base, hbins, np.int64(t),
                                             (nwords * t) // nthreads,
                                             (nwords * (t + 1)) // nthreads)
    return got[:, 0].sum(), got[:, 1].sum()


# ---- a new window ----------------------------------------------------------------------------

@njit(cache=True)
def _overflow(pool, cnext, lcount, lhead):
    """The words of every thread's overflow list, laid end to end."""
    out = np.empty(lcount[:, RING].sum(), pool.dtype)
    at = 0
    for t in range(lcount.shape[0]):
        n = lcount[t, RING]
        c = lhead[t, RING]
        k = 0
        while k < n:
            take = min(CHUNK, n - k)
            out[at:at + take] = pool[np.int64(c) * CHUNK:np.int64(c) * CHUNK + take]
            at += take
            k += take
            if k < n:
                c = cnext[c]
    return out


@njit(cache=True)
def rebase(bins, hbins, state, taken, wt, inv_delta, base):
    """The ring is empty: open a new window at the lowest bucket of the overflows' live
    entries (light: distance still at or beyond the old window, once each; heavy: all, at
    the bucket their row's rest starts in) and put them in its slots. Returns (the new base,
    or -1 when nothing is left; the bins; the heavy bins)."""
    pool, cnext, fstack, ctr, lcount, lhead, ltail = bins
    hpool, hcnext, hfstack, hctr, hcount, hhead, htail = hbins
    nthreads = lcount.shape[0]
    limit = base + RING
    newbase = MAX_BIN
    light = _overflow(pool, cnext, lcount, lhead)
    heavy = _overflow(hpool, hcnext, hcount, hhead)
    release_slot(cnext, fstack, ctr, lcount, lhead, RING)
    release_slot(hcnext, hfstack, hctr, hcount, hhead, RING)
    nl = 0
    for j in range(light.shape[0]):
        u = light[j]
        b = bin_of(word_distance(state[u]), inv_delta)
        w64 = u >> 6
        bit = _ONE << np.uint64(u & 63)
        if b >= limit and (taken[w64] & bit) == 0:
            taken[w64] |= bit
            light[nl] = u
            nl += 1
            newbase = min(newbase, b)
    for j in range(nl):
        taken[light[j] >> 6] = 0
    nh = heavy.shape[0] // 2
    due = np.empty(nh, np.int64)
    for j in range(nh):
        ud = heavy[2 * j + 1]
        du = bits_f32(np.int32(ud & LOW32))
        due[j] = bin_of(np.float32(du + wt[heavy[2 * j] >> _REST_BITS]), inv_delta)
        newbase = min(newbase, due[j])
    if newbase == MAX_BIN:  # nothing left (or only candidates that overflow to inf)
        return np.int64(-1), bins, hbins
    need = chunks_needed(nl, RING + 1)
    if cnext.shape[0] - ctr[0] < need:
        pool, cnext, fstack = grow_pool(pool, cnext, fstack, ctr[0], need)
    need = chunks_needed(2 * nh, nthreads * (RING + 1))
    if hcnext.shape[0] - hctr[0] < need:
        hpool, hcnext, hfstack = grow_pool(hpool, hcnext, hfstack, hctr[0], need)
    for j in range(nl):
        u = light[j]
        push(pool, cnext, fstack, ctr, lcount, lhead, ltail,
             (0, slot_of(bin_of(word_distance(state[u]), inv_delta), newbase), u))
    hbins = (hpool, hcnext, hfstack, hctr, hcount, hhead, htail)
    for j in range(nh):
        _push_heavy(hbins, j % nthreads, slot_of(due[j], newbase), heavy[2 * j],
                    heavy[2 * j + 1])
    return newbase, (pool, cnext, fstack, ctr, lcount, lhead, ltail), hbins
