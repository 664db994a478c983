"""Whole-array BFS steps written against ``xp`` (NumPy or CuPy), shared by the array-backend
algorithms (``bfs.array``) and the distributed array searcher (``distributed.array_bfs``).

Every step has shapes the host already knows (the queue's length, its adjacency entries
``m``), so a level never waits for the device to learn a size: elements that must go nowhere
are written to spare slots at the end of the target array instead of being filtered out by
a boolean mask (which on a GPU reads the mask's count back to the host). A target has
``SPARE`` of them and element k writes to spare slot k mod SPARE (``spill``): one slot for
all would be a hot spot, every such write of a level to one address. On NumPy, where a mask
costs no round trip, ``put`` leaves those elements out instead (the same result, faster).

- ``queue_offsets``: thesis 4.3.2 step A: the queue's degrees (Q_degree), their exclusive
  prefix sum (NewOffset) and the start of each list in the CSR (Q_offset).
- ``entries`` / ``gather``: step B: one work item per NLF element; item t finds its queue
  entry i by a binary search in NewOffset (``searchsorted``) and reads ``indices[Q_offset[i]
  + t - NewOffset[i]]``: the Next Level Frontier, with its parent payload ``q[i]``.
- ``sort_unique``: step C: the fresh (vertex, parent) pairs sorted, the first of each vertex
  marked.
- ``claim``: the unsorted alternative: a ticket per element scattered into a per-vertex
  array; the elements whose ticket stayed are marked.
- ``compact``: the marked elements written in order to the front of an array (a prefix sum
  gives their places), their count left on the device.
- ``read_counts``: a level's one read: several device scalars copied back together.
- ``spill``, ``put``: where the elements that write nowhere write (spread over the spare
  slots); a scatter of the marked elements only.
- ``bottom_up_step``: Beamer's step: the candidates' lists are gathered like an NLF and each
  candidate takes a neighbour in the frontier mask.

Duplicate-index scatters (``claim``'s tickets, the parents of ``bottom_up_step`` and of the
gpu-queue form) leave one of the written values, which one unspecified on a GPU. Each is
correct whichever write wins: every written value is a valid answer, and what is read back
is checked against what was written (tests: ``numpy-checked`` with random winners).
"""
from __future__ import annotations

import numpy as np

__all__ = ["SPARE", "spill", "put", "queue_offsets", "entries", "gather", "sort_unique", "claim",
           "compact", "read_counts", "bottom_up_step"]

SPARE = 1024  # spare slots at the end of every scatter target (a power of two)


def spill(xp, m: int, base: int):
    """The spare slot of each of m elements in a target whose real part has ``base``
    entries: base + k mod SPARE."""
    slot = xp.arange(m, dtype=np.int64)
    slot &= SPARE - 1
    slot += base
    return slot


def put(xp, target, index, values, mark, slots) -> None:
    """``target[index[k]] = values[k]`` (or the scalar ``values``) where ``mark[k]``; the
    other elements write to their spare ``slots`` (on a device: no count read back), or on
    NumPy are left out."""
    if xp is np:
        target[index[mark]] = values[mark] if np.ndim(values) else values
    else:
        target[xp.where(mark, index, slots)] = values


def queue_offsets(xp, indptr, q):
    """(Q_offset, NewOffset, degrees): the list start of every queued vertex, the exclusive
    prefix sum of their degrees, and the degrees."""
    start = indptr[q]
    deg = indptr[q + 1] - start
    newoff = xp.cumsum(deg)
    newoff -= deg  # in place: each allocation is a kernel launch and memory traffic on a GPU
    return start, newoff, deg


def entries(xp, start, newoff, m):
    """(i, idx) of the ``m`` entries of the lists: entry t's list i and CSR position idx."""
    tid = xp.arange(m, dtype=np.int64)
    i = xp.searchsorted(newoff, tid, side="right")
    i -= 1  # NewOffset[i] <= t < NewOffset[i + 1]
    tid -= newoff[i]
    tid += start[i]
    return i, tid


def gather(xp, indices, q, start, newoff, m):
    """(NLF vertices, their parents) with one work item per NLF element (step B)."""
    i, idx = entries(xp, start, newoff, m)
    return indices[idx].astype(np.int64), q[i]


def sort_unique(xp, v, p, fresh, n: int, nv: int | None = None, most: int | None = None):
    """(vertex, parent, first) in sorted order: the fresh pairs packed as ``v * n + p`` (one
    64-bit sort carries the payload; p < n, v < nv, default n), the others as ``nv * n``
    (vertex nv, last); ``first`` marks one pair per distinct fresh vertex. ``most``: a bound
    on the fresh pairs known on the host; when below their number, only ``most`` keys are
    sorted (the fresh ones moved to the front, the rest ``nv * n``)."""
    nv = n if nv is None else nv
    keys = v * n
    keys += p
    if most is not None and most < keys.shape[0]:
        front = xp.full(most + SPARE, nv * n, dtype=np.int64)
        compact(xp, fresh, keys, front, spill(xp, keys.shape[0], most))
        keys = xp.sort(front[:most])
    else:
        keys = xp.sort(xp.where(fresh, keys, nv * n))
    vs = keys // n
    first = xp.empty(vs.shape[0], dtype=bool)
    first[:1] = True
    xp.not_equal(vs[1:], vs[:-1], out=first[1:])
    first &= vs < nv
    keys -= vs * n  # the parents
    return vs, keys, first


def claim(xp, v, fresh, tickets, slots):
    """One element per distinct fresh vertex of ``v`` without sorting: element k writes its
    ticket k into ``tickets[v[k]]`` (a per-vertex scratch array; the others write to their
    spare ``slots``); the elements whose ticket stayed are marked: exactly one per vertex,
    whichever write won."""
    k = xp.arange(v.shape[0], dtype=np.int64)
    put(xp, tickets, v, k, fresh, slots)
    return fresh & (tickets[v] == k)


def compact(xp, take, values, out, slots):
    """``values[take]`` written in order to ``out[:count]`` (``out`` has room for them; the
    rest write to their spare ``slots``); returns count, on the device."""
    if take.shape[0] == 0:
        return 0
    pos = xp.cumsum(take, dtype=np.int64)
    pos -= 1
    put(xp, out, pos, values, take, slots)
    return pos[-1] + 1


def read_counts(backend, buf, *values) -> list[int]:
    """``values`` (device scalars or host numbers) copied to the host in one transfer
    through ``buf`` (a small device array): a level's one read."""
    for k, v in enumerate(values):
        buf[k] = v
    return [int(x) for x in backend.to_host(buf[:len(values)])]


def bottom_up_step(xp, indptr, indices, parent, depth, level, front, cand, m, slots):
    """One bottom-up level: every vertex of ``cand`` (unvisited, with neighbours; ``m``
    entries in their lists) takes a neighbour that is in the frontier mask ``front`` as its
    parent (any of them: each is valid, so it does not matter which write wins). Whole lists
    are gathered (a vectorised step cannot stop at the first hit). ``slots``: the spare slots
    of parent and depth, m of them. Returns (found: a flag per candidate, their degrees)."""
    start, newoff, deg = queue_offsets(xp, indptr, cand)
    i, idx = entries(xp, start, newoff, m)
    nbr = indices[idx]
    put(xp, parent, cand[i], nbr, front[nbr], slots)
    found = parent[cand] >= 0
    if depth is not None:
        put(xp, depth, cand, level + 1, found, slots[:cand.shape[0]])
    return found, deg
