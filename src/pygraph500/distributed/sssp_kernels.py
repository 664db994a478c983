"""The compiled steps of one distributed delta-stepping phase on a rank (``DistSSSPSearcher``).

- ``split_light``: a copy of the rank's adjacency (compact column labels and weights) with
  every row's light entries (weight < delta) first, so a light phase reads only light entries
  and a heavy phase only heavy ones.
- ``front_offsets`` / ``relax`` / ``emit``: the relaxations of a frontier's light or heavy
  entries, cut into equal chunks whatever the degrees. A candidate for an own vertex that
  does not beat its distance is dropped on the spot (distances only decrease); the others
  meet in one slot per distinct neighbour of the rank (its compact column, as ``--prune
  bitmap`` labels them): an atomic min keeps the least ``(candidate, source)``, so each
  target is sent once per phase, ``(local id at the owner, float32(d(u) + w), u)`` rows
  grouped by owner (the sort-unique of the BFS, without a sort).
- ``apply``: the owner lowers a distance (and sets the parent) only on a STRICT decrease.
- ``sort_lowered``, ``min_bucket``, ``take_bucket``, ``clear_settled``: the bucket
  bookkeeping over the per-vertex ``state`` bits below.

The relaxation kernels take records (tuples): ``work`` (front, flen, off, heavy: the
frontier, its length, its selected entries' offsets, and which class), ``rows`` (indptr,
lend, lcol, lw: the rows split light-first), ``split`` (size, pow2, shift, mask:
``owner_local``'s arguments after the vertex) and ``slots`` (cols, touched, tcount: the
columns' slots, the columns each chunk touched, how many). The bucket kernels take lists as
(array, length): ``pending`` (plist, plen), ``settled`` (settle, slen).

Messages are rows of three vertex-type integers; the candidate sits in the middle column as a
float of the same width (float32 bits in int32 rows; in int64 rows a float64 holding the
float32 value exactly), written and read through a float view of the same buffer.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives import fetch_min
from ..primitives.bits import LOW32, bits_f32, f32_bits
from .partition import block_starts, owner_local

__all__ = ["PEND", "INPL", "INR", "LOW", "NO_BUCKET", "EMPTY",
           "column_vertices", "split_light", "front_offsets", "relax", "relax_serial", "emit",
           "apply", "sort_lowered", "min_bucket", "take_bucket", "clear_settled", "bucket_of"]

# state bits of a local vertex
PEND = np.uint8(1)   # its distance was lowered and its light edges are not relaxed yet
INPL = np.uint8(2)   # it has an entry in the pending list
INR = np.uint8(4)    # it is in R: light-relaxed in the current bucket, heavy edges to do
LOW = np.uint8(8)    # it is in the lowered list of the current phase
NO_BUCKET = np.iinfo(np.int64).max
EMPTY = np.iinfo(np.int64).max  # a column no candidate has reached in this phase


@njit(inline="always")
def bucket_of(d, delta):
    """The bucket of a finite distance: floor(d / delta), monotone in d."""
    return np.int64(np.float64(d) / delta)


@njit(cache=True)
def column_vertices(column, indices, cols):
    """cols[c, 1] = the global vertex of compact column c; cols[c, 0] = EMPTY."""
    for e in range(column.shape[0]):
        cols[column[e], 1] = indices[e]
    cols[:, 0] = EMPTY


@njit(cache=True, parallel=True)
def split_light(indptr, column, weights, delta, lcol, lw, lend):
    """lcol / lw: each row's compact columns and weights with the light entries (w < delta)
    first, both classes in their order; lend[v]: where v's heavy entries begin."""
    for v in prange(indptr.shape[0] - 1):
        k = indptr[v]
        for e in range(indptr[v], indptr[v + 1]):
            if weights[e] < delta:
                lcol[k] = column[e]
                lw[k] = weights[e]
                k += 1
        lend[v] = k
        for e in range(indptr[v], indptr[v + 1]):
            if not weights[e] < delta:
                lcol[k] = column[e]
                lw[k] = weights[e]
                k += 1


@njit(cache=True)
def front_offsets(indptr, lend, front, flen, heavy, off):
    """off[i]: the first selected entry of front[i] (light: [indptr, lend), heavy: [lend,
    indptr + 1)) in the frontier's entry order; returns their number."""
    off[0] = 0
    for i in range(flen):
        u = front[i]
        if heavy:
            off[i + 1] = off[i] + indptr[u + 1] - lend[u]
        else:
            off[i + 1] = off[i] + lend[u] - indptr[u]
    return off[flen]


@njit(cache=True)
def _relax_chunk(work, lo, hi, rows, dist, rank, split, slots):
    """Entries [lo, hi) of the frontier's selected entries into ``cols``; the columns this
    chunk touched first go to touched[lo:]. Returns (candidates, columns touched)."""
    front, flen, off, heavy = work
    indptr, lend, lcol, lw = rows
    size, pow2, shift, mask = split
    cols, touched, _ = slots
    if lo >= hi:
        return 0, 0
    i = np.searchsorted(off[:flen + 1], lo, side="right") - 1
    j = lo
    cand_count = 0
    t = lo
    while j < hi:
        u = front[i]
        d = dist[u]
        gu = u * size + rank
        e0 = (lend[u] if heavy else indptr[u]) + (j - off[i])
        e1 = e0 + min(off[i + 1] - j, hi - j)
        for e in range(e0, e1):
            c = np.int64(lcol[e])
            cand = d + lw[e]  # float32 + float32, as the reference sums
            o, loc = owner_local(cols[c, 1], size, pow2, shift, mask)
            if o == rank and not cand < dist[loc]:
                continue  # an own vertex it does not lower: dropped on the spot
            cand_count += 1
            key = (np.int64(f32_bits(cand)) << 32) | gu
            if key < cols[c, 0] and fetch_min(cols, (c, np.int64(0)), key) == EMPTY:
                touched[t] = c
                t += 1
        j += e1 - e0
        i += 1
    return cand_count, t - lo


