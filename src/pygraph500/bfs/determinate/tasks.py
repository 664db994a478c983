"""The BFS tasks of paper 003 (its Figures 3 to 6 and section 4.4) and the worker loop that
runs them on the runtime of ``runtime``.

One level of search is two task trees started together (paper Fig. 2): ``BreadthFirstSearch``
over (G, update, parent) merges the adjacency vectors of the search set (vertices defined in
``update`` and undefined in ``parent``) into the next update vector, and ``UpdateParent``
merges ``update`` into ``parent``, the parent given priority.

Which parent a vertex keeps: every merge keeps, at each index, the value of the FIRST of
its input vectors defined there (``keep_last=False``), or of the LAST (``keep_last=True``:
the paper's leaf merge, Fig. 5). Inputs are always in vertex order (a leaf's 16 adjacency vectors by
index; CollectVectors' 16 subtrees by index), and an adjacency vector's values are its
vertex, so a vertex gets the smallest (first) or the largest (last) neighbour of the previous
level as its parent. The smallest is the rule of Beamer's bottom-up step on sorted rows and of
the compiled algorithms' ``deterministic`` mode. UpdateParent puts the parent where the merge
looks for its winner (first, or last), so earlier levels win (section 4.4: "the existing
parent vector is given priority").

Deviations from the pseudo-code, none of which changes a result or a task count: MergeOne
and UpdateNull, whose whole body is one JoinUpdate, run in place of their spawn (counted as
executed; they are 80 % of the tasks, and a spawn costs more than the body); a chunk of
vectors is allocated only when there are two or more to merge (the paper allocates one and
may leave it unused); a search vertex without neighbours (an isolated root) contributes
nothing.

Each worker also adds up the nanoseconds it spends running tasks (``STAT_BUSY``: its time in
``work`` less its idle polls), for the paper's utilisation (Fig. 8): busy time over workers x
wall time.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...primitives import clock_ns, fetch_add
from .chunk_trees import SLOTS, UNDEF
from .runtime import (DONE, FLAG, RESULT, T_A0, T_A1, T_A2, T_A3, T_A4, T_CTX, T_FN, T_JOIN,
                      T_SLOT, alloc_chunk, create_join, join_update, spawn, steal, take)

__all__ = ["TASK_NAMES", "NFN", "SEARCH", "PARENT_UPDATE", "FN_BFS", "FN_UPDATE_PARENT",
           "FN_FINISH", "FN_MERGE", "STAT_FRONTIER", "STAT_EDGES", "STAT_CHUNKS",
           "STAT_BUSY", "STAT_COLUMNS", "new_chunk", "work"]

# task functions
(FN_BFS, FN_COLLECT, FN_FORWARD, FN_NULL, FN_MERGE, FN_MERGE_ONE, FN_DONE_MERGE,
 FN_UPDATE_PARENT, FN_FINISH) = range(9)
TASK_NAMES = ("BreadthFirstSearch", "CollectVectors", "ForwardHandle", "UpdateNull",
              "MergeSparseVectors", "MergeOne", "DoneMerge", "UpdateParent", "Finish")
NFN = len(TASK_NAMES)
# contexts: a task of the search tree, or of the parent update (Table 2 counts them apart)
SEARCH, PARENT_UPDATE = 0, 1
# per-worker statistics after the task counts (counts[w, ctx * NFN + fn])
STAT_FRONTIER = 2 * NFN      # search-set vertices
STAT_EDGES = 2 * NFN + 1     # their adjacency entries (the level's edges examined)
STAT_CHUNKS = 2 * NFN + 2    # chunks allocated
STAT_BUSY = 2 * NFN + 3      # nanoseconds spent running tasks
STAT_COLUMNS = 2 * NFN + 4


@njit(inline="always")
def new_chunk(mem, ctr, ws, me, counts):
    """``alloc_chunk``, counted."""
    counts[me, STAT_CHUNKS] += 1
    return alloc_chunk(mem, ctr, ws, me)


@njit(inline="always")
def _join(mem, join, ctr, ws, me, counts, row):
    """CreateJoin(count, cont) on a new join chunk (``row``: count, cont, jn, slot, ctx,
    arg), the continuation's result going to slot ``slot`` of join ``jn``."""
    count, cont, jn, slot, ctx, arg = row
    return create_join(join, ctr, ws, me, (new_chunk(mem, ctr, ws, me, counts), count, cont,
                                           jn, slot, ctx, arg))


