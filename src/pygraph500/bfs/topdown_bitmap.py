"""Level-synchronous top-down BFS without queues (thesis Algorithm 3), parallel over all numba
threads.

The frontier is a bitmap. Each level scans its words (zero words skipped), expands every
set vertex, claims its unvisited neighbours (atomic fetch-and-or on the visited bitmap) and
marks them in the next bitmap (atomic or). Scanning is O(N/64) per level by nature; only
the words between the lowest and highest marked word of the level before are scanned (a
range kept while marking), which on a path is one word. Consumed words are cleared as they
are read, so no bitmap is cleared separately. Small levels run serially, many in one call;
larger ones over all threads with word chunks claimed dynamically.
"""
from __future__ import annotations

import numba
from numba import njit

from ..graph.types import CSRGraph
from . import steps
from ._common import check_root
from .steps import (finish, log_close, log_level, log_room, log_start, mark_root, tdb_parallel,
                    tdb_serial)
from .types import TOP_DOWN, BFSResult

__all__ = ["bfs_topdown_bitmap"]


@njit(cache=True)
def _search(indptr, indices, root, parent, depth, visited, bm, limit, grain, nthreads,
            stats, dirs, batches, state):
    mark_root(parent, depth, visited, root)
    log_start(state)
    w = root >> 6
    bm[0, w] = visited[w]  # the root's bit (visited holds nothing else yet)
    cur = 0
    lo = w
    hi = w
    nf = 1
    level = 0
    m_f = indptr[root + 1] - indptr[root]
    while nf > 0:
        stats, dirs, batches = log_room(stats, dirs, batches, state, 4)
        if nf + m_f + ((hi - lo + 1) >> 4) <= limit:  # the work measure of tdb_serial
            cur, lo, hi, nf, level, m_f = tdb_serial(
                indptr, indices, parent, depth, visited, bm, cur, lo, hi, nf, level, m_f,
                limit, stats, dirs, batches, state, grain)
            continue
        log_close(batches, state)
        edges, found, scout, nlo, nhi = tdb_parallel(indptr, indices, parent, depth, visited,
                                                     bm[cur], bm[1 - cur], lo, hi, level,
                                                     nthreads)
        log_level(stats, dirs, batches, state, nf, edges, TOP_DOWN, 0)
        cur = 1 - cur
        lo = nlo
        hi = nhi
        nf = found
        m_f = scout
        level += 1
    stats, dirs, batches = log_room(stats, dirs, batches, state, 4)
    log_close(batches, state)
    finish(parent, depth, visited, nthreads)
    return stats, dirs, batches


def bfs_topdown_bitmap(graph: CSRGraph, root, *, depth=True, **options) -> BFSResult:
    """Top-down BFS with bitmap frontiers (thesis Algorithm 3) from ``root``.

    Returns parent (int64, -1 where not reached, parent[root] == root), depth (int32 when
    N < 2**31, else int64; -1 where not reached) and the per-level statistics (all
    'top-down'). With several threads, which valid parent a vertex gets may vary from run to
    run. ``depth=False``: no depth array (result depth None; spares a scattered write per
    vertex). Other options are accepted for registry uniformity and ignored.
    """
    r = check_root(graph, root)
    parent, dep, visited, log = steps.new_search(graph, bool(depth))
    bm = steps.new_bitmap(graph.num_vertices, rows=2)
    logged = _search(graph.indptr, graph.indices, r, parent, dep, visited, bm,
                     steps.SERIAL_WORK, steps.TIME_GRAIN, numba.get_num_threads(), *log)
    return BFSResult(parent=parent, root=r, depth=dep if depth else None,
                     levels=steps.log_table(logged, log))
