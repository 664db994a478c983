"""The hand-written GPU kernel of the array backend: thesis 4.2.3's queue BFS, numba.cuda.

``queue_level`` is the straightforward GPU BFS level as the thesis writes it: one thread per
queued vertex walks that vertex's adjacency list, claims every unvisited neighbour with a
compare-and-swap on its parent entry (-1 -> the queued vertex: exactly one thread wins a
vertex) and appends the winners to the next queue at a position taken with an atomic add.
Its load balance is the queue's degree distribution (a hub's thread walks the whole hub
list alone), which is what sort-unique's one-work-item-per-NLF-element design fixes.

``search`` runs the levels: on a GPU with CuPy arrays (numba.cuda reads them through
``__cuda_array_interface__``), and in CI under ``NUMBA_ENABLE_CUDASIM=1`` with NumPy arrays
(numba's simulator; small graphs only, it runs every thread in Python).
"""
from __future__ import annotations

import numpy as np
from numba import cuda

__all__ = ["THREADS", "queue_level", "search"]

THREADS = 256  # threads per block

_NONE = np.int64(-1)


@cuda.jit
def queue_level(indptr, indices, queue, qlen, parent, depth, level, nxt, counts):
    """One level from ``queue[:qlen]`` into ``nxt``; ``counts[0]``: vertices appended,
    ``counts[1]``: NLF elements found unvisited when read (thesis Table 4.1's LV)."""
    t = cuda.grid(1)
    if t >= qlen:
        return
    u = queue[t]
    for k in range(indptr[u], indptr[u + 1]):
        v = indices[k]
        if parent[v] == _NONE:
            cuda.atomic.add(counts, 1, 1)
            if cuda.atomic.cas(parent, v, _NONE, u) == _NONE:
                if depth.shape[0] > 0:
                    depth[v] = level + 1
                nxt[cuda.atomic.add(counts, 0, 1)] = v


def search(backend, indptr, indices, parent, depth, root, rec):
    """Every level of a gpu-queue search from ``root`` (``parent`` and ``depth`` already
    hold it); ``rec`` records thesis Table 4.1 per level (one fused phase: expand)."""
    xp = backend.xp
    n = parent.shape[0]
    bufs = [xp.empty(max(1, n), dtype=np.int64), xp.empty(max(1, n), dtype=np.int64)]
    bufs[0][0] = root
    qlen = 1
    counts = xp.zeros(2, dtype=np.int64)
    depth_arg = depth if depth is not None else xp.empty(0, dtype=np.int64)
    level = 0
    while qlen:
        q, nxt = bufs[level % 2], bufs[(level + 1) % 2]
        rec.start()
        m = int((indptr[q[:qlen] + 1] - indptr[q[:qlen]]).sum())
        counts[:] = 0
        blocks = (qlen + THREADS - 1) // THREADS
        queue_level[blocks, THREADS](indptr, indices, q, qlen, parent, depth_arg, level, nxt,
                                     counts)
        found, unvisited = (int(c) for c in backend.to_host(counts))
        rec.level(qlen, m, unvisited, found, (rec.lap(), 0.0, 0.0, 0.0))
        qlen = found
        level += 1
    return parent, depth
