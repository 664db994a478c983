"""The hand-written GPU kernel of the array backend: thesis 4.2.3's queue BFS, numba.cuda.

``queue_level`` is the straightforward GPU BFS level as the thesis writes it: one thread per
queued vertex walks that vertex's adjacency list, claims every unvisited neighbour with a
compare-and-swap on its parent entry (-1 -> the queued vertex: exactly one thread wins a
vertex) and appends the winners to the next queue at a position taken with an atomic add.
Its load balance is the queue's degree distribution (a hub's thread walks the whole hub
list alone), which is what sort-unique's one-work-item-per-NLF-element design fixes.

``search`` runs the levels: on a GPU with CuPy arrays (numba.cuda reads them through
``__cuda_array_interface__``), and in CI under ``NUMBA_ENABLE_CUDASIM=1`` with NumPy arrays
(numba's simulator; small graphs only, it runs every thread in Python). The kernel counts
into a device array with a row per level (found, LV, NLF); a level reads back its found
count only (the next queue's length: the launch needs it), the statistics stay there.
"""
from __future__ import annotations

import numpy as np
from numba import cuda

from ...primitives.arrays import SPARE

__all__ = ["THREADS", "queue_level", "search"]

THREADS = 256  # threads per block

_NONE = np.int64(-1)


@cuda.jit
def queue_level(indptr, indices, queue, qlen, parent, depth, level, nxt, counts):
    """One level from ``queue[:qlen]`` into ``nxt``; ``counts[0]``: vertices appended,
    ``counts[1]``: NLF elements found unvisited when read (thesis Table 4.1's LV),
    ``counts[2]``: the queue's adjacency entries (NLF)."""
    t = cuda.grid(1)
    if t >= qlen:
        return
    u = queue[t]
    cuda.atomic.add(counts, 2, indptr[u + 1] - indptr[u])
    for k in range(indptr[u], indptr[u + 1]):
        v = indices[k]
        if parent[v] == _NONE:
            cuda.atomic.add(counts, 1, 1)
            if cuda.atomic.cas(parent, v, _NONE, u) == _NONE:
                if depth.shape[0] > 0:
                    depth[v] = level + 1
                nxt[cuda.atomic.add(counts, 0, 1)] = v


def search(backend, indptr, indices, parent, depth, root, rec):
    """Every level of a gpu-queue search from ``root`` (``parent`` and ``depth``, with spare
    slots, already hold it); ``rec`` records thesis Table 4.1 per level (one fused phase:
    expand)."""
    xp = backend.xp
    n = parent.shape[0] - SPARE
    bufs = [xp.empty(max(1, n), dtype=np.int64), xp.empty(max(1, n), dtype=np.int64)]
    bufs[0][0] = root
    qlen = 1
    counts = xp.zeros((32, 3), dtype=np.int64)  # per level: found, LV, NLF
    depth_arg = depth if depth is not None else xp.empty(0, dtype=np.int64)
    level = 0
    while qlen:
        if level == counts.shape[0]:  # more levels than rows: twice the rows
            grown = xp.zeros((2 * level, 3), dtype=np.int64)
            grown[:level] = counts
            counts = grown
        q, nxt = bufs[level % 2], bufs[(level + 1) % 2]
        rec.start(qlen, None)
        blocks = (qlen + THREADS - 1) // THREADS
        row = counts[level]
        queue_level[blocks, THREADS](indptr, indices, q, qlen, parent, depth_arg, level, nxt,
                                     row)
        rec.lap("expand")
        rec.device(lv=row[1], nlf=row[2])
        qlen = int(backend.to_host(row[:1])[0])  # the level's one host read
        level += 1
    return parent, depth
