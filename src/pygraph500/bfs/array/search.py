"""The queue-based BFS algorithms of the array backend: one level loop, four ways to turn
the Next Level Frontier into the next queue.

Every level: expand the queue (``queue_offsets``: degrees, prefix sum), gather the NLF with
its parent payload (``gather``: binary search per element), drop the visited, prune, write
the parents and make the next queue. The algorithms differ in the pruning:

- ``gpu-queue``: thesis 4.2.3, the straightforward GPU BFS, no pruning. On a GPU it is the
  hand-written kernel of ``kernels.py``: one thread per queued vertex walks its list and
  claims with a compare-and-swap. On NumPy (and wherever ``kernel=False``) the same search
  in whole-array steps: every unvisited NLF element tries to claim its vertex by a scatter
  of the parents read back (the element whose parent stayed won); the winners are the next
  queue.
- ``sort-unique``: thesis 4.3.2: sort the (vertex, parent) pairs, keep one per vertex.
- ``bitmap-filter``: thesis 5.3's space-time trade-off: no sort; a per-vertex scratch array
  (allocated once per search) decides which element of each vertex wins.
- ``frontier-mask``: seed 004's linear-work BFS: mark the unvisited NLF vertices in a
  per-vertex mask and compact it with a prefix scan over all N vertices (``flatnonzero``),
  which also removes the duplicates.

All take ``backend`` ("cpu": NumPy, "gpu": CuPy, "auto", or an ArrayBackend), return the
parent array on the host (``on_device=True``: where it was computed) and record thesis
Table 4.1 per level (``steps.LevelRecorder``).
"""
from __future__ import annotations

import numpy as np

from ...backend.arrays import ArrayBackend, get_backend
from ..types import check_root
from ...primitives.arrays import claim, gather, queue_offsets, sort_unique
from .steps import LevelRecorder, as_backend_graph, check_memory, finish_result, new_parent

__all__ = ["bfs_gpu_queue", "bfs_sort_unique", "bfs_bitmap_filter", "bfs_frontier_mask",
           "resolve_backend", "prepare", "top_down_level"]


def resolve_backend(backend) -> ArrayBackend:
    return backend if isinstance(backend, ArrayBackend) else get_backend(backend)


def prepare(graph, root, backend):
    """(backend, xp, root, N, indptr, indices) of a search, the memory checked first."""
    be = resolve_backend(backend)
    r = check_root(graph, root)
    check_memory(graph, be)
    indptr, indices = as_backend_graph(graph, be)
    return be, be.xp, r, graph.num_vertices, indptr, indices


def top_down_level(xp, indptr, indices, parent, dep, q, level, n, prune, rec, scratch=None,
                   mask=None):
    """One top-down level from the queue ``q``: expand, gather, drop the visited, prune as
    ``prune`` says, write parents (and depths); records the level in ``rec``, returns the
    next queue. ``scratch`` (bitmap-filter) and ``mask`` (frontier-mask): per-vertex arrays
    of the search."""
    rec.start()
    start, newoff, m = queue_offsets(xp, indptr, q)
    t_expand = rec.lap()
    v, p = gather(xp, indices, q, start, newoff, m)
    t_search = rec.lap()
    fresh = parent[v] < 0
    v, p = v[fresh], p[fresh]
    lv = v.shape[0]
    if prune == "sort-unique":
        v, p = sort_unique(xp, v, p, n)
    elif prune == "bitmap-filter":
        v, p = claim(xp, v, p, scratch)
    elif prune == "frontier-mask":
        mask[v] = True
    t_prune = rec.lap()
    if prune == "gpu-queue":
        parent[v] = p
        won = parent[v] == p
        v = v[won]
    elif prune == "frontier-mask":
        parent[v] = p
        v = xp.flatnonzero(mask)
        mask[v] = False
    else:
        parent[v] = p
    if dep is not None:
        dep[v] = level + 1
    t_update = rec.lap()
    rec.level(q.shape[0], m, lv, v.shape[0], (t_expand, t_search, t_prune, t_update))
    return v


def _search(graph, root, backend, prune, depth, on_device):
    be, xp, r, n, indptr, indices = prepare(graph, root, backend)
    parent, dep = new_parent(xp, n, r, depth)
    scratch = xp.empty(n, dtype=np.int64) if prune == "bitmap-filter" else None
    mask = xp.zeros(n, dtype=bool) if prune == "frontier-mask" else None
    rec = LevelRecorder(be)
    q = xp.asarray([r], dtype=np.int64)
    level = 0
    while q.shape[0]:
        q = top_down_level(xp, indptr, indices, parent, dep, q, level, n, prune, rec, scratch,
                           mask)
        level += 1
    return finish_result(be, parent, dep, r, rec, on_device)


def bfs_gpu_queue(graph, root, *, backend="cpu", depth=True, on_device=False, kernel=None,
                  **options):
    """The straightforward GPU BFS (thesis 4.2.3) on the array backend; see the module.
    ``kernel``: run the numba.cuda kernel (default: when the backend's arrays are on a
    device; True under numba's CUDA simulator runs it on NumPy arrays, for tests)."""
    be = resolve_backend(backend)
    if not (be.on_device if kernel is None else kernel):
        return _search(graph, root, be, "gpu-queue", depth, on_device)
    from .kernels import search as kernel_search

    be, xp, r, n, indptr, indices = prepare(graph, root, be)
    parent, dep = new_parent(xp, n, r, depth)
    rec = LevelRecorder(be)
    kernel_search(be, indptr, indices, parent, dep, r, rec)
    return finish_result(be, parent, dep, r, rec, on_device)


def bfs_sort_unique(graph, root, *, backend="cpu", depth=True, on_device=False, **options):
    """Sort-unique BFS (thesis 4.3.2) on the array backend; see the module."""
    return _search(graph, root, backend, "sort-unique", depth, on_device)


def bfs_bitmap_filter(graph, root, *, backend="cpu", depth=True, on_device=False, **options):
    """Sort-unique's pruning replaced by a per-vertex claim array (thesis 5.3)."""
    return _search(graph, root, backend, "bitmap-filter", depth, on_device)


def bfs_frontier_mask(graph, root, *, backend="cpu", depth=True, on_device=False, **options):
    """Seed 004's linear-work BFS: prefix-scan expansion, mask-based duplicate removal."""
    return _search(graph, root, backend, "frontier-mask", depth, on_device)
