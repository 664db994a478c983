"""Beamer's bottom-up level: every unvisited vertex looks for a parent in the frontier.

``bottom_up_level``: every unvisited vertex (``cand``) scans its neighbours for one in the
frontier bitmap and stops at the first hit. Threads own whole words, so the bitmaps are
written without atomics. The queue <-> bitmap conversions that surround bottom-up levels in
``direction-optimizing`` are ``primitives.bitmaps``.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...primitives import cttz, fetch_add
from ...primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint
from . import WORD_CHUNKS_PER_THREAD

__all__ = ["bottom_up_level"]


@njit(cache=True, parallel=True)
def bottom_up_level(indptr, indices, parent, depth, visited, front, nxt, cand, level, nthreads):
    """One bottom-up level; returns (edges examined, found, m_f of next).

    ``cand``: the unvisited vertices worth a look; found vertices leave it (and join
    ``visited``), and so do vertices without neighbours (nothing can ever reach them).
    ``front``: the frontier; ``nxt`` gets the next one (every word written). Word chunks are
    claimed dynamically; a chunk's words of ``cand``, ``nxt`` and ``visited`` are its own.
    """
    nwords = front.shape[0]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    nchunks = max(1, min(nwords, WORD_CHUNKS_PER_THREAD * nthreads))
    counter = np.zeros(1, np.int64)
    res = np.zeros((nthreads, 3), np.int64)
    d = level + 1
    for t in prange(nthreads):
        examined = 0
        awake = 0
        scout = 0
        while True:  # dynamic schedule (numba's prange has none): claim the next chunk
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
                todo = cand[w]
                if todo == ZERO:
                    nxt[w] = ZERO
                    continue
                found = ZERO
                dead = ZERO
                base = as_uint(w) << WORD_SHIFT
                while todo != ZERO:
                    b = cttz(todo)
                    bit = ONE << b
                    todo ^= bit
                    v = base + b
                    s = indptr[v]
                    e = indptr[v + ONE]
                    if s == e:
                        dead |= bit
                        continue
                    k = s
                    while k < e:
                        u = as_uint(indices[as_uint(k)])
                        if (front[u >> WORD_SHIFT] >> (u & BIT_MASK)) & ONE:
                            break
                        k += 1
                    if k < e:
                        parent[v] = indices[as_uint(k)]
                        if keep_depth:
                            depth[v] = d
                        found |= bit
                        awake += 1
                        scout += e - s
                        examined += k - s + 1
                    else:
                        examined += e - s
                nxt[w] = found
                cand[w] ^= found | dead
                visited[w] |= found
        res[t, 0] = examined
        res[t, 1] = awake
        res[t, 2] = scout
    return res[:, 0].sum(), res[:, 1].sum(), res[:, 2].sum()
