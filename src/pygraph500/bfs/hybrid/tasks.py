"""Paper 002's tasks: the graph cut into ``t`` contiguous vertex ranges, fixed for the graph
and independent of the number of processors (its Fig. 2).

Task k owns the bitmap words ``wlo[k] .. whi[k]`` (words cut as evenly as they divide), that
is the vertices ``64 * wlo[k] .. 64 * whi[k]`` (the last clipped to N), their adjacency
lists, their parents and their bits of every bitmap (visited, frontier). Cutting on word
boundaries makes a task's state whole words: a bottom-up task writes only its own words
(no atomics between tasks) and a task's slice of a bitmap moves as whole words. A graph of
N vertices has ceil(N / 64) words; with more tasks than that, the extra tasks are empty
(they own nothing and never run).

``TaskSet`` also holds what the scheduler needs of each task that does not change between
searches: its vertices, adjacency entries, the vertices with neighbours (``linked``, the
bottom-up candidates of an unvisited task), and ``word_task`` (the owner of every word: a
top-down claim counts its vertex for the owner task).
"""
from __future__ import annotations

import numpy as np

from ...errors import InputError, shown
from ...primitives.bitmaps import new_bitmap

__all__ = ["TaskSet", "check_tasks", "MAX_TASKS", "ranges"]

MAX_TASKS = 1 << 20


def check_tasks(tasks) -> int:
    """The task count as an int; InputError unless it is an integer in [1, MAX_TASKS]."""
    if isinstance(tasks, bool) or not isinstance(tasks, (int, np.integer)) \
            or not 1 <= tasks <= MAX_TASKS:
        raise InputError(f"tasks must be an integer in [1, {MAX_TASKS}], got {shown(tasks)}",
                         "tasks")
    return int(tasks)


def ranges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The concatenation of ``arange(lo[i], hi[i])`` for every i, without a Python loop."""
    keep = hi > lo
    lo, hi = lo[keep], hi[keep]
    if lo.shape[0] == 0:
        return np.zeros(0, np.int64)
    lens = hi - lo
    steps = np.ones(int(lens.sum()), np.int64)
    steps[0] = lo[0]
    steps[(np.cumsum(lens) - lens)[1:]] = lo[1:] - hi[:-1] + 1  # jump to the next range
    return np.cumsum(steps)


class TaskSet:
    """``count`` tasks over the words of an ``n``-vertex graph (see the module docstring)."""

    def __init__(self, graph, count: int):
        self.count = t = check_tasks(count)
        n = self.n = graph.num_vertices
        nwords = self.nwords = (n + 63) // 64
        k = np.arange(t + 1, dtype=np.int64)
        cut = (k * nwords) // t
        self.wlo, self.whi = cut[:-1].copy(), cut[1:].copy()
        self.lo = np.minimum(self.wlo * 64, n)
        self.hi = np.minimum(self.whi * 64, n)
        indptr = np.asarray(graph.indptr)
        self.vertices = self.hi - self.lo
        self.edges = indptr[self.hi] - indptr[self.lo]
        degree = np.diff(indptr)
        has = degree > 0
        running = np.concatenate(([0], np.cumsum(has, dtype=np.int64)))
        self.linked_count = running[self.hi] - running[self.lo]
        self.word_task = np.repeat(np.arange(t, dtype=np.int32), self.whi - self.wlo)
        linked = new_bitmap(n)
        if n:
            bits = np.zeros(nwords * 64, dtype=bool)
            bits[:n] = has
            linked[:] = np.packbits(bits, bitorder="little").view(np.uint64)
        self.linked = linked
        self.words = self.whi - self.wlo
        self.nonempty = int(np.count_nonzero(self.words))

    def word_index(self, tasks: np.ndarray) -> np.ndarray:
        """The words of ``tasks``, task after task (a gather index)."""
        return ranges(self.wlo[tasks], self.whi[tasks])

    def vertex_index(self, tasks: np.ndarray) -> np.ndarray:
        """The vertices of ``tasks``, task after task."""
        return ranges(self.lo[tasks], self.hi[tasks])

    def word_offsets(self, tasks: np.ndarray) -> np.ndarray:
        """Where each task's words start in a buffer of ``word_index(tasks)`` (and the end)."""
        return np.concatenate(([0], np.cumsum(self.words[tasks]))).astype(np.int64)

    def vertex_offsets(self, tasks: np.ndarray) -> np.ndarray:
        """Where each task's vertices start in a buffer of ``vertex_index(tasks)``."""
        return np.concatenate(([0], np.cumsum(self.vertices[tasks]))).astype(np.int64)
