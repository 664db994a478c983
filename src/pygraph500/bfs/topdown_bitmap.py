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
def _search(graph, root, search, frontiers, thin, tune, det, log):
    """The search: ``frontiers`` (bits, summary, top: ``new_hierarchical_bitmaps``), ``thin``
    (``bitmap_topdown_levels_serial``'s scratch), ``tune`` (limit = ``SERIAL_WORK``, grain =
    ``TIME_GRAIN``, nthreads). Returns the log."""
    indptr, _ = graph
    _, _, visited = search
    bits, summary, top = frontiers
    limit, grain, nthreads = tune
    mark_root(search, root)
    log_start(log)
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
        log = log_room(log, 4)
        # the work measure of bitmap_topdown_levels_serial
        if nf + m_f + ((hi >> 12) - (lo >> 12) + 1) <= limit:
            cur, lo, hi, nf, level, m_f = bitmap_topdown_levels_serial(
                graph, search, frontiers, (cur, lo, hi, nf, level, m_f), thin, det, log,
                (limit, grain))
            continue
        log_close(log)
        edges, found, scout, nlo, nhi = bitmap_topdown_level_parallel(
            graph, search, frontiers, (cur, lo, hi, nf, level, m_f), nthreads, det)
        log_level(log, nf, edges, TOP_DOWN, 0)
        cur = 1 - cur
        lo = nlo
        hi = nhi
        nf = found
        m_f = scout
        level += 1
    return end_search(search, nthreads, log)


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
    search, log = new_search(graph, bool(depth) or det)
    thin = np.empty(steps.SERIAL_WORK + 2, dtype=np.int64)  # see bitmap_topdown_levels_serial
    log = _search((graph.indptr, graph.indices), r, search,
                  new_hierarchical_bitmaps(graph.num_vertices), thin,
                  (steps.SERIAL_WORK, steps.TIME_GRAIN, numba.get_num_threads()),
                  det_flag(det), log)
    parent, dep, _ = search
    return BFSResult(parent=parent, root=r, depth=dep if depth else None,
                     levels=log_table(log))
