"""Top-down levels with hierarchical bitmap frontiers (thesis Algorithm 3).

A frontier is a hierarchical bitmap (``primitives.bitmaps.new_hierarchical_bitmaps``: the
vertex ``bits``, a ``summary`` bit per non-zero word, a ``top`` bit per non-zero summary
word; two rows, the current frontier and the next), so a level visits only set bits and
never scans N/64 words; it expands each set vertex and marks the next frontier and its
summaries (atomically in the parallel step). Consumed words are cleared as they are read,
so no bitmap is cleared separately.

- ``bitmap_topdown_levels_serial``: serial levels, many per call, while each level is small;
  frontiers of one or two vertices go to ``thin_frontier``.
- ``bitmap_topdown_level_parallel``: one level over all threads, the summary words cut into
  chunks claimed dynamically.

The records (``graph``, ``search``, ``log``) and the names of the level log's locals are
those of ``thin_frontier``; ``frontiers`` is (bits, summary, top), ``front`` (cur, lo, hi,
nf, level, m_f): the current frontier is row ``cur``, with set words in ``[lo, hi]``, ``nf``
vertices at depth ``level`` and ``m_f`` edges.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...primitives import cttz, fetch_add, fetch_or
from ...primitives.bitmaps import (BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint,
                                   mark_hierarchical_atomic)
from ..types import TOP_DOWN
from . import WORD_CHUNKS_PER_THREAD
from .canonical import lower_parent_atomic
from .level_log import log_end_batch, log_write_run
from .thin_frontier import thin_frontier_levels

__all__ = ["bitmap_topdown_levels_serial", "bitmap_topdown_level_parallel"]


@njit(inline="always")
def _expand_summary_word_atomic(graph, search, frontiers, cur, sw, d, keep, acc):
    """Expand the frontier words of row ``cur`` under its summary word ``sw`` (clearing
    them unless ``keep``) into the other row, claiming vertices atomically (the parallel
    step). ``acc``: the running (edges, found, scout, lowest word marked, highest word
    marked), returned updated. ``bitmap_topdown_levels_serial`` writes the same expansion
    out without atomics in its level loop."""
    indptr, indices = graph
    parent, depth, visited = search
    bits, summary, top = frontiers
    edges, found, scout, nlo, nhi = acc
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    nxt = 1 - cur
    summary_word = summary[cur, sw]
    if not keep:
        summary[cur, sw] = ZERO
    while summary_word != ZERO:
        c = cttz(summary_word)
        summary_word ^= ONE << c
        w = (as_uint(sw) << WORD_SHIFT) + c
        word = bits[cur, w]
        if not keep:
            bits[cur, w] = ZERO
        base = w << WORD_SHIFT
        while word != ZERO:
            b = cttz(word)
            word ^= ONE << b
            u = base + b
            s = indptr[u]
            e = indptr[u + ONE]
            edges += e - s
            for k in range(s, e):
                v = as_uint(indices[as_uint(k)])
                vw = v >> WORD_SHIFT
                bit = ONE << (v & BIT_MASK)
                if (visited[vw] & bit) == ZERO:
                    if (fetch_or(visited, vw, bit) & bit) != ZERO:
                        continue
                    if mark_hierarchical_atomic(bits, summary, top, nxt, vw, bit):
                        nlo = min(nlo, np.int64(vw))
                        nhi = max(nhi, np.int64(vw))
                    parent[v] = np.int64(u)
                    if keep_depth:
                        depth[v] = d
                    found += 1
                    scout += indptr[v + ONE] - indptr[v]
    return edges, found, scout, nlo, nhi


@njit(cache=True)
def _expand_chunks(graph, search, frontiers, cur, words, d, keep, counter):
    """One thread's share of a parallel level: the chunks of summary words it claims from
    ``counter`` (``words``: first summary word, their count, the chunks), expanded. Returns
    its (edges, found, scout, lowest word marked, highest word marked). A function of its
    own, called once per thread: the records stay out of the level's parallel loop."""
    bits, summary, _ = frontiers
    s0, nsum, nchunks = words
    acc = (0, 0, 0, bits.shape[1], -1)
    while True:
        c = fetch_add(counter, 0, np.int64(1))
        if c >= nchunks:
            break
        for sw in range(s0 + (nsum * c) // nchunks, s0 + (nsum * (c + 1)) // nchunks):
            if summary[cur, sw] != ZERO:
                acc = _expand_summary_word_atomic(graph, search, frontiers, cur, sw, d, keep,
                                                  acc)
    return acc


# what ``_canonical_summary_word`` does (a constant at each call site)
_FORWARD = 0
_BACKWARD = 1
_CLEAR = 2


@njit(inline="always")
def _canonical_summary_word(indptr, indices, parent, bits, summary, cur, sw, mode):
    """The deterministic pass after a parallel level (``canonical``) over the words under
    summary word ``sw``. ``_FORWARD``: each vertex u of the frontier (row ``cur``, kept by
    the level) lowers the parent of its neighbours in the next frontier to u; the words are
    cleared. ``_BACKWARD``: each vertex of the next frontier (the other row) takes the first
    neighbour of its sorted row that is in the frontier; nothing is cleared. ``_CLEAR``:
    the frontier's words are cleared."""
    row = 1 - cur if mode == _BACKWARD else cur
    other = 1 - row
    summary_word = summary[row, sw]
    if mode != _BACKWARD:
        summary[row, sw] = ZERO
    while summary_word != ZERO:
        c = cttz(summary_word)
        summary_word ^= ONE << c
        w = (as_uint(sw) << WORD_SHIFT) + c
        word = bits[row, w]
        if mode == _CLEAR:
            bits[row, w] = ZERO
            continue
        if mode == _FORWARD:
            bits[row, w] = ZERO
        base = w << WORD_SHIFT
        while word != ZERO:
            b = cttz(word)
            word ^= ONE << b
            x = base + b
            for k in range(indptr[x], indptr[x + ONE]):
                y = as_uint(indices[as_uint(k)])
                if (bits[other, y >> WORD_SHIFT] >> (y & BIT_MASK)) & ONE:
                    if mode == _FORWARD:
                        lower_parent_atomic(parent, y, np.int64(x))
                    else:
                        parent[x] = np.int64(y)
                        break


@njit(cache=True, parallel=True)
def _canonical_words(graph, parent, frontiers, cur, first, count, mode, nthreads):
    """``_canonical_summary_word`` over summary words ``[first, first + count)``, in chunks
    claimed dynamically."""
    indptr, indices = graph
    bits, summary, _ = frontiers
    nchunks = max(1, min(count, WORD_CHUNKS_PER_THREAD * nthreads))
    counter = np.zeros(1, np.int64)
    for t in prange(nthreads):
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            for sw in range(first + (count * c) // nchunks, first + (count * (c + 1)) // nchunks):
                _canonical_summary_word(indptr, indices, parent, bits, summary, cur, sw, mode)


@njit(cache=True)
def _canonical_pass(graph, parent, frontiers, cur, spans, backward, nthreads):
    """The deterministic pass after a parallel level whose frontier (row ``cur``, set words
    in ``[lo, hi]``) was kept; the next frontier has set words in ``[nlo, nhi]`` (``spans``:
    lo, hi, nlo, nhi). Backward then clear (each pass ends before the next starts: no word
    is read while it is cleared), or forward, as the caller chose (``canonical``)."""
    lo, hi, nlo, nhi = spans
    s0 = lo >> WORD_SHIFT
    nsum = (hi >> WORD_SHIFT) + 1 - s0
    if backward:
        n0 = nlo >> WORD_SHIFT
        _canonical_words(graph, parent, frontiers, cur, n0,
                         max(0, (nhi >> WORD_SHIFT) + 1 - n0), _BACKWARD, nthreads)
        _canonical_words(graph, parent, frontiers, cur, s0, nsum, _CLEAR, nthreads)
    else:
        _canonical_words(graph, parent, frontiers, cur, s0, nsum, _FORWARD, nthreads)


@njit(inline="always")
def _bitmap_to_thin(bits, summary, top, cur, lo, hi, thin):
    """The one or two vertices of frontier row ``cur`` (set words ``lo`` and ``hi``) into
    ``thin``, their words and summary bits cleared."""
    k = 0
    for w in (lo, hi):
        x = bits[cur, w]
        bits[cur, w] = ZERO
        summary[cur, w >> 6] = ZERO
        top[cur, w >> 12] = ZERO
        while x != ZERO:
            c = cttz(x)
            x ^= ONE << c
            thin[k] = (w << 6) + np.int64(c)
            k += 1


@njit(inline="always")
def _thin_to_bitmap(bits, summary, top, cur, thin, e, nwords):
    """The vertices ``thin[0:e]`` into the (empty) frontier row ``cur``; returns the lowest
    and highest word set."""
    lo = nwords
    hi = -1
    for i in range(e):
        v = as_uint(thin[i])
        vw = v >> WORD_SHIFT
        bits[cur, vw] |= ONE << (v & BIT_MASK)
        nsw = vw >> WORD_SHIFT
        summary[cur, nsw] |= ONE << (vw & BIT_MASK)
        top[cur, nsw >> WORD_SHIFT] |= ONE << (nsw & BIT_MASK)
        lo = min(lo, np.int64(vw))
        hi = max(hi, np.int64(vw))
    return lo, hi


@njit(cache=True)
def bitmap_topdown_levels_serial(graph, search, frontiers, front, thin, det, log, tune):
    """Serial bitmap top-down levels while each level's work (frontier + edges + top-level
    words in its range) is at most ``limit`` (``tune``: limit, grain: the log's
    ``TIME_GRAIN``). ``frontiers``: the two hierarchical frontiers
    (``new_hierarchical_bitmaps``), the current one as ``front`` says. Returns the ``front``
    where it stopped.

    A frontier of one or two vertices leaves the bitmap for the register walk of
    ``thin_frontier_levels`` (a level of a path costs 4x less there than a walk of the three
    bitmap levels); the frontier it stops at returns to the bitmap. ``thin`` is its scratch:
    ``limit + 2`` entries hold any frontier that a small level can find.

    ``det`` (``canonical``): the bitmap levels need nothing, their frontier is walked in
    ascending order, so the first claim of a vertex is by its smallest frontier neighbour;
    a frontier of two stays in the bitmap (the register walk does not keep that order)."""
    indptr, indices = graph
    parent, depth, visited = search
    bits, summary, top = frontiers
    cur, lo, hi, nf, level, m_f = front
    limit, grain = tune
    # the log in locals, written back at the end, as in queue_topdown (a helper per level
    # would cost more than a level of a path)
    stats, dirs, batches, state = log
    nlev = state[0]
    nb = state[1]
    t_last = state[2]
    acc = state[3]
    nrow = state[4]
    rf = re = -1
    rc = 0
    rows_left = stats.shape[0] - 2  # a level writes at most 2 rows and 2 batches
    batches_left = batches.shape[0] - 2
    nwords = bits.shape[1]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    while nf > 0:
        if nrow > rows_left or nb > batches_left:
            break  # the driver grows the log and calls again
        tw_lo = lo >> 12
        tw_hi = hi >> 12
        work = nf + m_f + (tw_hi - tw_lo + 1)
        if work > limit:
            break
        if work >= grain and acc > 0:
            nb, t_last = log_end_batch(batches, nb, nlev, t_last)
            acc = 0
        if nf <= 2 and work < grain and not (det is not None and nf == 2):
            _bitmap_to_thin(bits, summary, top, cur, lo, hi, thin)
            nf, level, m_f, _, _, run = thin_frontier_levels(
                graph, None, search, thin, (nf, level, m_f, 0), log,
                (nlev, nb, t_last, acc, nrow, rf, re, rc), (limit, grain, rows_left, batches_left))
            nlev, nb, t_last, acc, nrow, rf, re, rc = run
            lo, hi = _thin_to_bitmap(bits, summary, top, cur, thin, nf, nwords)
            continue
        edges = found = scout = 0
        nlo = nwords
        nhi = -1
        nxt = 1 - cur
        d = level + 1
        # the expansion of ``_expand_summary_word_atomic`` written out without atomics, a
        # repetition kept on purpose: a call per level would cost more than a level of a path
        # (numba counts references to each array argument per call)
        for tw in range(tw_lo, tw_hi + 1):
            top_word = top[cur, tw]
            if top_word == ZERO:
                continue
            top[cur, tw] = ZERO
            while top_word != ZERO:
                tb = cttz(top_word)
                top_word ^= ONE << tb
                sw = (as_uint(tw) << WORD_SHIFT) + tb
                summary_word = summary[cur, sw]
                summary[cur, sw] = ZERO
                while summary_word != ZERO:
                    sb = cttz(summary_word)
                    summary_word ^= ONE << sb
                    w = (sw << WORD_SHIFT) + sb
                    word = bits[cur, w]
                    bits[cur, w] = ZERO
                    base = w << WORD_SHIFT
                    while word != ZERO:
                        b = cttz(word)
                        word ^= ONE << b
                        u = base + b
                        s = indptr[u]
                        e = indptr[u + ONE]
                        edges += e - s
                        for k in range(s, e):
                            v = as_uint(indices[as_uint(k)])
                            vw = v >> WORD_SHIFT
                            bit = ONE << (v & BIT_MASK)
                            if (visited[vw] & bit) == ZERO:
                                visited[vw] |= bit
                                old_word = bits[nxt, vw]
                                bits[nxt, vw] = old_word | bit
                                if old_word == ZERO:
                                    nsw = vw >> WORD_SHIFT
                                    old_summary = summary[nxt, nsw]
                                    summary[nxt, nsw] = old_summary | (ONE << (vw & BIT_MASK))
                                    if old_summary == ZERO:
                                        top[nxt, nsw >> WORD_SHIFT] |= ONE << (nsw & BIT_MASK)
                                    nlo = min(nlo, np.int64(vw))
                                    nhi = max(nhi, np.int64(vw))
                                parent[v] = np.int64(u)
                                if keep_depth:
                                    depth[v] = d
                                found += 1
                                scout += indptr[v + ONE] - indptr[v]
        # a run of equal levels; this logging is written out in every serial stretch (as in
        # queue_topdown): a helper called at every level costs 3x more
        if nf == rf and edges == re:
            rc += 1
        else:
            nrow = log_write_run(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
            rf = nf
            re = edges
            rc = 1
        nlev += 1
        acc += work
        if acc >= grain:
            nb, t_last = log_end_batch(batches, nb, nlev, t_last)
            acc = 0
        cur = nxt
        lo = nlo
        hi = nhi
        nf = found
        m_f = scout
        level += 1
    state[0] = nlev
    state[1] = nb
    state[2] = t_last
    state[3] = acc
    state[4] = log_write_run(stats, dirs, nrow, rf, re, rc, TOP_DOWN)
    return cur, lo, hi, nf, level, m_f


@njit(cache=True, parallel=True)
def bitmap_topdown_level_parallel(graph, search, frontiers, front, nthreads, det):
    """One parallel bitmap top-down level from row ``cur`` of the hierarchical frontiers
    (set words in ``[lo, hi]``) into the other row: the summary words over ``[lo, hi]`` are
    cut into chunks claimed dynamically; a chunk clears the words it consumes. Returns
    (edges, found, m_f of next, lowest, highest word marked). ``det``: the level keeps its
    frontier words, and a second pass (after the claims: race-free, see ``canonical``)
    gives each new vertex its smallest frontier neighbour, forward from the frontier or
    backward from the new vertices, whichever has fewer entries, and clears them."""
    parent, _, _ = search
    _, _, top = frontiers
    cur, lo, hi, _, level, _ = front
    s0 = lo >> 6
    nsum = (hi >> 6) + 1 - s0
    words = (s0, nsum, max(1, min(nsum, WORD_CHUNKS_PER_THREAD * nthreads)))
    keep = det is not None
    counter = np.zeros(1, np.int64)
    res = np.zeros((nthreads, 5), np.int64)
    for t in prange(nthreads):
        edges, found, scout, nlo, nhi = _expand_chunks(graph, search, frontiers, cur, words,
                                                       level + 1, keep, counter)
        res[t, 0] = edges
        res[t, 1] = found
        res[t, 2] = scout
        res[t, 3] = nlo
        res[t, 4] = nhi
    n_edges = res[:, 0].sum()
    m_next = res[:, 2].sum()
    next_lo = res[:, 3].min()
    next_hi = res[:, 4].max()
    if det is not None:  # the claims are done (the prange's end is a barrier)
        _canonical_pass(graph, parent, frontiers, cur, (lo, hi, next_lo, next_hi),
                        m_next < n_edges, nthreads)
    for tw in range(lo >> 12, (hi >> 12) + 1):
        top[cur, tw] = ZERO
    return n_edges, res[:, 1].sum(), m_next, next_lo, next_hi
