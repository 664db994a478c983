"""The queue-based BFS algorithms of the array backend: one level loop, four ways to turn
the Next Level Frontier into the next queue (its top-down level, ``top_down_level``, and a
search's start, ``prepare``, are the other array algorithms' too).

Every level: expand the queue (``queue_offsets``: degrees, prefix sum), gather the NLF with
its parent payload (``gather``: binary search per element), drop the visited, prune, write
the parents and make the next queue. The algorithms differ in the pruning:

- ``gpu-queue``: thesis 4.2.3, the straightforward GPU BFS, no pruning. On a GPU it is the
  hand-written kernel of ``cuda_levels.py``: one thread per queued vertex walks its list and
  claims with a compare-and-swap. On NumPy (and wherever ``kernel=False``) the same search
  in whole-array steps: every unvisited NLF element tries to claim its vertex by a scatter
  of the parents read back (the element whose parent stayed won); the winners are the next
  queue.
- ``sort-unique``: thesis 4.3.2: sort the (vertex, parent) pairs, keep one per vertex. On a
  GPU (and wherever ``kernel=True``) a level is three launches, the sort between two
  numba.cuda kernels (``cuda_levels.gather_keys``, ``cuda_levels.settle_sorted``), where the
  whole-array steps take about 25 and pass each NLF element through memory a dozen times.
- ``bitmap-filter``: thesis 5.3's space-time trade-off: no sort; a per-vertex scratch array
  (allocated once per search) decides which element of each vertex wins.
- ``frontier-mask``: paper 004's linear-work BFS: mark the unvisited NLF vertices in a
  per-vertex mask and compact it over all N vertices, which also removes the duplicates: by
  a prefix scan, or, while the frontier has fewer than ``serial_below`` vertices (the
  paper's 512), by one sequential pass over the mask (``mask_queue``).

All take ``backend`` ("cpu": NumPy, "gpu": CuPy, "auto", "numpy-checked", or an
ArrayBackend), return the parent array on the host (``on_device=True``: where it was
computed) and record thesis Table 4.1 per level (``steps.LevelRecorder``). A level reads one
thing back from the device: the next queue's length and adjacency entries, together.
"""
from __future__ import annotations

import numpy as np

from ...backend.arrays import ArrayBackend, get_backend
from ...errors import InputError, shown
from ..types import check_root
from ...primitives.xp_steps import (SPARE, claim, compact, gather, put, queue_offsets,
                                    sort_unique, spill)
from .steps import (LevelRecorder, Search, as_backend_graph, check_memory, finish_result,
                    new_parent)

__all__ = ["bfs_gpu_queue", "bfs_sort_unique", "bfs_bitmap_filter", "bfs_frontier_mask",
           "resolve_backend", "prepare", "top_down_level", "mask_queue", "SERIAL_BELOW"]

# frontier-mask: frontiers of fewer vertices are compacted by one sequential pass, not the
# prefix scan (paper 004: "set to a value of 512, based on some experiments")
SERIAL_BELOW = 512


def resolve_backend(backend) -> ArrayBackend:
    return backend if isinstance(backend, ArrayBackend) else get_backend(backend)


def prepare(graph, root, backend):
    """(backend, xp, root, N, indptr, indices) of a search, the memory checked first."""
    be = resolve_backend(backend)
    r = check_root(graph, root)
    check_memory(graph, be)
    indptr, indices = as_backend_graph(graph, be)
    return be, be.xp, r, graph.num_vertices, indptr, indices


def top_down_level(st: Search, level: int, prune: str, rec, scratch=None, mask=None,
                   serial=False) -> int:
    """One top-down level from the queue of ``st``: expand, gather, drop the visited, prune
    as ``prune`` says, write parents (and depths), make the next queue; records the level in
    ``rec``; returns the next queue's length (the level's one host read). ``scratch``
    (bitmap-filter) and ``mask`` (frontier-mask): per-vertex arrays with spare slots;
    ``serial`` (frontier-mask): the mask compacted by ``mask_queue``'s sequential pass."""
    xp, n, parent, q = st.xp, st.n, st.parent, st.queue
    rec.start(st.nq, st.m)
    start, newoff, _ = queue_offsets(xp, st.indptr, q)
    rec.lap("expand")
    v, p = gather(xp, st.indices, q, start, newoff, st.m)
    rec.lap("search")
    fresh = parent[v] < 0
    slots = spill(xp, st.m, n)  # where the elements that write nowhere write
    rec.device(fresh=xp.count_nonzero(fresh))  # gpu-queue prunes none: its LV (see rec)
    take = None
    if prune == "sort-unique":  # fresh elements are entries of unvisited lists: <= m_u
        v, p, take = sort_unique(xp, v, p, fresh, n, most=st.m_u)
        slots = slots[:v.shape[0]]
    elif prune == "bitmap-filter":
        take = claim(xp, v, fresh, scratch, slots)
    elif prune == "frontier-mask":
        put(xp, mask, v, True, fresh, slots)
    rec.lap("prune")
    if take is None:  # gpu-queue, frontier-mask: every fresh element writes; one write wins
        put(xp, parent, v, p, fresh, slots)
        if prune == "gpu-queue":
            take = fresh & (parent[v] == p)  # the element whose parent stayed
    else:
        put(xp, parent, v, p, take, slots)
    if st.depth is not None:
        put(xp, st.depth, v, level + 1, fresh if take is None else take, slots)
    if take is None:  # frontier-mask: the next queue is the mask, compacted over all N
        front = mask[:n]
        nq = mask_queue(st, front, serial)
        m = xp.where(front, st.deg[:n], 0).sum()
        put(xp, mask, v, False, fresh, slots)
    else:
        nq = compact(xp, take, v, st.next_queue, slots)
        m = xp.where(take, st.deg[v], 0).sum()
    rec.lap("update")
    return st.advance(nq, m)


