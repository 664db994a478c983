"""The level log every compiled BFS driver records its levels in.

A log (``new_log``) is a ``LevelLog``: ``stats`` rows (frontier, edges examined, count: a run
of ``count`` equal consecutive levels, so a path's million levels take a few rows), ``dirs``
(direction code per row), ``batches`` (end level, nanoseconds) and ``state`` (levels,
batches, clock at the last close, work since, rows). The arrays start small and grow
(``log_room`` gives a new record: drivers return the final one), so a search reserves no
O(N) log up front. A level whose work is at least ``TIME_GRAIN`` (``bfs.steps``) is timed on
its own (as is every parallel or bottom-up level); smaller ones are timed together until
their work reaches the grain (a clock read costs ~25 ns, more than a level of a path), and
``LevelTable`` splits a batch's time among its levels in proportion to their work.

The serial stretches (``queue_topdown``, ``bitmap_topdown``, ``thin_frontier``) keep the
state in locals and write rows and batches with ``log_write_run`` and ``log_end_batch``.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...primitives import clock_ns
from ..types import LevelTable

__all__ = ["LevelLog", "new_log", "log_table", "log_start", "log_room", "log_close", "log_level",
           "log_write_run", "log_end_batch"]

LevelLog = namedtuple("LevelLog", ["stats", "dirs", "batches", "state"])


def new_log(num_vertices: int, num_entries: int, rows: int = 64):
    """An empty log (room for ``rows`` rows; ``log_room`` grows it) for a search of a graph of
    ``num_vertices`` vertices and ``num_entries`` adjacency entries."""
    dt = np.int32 if max(int(num_vertices), int(num_entries)) < 2**31 else np.int64
    return LevelLog(np.empty((rows, 3), dt), np.empty(rows, np.int8),
                    np.empty((rows, 2), np.int64), np.zeros(5, np.int64))


def log_table(log) -> LevelTable:
    """The LevelTable of a finished search from its log as its driver returned it. Columns
    are derived when first read."""
    stats, dirs, batches, state = log
    nlev, nb, nrow = int(state[0]), int(state[1]), int(state[4])
    return LevelTable.from_log(stats[:nrow], dirs[:nrow], batches[:nb], nlev)


@njit(cache=True)
def log_start(log):
    """Open the log of a new search: no levels, a batch open from now."""
    state = log.state
    state[0] = 0  # levels
    state[1] = 0  # batches
    state[2] = clock_ns()  # start of the open batch
    state[3] = 0  # work in the open batch
    state[4] = 0  # rows


@njit(cache=True)
def log_room(log, need):
    """The log with room for ``need`` more rows and batches: the same, or one whose arrays
    are copies twice as large. Drivers call it before logging; the serial stretches stop
    when they run short of room (two rows and three batches per level). The copies are
    loops: a slice assignment brings numba's shape check, whose formatted message costs the
    first run 4 s of compiling string code."""
    stats, dirs, batches, state = log
    nrow = state[4]
    if nrow + need > stats.shape[0]:
        cap = max(2 * stats.shape[0], nrow + need)
        grown = np.empty((cap, stats.shape[1]), stats.dtype)
        for i in range(nrow):
            for j in range(stats.shape[1]):
                grown[i, j] = stats[i, j]
        stats = grown
        grown_dirs = np.empty(cap, dirs.dtype)
        for i in range(nrow):
            grown_dirs[i] = dirs[i]
        dirs = grown_dirs
    nb = state[1]
    if nb + need > batches.shape[0]:
        cap = max(2 * batches.shape[0], nb + need)
        grown_b = np.empty((cap, 2), batches.dtype)
        for i in range(nb):
            grown_b[i, 0] = batches[i, 0]
            grown_b[i, 1] = batches[i, 1]
        batches = grown_b
    return LevelLog(stats, dirs, batches, state)


@njit(cache=True)
def log_close(log):
    """Close the open batch of levels (when there is one) at the clock's now."""
    batches, state = log.batches, log.state
    if state[3] > 0:
        t = clock_ns()
        nb = state[1]
        batches[nb, 0] = state[0]
        batches[nb, 1] = t - state[2]
        state[1] = nb + 1
        state[2] = t
        state[3] = 0


@njit(cache=True)
def log_level(log, nf, edges, code, grain):
    """Record a level just done (a row of its own); close the batch when its work reaches
    ``grain`` (0: now)."""
    stats, dirs, state = log.stats, log.dirs, log.state
    r = state[4]
    stats[r, 0] = nf
    stats[r, 1] = edges
    stats[r, 2] = 1
    dirs[r] = code
    state[4] = r + 1
    state[0] += 1
    state[3] += nf + edges
    if state[3] >= grain:
        log_close(log)


@njit(cache=True)
def log_write_run(stats, dirs, nrow, rf, re, rc, code):
    """Write the open run of ``rc`` equal levels (rf, re) of a serial stretch as one row
    (serial stretches log runs of equal consecutive levels as one row; a path's million
    levels take a few rows). Returns the number of rows."""
    if rc > 0:
        stats[nrow, 0] = rf
        stats[nrow, 1] = re
        stats[nrow, 2] = rc
        dirs[nrow] = code
        nrow += 1
    return nrow


@njit(cache=True)
def log_end_batch(batches, nb, nlev, t_last):
    """Close a batch at level ``nlev`` now; returns (nb, now)."""
    t = clock_ns()
    batches[nb, 0] = nlev
    batches[nb, 1] = t - t_last
    return nb + 1, t