@njit(inline="always")
def _gather(mem, src, vec):
    """The defined handles of chunk ``src`` in slot order into chunk ``vec`` (when it is not
    UNDEF); returns (how many, the last one)."""
    count = 0
    last = UNDEF
    for i in range(SLOTS):
        x = mem[src, i]
        if x != UNDEF:
            if vec != UNDEF:
                mem[vec, count] = x
            count += 1
            last = x
    return count, last


@njit(cache=True, nogil=True)
def _run(t, rt, me, counts, bfs):
    """Execute task ``t`` (the bodies of the paper's functions); ``bfs``: (degree,
    adj_height, keep_last: merges keep the last defined input, the paper's leaf merge, else
    the first)."""
    mem, task, join, ctr, dq, ws = rt
    degree, adj_height, keep_last = bfs
    fn = task[t, T_FN]
    a0 = task[t, T_A0]
    a1 = task[t, T_A1]
    a2 = task[t, T_A2]
    a3 = task[t, T_A3]
    a4 = task[t, T_A4]
    jn = task[t, T_JOIN]
    slot = task[t, T_SLOT]
    ctx = task[t, T_CTX]
    counts[me, ctx * NFN + fn] += 1
    if fn == FN_BFS:
        # BreadthFirstSearch(graph a0, update a1, parent a2, height a3; first index a4): Fig. 3
        if a3 == 0:
            count = 0
            last = UNDEF
            for i in range(SLOTS):
                if mem[a1, i] != UNDEF and (a2 == UNDEF or mem[a2, i] == UNDEF):
                    counts[me, STAT_FRONTIER] += 1  # a vertex of the search set
                    counts[me, STAT_EDGES] += degree[a4 + i]
                    if a0 != UNDEF and mem[a0, i] != UNDEF:
                        count += 1
                        last = mem[a0, i]
            if count <= 1:
                join_update(mem, task, join, ctr, dq, ws, me, (jn, slot, last))
                return
            vec = new_chunk(mem, ctr, ws, me, counts)
            j = _join(mem, join, ctr, ws, me, counts, (1, FN_FORWARD, jn, slot, ctx, 0))
            if vec == UNDEF or j < 0:
                return
            k = 0
            for i in range(SLOTS):
                if mem[a1, i] != UNDEF and (a2 == UNDEF or mem[a2, i] == UNDEF):
                    if mem[a0, i] != UNDEF:  # (a0 is defined: count > 1)
                        mem[vec, k] = mem[a0, i]
                        k += 1
            spawn(task, ctr, dq, ws, me, (FN_MERGE, vec, adj_height, count, 0, 0, j, 0, ctx))
            return
        j = _join(mem, join, ctr, ws, me, counts,
                  (SLOTS, FN_COLLECT, jn, slot, ctx, adj_height))
        if j < 0:
            return
        for i in range(SLOTS):
            u = mem[a1, i]
            g = mem[a0, i] if a0 != UNDEF else UNDEF  # UNDEF: no vertex below has a neighbour
            if u != UNDEF:
                p = mem[a2, i] if a2 != UNDEF else UNDEF
                spawn(task, ctr, dq, ws, me, (FN_BFS, g, u, p, a3 - 1,
                                              a4 + i * (np.int64(1) << (4 * a3)), j, i, ctx))
            else:  # UpdateNull, in place
                counts[me, ctx * NFN + FN_NULL] += 1
                join_update(mem, task, join, ctr, dq, ws, me, (j, i, UNDEF))
    elif fn == FN_COLLECT or fn == FN_UPDATE_PARENT:
        # CollectVectors(join chunk a0, height a1): Fig. 4; UpdateParent(parent a0,
        # update a1, height a2): section 4.4, the parent where the merge's winner is
        if fn == FN_COLLECT:
            count, last = _gather(mem, a0, UNDEF)
            height = a1
        else:
            count = (a0 != UNDEF) + (a1 != UNDEF)
            last = a1 if a1 != UNDEF else a0
            height = a2
        if count > 1:
            vec = new_chunk(mem, ctr, ws, me, counts)
            j = _join(mem, join, ctr, ws, me, counts, (1, FN_FORWARD, jn, slot, ctx, 0))
            if vec == UNDEF or j < 0:
                return
            if fn == FN_COLLECT:
                _gather(mem, a0, vec)
            else:
                mem[vec, 1 if keep_last else 0] = a0
                mem[vec, 0 if keep_last else 1] = a1
            spawn(task, ctr, dq, ws, me, (FN_MERGE, vec, height, count, 0, 0, j, 0, ctx))
        else:
            join_update(mem, task, join, ctr, dq, ws, me, (jn, slot, last))
    elif fn == FN_FORWARD:  # ForwardHandle: the merged vector of a one-task join
        join_update(mem, task, join, ctr, dq, ws, me, (jn, slot, mem[a0, 0]))
    elif fn == FN_MERGE:  # MergeSparseVectors(vectors a0, height a1, count a2): Figs. 5, 6
        if a1 == 0:
            leaf = new_chunk(mem, ctr, ws, me, counts)
            if leaf == UNDEF:
                return
            for i in range(SLOTS):
                for k in range(a2):
                    x = mem[mem[a0, a2 - 1 - k if keep_last else k], i]
                    if x != UNDEF:  # the first (or last) defined value wins
                        mem[leaf, i] = x
                        break
            join_update(mem, task, join, ctr, dq, ws, me, (jn, slot, leaf))
            return
        j = _join(mem, join, ctr, ws, me, counts, (SLOTS, FN_DONE_MERGE, jn, slot, ctx, 0))
        if j < 0:
            return
        for i in range(SLOTS):
            count = 0
            sub = UNDEF
            for k in range(a2):
                x = mem[mem[a0, k], i]
                if x != UNDEF:
                    count += 1
                    sub = x
            if count > 1:
                vec = new_chunk(mem, ctr, ws, me, counts)
                if vec == UNDEF:
                    return
                c = 0
                for k in range(a2):
                    x = mem[mem[a0, k], i]
                    if x != UNDEF:
                        mem[vec, c] = x
                        c += 1
                spawn(task, ctr, dq, ws, me, (FN_MERGE, vec, a1 - 1, count, 0, 0, j, i, ctx))
            else:  # MergeOne(sub), in place
                counts[me, ctx * NFN + FN_MERGE_ONE] += 1
                join_update(mem, task, join, ctr, dq, ws, me, (j, i, sub))
    elif fn == FN_DONE_MERGE:  # DoneMerge: the join chunk is the merged node
        join_update(mem, task, join, ctr, dq, ws, me, (jn, slot, a0))
    else:  # FN_FINISH: the result of a level's task tree, for the driver
        ctr[RESULT + a1] = mem[a0, 0]
        fetch_add(ctr, DONE, 1)


