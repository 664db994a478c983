"""The array side of the hybrid BFS: the tasks the scheduler sends there, run with whole-array
steps on ``xp`` (CuPy on a GPU, NumPy where there is none), or on a GPU with the
warp-cooperative kernel of paper 002's Algorithm 3 (``warp.py``).

The array side keeps its own copy of everything it reads: the vertex array and the
adjacency lists of the tasks it has run (sent once, kept for later searches), a visited mask, the frontier and next-frontier
masks (one byte a vertex: scatters need no atomics) and a parent array. Bitmap slices cross
the link as 64-bit words, the host's layout (``words_to_mask`` / ``mask_to_words`` convert):
a task's slice is the words that overlap its vertices, so a word shared by two tasks may
come twice (the host's copy, the same both times; its finds go back whole and the host
keeps each task's bits).
A level is driven by a byte per task (``RUN``, and which slices follow: ``GRAPH``,
``VISITED``, ``FRONTIER``); slices come task after task in task order, so the side places
them without being told more (``_positions``). A level waits for the device four times
(counted on ``numpy-checked``: ``host_syncs``): the size of its work queue (a compaction),
the queue's adjacency entries (the sizes of the steps), then the counts and the words.

- top-down: the frontier vertices of the run tasks expand their lists; every unvisited
  neighbour (any task's) is claimed by a scatter of parents read back (the element whose
  parent stayed won: gpu-queue's whole-array claim), or by the warp kernel's compare-and-swap;
- bottom-up: the unvisited vertices of the run tasks look for a frontier neighbour
  (``primitives.xp_steps.bottom_up_step``; the whole frontier must be here).

``counts()``: per task the vertices found in it and their degrees, and the entries
examined; ``found_words`` the next-frontier words of the tasks with finds; ``parents`` the
parents of the vertices this side claimed, in vertex order (end of search).
"""
from __future__ import annotations

import numpy as np

from ...primitives.xp_steps import SPARE, bottom_up_step, gather, put, queue_offsets, spill
from ..types import BOTTOM_UP

__all__ = ["RUN", "GRAPH", "VISITED", "FRONTIER", "ArrayDevice"]

RUN, GRAPH, VISITED, FRONTIER = 1, 2, 4, 8  # the plan's bits per task


def _positions(xp, flags, lo, hi, total: int):
    """Where each element of a buffer of the ranges ``[lo[k], hi[k])`` of the flagged tasks
    (task after task) goes: ``total`` (known on the host) positions, no read back."""
    lens = xp.where(flags, hi - lo, 0)
    ends = xp.cumsum(lens)
    pos = xp.arange(total, dtype=np.int64)
    k = xp.searchsorted(ends, pos, side="right")
    pos += lo[k]
    pos -= ends[k] - lens[k]
    return pos


def words_to_mask(xp, words):
    """64 booleans a word (bit b of word w: element 64 w + b)."""
    shifts = xp.arange(64, dtype=np.uint64)
    return ((words[:, None] >> shifts) & np.uint64(1)).astype(bool).reshape(-1)


def mask_to_words(xp, mask):
    """The inverse of ``words_to_mask`` (``mask`` a multiple of 64 long)."""
    shifts = xp.arange(64, dtype=np.uint64)
    return (mask.reshape(-1, 64).astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64)


