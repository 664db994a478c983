"""Distributed kernel 1 (thesis 4.2.2, Fig. 4.1): the local CSR of every rank.

Each tuple ``(u, v)`` of the rank's edge range is sent, in both directions, to the owner of
its source: ``(u // P, v)`` to rank ``u % P`` and ``(v // P, u)`` to rank ``v % P``
(self-loops are dropped, as in the embedded kernel 1). The counts go first (so every rank
allocates what it will receive once), then the tuples, ``BUILD_CHUNK`` at a time, with
alltoallv; the receiver counts its rows, takes their prefix sum, scatters the
neighbours and sorts and deduplicates every row in place (the embedded kernel 1's
``sort_dedup_rows``). Rows are local vertex ids, neighbours global ids.
No rank ever holds more than its own tuples and its own adjacency entries.

Kernel 3: weighted LocalEdges travel as rows ``(local id, other end, weight bits)``; the
owner keys every entry ``neighbour << 32 | weight bits`` (non-negative float32 bits order as
the numbers), sorts and deduplicates the rows with the same row sort and keeps the first key
of each neighbour: the smallest weight, as the embedded kernel 1 (``graph.weights``). The
unweighted path is untouched (two columns, no keys).

For ``--prune bitmap`` (thesis 5.3) the rank also labels the distinct neighbours of its
adjacency lists ``0..C-1`` (in increasing global id: one bit per column of a bitmap over
every vertex the rank can ever send), and stores that compact column of every entry.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..primitives import popcount
from ..primitives.bits import LOW32
from ..errors import InputError
from ..graph.build import sort_dedup_rows
from ..graph.weights import check_weights, split_keys
from .generate import LocalEdges
from .partition import (Partition1D, block_starts, owner_local, owner_split,
                        vertex_dtype)

__all__ = ["DistGraph", "build_dist", "label_columns", "BUILD_CHUNK"]

BUILD_CHUNK = 1 << 20  # tuples per exchange round of kernel 1 (read at call time)


@dataclass(frozen=True)
class DistGraph:
    """One rank's part of the symmetric graph: CSR rows of its local vertices.

    ``indptr`` (int64, num_local + 1), ``indices`` (global neighbour ids, int32 when
    N < 2**31); rows sorted, no duplicates, no self-loops. ``num_input_edges`` is M over all
    ranks. ``column`` (int32/int64, one per entry) and ``num_columns``: the compact column
    labels of ``--prune bitmap`` (None unless asked for). ``weights`` (float32, aligned with
    ``indices``): kernel 3's smallest weight of the tuples joining the row's vertex and the
    neighbour (None for an unweighted graph)."""

    part: Partition1D
    indptr: np.ndarray
    indices: np.ndarray
    num_input_edges: int
    column: np.ndarray | None = None
    num_columns: int = 0
    weights: np.ndarray | None = None

    @property
    def weighted(self) -> bool:
        return self.weights is not None

    @property
    def num_vertices(self) -> int:
        return self.part.num_vertices

    @property
    def num_local(self) -> int:
        return self.part.num_local

    @property
    def num_entries(self) -> int:
        return int(self.indptr[-1])

    def degree(self) -> np.ndarray:
        return np.diff(self.indptr)


@njit(cache=True)
def _count_owners(src, dst, n, split, counts):
    """Entries per destination rank (both directions, self-loops skipped); the index of the
    first tuple with a label outside [0, n), or -1. ``split``: (size, pow2, shift, mask),
    ``owner_local``'s arguments after the vertex."""
    size, pow2, shift, mask = split
    counts[:] = 0
    for i in range(src.shape[0]):
        u = src[i]
        v = dst[i]
        if u < 0 or u >= n or v < 0 or v >= n:
            return i
        if u != v:
            counts[owner_local(u, size, pow2, shift, mask)[0]] += 1
            counts[owner_local(v, size, pow2, shift, mask)[0]] += 1
    return -1


@njit(cache=True)
def _pack(src, dst, wbits, split, counts, out):
    """Rows (local id at the owner, the other endpoint[, the tuple's weight bits when ``out``
    has a third column]), grouped by owner in rank order (``split`` as ``_count_owners``)."""
    size, pow2, shift, mask = split
    pos = block_starts(counts, size)[0]
    weighted = out.shape[1] > 2
    for i in range(src.shape[0]):
        u = src[i]
        v = dst[i]
        if u == v:
            continue
        o, loc = owner_local(u, size, pow2, shift, mask)
        k = pos[o]
        out[k, 0] = loc
        out[k, 1] = v
        if weighted:
            out[k, 2] = wbits[i]
        pos[o] = k + 1
        o, loc = owner_local(v, size, pow2, shift, mask)
        k = pos[o]
        out[k, 0] = loc
        out[k, 1] = u
        if weighted:
            out[k, 2] = wbits[i]
        pos[o] = k + 1


@njit(cache=True)
def _rows(recv, nlocal, indptr, out):
    """Counting sort of the received rows by local vertex: indptr and the unsorted lists of
    neighbours, or (rows with a weight column) of keys ``neighbour << 32 | weight bits``."""
    indptr[:] = 0
    for k in range(recv.shape[0]):
        indptr[recv[k, 0] + 1] += 1
    for v in range(nlocal):
        indptr[v + 1] += indptr[v]
    pos = indptr[:-1].copy()
    weighted = recv.shape[1] > 2
    for k in range(recv.shape[0]):
        r = recv[k, 0]
        if weighted:
            out[pos[r]] = (np.int64(recv[k, 1]) << 32) | (np.int64(recv[k, 2]) & LOW32)
        else:
            out[pos[r]] = recv[k, 1]
        pos[r] += 1


