"""The compiled CPU engine of the hybrid BFS: paper 002's CPU task (Algorithm 4), and the
host's side of the exchange.

A task is a range of vertices (``tasks.TaskSet``) read through the bitmap words that overlap
it, each masked to the task's bits (``_span``); a level runs a list of tasks over all
threads, each task serially on the thread that claimed it (the paper's parallelism: many
independent tasks, not a parallel task), largest first, claimed from a shared counter.

- ``level_tasks``, top-down: each task expands its frontier vertices (the set bits of
  ``front`` in its words) and claims unvisited neighbours anywhere in the graph with an
  atomic fetch-and-or on ``visited`` (the paper's shared VB), adding them to ``nxt`` (its
  shared NVF).
- ``level_tasks``, bottom-up: each task's unvisited vertices (with neighbours) look for a
  parent in the frontier and stop at the first hit (Beamer's step restricted to the task's
  vertices: a task writes only its own bits, with an atomic or, as a word may be shared with
  the next task).
- ``merge_found``: the array side's discoveries of a level (its NVF words of the tasks where
  it found vertices) joined into the host's bitmaps: what the CPU found too is a duplicate
  (both sides claimed it in the same level: either parent is valid, the host's is kept);
  the others are the array side's own (``owned``: their parents live there until the end).
- ``adopt_parents``: the end of a search: the parents of the ``owned`` vertices, copied back
  (those of every vertex the array side claimed, in vertex order), written into the host's
  parent array.

A level whose work is at most ``steps.SERIAL_WORK`` runs on the calling thread
(``level_tasks_serial``: no parallel region to start, as ``direction-optimizing``'s small
levels; ``run_tasks`` picks). A level returns, per task, the vertices found in it and their
degree sum (the next level's frontier size and edges, per owner task: what the scheduler
reads), and each task's time (the in-kernel clock), so the level records say which side ran
each task and how long it took. The array-side stand-in (``standin``) runs these same
kernels on its own copies of the state.

The kernels take records: ``graph`` (indptr, indices), ``state`` (parent, depth, visited,
front, nxt; ``depth`` empty when not wanted), ``tasks`` (``task_record``) and ``out``
(found, degs, task_ns).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ...primitives import clock_ns, cttz, fetch_add, fetch_or, popcount
from ...primitives.bitmaps import ALL_SET, BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint

__all__ = ["level_tasks", "level_tasks_serial", "run_tasks", "task_record", "load_kernels",
           "merge_found", "adopt_parents"]


@njit(inline="always")
def _span(w, lo, hi):
    """The bits of word ``w`` that fall in the vertex range [lo, hi) (not empty)."""
    base = np.int64(w) * 64
    a = max(lo - base, 0)
    b = min(hi - base, 64)
    return (ALL_SET >> as_uint(64 - (b - a))) << as_uint(a)


@njit(inline="always")
def _topdown_task(graph, state, tasks, level, t, k, out):
    """Task k's top-down work (row t of ``found`` / ``degs``); returns the entries read."""
    indptr, indices = graph
    parent, depth, visited, front, nxt = state
    lo, hi, linked, ntasks = tasks
    found, degs, task_ns = out
    keep_depth = depth.shape[0] != 0
    n = np.int64(parent.shape[0])
    d = level + 1
    ex = 0
    for w in range(lo[k] >> 6, (hi[k] + 63) >> 6):
        bits = front[w] & _span(w, lo[k], hi[k])
        base = as_uint(w) << WORD_SHIFT
        while bits != ZERO:
            b = cttz(bits)
            bits ^= ONE << b
            u = base + b
            s = indptr[u]
            e = indptr[u + ONE]
            ex += e - s
            pu = np.int64(u)
            for p in range(s, e):
                v = as_uint(indices[as_uint(p)])
                vw = v >> WORD_SHIFT
                bit = ONE << (v & BIT_MASK)
                if (visited[vw] & bit) == ZERO:
                    if (fetch_or(visited, vw, bit) & bit) == ZERO:  # ours
                        parent[v] = pu
                        if keep_depth:
                            depth[v] = d
                        fetch_or(nxt, vw, bit)
                        owner = (np.int64(v) * ntasks + ntasks - 1) // n
                        found[t, owner] += 1
                        degs[t, owner] += indptr[v + ONE] - indptr[v]
    return ex


