"""Compiled steps of the 2D search (``distributed.search2d``): the senders' scans that write
fold packets (paper 001, Algorithm II Task A) and the receivers' claims (Task B).

A scan writes the pairs for each processor-row peer ``k`` into its own packet buffer
``bufs[k]`` (``fold_codec``: a header, then the pairs); pairs for the rank itself are claimed
on the spot (never encoded). When a packet cannot take one more pair the scan writes its
header and returns ``k`` (``vlq``: the body, as ``fold_codec``'s functions take it); the
caller sends it (or keeps it) and calls again: ``state`` holds where the scan stopped, so
packets can leave while the scan goes on (``Searcher2D``'s ``pipeline``).

The pair of a top-down level is (column index of u, sorted local id of v at its owner): u
ascends as the frontier is scanned in order, so its deltas are small (section 4.2). The pair
of a bottom-up level is (sorted local id of v, column index of the parent found), v ascending.
``stats``: [entries examined, pairs made, pairs for this rank, vertices claimed here, their
degree sum].

The kernels take records (tuples): ``own`` (visited, order, parent, nextbits, queue, degree:
what a claim reads and writes on the owner; visited is over sorted local ids), ``packets``
(bufs, fill, prev, npairs, width, vlq: the peers' packets being written and their body
form), ``mesh`` (block, me, col_u0, size: the block length L, this rank's processor-column,
its first rank, P) and ``front`` (the column frontier bitmap, then the block's CSR).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..primitives import cttz
from ..primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT
from ..primitives.sorted_search import lower_bound
from .fold_codec import HEADER_BYTES, append_pair, body_flags, pair_bytes_max, write_header

__all__ = ["td_scan", "bu_scan", "claim_pairs", "claim_deferred", "assemble_frontier",
           "ST_EXAMINED", "ST_PAIRS", "ST_LOCAL", "ST_CLAIMED", "ST_DEGSUM"]

ST_EXAMINED, ST_PAIRS, ST_LOCAL, ST_CLAIMED, ST_DEGSUM = 0, 1, 2, 3, 4


@njit(inline="always")
def _test(bits, i):
    return (bits[i >> WORD_SHIFT] >> (np.uint64(i) & BIT_MASK)) & ONE


@njit(inline="always")
def _set(bits, i):
    bits[i >> WORD_SHIFT] |= ONE << (np.uint64(i) & BIT_MASK)


@njit(inline="always")
def claim(s, u, own, qlen, stats):
    """Owner side: sorted local id s gets parent u unless already visited (Algorithm II Task
    B lines 3-7); returns the new queue length."""
    visited, order, parent, nextbits, queue, degree = own
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


@njit(cache=True)
def claim_deferred(deferred, count, cindices, base, own, qlen, stats):
    """Claim the first ``count`` deferred runs (u, first entry, end entry of ``cindices``,
    this rank's own vertices, row ids from ``base``), in order; returns the queue length."""
    for t in range(count):
        u = deferred[t, 0]
        for e in range(deferred[t, 1], deferred[t, 2]):
            qlen = claim(np.int64(cindices[e]) - base, u, own, qlen, stats)
    return qlen


@njit(inline="always")
def _emit(k, a, b, packets):
    """Append (a, b) to peer k's packet (``prev[k]``: its last pair); True when the packet is
    now full (header written)."""
    bufs, fill, prev, npairs, width, vlq = packets
    row = bufs[k]
    fill[k] = append_pair(row, fill[k], prev[k, 0], prev[k, 1], a, b, width, vlq)
    prev[k, 0] = a
    prev[k, 1] = b
    npairs[k] += 1
    if fill[k] + pair_bytes_max(width, vlq) > row.shape[0]:
        write_header(row, npairs[k], body_flags(vlq), width)
        return True
    return False


@njit(inline="always")
def _below(bit_count):
    """A word with the low ``bit_count`` bits set (0 <= bit_count < 64)."""
    return (ONE << np.uint64(bit_count)) - ONE


@njit(cache=True)
def td_scan(scan, front, mesh, own, qlen, packets, stats):
    """Top-down: every entry u -> v of the column frontier (``front``: (colbits, cindptr,
    cindices), the block's column CSR), u ascending. ``scan``: (state, deferred, sent,
    dedup). A v of another owner is sent unless its bit in ``sent`` (over the row-block) is
    set; ``dedup`` sets the bit as v is sent, so each v goes once per search (the thesis's
    pruning, by test-and-set instead of a sort); without it only the vertices known visited
    are skipped and every other edge is sent (paper 001, Task A). The v of this rank, one
    run of each sorted list, are claimed, or while the ``deferred`` buffer (rows (u, first
    entry, end entry); empty: none) has room the run is kept there, unread, for the caller
    to claim (``claim_deferred``) while the level's last packets travel (a full buffer is
    claimed first: the own claims stay in scan order). ``state``: (next column index, next
    entry or -1) where a full packet stopped the scan, the runs in ``deferred``. Returns
    (peer whose packet is full or -1 when done, queue length)."""
    state, deferred, sent, dedup = scan
    colbits, cindptr, cindices = front
    block, me, col_u0, size = mesh
    nwords = colbits.shape[0]
    c0 = state[0]
    w = c0 >> 6
    examined = 0
    pairs = 0
    local = 0
    full = -1
    while w < nwords and full < 0:
        todo = colbits[w]
        if c0 > w << 6:
            todo &= ~_below(c0 - (w << 6))
        while todo and full < 0:
            bit = cttz(todo)
            todo &= todo - ONE
            c = (w << 6) + np.int64(bit)
            u = (c % block) * size + col_u0 + c // block
            e = cindptr[c] if (c != c0 or state[1] < 0) else state[1]
            end = cindptr[c + 1]
            k = 0
            bound = block  # rows are sorted, so the owner k only grows along a list
            while e < end:
                r = np.int64(cindices[e])
                e += 1
                examined += 1
                while r >= bound:
                    k += 1
                    bound += block
                if k == me:
                    first = e - 1
                    e = lower_bound(cindices, e, end, bound)  # the end of the own run
                    examined += e - first - 1
                    pairs += e - first
                    local += e - first
                    if deferred.shape[0] == 0:
                        for t in range(first, e):
                            qlen = claim(np.int64(cindices[t]) - k * block, u, own, qlen,
                                         stats)
                        continue
                    if state[2] == deferred.shape[0]:  # full: claimed now, in scan order
                        qlen = claim_deferred(deferred, state[2], cindices, k * block, own,
                                              qlen, stats)
                        state[2] = 0
                    deferred[state[2], 0] = u
                    deferred[state[2], 1] = first
                    deferred[state[2], 2] = e
                    state[2] += 1
                    continue
                if _test(sent, r):
                    continue
                if dedup:
                    _set(sent, r)
                pairs += 1
                if _emit(k, c, r - k * block, packets):
                    full = k
                    state[0] = c
                    state[1] = e
                    break
        w += 1
    if full < 0:
        state[0] = nwords << 6
    stats[ST_EXAMINED] += examined
    stats[ST_PAIRS] += pairs
    stats[ST_LOCAL] += local
    return full, qlen


@njit(cache=True)
def bu_scan(scan, front, mesh, own, qlen, packets, stats):
    """Bottom-up, one segment of the row-block (``scan``: (state, k, done)): the rows of
    owner ``k`` (sorted local ids s) not yet ``done`` (visited, or found earlier this level by
    a rank before this one in the row) look for a neighbour in the column frontier
    (``front``: (colbits, rindptr, rindices, rows_held), the block's row CSR); the first
    found is s's parent: claimed when ``k`` is this rank, else sent to k, and s is marked
    done. Rows without an entry in this block (``rows_held``, over the row-block) are
    skipped. ``state``: the next s where a full packet stopped the scan. Returns (full peer
    or -1, queue length)."""
    state, k, done = scan
    colbits, rindptr, rindices, rows_held = front
    block, me, col_u0, size = mesh
    base = k * block
    held = rows_held[base >> 6:(base + block) >> 6]
    nwords = block >> 6
    s0 = state[0]
    w = s0 >> 6
    examined = 0
    pairs = 0
    local = 0
    full = -1
    while w < nwords and full < 0:
        todo = ~done[w] & held[w]
        if s0 > w << 6:
            todo &= ~_below(s0 - (w << 6))
        new = np.uint64(0)
        while todo:
            bit = cttz(todo)
            one = ONE << bit
            todo ^= one
            s = (w << 6) + np.int64(bit)
            r = base + s
            e0 = rindptr[r]
            e1 = rindptr[r + 1]
            e = e0
            while e < e1:
                c = np.uint64(rindices[e])
                if (colbits[c >> WORD_SHIFT] >> (c & BIT_MASK)) & ONE:
                    break
                e += 1
            if e == e1:
                examined += e1 - e0
                continue
            examined += e - e0 + 1
            new |= one
            pairs += 1
            c = np.int64(rindices[e])
            if k == me:
                local += 1
                u = (c % block) * size + col_u0 + c // block
                qlen = claim(s, u, own, qlen, stats)
            elif _emit(k, s, c, packets):
                full = k
                state[0] = s + 1
                break
        done[w] |= new
        w += 1
    if full < 0:
        state[0] = block
    stats[ST_EXAMINED] += examined
    stats[ST_PAIRS] += pairs
    stats[ST_LOCAL] += local
    return full, qlen


@njit(cache=True)
def claim_pairs(pairs, col_u0, size, block, mine, own, qlen, stats):
    """Task B for one decoded packet (``pairs``: (a, b, count, topdown)) from the peer in
    processor-column j (``col_u0 = j * R``, the first rank of that column): top-down pairs
    are (column index of u, s), bottom-up pairs (s, column index of u). ``mine``: (this
    rank's processor-column, R, ``claimed_by``: per sorted local id, how far after this
    column the column of its claim in this level is, 0 for this column's and earlier
    levels'). A vertex claimed again in a top-down level keeps the parent of the first
    claim from the nearest column at or after this one (its own claims come before any
    peer's, a peer's packets in its scan order), whatever order the peers' packets come in,
    so the tree does not depend on the network. Returns the queue length."""
    a, b, count, topdown = pairs
    me, rows, claimed_by = mine
    cols = size // rows
    near = (col_u0 // rows - me) % cols  # 1 .. C - 1
    visited, order, parent = own[0], own[1], own[2]
    for t in range(count):
        if topdown:
            c = a[t]
            s = b[t]
        else:
            s = a[t]
            c = b[t]
        u = (c % block) * size + col_u0 + c // block
        if not topdown:
            qlen = claim(s, u, own, qlen, stats)
        elif not _test(visited, s):
            qlen = claim(s, u, own, qlen, stats)
            claimed_by[s] = near
        elif near < claimed_by[s]:  # claimed in this level from a column farther away
            parent[order[s]] = u
            claimed_by[s] = near
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
