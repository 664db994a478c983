"""The steps of the array-backend BFS algorithms, written against ``xp`` (NumPy or CuPy).

- the whole-array steps themselves (``queue_offsets``, ``gather``, ``sort_unique``, ``claim``,
  ``bottom_up_step``) live in ``primitives.arrays``: the distributed searcher uses them too.
- ``LevelRecorder``: the fields of thesis Table 4.1 per level (CLQ, NLF, LV, RV, NLQ, QR, UR)
  and the time of each phase (expand, binary search, prune, update), read after a device
  synchronisation so that they are the device's times.

In one process RV is 0 and LV counts the NLF elements still unvisited (the candidates the
pruning works on); UR = NLQ / LV (what pruning keeps), QR = NLQ / NLF.
"""
from __future__ import annotations

import time

import numpy as np

from ..types import TOP_DOWN, BFSResult, LevelTable

__all__ = ["estimate_search_bytes", "check_memory", "as_backend_graph", "LevelRecorder", "PHASES",
           "new_parent", "finish_result"]

PHASES = ("expand", "search", "prune", "update")


def estimate_search_bytes(num_vertices: int, num_entries: int) -> int:
    """Peak bytes of one array-backend search besides the graph: parent, depth and a
    per-vertex scratch or mask (int64 each), and a level's NLF arrays (ticket, queue index,
    CSR index, vertex, parent: five int64 per element; an NLF holds at most every adjacency
    entry once)."""
    return 3 * 8 * num_vertices + 5 * 8 * num_entries


def check_memory(graph, backend) -> None:
    """ResourceError (both numbers) when a search of ``graph`` may not fit on the backend."""
    backend.require(estimate_search_bytes(graph.num_vertices, int(graph.indptr[-1])),
                    f"a {backend.name} search of {graph.num_vertices} vertices")


def as_backend_graph(graph, backend):
    """(indptr, indices) of ``graph`` as arrays of ``backend.xp``: the graph's own when they
    already are (kernel 1 ran on the backend), else copies (host -> device)."""
    xp = backend.xp
    if isinstance(graph.indptr, xp.ndarray) and isinstance(graph.indices, xp.ndarray):
        return graph.indptr, graph.indices
    return backend.to_device(graph.indptr), backend.to_device(graph.indices)


def new_parent(xp, n: int, root: int, with_depth: bool):
    """parent (all -1 but the root, its own parent) and depth (or None)."""
    parent = xp.full(n, -1, dtype=np.int64)
    parent[root] = root
    depth = None
    if with_depth:
        depth = xp.full(n, -1, dtype=np.int64)
        depth[root] = 0
    return parent, depth


class LevelRecorder:
    """Collects thesis Table 4.1 per level and the phase times (see the module docstring)."""

    def __init__(self, backend):
        self.backend = backend
        self.rows = []  # (CLQ, NLF, LV, NLQ, direction, expand, search, prune, update)
        self._t = 0.0

    def start(self) -> None:
        self.backend.synchronize()
        self._t = time.perf_counter()

    def lap(self) -> float:
        """Seconds since the last start or lap (after the device has finished)."""
        self.backend.synchronize()
        t = time.perf_counter()
        dt, self._t = t - self._t, t
        return dt

    def level(self, clq, nlf, lv, nlq, phases, direction=TOP_DOWN) -> None:
        self.rows.append((int(clq), int(nlf), int(lv), int(nlq), direction, *phases))

    def table(self) -> LevelTable:
        if not self.rows:
            cols = np.zeros((0, 9))
        else:
            cols = np.array(self.rows, dtype=np.float64)
        clq, nlf, lv, nlq = (cols[:, k].astype(np.int64) for k in range(4))
        direction = cols[:, 4].astype(np.int8)
        times = cols[:, 5:9]
        qr = np.divide(nlq, nlf, out=np.zeros(len(nlq)), where=nlf > 0)
        ur = np.divide(nlq, lv, out=np.zeros(len(nlq)), where=lv > 0)
        extra = {"CLQ": clq, "NLF": nlf, "LV": lv, "RV": np.zeros_like(clq), "NLQ": nlq,
                 "QR": qr, "UR": ur}
        extra.update({f"t_{name}": times[:, k] for k, name in enumerate(PHASES)})
        return LevelTable(clq, nlf, nlq, direction, times.sum(axis=1), extra=extra)


def finish_result(backend, parent, depth, root, rec, on_device=False) -> BFSResult:
    """The BFSResult, its arrays copied to the host, or (``on_device``) left where they are:
    the benchmark stops its clock first and copies after, as GPU Graph500 codes time their
    kernels (a parent array of SCALE 24 is 128 MiB, ~5 ms over PCIe)."""
    backend.synchronize()
    if not on_device:
        parent = backend.to_host(parent)
        depth = None if depth is None else backend.to_host(depth)
    return BFSResult(parent=parent, root=root, depth=depth, levels=rec.table())

