"""Level-synchronous top-down BFS with frontier queues (thesis Algorithm 2), parallel over all
numba threads.

Every level expands the current queue into the next one. Small levels (work at most
``steps.SERIAL_WORK``) run serially, many in one call, the queue used as a FIFO; larger ones
over all threads (``steps.queue_topdown.topdown_level_parallel``: edge-balanced chunks,
vertices claimed with an atomic fetch-and-or on a visited bitmap, per-thread buffers flushed
into the next queue at positions reserved with an atomic fetch-and-add: no global lock). The
level loop is itself compiled (``_search``), so a graph with a million levels costs no Python
per level.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit

from ..graph.types import CSRGraph
from . import steps
from .steps.canonical import det_flag
from .steps.level_log import log_close, log_level, log_room, log_table
from .steps.queue_topdown import topdown_level_parallel, topdown_levels_serial
from .steps.search_state import end_search, new_search, start_queue_search
from .types import TOP_DOWN, BFSResult, check_root

__all__ = ["bfs_topdown_queue"]


@njit(cache=True)
def _search(graph, root, arrays, tune, det, log):
    """The search: ``arrays`` (parent, depth, visited, q, q2: the search record and two
    queues), ``tune`` (limit = ``SERIAL_WORK``, bufcap = ``BUF``, grain = ``TIME_GRAIN``,
    nthreads). Returns the log."""
    parent, depth, visited, q, q2 = arrays
    search = (parent, depth, visited)
    limit, bufcap, grain, nthreads = tune
    serial = (limit, False, 1.0, grain)  # no switching
    threads = (nthreads, bufcap)
    s, e, level, m_f = start_queue_search(graph, search, q, root, log)
    m_u = 0  # not used: no switching
    prev_nf = 0
    while e > s:
        log = log_room(log, 4)
        nf = e - s
        if nf + m_f <= limit:
            s, e, level, m_f, m_u, prev_nf = topdown_levels_serial(
                graph, search, q, (s, e, level, m_f, m_u, prev_nf), det, log, serial)
            continue
        log_close(log)
        edges, found, scout = topdown_level_parallel(graph, search, (q[s:e], q2), level,
                                                     threads, det)
        log_level(log, nf, edges, TOP_DOWN, 0)
        q, q2 = q2, q
        s = 0
        e = found
        m_f = scout
        level += 1
    return end_search(search, nthreads, log)


def bfs_topdown_queue(graph: CSRGraph, root, *, depth=True,
                      deterministic=False) -> BFSResult:
    """Top-down BFS with frontier queues (thesis Algorithm 2) from ``root``.

    Returns parent (int64, -1 where not reached, parent[root] == root), depth (int32 when
    N < 2**31, else int64; -1 where not reached) and the per-level statistics (all
    'top-down'). With several threads, which valid parent a vertex gets may vary from run to
    run; ``deterministic=True`` fixes it: each vertex gets its smallest neighbour one level
    up (``steps.canonical``), for any number of threads. ``depth=False``: no depth array
    (result depth None; spares a scattered write per vertex, except in the deterministic
    mode, which needs the depths).
    """
    r = check_root(graph, root)
    n = graph.num_vertices
    det = bool(deterministic)
    (parent, dep, visited), log = new_search(graph, bool(depth) or det)
    q = np.empty(n, dtype=graph.indices.dtype)
    q2 = np.empty(n, dtype=graph.indices.dtype)
    log = _search((graph.indptr, graph.indices), r, (parent, dep, visited, q, q2),
                  (steps.SERIAL_WORK, steps.BUF, steps.TIME_GRAIN, numba.get_num_threads()),
                  det_flag(det), log)
    return BFSResult(parent=parent, root=r, depth=dep if depth else None,
                     levels=log_table(log))
