"""What every distributed searcher shares (compiled ``distributed.search1d``, array
``distributed.array_bfs``): the level loop with Beamer's switch, the per-level statistics
(``LEVEL_FIELDS``: the fields of thesis Table 4.1, Table 4.2 and Fig. 4.13) and the result.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..primitives.direction import ALPHA, BETA, go_bottom_up, go_top_down
from .build import DistGraph

__all__ = ["LEVEL_FIELDS", "DistBFSResult", "LevelLoop"]

# Per level and per rank. Counts are entries (vertex, parent pairs); bytes are message bytes.
LEVEL_FIELDS = (
    "direction",      # 0 top-down (Algorithm 4), 1 bottom-up (direction-optimizing only)
    "queue",          # CLQ: vertices in this rank's current level queue (frontier)
    "nlf",            # NLF: adjacency entries of the queue (the frontier before pruning);
                      # bottom-up: adjacency entries examined
    "nlf_pruned",     # entries left after pruning (sort-unique: distinct vertices)
    "local",          # LV: entries of them owned by this rank (never sent)
    "sent",           # entries sent to other ranks
    "sent_bytes",
    "received",       # RV: entries received from other ranks
    "received_bytes",
    "enqueued_local",     # NLQ, own part: new vertices from the rank's own entries
    "enqueued_received",  # NLQ, received part
    "comp_time",      # seconds: expand, prune, filter
    "comm_time",      # seconds: alltoallv of counts and data, termination allreduce
    "time",           # seconds: the whole level on this rank
)



@dataclass
class DistBFSResult:
    """One distributed search, this rank's part: ``parent`` (int64 over the local vertices,
    global ids, -1 unreached; ``parent[root // P] == root`` on the root's owner) and the
    per-level statistics of this rank (``levels``: LEVEL_FIELDS -> one value per level)."""

    parent: np.ndarray
    root: int
    levels: dict = field(default_factory=dict)

    @property
    def num_levels(self) -> int:
        return len(self.levels.get("queue", ()))


class LevelLoop:
    """The level loop of every distributed searcher (compiled in ``distributed.search1d``,
    array in ``distributed.array_bfs``): top-down or bottom-up levels by Beamer's switch, the
    termination allreduce and the per-level statistics. A searcher provides ``_start(root)``
    -> (parent, queue length, root degree on this rank), ``_top_down_level`` and
    ``_bottom_up_level`` (parent, qlen) -> (LEVEL_FIELDS row, vertices found, their degree
    sum), and ``_queue_to_frontier(qlen)`` / ``_frontier_to_queue()`` -> qlen for the
    switches."""

    comm = None
    graph: DistGraph
    fields = LEVEL_FIELDS  # the per-level row a level returns (times last: comp, comm, total)
    switches_direction: bool  # direction-optimizing (Beamer's switch); else top-down only
    num_entries: int  # adjacency entries over all ranks (direction-optimizing only)
    frontier_edges = 0  # during a top-down level: its frontier's edges over all ranks, as the
    # last level's termination allreduce counted them (0 at the root without Beamer's switch)

    def search(self, root: int) -> DistBFSResult:
        """One BFS from global vertex ``root`` (collective: every rank calls it)."""
        comm, n = self.comm, self.graph.num_vertices
        root = int(root)
        if not 0 <= root < n:
            raise InputError(f"BFS root {root} is not a vertex: the graph has {n} vertices")
        parent, qlen, root_degree = self._start(root)
        stats = {k: [] for k in self.fields}
        # global frontier size, its edges (0 at the root without Beamer's switch: only its
        # owner knows them), the unvisited vertices' edges (Beamer's n_f, m_f, m_u)
        nf, prev_nf, m_f = 1, 0, 0
        if self.switches_direction:
            m_f = int(comm.allreduce(root_degree))
            m_u = self.num_entries - m_f
        bottom_up = False
        while nf > 0:
            if self.switches_direction and not bottom_up and go_bottom_up(nf, prev_nf, m_f, m_u, ALPHA):
                bottom_up = True
                self._queue_to_frontier(qlen)
            if bottom_up:
                row, found, degsum = self._bottom_up_level(parent, qlen)
            else:
                self.frontier_edges = m_f
                row, found, degsum = self._top_down_level(parent, qlen)
            t0 = time.perf_counter()
            news = comm.allreduce(np.array([found, degsum], dtype=np.int64))
            t1 = time.perf_counter()
            row[-2] += t1 - t0   # comm_time
            row[-1] += t1 - t0   # time
            for name, value in zip(self.fields, row):
                stats[name].append(value)
            prev_nf, nf, m_f = nf, int(news[0]), int(news[1])
            if self.switches_direction:
                m_u -= m_f
            qlen = found
            if bottom_up:
                if nf == 0 or go_top_down(nf, prev_nf, n, BETA, m_f, m_u, ALPHA):
                    bottom_up = False
                    qlen = self._frontier_to_queue()
        levels = {k: np.array(v, dtype=np.float64 if k.endswith("time") else np.int64)
                  for k, v in stats.items()}
        return DistBFSResult(parent, root, levels)
