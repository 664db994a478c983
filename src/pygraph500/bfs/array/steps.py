"""The steps of the array-backend BFS algorithms, written against ``xp`` (NumPy or CuPy).

- ``queue_offsets``: thesis 4.3.2 step A: the queue's degrees (Q_degree), their exclusive
  prefix sum (NewOffset), the start of each list in the CSR (Q_offset) and m = |NLF|.
- ``gather``: step B: one work item per NLF element; item t finds its queue entry i by a
  binary search in NewOffset (``searchsorted``) and reads ``indices[Q_offset[i] + t -
  NewOffset[i]]``: the Next Level Frontier, contiguous, with its parent payload ``q[i]``.
- ``sort_unique``: step C: sort the (vertex, parent) pairs by vertex and keep one per vertex.
- ``claim``: the unsorted alternative: scatter a ticket per element into a per-vertex array and
  keep the elements whose ticket stayed (last write wins; on a GPU an atomic does it).
- ``bottom_up_step``: Beamer's step with whole-array operations: the unvisited vertices'
  lists are gathered like an NLF and each takes its first neighbour in the frontier mask.
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

__all__ = ["estimate_search_bytes", "check_memory", "as_backend_graph", "queue_offsets",
           "gather", "sort_unique", "claim", "bottom_up_step", "LevelRecorder", "PHASES",
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


def queue_offsets(xp, indptr, q):
    """(Q_offset, NewOffset, m): the list start of every queued vertex, the exclusive prefix
    sum of their degrees, and the NLF size."""
    start = indptr[q]
    deg = indptr[q + 1] - start
    ends = xp.cumsum(deg)
    m = int(ends[-1]) if q.shape[0] else 0
    return start, ends - deg, m


def gather(xp, indices, q, start, newoff, m):
    """(NLF vertices, their parents) with one work item per NLF element (step B)."""
    tid = xp.arange(m, dtype=np.int64)
    i = xp.searchsorted(newoff, tid, side="right") - 1  # NewOffset[i] <= t < NewOffset[i + 1]
    idx = start[i] + (tid - newoff[i])
    return indices[idx].astype(np.int64), q[i]


def sort_unique(xp, v, p, n: int):
    """One (vertex, parent) pair per distinct vertex of ``v``: the pairs packed as
    ``v * n + p`` (one 64-bit sort carries the payload), sorted, and the first of each
    vertex's run kept."""
    if v.shape[0] == 0:
        return v, p
    keys = xp.sort(v * n + p)
    vs = keys // n
    first = xp.empty(vs.shape[0], dtype=bool)
    first[0] = True
    first[1:] = vs[1:] != vs[:-1]
    vs = vs[first]
    return vs, keys[first] - vs * n


def claim(xp, v, p, tickets):
    """One (vertex, parent) pair per distinct vertex of ``v`` without sorting: element k
    writes its ticket k into ``tickets[v[k]]`` (a per-vertex scratch array, the memory
    traded for the sort); the elements whose ticket stayed are kept."""
    k = xp.arange(v.shape[0], dtype=np.int64)
    tickets[v] = k
    win = tickets[v] == k
    return v[win], p[win]


def bottom_up_step(xp, indptr, indices, parent, depth, level, front, cand):
    """One bottom-up level: every vertex of ``cand`` (unvisited, with neighbours) takes the
    first of its neighbours that is in the frontier mask ``front``. Whole lists are gathered
    (a vectorised step cannot stop at the first hit), so ``examined`` counts them all.
    Returns (found vertices, candidates left, entries examined)."""
    start, newoff, m = queue_offsets(xp, indptr, cand)
    tid = xp.arange(m, dtype=np.int64)
    i = xp.searchsorted(newoff, tid, side="right") - 1
    nbr = indices[start[i] + (tid - newoff[i])]
    hits = xp.flatnonzero(front[nbr])
    seg = i[hits]
    first = xp.empty(seg.shape[0], dtype=bool)
    if seg.shape[0]:
        first[0] = True
        first[1:] = seg[1:] != seg[:-1]
    seg = seg[first]
    found = cand[seg]
    parent[found] = nbr[hits[first]]
    if depth is not None:
        depth[found] = level + 1
    left = xp.ones(cand.shape[0], dtype=bool)
    left[seg] = False
    return found, cand[left], m


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

