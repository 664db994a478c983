"""The array BFS's levels as hand-written GPU kernels (numba.cuda): thesis 4.2.3's queue BFS,
sort-unique's level around the device's sort, and direction-optimizing's top-down level.

``queue_level`` is the straightforward GPU BFS level as the thesis writes it: one thread per
queued vertex walks that vertex's adjacency list, claims every unvisited neighbour with a
compare-and-swap on its parent entry (-1 -> the queued vertex: exactly one thread wins a
vertex) and appends the winners to the next queue at a position taken with an atomic add.
Its load balance is the queue's degree distribution (a hub's thread walks the whole hub
list alone), which is what sort-unique's one-work-item-per-NLF-element design fixes.

``search`` runs the levels: on a GPU with CuPy arrays (numba.cuda reads them through
``__cuda_array_interface__``), and in CI under ``NUMBA_ENABLE_CUDASIM=1`` with NumPy arrays
(numba's simulator; small graphs only, it runs every thread in Python). The kernel counts
into a device array with a row per level (found, FRESH, NLF); a level reads back its found
count only (the next queue's length: the launch needs it), the statistics stay there.

The bottom-up step of ``direction-optimizing`` on a GPU, shared with the distributed array
engine, is ``primitives.cuda_steps.bottom_up_level``.

``top_down_level`` (with ``settle``) is the top-down step of the array
``direction-optimizing`` on a GPU, one launch where a sort-unique level takes about 25: a
thread per adjacency entry of the queue (its list found by a binary search in the queue's
degree prefix sum, so a hub's list is spread over as many threads as it has entries, where
gpu-queue gives it one), each unvisited neighbour claimed with an atomic minimum on its
parent entry. A claim is stored as ``parent - 2**62`` (negative, so the vertex still reads
as unvisited for the rest of the level, and ordered like the parents): the smallest
claiming parent wins, which is sort-unique's rule (sorting (vertex, parent) keys keeps the
smallest parent), so these parents are determinate and equal the NumPy search's. The thread
whose minimum found no claim yet appends the vertex to the next queue (a slot per block
from one global atomic add); ``settle``, the second launch, turns the claims into parents
and writes the depths. The counts (next queue, its edges, FRESH) stay in a device row.

``gather_keys`` and ``settle_sorted`` are a sort-unique level (thesis 4.3.2) on a GPU, the
keys sorted between them: the first is step B (a thread per adjacency entry of the queue,
found by the same binary search, ``entry``) with the visited test and the key packing
``v * n + parent``, appending only the unvisited elements' keys; the second, a thread per
sorted key, keeps each vertex's first key (its smallest parent), writes parent and depth and
appends the next queue. Three launches a level where the whole-array steps take about 25,
each NLF element read once instead of passing through a dozen temporary arrays (in the
H200's slowest SCALE 24 search of the whole-array form, its binary-search and update phases
took 57 ms of 139, its prune phases, the sort with its passes over the keys, 78).

CuPy arrays go to the kernels through ``backend.cuda_launch.device_view`` (no stream
synchronisation per argument). The kernels take records: ``graph`` (indptr, indices) and
``front`` (the queue, its length, the inclusive prefix sum of its degrees, its adjacency
entries).
"""
from __future__ import annotations

import numpy as np
from numba import cuda

from ...backend.cuda_launch import device_view, hush_small_grids
from ...primitives.xp_steps import SPARE
from ...primitives.cuda_steps import NONE, THREADS, blocks, depth_arg

__all__ = ["LevelCounts", "queue_level", "search", "entry", "top_down_level", "settle",
           "top_down_search_step", "gather_keys", "settle_sorted", "sort_unique_search_step"]

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


def _graph(indptr, indices) -> tuple:
    """The kernels' ``graph`` record: (indptr, indices), as a launch takes them."""
    return device_view(indptr), device_view(indices)


def _front(queue, qlen, ends, total) -> tuple:
    """The kernels' ``front`` record: the queue's vertices, their count, the inclusive
    prefix sum of their degrees and its last value (the queue's adjacency entries)."""
    return device_view(queue), qlen, device_view(ends), total


