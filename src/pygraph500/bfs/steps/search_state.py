"""The arrays of one compiled search, its start and its end.

``new_search`` allocates the search record ``(parent, depth, visited)`` and the level log for
one search; ``mark_root`` starts it; ``end_search`` closes the level log and writes -1 for the
vertices never reached (``mark_unreached``, the only O(N) pass). See ``bfs.steps`` for what
each array holds.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...graph.types import index_dtype
from ...primitives.bitmaps import ALL_SET, ONE, new_bitmap
from ...primitives.bits import popcount
from .level_log import log_close, log_room, log_start, new_log

__all__ = ["new_search", "mark_root", "start_queue_search", "mark_unreached", "end_search"]

# At most this many vertices not reached are marked by one thread (``end_search``).
_SERIAL_UNREACHED = 1 << 14


def new_search(graph, with_depth=True):
    """((parent, depth, visited), log) for one search of ``graph``, allocated here and now.

    parent and depth are left uninitialised: the search writes the reached vertices and
    ``mark_unreached`` the others; depth is empty when not ``with_depth``. Nothing is reused
    between searches.
    """
    n = graph.num_vertices
    parent = np.empty(n, dtype=np.int64)
    depth = np.empty(n if with_depth else 0, dtype=index_dtype(n))
    return (parent, depth, new_bitmap(n)), new_log(n, graph.num_directed_edges)


@njit(cache=True)
def mark_root(search, root):
    """The root is its own parent, at depth 0, visited."""
    parent, depth, visited = search
    parent[root] = root
    if depth.shape[0]:
        depth[root] = 0
    visited[root >> 6] |= ONE << np.uint64(root & 63)


@njit(inline="always")
def start_queue_search(graph, search, q, root, log):
    """The start of every queue-driven search: the root marked, the level log started, the
    queue holding the root. Returns (queue start, queue end, level, m_f = the root's degree)."""
    indptr, _ = graph
    mark_root(search, root)
    log_start(log)
    q[0] = root
    return 0, 1, 0, indptr[root + 1] - indptr[root]


@njit(inline="always")
def _mark_words(parent, depth, visited, lo, hi):
    """parent = depth = -1 for the vertices of words ``lo:hi`` not in ``visited``."""
    n = parent.shape[0]
    keep_depth = depth.shape[0] != 0  # an empty depth array: depths not wanted
    for w in range(lo, hi):
        word = visited[w]
        if word == ALL_SET:
            continue
        base = w * 64
        for b in range(min(64, n - base)):
            if not (word >> np.uint64(b)) & ONE:
                parent[base + b] = -1
                if keep_depth:
                    depth[base + b] = -1


@njit(cache=True, parallel=True)
def mark_unreached(parent, depth, visited, nthreads):
    """parent = depth = -1 for every vertex not in ``visited`` (the only O(N) pass)."""
    nwords = visited.shape[0]
    nchunks = max(1, min(nwords, 4 * nthreads))
    for c in prange(nchunks):
        _mark_words(parent, depth, visited, (nwords * c) // nchunks, (nwords * (c + 1)) // nchunks)


@njit(cache=True)
def count_reached(visited):
    """The number of vertices in ``visited`` (one serial pass, N/64 words)."""
    total = 0
    for w in range(visited.shape[0]):
        total += popcount(visited[w])
    return total


@njit(cache=True)
def end_search(search, nthreads, log):
    """The end of every compiled search: close the level log's last batch and mark the
    vertices never reached: none when the search reached them all, by this thread when they
    are few, else by ``mark_unreached`` over all threads. Returns the log (grown if need
    be)."""
    parent, depth, visited = search
    log = log_room(log, 4)
    log_close(log)
    unreached = parent.shape[0] - count_reached(visited)
    if unreached > _SERIAL_UNREACHED:
        mark_unreached(parent, depth, visited, nthreads)
    elif unreached > 0:
        _mark_words(parent, depth, visited, 0, visited.shape[0])
    return log
