"""Compiled steps of the 2D search (``distributed.search2d``): the senders' scans that write
fold packets (paper 001, Algorithm II Task A) and the receivers' claims (Task B).

A scan writes the pairs for each processor-row peer ``k`` into its own packet buffer
``bufs[k]`` (``fold_codec``: a header, then the pairs); pairs for the rank itself are claimed
on the spot (never encoded). When a packet cannot take one more pair the scan writes its
header and returns ``k``; the caller sends it and calls again: ``state`` holds where the scan
stopped, so packets leave while the scan goes on (pipelined with the receiving).

The pair of a top-down level is (column index of u, sorted local id of v at its owner): u
ascends as the frontier is scanned in order, so its deltas are small (section 4.2). The pair
of a bottom-up level is (sorted local id of v, column index of the parent found), v ascending.
``stats``: [entries examined, pairs made, pairs for this rank, vertices claimed here, their
degree sum].
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT
from .fold_codec import FLAG_VLQ, HEADER_BYTES, append_pair, pair_bytes_max, write_header

__all__ = ["td_scan", "bu_scan", "claim_pairs", "assemble_frontier", "ST_EXAMINED",
           "ST_PAIRS", "ST_LOCAL", "ST_CLAIMED", "ST_DEGSUM"]

ST_EXAMINED, ST_PAIRS, ST_LOCAL, ST_CLAIMED, ST_DEGSUM = 0, 1, 2, 3, 4


@njit(inline="always")
def _test(bits, i):
    return (bits[i >> WORD_SHIFT] >> (np.uint64(i) & BIT_MASK)) & ONE


@njit(inline="always")
def _set(bits, i):
    bits[i >> WORD_SHIFT] |= ONE << (np.uint64(i) & BIT_MASK)


@njit(inline="always")
def claim(s, u, visited, order, parent, nextbits, queue, qlen, degree, stats):
    """Owner side: sorted local id s gets parent u unless already visited (Algorithm II Task
    B lines 3-7); returns the new queue length."""
    if _test(visited, s):
        return qlen
    _set(visited, s)
    v = order[s]
    parent[v] = u
    _set(nextbits, v)
    queue[qlen] = v
    stats[ST_CLAIMED] += 1
    stats[ST_DEGSUM] += degree[v]
    return qlen + 1


@njit(inline="always")
def _emit(k, a, b, bufs, fill, prev, npairs, width, vlq):
    """Append (a, b) to peer k's packet (``prev[k]``: its last pair); True when the packet is
    now full (header written)."""
    row = bufs[k]
    fill[k] = append_pair(row, fill[k], prev[k, 0], prev[k, 1], a, b, width, vlq)
    prev[k, 0] = a
    prev[k, 1] = b
    npairs[k] += 1
    if fill[k] + pair_bytes_max(width, vlq) > row.shape[0]:
        write_header(row, npairs[k], FLAG_VLQ if vlq else 0, width)
        return True
    return False


@njit(cache=True)
def td_scan(state, colbits, cindptr, cindices, block, me, col_u0, size, sent, visited, order,
            parent, nextbits, queue, qlen, degree, bufs, fill, prev, npairs, width, vlq,
            stats):
    """Top-down: every entry u -> v of the column frontier (``colbits``), u ascending. A v of
    another owner is sent once per search (``sent``, over the row-block: the thesis's
    pruning, by test-and-set instead of a sort); a v of this rank is claimed. Returns (peer
    whose packet is full or -1 when done, queue length)."""
    ncols = cindptr.shape[0] - 1
    c = state[0]
    while c < ncols:
        w = colbits[c >> WORD_SHIFT]
        if w == 0:
            c = ((c >> 6) + 1) << 6
            state[1] = -1
            continue
        if (w >> (np.uint64(c) & BIT_MASK)) & ONE:
            u = (c % block) * size + col_u0 + c // block
            e = cindptr[c] if state[1] < 0 else state[1]
            end = cindptr[c + 1]
            while e < end:
                r = np.int64(cindices[e])
                e += 1
                stats[ST_EXAMINED] += 1
                k = r // block
                s = r - k * block
                if k == me:
                    stats[ST_PAIRS] += 1
                    stats[ST_LOCAL] += 1
                    qlen = claim(s, u, visited, order, parent, nextbits, queue, qlen, degree,
                                 stats)
                    continue
                if _test(sent, r):
                    continue
                _set(sent, r)
                stats[ST_PAIRS] += 1
                if _emit(k, c, s, bufs, fill, prev, npairs, width, vlq):
                    state[0] = c
                    state[1] = e
                    return k, qlen
        c += 1
        state[1] = -1
    state[0] = c
    return -1, qlen


@njit(cache=True)
def bu_scan(state, rowvis, colbits, rindptr, rindices, block, me, col_u0, size, sent,
            visited, order, parent, nextbits, queue, qlen, degree, bufs, fill, prev, npairs,
            width, vlq, stats):
    """Bottom-up: every row v of the row-block not visited (``rowvis``, gathered at the level
    start) looks for a neighbour u in the column frontier; the first found is v's parent
    candidate, sent to v's owner (or claimed). Returns (full peer or -1, queue length)."""
    nrows = rindptr.shape[0] - 1
    r = state[0]
    while r < nrows:
        free = ~rowvis[r >> WORD_SHIFT] >> (np.uint64(r) & BIT_MASK)
        if free == 0:
            r = ((r >> 6) + 1) << 6
            continue
        if not free & ONE:
            r += 1
            continue
        k = r // block
        s = r - k * block
        for e in range(rindptr[r], rindptr[r + 1]):
            c = np.int64(rindices[e])
            stats[ST_EXAMINED] += 1
            if _test(colbits, c):
                stats[ST_PAIRS] += 1
                _set(sent, r)
                r += 1
                if k == me:
                    stats[ST_LOCAL] += 1
                    u = (c % block) * size + col_u0 + c // block
                    qlen = claim(s, u, visited, order, parent, nextbits, queue, qlen, degree,
                                 stats)
                    break
                if _emit(k, s, c, bufs, fill, prev, npairs, width, vlq):
                    state[0] = r
                    return k, qlen
                break
        else:
            r += 1
            continue
    state[0] = r
    return -1, qlen


