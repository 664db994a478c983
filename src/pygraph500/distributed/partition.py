"""1D partitioning (thesis 4.2.1): vertex v is owned by rank ``v % P`` as its local vertex
``v // P``; rank r's share of the generator's edge tuples is the index range
``[M * r // P, M * (r + 1) // P)``.

``owner_local`` is that split in compiled code (one home for every kernel of ``distributed/``),
``block_starts`` where each owner's block begins in rows grouped by owner.

Also the one routing primitive the distributed kernels share: ``bucket_by_owner`` (a stable
counting sort of global vertex ids by owner) and ``fetch`` (ask the owners of some vertices
for values of their local arrays: one alltoallv there, one back).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

__all__ = ["Partition1D", "edge_range", "bucket_by_owner", "fetch", "vertex_dtype",
           "owner_local", "owner_local_args", "owner_split", "block_starts"]


@njit(inline="always")
def owner_local(v, size, pow2, shift, mask):
    """(owner, local id) of global vertex v: ``(v % size, v // size)``, or with ``pow2`` (size
    a power of two: ``shift`` its log2, ``mask`` size - 1) the same without a division. The
    caller passes all of one integer type (uint64 keeps the kernels free of wraparound
    checks; uint64 mixed with int64 turns to float in numba)."""
    if pow2:
        return v & mask, v >> shift
    return v % size, v // size


@njit(inline="always")
def block_starts(counts, size):
    """(start, total): where each rank's block begins when rows are grouped by owner in rank
    order (the exclusive prefix sum of ``counts``), and the number of rows."""
    start = np.empty(size, np.int64)
    acc = 0
    for r in range(size):
        start[r] = acc
        acc += counts[r]
    return start, acc


def owner_local_args(size: int) -> tuple[bool, np.int64, np.int64]:
    """``(pow2, shift, mask)`` of ``owner_local`` for ``size`` ranks."""
    return size & (size - 1) == 0, np.int64(size.bit_length() - 1), np.int64(size - 1)


def owner_split(size: int) -> tuple:
    """``(size, pow2, shift, mask)``: ``owner_local``'s arguments after the vertex, the record
    the kernels take them in."""
    return (np.int64(size), *owner_local_args(size))


def vertex_dtype(num_vertices: int):
    """Integer type of vertex ids in arrays and messages: int32 below 2**31, else int64."""
    return np.int32 if num_vertices < 2**31 else np.int64


def edge_range(num_edges: int, size: int, rank: int) -> tuple[int, int]:
    """Rank ``rank``'s contiguous share of ``num_edges`` generated tuples."""
    return num_edges * rank // size, num_edges * (rank + 1) // size


@dataclass(frozen=True)
class Partition1D:
    """Cyclic 1D distribution of ``num_vertices`` vertices over ``size`` ranks."""

    num_vertices: int
    size: int
    rank: int

    @property
    def num_local(self) -> int:
        """Vertices this rank owns: ``v = rank, rank + P, rank + 2P, ... < N``."""
        return self.local_count(self.rank)

    def local_count(self, rank: int) -> int:
        n, p = self.num_vertices, self.size
        return (n - rank + p - 1) // p if rank < n else 0

    @property
    def max_local(self) -> int:
        """The largest number of vertices any rank owns (rank 0's): ``ceil(N / P)``."""
        return -(-self.num_vertices // self.size)

    def owner(self, v):
        return v % self.size

    def local(self, v):
        return v // self.size

    def to_global(self, local, rank: int | None = None):
        return local * self.size + (self.rank if rank is None else rank)

    def global_ids(self) -> np.ndarray:
        """The global ids of this rank's vertices, in local order (int64)."""
        return np.arange(self.rank, self.num_vertices, self.size, dtype=np.int64)


@njit(cache=True)
def _bucket(ids, size, perm, counts):
    """Stable counting sort of positions by owner ``ids[i] % size``: perm[k] is the position
    of the k-th entry in owner order; counts[r] entries go to rank r. ids < 0 are dropped."""
    counts[:] = 0
    for i in range(ids.shape[0]):
        v = ids[i]
        if v >= 0:
            counts[v % size] += 1
    start, acc = block_starts(counts, size)
    for i in range(ids.shape[0]):
        v = ids[i]
        if v >= 0:
            o = v % size
            perm[start[o]] = i
            start[o] += 1
    return acc


def bucket_by_owner(ids: np.ndarray, size: int):
    """``(perm, counts)``: positions of ``ids`` grouped by owning rank (stable), and how many
    go to each rank. Negative ids are left out."""
    ids = np.ascontiguousarray(ids)
    perm = np.empty(ids.shape[0], dtype=np.int64)
    counts = np.empty(size, dtype=np.int64)
    kept = _bucket(ids, np.int64(size), perm, counts)
    return perm[:kept], counts


def fetch(comm, ids: np.ndarray, serve, payload: np.ndarray | None = None):
    """Ask the owners of the global vertices ``ids`` for one value each.

    Every rank calls it (collective). The owner of each id receives, in one alltoallv,
    the local ids (``v // P``, int64) it is asked about and the rows of ``payload`` that go
    with them, and answers with ``serve(local_ids, payload_rows)``: an array of one value
    (or row) per query. The answers travel back in a second alltoallv and are returned in
    the order of ``ids``. Negative ids are not sent; their answer is left as zero.
    """
    size = comm.size
    ids = np.ascontiguousarray(ids, dtype=np.int64)
    perm, counts = bucket_by_owner(ids, size)
    query = ids[perm] // size
    if payload is not None:
        query = np.column_stack((query, np.ascontiguousarray(payload)[perm].astype(np.int64)))
    got, got_counts = comm.alltoallv(query, counts)
    if payload is not None:
        answers = serve(np.ascontiguousarray(got[:, 0]), np.ascontiguousarray(got[:, 1:]))
    else:
        answers = serve(got, None)
    answers = np.ascontiguousarray(answers)
    back, _ = comm.alltoallv(answers, got_counts)
    out = np.zeros((ids.shape[0],) + back.shape[1:], dtype=back.dtype)
    out[perm] = back
    return out
