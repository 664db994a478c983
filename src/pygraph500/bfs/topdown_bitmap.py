"""Level-synchronous top-down BFS without queues (thesis Algorithm 3), parallel over all numba
threads.

The frontier is a bitmap. Each level expands every set vertex, claims its unvisited
neighbours (atomic fetch-and-or on the visited bitmap) and marks them in the next bitmap
(atomic or). A flat bitmap costs a scan of N/64 words per level, which on a graph of a
million levels (a path, a grid) is quadratic; so the frontier bitmap carries two summary
levels (a bit per non-zero word, and a bit per non-zero summary word), set while marking,
and a level visits only set bits: its cost is its frontier plus the top-level words
between the lowest and highest word marked (N/2**18 at most). Consumed words are cleared as
they are read, so no bitmap is cleared separately. Small levels run serially, many in one
call; larger ones over all threads, the summary words cut into chunks claimed dynamically.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit

from ..graph.types import CSRGraph
from ..primitives.bitmaps import new_hierarchical_bitmaps
from . import steps
from .steps.bitmap_topdown import bitmap_topdown_level_parallel, bitmap_topdown_levels_serial
from .steps.canonical import det_flag
from .steps.level_log import log_close, log_level, log_room, log_start, log_table
from .steps.search_state import end_search, mark_root, new_search
from .types import TOP_DOWN, BFSResult, check_root

__all__ = ["bfs_topdown_bitmap"]


@njit(cache=True)
def _search(indptr, indices, root, parent, depth, visited, bits, summary, top, limit, grain,
            nthreads, thin, det, stats, dirs, batches, state):
    mark_root(parent, depth, visited, root)
    log_start(state)
    w = root >> 6
    bits[0, w] = visited[w]  # the root's bit (visited holds nothing else yet)
    summary[0, w >> 6] = np.uint64(1) << np.uint64(w & 63)
    top[0, w >> 12] = np.uint64(1) << np.uint64((w >> 6) & 63)
    cur = 0
    lo = w
    hi = w
    nf = 1
    level = 0
    m_f = indptr[root + 1] - indptr[root]
    while nf > 0:
        stats, dirs, batches = log_room(stats, dirs, batches, state, 4)
        # the work measure of bitmap_topdown_levels_serial
        if nf + m_f + ((hi >> 12) - (lo >> 12) + 1) <= limit:
            cur, lo, hi, nf, level, m_f = bitmap_topdown_levels_serial(
                indptr, indices, parent, depth, visited, bits, summary, top, cur, lo, hi, nf,
                level, m_f, limit, det, stats, dirs, batches, state, grain, thin)
            continue
        log_close(batches, state)
        edges, found, scout, nlo, nhi = bitmap_topdown_level_parallel(
            indptr, indices, parent, depth, visited, bits, summary, top, cur, lo, hi, level,
            nthreads, det)
        log_level(stats, dirs, batches, state, nf, edges, TOP_DOWN, 0)
        cur = 1 - cur
        lo = nlo
        hi = nhi
        nf = found
        m_f = scout
        level += 1
    return end_search(parent, depth, visited, nthreads, stats, dirs, batches, state)


def bfs_topdown_bitmap(graph: CSRGraph, root, *, depth=True,
                       deterministic=False) -> BFSResult:
    """Top-down BFS with bitmap frontiers (thesis Algorithm 3) from ``root``.

    Returns what ``bfs_topdown_queue`` returns, with the same options (``depth=False``: no
    depth array): parent, depth and the per-level statistics, all
    'top-down'; with several threads, which valid parent a vertex gets may vary, unless
    ``deterministic=True``: then each vertex gets its smallest neighbour one level up
    (``steps.canonical``), for any number of threads.
    """
    r = check_root(graph, root)
    det = bool(deterministic)
    parent, dep, visited, log = new_search(graph, bool(depth) or det)
    bits, summary, top = new_hierarchical_bitmaps(graph.num_vertices)
    thin = np.empty(steps.SERIAL_WORK + 2, dtype=np.int64)  # see bitmap_topdown_levels_serial
    logged = _search(graph.indptr, graph.indices, r, parent, dep, visited, bits, summary, top,
                     steps.SERIAL_WORK, steps.TIME_GRAIN, numba.get_num_threads(), thin,
                     det_flag(det), *log)
    return BFSResult(parent=parent, root=r, depth=dep if depth else None,
                     levels=log_table(logged, log))