@cuda.jit
def queue_level(graph, queue, qlen, parent, depth, level, nxt, counts):
    """One level from ``queue[:qlen]`` into ``nxt`` (``graph``: indptr, indices);
    ``counts[0]``: vertices appended, ``counts[1]``: NLF elements found unvisited when read
    (FRESH; unpruned: also its LV), ``counts[2]``: the queue's adjacency entries (NLF)."""
    indptr, indices = graph
    t = cuda.grid(1)
    if t >= qlen:
        return
    u = queue[t]
    cuda.atomic.add(counts, 2, indptr[u + 1] - indptr[u])
    for k in range(indptr[u], indptr[u + 1]):
        v = indices[k]
        if parent[v] == NONE:
            cuda.atomic.add(counts, 1, 1)
            if cuda.atomic.cas(parent, v, NONE, u) == NONE:
                if depth.shape[0] > 0:
                    depth[v] = level + 1
                nxt[cuda.atomic.add(counts, 0, 1)] = v


def search(backend, indptr, indices, parent, depth, root, rec):
    """Every level of a gpu-queue search from ``root`` (``parent`` and ``depth``, with spare
    slots, already hold it); ``rec`` (a ``LevelRecorder`` with ``prunes=False``) records
    thesis Table 4.1 per level (one fused phase: expand)."""
    xp = backend.xp
    n = parent.shape[0] - SPARE
    bufs = [xp.empty(max(1, n), dtype=np.int64), xp.empty(max(1, n), dtype=np.int64)]
    bufs[0][0] = root
    qlen = 1
    counts = LevelCounts(xp, 3)  # per level: found, FRESH, NLF
    depths = depth_arg(xp, depth)
    level = 0
    while qlen:
        q, nxt = bufs[level % 2], bufs[(level + 1) % 2]
        rec.start(qlen, None)
        row = counts.row(level)
        queue_level[blocks(qlen), THREADS](_graph(indptr, indices), device_view(q), qlen,
                                           device_view(parent), device_view(depths), level,
                                           device_view(nxt), device_view(row))
        rec.lap("expand")
        rec.device(fresh=row[1], nlf=row[2])  # LV: FRESH (``rec`` made with prunes=False)
        qlen = int(backend.to_host(row[:1])[0])  # the level's one host read
        level += 1
    return parent, depth


@cuda.jit(device=True)
def entry(graph, front, e):
    """(u, v): adjacency entry ``e`` of the queue is u's list's entry naming v; ``ends``: the
    inclusive prefix sum of the queue's degrees, searched for the first list ending after e
    (a hub's list spread over as many threads as it has entries)."""
    indptr, indices = graph
    queue, qlen, ends, total = front
    lo = 0
    hi = qlen - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if ends[mid] > e:
            hi = mid
        else:
            lo = mid + 1
    u = queue[lo]
    return u, indices[indptr[u + 1] - (ends[lo] - e)]


@cuda.jit
def top_down_level(graph, front, parent, nxt, counts):
    """One top-down level over the ``total`` adjacency entries of ``queue[:qlen]`` (``front``:
    queue, qlen, ends, total; ``ends``: the inclusive prefix sum of their degrees), a thread
    per entry: an unvisited neighbour is claimed with an atomic minimum of
    ``parent + _CLAIM``; the first claim appends it to ``nxt``. ``counts``: [0] vertices
    appended, [1] their adjacency entries, [2] entries found unvisited (FRESH). Every thread
    reaches the block's barriers (no early return)."""
    indptr = graph[0]
    total = front[3]
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
    v = NONE
    if e < total:
        u, v = entry(graph, front, e)
        if parent[v] < 0:
            fresh = np.int32(1)
            if cuda.atomic.min(parent, v, u + _CLAIM) == NONE:
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


def top_down_search_step(st, level, row, most, rec) -> int:
    """One top-down level of the search ``st`` (``bfs.array.steps.Search``) by
    ``top_down_level`` and ``settle``, counted in the zeroed device ``row`` (next queue's
    length, its edges, FRESH) and recorded in ``rec``, as ``queue_based.top_down_level`` does its
    sort-unique form; ``most``: a host bound on the vertices it can find (the settle grid).
    Returns the next queue's length (the level's one host read)."""
    xp, q = st.xp, st.queue
    rec.start(st.nq, st.m)
    ends = xp.cumsum(st.deg[q])
    rec.lap("expand")
    if st.m:
        nxt = device_view(st.next_queue)
        top_down_level[blocks(st.m), THREADS](
            _graph(st.indptr, st.indices), _front(q, st.nq, ends, st.m),
            device_view(st.parent), nxt, device_view(row))
        rec.lap("search")
        if most:
            settle[blocks(most), THREADS](nxt, device_view(row), device_view(st.parent),
                                           device_view(depth_arg(xp, st.depth)), level)
    rec.device(fresh=row[2])
    rec.lap("update")
    return st.advance(row[0], row[1])


