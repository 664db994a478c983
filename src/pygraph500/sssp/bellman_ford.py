"""Frontier-based Bellman-Ford on the array backend (NumPy, or CuPy on a GPU), written once
against ``xp``.

Each round relaxes every edge of the frontier (the vertices lowered in the round before):
gather the frontier's edges (``steps``: degrees, prefix sum, one work item per edge found by a
binary search, as the array BFS gathers its Next Level Frontier), candidate distances
``dist[u] + w`` in float32, the minimum per target (``scatter_min``), then the distances
lowered and one parent per lowered vertex, and the lowered vertices become the next
frontier. Candidates are read from the distances at the start of the round, and a vertex
lowered in a round relaxes its edges again in the next one with its new distance, so at the
end ``distance[v] == float32(distance[parent] + w)`` with the parent's final distance; the
parents form a tree because a parent of equal distance held it already at the start of the
round that set its child (``state`` gives the argument for the compiled algorithms).

GPU budget: no Python loop over elements, and one host synchronisation per round: the next
frontier's size and degree sum (and the count lowered) come to the host together; the
compaction into the next frontier is a prefix sum and a scatter into an array of that known
size, not a boolean mask (a mask's size would be a second synchronisation). Losing
candidates write to a spare slot ``n`` of ``dist``/``parent`` instead of being filtered out.
NumPy on this VM spends much of a round on the first touch of its temporaries (fresh pages of
large arrays); a GPU's memory pool does not.

Near-far (Davidson et al., "Work-efficient parallel GPU methods for single-source shortest
paths", IPDPS 2014): a vertex lowered to a distance at or beyond ``limit`` joins a far pile
instead of the next frontier; when the frontier runs dry, the far vertices within ``delta`` of
the pile's lowest distance become the frontier (``_advance``). Plain Bellman-Ford relaxes a
vertex again each time it is lowered (5 times the adjacency entries on a Kronecker graph);
``delta=inf`` gives it back. Measured on NumPy, Kronecker SCALE 18 (7.6M entries), one root,
by ``delta`` / delta-stepping's default delta: inf 3.58 s (19 rounds, 39.0M edges relaxed),
2: 1.75 s (558 rounds, 8.3M), 4: 1.28 s (322, 10.3M), 8: 1.42 s (198, 15.8M), 16: 1.91 s
(120, 21.8M), 64: 2.88 s (52, 32.3M). The default, 8, trades a little work for fewer rounds:
on a GPU a round costs a few kernel launches and a synchronisation whatever its size.

``scatter_min``: ``xp.minimum.at`` where the array module has it (NumPy), else a sort of
``target << 32 | float32 bits`` keys (non-negative float32 bit patterns order as the
numbers), keeping the first key of each target. Option ``scatter="sort"`` forces the sort
(the tests run it on NumPy).
"""
from __future__ import annotations

import time

import numpy as np

from ..bfs.array.queue_based import resolve_backend
from ..bfs.array.steps import as_backend_graph
from ..bfs.types import LevelTable, check_positive
from ..errors import InputError
from ..graph.types import CSRGraph
from .delta_stepping import default_delta
from .state import check_search
from .types import SSSPResult

__all__ = ["sssp_bellman_ford", "scatter_min", "estimate_bytes", "NEAR_FAR_SCALE"]

# The near-far split is this many times delta-stepping's default delta (measured: below).
NEAR_FAR_SCALE = 8.0


def estimate_bytes(num_vertices: int, num_entries: int) -> int:
    """Peak bytes of one search besides the graph: dist (float32) and parent (int64) per
    vertex, the weights' copy, and a round's arrays over its edges (at most every adjacency
    entry once: about ten 8-byte arrays alive at the peak)."""
    return 12 * num_vertices + 4 * num_entries + 80 * num_entries


def scatter_min(xp, dist, idx, vals, method: str = "auto") -> None:
    """``dist[idx[k]] = min(dist[idx[k]], vals[k])`` for every k, duplicates in ``idx``
    included (``vals`` float32 >= 0; ``dist`` has a spare last slot the sort may scribble
    on)."""
    if method != "sort":
        at = getattr(xp.minimum, "at", None)
        if at is not None:
            try:
                at(dist, idx, vals)
                return
            except (NotImplementedError, TypeError):
                if method == "at":
                    raise
    if idx.shape[0] == 0:
        return
    keys = xp.sort((idx << 32) | (vals.view(xp.int32).astype(xp.int64) & 0xFFFFFFFF))
    target = keys >> 32
    first = xp.empty(keys.shape[0], dtype=bool)
    first[0] = True
    first[1:] = target[1:] != target[:-1]
    spare = dist.shape[0] - 1
    target = xp.where(first, target, spare)
    best = (keys & 0xFFFFFFFF).astype(xp.int32).view(xp.float32)
    dist[target] = xp.minimum(dist[target], best)


