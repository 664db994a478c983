"""The compiled CPU engine of the hybrid BFS: paper 002's CPU task (Algorithm 4), and the
host's side of the exchange.

A task is a range of vertices (``tasks.TaskSet``) read through the bitmap words that overlap
it, each masked to the task's bits (``_span``); a level runs a list of tasks over all
threads, each task serially on the thread that claimed it (the paper's parallelism: many
independent tasks, not a parallel task), largest first, claimed from a shared counter.

- ``topdown_tasks``: each task expands its frontier vertices (the set bits of ``front`` in
  its words) and claims unvisited neighbours anywhere in the graph with an atomic
  fetch-and-or on ``visited`` (the paper's shared VB), adding them to ``nxt`` (its shared
  NVF).
- ``bottomup_tasks``: each task's unvisited vertices (with neighbours) look for a parent in
  the frontier and stop at the first hit (Beamer's step restricted to the task's vertices: a
  task writes only its own bits, with an atomic or, as a word may be shared with the next
  task).
- ``merge_found``: the array side's discoveries of a level (its NVF words of the tasks where
  it found vertices) joined into the host's bitmaps: what the CPU found too is a duplicate
  (both sides claimed it in the same level: either parent is valid, the host's is kept);
  the others are the array side's own (``owned``: their parents live there until the end).
- ``adopt_parents``: the end of a search: the parents of the ``owned`` vertices, copied back
  (those of every vertex the array side claimed, in vertex order), written into the host's
  parent array.

A level whose work is at most ``steps.SERIAL_WORK`` runs on the calling thread (the
``_serial`` kernels: no parallel region to start, as ``direction-optimizing``'s small
levels; ``run_tasks`` picks). Both level kernels return, per task, the vertices found in it and their degree sum (the
next level's frontier size and edges, per owner task: what the scheduler reads), and each
task's time (the in-kernel clock), so the level records say which side ran each task and
how long it took. The array-side stand-in (``standin``) runs these same kernels on its own
copies of the state.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from ...primitives import clock_ns, cttz, fetch_add, fetch_or, popcount
from ...primitives.bitmaps import ALL_SET, BIT_MASK, ONE, WORD_SHIFT, ZERO, as_uint

__all__ = ["topdown_tasks", "topdown_tasks_serial", "bottomup_tasks", "bottomup_tasks_serial",
           "run_tasks", "load_kernels", "merge_found", "adopt_parents"]


@njit(inline="always")
def _span(w, lo, hi):
    """The bits of word ``w`` that fall in the vertex range [lo, hi) (not empty)."""
    base = np.int64(w) * 64
    a = max(lo - base, 0)
    b = min(hi - base, 64)
    return (ALL_SET >> as_uint(64 - (b - a))) << as_uint(a)


@njit(inline="always")
def _topdown_task(indptr, indices, parent, depth, visited, front, nxt, lo, hi, ntasks,
                  level, t, k, found, degs):
    """Task k's top-down work (row t of ``found`` / ``degs``); returns the entries read."""
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
def _bottomup_task(indptr, indices, parent, depth, visited, front, nxt, linked, lo, hi,
                   level, t, k, found, degs):
    """Task k's bottom-up work (its own bits only); returns the entries read."""
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


@njit(cache=True, parallel=True)
def topdown_tasks(indptr, indices, parent, depth, visited, front, nxt, lo, hi, order,
                  ntasks, level, nthreads, found, degs, task_ns):
    """A top-down level of the tasks ``order`` (task ids, claimed in that order) over
    ``nthreads`` threads. ``found`` and ``degs`` (nthreads x T, zero): per thread, the
    vertices it claimed in each owner task and their degrees; ``task_ns[k]``: task k's
    nanoseconds. Returns the adjacency entries examined."""
    counter = np.zeros(1, np.int64)
    examined = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        ex = 0
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= order.shape[0]:
                break
            k = order[c]
            t0 = clock_ns()
            ex += _topdown_task(indptr, indices, parent, depth, visited, front, nxt, lo, hi,
                                ntasks, level, t, k, found, degs)
            task_ns[k] = clock_ns() - t0
        examined[t] = ex
    return examined.sum()


