"""The ``sort-unique`` pruning of a distributed BFS level (thesis 4.3.2 C): the kept NLF
entries are sorted by (owner, local id) with the parent as payload (packed in the same
64-bit word when it fits), and only the first entry of each vertex is kept; the sort also
groups the entries by owner, which is the split of the exchange step.

LSD radix passes (``radix_pass``, digits of at most 8 bits) sort the keys down to blocks of
``2**unique_bits`` keys; inside a block the last digit is not sorted, the block's entries
are made unique with a bitmap of its keys (4 KiB at the default ``UNIQUE_BITS`` = 15 of
``distributed.search1d``, in L1) instead: the first entry of every key is kept, in NLF order.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..primitives.bitmaps import ONE

__all__ = ["sort_unique", "radix_sort", "radix_pass"]

_DIGIT_BITS = 8


@njit(cache=True)
def radix_pass(a, b, n, shift, mask, cnt, first, payload):
    """One stable LSD pass by digit ``(key >> shift) & mask`` from ``a`` into ``b`` (each
    (keys, parents)); the first pass reads the NLF as written (``n`` entries, -1 dropped) and
    so also compacts it. Returns the count."""
    a_k, a_p = a
    b_k, b_p = b
    cnt[:] = 0
    for j in range(n):
        x = a_k[j]
        if first and x < 0:
            continue
        cnt[((x >> shift) & mask) + 1] += 1
    for d in range(mask + 1):
        cnt[d + 1] += cnt[d]
    for j in range(n):
        x = a_k[j]
        if first and x < 0:
            continue
        d = (x >> shift) & mask
        t = cnt[d]
        b_k[t] = x
        if payload:
            b_p[t] = a_p[j]
        cnt[d] = t + 1
    return cnt[mask]


@njit(cache=True)
def radix_sort(nlf, m, key_bits, unique_bits, scratch, starts):
    """The radix passes of ``sort_unique``: the kept entries of ``nlf`` sorted by key down to
    blocks of ``2**unique_bits`` keys, the owner's bits always sorted. Returns (keys,
    parents, n, sorted): the arrays holding them (``nlf``'s or ``scratch``'s), their number
    and whether a pass ran (else they are ``nlf``'s, -1 marks and all). ``starts``: when it
    has size + 1 entries, where each owner's entries begin (a pipelined level's blocks)."""
    key, par, lbits, pbits = nlf
    tkey, tpar = scratch
    low = min(unique_bits, lbits)  # owner bits always sorted: the rows come out by owner
    high = key_bits - low
    payload = pbits == 0
    a_k, a_p, b_k, b_p = key, par, tkey, tpar
    n = m
    passed = False
    if high > 0:
        passes = (high + _DIGIT_BITS - 1) // _DIGIT_BITS
        bits = (high + passes - 1) // passes
        mask = (np.int64(1) << bits) - 1
        cnt = np.empty((1 << bits) + 1, np.int64)
        shift = pbits + low
        for _ in range(passes):
            n = radix_pass((a_k, a_p), (b_k, b_p), n, shift, mask, cnt, not passed, payload)
            a_k, a_p, b_k, b_p = b_k, b_p, a_k, a_p
            shift += bits
            passed = True
    if starts.shape[0] > 1 and passed:  # the owner bits lead the key: each owner's first
        owners = np.arange(starts.shape[0]) << (lbits + pbits)
        starts[:] = np.searchsorted(a_k[:n], owners)
    return a_k, a_p, n, passed


@njit(cache=True)
def sort_unique(nlf, m, key_bits, unique_bits, scratch, send, counts):
    """Sort the kept entries of ``nlf`` (key, par, lbits, pbits: ``kernels1d``'s record) by
    key (see the module docstring; the parent rides in the low ``pbits`` bits of the word, or
    in ``par`` when ``pbits`` is 0) and keep the first entry of every key: rows (local id,
    parent) grouped by owner into send. ``scratch``: (keys, parents) as large as the NLF.
    Entries ``radix_sort`` sorted already (one owner's block of them) need ``key_bits`` no
    more than ``min(unique_bits, lbits)``: no pass. Returns the count."""
    a_k, a_p, n, passed = radix_sort(nlf, m, key_bits, unique_bits, scratch,
                                     np.empty(0, np.int64))
    first = not passed
    key, par, lbits, pbits = nlf
    low = min(unique_bits, lbits)
    lmask = (np.int64(1) << lbits) - 1
    pmask = (np.int64(1) << pbits) - 1
    bmask = (np.int64(1) << low) - 1
    block = np.zeros(((1 << low) + 63) // 64, np.uint64)
    counts[:] = 0
    w = 0
    j = 0
    while j < n:  # one block of equal high key bits at a time
        x = a_k[j]
        if first and x < 0:
            j += 1
            continue
        hi = (x >> pbits) >> low
        jstart = j
        while j < n:
            x = a_k[j]
            if first and x < 0:
                j += 1
                continue
            k = x >> pbits
            if (k >> low) != hi:
                break
            b = k & bmask
            bit = ONE << np.uint64(b & 63)
            if not (block[b >> 6] & bit):
                block[b >> 6] |= bit
                send[w, 0] = k & lmask
                send[w, 1] = x & pmask if pbits > 0 else a_p[j]
                counts[k >> lbits] += 1
                w += 1
            j += 1
        for t in range(jstart, j):  # clear what the block set
            x = a_k[t]
            if x >= 0:
                block[((x >> pbits) & bmask) >> 6] = 0
    return w
