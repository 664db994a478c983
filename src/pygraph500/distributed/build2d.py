"""2D kernel 1 (paper 001, Algorithm III): every rank builds its edge block A(i, j) only, with
the vertices of its row-block sorted by degree inside each owner's block (section 4.4).

1. Each rank routes the entries of its own generated tuples, ``u -> v`` and ``v -> u``, to the
   rank holding them (``Grid2D.edge_owner``) as ``(column index of u, row index of v)`` in
   that rank's blocks: alltoallv in chunks of ``BUILD_CHUNK`` tuples, counts first, so no rank
   ever holds more than its tuples, its entries and one chunk (no rank sees the edge list).
2. The block's column CSR (rows: column indices of u; neighbours: row indices of v) is
   counted, scattered, sorted and deduplicated (the embedded kernel 1's row sort).
3. **Degrees** (Algorithm III lines 10-14): the entries per row index, summed over the
   processor-row (allreduce of a row-block array: the C blocks of a row-block partition the
   sources, so the sum is the number of distinct neighbours); each owner takes its slice.
4. **MAP** (line 15): each owner sorts its vertices by degree, largest first (ties by local
   id): ``order[s]`` is the original local id of sorted id ``s``, ``sorted_id`` the inverse.
   ``sort_vertices=None`` (paper 001's Fig. 9 without vertex sorting) keeps the identity
   order, and step 5 has nothing to relabel.
5. The owners' ``sorted_id`` is allgathered in the processor-row (lines 21-24: the block learns
   the sorted id of every row it holds), and the neighbours are relabelled to sorted row
   indices ``k * L + sorted id``. Column indices stay in original ids (paper: the sorted order
   is used for rows only, so PRED needs no conversion).
6. For bottom-up levels the block's row CSR (rows: sorted row indices; neighbours: column
   indices) is the transpose of the column CSR, each row's neighbours ordered by degree,
   largest first (the degrees of the column-block gathered along the processor-column): a
   bottom-up scan stops at the first neighbour in the frontier, and hubs are there first.

Self-loops are dropped, as in the embedded kernel 1.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..errors import InputError
from ..graph.build import sort_dedup_rows
from .build import BUILD_CHUNK
from .generate import LocalEdges
from .grid import Grid2D
from .partition import block_starts, vertex_dtype

__all__ = ["DistGraph2D", "build_2d", "mesh_comms", "SORT_MODES_2D"]


@dataclass(frozen=True)
class DistGraph2D:
    """Rank (i, j)'s part of the symmetric graph: its edge block A(i, j) and what its owned
    vertices need.

    ``cindptr``/``cindices``: the column CSR (``grid.col_length`` rows: sources u by column
    index; neighbours: sorted row indices of v). ``rindptr``/``rindices``: the row CSR (rows by
    sorted row index; neighbours: column indices; None when not built). ``degree``: the owned
    vertices' degrees (original local order); ``order``: original local id of each sorted id;
    ``sorted_id``: its inverse. ``num_input_edges``: M over all ranks."""

    grid: Grid2D
    cindptr: np.ndarray
    cindices: np.ndarray
    rindptr: np.ndarray | None
    rindices: np.ndarray | None
    degree: np.ndarray
    order: np.ndarray
    sorted_id: np.ndarray
    num_input_edges: int

    @property
    def num_vertices(self) -> int:
        return self.grid.num_vertices

    @property
    def part(self):
        return self.grid.part

    @property
    def num_local(self) -> int:
        return self.grid.part.num_local

    @property
    def num_entries(self) -> int:
        """Entries of this rank's block (each undirected edge is two entries over the mesh)."""
        return int(self.cindptr[-1])


def mesh_comms(comm, grid: Grid2D):
    """(processor-row communicator, processor-column communicator) of this rank (collective):
    in the row a rank's rank is its column j, in the column its row i."""
    return comm.split(grid.row, grid.col), comm.split(grid.col, grid.row)