@njit(inline="always")
def _bottomup_task(graph, state, tasks, level, t, k, out):
    """Task k's bottom-up work (its own bits only); returns the entries read."""
    indptr, indices = graph
    parent, depth, visited, front, nxt = state
    lo, hi, linked, ntasks = tasks
    found, degs, task_ns = out
    keep_depth = depth.shape[0] != 0
    d = level + 1
    ex = 0
    cnt = 0
    deg = 0
    for w in range(lo[k] >> 6, (hi[k] + 63) >> 6):
        todo = linked[w] & ~visited[w] & _span(w, lo[k], hi[k])
        got = ZERO
        base = as_uint(w) << WORD_SHIFT
        while todo != ZERO:
            b = cttz(todo)
            bit = ONE << b
            todo ^= bit
            v = base + b
            s = indptr[v]
            e = indptr[v + ONE]
            p = s
            while p < e:
                u = as_uint(indices[as_uint(p)])
                if (front[u >> WORD_SHIFT] >> (u & BIT_MASK)) & ONE:
                    break
                p += 1
            if p < e:
                parent[v] = indices[as_uint(p)]
                if keep_depth:
                    depth[v] = d
                got |= bit
                cnt += 1
                deg += e - s
                ex += p - s + 1
            else:
                ex += e - s
        if got != ZERO:  # (a word may be shared with the next task: atomically)
            fetch_or(nxt, w, got)
            fetch_or(visited, w, got)
    found[t, k] += cnt
    degs[t, k] += deg
    return ex


@njit
def _claim(graph, state, tasks, queue, bottom, level, t, out):
    """Thread t's share of a level: the next task of ``queue`` (the task ids in order, the
    shared counter of those taken) claimed, run and timed until none is left; returns the
    entries read."""
    order, counter = queue
    task_ns = out[2]
    ex = 0
    while True:
        c = fetch_add(counter, 0, np.int64(1))
        if c >= order.shape[0]:
            break
        k = order[c]
        t0 = clock_ns()
        if bottom:
            ex += _bottomup_task(graph, state, tasks, level, t, k, out)
        else:
            ex += _topdown_task(graph, state, tasks, level, t, k, out)
        task_ns[k] = clock_ns() - t0
    return ex


@njit(cache=True, parallel=True)
def level_tasks(graph, state, tasks, order, bottom, level, nthreads, out):
    """A level of the tasks ``order`` (task ids, claimed in that order) over ``nthreads``
    threads, bottom-up or top-down. ``out``: (found, degs, task_ns); ``found`` and ``degs``
    (nthreads x T, zero): per thread, the vertices it claimed in each owner task and their
    degrees; ``task_ns[k]``: task k's nanoseconds. Returns the adjacency entries examined."""
    queue = (order, np.zeros(1, np.int64))
    examined = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):  # a call, not inlined: records inlined here trip parfors
        examined[t] = _claim(graph, state, tasks, queue, bottom, level, t, out)
    return examined.sum()


@njit(cache=True)
def level_tasks_serial(graph, state, tasks, order, bottom, level, out):
    """``level_tasks`` on this thread alone (row 0): a small level, no parallel region."""
    return _claim(graph, state, tasks, (order, np.zeros(1, np.int64)), bottom, level, 0, out)


