"""The compiled kernels of one level of the 1D distributed BFS on a rank (``search1d``'s
``DistSearcher``, thesis Algorithm 4 with 4.3.2; the 2D search's are ``kernels2d``), the radix
sort-unique of the prune step aside (``sort_unique``):

- ``expand_queue`` (4.3.2 A-B): the next-level frontier (NLF) of the queue, load-balanced by
  cutting its entries into equal chunks; own visited neighbours are dropped on the spot
  (unless ``drop_own`` is False: the thesis prunes the whole NLF);
  ``--prune bitmap`` also drops the remote vertices the rank has sent before.
- ``group_by_owner``: ``--prune none``, a counting sort of the NLF by owner (copies kept).
- ``claim_unvisited`` (filter): the unvisited among received (local id, parent) rows get
  their parent and join the next queue, blocks claimed in any order giving the parents of
  the order of ranks; ``fresh_to_queue`` puts the next queue in ascending order.
- ``bottom_up_scan``: a bottom-up level over the allgathered frontier bitmaps;
  ``queue_to_bits`` / ``bits_to_queue`` switch a rank's frontier between queue and bitmap.

NLF entries carry the key ``owner << lbits | local id``, with the parent packed below it
(``pbits`` > 0) when both fit in one int64 word; -1 marks a dropped entry.

The kernels take records (tuples): ``graph`` (indptr, indices), ``split`` (size, pow2,
shift, mask: ``owner_local``'s arguments after the vertex) and ``nlf`` (key, par, lbits,
pbits: the NLF's words, their parents when not packed, and the key's layout).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..primitives import cttz, fetch_or
from ..primitives.bitmaps import ONE
from .partition import block_starts, owner_local

__all__ = ["expand_queue", "group_by_owner", "split_by_owner", "claim_unvisited",
           "fresh_to_queue", "queue_to_bits", "bits_to_queue", "bottom_up_scan"]



@njit(cache=True, parallel=True)
def expand_queue(graph, search, rank, split, pruning, nlf, nthreads, drop_own=True):
    """Write the NLF of the queue: entry j's key ``owner << lbits | local id`` and parent
    (``pbits`` > 0: one word ``key << pbits | parent`` in ``key``, ``par`` unused); -1 marks a
    dropped entry (``drop_own``: an own vertex already visited). ``search``: (queue, qlen,
    visited); ``pruning``: (use_seen, seen, column), ``--prune bitmap``'s bitmap of the
    columns sent and each entry's column. Returns (m, kept)."""
    indptr, indices = graph
    queue, qlen, visited = search
    size, pow2, shift, mask = split
    use_seen, seen, column = pruning
    key, par, lbits, pbits = nlf
    off = np.empty(qlen + 1, np.int64)
    off[0] = 0
    for i in range(qlen):
        u = queue[i]
        off[i + 1] = off[i] + indptr[u + 1] - indptr[u]
    m = off[qlen]
    nch = 1 if m < 65536 else 8 * nthreads
    kept = np.zeros(nch, np.int64)
    for c in prange(nch):
        lo = c * m // nch
        hi = (c + 1) * m // nch
        if lo >= hi:
            continue
        # the thesis's thread-to-entry mapping, one binary search per chunk
        i = np.searchsorted(off, lo, side="right") - 1
        j = lo
        k = 0
        while j < hi:
            u = queue[i]
            e0 = indptr[u] + (j - off[i])
            e1 = min(indptr[u + 1], e0 + (hi - j))
            pu = u * size + rank
            for e in range(e0, e1):
                v = np.int64(indices[e])
                o, loc = owner_local(v, size, pow2, shift, mask)
                # drop (branch-free): an own vertex already visited
                drop = np.int64((visited[loc >> 6] >> np.uint64(loc & 63)) & ONE) & np.int64(
                    o == rank) & np.int64(drop_own)
                if use_seen and o != rank:
                    col = np.int64(column[e])
                    bit = ONE << np.uint64(col & 63)
                    if seen[col >> 6] & bit:
                        drop = 1
                    elif fetch_or(seen, col >> 6, bit) & bit:
                        drop = 1
                out = (o << lbits) | loc
                if pbits > 0:
                    key[j] = (out << pbits) | pu | -drop
                else:
                    key[j] = out | -drop
                    par[j] = pu
                k += 1 - drop
                j += 1
            i += 1
        kept[c] = k
    return m, kept.sum()


@njit(cache=True)
def group_by_owner(nlf, m, size, send, counts):
    """Counting sort of the kept NLF entries by owner: rows (local id, parent) into send."""
    key, par, lbits, pbits = nlf
    lmask = (np.int64(1) << lbits) - 1
    pmask = (np.int64(1) << pbits) - 1
    counts[:] = 0
    for j in range(m):
        k = key[j]
        if k >= 0:
            counts[k >> (lbits + pbits)] += 1
    pos, acc = block_starts(counts, size)
    for j in range(m):
        k = key[j]
        if k >= 0:
            if pbits > 0:
                p = k & pmask
                k >>= pbits
            else:
                p = par[j]
            o = k >> lbits
            send[pos[o], 0] = k & lmask
            send[pos[o], 1] = p
            pos[o] += 1
    return acc


