"""What the array-backend BFS algorithms share besides the steps themselves (which live in
``primitives.xp_steps``: the distributed searcher uses them too).

- ``Search``: a search's device state: parent, depth and two queue buffers with spare slots
  at the end (``primitives.xp_steps.SPARE``: where writes that must go nowhere land), the
  degrees, and the one host read of a level (``advance``: the next queue's length and
  adjacency entries, together).
- ``LevelRecorder``: the fields of thesis Table 4.1 per level (CLQ, NLF, LV, RV, NLQ, QR, UR;
  and FRESH) and the time of each phase (expand, binary search, prune, update) without synchronising:
  what the host knows stays on the host, what only the device knows goes to a device array,
  the phase boundaries are device-timeline marks (CUDA events on a GPU); all are read once,
  after the search (inside the timed search: one small copy). On ``numpy-checked`` each
  level's host synchronisations and allocations are recorded too.

Table 4.1 as the thesis defines it, for the one process there is: CLQ the queue, NLF its
adjacency entries, LV the NLF elements left after pruning that this process owns (all of
them: it owns every vertex), RV those received from other processes (none: 0), NLQ the next
queue, QR = CLQ / NLF and UR = LV / NLF (after over before pruning). One difference is the
project's: a level drops the visited elements before it prunes (the thesis sorts the whole
NLF), so LV counts distinct unvisited vertices (= NLQ wherever the algorithm prunes; the
straightforward ``gpu-queue`` prunes nothing: its LV is every unvisited element) and UR
counts visited elements and copies alike. FRESH (the project's, not the thesis's) is the
unvisited NLF elements before pruning (a bottom-up level: its candidates). The distributed
searcher's ``drop_visited=False`` prunes the thesis's way.
"""
from __future__ import annotations

import numpy as np

from ...backend.checked import PerLevel
from ...primitives.xp_steps import SPARE, read_counts, spill
from ..types import TOP_DOWN, BFSResult, LevelTable

__all__ = ["estimate_search_bytes", "check_memory", "as_backend_graph", "LevelRecorder", "PHASES",
           "Search", "new_parent", "finish_result"]

PHASES = ("expand", "search", "prune", "update")


def estimate_search_bytes(num_vertices: int, num_entries: int) -> int:
    """Peak bytes of one array-backend search besides the graph: per vertex parent, depth,
    degrees, two queue buffers, a scratch or mask, two candidate buffers and two frontier
    masks (direction-optimizing), int64 each; a level's NLF arrays at their peak (ticket,
    queue index, CSR index, vertex, parent, key and its sorted copy, places: eight int64 per
    element; an NLF holds at most every adjacency entry once)."""
    return 8 * 8 * num_vertices + 8 * 8 * num_entries


def check_memory(graph, backend) -> None:
    """ResourceError (both numbers) when a search of ``graph`` may not fit on the backend."""
    backend.require(estimate_search_bytes(graph.num_vertices, graph.indices.shape[0]),
                    f"a {backend.name} search of {graph.num_vertices} vertices")


def as_backend_graph(graph, backend):
    """(indptr, indices) of ``graph`` as arrays of ``backend.xp``: the graph's own when they
    already are (kernel 1 ran on the backend), else copies (host -> device)."""
    xp = backend.xp
    if isinstance(graph.indptr, xp.ndarray) and isinstance(graph.indices, xp.ndarray):
        return graph.indptr, graph.indices
    return backend.to_device(graph.indptr), backend.to_device(graph.indices)


def new_parent(xp, n: int, root: int, with_depth: bool):
    """parent (all -1 but the root, its own parent) and depth (or None), each with SPARE
    spare slots after the n vertices."""
    parent = xp.full(n + SPARE, -1, dtype=np.int64)
    parent[root] = root
    depth = None
    if with_depth:
        depth = xp.full(n + SPARE, -1, dtype=np.int64)
        depth[root] = 0
    return parent, depth


class Search:
    """The device state of one search from ``root`` (see the module docstring); ``nq`` and
    ``m``: the current queue's length and adjacency entries, ``m_u``: the adjacency entries
    of the vertices in no queue yet (Beamer's m_u; it bounds a level's unvisited NLF
    elements, the graph being symmetric), all on the host."""

    def __init__(self, backend, indptr, indices, n: int, root: int, with_depth: bool,
                 count_linked: bool = False):
        xp = self.xp = backend.xp
        self.backend, self.indptr, self.indices, self.n = backend, indptr, indices, n
        self.parent, self.depth = new_parent(xp, n, root, with_depth)
        self.deg = xp.zeros(n + 1, dtype=np.int64)  # deg[n] = 0: sort-unique's filler's
        self.deg[:n] = indptr[1:] - indptr[:-1]
        self.queues = [xp.empty(n + SPARE, dtype=np.int64) for _ in range(2)]
        self.queues[0][0] = root
        self.cur = 0
        self.ids = self.slots_n = None  # per-vertex scans: 0..n-1, their spare slots
        self.sizes = xp.zeros(2, dtype=np.int64)
        # the setup's one read: the root's degree (and the vertices with neighbours)
        linked = xp.count_nonzero(self.deg) if count_linked else 0
        self.nq = 1
        self.m, self.linked = read_counts(backend, self.sizes, self.deg[root], linked)
        self.m_u = indices.shape[0] - self.m

    @property
    def queue(self):
        return self.queues[self.cur][:self.nq]

    def scans(self) -> None:
        """Make ``ids`` (0..n-1) and ``slots_n`` (their spare slots), once per search."""
        if self.ids is None:
            self.ids = self.xp.arange(self.n, dtype=np.int64)
            self.slots_n = spill(self.xp, self.n, self.n)

    @property
    def next_queue(self):
        """The buffer the next queue is written to (``primitives.xp_steps.compact``)."""
        return self.queues[1 - self.cur]

    def advance(self, nq, m) -> int:
        """The level's one host read: the next queue's length ``nq`` and its adjacency
        entries ``m`` (device scalars), together; then the next queue is the current one."""
        self.nq, self.m = read_counts(self.backend, self.sizes, nq, m)
        self.m_u -= self.m
        self.cur = 1 - self.cur
        return self.nq


