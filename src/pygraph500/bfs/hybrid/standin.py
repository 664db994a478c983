"""A stand-in for the array side whose speed is controlled: to test the scheduler where no
GPU is (and NumPy, far slower than the compiled CPU engine, is never worth a task).

It runs the CPU engine's own compiled task kernels (``cpu.py``) on its own copy of the
search state (visited, frontier and next-frontier words, parents: everything crosses the
link as it would to a device, counted), after the CPU side has finished its tasks, on the
same threads. Its clock is a model: the level's device time is the real time of its
kernels divided by ``speed`` (``speed`` = 2: twice the CPU engine's speed on the same
tasks), plus a launch latency and the link's modelled transfer time (``link.LATENCY``,
``link.BANDWIDTH``). The level loop then takes the level's time as max(CPU side, stand-in)
plus the host's own work: the two sides modelled as running at once, as a CPU and a GPU
do. Its graph parts are counted as sent but read from the host's CSR in place (no second
copy of the graph). Every output names it a stand-in.
"""
from __future__ import annotations

import time

import numba
import numpy as np

from ...primitives.bitmaps import new_bitmap
from ..types import BOTTOM_UP
from .cpu import run_tasks
from .device import FRONTIER, GRAPH, RUN, VISITED

__all__ = ["StandinDevice", "LAUNCH"]

LAUNCH = 5e-6  # modelled seconds to launch a level's kernels


class StandinDevice:
    """The stand-in array side (see the module) for the tasks ``ts`` of ``graph``."""

    modelled = True

    def __init__(self, ts, graph, speed: float):
        self.ts, self.speed = ts, float(speed)
        self.graph = None  # the graph searched, held during a search only (``start``)
        self.label = (f"STAND-IN array side (no device): the CPU engine's kernels on a copy "
                      f"of the state, clock modelled at {self.speed:g}x the CPU engine's speed")
        self.loaded = np.zeros(ts.count, dtype=bool)  # graph parts "sent" (kept: a cache)
        self.compute = 0.0
        self.task_ns = np.zeros(ts.count, np.int64)

    @staticmethod
    def upload(a):
        return np.array(a)  # its own copy

    @staticmethod
    def download(a) -> np.ndarray:
        return np.array(a)

    def start(self, root: int, graph) -> None:
        self.graph = graph
        n = self.ts.n
        self.vis, self.front, self.nxt = new_bitmap(n), new_bitmap(n), new_bitmap(n)
        self.parent = np.full(n, -1, dtype=np.int64)
        self.parent[root] = root
        self.root = root
        self.vis[root >> 6] |= np.uint64(1) << np.uint64(root & 63)
        self.counts_d = np.zeros(2 * self.ts.count + 1, dtype=np.int64)

    def _place(self, code, flag, target, words) -> None:
        target[self.ts.word_index(np.flatnonzero(code & flag))] = words

    def run(self, code, ptr, idx, vis_words, front_words, direction, level, keep_front,
            order=None, work=np.inf) -> None:
        """As ``ArrayDevice.run``; ``order``: the run tasks; ``work``: theirs (a small level
        runs serially, as on the CPU side)."""
        ts = self.ts
        if idx is not None:
            self.loaded[np.flatnonzero(code & GRAPH)] = True
        if keep_front:
            self.front, self.nxt = self.nxt, self.front
        else:
            self.front[:] = 0
        self.nxt[:] = 0
        if vis_words is not None:
            self._place(code, VISITED, self.vis, vis_words)
        if front_words is not None:
            self._place(code, FRONTIER, self.front, front_words)
        if order is None:
            order = np.flatnonzero(code & RUN)
        assert self.loaded[order].all(), "a task ran before its graph part was sent"
        nthreads = numba.get_num_threads()
        found = np.zeros((nthreads, ts.count), np.int64)
        degs = np.zeros((nthreads, ts.count), np.int64)
        self.task_ns[:] = 0
        g = self.graph
        t0 = time.perf_counter()
        ex = run_tasks(direction == BOTTOM_UP, float(work), g.indptr, g.indices, self.parent,
                       np.empty(0, np.int64), self.vis, self.front, self.nxt, ts, order, level,
                       nthreads, found, degs, self.task_ns)
        self.compute = time.perf_counter() - t0
        self.counts_d[:ts.count] = found.sum(axis=0)
        self.counts_d[ts.count:2 * ts.count] = degs.sum(axis=0)
        self.counts_d[-1] = ex

    def counts(self):
        return self.counts_d

    def found_words(self, words: int):
        got = self.ts.word_index(np.flatnonzero(self.counts_d[:self.ts.count] > 0))
        assert got.shape[0] == words
        return self.nxt[got]

    def parents(self, count: int):
        mine = self.parent >= 0
        mine[self.root] = False
        out = self.parent[mine]
        assert out.shape[0] == count
        return out

    def release(self) -> None:
        """The end of a search: the graph is no longer held."""
        self.graph = None