@njit(cache=True, parallel=True)
def relax(work, m, nch, rows, dist, rank, split, slots):
    """The relaxations of the m selected entries of the frontier, in nch equal chunks: the
    smallest key ``float32 bits << 32 | source`` per target column lands in cols[c, 0] (an
    atomic min: the least candidate, ties to the least source, whatever the thread order);
    tcount[k] columns touched by chunk k. Returns the candidates formed."""
    tcount = slots[2]
    cand = np.zeros(nch, np.int64)
    for k in prange(nch):
        a, b = _relax_chunk(work, k * m // nch, (k + 1) * m // nch, rows, dist, rank, split,
                            slots)
        cand[k] = a
        tcount[k] = b
    return cand.sum()


@njit(cache=True)
def relax_serial(work, m, rows, dist, rank, split, slots):
    """``relax`` in one chunk on the calling thread: a small phase must not wake the thread
    pool (on a busy machine each parallel region waits for every thread to be scheduled)."""
    a, b = _relax_chunk(work, 0, m, rows, dist, rank, split, slots)
    slots[2][0] = b
    return a


@njit(cache=True)
def emit(slots, m, split, counts, send, sendf):
    """One row (local id at the owner, candidate, source) per touched column, grouped by
    owner in rank order; the columns are emptied for the next phase. Returns the rows."""
    cols, touched, tcount = slots
    size, pow2, shift, mask = split
    nch = tcount.shape[0]
    counts[:] = 0
    for k in range(nch):
        lo = k * m // nch
        for t in range(lo, lo + tcount[k]):
            counts[owner_local(cols[touched[t], 1], size, pow2, shift, mask)[0]] += 1
    pos, total = block_starts(counts, size)
    for k in range(nch):
        lo = k * m // nch
        for t in range(lo, lo + tcount[k]):
            c = touched[t]
            o, loc = owner_local(cols[c, 1], size, pow2, shift, mask)
            key = cols[c, 0]
            cols[c, 0] = EMPTY
            r = pos[o]
            send[r, 0] = loc
            sendf[r, 1] = bits_f32(np.int32(key >> 32))
            send[r, 2] = key & LOW32
            pos[o] = r + 1
    return total


@njit(cache=True)
def apply(recv, recvf, dist, parent, state, lowered):
    """The owner's side: a row lowers its vertex's distance only when strictly smaller (the
    parent then always gives the distance, and parents never form a cycle). Appends each
    lowered vertex once to ``lowered``; returns their number."""
    n = 0
    for k in range(recv.shape[0]):
        loc = recv[k, 0]
        cand = np.float32(recvf[k, 1])
        if cand < dist[loc]:
            dist[loc] = cand
            parent[loc] = recv[k, 2]
            if not state[loc] & LOW:
                state[loc] |= LOW
                lowered[n] = loc
                n += 1
    return n


@njit(cache=True)
def sort_lowered(lowered, dist, delta, b, state, active, pending, settled):
    """The ``lowered`` list's vertices of bucket <= b join the next light phase (and R); the
    others become pending (b = -1: all of them). Returns (next frontier length, plen, slen)."""
    vertices, nlow = lowered
    plist, plen = pending
    settle, slen = settled
    na = 0
    for i in range(nlow):
        v = vertices[i]
        s = state[v] & ~LOW
        if b >= 0 and bucket_of(dist[v], delta) <= b:
            active[na] = v
            na += 1
            s &= ~PEND
            if not s & INR:
                s |= INR
                settle[slen] = v
                slen += 1
        else:
            s |= PEND
            if not s & INPL:
                s |= INPL
                plist[plen] = v
                plen += 1
        state[v] = s
    return na, plen, slen


@njit(cache=True)
def min_bucket(pending, dist, delta, state):
    """Drop the pending list's stale entries; (new length, smallest bucket, NO_BUCKET when
    nothing is pending)."""
    plist, plen = pending
    k = 0
    best = NO_BUCKET
    for i in range(plen):
        v = plist[i]
        if state[v] & PEND:
            plist[k] = v
            k += 1
            bk = bucket_of(dist[v], delta)
            if bk < best:
                best = bk
        else:
            state[v] &= ~INPL
    return k, best


@njit(cache=True)
def take_bucket(pending, dist, delta, b, state, active, settled):
    """Move the pending vertices of bucket <= b to the frontier (and R). Returns (frontier
    length, plen, slen)."""
    plist, plen = pending
    settle, slen = settled
    k = 0
    na = 0
    for i in range(plen):
        v = plist[i]
        if bucket_of(dist[v], delta) <= b:
            active[na] = v
            na += 1
            s = state[v] & ~(PEND | INPL)
            if not s & INR:
                s |= INR
                settle[slen] = v
                slen += 1
            state[v] = s
        else:
            plist[k] = v
            k += 1
    return na, k, slen


@njit(cache=True)
def clear_settled(settle, slen, state):
    for i in range(slen):
        state[settle[i]] &= ~INR
