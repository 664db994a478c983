"""Beamer's direction-optimizing BFS, compiled with numba and parallel over all numba threads.

Top-down levels as ``topdown-queue`` (small ones serially, many per call, the queue used as a
FIFO; large ones over all threads), bottom-up levels as ``bottomup``: the steps are those of
``steps``, the queue <-> bitmap conversions those of ``primitives.bitmaps``. The level loop
itself is compiled (``_search``): no Python per level. A directed graph is searched as GAP
does: top-down over out-edges, bottom-up over in-edges (an unvisited vertex looks for a
parent among its in-neighbours in the frontier), both from the one compiled loop
(``steps.directed``).

Switching (Beamer et al., SC'12; the tests are ``primitives.direction``): with n_f the frontier
size, m_f its degree sum and m_u the degree sum of the unvisited vertices (all kept up to date
incrementally, never by an O(N) rescan), go bottom-up when the frontier is growing and
``m_f > m_u / alpha`` (and ``m_u > 0``); go back top-down when ``n_f <= N / beta`` and the
frontier is shrinking. One guard is added: a frontier of at most ``N / beta`` vertices that is
not shrinking also goes back when ``m_f <= m_u / alpha`` (a bottom-up level costs O(N/64) at
least; without the guard a long path behind a hub would be walked bottom-up). The conversions
(O(N/64 + n_f)) happen only at switches and are timed with the bottom-up level next to them. A
large ``alpha`` favours bottom-up, a small one top-down. On a path or a grid the frontier never
outweighs the unvisited edges: every level stays top-down.

On a directed graph the two counts are what each direction reads: m_f the frontier's
out-degree sum (a top-down level reads its out-edges), m_u the unvisited vertices' in-degree
sum (a bottom-up level reads at most their in-edges). GAP counts the out-edges of the
vertices not yet expanded instead; on a Kronecker digraph the vertices a search reaches hold
most in-edges, and that count stays far above what a bottom-up level can read. And the frontier also goes
back top-down, whatever its size, when its out-edges, ``TOP_DOWN_EDGE_COST`` bottom-up edges
each, are fewer than the edges the last bottom-up level examined, unless the test above
would send it bottom-up again: the vertices a root never reaches (most of a Kronecker
digraph's) scan their whole in-edge lists at every bottom-up level, so once the frontier
shrinks a bottom-up level costs about what the last one did, not the O(N/64) that the
N / beta rule assumes.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit

from ..errors import InputError
from ..graph.types import CSRGraph
from ..primitives.bitmaps import bitmap_to_queue, queue_to_bitmap, unvisited_bitmap
from ..primitives.direction import go_bottom_up, go_top_down
from . import steps
from .steps.bottom_up import bottom_up_level_digraph
from .steps.canonical import det_flag
from .steps.directed import in_degree
from .steps.level_log import log_close, log_level, log_room, log_table
from .steps.queue_topdown import topdown_level_parallel_digraph, topdown_levels_serial_digraph
from .steps.search_state import end_search, new_search, start_queue_search
from .types import BOTTOM_UP, TOP_DOWN, BFSResult, check_positive, check_root

__all__ = ["bfs_direction_optimizing", "TOP_DOWN_EDGE_COST"]

# On a directed graph: how many bottom-up edge checks (a sequential read of an in-edge list,
# a frontier bit in cache) one top-down edge costs (the claims' atomics and scattered
# writes). Measured on a Kronecker digraph at SCALE 20 (benchmarks/bench_directed.py
# --levels): 13.5 against 3.4 ns an edge on one thread, a ratio of 3.5-5 on two.
TOP_DOWN_EDGE_COST = 4.0


@njit(cache=True)
def _bottom_up_levels(bu_graph, out_indptr, search, bitmaps, q, at, tune, log):
    """Bottom-up levels from the frontier bitmap ``front`` (``bitmaps``: front, nxt, cand;
    ``at``: level, nf, m_u) until Beamer's test sends the search back top-down (the
    frontier then in ``q[0:e]``) or nothing is found. The rows scanned are ``bu_graph`` (a
    digraph's in-edges, ``out_indptr`` its out-edge offsets; else the CSR and ``out_indptr``
    None). ``tune``: ``_search``'s. Returns (e, level, nf, prev_nf, m_f, m_u, front, nxt,
    log)."""
    parent, _, _ = search
    front, nxt, cand = bitmaps
    level, nf, m_u = at
    alpha, beta, _, _, _, nthreads = tune
    n = parent.shape[0]
    e = 0
    while True:
        log = log_room(log, 4)
        edges, found, scout, taken = bottom_up_level_digraph(
            bu_graph, out_indptr, search, (front, nxt, cand), level, nthreads)
        front, nxt = nxt, front
        level += 1
        this_nf = nf
        prev_nf = nf
        nf = found
        m_f = scout
        m_u -= taken
        back = go_top_down(nf, prev_nf, n, beta, m_f, m_u, alpha)
        if out_indptr is not None:  # a digraph's: back where top-down reads less
            back = back or (nf > 0 and m_f * TOP_DOWN_EDGE_COST < edges
                            and not go_bottom_up(nf, prev_nf, m_f, m_u, alpha))
        if back:  # timed with this level
            e = bitmap_to_queue(front, q, nthreads)
        log_level(log, this_nf, edges, BOTTOM_UP, 0)
        if back or nf == 0:
            return e, level, nf, prev_nf, m_f, m_u, front, nxt, log


@njit(cache=True)
def _search(graph, in_indptr, in_indices, root, arrays, tune, det, log):
    """The search: ``arrays`` (parent, depth, visited, q, q2: the search record and two
    queues), ``tune`` (alpha, beta, limit = ``SERIAL_WORK``, bufcap = ``BUF``, grain =
    ``TIME_GRAIN``, nthreads). Returns the log."""
    indptr, indices = graph
    parent, depth, visited, q, q2 = arrays
    search = (parent, depth, visited)
    alpha, _, limit, bufcap, grain, nthreads = tune
    serial = (limit, True, alpha, grain)
    threads = (nthreads, bufcap)
    n = parent.shape[0]
    nwords = visited.shape[0]
    s, e, level, m_f = start_queue_search(graph, search, q, root, log)
    m_u = indptr[n] - in_degree(in_indptr, root, m_f)
    prev_nf = 0  # frontier size of the previous level: 'growing' means nf > prev_nf
    # bitmaps of the bottom-up levels, allocated at the first switch
    front = np.empty(0, np.uint64)
    nxt = np.empty(0, np.uint64)
    cand = np.empty(0, np.uint64)
    while e > s:
        log = log_room(log, 4)
        nf = e - s
        # ---- top-down ------------------------------------------------------------------
        if not go_bottom_up(nf, prev_nf, m_f, m_u, alpha):
            if nf + m_f <= limit:
                s, e, level, m_f, m_u, prev_nf = topdown_levels_serial_digraph(
                    graph, in_indptr, search, q, (s, e, level, m_f, m_u, prev_nf), det, log,
                    serial)
                continue
            log_close(log)
            edges, found, scout, taken = topdown_level_parallel_digraph(
                graph, in_indptr, in_indices, search, (q[s:e], q2), level, threads, det)
            log_level(log, nf, edges, TOP_DOWN, 0)
            q, q2 = q2, q
            s = 0
            e = found
            prev_nf = nf
            m_f = scout
            m_u -= taken
            level += 1
            continue
        # ---- bottom-up -----------------------------------------------------------------
        if front.shape[0] == 0:
            front = np.empty(nwords, np.uint64)
            nxt = np.empty(nwords, np.uint64)
            cand = np.empty(nwords, np.uint64)
        log_close(log)  # the conversion is timed with the first bottom-up level
        queue_to_bitmap(q[s:e], front, nthreads)
        unvisited_bitmap(visited, cand, n)
        # the rows bottom-up levels scan and the offsets of their m_f: a digraph's in-edges
        # and out-edges; in-edges None say undirected: the CSR, and none (steps.directed)
        if in_indptr is None:
            (e, level, nf, prev_nf, m_f, m_u, front, nxt,
             log) = _bottom_up_levels(graph, None, search, (front, nxt, cand), q,
                                      (level, nf, m_u), tune, log)
        else:
            (e, level, nf, prev_nf, m_f, m_u, front, nxt,
             log) = _bottom_up_levels((in_indptr, in_indices), indptr, search,
                                      (front, nxt, cand), q, (level, nf, m_u), tune, log)
        s = 0
    return end_search(search, nthreads, log)


def bfs_direction_optimizing(graph: CSRGraph, root, *, alpha=15.0, beta=18.0, depth=True,
                             deterministic=False, backend="cpu",
                             on_device=False) -> BFSResult:
    """Direction-optimizing BFS from ``root`` (Beamer et al.), parallel over numba's threads.

    ``alpha``: go bottom-up when the frontier is growing and its edges exceed (edges of the
    unvisited vertices) / alpha: a huge alpha goes bottom-up as soon as the frontier grows, a
    tiny one stays top-down. ``beta``: go back top-down when the frontier is shrinking and
    holds at most N / beta vertices: a huge beta stays bottom-up longer.
    Returns parent (int64), depth (int32 when N < 2**31, else int64; -1 where not reached)
    and the per-level statistics with their direction and time. The parent array is a valid
    BFS tree; with several threads, which valid parent a vertex gets may vary from run to run.
    ``deterministic=True`` fixes it: each vertex gets its smallest neighbour one level up
    (``steps.canonical``; the bottom-up levels do so anyway), for any number of threads,
    alpha and beta. ``depth=False``: no depth array (result depth None; spares a scattered
    write per vertex, except in the deterministic mode, which needs the depths).
    A directed graph (``CSRGraph.directed``): top-down levels follow out-edges, bottom-up
    levels in-edges (``CSRGraph.in_edges``, built on the first directed search and kept), and
    the switch counts as the module's docstring says.
    ``backend="gpu"`` (or "auto" where a GPU is, "numpy-checked", or such an ArrayBackend)
    runs the array form (``bfs.array.direction_optimizing``) instead; it has no deterministic
    mode and searches undirected graphs only: ``deterministic=True`` or a directed graph
    makes "auto" run here, and a GPU named outright an InputError.
    ``on_device``: the array form leaves its result on the device.
    """
    alpha = check_positive("alpha", alpha)
    beta = check_positive("beta", beta)
    det = bool(deterministic)
    if backend != "cpu" and not ((det or graph.directed) and backend == "auto"):
        # the array form on a GPU; ``auto`` without one lands here below
        from .array import bfs_direction_optimizing_array
        from .array.queue_based import resolve_backend

        be = resolve_backend(backend)
        if be.is_gpu:
            if det:
                raise InputError("deterministic=True is a mode of the CPU search; the GPU "
                                 "form of direction-optimizing has none")
            if graph.directed:
                raise InputError("a directed graph is searched by the CPU form of "
                                 "direction-optimizing (backend cpu); the GPU form follows "
                                 "undirected edges only")
            return bfs_direction_optimizing_array(graph, root, backend=be, alpha=alpha,
                                                  beta=beta, depth=depth,
                                                  on_device=on_device)
    r = check_root(graph, root)
    n = graph.num_vertices
    (parent, dep, visited), log = new_search(graph, bool(depth) or det)
    q = np.empty(n, dtype=graph.indices.dtype)
    q2 = np.empty(n, dtype=graph.indices.dtype)
    # a digraph's in-edges; None for an undirected graph (``steps.directed``)
    in_indptr, in_indices = graph.in_edges if graph.directed else (None, None)
    log = _search((graph.indptr, graph.indices), in_indptr, in_indices, r,
                  (parent, dep, visited, q, q2),
                  (alpha, beta, steps.SERIAL_WORK, steps.BUF, steps.TIME_GRAIN,
                   numba.get_num_threads()), det_flag(det), log)
    return BFSResult(parent=parent, root=r, depth=dep if depth else None,
                     levels=log_table(log))
