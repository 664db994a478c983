"""Level-synchronous BFS as sparse matrix times sparse vector, over scipy.sparse (paper 001,
section 2.3): a readable reference, serial, not tuned.

With A the adjacency matrix and x the frontier (a sparse vector: the sorted array of its
vertices), the next level is y = A^T x over the (select2nd, min) semiring, masked by the
unvisited vertices: y[v] = min{u in x : A[u, v] != 0}, the smallest frontier neighbour of v.
scipy only multiplies over (+, *), so the product is emulated: the rows A[x] (A is symmetric,
so these are the columns of A^T that x selects) give the candidate (parent u, child v) pairs,
u repeated over its row (select2nd keeps the parent's label); pairs whose child is visited are
masked out; the first pair of each child (x is sorted, so its smallest parent: min) wins.
One Python iteration per level, no Python loop over vertices or edges. Each level costs
tens of microseconds of scipy/numpy calls on top of its work, so graphs with many levels
(a path, a grid) are slow.
"""
from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from ..graph.types import CSRGraph, index_dtype
from .types import check_root
from .types import TOP_DOWN, BFSResult, LevelTable

__all__ = ["bfs_spmv"]


def bfs_spmv(graph: CSRGraph, root, *, depth=True, deterministic=False) -> BFSResult:
    """BFS by sparse matrix-vector products over scipy.sparse from ``root``.

    Returns parent (int64, -1 where not reached, parent[root] == root; each vertex gets its
    smallest neighbour in the previous level, so the result is deterministic: the rule of
    ``deterministic=True``, which therefore changes nothing here), depth (int32
    when N < 2**31, else int64; -1 where not reached) and the per-level statistics (all
    'top-down': the product scans the whole adjacency of the frontier). ``depth=False``: result
    depth None.
    """
    r = check_root(graph, root)
    n = graph.num_vertices
    a = sp.csr_matrix((np.ones(graph.indices.shape[0], dtype=np.bool_), graph.indices,
                       graph.indptr), shape=(n, n))
    parent = np.full(n, -1, dtype=np.int64)
    dep = np.full(n, -1, dtype=index_dtype(n))
    parent[r] = r
    dep[r] = 0
    x = np.array([r], dtype=np.int64)  # the frontier, sorted
    fr, ed, tm = [], [], []
    level = 0
    while x.shape[0]:
        t0 = time.perf_counter()
        rows = a[x]  # the pattern of A^T x
        child = rows.indices
        par = np.repeat(x, np.diff(rows.indptr))  # select2nd: the parent's label
        new = parent[child] < 0  # mask: unvisited children only
        child, par = child[new], par[new]
        child, first = np.unique(child, return_index=True)  # min: first (smallest) parent
        parent[child] = par[first]
        dep[child] = level + 1
        fr.append(x.shape[0])
        ed.append(rows.indices.shape[0])
        x = child.astype(np.int64, copy=False)
        level += 1
        tm.append(time.perf_counter() - t0)
    levels = LevelTable(fr, ed, direction=TOP_DOWN, time=tm)
    return BFSResult(parent=parent, root=r, depth=dep if depth else None, levels=levels)
