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

``bottom_up_level`` is the bottom-up step of the array ``direction-optimizing`` (and of the
distributed array engine) on a GPU: one thread per candidate (an unvisited vertex with
neighbours) reads its list until the first neighbour in the frontier mask and takes it as
its parent. Stopping at that neighbour is what makes a bottom-up level cheap (Beamer: most
candidates stop within a few entries); the whole-array form
(``primitives.arrays.bottom_up_step``) cannot stop and reads every list whole. Each
candidate writes only its own entries, so the parents are determinate (the first frontier
neighbour in list order). The kernel also appends each candidate to the next queue or to the
candidates left (a slot per block from one atomic add, so the lists' order is not
determinate, which no later level depends on), where the array form needs two compactions.

``top_down_level`` (with ``settle``) is the top-down step of the array
``direction-optimizing`` on a GPU, one launch where a sort-unique level takes about 25: a
thread per adjacency entry of the queue (its list found by a binary search in the queue's
degree prefix sum, so a hub's list is spread over as many threads as it has entries, where
gpu-queue gives it one), each unvisited neighbour claimed with an atomic minimum on its
parent entry. A claim is stored as ``parent - 2**62`` (negative, so the vertex still reads
as unvisited for the rest of the level, and ordered like the parents): the smallest
claiming parent wins, which is sort-unique's rule (sorting (vertex, parent) keys keeps the
smallest parent), so the tree is determinate and equals the NumPy search's. The thread
whose minimum found no claim yet appends the vertex to the next queue (a slot per block
from one global atomic add); ``settle``, the second launch, turns the claims into parents
and writes the depths. The counts (next queue, its edges, LV) stay in a device row.

CuPy arrays go to the kernels through ``backend.cuda_launch.device_view`` (no stream
synchronisation per argument).
"""
from __future__ import annotations

import numpy as np
from numba import cuda

from ...backend.cuda_launch import device_view, hush_small_grids
from ...primitives.arrays import SPARE

__all__ = ["THREADS", "LevelCounts", "queue_level", "search", "bottom_up_level",
           "bottom_up_search_step", "top_down_level", "settle", "top_down_search_step"]

THREADS = 256  # threads per block

_NONE = np.int64(-1)
_CLAIM = np.int64(-(1 << 62))  # a claim during a top-down level: the parent + _CLAIM
hush_small_grids()


class LevelCounts:
    """Per-level counters on the device, a zeroed row per level (``row(level)``), so that a
    level's kernels count without a reset launch and the statistics are read after the
    search; the rows double when the levels outnumber them."""

    def __init__(self, xp, width: int):
        self.xp, self.rows = xp, xp.zeros((32, width), dtype=np.int64)

    def row(self, level: int):
        k = self.rows.shape[0]
        if level == k:
            grown = self.xp.zeros((2 * k, self.rows.shape[1]), dtype=np.int64)
            grown[:k] = self.rows
            self.rows = grown
        return self.rows[level]


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
    counts = LevelCounts(xp, 3)  # per level: found, LV, NLF
    depth_arg = _depth_arg(xp, depth)
    level = 0
    while qlen:
        q, nxt = bufs[level % 2], bufs[(level + 1) % 2]
        rec.start(qlen, None)
        blocks = _blocks(qlen)
        row = counts.row(level)
        queue_level[blocks, THREADS](*map(device_view, (indptr, indices, q)), qlen,
                                     device_view(parent), device_view(depth_arg), level,
                                     device_view(nxt), device_view(row))
        rec.lap("expand")
        rec.device(lv=row[1], nlf=row[2])
        qlen = int(backend.to_host(row[:1])[0])  # the level's one host read
        level += 1
    return parent, depth


@cuda.jit
def bottom_up_level(indptr, indices, cand, ncand, front, parent, depth, level, nxt, found,
                    left, counts):
    """One bottom-up level: candidate ``cand[t]`` takes the first neighbour in ``front`` as
    its parent (and depth level + 1) and joins ``nxt`` (the next frontier mask) and
    ``found`` (the next queue), or else ``left`` (the candidates left); both lists take a
    slot per block from one global atomic add. ``counts``: [0] vertices found, [1] their
    adjacency entries, [2] candidates left. Every thread reaches the block's barriers."""
    t = cuda.grid(1)
    tid = cuda.threadIdx.x
    block = cuda.shared.array(5, np.int64)  # found, their entries, left; first slots of both
    if tid == 0:
        block[0] = 0
        block[1] = 0
        block[2] = 0
    cuda.syncthreads()
    mine = t < ncand
    hit = False
    rank = 0
    v = _NONE
    if mine:
        v = cand[t]
        for k in range(indptr[v], indptr[v + 1]):
            u = indices[k]
            if front[u]:
                parent[v] = u
                if depth.shape[0] > 0:
                    depth[v] = level + 1
                hit = True
                break
        if hit:
            nxt[v] = True
            rank = cuda.atomic.add(block, 0, 1)
            cuda.atomic.add(block, 1, indptr[v + 1] - indptr[v])
        else:
            rank = cuda.atomic.add(block, 2, 1)
    cuda.syncthreads()
    if tid == 0:
        if block[0]:
            block[3] = cuda.atomic.add(counts, 0, block[0])
            cuda.atomic.add(counts, 1, block[1])
        if block[2]:
            block[4] = cuda.atomic.add(counts, 2, block[2])
    cuda.syncthreads()
    if hit:
        found[block[3] + rank] = v
    elif mine:
        left[block[4] + rank] = v