@njit(cache=True)
def split_by_owner(nlf, m, size, okey, opar, starts):
    """Stable counting sort of the kept NLF entries (``key >= 0``) by owner, the words as they
    are: owner o's entries are ``okey[starts[o]:starts[o + 1]]`` (their parents in ``opar``
    when ``pbits`` is 0), each block then pruned on its own (a pipelined level)."""
    key, par, lbits, pbits = nlf
    shift = lbits + pbits
    starts[:] = 0
    for j in range(m):
        k = key[j]
        if k >= 0:
            starts[(k >> shift) + 1] += 1
    for o in range(size):
        starts[o + 1] += starts[o]
    pos = starts[:size].copy()
    for j in range(m):
        k = key[j]
        if k >= 0:
            o = k >> shift
            okey[pos[o]] = k
            if pbits == 0:
                opar[pos[o]] = par[j]
            pos[o] += 1


@njit(cache=True)
def claim_unvisited(rows, indptr, marks, nq, nqlen, split, rank):
    """Claim the unvisited vertices of rows (local id, parent): set their bits in ``visited``
    and ``fresh``, give them the row's parent and append them to nq (``marks``: parent,
    visited, fresh). Blocks may come in any order and the parents are those of claiming the
    own block first and then the others by source rank: a vertex claimed in this level (its
    bit in ``fresh``) takes a row's parent instead when the row's source (the parent's owner:
    a 1D rank sends rows of its own vertices) comes first in that order. Returns the new
    queue length and the degree sum of the claimed vertices; ``fresh_to_queue`` orders the
    queue after the level."""
    size, pow2, shift, mask = split
    parent, visited, fresh = marks
    degsum = 0
    for k in range(rows.shape[0]):
        loc = rows[k, 0]
        w = loc >> 6
        bit = ONE << np.uint64(loc & 63)
        if not (visited[w] & bit):
            visited[w] |= bit
            fresh[w] |= bit
            parent[loc] = rows[k, 1]
            nq[nqlen] = loc
            nqlen += 1
            degsum += indptr[loc + 1] - indptr[loc]
        elif fresh[w] & bit:
            src = owner_local(np.int64(rows[k, 1]), size, pow2, shift, mask)[0]
            held = owner_local(parent[loc], size, pow2, shift, mask)[0]
            if held != rank and (src == rank or src < held):
                parent[loc] = rows[k, 1]
    return nqlen, degsum


@njit(cache=True)
def fresh_to_queue(fresh, q, n):
    """q[:n], the vertices of a level's claims, in ascending order (the next level's NLF is
    then the same whatever order the blocks were claimed in), and ``fresh`` cleared: a sort
    of a short queue, else a scan of the bitmap."""
    if n * 16 < fresh.shape[0]:
        q[:n].sort()
        for i in range(n):
            fresh[q[i] >> 6] = 0
    else:
        bits_to_queue(fresh, q)
        fresh[:] = 0


# queue_to_bits / bits_to_queue are the serial forms of primitives.bitmaps' queue_to_bitmap /
# bitmap_to_queue, kept serial on purpose: they run once per switch of direction over one
# rank's share (N/P bits), and ranks usually run one thread each.
@njit(cache=True)
def queue_to_bits(q, qlen, bits):
    """bits = the set of the local ids q[:qlen]."""
    bits[:] = 0
    for i in range(qlen):
        loc = q[i]
        bits[loc >> 6] |= ONE << np.uint64(loc & 63)


@njit(cache=True)
def bits_to_queue(bits, q):
    """q[:k] = the set bits of ``bits`` in ascending order; returns k."""
    n = 0
    for w in range(bits.shape[0]):
        x = bits[w]
        while x:
            q[n] = (w << 6) + np.int64(cttz(x))
            n += 1
            x &= x - ONE
    return n


@njit(cache=True, parallel=True)
def bottom_up_scan(graph, visited, linked, frontier, nxt, parent, split, nthreads):
    """One bottom-up level (Beamer): every unvisited local vertex with a neighbour (``linked``:
    bitmap of the local vertices of degree > 0) scans its neighbours for one in the frontier
    (``frontier[owner]``: that rank's bitmap of its local ids) and stops at the first. Threads
    own whole words of visited / nxt (no atomics). Indices are unsigned (no wraparound
    checks). Returns (found, degree sum of the found, adjacency entries examined)."""
    indptr, indices = graph
    size, pow2, shift, mask = split
    nwords = visited.shape[0]
    nch = min(nwords, 32 * nthreads) if nwords > 256 else min(nwords, 1)
    out = np.zeros((max(nch, 1), 3), np.int64)
    usize = np.uint64(size)
    ushift = np.uint64(shift)
    umask = np.uint64(mask)
    for c in prange(nch):
        found = 0
        deg = 0
        scanned = 0
        for w in range(c * nwords // nch, (c + 1) * nwords // nch):
            uw = np.uint64(w)
            todo = ~visited[uw] & linked[uw]
            new = np.uint64(0)
            base = uw << np.uint64(6)
            while todo:
                b = cttz(todo)
                bit = ONE << b
                todo ^= bit
                loc = base + b
                e0 = np.uint64(indptr[loc])
                e1 = np.uint64(indptr[loc + ONE])
                e = e0
                while e < e1:
                    v = np.uint64(indices[e])
                    o, lv = owner_local(v, usize, pow2, ushift, umask)
                    if (frontier[o, lv >> np.uint64(6)] >> (lv & np.uint64(63))) & ONE:
                        break
                    e += ONE
                if e < e1:
                    parent[loc] = indices[e]
                    new |= bit
                    found += 1
                    deg += np.int64(e1 - e0)
                    scanned += np.int64(e - e0) + 1
                else:
                    scanned += np.int64(e1 - e0)
            nxt[uw] = new
            visited[uw] |= new
        out[c, 0] = found
        out[c, 1] = deg
        out[c, 2] = scanned
    return out[:, 0].sum(), out[:, 1].sum(), out[:, 2].sum()
