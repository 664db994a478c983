"""Dijkstra's algorithm with a binary heap, serial, compiled with numba: the simple,
obviously correct one (the tests' second opinion beside scipy) and the fast choice where
delta-stepping has little to do per phase (paths, grids, road-like graphs of high diameter).

An indexed binary min-heap of (distance, vertex) with decrease-key (``pos[v]``: v's
place in the heap, -1 outside), so the heap never holds more than the vertices in it and a
vertex is settled exactly once. A popped vertex is final; its edges are relaxed with that
final distance, ``float32(d[u] + w)``, and a vertex is updated only on a strict decrease, so
every parent was settled before its child: the parents form a tree and ``distance[v] ==
float32(distance[parent[v]] + w)`` holds exactly. The distances are float32 (Graph500's
kernel 3) or, with ``dtype=np.float64`` and float64 weights, float64 (the Python API's
``sssp(..., dtype=np.float64)``, scipy's precision): the kernel is compiled for each.

The whole search is one phase of ``result.phases``: frontier = vertices settled, edges
examined = edges relaxed, discovered = distances lowered.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import InputError
from ..graph.types import CSRGraph
from ..primitives import clock_ns
from .state import check_search
from .types import SSSPResult
from ..bfs.types import LevelTable

__all__ = ["sssp_dijkstra"]


@njit(cache=True)
def _search(indptr, indices, weights, root, dist, parent, hk, stats):
    """Settle every vertex reachable from ``root``; stats = (settled, relaxed, lowered, ns).
    ``hk``: the heap's keys, of the distances' dtype (their sums stay in it)."""
    t0 = clock_ns()
    n = dist.shape[0]
    pos = np.full(n, -1, np.int64)
    done = np.zeros(n, np.bool_)
    hv = np.empty(n, np.int64)  # heap of vertices
    size = 1
    hv[0] = root
    hk[0] = dist[root]
    pos[root] = 0
    settled = 0
    relaxed = 0
    lowered = 0
    while size > 0:
        u = hv[0]
        du = hk[0]
        pos[u] = -1
        done[u] = True
        settled += 1
        size -= 1
        if size > 0:  # move the last entry to the top and sift it down
            v = hv[size]
            key = hk[size]
            i = 0
            while True:
                c = 2 * i + 1
                if c >= size:
                    break
                if c + 1 < size and hk[c + 1] < hk[c]:
                    c += 1
                if hk[c] >= key:
                    break
                hv[i] = hv[c]
                hk[i] = hk[c]
                pos[hv[i]] = i
                i = c
            hv[i] = v
            hk[i] = key
            pos[v] = i
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            relaxed += 1
            if done[v]:
                continue
            nd = du + weights[e]  # in the distances' dtype (the weights' is the same)
            if nd < dist[v]:  # strictly shorter
                dist[v] = nd
                parent[v] = u
                lowered += 1
                i = pos[v]
                if i < 0:  # a new heap entry at the bottom
                    i = size
                    size += 1
                while i > 0:  # sift up
                    p = (i - 1) >> 1
                    if hk[p] <= nd:
                        break
                    hv[i] = hv[p]
                    hk[i] = hk[p]
                    pos[hv[i]] = i
                    i = p
                hv[i] = v
                hk[i] = nd
                pos[v] = i
    stats[0] = settled
    stats[1] = relaxed
    stats[2] = lowered
    stats[3] = clock_ns() - t0


def sssp_dijkstra(graph: CSRGraph, root, *, dtype=np.float32) -> SSSPResult:
    """Shortest paths from ``root`` by serial binary-heap Dijkstra (see the module
    docstring). ``dtype``: float32, or float64 for a graph whose weights are float64."""
    r = check_search(graph, root)
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64) or graph.weights.dtype != dtype:
        raise InputError(f"dtype {dtype} needs weights of that dtype (float32 or float64); "
                         f"the graph's are {graph.weights.dtype}")
    n = graph.num_vertices
    dist = np.full(n, np.inf, dtype)
    parent = np.full(n, -1, np.int64)
    dist[r] = 0.0
    parent[r] = r
    stats = np.zeros(4, np.int64)
    _search(graph.indptr, graph.indices, graph.weights, r, dist, parent, np.empty(n, dtype),
            stats)
    phases = LevelTable([stats[0]], [stats[1]], [stats[2]], time=[stats[3] * 1e-9],
                        extra={"bucket": np.zeros(1, np.int64)})
    return SSSPResult(parent=parent, distance=dist, root=r, phases=phases)