def bottom_up_search_step(xp, indptr, indices, parent, depth, level, front, cand, nxt, found,
                          left, row):
    """``bottom_up_level`` over the candidates ``cand`` (``nxt``, the next frontier mask,
    cleared first): the vertices found go to ``found``, the others to ``left``, counted in
    the zeroed device ``row`` (found, their edges, left)."""
    ncand = cand.shape[0]
    nxt.fill(False)
    if ncand:
        bottom_up_level[_blocks(ncand), THREADS](
            *map(device_view, (indptr, indices, cand)), ncand,
            *map(device_view, (front, parent, _depth_arg(xp, depth))), level,
            *map(device_view, (nxt, found, left, row)))


@cuda.jit
def top_down_level(indptr, indices, queue, qlen, ends, total, parent, nxt, counts):
    """One top-down level over the ``total`` adjacency entries of ``queue[:qlen]`` (``ends``:
    the inclusive prefix sum of their degrees), a thread per entry: an unvisited neighbour
    is claimed with an atomic minimum of ``parent + _CLAIM``; the first claim appends it to
    ``nxt``. ``counts``: [0] vertices appended, [1] their adjacency entries, [2] entries
    found unvisited (LV). Every thread reaches the block's barriers (no early return)."""
    e = cuda.grid(1)
    tid = cuda.threadIdx.x
    block = cuda.shared.array(3, np.int64)  # the block's appends, their entries, first slot
    if tid == 0:
        block[0] = 0
        block[1] = 0
    cuda.syncthreads()
    fresh = np.int32(0)  # an int: syncthreads_count takes no bool on a device
    won = False
    rank = 0
    v = _NONE
    if e < total:
        lo = 0
        hi = qlen - 1
        while lo < hi:  # the first list ending after e
            mid = (lo + hi) // 2
            if ends[mid] > e:
                hi = mid
            else:
                lo = mid + 1
        u = queue[lo]
        v = indices[indptr[u + 1] - (ends[lo] - e)]
        if parent[v] < 0:
            fresh = np.int32(1)
            if cuda.atomic.min(parent, v, u + _CLAIM) == _NONE:
                won = True
                rank = cuda.atomic.add(block, 0, 1)
                cuda.atomic.add(block, 1, indptr[v + 1] - indptr[v])
    nfresh = cuda.syncthreads_count(fresh)
    if tid == 0:
        if block[0]:
            block[2] = cuda.atomic.add(counts, 0, block[0])
            cuda.atomic.add(counts, 1, block[1])
        if nfresh:
            cuda.atomic.add(counts, 2, nfresh)
    cuda.syncthreads()
    if won:
        nxt[block[2] + rank] = v


@cuda.jit
def settle(nxt, counts, parent, depth, level):
    """The claims of a ``top_down_level`` made parents (``nxt[:counts[0]]``), with depths."""
    t = cuda.grid(1)
    if t < counts[0]:
        v = nxt[t]
        parent[v] -= _CLAIM
        if depth.shape[0] > 0:
            depth[v] = level + 1


def top_down_search_step(st, level, row, most, rec):
    """One top-down level of the search ``st`` (``bfs.array.steps.Search``) by
    ``top_down_level`` and ``settle``, counted in the device ``row`` (next queue's length,
    its edges, LV); ``most``: a host bound on the vertices it can find (the settle grid)."""
    xp, q = st.xp, st.queue
    ends = xp.cumsum(st.deg[q])
    rec.lap("expand")
    if st.m:
        nxt = device_view(st.next_queue)
        top_down_level[_blocks(st.m), THREADS](
            *map(device_view, (st.indptr, st.indices, q)), st.nq, device_view(ends), st.m,
            device_view(st.parent), nxt, device_view(row))
        rec.lap("search")
        if most:
            settle[_blocks(most), THREADS](nxt, device_view(row), device_view(st.parent),
                                           device_view(_depth_arg(xp, st.depth)), level)
    rec.lap("update")


def _blocks(threads: int) -> int:
    return (threads + THREADS - 1) // THREADS


def _depth_arg(xp, depth):
    """The kernels' depth argument: an empty array when the search keeps no depths."""
    return depth if depth is not None else xp.empty(0, dtype=np.int64)