@njit(cache=True)
def topdown_tasks_serial(indptr, indices, parent, depth, visited, front, nxt, lo, hi, order,
                         ntasks, level, found, degs, task_ns):
    """``topdown_tasks`` on this thread alone (row 0): a small level, no parallel region."""
    ex = 0
    for c in range(order.shape[0]):
        k = order[c]
        t0 = clock_ns()
        ex += _topdown_task(indptr, indices, parent, depth, visited, front, nxt, lo, hi,
                            ntasks, level, 0, k, found, degs)
        task_ns[k] = clock_ns() - t0
    return ex


@njit(cache=True, parallel=True)
def bottomup_tasks(indptr, indices, parent, depth, visited, front, nxt, linked, lo, hi,
                   order, level, nthreads, found, degs, task_ns):
    """A bottom-up level of the tasks ``order``: every vertex of a task that is unvisited and
    has neighbours (``linked``) takes its first neighbour in ``front`` as parent. A task
    writes only its own bits of ``nxt`` and ``visited`` (the caller zeroed ``nxt``).
    Outputs as ``topdown_tasks`` (a task's finds are its own: row t, column k)."""
    counter = np.zeros(1, np.int64)
    examined = np.zeros(nthreads, np.int64)
    for t in prange(nthreads):
        ex = 0
        while True:
            c = fetch_add(counter, 0, np.int64(1))
            if c >= order.shape[0]:
                break
            k = order[c]
            t0 = clock_ns()
            ex += _bottomup_task(indptr, indices, parent, depth, visited, front, nxt, linked,
                                 lo, hi, level, t, k, found, degs)
            task_ns[k] = clock_ns() - t0
        examined[t] = ex
    return examined.sum()


@njit(cache=True)
def bottomup_tasks_serial(indptr, indices, parent, depth, visited, front, nxt, linked, lo,
                          hi, order, level, found, degs, task_ns):
    """``bottomup_tasks`` on this thread alone (row 0)."""
    ex = 0
    for c in range(order.shape[0]):
        k = order[c]
        t0 = clock_ns()
        ex += _bottomup_task(indptr, indices, parent, depth, visited, front, nxt, linked, lo,
                             hi, level, 0, k, found, degs)
        task_ns[k] = clock_ns() - t0
    return ex


@njit(cache=True, parallel=True)
def merge_found(indptr, visited, nxt, claimed, owned, depth, level, recv, tasks, lo, hi,
                offsets, dev_deg, only_cnt, only_deg):
    """Join the array side's NVF words ``recv`` (task ``tasks[i]``'s words at
    ``recv[offsets[i]:offsets[i + 1]]``) into ``visited`` and ``nxt`` (which hold the CPU's
    claims of this level), and into ``claimed`` (every vertex the array side claimed). Bits
    the CPU also claimed are duplicates (the host keeps its parent); the others are marked
    in ``owned`` (their parent is on the array side), given their depth, and counted per
    task in ``only_cnt`` / ``only_deg``: the vertices by popcount, the degrees as the array
    side's sums (``dev_deg``, per task) less the duplicates' (word operations only, but for
    the rare duplicates and, when depths are wanted, the vertices). Returns the
    duplicates."""
    keep_depth = depth.shape[0] != 0
    d = level + 1
    dups = np.zeros(tasks.shape[0], np.int64)
    for i in prange(tasks.shape[0]):
        k = tasks[i]
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


def run_tasks(bottom, work, indptr, indices, parent, depth, visited, front, nxt, ts, order,
              level, nthreads, found, degs, task_ns) -> int:
    """The CPU engine's level: the tasks ``order`` of the TaskSet ``ts``, serially when the
    level's ``work`` is at most ``steps.SERIAL_WORK``, else over ``nthreads`` threads."""
    from .. import steps

    if work <= steps.SERIAL_WORK:
        if bottom:
            return bottomup_tasks_serial(indptr, indices, parent, depth, visited, front, nxt,
                                         ts.linked, ts.lo, ts.hi, order, level, found, degs,
                                         task_ns)
        return topdown_tasks_serial(indptr, indices, parent, depth, visited, front, nxt,
                                    ts.lo, ts.hi, order, ts.count, level, found, degs,
                                    task_ns)
    if bottom:
        return bottomup_tasks(indptr, indices, parent, depth, visited, front, nxt, ts.linked,
                              ts.lo, ts.hi, order, level, nthreads, found, degs, task_ns)
    return topdown_tasks(indptr, indices, parent, depth, visited, front, nxt, ts.lo, ts.hi,
                         order, ts.count, level, nthreads, found, degs, task_ns)