class LevelRecorder:
    """Collects thesis Table 4.1 per level and the phase times (see the module docstring).
    A level is ``start(CLQ, NLF or None, direction)``, ``lap(phase)`` at the end of each
    phase it has, and ``device(fresh=..., nlf=..., lv=...)`` for what only the device knows
    (``lv`` left out: the level's NLQ, or its FRESH where the search ``prunes`` nothing)."""

    def __init__(self, backend, prunes: bool = True):
        self.backend, self.prunes = backend, prunes
        self.host = []   # per level: CLQ, NLF (-1: on the device), direction
        self.marks = []  # per level: (phase index, mark), the first the level's start
        self.dev = backend.xp.full((32, 3), -1, dtype=np.int64)  # per level: FRESH, NLF, LV
        self.checked = PerLevel(backend.checks)  # numpy-checked: what each level cost

    def start(self, clq: int, nlf: int | None, direction: int = TOP_DOWN) -> None:
        self.checked.mark()
        self.host.append((int(clq), -1 if nlf is None else int(nlf), direction))
        self.marks.append([(-1, self.backend.mark())])

    def lap(self, phase: str) -> None:
        """The end of ``phase`` (one of PHASES) of the current level."""
        self.marks[-1].append((PHASES.index(phase), self.backend.mark()))

    def device(self, fresh=None, nlf=None, lv=None) -> None:
        """FRESH, NLF and LV of the current level where only the device knows them (kept
        there; -1 where not given)."""
        k = len(self.host) - 1
        if k == self.dev.shape[0]:  # more levels than room: twice the room (on the device)
            grown = self.backend.xp.full((2 * k, 3), -1, dtype=np.int64)
            grown[:k] = self.dev
            self.dev = grown
        for j, value in enumerate((fresh, nlf, lv)):
            if value is not None:
                self.dev[k, j] = value

    def table(self) -> LevelTable:
        """The LevelTable: the device's columns read here, once (after the search)."""
        self.checked.mark()
        k = len(self.host)
        dev = self.backend.to_host(self.dev[:k]).reshape(k, 3)
        host = np.array(self.host, dtype=np.int64).reshape(k, 3)
        times = np.zeros((k, len(PHASES)))
        for lvl, marks in enumerate(self.marks):
            for (_, a), (phase, b) in zip(marks, marks[1:]):
                times[lvl, phase] += self.backend.seconds(a, b)
        clq, fresh = host[:, 0], np.maximum(dev[:, 0], 0)
        nlf = np.where(host[:, 1] >= 0, host[:, 1], np.maximum(dev[:, 1], 0))
        nlq = np.append(clq[1:], 0)  # what a level found is the next level's queue
        lv = np.where(dev[:, 2] >= 0, dev[:, 2], nlq if self.prunes else fresh)
        qr = np.divide(clq, nlf, out=np.zeros(k), where=nlf > 0)
        ur = np.divide(lv, nlf, out=np.zeros(k), where=nlf > 0)
        extra = {"CLQ": clq, "NLF": nlf, "LV": lv, "RV": np.zeros_like(clq), "NLQ": nlq,
                 "QR": qr, "UR": ur, "FRESH": fresh}
        extra.update({f"t_{name}": times[:, j] for j, name in enumerate(PHASES)})
        checked = self.checked.columns()
        checked.pop("apart_syncs", None)
        extra.update(checked)
        return LevelTable(clq, nlf, nlq, host[:, 2].astype(np.int8), times.sum(axis=1),
                          extra=extra)


def finish_result(backend, parent, depth, root, rec, on_device=False) -> BFSResult:
    """The BFSResult. Reading the statistics (``rec.table()``) waits for the device, so the
    search has finished when this returns. The arrays are copied to the host, or
    (``on_device``) left where they are: the benchmark stops its clock first and copies
    after, as GPU Graph500 codes time their kernels (a parent array of SCALE 24 is 128 MiB,
    ~5 ms over PCIe)."""
    levels = rec.table()
    n = parent.shape[0] - SPARE
    parent, depth = parent[:n], None if depth is None else depth[:n]
    if not on_device:
        parent = backend.to_host(parent)
        depth = None if depth is None else backend.to_host(depth)
    return BFSResult(parent=parent, root=root, depth=depth, levels=levels)
