"""Bottom-up BFS at every level (Beamer's bottom-up step, thesis section 3.3), parallel over
all numba threads.

Every level, each unvisited vertex scans its neighbours for one in the frontier bitmap and
stops at the first hit: no atomics (threads own whole words of the bitmaps). Level 0 (the
root alone) is bottom-up too. A level costs O(N/64) plus the adjacency of the unvisited
vertices up to their first frontier neighbour: cheap on low-diameter graphs, where most
vertices are found within a few levels, and quadratic on a path (every level rescans all
the vertices still unvisited): use ``direction-optimizing`` there.
"""
from __future__ import annotations

import numba
from numba import njit

from ..graph.types import CSRGraph
from ..primitives.bitmaps import new_bitmap, unvisited_bitmap
from .steps.bottom_up import bottom_up_level
from .steps.level_log import log_level, log_room, log_start, log_table
from .steps.search_state import end_search, mark_root, new_search
from .types import BOTTOM_UP, BFSResult, check_root

__all__ = ["bfs_bottomup"]


@njit(cache=True)
def _search(graph, root, search, bm, cand, nthreads, log):
    """The search: ``bm`` the two frontier bitmaps (rows), ``cand`` the unvisited vertices'.
    Returns the log."""
    parent, _, visited = search
    n = parent.shape[0]
    mark_root(search, root)
    log_start(log)
    bm[0, root >> 6] = visited[root >> 6]  # the root's bit
    unvisited_bitmap(visited, cand, n)
    cur = 0
    nf = 1
    level = 0
    while nf > 0:
        log = log_room(log, 4)
        edges, found, scout = bottom_up_level(graph, search, (bm[cur], bm[1 - cur], cand), level,
                                              nthreads)
        log_level(log, nf, edges, BOTTOM_UP, 0)
        cur = 1 - cur
        nf = found
        level += 1
    return end_search(search, nthreads, log)


def bfs_bottomup(graph: CSRGraph, root, *, depth=True, deterministic=False) -> BFSResult:
    """Bottom-up BFS (every level, the root's included) from ``root``: a BFSResult (the
    contract of ``bfs.types``), every level 'bottom-up', edges_examined counting the entries
    scanned up to each first hit. The parent a vertex gets is its first frontier neighbour
    in its sorted list, whatever the number of threads: its smallest neighbour one level up,
    the rule ``deterministic=True`` asks for (``steps.canonical``), so that option changes
    nothing here. ``depth=False``: no depth array.
    """
    r = check_root(graph, root)
    n = graph.num_vertices
    search, log = new_search(graph, bool(depth))
    log = _search((graph.indptr, graph.indices), r, search, new_bitmap(n, rows=2), new_bitmap(n),
                  numba.get_num_threads(), log)
    parent, dep, _ = search
    return BFSResult(parent=parent, root=r, depth=dep if depth else None,
                     levels=log_table(log))