@njit(cache=True, nogil=True)
def work(rt, me, counts, sched, bfs):
    """Worker ``me``: run ready tasks until both task trees of the level are finished
    (returns 0), the arrays ran out (2), or nothing was found ``patience`` times in a row
    (1: the caller yields the CPU and calls again; with more workers than cores a spinning
    thread starves the others). ``sched``: (rng, nworkers, randomised, patience); ``bfs``
    as ``_run``'s. Its time here less its idle polls goes to ``STAT_BUSY``
    (the clock is read when a call starts and ends and when an idle spell starts and ends,
    not per task)."""
    mem, task, join, ctr, dq, ws = rt
    rng, nworkers, randomised, patience = sched
    idle = 0
    start = clock_ns()
    idle_from = start
    idle_ns = 0
    code = 0
    while True:
        if ctr[FLAG] != 0:
            code = 2
            break
        t = take(dq, ws, me, rng, randomised)
        if t < 0:
            t = steal(dq, ws, me, nworkers, rng, randomised)
        if t < 0:
            if idle == 0:
                idle_from = clock_ns()
            if fetch_add(ctr, DONE, 0) == 2:
                code = 0
                break
            idle += 1
            if idle >= patience:
                code = 1
                break
            continue
        if idle > 0:
            idle_ns += clock_ns() - idle_from
        idle = 0
        _run(t, rt, me, counts, bfs)
    end = clock_ns()
    if idle > 0 or code == 0:  # an idle spell (code 0: from the poll that found the end)
        idle_ns += end - idle_from
    counts[me, STAT_BUSY] += end - start - idle_ns
    return code
