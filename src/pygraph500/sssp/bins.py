"""Delta-stepping's buckets: per-thread local bins in a pool of fixed-size chunks.

Every thread owns one list per bucket slot (GAP's ``local_bins``): a relaxation that lowers a
vertex appends it to its own thread's list of the vertex's new bucket, with no contention
beyond taking a fresh chunk (an atomic fetch-and-add on the free-chunk stack). A list is a
chain of ``CHUNK``-entry chunks of one shared pool (int32 vertex ids; int64 words for
delta-stepping's heavy entries, two words each: ``new_wide_bins``); its length says how full
its last chunk is. Between steps (serial code) a bucket's lists are drained and their chunks
pushed back on the stack; the pool grows there too, never inside a parallel step: before
each step the driver makes room for the most chunks it can take (``chunks_needed``,
``grow_pool``).

Hot loops (a relaxation's append, a serial phase's drain) write these arrays with inline code
rather than calling ``push``: numba increments and decrements the reference count of every
array passed to a compiled call (atomics, ~75 ns for a call with seven arrays), which would
cost more than the append itself. ``push`` and ``release_slot`` serve the cold paths.

The slots form an epoch: slot ``s`` holds bucket ``base + s`` for ``s < RING``; slot ``RING``
is the overflow, for buckets ``>= base + RING`` (weights much heavier than delta). When the
ring is empty, the overflow is redistributed with a new ``base`` (``delta_phases.rebase``). A
fixed window keeps the bucket order exact and the slot arrays small whatever the weights.

Arrays of one search (``new_bins``): ``pool`` (chunks * CHUNK entries), ``cnext`` (int32, the
next chunk of a list), ``fstack`` (int32, free chunk ids from ``ctr[0]`` on), ``ctr`` (int64,
the stack pointer), ``lcount`` (int64, [thread, slot] entries), ``lhead``/``ltail`` (int32,
[thread, slot] first and last chunk).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..primitives import fetch_add

__all__ = ["CHUNK", "CHUNK_MASK", "RING", "new_bins", "new_wide_bins", "push", "chunks_needed",
           "grow_pool", "release_slot"]

CHUNK = 256  # entries per chunk (a power of two)
CHUNK_MASK = CHUNK - 1
RING = 2048  # bucket slots per epoch; slot RING is the overflow


@njit(cache=True)
def new_bins(nthreads, chunks):
    """Empty bins for ``nthreads`` threads with ``chunks`` free chunks."""
    return _new_lists(np.empty(chunks * CHUNK, np.int32), nthreads, chunks)


@njit(cache=True)
def new_wide_bins(nthreads, chunks):
    """``new_bins`` with an int64 pool (delta-stepping's heavy entries: two words appended
    together, which never straddle chunks as CHUNK is even)."""
    return _new_lists(np.empty(chunks * CHUNK, np.int64), nthreads, chunks)


@njit(cache=True)
def _new_lists(pool, nthreads, chunks):
    cnext = np.empty(chunks, np.int32)
    fstack = np.arange(chunks).astype(np.int32)
    ctr = np.zeros(1, np.int64)
    lcount = np.zeros((nthreads, RING + 1), np.int64)
    lhead = np.zeros((nthreads, RING + 1), np.int32)
    ltail = np.zeros((nthreads, RING + 1), np.int32)
    return pool, cnext, fstack, ctr, lcount, lhead, ltail


@njit(inline="always")
def push(pool, cnext, fstack, ctr, lcount, lhead, ltail, item):
    """Append ``v`` to thread ``t``'s list of slot ``s``, ``item`` = (t, s, v) (only thread
    ``t`` writes it). The bins' arrays stay arguments: a tuple of them, inlined into the
    pull's parallel loop, gave wrong distances."""
    t, s, v = item
    c = lcount[t, s]
    k = c & CHUNK_MASK
    if k == 0:  # the list is empty or its last chunk full: take a free chunk
        nc = fstack[fetch_add(ctr, 0, np.int64(1))]
        if c == 0:
            lhead[t, s] = nc
        else:
            cnext[ltail[t, s]] = nc
        ltail[t, s] = nc
    pool[np.int64(ltail[t, s]) * CHUNK + k] = v
    lcount[t, s] = c + 1


@njit(inline="always")
def chunks_needed(pushes, lists):
    """Free chunks enough for ``pushes`` appends spread over at most ``lists`` lists (each may
    take one chunk more than its share)."""
    return pushes // CHUNK + 1 + min(pushes, lists)


@njit(cache=True)
def grow_pool(pool, cnext, fstack, sp, need):
    """Copies of the pool's arrays with at least ``need`` free chunks above the stack pointer
    ``sp`` (and at least twice as many chunks)."""
    chunks = cnext.shape[0]
    grown = max(2 * chunks, sp + need)
    pool2 = np.empty(grown * CHUNK, pool.dtype)
    pool2[:chunks * CHUNK] = pool
    cnext2 = np.empty(grown, np.int32)
    cnext2[:chunks] = cnext
    fstack2 = np.empty(grown, np.int32)
    fstack2[sp:chunks] = fstack[sp:chunks]
    for c in range(chunks, grown):
        fstack2[c] = c
    return pool2, cnext2, fstack2


@njit(cache=True)
def release_slot(cnext, fstack, ctr, lcount, lhead, s):
    """Empty every thread's list of slot ``s``, its chunks back on the free stack (serial)."""
    sp = fetch_add(ctr, 0, np.int64(0))
    for t in range(lcount.shape[0]):
        n = lcount[t, s]
        c = lhead[t, s]
        for _ in range((n + CHUNK - 1) // CHUNK):
            sp -= 1
            fstack[sp] = c
            c = cnext[c]
        lcount[t, s] = 0
    ctr[0] = sp
