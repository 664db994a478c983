"""Vertex bitmaps for ``@njit`` code: their layout, constructors and conversions.

A bitmap is an array of uint64 words; vertex v is bit ``v & 63`` of word ``v >> 6``
(``v & BIT_MASK`` of word ``v >> WORD_SHIFT`` in uint64 arithmetic). N vertices take N/8
bytes, so a visited bitmap stays in cache where a parent array would not. Parallel code sets
bits with an atomic fetch-and-or on the word (``primitives.atomics.fetch_or``).

- ``new_bitmap``: an all-zero bitmap (or several, as rows of a 2-D array).
- ``new_hierarchical_bitmaps`` / ``mark_hierarchical_atomic``: frontier bitmaps with two
  summary levels (a bit per non-zero word, a bit per non-zero summary word), so that a walk
  over the set bits never scans N/64 words.
- ``queue_to_bitmap``, ``unvisited_bitmap``, ``bitmap_to_queue``: the conversions between a
  vertex queue and a bitmap, parallel over ``nthreads`` (``numba.get_num_threads()``, read by
  the Python caller so that the kernels stay in numba's on-disk cache).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .atomics import fetch_or
from .bits import cttz, popcount

__all__ = ["ONE", "ZERO", "ALL_SET", "WORD_SHIFT", "BIT_MASK", "as_uint", "new_bitmap",
           "new_hierarchical_bitmaps", "mark_hierarchical_atomic", "queue_to_bitmap",
           "unvisited_bitmap", "bitmap_to_queue"]

ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL_SET = np.uint64(0xFFFFFFFFFFFFFFFF)  # a word with every vertex set
WORD_SHIFT = np.uint64(6)  # v >> WORD_SHIFT: the word holding vertex v (64 bits a word)
BIT_MASK = np.uint64(63)  # v & BIT_MASK: the bit of vertex v in its word


@njit(inline="always")
def as_uint(i):
    """An index known to be >= 0, as uint64 (no negative-index check on access)."""
    return np.uint64(i)


def new_bitmap(n: int, rows: int = 0) -> np.ndarray:
    """An all-zero bitmap of ``n`` bits (``rows`` > 0: that many, as rows of a 2-D array)."""
    nwords = (n + 63) // 64
    return np.zeros((rows, nwords) if rows else nwords, dtype=np.uint64)


def new_hierarchical_bitmaps(n: int):
    """Two hierarchical bitmaps for ``n`` vertices (rows 0 and 1): ``(bits, summary, top)``
    where ``bits`` holds one bit per vertex, ``summary`` one bit per word of ``bits`` (set
    when the word is not zero) and ``top`` one bit per word of ``summary``. A walk over the
    set bits visits only the set bits of the levels above: its cost is the set vertices plus
    N/2**18 words, not N/64."""
    bits = new_bitmap(n, rows=2)
    summary = new_bitmap(bits.shape[1], rows=2)
    top = new_bitmap(summary.shape[1], rows=2)
    return bits, summary, top


@njit(inline="always")
def mark_hierarchical_atomic(bits, summary, top, row, vw, bit):
    """Set ``bit`` of word ``vw`` in hierarchical bitmap ``row`` and the summary bits above
    it, atomically; True when the word was zero before."""
    if fetch_or(bits, (row, vw), bit) != ZERO:
        return False
    sw = vw >> WORD_SHIFT
    if fetch_or(summary, (row, sw), ONE << (vw & BIT_MASK)) == ZERO:
        fetch_or(top, (row, sw >> WORD_SHIFT), ONE << (sw & BIT_MASK))
    return True


@njit(cache=True, parallel=True)
def queue_to_bitmap(f, front, nthreads):
    """front = the set of the vertices in the queue ``f`` (O(N/64 + |f|))."""
    front[:] = ZERO
    nf = f.shape[0]
    nchunks = 4 * nthreads if nf >= 1 << 14 else 1
    for c in prange(nchunks):
        for i in range((nf * c) // nchunks, (nf * (c + 1)) // nchunks):
            v = f[i]
            fetch_or(front, v >> 6, ONE << np.uint64(v & 63))


@njit(cache=True, parallel=True)
def unvisited_bitmap(visited, cand, n):
    """cand = the vertices (< n) not in ``visited``."""
    nwords = visited.shape[0]
    for w in prange(nwords):
        cand[w] = ~visited[w]
    if n & 63:
        cand[nwords - 1] &= (ONE << np.uint64(n & 63)) - ONE


@njit(cache=True, parallel=True)
def bitmap_to_queue(front, q, nthreads):
    """q[:k] = the set bits of ``front`` in ascending order; returns k. A two-pass blocked
    prefix sum (count per block, scan, write from each block's offset), the pattern of the
    frontier degree sum of ``bfs.steps.queue_topdown`` over other data."""
    nwords = front.shape[0]
    nchunks = max(1, min(nwords, 4 * nthreads))
    counts = np.zeros(nchunks + 1, np.int64)
    for c in prange(nchunks):
        s = 0
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            s += popcount(front[w])
        counts[c + 1] = s
    for c in range(nchunks):
        counts[c + 1] += counts[c]
    for c in prange(nchunks):
        at = counts[c]
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            word = front[w]
            while word != ZERO:
                b = cttz(word)
                word ^= ONE << b
                q[at] = w * 64 + np.int64(b)
                at += 1
    return counts[nchunks]
