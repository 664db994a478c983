"""Delta-stepping's PULL (driven by ``delta_stepping``): the unsettled vertices read their
rows from the settled side, and the rests of the settled rows waiting in the heavy bins are
dropped.

On a Graph500 graph the hubs are settled within the first few buckets; from then on nearly
all the work left is the rests of their rows, relaxed band by band onto targets that are
settled already (one bitmap test each, 20 M of the 31 M entries at SCALE 20), while the
vertices still unsettled are few and mostly of degree one to three (2.4 M entries of rows
at bucket 10). Chakaravarthy et al. (IPDPS 2014, "Scalable single source shortest path
algorithms for massively parallel systems", pruning) turn the direction there; this is that
turn, once the pending rests outweigh the unsettled rows (``delta_stepping.PULL_RATIO``).

Why it is exact, at a bucket boundary (every vertex of the buckets below ``cur`` settled):
every edge ``(u, v, w)`` with ``u`` settled and ``v`` not is either relaxed already or waits
in a heavy rest; the pull relaxes it from ``v``'s side, with ``u``'s final distance (the
rows are symmetric, the CSR contract). No candidate falls below bucket ``cur`` (it would
have been relaxed in its bucket and ``v`` settled there). After the pull the heavy rests
hold nothing left to do: their targets are settled, and an edge between settled vertices
changes nothing. A lowered vertex goes into its new bucket's light list, as a relaxation
would put it; the state word keeps its rules (a strict decrease, the parent's final
distance).

A row is read in increasing order of weight and stops at the first weight not below the
best candidate (a candidate is at least its weight), so a vertex with a settled light
neighbour reads a few entries.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives import fetch_add
from ..primitives.bits import f32_bits
from .bins import push
from .delta_phases import bin_of, slot_of
from .state import prefetch, word_distance

__all__ = ["pull"]

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_BLOCK_WORDS = 64  # bitmap words (64 vertices each) a thread claims at a time
_AHEAD = 8  # prefetch distance in vertices


@njit(cache=True, parallel=True)
def pull(graph, state, settled, inv_delta, base, bins, every):
    """Lower every unsettled vertex with edges to its best candidate through a settled
    neighbour (rows ``nbr``/``wt`` sorted by weight). A reached vertex whose neighbours are
    all settled has its final distance (any other path enters it through a neighbour): it
    is settled on the spot, with nothing to relax; any other lowered one goes into its
    thread's light list of its new bucket (the pool must have room for one append per
    unsettled vertex).
    Returns (vertices with edges examined, entries read, lowered, settled, the settled
    ones' degrees' sum).

    The threads claim blocks of the bitmap; a block's unsettled vertices with edges are
    listed first, then read with the row heads (and the state word of each row's lightest
    neighbour) prefetched a few vertices ahead: the rows lie apart, each a cache miss. The
    vertices settled here are marked after all threads are done (``fresh``), so every
    thread reads the same settled set.

    ``graph``: (indptr, nbr, wt); ``bins``: the light bins' tuple (``bins.new_bins``).
    ``every``: append every reached vertex left unsettled, lowered or not (the caller has
    emptied the light bins to put them in buckets of a new width)."""
    indptr, nbr, wt = graph
    pool, cnext, fstack, ctr, lcount, lhead, ltail = bins
    nthreads = lcount.shape[0]
    n = state.shape[0]
    nwords = settled.shape[0]
    nblocks = (nwords + _BLOCK_WORDS - 1) // _BLOCK_WORDS
    counter = np.zeros(1, np.int64)
    fresh = np.zeros(nwords, np.uint64)  # words of a block: only its thread writes them
    got = np.zeros((nthreads, 5), np.int64)
    for t in prange(nthreads):
        todo = np.empty(_BLOCK_WORDS * 64, np.int64)
        examined = 0
        read = 0
        lowered = 0
        done = 0
        degrees = 0
        while True:
            blk = fetch_add(counter, 0, np.int64(1))
            if blk >= nblocks:
                break
            m = 0
            for w64 in range(blk * _BLOCK_WORDS, min((blk + 1) * _BLOCK_WORDS, nwords)):
                free = settled[w64] ^ _ALL
                if free == 0:
                    continue
                for b in range(64):
                    if (free >> np.uint64(b)) & _ONE != 0:
                        v = (w64 << 6) + b
                        if v >= n:
                            break
                        if indptr[v + 1] > indptr[v]:
                            todo[m] = v
                            m += 1
            examined += m
            for i in range(m):
                if i + _AHEAD < m:
                    a = indptr[todo[i + _AHEAD]]
                    prefetch(nbr, a)
                    prefetch(wt, a)
                    prefetch(state, todo[i + _AHEAD])
                if i + _AHEAD // 2 < m:
                    prefetch(state, nbr[indptr[todo[i + _AHEAD // 2]]])
                v = todo[i]
                a = indptr[v]
                end = indptr[v + 1]
                best = word_distance(state[v])
                by = np.int64(-1)
                closed = True  # every neighbour read so far is settled
                e = a
                while e < end:
                    x = wt[e]
                    if x >= best:  # every candidate from here on is at least x
                        break
                    u = nbr[e]
                    e += 1
                    if settled[u >> 6] & (_ONE << np.uint64(u & 63)) == 0:
                        closed = False
                        continue
                    nd = np.float32(word_distance(state[u]) + x)
                    if nd < best:
                        best = nd
                        by = u
                if best == np.inf:  # no path to v yet
                    read += e - a
                    continue
                while closed and e < end:  # the rest of the row: any neighbour unsettled?
                    u = nbr[e]
                    e += 1
                    closed = settled[u >> 6] & (_ONE << np.uint64(u & 63)) != 0
                read += e - a
                if by >= 0:
                    state[v] = (np.int64(f32_bits(best)) << 32) | by  # only v's thread
                    lowered += 1
                if closed:  # final; its entries in the bins are skipped on the settled bit
                    fresh[v >> 6] |= _ONE << np.uint64(v & 63)
                    done += 1
                    degrees += end - a
                elif by >= 0 or every:
                    push(pool, cnext, fstack, ctr, lcount, lhead, ltail,
                         (t, slot_of(bin_of(best, inv_delta), base), np.int32(v)))
        got[t, 0] = examined
        got[t, 1] = read
        got[t, 2] = lowered
        got[t, 3] = done
        got[t, 4] = degrees
    for w64 in prange(nwords):
        settled[w64] |= fresh[w64]
    return (got[:, 0].sum(), got[:, 1].sum(), got[:, 2].sum(), got[:, 3].sum(),
            got[:, 4].sum())
