"""The steps on a directed graph (``CSRGraph.directed``): the convention they share.

A directed search follows out-edges top-down and in-edges bottom-up (the transpose,
``CSRGraph.in_edges``): an unvisited vertex looks for a parent among its in-neighbours in
the frontier. The steps that may meet a directed graph take the in-edge arrays beside the
out-edge ones; ``None`` in their place says the graph is undirected (its one CSR serves
both ways, and nothing more is read). numba compiles a step apart for ``None`` and prunes
the branches that test it (``is None``), so an undirected search compiles and runs none of
the directed code. A variable that may hold None or an array is never made (two calls
instead): numba types it Optional, and its pruning then takes the None branch.

Beamer's counts on a digraph (``direction_optimizing``): a top-down level reads the
frontier's out-edges, so m_f is the frontier's out-degree sum; a bottom-up level reads at
most the unvisited vertices' in-edges, so m_u is their in-degree sum. Each claimed vertex
adds its out-degree to the next m_f and takes its in-degree off m_u (``in_degree``). On an
undirected graph the two degrees are one.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...primitives.bitmaps import ONE, as_uint

__all__ = ["in_degree", "in_degree_sum", "degree_sums_parallel", "chain_in_degrees"]


@njit(inline="always")
def in_degree(in_indptr, v, out_degree):
    """v's in-degree; ``out_degree`` (v's degree) on an undirected graph."""
    if in_indptr is None:
        return out_degree
    return in_indptr[v + ONE] - in_indptr[v]


@njit(inline="always")
def in_degree_sum(in_indptr, q, lo, hi):
    """The in-degree sum of the vertices ``q[lo:hi]`` (a directed graph's)."""
    total = 0
    for i in range(lo, hi):
        v = as_uint(q[as_uint(i)])
        total += in_indptr[v + ONE] - in_indptr[v]
    return total


@njit(cache=True, parallel=True)
def degree_sums_parallel(indptr, in_indptr, q, nthreads):
    """(out-degree sum, in-degree sum) of the vertices ``q`` over all threads: a directed
    graph's new frontier after a parallel level. A pass of its own after the claims: there
    each read would wait behind the claim's atomic (a locked instruction lets no later load
    start early), here the reads overlap."""
    n = q.shape[0]
    nblk = 4 * nthreads if n >= 1 << 14 else 1
    sums = np.zeros((nblk, 2), np.int64)
    for b in prange(nblk):
        out_sum = 0
        for i in range((n * b) // nblk, (n * (b + 1)) // nblk):
            v = as_uint(q[as_uint(i)])
            out_sum += indptr[v + ONE] - indptr[v]
        sums[b, 0] = out_sum
        sums[b, 1] = in_degree_sum(in_indptr, q, (n * b) // nblk, (n * (b + 1)) // nblk)
    return sums[:, 0].sum(), sums[:, 1].sum()


@njit(inline="always")
def chain_in_degrees(in_indptr, parent, v, count):
    """The in-degree sum of ``v`` and its ``count - 1`` nearest ancestors: the vertices
    one chain of a register walk claimed (``thin_frontier``)."""
    total = 0
    for _ in range(count):
        total += in_indptr[as_uint(v) + ONE] - in_indptr[as_uint(v)]
        v = parent[as_uint(v)]
    return total