@njit(cache=True, parallel=True)
def merge_found(indptr, maps, depth, level, sent, tasks, counts):
    """Join the array side's NVF words into the host's ``maps`` (visited, nxt, claimed,
    owned). ``sent``: (recv, which, offsets, dev_deg): task ``which[i]``'s words at
    ``recv[offsets[i]:offsets[i + 1]]``, the array side's degree sums per task. ``visited``
    and ``nxt`` hold the CPU's claims of this level; ``claimed`` gets every vertex the array
    side claimed. Bits the CPU also claimed are duplicates (the host keeps its parent); the
    others are marked in ``owned`` (their parent is on the array side), given their depth,
    and counted per task in ``counts`` (only_cnt, only_deg): the vertices by popcount, the
    degrees as ``dev_deg`` less the duplicates' (word operations only, but for the rare
    duplicates and, when depths are wanted, the vertices). Returns the duplicates."""
    visited, nxt, claimed, owned = maps
    recv, which, offsets, dev_deg = sent
    lo, hi, linked, ntasks = tasks
    only_cnt, only_deg = counts
    keep_depth = depth.shape[0] != 0
    d = level + 1
    dups = np.zeros(which.shape[0], np.int64)
    for i in prange(which.shape[0]):
        k = which[i]
        wlo = lo[k] >> 6
        off = offsets[i] - wlo
        cnt = 0
        deg = dev_deg[k]
        dup = 0
        for w in range(wlo, (hi[k] + 63) >> 6):
            got = recv[off + w] & _span(w, lo[k], hi[k])  # task k's bits (a word is shared)
            if got == ZERO:
                continue
            mine = nxt[w]
            fetch_or(claimed, w, got)
            only = got & ~mine
            both = got & mine
            fetch_or(visited, w, only)
            fetch_or(nxt, w, only)
            fetch_or(owned, w, only)
            cnt += popcount(only)
            base = as_uint(w) << WORD_SHIFT
            while both != ZERO:  # a duplicate: its degree was counted by both sides
                b = cttz(both)
                both ^= ONE << b
                v = base + b
                deg -= indptr[v + ONE] - indptr[v]
                dup += 1
            while keep_depth and only != ZERO:
                b = cttz(only)
                only ^= ONE << b
                depth[base + b] = d
        only_cnt[k] += cnt
        only_deg[k] += deg
        dups[i] = dup
    return dups.sum()


@njit(cache=True, parallel=True)
def adopt_parents(parent, claimed, owned, recv, nthreads):
    """parent[v] = the array side's parent for every ``owned`` vertex. ``recv`` holds the
    array side's parents of every vertex it ``claimed``, in vertex order (the owned ones
    are those claimed minus the duplicates the host kept)."""
    nwords = claimed.shape[0]
    nchunks = max(1, min(nwords, 4 * nthreads))
    start = np.zeros(nchunks + 1, np.int64)  # where each chunk's parents start in recv
    for c in prange(nchunks):
        cnt = 0
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            cnt += popcount(claimed[w])
        start[c + 1] = cnt
    for c in range(nchunks):
        start[c + 1] += start[c]
    for c in prange(nchunks):
        i = start[c]
        for w in range((nwords * c) // nchunks, (nwords * (c + 1)) // nchunks):
            bits = claimed[w]
            base = as_uint(w) << WORD_SHIFT
            while bits != ZERO:
                b = cttz(bits)
                bit = ONE << b
                bits ^= bit
                if owned[w] & bit:
                    parent[base + b] = recv[i]
                i += 1


def load_kernels(indptr, indices, parent, depth, visited, front, nxt, ts, nthreads, found,
                 degs, task_ns) -> None:
    """Every form of the CPU engine's level (serial and parallel, each direction) called
    once with no task: the first call of each loads its compiled code (milliseconds), which
    inside a measured level taught the tuner a CPU side several times slower than it is."""
    none = np.empty(0, np.int64)
    for bottom in (False, True):
        for work in (0.0, math.inf):
            run_tasks(bottom, work, indptr, indices, parent, depth, visited, front, nxt, ts,
                      none, 0, nthreads, found, degs, task_ns)


def task_record(ts) -> tuple:
    """The kernels' record of the TaskSet ``ts``: (lo, hi, linked, count)."""
    return ts.lo, ts.hi, ts.linked, ts.count


def run_tasks(bottom, work, indptr, indices, parent, depth, visited, front, nxt, ts, order,
              level, nthreads, found, degs, task_ns) -> int:
    """The CPU engine's level: the tasks ``order`` of the TaskSet ``ts``, serially when the
    level's ``work`` is at most ``steps.SERIAL_WORK``, else over ``nthreads`` threads."""
    from .. import steps

    graph, state = (indptr, indices), (parent, depth, visited, front, nxt)
    out = (found, degs, task_ns)
    if work <= steps.SERIAL_WORK:
        return level_tasks_serial(graph, state, task_record(ts), order, bottom, level, out)
    return level_tasks(graph, state, task_record(ts), order, bottom, level, nthreads, out)
