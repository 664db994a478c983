"""Whole-array BFS steps written against ``xp`` (NumPy or CuPy), shared by the array-backend
algorithms (``bfs.array``) and the distributed array searcher (``distributed.array_bfs``).

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
"""
from __future__ import annotations

import numpy as np

__all__ = ["queue_offsets", "gather", "sort_unique", "claim", "bottom_up_step"]


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