def mask_queue(st: Search, front, serial: bool):
    """The next queue: the vertices set in the frontier mask ``front`` (all N), in vertex
    order, written to ``st.next_queue``; returns their count. By a prefix scan of the mask
    (``compact``: parallel, its cost the same for any frontier), or, ``serial``, by one
    sequential pass over it (paper 004's choice for short frontiers, where the scan's passes
    cost more than they share out). The pass is NumPy's: on a device it would be one thread
    and a read of the count (a second host read per level), so a device always scans."""
    if serial and st.xp is np:
        found = np.flatnonzero(front)
        st.next_queue[:found.shape[0]] = found
        return found.shape[0]
    return compact(st.xp, front, st.ids, st.next_queue, st.slots_n)


def _search(graph, root, backend, prune, depth, on_device, kernel=False, serial_below=0):
    be, xp, r, n, indptr, indices = prepare(graph, root, backend)
    st = Search(be, indptr, indices, n, r, depth)
    scratch = xp.empty(n + SPARE, dtype=np.int64) if prune == "bitmap-filter" else None
    mask = None
    if prune == "frontier-mask":
        mask = xp.zeros(n + SPARE, dtype=bool)
        st.scans()
    if kernel:  # sort-unique's kernel form
        from .cuda_levels import LevelCounts, sort_unique_search_step
        counts = LevelCounts(xp, 3)  # per level: next queue, its edges, FRESH
    rec = LevelRecorder(be, prunes=prune != "gpu-queue")
    level = 0
    serial = []  # frontier-mask: per level, whether the mask was compacted by one pass
    while st.nq:
        if kernel:
            sort_unique_search_step(st, level, counts.row(level), rec)
        else:
            serial.append(prune == "frontier-mask" and st.nq < serial_below and xp is np)
            top_down_level(st, level, prune, rec, scratch, mask, serial[-1])
        level += 1
    res = finish_result(be, st.parent, st.depth, r, rec, on_device)
    if prune == "frontier-mask":
        res.levels.extra["serial_scan"] = np.array(serial, dtype=bool)
    return res


def bfs_gpu_queue(graph, root, *, backend="cpu", depth=True, on_device=False, kernel=None):
    """The straightforward GPU BFS (thesis 4.2.3) on the array backend; see the module.
    ``kernel``: run the numba.cuda kernel (default: when the backend's arrays are on a
    device; True under numba's CUDA simulator runs it on NumPy arrays, for tests)."""
    be = resolve_backend(backend)
    if not (be.on_cuda if kernel is None else kernel):
        return _search(graph, root, be, "gpu-queue", depth, on_device)
    from .cuda_levels import search as kernel_search

    be, xp, r, n, indptr, indices = prepare(graph, root, be)
    parent, dep = new_parent(xp, n, r, depth)
    rec = LevelRecorder(be, prunes=False)
    kernel_search(be, indptr, indices, parent, dep, r, rec)
    return finish_result(be, parent, dep, r, rec, on_device)


def bfs_sort_unique(graph, root, *, backend="cpu", depth=True, on_device=False, kernel=None):
    """Sort-unique BFS (thesis 4.3.2) on the array backend; see the module. ``kernel``: run
    its levels as three launches (``cuda_levels.sort_unique_search_step``: the gather and the key
    packing, the device's sort, the unique and the update; default: when the backend's
    arrays are on a device; True under numba's CUDA simulator runs it on NumPy arrays, for
    tests); ``kernel=False``: the whole-array steps, for comparisons."""
    be = resolve_backend(backend)
    return _search(graph, root, be, "sort-unique", depth, on_device,
                   be.on_cuda if kernel is None else kernel)


def bfs_bitmap_filter(graph, root, *, backend="cpu", depth=True, on_device=False):
    """Sort-unique's pruning replaced by a per-vertex claim array (thesis 5.3)."""
    return _search(graph, root, backend, "bitmap-filter", depth, on_device)


def bfs_frontier_mask(graph, root, *, backend="cpu", depth=True, on_device=False,
                      serial_below=SERIAL_BELOW):
    """Paper 004's linear-work BFS: prefix-scan expansion, mask-based duplicate removal;
    levels whose frontier has fewer than ``serial_below`` vertices compact the mask by one
    sequential pass (``mask_queue``; 0: always the prefix scan). The level table's
    ``serial_scan`` column says which levels did."""
    if isinstance(serial_below, bool) or not isinstance(serial_below, (int, np.integer)) \
            or serial_below < 0:
        raise InputError(f"serial_below must be an integer >= 0, got {shown(serial_below)}",
                         "serial_below")
    return _search(graph, root, backend, "frontier-mask", depth, on_device,
                   serial_below=int(serial_below))
