"""``determinate``: the Fresh Breeze BFS of paper 003 on this machine's threads.

The graph is converted once into the paper's form (``chunk_trees.build_chunk_graph``; kept
with the CSRGraph for later searches, as the paper keeps it for every root). ``graph500 run``
builds it with kernel 1 (``chunk_graph``, the registry record's ``prepare``): its time is
construction time. Each level runs the two task trees of ``tasks`` on W workers
(``runtime``) and ends when both have finished (the paper's "pinch" between levels); the
parent vector, a tree of chunks, becomes the parent array at the end.

The result is determinate: every merge keeps the first defined value of inputs taken in
vertex order, so a vertex's parent is its smallest neighbour one level up whatever the
number of workers and the order in which ready tasks run (``schedule="random"`` draws
that order at random, for tests). ``merge="last"`` keeps the last instead, as the paper's
leaf merge does: the largest neighbour one level up, as determinate, with the same tasks.
"""
from __future__ import annotations

import os
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ...errors import InputError, shown
from ..types import TOP_DOWN, BFSResult, LevelTable, check_root
from .chunk_trees import SLOTS, UNDEF, ChunkGraph, build_chunk_graph, flatten_into
from .runtime import (CTR_SIZE, DONE, FLAG, JOIN_COLUMNS, JTOP, MTOP, OUT_OF_CHUNKS,
                      OUT_OF_DEQUE, OUT_OF_JOINS, OUT_OF_TASKS, RESULT, TASK_COLUMNS, TTOP,
                      WS_STRIDE, create_join, spawn)
from .tasks import (FN_BFS, FN_FINISH, FN_UPDATE_PARENT, NFN, PARENT_UPDATE, SEARCH, STAT_BUSY,
                    STAT_CHUNKS, STAT_COLUMNS, STAT_EDGES, STAT_FRONTIER, TASK_NAMES, new_chunk,
                    work)

__all__ = ["bfs_determinate", "chunk_graph", "SCHEDULES", "MERGES"]

SCHEDULES = ("depth-first", "random")
MERGES = ("first", "last")
_PATIENCE = 256  # empty polls before a worker yields its core
_graphs: dict[int, ChunkGraph] = {}


def chunk_graph(graph) -> ChunkGraph:
    """The chunk form of ``graph``, built at its first search and kept while it lives."""
    key = id(graph)
    cg = _graphs.get(key)
    if cg is None:
        cg = build_chunk_graph(graph.indptr, graph.indices)
        _graphs[key] = cg
        weakref.finalize(graph, _graphs.pop, key, None)
    return cg


@njit(cache=True)
def _single(mem, ctr, index, value, depth):
    """A vector with one element (index -> value): one chunk per level."""
    child = UNDEF
    for h in range(depth):
        c = ctr[MTOP]
        ctr[MTOP] = c + 1
        for j in range(SLOTS):
            mem[c, j] = UNDEF
        mem[c, (index >> (4 * h)) & (SLOTS - 1)] = value if h == 0 else child
        child = c
    return child


@njit(cache=True)
def _start_level(rt, counts, graph_root, update, parent, height, nworkers):
    """The two task trees of a level: BreadthFirstSearch into result 0, UpdateParent into
    result 1 (each under a one-slot join whose continuation, Finish, hands the result over
    and counts itself in ``ctr[DONE]``); ``rt``: the runtime's arrays."""
    mem, task, join, ctr, dq, ws = rt
    ctr[TTOP] = 0
    ctr[JTOP] = 0
    ctr[DONE] = 0
    ws[:] = 0
    j0 = create_join(join, ctr, ws, 0,
                     (new_chunk(mem, ctr, ws, 0, counts), 1, FN_FINISH, -1, 0, SEARCH, 0))
    j1 = create_join(join, ctr, ws, 0, (new_chunk(mem, ctr, ws, 0, counts), 1, FN_FINISH, -1,
                                        0, PARENT_UPDATE, 1))
    if j0 < 0 or j1 < 0:
        return
    spawn(task, ctr, dq, ws, 0, (FN_BFS, graph_root, update, parent, height, 0, j0, 0, SEARCH))
    spawn(task, ctr, dq, ws, 1 % nworkers, (FN_UPDATE_PARENT, parent, update, height, 0, 0, j1,
                                            0, PARENT_UPDATE))


