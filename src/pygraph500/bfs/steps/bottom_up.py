"""Beamer's bottom-up level: every unvisited vertex looks for a parent in the frontier.

``bottom_up_level``: every unvisited vertex (``cand``) scans its neighbours for one in the
frontier bitmap and stops at the first hit. Threads own whole words, so the bitmaps are
written without atomics. ``bottom_up_level_digraph``: the same level on a graph that may be
directed, whose unvisited vertices scan their in-neighbours (``directed``). The queue <->
bitmap conversions that surround bottom-up levels in ``direction-optimizing`` are
``primitives.bitmaps``. Records: ``graph`` is (indptr, indices), ``search`` (parent, depth,
visited) (``bfs.steps``), ``bitmaps`` (front, nxt, cand) (``bottom_up_level_digraph``).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...primitives import cttz, fetch_add
from ...primitives.hints import prefetch
from ...primitives.bitmaps import BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint
from . import WORD_CHUNKS_PER_THREAD

__all__ = ["bottom_up_level", "bottom_up_level_digraph"]


@njit(cache=True)
def bottom_up_level(graph, search, bitmaps, level, nthreads):
    """``bottom_up_level_digraph`` on an undirected graph; returns (edges examined, found,
    m_f of next)."""
    edges, found, scout, _ = bottom_up_level_digraph(graph, None, search, bitmaps, level,
                                                     nthreads)
    return edges, found, scout


@njit(inline="always")
def _prefetch_lists(indptr, indices, cand, w):
    """Start loading the first adjacency entry of each candidate of word ``w``: the scan
    of a word waits on one cache miss per vertex, and the next word's misses overlap it
    (about 12-20 % of a SCALE 20-22 search, RESULTS.md)."""
    ahead = cand[w]
    base = as_uint(w) << WORD_SHIFT
    while ahead != ZERO:
        b = cttz(ahead)
        ahead ^= ONE << b
        prefetch(indices, indptr[base + b])


@njit(cache=True, parallel=True)
def bottom_up_level_digraph(graph, out_indptr, search, bitmaps, level, nthreads):
    """One bottom-up level; returns (edges examined, found, m_f of next, the found
    vertices' in-degree sum: what m_u loses).

    ``graph``: each vertex's in-neighbours, sorted (a directed graph's
    ``CSRGraph.in_edges``, else its CSR); ``out_indptr``: a directed graph's out-edge
    offsets (the next m_f counts out-degrees), or None: the graph is undirected.
    ``bitmaps``: (front, nxt, cand). ``cand``: the unvisited vertices worth a look; found
    vertices leave it (and join ``visited``), and so do vertices without in-neighbours
    (nothing can ever reach them). ``front``: the frontier; ``nxt`` gets the next one (every
    word written). Word chunks are claimed dynamically; a chunk's words of ``cand``, ``nxt``
    and ``visited`` are its own.
    """
    indptr, indices = graph
    parent, depth, visited = search
    front, nxt, cand = bitmaps
    nwords = front.shape[0]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    nchunks = max(1, min(nwords, WORD_CHUNKS_PER_THREAD * nthreads))
    counter = np.zeros(1, np.int64)
    res = np.zeros((nthreads, 4), np.int64)
    d = level + 1
    for t in prange(nthreads):
        examined = 0
        awake = 0
        scout = 0
        taken = 0
        while True:  # dynamic schedule (numba's prange has none): claim the next chunk
            c = fetch_add(counter, 0, np.int64(1))
            if c >= nchunks:
                break
            hi = (nwords * (c + 1)) // nchunks
            for w in range((nwords * c) // nchunks, hi):
                if w + 1 < hi:  # the next word's lists, fetched while this word is scanned
                    _prefetch_lists(indptr, indices, cand, w + 1)
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
                        taken += e - s
                        if out_indptr is not None:
                            scout += out_indptr[v + ONE] - out_indptr[v]
                        examined += k - s + 1
                    else:
                        examined += e - s
                nxt[w] = found
                cand[w] ^= found | dead
                visited[w] |= found
        res[t, 0] = examined
        res[t, 1] = awake
        res[t, 2] = taken if out_indptr is None else scout
        res[t, 3] = taken
    return res[:, 0].sum(), res[:, 1].sum(), res[:, 2].sum(), res[:, 3].sum()
