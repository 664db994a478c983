"""Delta-stepping (Meyer & Sanders), compiled with numba and parallel over all numba threads,
on rows sorted by weight with the heavy edges relaxed late.

Bucket ``i`` holds the vertices whose tentative distance lies in ``[i * delta, (i + 1) *
delta)``; the lowest non-empty bucket is processed in STEPS until relaxations stop refilling
it, then its vertices are SETTLED (final). As in GAP's sssp.cc (Beamer et al.), each thread
appends what it lowers to its own list of the vertex's new bucket (``bins``). Unlike it, a
vertex does not relax its whole row when it is taken: kernel 1 keeps every row sorted by
weight too (``CSRGraph.by_weight``), and a vertex relaxes the head of its row whose
candidates fall in its own bucket when it is taken (short rows: all of it), and the rest
only after it is settled, a band at a time, each band in the bucket where its candidates
begin (the rest of a row waits in the bins as a "heavy entry"; ``delta_phases`` has the
details). By the time an edge is relaxed this way, its target is almost always settled
already (97% of the edges of a Graph500 SCALE 20 graph) and is skipped on one bit of a
bitmap that stays in the core's cache, where the eager form reads the target's state word, a
random read into 8 MB at SCALE 20 for each of the 33 M edges. Every edge is still relaxed
with its source's final distance no later than the bucket of the candidate, which is what
makes the buckets exact; the relaxation itself is unchanged (below).

Once the hubs are settled, the search PULLS (``delta_pull``): the rests still pending then
come to 20 M entries at SCALE 20, and the rows of the vertices not settled to 2 M, most of
them leaves. Each unsettled vertex reads its row from the settled side (lightest first, up
to its best candidate), a vertex whose neighbours are all settled is settled there and then,
and the rests are dropped: every edge they held now has a settled vertex at both ends or
has been relaxed from the other end. This is Chakaravarthy et al.'s pruning (IPDPS 2014).
The pull comes at the first bucket boundary where the pending rests exceed ``PULL_RATIO``
times what the pull reads; the log marks it (``extra["pull"]``). At SCALE 20 it cuts the
entries read from 31.5 M to 8.3 M and the time of a search by about 45%. What the pull
leaves at SCALE 20 is about 140,000 low-degree vertices to take, spread over some 370
buckets, most too small to share between threads (``SERIAL_WORK``); so from the first pull
on the buckets are ``PULL_WIDEN`` times wider: the light bins are emptied before it, the
pull puts every reached vertex it leaves unsettled into the bucket of the new width
(``every``), and the search goes on from there (the log's bucket numbers count in that
width after the pull). Exactness holds for any width, and every vertex below the boundary
is settled, so the new window starts just below it. Two threads, SCALE 20, 8 keys, time of
a search with
PULL_WIDEN 4, 8 or 16 over PULL_WIDEN 1 in the same run: 0.88-0.91; on one thread, CPU
time, 0.95 with 4.

Per step (compiled driver ``_search``, no Python per step): the bucket's entries become JOBS,
runs of one row each (``take``, each thread draining its own lists when there are more than
``PARALLEL_TAKE`` entries), then their edges are relaxed in edge-balanced chunks claimed
dynamically by the threads (``relax_parallel``) or, with little work (``SERIAL_WORK``), on
the driver's thread: a path's million tiny steps must not each wake the thread pool. When the
bucket is done, its vertices are settled and their rows' rests scheduled (``settle``: each
thread the records of its share of the settled bitmap, latest first, with no state read and
no atomic operation).
Random reads are prefetched ahead: the rows of the jobs a few places on, the state words
and row offsets of the entries, and the state words of the unsettled targets, whose
relaxation is delayed by a few finds for it.

Where the time goes (SCALE 20, default delta, two threads, 16 keys: 86-105 ms a root as the
VM's speed moves): 41-49 ms before the first pull (9 buckets, 1.6 M edges relaxed, 0.3 M
distances lowered), 21-28 ms in the pulls (the first reads 1.7 M entries of 0.45 M rows and
lowers 0.42 M vertices; a second, a few wide buckets later, 0.03 M rows), 16-21 ms in the
buckets after them. A search relaxes little AHEAD of its bucket because of the pull: the
rests still pending when it comes are dropped, so an edge relaxed early before it is mostly
work for nothing. With rows of up to 32 entries relaxed whole and LOOK_AHEAD 1, a search
relaxed 4.9 M entries before the pull instead of 1.6 M and took 5-15% longer at SCALE 18
and 20 (the same at 16 and 22, where the pull, finding fewer distances to start from, reads
more; ``benchmarks/bench_sssp_phases.py``). Without the pull (``PULL_RATIO = 0``) the search
reads all 31.4 M adjacency entries.

State: one int64 word per vertex (``state``: float32 distance bits and parent, lowered by
compare-and-swap only on a strict decrease), which makes the parents a tree whose edges hold
``distance[v] == float32(distance[parent] + w)`` exactly; the argument is in ``state``. A
vertex relaxes a row head again after each lowering of its distance in its bucket, and the
rest only with its final distance.

Default delta: ``DELTA_SCALE * mean weight / average degree`` (average degree = adjacency
entries / vertices, 30 on a Graph500 Kronecker graph; the mean weight of at most 4096 evenly
spaced entries, about 0.45 there: duplicates keep their lightest weight), i.e. about 0.005 on
Graph500 graphs. One thread, SCALE 20, first 4 roots, CPU ms per root (median), by
DELTA_SCALE (the VM under load, so compare within a row):

    DELTA_SCALE   0.04   0.08   0.16   0.32   0.64   1.28   2.56
    CPU ms        265    271    253    250    277    278    371
    steps         3508   1955   1076   589    323    182    107

The cost is flat from 0.04 to 1.28; fewer steps means fewer waits for the threads, so 0.32.
With the pull the wider buckets lose (two threads, 16 roots twice, wall ms median): 77.7,
75.4, 86.7, 104.5, 157.8 for 0.16, 0.32, 0.64, 1.28, 2.56; still 0.32. ``PULL_RATIO`` in
the same way (a vertex term of 1 instead of 1/8 where marked *): 130.4 (no pull), 78.6 (2),
71.1 (4), 70.9 (8), 73.0 (16), 76.8 (4*), 71.1 (8*); SCALE 16 and 22 as flat from 4 to 16.
``MIN_RUN`` 4 to 8 and ``LOOK_AHEAD`` 0 to 0.5 are flat (above for larger ones). The window of
``bins.RING`` = 2048 buckets spans the distances of these graphs (at most about 2.2) at the
default delta; heavy entries past it wait in the overflow slot.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit

from ..bfs.types import check_positive
from ..errors import InputError
from ..graph.types import CSRGraph
from ..primitives import clock_ns
from .bins import (CHUNK, RING, chunks_needed, grow_pool, new_bins, new_wide_bins, push,
                   release_slot)
from .delta_phases import MAX_ENTRIES, rebase, settle, settle_parallel, take, take_parallel
from .delta_pull import pull
from .delta_relax import relax_edges, relax_parallel
from .state import (check_search, finish_state, init_state, log_close, log_grow, log_row,
                    new_phase_log, phase_table)
from .types import SSSPResult

__all__ = ["sssp_delta_stepping", "default_delta", "DELTA_SCALE", "LOOK_AHEAD", "MIN_RUN",
           "SERIAL_WORK", "PARALLEL_TAKE", "TIME_GRAIN", "PULL_RATIO",
           "PULL_WIDEN"]

# delta = DELTA_SCALE * mean weight / average degree (see the module docstring).
DELTA_SCALE = 0.32
# A heavy entry of a vertex settled in bucket b, taken in bucket cur, relaxes its row up to
# bucket cur + (cur - b) * LOOK_AHEAD. Read at call time.
LOOK_AHEAD = 0.25
# Runs of at least this many entries (a row this short is relaxed whole when its vertex is
# taken: its cache lines are read anyway). Read at call time.
MIN_RUN = 6
# A step whose jobs + edges is at most this runs on the driver's thread. Read at call time.
SERIAL_WORK = 1 << 12
# Steps with less work than this are timed together. Read at call time.
TIME_GRAIN = 1 << 10
# Buckets with more entries (or records) than this are taken (settled) by all threads.
# Read at call time.
PARALLEL_TAKE = 1 << 11
# Pull (``delta_pull``) at a bucket boundary when the entries of the settled rows not yet
# relaxed exceed this many times the pull's cost: the entries of the unsettled rows, and an
# eighth for each unsettled vertex (a bit and a row offset read). 0: never. Read at call
# time.
PULL_RATIO = 8.0
# After the first pull, buckets this many times wider (1: the same). Read at call time.
PULL_WIDEN = 8.0


@njit(cache=True)
def _grow(a, need):
    """``a`` or a copy at least twice as long, with at least ``need`` entries."""
    if a.shape[0] >= need:
        return a
    out = np.empty(max(need, 2 * a.shape[0]), a.dtype)
    out[:a.shape[0]] = a
    return out


@njit(cache=True)
def _search(graph, root, state, inv_delta, nthreads, tune, chunks, log):
    """The whole search (see the module docstring). ``graph``: (indptr, nbr, wt); ``tune``:
    the tunables (LOOK_AHEAD, MIN_RUN, SERIAL_WORK, PARALLEL_TAKE, TIME_GRAIN, PULL_RATIO,
    PULL_WIDEN); ``log``: (rows, batches) of ``new_phase_log``. Returns the log (rows,
    batches, number of rows, number of batches)."""
    indptr, nbr, wt = graph
    look, min_run, serial_work, parallel_take, grain, pull_ratio, widen = tune
    rows, batches = log
    n = state.shape[0]
    pool, cnext, fstack, ctr, lcount, lhead, ltail = new_bins(nthreads, chunks)
    hpool, hcnext, hfstack, hctr, hcount, hhead, htail = new_wide_bins(nthreads, chunks)
    taken = np.zeros((n + 63) >> 6, np.uint64)  # the vertices taken in this step
    settled = np.zeros((n + 63) >> 6, np.uint64)  # the vertices of the finished buckets
    jst = np.empty(1024, np.int64)  # jobs: start of the run, u << 32 | du, run length
    jud = np.empty(1024, np.int64)
    wp = np.empty(1025, np.int64)
    rud = np.empty(1024, np.int64)  # the bucket's records: u << 32 | du, rest, its bucket
    rc = np.empty(1024, np.int64)
    rdue = np.empty(1024, np.int64)
    rdeg = np.empty(1024, np.int64)
    nrow = 0
    nb = 0
    t_last = clock_ns()
    open_work = 0
    unsettled_deg = indptr[n]  # the entries of the rows of the vertices not settled
    nsettled = 0
    pending = np.int64(0)  # entries of settled rows not relaxed since the last pull (about)
    push(pool, cnext, fstack, ctr, lcount, lhead, ltail, (0, 0, np.int32(root)))
    base = np.int64(0)
    cur = np.int64(0)
    widened = False
    while True:
        # ---- the next bucket with entries ------------------------------------------------
        s = cur - base
        while s < RING:
            tot = 0
            for t in range(nthreads):
                tot += lcount[t, s] + hcount[t, s]
            if tot > 0:
                break
            s += 1
        if s == RING:  # the window is empty: open the next one on the overflows
            base, bins, hbins = rebase(
                (pool, cnext, fstack, ctr, lcount, lhead, ltail),
                (hpool, hcnext, hfstack, hctr, hcount, hhead, htail), state, taken, wt,
                inv_delta, base)
            pool, cnext, fstack = bins[0], bins[1], bins[2]
            hpool, hcnext, hfstack = hbins[0], hbins[1], hbins[2]
            if base < 0:
                break
            cur = base
            continue
        cur = base + s
        nrec = 0
        heavy = True  # the heavy entries are taken in a bucket's first step
        while True:  # ---- the steps of bucket cur ---------------------------------------
            nl = 0
            nh = 0
            for t in range(nthreads):
                nl += lcount[t, s]
                if heavy:
                    nh += hcount[t, s] // 2
            if nl + nh == 0:
                break
            jst = _grow(jst, nl + nh)
            jud = _grow(jud, nl + nh)
            wp = _grow(wp, nl + nh + 1)
            rud = _grow(rud, nrec + nl)
            rc = _grow(rc, nrec + nl)
            rdue = _grow(rdue, nrec + nl)
            rdeg = _grow(rdeg, nrec + nl)
            need = chunks_needed(2 * nh, nthreads * (RING + 1))
            if hcnext.shape[0] - hctr[0] < need:
                hpool, hcnext, hfstack = grow_pool(hpool, hcnext, hfstack, hctr[0], need)
            step = (s, cur, base, inv_delta, look, min_run, heavy)
            bins = (pool, cnext, fstack, ctr, lcount, lhead, ltail)
            hbins = (hpool, hcnext, hfstack, hctr, hcount, hhead, htail)
            if nl + nh >= parallel_take and nthreads > 1:
                nj, nr = take_parallel(bins, hbins, step, graph, (state, taken, settled),
                                       (jst, jud, wp), (rud, rc, rdue, rdeg), nrec)
            else:
                nj, nr = take(bins, hbins, step, graph, (state, taken, settled), (jst, jud, wp),
                              (rud, rc, rdue, rdeg), nrec)
            for i in range(nrec, nrec + nr):  # forget the claims (one record per claim)
                taken[(rud[i] >> 32) >> 6] = 0
            nrec += nr
            release_slot(cnext, fstack, ctr, lcount, lhead, s)
            if heavy:
                release_slot(hcnext, hfstack, hctr, hcount, hhead, s)
                heavy = False
            edges = np.int64(0)
            for i in range(nj):
                d = wp[i]
                wp[i] = edges
                edges += d
            wp[nj] = edges
            if edges == 0:
                continue
            pending -= edges
            need = chunks_needed(edges, nthreads * (RING + 1))
            if cnext.shape[0] - ctr[0] < need:
                pool, cnext, fstack = grow_pool(pool, cnext, fstack, ctr[0], need)
            if nrow + 1 > rows.shape[0] or nb + 3 > batches.shape[0]:
                rows, batches = log_grow(rows, batches, nrow, nb)
            # ---- relax --------------------------------------------------------------------
            serial = nthreads == 1 or nj + edges <= serial_work
            jobs = (jst, jud, wp[:nj + 1])
            bins = (pool, cnext, fstack, ctr, lcount, lhead, ltail)
            if serial:
                lowered = relax_edges(0, edges, graph, (state, settled), jobs, (inv_delta, base),
                                      bins, (np.int64(0), np.int64(nthreads), False))
            else:
                if open_work > 0:
                    nb, t_last = log_close(batches, nb, nrow, t_last)
                    open_work = 0
                lowered = relax_parallel(graph, (state, settled), jobs, (inv_delta, base), bins)
            log_row(rows, nrow, nj, edges, lowered, cur, 0)
            nrow += 1
            open_work += nj + edges
            if not serial or open_work >= grain:
                nb, t_last = log_close(batches, nb, nrow, t_last)
                open_work = 0
        # ---- the bucket is done: settle it, schedule the rests of its rows ----------------
        need = chunks_needed(2 * nrec, nthreads * (RING + 1))
        if hcnext.shape[0] - hctr[0] < need:
            hpool, hcnext, hfstack = grow_pool(hpool, hcnext, hfstack, hctr[0], need)
        recs = (rud, rc, rdue, rdeg)
        hbins = (hpool, hcnext, hfstack, hctr, hcount, hhead, htail)
        if nthreads > 1 and nrec > parallel_take:
            done, degrees = settle_parallel(recs, nrec, settled, base, hbins)
        else:
            done, degrees = settle(recs, nrec, settled, base, hbins)
        cur += 1
        nsettled += done
        unsettled_deg -= degrees
        pending += degrees
        # ---- the pull: the unsettled rows instead of the settled rows' rests ---------------
        if pull_ratio > 0 and pending > pull_ratio * (unsettled_deg + ((n - nsettled) >> 3)):
            need = chunks_needed(n - nsettled, nthreads * (RING + 1))
            if cnext.shape[0] - ctr[0] < need:
                pool, cnext, fstack = grow_pool(pool, cnext, fstack, ctr[0], need)
            if nrow + 1 > rows.shape[0] or nb + 3 > batches.shape[0]:
                rows, batches = log_grow(rows, batches, nrow, nb)
            nb, t_last = log_close(batches, nb, nrow, t_last)
            open_work = 0
            every = widen > 1 and not widened
            if every:  # wider buckets from here on: the pull puts every live vertex in them
                widened = True
                for s in range(RING + 1):
                    release_slot(cnext, fstack, ctr, lcount, lhead, s)
                inv_delta /= widen
                base = max(np.int64(0), np.int64(cur / widen) - 1)
                cur = base
            examined, read, lowered, done, degrees = pull(
                graph, state, settled, inv_delta, base,
                (pool, cnext, fstack, ctr, lcount, lhead, ltail), every)
            nsettled += done
            unsettled_deg -= degrees
            for s in range(RING + 1):  # the rests: nothing left to do
                release_slot(hcnext, hfstack, hctr, hcount, hhead, s)
            pending = 0
            if examined > 0:  # (none: the rests were all that was left)
                log_row(rows, nrow, examined, read, lowered, cur, 1)
                nrow += 1
                nb, t_last = log_close(batches, nb, nrow, t_last)
    if nb + 1 > batches.shape[0]:
        rows, batches = log_grow(rows, batches, nrow, nb)
    nb, t_last = log_close(batches, nb, nrow, t_last)
    return rows, batches, nrow, nb


def default_delta(graph: CSRGraph) -> float:
    """``DELTA_SCALE * mean weight / average degree`` (see the module docstring); 1.0 for a
    graph without edges or with all sampled weights 0."""
    m = int(graph.indptr[-1])
    n = max(int(graph.num_vertices), 1)
    if m == 0:
        return 1.0
    step = max(1, m // 4096)
    wmean = float(np.mean(graph.weights[::step][:4096], dtype=np.float64))
    if not wmean > 0 or not np.isfinite(wmean):
        return 1.0
    return DELTA_SCALE * wmean / (m / n)


def sssp_delta_stepping(graph: CSRGraph, root, *, delta=None) -> SSSPResult:
    """Shortest paths from ``root`` by parallel delta-stepping (see the module docstring).

    ``delta``: the bucket width (default ``default_delta(graph)``; ``inf`` makes one bucket:
    a label-correcting search). Phases are logged in ``result.phases`` with the bucket each
    processed (``extra["bucket"]``). Which of several equally short parents a vertex gets may
    vary between runs with several threads.
    """
    r = check_search(graph, root)
    d = default_delta(graph) if delta is None else check_positive("delta", delta)
    n = graph.num_vertices
    nthreads = numba.get_num_threads()
    if graph.num_directed_edges >= MAX_ENTRIES:
        raise InputError(f"delta-stepping handles graphs of fewer than {MAX_ENTRIES} "
                         f"adjacency entries, this one has {graph.num_directed_edges}")
    nbr, wt = graph.by_weight  # kernel 1 built them with the graph (others: sorted now)
    state = init_state(n, r)
    rows, batches = new_phase_log()
    chunks = 2 * nthreads * (RING + 1) + n // (4 * CHUNK)
    tune = (float(LOOK_AHEAD), int(MIN_RUN), int(SERIAL_WORK), int(PARALLEL_TAKE),
            int(TIME_GRAIN), float(PULL_RATIO), float(PULL_WIDEN))
    rows, batches, nrow, nb = _search((graph.indptr, nbr, wt), r, state, 1.0 / d, nthreads,
                                      tune, chunks, (rows, batches))
    parent, dist = finish_state(state, nthreads)
    return SSSPResult(parent=parent, distance=dist, root=r,
                      phases=phase_table(rows, batches, nrow, nb))