@njit(cache=True)
def _route(src, dst, n, size, rows, block, counts, out):
    """Entries of tuples grouped by the rank holding them, as (column index of the source,
    row index of the destination); counts only when ``out`` is empty. Returns the index of
    the first tuple with a label outside [0, n), or -1."""
    counts[:] = 0
    for i in range(src.shape[0]):
        u = src[i]
        v = dst[i]
        if u < 0 or u >= n or v < 0 or v >= n:
            return i
        if u != v:
            counts[((u % size) // rows) * rows + (v % size) % rows] += 1
            counts[((v % size) // rows) * rows + (u % size) % rows] += 1
    if out.shape[0] == 0:
        return -1
    pos = block_starts(counts, size)[0]
    for i in range(src.shape[0]):
        u = src[i]
        v = dst[i]
        if u == v:
            continue
        for a, b in ((u, v), (v, u)):
            pa = a % size
            pb = b % size
            k = pos[(pa // rows) * rows + pb % rows]
            out[k, 0] = (pa % rows) * block + a // size
            out[k, 1] = (pb // rows) * block + b // size
            pos[(pa // rows) * rows + pb % rows] = k + 1
    return -1


@njit(cache=True)
def _column_rows(recv, ncols, indptr, out):
    """Counting sort of received (column, row) entries by column: indptr and unsorted rows."""
    indptr[:] = 0
    for k in range(recv.shape[0]):
        indptr[recv[k, 0] + 1] += 1
    for c in range(ncols):
        indptr[c + 1] += indptr[c]
    pos = indptr[:-1].copy()
    for k in range(recv.shape[0]):
        c = recv[k, 0]
        out[pos[c]] = recv[k, 1]
        pos[c] += 1


@njit(cache=True)
def _count_rows(indices, counts):
    counts[:] = 0
    for e in range(indices.shape[0]):
        counts[indices[e]] += 1


@njit(cache=True)
def _relabel(indices, block, row_sorted):
    """Row index k * L + original id -> k * L + sorted id (``row_sorted``: the row's owners'
    sorted ids, L-padded, in row-index order)."""
    for e in range(indices.shape[0]):
        r = indices[e]
        indices[e] = (r // block) * block + row_sorted[r]


@njit(cache=True)
def _transpose(cindptr, cindices, nrows, col_order, rindptr, rindices):
    """The row CSR of the block: rows by row index; each row's column indices in the order
    of ``col_order`` (the columns are visited in that order, so no sort is needed)."""
    rindptr[:] = 0
    for e in range(cindices.shape[0]):
        rindptr[cindices[e] + 1] += 1
    for r in range(nrows):
        rindptr[r + 1] += rindptr[r]
    pos = rindptr[:-1].copy()
    for t in range(col_order.shape[0]):
        c = col_order[t]
        for e in range(cindptr[c], cindptr[c + 1]):
            r = cindices[e]
            rindices[pos[r]] = c
            pos[r] += 1


def busiest_columns(degree, block, col_comm) -> np.ndarray:
    """The column indices of this rank's column-block by degree, largest first: each row of
    the row CSR lists its neighbours in this order, so a bottom-up scan meets the likeliest
    parents (the hubs, in the frontier early) first and stops sooner. The column-block's
    degrees are gathered along the processor-column."""
    padded = np.zeros(block, dtype=np.int64)
    padded[:degree.shape[0]] = degree
    return degree_order(col_comm.allgather(padded).reshape(-1))


def degree_order(degree: np.ndarray) -> np.ndarray:
    """Original local ids by degree, largest first, ties by local id (the MAP of paper 001)."""
    return np.argsort(-degree, kind="stable").astype(np.int64)


SORT_MODES_2D = ("degree", None)


def build_2d(comm, grid: Grid2D, edges: LocalEdges, row_comm, col_comm, *,
             transpose: bool = True, sort_vertices: str | None = "degree") -> DistGraph2D:
    """Kernel 1 on the mesh (collective): this rank's edge block, its owned vertices' degrees
    and their order (``sort_vertices``: "degree", or None for the identity); ``transpose``
    also builds the row CSR (bottom-up levels need it). InputError (on the rank holding it)
    for a label outside [0, N) or an unknown ``sort_vertices``."""
    if sort_vertices not in SORT_MODES_2D:
        raise InputError(f"sort_vertices must be degree or none; got {sort_vertices!r}",
                         "sort_vertices")
    n, size = grid.num_vertices, grid.size
    block = grid.block
    itype = vertex_dtype(max(grid.col_length, grid.row_length) + 1)
    src = np.ascontiguousarray(edges.src, dtype=np.int64)
    dst = np.ascontiguousarray(edges.dst, dtype=np.int64)
    counts = np.empty(size, dtype=np.int64)
    none = np.empty((0, 2), dtype=itype)
    args = (np.int64(n), np.int64(size), np.int64(grid.rows), np.int64(block))
    bad = _route(src, dst, *args, counts, none)
    if bad >= 0:
        raise InputError(f"edge tuple {edges.start + bad} = ({int(src[bad])}, {int(dst[bad])}) "
                         f"has a label outside [0, {n})")
    incoming, _ = comm.alltoallv(counts, np.ones(size, dtype=np.int64))
    recv = np.empty((int(incoming.sum()), 2), dtype=itype)
    m = src.shape[0]
    rounds = int(comm.allreduce(-(-m // BUILD_CHUNK), "max"))
    send = np.empty((2 * min(m, BUILD_CHUNK), 2), dtype=itype)
    pos = 0
    for r in range(rounds):
        a, b = min(m, r * BUILD_CHUNK), min(m, (r + 1) * BUILD_CHUNK)
        _route(src[a:b], dst[a:b], *args, counts, send)  # counts, then fills
        got, _ = comm.alltoallv(send[:int(counts.sum())], counts, out=recv[pos:])
        if got.shape[0] and not np.shares_memory(got, recv):
            recv[pos:pos + got.shape[0]] = got
        pos += got.shape[0]
    del send
    ncols, nrows = grid.col_length, grid.row_length
    cindptr = np.empty(ncols + 1, dtype=np.int64)
    cindices = np.empty(recv.shape[0], dtype=itype)
    _column_rows(recv, np.int64(ncols), cindptr, cindices)
    del recv
    cindices = sort_dedup_rows(cindptr, cindices, max(1, nrows))

    # degrees: entries per row, summed over the processor-row; the owner's slice
    row_counts = np.empty(nrows, dtype=np.int64)
    _count_rows(cindices, row_counts)
    row_counts = row_comm.allreduce(row_counts)
    nlocal = grid.part.num_local
    mine = grid.col * block
    degree = np.ascontiguousarray(row_counts[mine:mine + nlocal])
    del row_counts
    if sort_vertices is None:
        order = np.arange(nlocal, dtype=np.int64)
        sorted_id = order
    else:
        order = degree_order(degree)
        sorted_id = np.empty(nlocal, dtype=np.int64)
        sorted_id[order] = np.arange(nlocal, dtype=np.int64)
        padded = np.zeros(block, dtype=itype)
        padded[:nlocal] = sorted_id
        row_sorted = row_comm.allgather(padded).reshape(-1)
        _relabel(cindices, np.int64(block), row_sorted)
        del row_sorted
        cindices = sort_dedup_rows(cindptr, cindices, max(1, nrows))  # re-sorted, none lost

    rindptr = rindices = None
    if transpose:
        rindptr = np.empty(nrows + 1, dtype=np.int64)
        rindices = np.empty(cindices.shape[0], dtype=itype)
        _transpose(cindptr, cindices, np.int64(nrows), busiest_columns(degree, block, col_comm),
                   rindptr, rindices)
    return DistGraph2D(grid, cindptr, cindices, rindptr, rindices, degree, order, sorted_id,
                       int(edges.num_edges))