class ArrayDevice:
    """The array side on ``backend`` for the tasks ``ts`` of ``graph`` (see the module).
    ``warp``: top-down levels with Algorithm 3's kernel (default: on a CUDA device)."""

    modelled = False

    def __init__(self, ts, graph, backend, warp: bool | None = None):
        xp = self.xp = backend.xp
        self.backend = backend
        self.warp = backend.on_cuda if warp is None else bool(warp)
        self.label = f"array engine ({backend.device})"
        self.n, self.t = ts.n, ts.count
        nwords = ts.nwords
        self.size = nwords * 64
        k = xp.arange(self.t + 1, dtype=np.int64)
        cut = (k * self.n) // self.t  # the task table, computed here (TaskSet's rule)
        self.lo, self.hi = cut[:-1], cut[1:]
        self.wlo = self.lo >> 6
        self.whi = xp.where(self.hi > self.lo, (self.hi + 63) >> 6, self.wlo)
        # each vertex's task (the padding past N: the last task's), 4 bytes a vertex
        self.vertex_task = xp.minimum(xp.searchsorted(
            self.hi, xp.arange(self.size, dtype=np.int64), side="right"),
            self.t - 1).astype(np.int32)
        self.indptr = None  # the vertex array, sent at the first level here
        self.indices = xp.zeros(graph.indices.shape[0], dtype=graph.indices.dtype)
        self.deg = xp.zeros(self.size + SPARE, dtype=np.int64)
        self.ar64 = xp.arange(64, dtype=np.int64)

    # ---- the link's copy functions
    def upload(self, a):
        return self.xp.array(a)  # a copy, on the device where there is one

    def download(self, a) -> np.ndarray:
        return np.array(self.backend.to_host(a))

    # ---- a search
    def start(self, root: int, graph=None) -> None:
        """Fresh per-search state: nothing visited but the root (no transfer: the root is a
        launch argument)."""
        xp = self.xp
        self.vis = xp.zeros(self.size + SPARE, dtype=bool)
        self.front = xp.zeros(self.size + SPARE, dtype=bool)
        self.nxt = xp.zeros(self.size + SPARE, dtype=bool)
        self.parent = xp.full(self.size + SPARE, -1, dtype=np.int64)
        self.parent[root] = root
        self.root = root
        self.vis[root] = True
        self.counts_d = xp.zeros(2 * self.t + 1, dtype=np.int64)  # found, degrees; examined

    def _place_words(self, code, flag, target, words) -> None:
        at = _positions(self.xp, (code & flag) != 0, self.wlo, self.whi, words.shape[0])
        target[(at[:, None] * 64 + self.ar64).reshape(-1)] = words_to_mask(self.xp, words)

    def _place_graph(self, code, ptr, idx) -> None:
        """The vertex array (once), the adjacency lists of the ``GRAPH`` tasks."""
        if ptr is not None:
            self.indptr = ptr
            self.deg[:self.n] = ptr[1:] - ptr[:-1]
        if idx is not None:
            flags = (code & GRAPH) != 0
            elo, ehi = self.indptr[self.lo], self.indptr[self.hi]
            self.indices[_positions(self.xp, flags, elo, ehi, idx.shape[0])] = idx

    def run(self, code, ptr, idx, vis_words, front_words, direction, level, keep_front,
            order=None, work=None) -> None:
        """One level: place what came (graph parts, visited and frontier words), then run
        the ``RUN`` tasks; ``keep_front``: this side ran the previous level, so its
        next-frontier mask is the frontier (the slices that came overwrite it), else the
        frontier starts empty. Leaves the level's counts on the device."""
        xp = self.xp
        self._place_graph(code, ptr, idx)
        if keep_front:
            self.front, self.nxt = self.nxt, self.front
        else:
            self.front[:] = False
        self.nxt[:] = False
        if vis_words is not None:
            self._place_words(code, VISITED, self.vis, vis_words)
        if front_words is not None:
            self._place_words(code, FRONTIER, self.front, front_words)
        size = self.size
        run_v = ((code & RUN) != 0)[self.vertex_task]
        if direction == BOTTOM_UP:
            todo = run_v & ~self.vis[:size] & (self.deg[:size] > 0)
        else:
            todo = run_v & self.front[:size]
        q = xp.flatnonzero(todo)
        m = int(self.deg[q].sum())  # the sizes of the level's steps
        if direction != BOTTOM_UP and self.warp:
            from .warp import run_tasks

            run_tasks(self, q, m)
            return
        slots = spill(xp, m, size)
        if direction == BOTTOM_UP:
            found, _ = bottom_up_step(xp, self.indptr, self.indices, self.parent, None, level,
                                      self.front, q, m, slots)
            v, take = q, found
            slots = slots[:q.shape[0]]
        else:
            start, newoff, _ = queue_offsets(xp, self.indptr, q)
            v, p = gather(xp, self.indices, q, start, newoff, m)
            fresh = ~self.vis[v]
            put(xp, self.parent, v, p, fresh, slots)
            take = fresh & (self.parent[v] == p)  # the element whose parent stayed
        put(xp, self.vis, v, True, take, slots)
        put(xp, self.nxt, v, True, take, slots)
        owners = self.vertex_task[v]
        took = take.astype(np.float64)
        found = xp.bincount(owners, weights=took, minlength=self.t)
        degs = xp.bincount(owners, weights=took * self.deg[v], minlength=self.t)
        self.counts_d[:self.t] = found.astype(np.int64)
        self.counts_d[self.t:2 * self.t] = degs.astype(np.int64)
        self.counts_d[-1] = m

    def counts(self):
        """Per task the vertices found in it, per task their degrees, then the entries
        examined (a device array)."""
        return self.counts_d

    def found_words(self, words: int):
        """The next-frontier words of the tasks with finds this level (``words``: how many,
        known on the host from the counts)."""
        at = _positions(self.xp, self.counts_d[:self.t] > 0, self.wlo, self.whi, words)
        return mask_to_words(self.xp, self.nxt[(at[:, None] * 64 + self.ar64).reshape(-1)])

    def release(self) -> None:
        """The end of a search (the device keeps its graph parts and buffers)."""

    def parents(self, count: int):
        """The parents of the ``count`` vertices this side claimed (known on the host), in
        vertex order: the end of a search."""
        mine = self.parent[:self.n] >= 0
        mine[self.root] = False
        return self.parent[:self.n][mine]