@cuda.jit
def gather_keys(graph, front, parent, n, keys, counts):
    """Sort-unique's steps B and the key packing in one launch, a thread per adjacency entry
    of ``queue[:qlen]`` (``front`` as in ``top_down_level``): each NLF element whose vertex v
    is unvisited appends the key ``v * n + u`` (u its parent) to ``keys`` (a slot per block
    from one atomic add on ``counts[2]``, which ends as FRESH). ``keys`` was filled with the
    sentinel ``n * n`` beyond them. Every thread reaches the block's barriers."""
    total = front[3]
    e = cuda.grid(1)
    tid = cuda.threadIdx.x
    block = cuda.shared.array(2, np.int64)  # the block's keys, their first slot
    if tid == 0:
        block[0] = 0
    cuda.syncthreads()
    fresh = False
    rank = 0
    key = NONE
    if e < total:
        u, v = entry(graph, front, e)
        if parent[v] < 0:
            fresh = True
            rank = cuda.atomic.add(block, 0, 1)
            key = v * n + u
    cuda.syncthreads()
    if tid == 0 and block[0]:
        block[1] = cuda.atomic.add(counts, 2, block[0])
    cuda.syncthreads()
    if fresh and block[1] + rank < keys.shape[0]:  # always, on a symmetric graph (m_u bounds
        keys[block[1] + rank] = key               # them); never a write past the buffer


@cuda.jit
def settle_sorted(ordered, indptr, parent, depth, level, nxt, counts):
    """Sort-unique's unique and update steps in one launch over the sorted keys
    (``ordered``: keys, most, n; ``keys[:most]``, each ``v * n + parent``): the first key of
    each vertex v (the smallest parent) makes v's parent (and depth) and appends v to
    ``nxt``; ``counts``: [0] vertices appended, [1] their adjacency entries. Sentinel keys
    (vertex n) are skipped. Every thread reaches the block's barriers."""
    keys, most, n = ordered
    t = cuda.grid(1)
    tid = cuda.threadIdx.x
    block = cuda.shared.array(3, np.int64)  # the block's vertices, their entries, first slot
    if tid == 0:
        block[0] = 0
        block[1] = 0
    cuda.syncthreads()
    won = False
    rank = 0
    v = NONE
    if t < most:
        key = keys[t]
        v = key // n
        if v < n and (t == 0 or keys[t - 1] // n != v):
            parent[v] = key - v * n
            if depth.shape[0] > 0:
                depth[v] = level + 1
            won = True
            rank = cuda.atomic.add(block, 0, 1)
            cuda.atomic.add(block, 1, indptr[v + 1] - indptr[v])
    cuda.syncthreads()
    if tid == 0 and block[0]:
        block[2] = cuda.atomic.add(counts, 0, block[0])
        cuda.atomic.add(counts, 1, block[1])
    cuda.syncthreads()
    if won:
        nxt[block[2] + rank] = v


def sort_unique_search_step(st, level, row, rec) -> int:
    """One sort-unique level of the search ``st`` (thesis 4.3.2) as a device runs it:
    expand (the queue's degree prefix sum), ``gather_keys``, the keys sorted in place
    (CuPy: the device's radix sort), ``settle_sorted``; counted in the zeroed device ``row``
    and recorded in ``rec`` with the phases of the array form. The keys buffer holds
    ``min(m, m_u)`` keys (the unvisited NLF elements are entries of unvisited lists), the
    unused ones the sentinel. The parents equal the array form's: the smallest of each
    vertex. Returns the next queue's length (the level's one host read)."""
    xp, q, n = st.xp, st.queue, st.n
    rec.start(st.nq, st.m)
    ends = xp.cumsum(st.deg[q])
    most = min(st.m, st.m_u)
    rec.lap("expand")
    if most:
        keys = xp.full(most, n * n, dtype=np.int64)
        gather_keys[blocks(st.m), THREADS](
            _graph(st.indptr, st.indices), _front(q, st.nq, ends, st.m),
            device_view(st.parent), n, device_view(keys), device_view(row))
        rec.lap("search")
        keys.sort()
        rec.lap("prune")
        settle_sorted[blocks(most), THREADS](
            (device_view(keys), most, n), device_view(st.indptr), device_view(st.parent),
            device_view(depth_arg(xp, st.depth)), level, device_view(st.next_queue),
            device_view(row))
    rec.device(fresh=row[2])
    rec.lap("update")
    return st.advance(row[0], row[1])