def _round(be, indptr, indices, weights, dist, parent, far, limit, front, m, n, method):
    """One round from the frontier ``front`` (``m`` edges, known from the round before):
    relax, lower, set parents; the lowered vertices below ``limit`` are the next frontier
    (it and its degree sum come to the host in one transfer), the others join the far pile
    ``far``. Returns (next frontier, its edges, vertices lowered)."""
    xp = be.xp
    far[front] = False  # relaxed now with their current distance
    start = indptr[front]
    deg = indptr[front + 1] - start
    ends = xp.cumsum(deg)
    newoff = ends - deg  # exclusive prefix sum: the first work item of each frontier vertex
    del deg
    tid = xp.arange(m, dtype=np.int64)
    i = xp.searchsorted(ends, tid, side="right")  # newoff[i] <= t < ends[i]
    idx = start[i] + (tid - newoff[i])
    del tid, start, ends, newoff
    u = front[i]
    del i
    v = indices[idx].astype(np.int64)
    cand = dist[u] + weights[idx]  # float32 + float32 in float32
    del idx
    better = cand < dist[v]
    scatter_min(xp, dist, v, xp.where(better, cand, xp.float32(np.inf)), method)
    win = better & (dist[v] == cand)
    del better, cand
    parent[xp.where(win, v, n)] = u  # losers write the spare slot n
    stuck = win & (parent[v] == u)  # one element per lowered vertex: the write that stayed
    del win
    near = stuck & (dist[v] < limit)
    far[xp.where(stuck & ~near, v, n)] = True
    return _compact(be, indptr, v, near, n, xp.sum(stuck))


def _compact(be, indptr, v, keep, n, extra):
    """``v[keep]`` without a boolean mask: its size, degree sum and ``extra`` (a device
    scalar) come to the host in one transfer, then a scatter by prefix sum. Returns (the
    vertices, their degree sum, extra)."""
    xp = be.xp
    if v.shape[0] == 0:
        return xp.empty(0, dtype=np.int64), 0, int(be.to_host(xp.asarray(extra)))
    deg = xp.where(keep, indptr[v + 1] - indptr[v], 0)
    pos = xp.cumsum(keep) - 1
    totals = xp.stack((pos[-1] + 1, deg.sum(), xp.asarray(extra, dtype=np.int64)))
    cnt, edges, ext = (int(x) for x in be.to_host(totals))
    nxt = xp.empty(cnt + 1, dtype=np.int64)
    nxt[xp.where(keep, pos, cnt)] = v
    return nxt[:cnt], edges, ext


def _advance(be, indptr, dist, far, delta, n):
    """The near frontier is empty: the new limit is the far pile's lowest distance + delta,
    and the far vertices below it are the frontier (one transfer). Returns (frontier, its
    edges, the limit as a device scalar)."""
    xp = be.xp
    cand = xp.where(far[:n], dist[:n], xp.float32(np.inf))
    limit = cand.min() + xp.float32(delta)
    keep = far[:n] & (cand <= limit)  # <=: a delta below float32's resolution must progress
    far[:n] &= ~keep
    front, edges, _ = _compact(be, indptr, xp.arange(n, dtype=np.int64), keep, n, 0)
    return front, edges, limit


def sssp_bellman_ford(graph: CSRGraph, root, *, backend="cpu", on_device=False,
                      scatter="auto", delta=None) -> SSSPResult:
    """Shortest paths from ``root`` by frontier-based Bellman-Ford on the array backend
    (see the module docstring).

    ``backend``: "cpu" (NumPy), "gpu" (CuPy), "auto", or an ArrayBackend. ``on_device``:
    leave parent and distance where they were computed. ``scatter``: "auto", "at" or
    "sort" (how the minimum per target is taken). ``delta``: the near-far split (default
    ``NEAR_FAR_SCALE`` times delta-stepping's default delta; ``inf``: plain Bellman-Ford,
    every lowered vertex in the next frontier). Each round is a phase of ``result.phases``
    (frontier, edges relaxed, distances lowered, seconds; ``bucket``: the number of the near
    pile).
    """
    if scatter not in ("auto", "at", "sort"):
        raise InputError(f"scatter must be 'auto', 'at' or 'sort', got {scatter!r}")
    be = resolve_backend(backend)
    r = check_search(graph, root)
    split = (NEAR_FAR_SCALE * default_delta(graph) if delta is None
             else check_positive("delta", delta))
    n = graph.num_vertices
    be.require(estimate_bytes(n, int(graph.indptr[-1])),
               f"a {be.name} Bellman-Ford search of {n} vertices")
    xp = be.xp
    indptr, indices = as_backend_graph(graph, be)
    weights = (graph.weights if isinstance(graph.weights, xp.ndarray)
               else be.to_device(graph.weights))
    dist = xp.full(n + 1, np.inf, dtype=np.float32)  # slot n: the spare
    parent = xp.full(n + 1, -1, dtype=np.int64)
    dist[r] = 0.0
    parent[r] = r
    far = xp.zeros(n + 1, dtype=bool)  # lowered at or beyond the limit, not yet relaxed
    limit = xp.float32(split)
    front = xp.asarray([r], dtype=np.int64)
    m = int(graph.indptr[r + 1] - graph.indptr[r])
    rows = []
    pile = 0
    be.synchronize()
    t_last = time.perf_counter()
    while True:
        if front.shape[0] == 0:  # the near pile is done: the next one from the far pile
            front, m, limit = _advance(be, indptr, dist, far, split, n)
            pile += 1
            if front.shape[0] == 0:
                break
        nf = front.shape[0]
        front, edges, lowered = _round(be, indptr, indices, weights, dist, parent, far, limit,
                                       front, m, n, scatter)
        t = time.perf_counter()  # the round ended with its transfer to the host
        rows.append((nf, m, lowered, t - t_last, pile))
        t_last = t
        m = edges
    cols = np.array(rows, dtype=np.float64).reshape(-1, 5)
    phases = LevelTable(cols[:, 0], cols[:, 1], cols[:, 2], time=cols[:, 3],
                        extra={"bucket": cols[:, 4].astype(np.int64)})
    parent, dist = parent[:n], dist[:n]
    if not on_device:
        parent, dist = be.to_host(parent), be.to_host(dist)
    return SSSPResult(parent=parent, distance=dist, root=r, phases=phases)
