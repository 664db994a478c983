"""The hand-written GPU kernels of the array backend (numba.cuda): thesis 4.2.3's queue BFS
and Beamer's bottom-up step.

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

``bottom_up_level`` is the bottom-up step of the array ``direction-optimizing`` on a GPU:
one thread per candidate (an unvisited vertex with neighbours) reads its list until the
first neighbour in the frontier mask and takes it as its parent. Stopping at that neighbour
is what makes a bottom-up level cheap (Beamer: most candidates stop within a few entries);
the whole-array form (``primitives.arrays.bottom_up_step``) cannot stop and reads every list
whole. Each candidate writes only its own entries, so the result is determinate (the first
frontier neighbour in list order), with no atomics.

CuPy arrays go to the kernels through ``backend.cuda_launch.device_view`` (no stream
synchronisation per argument).
"""
from __future__ import annotations

import numpy as np
from numba import cuda

from ...backend.cuda_launch import device_view, hush_small_grids
from ...primitives.arrays import SPARE

__all__ = ["THREADS", "queue_level", "search", "bottom_up_level", "bottom_up_search_step"]

THREADS = 256  # threads per block

_NONE = np.int64(-1)
hush_small_grids()


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
        queue_level[blocks, THREADS](*map(device_view, (indptr, indices, q)), qlen,
                                     device_view(parent), device_view(depth_arg), level,
                                     device_view(nxt), device_view(row))
        rec.lap("expand")
        rec.device(lv=row[1], nlf=row[2])
        qlen = int(backend.to_host(row[:1])[0])  # the level's one host read
        level += 1
    return parent, depth


@cuda.jit
def bottom_up_level(indptr, indices, cand, ncand, front, parent, depth, level, found, nxt):
    """One bottom-up level: candidate ``cand[t]`` takes the first neighbour in ``front`` as
    its parent (and depth level + 1); ``found[t]`` and ``nxt[v]`` (the next frontier mask)
    say whether it found one."""
    t = cuda.grid(1)
    if t >= ncand:
        return
    v = cand[t]
    hit = False
    for k in range(indptr[v], indptr[v + 1]):
        u = indices[k]
        if front[u]:
            parent[v] = u
            if depth.shape[0] > 0:
                depth[v] = level + 1
            hit = True
            break
    found[t] = hit
    if hit:
        nxt[v] = True


def bottom_up_search_step(xp, indptr, indices, parent, depth, level, front, cand, nxt):
    """``bottom_up_level`` over the candidates ``cand`` (``nxt``, the next frontier mask,
    cleared first); returns the flag per candidate (on the device)."""
    ncand = cand.shape[0]
    found = xp.empty(ncand, dtype=bool)
    nxt.fill(False)
    if ncand:
        depth_arg = depth if depth is not None else xp.empty(0, dtype=np.int64)
        blocks = (ncand + THREADS - 1) // THREADS
        bottom_up_level[blocks, THREADS](*map(device_view, (indptr, indices, cand)), ncand,
                                         *map(device_view, (front, parent, depth_arg)), level,
                                         device_view(found), device_view(nxt))
    return found