@njit(cache=True)
def claim_pairs(a, b, count, topdown, col_u0, size, block, visited, order, parent, nextbits,
                queue, qlen, degree, stats):
    """Task B for one decoded packet from the peer in processor-column j (``col_u0 = j * R``,
    the first rank of that column): top-down pairs are (column index of u, s), bottom-up
    pairs (s, column index of u). Returns the queue length."""
    for t in range(count):
        if topdown:
            c = a[t]
            s = b[t]
        else:
            s = a[t]
            c = b[t]
        u = (c % block) * size + col_u0 + c // block
        qlen = claim(s, u, visited, order, parent, nextbits, queue, qlen, degree, stats)
    return qlen


@njit(cache=True)
def assemble_frontier(parts, counts, words_per_block, colbits):
    """The column frontier bitmap from the column's allgathered parts: each part is a flag
    (0: a list of local ids follows, 1: the owner's bitmap words, as pairs of uint32) and its
    data, rank i' of the column at bit offset i' * L."""
    colbits[:] = 0
    pos = 0
    for i in range(counts.shape[0]):
        n = counts[i]
        base = i * words_per_block
        if n > 0 and parts[pos] == 1:
            for w in range((n - 1) // 2):
                colbits[base + w] = (np.uint64(parts[pos + 1 + 2 * w + 1]) << np.uint64(32)) | \
                    np.uint64(parts[pos + 1 + 2 * w])
        elif n > 0:
            for t in range(pos + 1, pos + n):
                loc = np.int64(parts[t])
                _set(colbits, base * 64 + loc)
        pos += n
