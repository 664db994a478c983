"""Paper 002's tasks: the graph cut into ``t`` contiguous vertex ranges, fixed for the graph
and independent of the number of processors (its Fig. 2).

Task k owns the vertices ``lo[k] = k N // t .. hi[k] = (k + 1) N // t`` (any size: the
ranges differ by at most one vertex, and none is empty while t <= N), their adjacency lists,
their parents and their bits of every bitmap (visited, frontier). The owner of vertex v is
``(v t + t - 1) // N`` (``owner``), computed, not stored. A task's share of a bitmap is the
words ``wlo[k] .. whi[k]`` that overlap its range: a word can be shared with the next task,
so the kernels mask a word to the task's bits (``cpu._span``) and write shared words
atomically, and a shared word crosses the link once per task that needs it.

``TaskSet`` also holds what the scheduler needs of each task that does not change between
searches: its vertices, adjacency entries and the vertices with neighbours (``linked``, the
bottom-up candidates of an unvisited task).
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
    """``count`` tasks over the vertices of an ``n``-vertex graph (see the module docstring)."""

    def __init__(self, graph, count: int):
        self.count = t = check_tasks(count)
        n = self.n = graph.num_vertices
        nwords = self.nwords = (n + 63) // 64
        k = np.arange(t + 1, dtype=np.int64)
        cut = (k * n) // t
        self.lo, self.hi = cut[:-1].copy(), cut[1:].copy()
        self.wlo = self.lo >> 6
        self.whi = np.where(self.hi > self.lo, (self.hi + 63) >> 6, self.wlo)
        indptr = np.asarray(graph.indptr)
        self.vertices = self.hi - self.lo
        self.edges = indptr[self.hi] - indptr[self.lo]
        degree = np.diff(indptr)
        has = degree > 0
        running = np.concatenate(([0], np.cumsum(has, dtype=np.int64)))
        self.linked_count = running[self.hi] - running[self.lo]
        linked = new_bitmap(n)
        if n:
            bits = np.zeros(nwords * 64, dtype=bool)
            bits[:n] = has
            linked[:] = np.packbits(bits, bitorder="little").view(np.uint64)
        self.linked = linked
        self.words = self.whi - self.wlo
        self.nonempty = int(np.count_nonzero(self.vertices))

    def owner(self, v):
        """The task of vertex (or vertices) ``v``."""
        return (np.asarray(v, dtype=np.int64) * self.count + self.count - 1) // self.n

    def word_index(self, tasks: np.ndarray) -> np.ndarray:
        """The words of ``tasks``, task after task (a gather index; a word shared by two of
        them appears twice)."""
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