@njit(cache=True)
def _depths(parent, root):
    """Depth of every vertex of a BFS tree (-1 where not reached)."""
    n = parent.shape[0]
    depth = np.full(n, -1, np.int64)
    depth[root] = 0
    path = np.empty(n, np.int64)
    for v in range(n):
        if parent[v] < 0 or depth[v] >= 0:
            continue
        k = 0
        u = v
        while depth[u] < 0:
            path[k] = u
            k += 1
            u = parent[u]
        d = depth[u]
        for i in range(k - 1, -1, -1):
            d += 1
            depth[path[i]] = d
    return depth


class _Pool:
    """The runtime's arrays for one graph and W workers, grown when a search runs out."""

    def __init__(self, cg: ChunkGraph, workers: int):
        n = cg.num_vertices
        self.cg = cg
        self.workers = workers
        self.task = np.empty((max(1 << 12, 4 * n), TASK_COLUMNS), np.int64)
        self.join = np.empty((max(1 << 12, 2 * n), JOIN_COLUMNS), np.int64)
        self.dq = np.empty((workers, 1 << 12), np.int64)
        self.ws = np.zeros(workers * WS_STRIDE, np.int64)
        self.ctr = np.zeros(CTR_SIZE, np.int64)
        self.counts = np.zeros((workers, STAT_COLUMNS), np.int64)
        self.rng = np.zeros((workers, 8), np.uint64)
        self.threads = ThreadPoolExecutor(workers) if workers > 1 else None

    def grow(self, flag: int) -> None:
        """Double whatever ran out."""
        if flag & OUT_OF_CHUNKS:
            self.cg.grow()
        if flag & OUT_OF_TASKS:
            self.task = np.empty((2 * self.task.shape[0], TASK_COLUMNS), np.int64)
        if flag & OUT_OF_JOINS:
            self.join = np.empty((2 * self.join.shape[0], JOIN_COLUMNS), np.int64)
        if flag & OUT_OF_DEQUE:
            self.dq = np.empty((self.workers, 2 * self.dq.shape[1]), np.int64)

    def arrays(self) -> tuple:
        """The runtime's record of the arrays (``runtime``'s ``rt``), as they are now."""
        return self.cg.mem, self.task, self.join, self.ctr, self.dq, self.ws

    def _worker(self, me: int, randomised: bool, last: bool) -> int:
        cg = self.cg
        rt = self.arrays()
        sched = (self.rng, self.workers, randomised, _PATIENCE)
        while True:
            r = work(rt, me, self.counts, sched, (cg.degree, cg.depth - 1, last))
            if r != 1:
                return r
            os.sched_yield()

    def run_level(self, randomised: bool, last: bool) -> None:
        if self.threads is None:
            self._worker(0, randomised, last)
            return
        futures = [self.threads.submit(self._worker, me, randomised, last)
                   for me in range(self.workers)]
        for f in futures:
            f.result()

    def search(self, root: int, randomised: bool, seed: int, last: bool):
        """(parent array, per-level statistics) or None when an array ran out (the caller
        holds the chunk graph's ``lock``)."""
        cg = self.cg
        mem = cg.mem
        ctr = self.ctr
        ctr[:] = 0
        ctr[MTOP] = cg.graph_chunks
        self.counts[:] = 0
        self.rng[:, 0] = np.random.SeedSequence(seed).generate_state(self.workers, np.uint64) | 1
        update = _single(mem, ctr, root, root, cg.depth)
        parent = UNDEF
        rows = []
        while update != UNDEF:
            before = self.counts.sum(axis=0)
            t0 = time.perf_counter()
            _start_level(self.arrays(), self.counts, cg.root, update, parent, cg.depth - 1,
                         self.workers)
            if not ctr[FLAG]:
                self.run_level(randomised, last)
            if ctr[FLAG]:
                return None
            seconds = time.perf_counter() - t0
            update = int(ctr[RESULT])
            parent = int(ctr[RESULT + 1])
            delta = self.counts.sum(axis=0) - before
            if delta[STAT_FRONTIER] or not rows:
                rows.append((delta, int(delta[STAT_CHUNKS]), seconds))
            else:  # a pass whose search set was empty (the last parent update): its work
                d, c, s = rows[-1]  # goes with the last level
                rows[-1] = (d + delta, c + int(delta[STAT_CHUNKS]), s + seconds)
        out = np.full(cg.num_vertices, -1, np.int64)
        flatten_into(mem, parent, cg.depth, out)
        return out, rows