@njit(cache=True)
def _compact_columns(indices, n, column):
    """column[e] = rank of indices[e] among the distinct values of indices; returns their
    number. A bitmap over the N vertices marks them, a popcount prefix ranks them."""
    nwords = (n + 63) // 64
    words = np.zeros(nwords, np.uint64)
    for e in range(indices.shape[0]):
        v = indices[e]
        words[v >> 6] |= np.uint64(1) << np.uint64(v & 63)
    base = np.empty(nwords, np.int64)
    acc = 0
    for w in range(nwords):
        base[w] = acc
        acc += popcount(words[w])
    for e in range(indices.shape[0]):
        v = indices[e]
        below = words[v >> 6] & ((np.uint64(1) << np.uint64(v & 63)) - np.uint64(1))
        column[e] = base[v >> 6] + popcount(below)
    return acc


def label_columns(indices: np.ndarray, num_vertices: int) -> tuple[np.ndarray, int]:
    """(column of every entry, number of distinct neighbours): the neighbours of a rank's
    rows labelled 0..C-1 in increasing global id (``DistGraph.column``)."""
    column = np.empty(indices.shape[0], dtype=indices.dtype)
    return column, int(_compact_columns(indices, np.int64(num_vertices), column))


def build_dist(comm, edges: LocalEdges, *, compact_columns: bool = False) -> DistGraph:
    """Kernel 1 across the ranks of ``comm`` (collective): every rank passes its LocalEdges and
    gets the CSR rows of the vertices it owns (with ``weights`` when ``edges`` are weighted).
    InputError (on the rank that holds it) for a label outside ``[0, N)`` or a negative
    weight."""
    n = int(edges.num_vertices)
    size = comm.size
    part = Partition1D(n, size, comm.rank)
    itype = vertex_dtype(n)
    src = np.ascontiguousarray(edges.src, dtype=np.int64)
    dst = np.ascontiguousarray(edges.dst, dtype=np.int64)
    counts = np.empty(size, dtype=np.int64)
    split = owner_split(size)
    bad = _count_owners(src, dst, np.int64(n), split, counts)
    if bad >= 0:
        raise InputError(f"edge tuple {edges.start + bad} = ({int(src[bad])}, {int(dst[bad])}) "
                         f"has a label outside [0, {n})")
    weighted = edges.weight is not None
    wbits = _weight_bits(edges, n) if weighted else np.empty(0, dtype=np.int32)
    width = 3 if weighted else 2
    # What every rank will receive is known first, so the tuples travel in chunks straight
    # into one array of the final size (no tuple-list-sized send buffer).
    incoming, _ = comm.alltoallv(counts, np.ones(size, dtype=np.int64))
    recv = np.empty((int(incoming.sum()), width), dtype=itype)
    m = src.shape[0]
    rounds = int(comm.allreduce(-(-m // BUILD_CHUNK), "max"))
    send = np.empty((2 * min(m, BUILD_CHUNK), width), dtype=itype)
    pos = 0
    for r in range(rounds):
        a, b = min(m, r * BUILD_CHUNK), min(m, (r + 1) * BUILD_CHUNK)
        _count_owners(src[a:b], dst[a:b], np.int64(n), split, counts)
        _pack(src[a:b], dst[a:b], wbits[a:b], split, counts, send)
        got, _ = comm.alltoallv(send[:int(counts.sum())], counts, out=recv[pos:])
        if got.shape[0] and not np.shares_memory(got, recv):
            recv[pos:pos + got.shape[0]] = got
        pos += got.shape[0]
    del send
    nlocal = part.num_local
    indptr = np.empty(nlocal + 1, dtype=np.int64)
    weights = None
    if weighted:
        keys = np.empty(recv.shape[0], dtype=np.int64)
        _rows(recv, np.int64(nlocal), indptr, keys)
        del recv
        # sorted keys: the first of each neighbour's run has its smallest weight
        keys = sort_dedup_rows(indptr, keys, max(1, n) << 32)
        indptr, out, weights = split_keys(indptr, keys, itype)
        del keys
    else:
        out = np.empty(recv.shape[0], dtype=itype)
        _rows(recv, np.int64(nlocal), indptr, out)
        del recv
        # Sort and deduplicate every row in place (the embedded kernel 1's parallel kernels).
        out = sort_dedup_rows(indptr, out, n)

    column, num_columns = None, 0
    if compact_columns:
        column, num_columns = label_columns(out, n)
    return DistGraph(part, indptr, out, int(edges.num_edges), column, num_columns, weights)


def _weight_bits(edges: LocalEdges, n: int) -> np.ndarray:
    """The tuples' float32 weights as their int32 bit patterns; InputError naming the first
    negative (or NaN) weight by its global tuple index."""
    if n > 2**31:
        raise InputError(f"weighted graphs are limited to 2**31 vertices, got {n}")
    w = np.asarray(edges.weight)
    if w.shape[0] != edges.src.shape[0]:
        raise InputError(f"{w.shape[0]} weights for {edges.src.shape[0]} edge tuples")
    w = check_weights(w, first=edges.start)  # by global tuple index; -0.0 stored as 0.0
    return w.view(np.int32)