_pools: dict[tuple[int, int], _Pool] = {}
_pools_lock = threading.Lock()


def _pool(graph, workers: int) -> _Pool:
    key = (id(graph), workers)
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            pool = _Pool(chunk_graph(graph), workers)
            _pools[key] = pool
            weakref.finalize(graph, _pools.pop, key, None)
    return pool


def _level_table(rows) -> LevelTable:
    """Per level: the search set, its adjacency entries, the time, and as extra columns the
    tasks run by type (``tasks_<Name>``; MergeSparseVectors and MergeOne under UpdateParent
    counted apart as ``update_<Name>``), the chunks allocated and ``busy_s``: the seconds
    the workers together spent running tasks (over workers x ``time``: the utilisation)."""
    extra = {}
    for ctx, prefix in ((SEARCH, "tasks_"), (PARENT_UPDATE, "update_")):
        for fn, name in enumerate(TASK_NAMES):
            col = [int(d[ctx * NFN + fn]) for d, _, _ in rows]
            if any(col):
                extra[prefix + name] = col
    extra["chunks"] = [c for _, c, _ in rows]
    extra["busy_s"] = [float(d[STAT_BUSY]) / 1e9 for d, _, _ in rows]
    return LevelTable([int(d[STAT_FRONTIER]) for d, _, _ in rows],
                      [int(d[STAT_EDGES]) for d, _, _ in rows], direction=TOP_DOWN,
                      time=[s for _, _, s in rows], extra=extra)


def bfs_determinate(graph, root, *, workers=None, schedule="depth-first", seed=0, merge="first",
                    depth=True, deterministic=True) -> BFSResult:
    """Fresh Breeze BFS (paper 003): determinate, the same tree for any ``workers`` and any
    ``schedule``: each vertex's parent is its smallest neighbour one level up.

    ``workers``: threads running tasks (default: numba's thread count). ``schedule``:
    "depth-first" (each worker runs its newest task, thieves take the oldest) or "random"
    (every choice drawn from ``seed``: a test of determinacy). ``merge``: "first" (each
    vertex's parent its smallest neighbour one level up) or "last" (the paper's leaf merge,
    Fig. 5: the largest; the same tasks). The level table carries the tasks run per type, the
    chunks allocated and the workers' busy seconds per level (extra columns).
    ``deterministic``: taken for uniformity with the others; the tree is determinate
    whatever it says (the canonical one with ``merge="first"``).
    """
    import numba

    r = check_root(graph, root)
    w = numba.get_num_threads() if workers is None else workers
    if not isinstance(w, (int, np.integer)) or isinstance(w, bool) or not 1 <= w <= 1024:
        raise InputError(f"workers must be an integer in [1, 1024], got {shown(workers)}",
                         "workers")
    if schedule not in SCHEDULES:
        raise InputError(f"schedule must be one of {', '.join(SCHEDULES)}; got {schedule!r}")
    if merge not in MERGES:
        raise InputError(f"merge must be one of {', '.join(MERGES)}; got {shown(merge)}",
                         "merge")
    pool = _pool(graph, int(w))
    with pool.cg.lock:  # one search at a time on the graph's spare chunks and these arrays
        while True:
            got = pool.search(r, schedule == "random", seed, merge == "last")
            if got is not None:
                break
            pool.grow(int(pool.ctr[FLAG]))
    parent, rows = got
    return BFSResult(parent=parent, root=r, depth=_depths(parent, r) if depth else None,
                     levels=_level_table(rows))

