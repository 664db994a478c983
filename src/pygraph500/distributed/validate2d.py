"""Scalable validation on the 2D mesh (paper 001, Ueno & Suzumura, section 5.2).

The 1D validator (``validate``) sends every edge tuple to the owners of both ends, at every
validation: all-to-all traffic of O(M / P) per rank and P - 1 partners. Here the tuples are
2D-partitioned ONCE, before the first search (``distribute_tuples``): tuple ``(u, v)`` goes to
the rank of the directed entry ``u -> v`` (``Grid2D.edge_owner``: processor-row of v's owner,
processor-column of u's owner), where it stays. So every tuple's u is in the holder's
column-block and its v in the holder's row-block, and a validation only moves vertex arrays
within processor-rows and processor-columns, never a tuple:

- the parent rules (length, range, root, parent-visited, no-cycles, which give the depths)
  run on the owners as in 1D (``validate.check_parents``: O(N / P) per rank);
- depth (narrowed dtype) and parent are allgathered in the processor-column (column-block
  arrays, R x L entries, for the tuples' u) and in the processor-row (row-block arrays,
  C x L entries, for v), L = ceil(N / P);
- each rank checks its own tuples against them: component, edge-levels, the TEPS numerator
  and the self-loops; tree-edge-in-graph marks v found when parent(v) == u (a row-block flag)
  and u found when parent(u) == v (a column-block flag);
- the flags are combined by an allreduce 'max' in the processor-row and in the
  processor-column; each owner ORs its two slices and checks its vertices.

Per validation a rank sends and receives O(N / R + N / C) entries (R x L + C x L), with
R + C - 2 partners, plus the O(N / P) of the parent rules; its work is O(M / P + N / R +
N / C). The verdict equals ``validate_dist``'s and the embedded validator's: same rule, same
first offender (smallest global edge index, smallest vertex), same message.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..errors import InputError
from ..validate import ValidationReport, rules
from .generate import LocalEdges
from .grid import Grid2D
from .partition import block_starts, owner_local, owner_local_args, vertex_dtype
from .validate import ParentFacts, check_parents, edge_verdict, first_over_ranks

__all__ = ["Tuples2D", "distribute_tuples", "validate_2d", "count_component_edges_2d",
           "TUPLE_CHUNK"]

TUPLE_CHUNK = 1 << 20  # tuples per exchange round of distribute_tuples


@dataclass(frozen=True)
class Tuples2D:
    """This rank's share of the input tuples after the 2D distribution: ``src[k] -> dst[k]``
    (orientation kept) is global tuple ``index[k]`` of ``num_edges``; every ``src`` lies in
    this rank's column-block and every ``dst`` in its row-block."""

    src: np.ndarray
    dst: np.ndarray
    index: np.ndarray
    num_edges: int
    num_vertices: int

    def __len__(self) -> int:
        return int(self.src.shape[0])


@njit(cache=True)
def _first_outside(src, dst, n):
    """Position of the first tuple with a label outside [0, n), -1 when none."""
    for i in range(src.shape[0]):
        u = np.int64(src[i])
        v = np.int64(dst[i])
        if u < 0 or u >= n or v < 0 or v >= n:
            return i
    return -1


@njit(inline="always")
def _edge_owner(u, v, rows, size):
    """``Grid2D.edge_owner`` in compiled code."""
    return ((u % size) // rows) * rows + (v % size) % rows


@njit(cache=True)
def _count_owners(src, dst, rows, size, counts):
    """counts[r] = tuples whose entry u -> v rank r holds."""
    counts[:] = 0
    for i in range(src.shape[0]):
        counts[_edge_owner(np.int64(src[i]), np.int64(dst[i]), rows, size)] += 1


@njit(cache=True)
def _route(src, dst, rows, size, first, counts, out):
    """The tuples grouped by holder in rank order (stable) into ``out`` (src, dst, index),
    with their global indices (``first`` + position); counts[r] of them go to rank r."""
    out_src, out_dst, out_index = out
    counts[:] = 0
    for i in range(src.shape[0]):
        counts[_edge_owner(np.int64(src[i]), np.int64(dst[i]), rows, size)] += 1
    pos, total = block_starts(counts, size)
    for i in range(src.shape[0]):
        u = np.int64(src[i])
        v = np.int64(dst[i])
        o = _edge_owner(u, v, rows, size)
        out_src[pos[o]] = u
        out_dst[pos[o]] = v
        out_index[pos[o]] = first + i
        pos[o] += 1
    return total


def _received(got, buf, pos: int) -> int:
    """Rows of an alltoallv received into ``buf[pos:]`` (copied there if the communicator
    gave a buffer of its own)."""
    rows = int(got.shape[0])
    if rows and got.ctypes.data != buf[pos:].ctypes.data:
        buf[pos:pos + rows] = got
    return rows


def distribute_tuples(comm, grid: Grid2D, edges: LocalEdges) -> Tuples2D:
    """Send each of this rank's tuples to the rank holding its entry u -> v (collective; once,
    before the first search). In rounds of ``TUPLE_CHUNK`` tuples, received in place into
    arrays of the final size, so no rank holds more than its share plus a round. Raises the
    1D edge pass's InputError (the smallest global index) on every rank when a label is
    outside [0, N). ``edges`` may be dropped afterwards."""
    n = grid.num_vertices
    if int(edges.num_vertices) != n:
        raise InputError(f"the edge list has {edges.num_vertices} vertices, the mesh {n}")
    size, rows = grid.size, grid.rows
    src = np.ascontiguousarray(edges.src)
    dst = np.ascontiguousarray(edges.dst)
    m = src.shape[0]
    i = int(_first_outside(src, dst, np.int64(n)))
    key, info = first_over_ranks(comm, edges.start + i if i >= 0 else edges.num_edges,
                       (int(src[i]), int(dst[i])) if i >= 0 else None)
    if info is not None:
        raise rules.edge_outside(key, *info, n)
    counts = np.empty(size, dtype=np.int64)
    _count_owners(src, dst, np.int64(rows), np.int64(size), counts)
    total = int(comm.allreduce(counts)[grid.rank])
    vdt = vertex_dtype(n)
    out_src = np.empty(total, dtype=vdt)
    out_dst = np.empty(total, dtype=vdt)
    out_index = np.empty(total, dtype=np.int64)
    chunk = min(TUPLE_CHUNK, max(1, m))
    send_src = np.empty(chunk, dtype=vdt)
    send_dst = np.empty(chunk, dtype=vdt)
    send_index = np.empty(chunk, dtype=np.int64)
    send = (send_src, send_dst, send_index)
    pos = 0
    for r in range(int(comm.allreduce(-(-m // TUPLE_CHUNK), "max"))):
        a, b = min(m, r * TUPLE_CHUNK), min(m, (r + 1) * TUPLE_CHUNK)
        k = int(_route(src[a:b], dst[a:b], np.int64(rows), np.int64(size),
                       np.int64(edges.start + a), counts, send))
        got, _ = comm.alltoallv(send_src[:k], counts, out=out_src[pos:])
        got_rows = _received(got, out_src, pos)
        got, _ = comm.alltoallv(send_dst[:k], counts, out=out_dst[pos:])
        _received(got, out_dst, pos)
        got, _ = comm.alltoallv(send_index[:k], counts, out=out_index[pos:])
        _received(got, out_index, pos)
        pos += got_rows
    return Tuples2D(out_src, out_dst, out_index, int(edges.num_edges), n)


def _check_mesh(grid: Grid2D, row_comm, col_comm, tuples: Tuples2D) -> None:
    if row_comm.size != grid.cols or row_comm.rank != grid.col:
        raise InputError(f"row_comm must be processor-row {grid.row} ranked by column "
                         f"(comm.split(grid.row, grid.col))")
    if col_comm.size != grid.rows or col_comm.rank != grid.row:
        raise InputError(f"col_comm must be processor-column {grid.col} ranked by row "
                         f"(comm.split(grid.col, grid.row))")
    if tuples.num_vertices != grid.num_vertices:
        raise InputError(f"the tuples have {tuples.num_vertices} vertices, the mesh "
                         f"{grid.num_vertices}")


def _bases(grid: Grid2D):
    """Per owner rank o: where o's block starts in a column-block ((o % R) * L) and in a
    row-block ((o // R) * L); a vertex's index there is that plus its local id."""
    o = np.arange(grid.size, dtype=np.int64)
    return (o % grid.rows) * grid.block, (o // grid.rows) * grid.block


def _blocks(grid: Grid2D, row_comm, col_comm, local: np.ndarray, fill, dtype):
    """``local`` (this rank's vertices) padded to L and allgathered: (the column-block
    array, the row-block array)."""
    padded = np.full(grid.block, fill, dtype=dtype)
    padded[:local.shape[0]] = local
    return (col_comm.allgather(padded).reshape(-1), row_comm.allgather(padded).reshape(-1))


@njit(cache=True)
def _tuple_pass(tuples, bases, args, col, row):
    """Every tuple (src, dst, global index) against its ends' depths and parents (``col``:
    the column-block's (depth, parent, found) for u, ``row``: the row-block's for v): (nedge,
    nself, position of the edge-levels offender, of the component offender), each the tuple
    of smallest global index, -1 when none. Marks the tree edges found. ``bases``: ``_bases``."""
    src, dst, index = tuples
    col_base, row_base = bases
    dcol, pcol, fcol = col
    drow, prow, frow = row
    pow2, shift, mask, size = args[0] != 0, args[1], args[2], args[3]
    nedge = 0
    nself = 0
    bad_level = -1
    bad_comp = -1
    for k in range(src.shape[0]):
        u = np.int64(src[k])
        v = np.int64(dst[k])
        o, loc = owner_local(u, size, pow2, shift, mask)
        cu = col_base[o] + loc
        o, loc = owner_local(v, size, pow2, shift, mask)
        rv = row_base[o] + loc
        du = np.int64(dcol[cu])
        dv = np.int64(drow[rv])
        if du < 0 or dv < 0:
            if (du >= 0 or dv >= 0) and (bad_comp < 0 or index[k] < index[bad_comp]):
                bad_comp = k
            continue
        if u == v:
            nself += 1
            continue
        nedge += 1
        if (du - dv > 1 or dv - du > 1) and (bad_level < 0 or index[k] < index[bad_level]):
            bad_level = k
        if frow[rv] == 0 and prow[rv] == u:
            frow[rv] = 1
        if fcol[cu] == 0 and pcol[cu] == v:
            fcol[cu] = 1
    return nedge, nself, bad_level, bad_comp


@njit(cache=True)
def _count_pass(src, dst, bases, args, rcol, rrow):
    """Tuples with both ends reached, self-loops not counted (``bases``: ``_bases``)."""
    col_base, row_base = bases
    pow2, shift, mask, size = args[0] != 0, args[1], args[2], args[3]
    count = 0
    for k in range(src.shape[0]):
        u = np.int64(src[k])
        v = np.int64(dst[k])
        if u == v:
            continue
        o, loc = owner_local(u, size, pow2, shift, mask)
        if rcol[col_base[o] + loc] == 0:
            continue
        o, loc = owner_local(v, size, pow2, shift, mask)
        count += rrow[row_base[o] + loc]
    return count


def _kernel_args(grid: Grid2D) -> np.ndarray:
    pow2, shift, mask = owner_local_args(grid.size)
    return np.array([int(pow2), shift, mask, grid.size], dtype=np.int64)


def _offender(comm, tuples: Tuples2D, k: int, dcol, drow, grid: Grid2D):
    """The agreed first offender ``(global index, (u, v, level u, level v) or None)``."""
    if k < 0:
        return first_over_ranks(comm, tuples.num_edges, None)
    u, v = int(tuples.src[k]), int(tuples.dst[k])
    info = (u, v, int(dcol[grid.col_index(u)]), int(drow[grid.row_index(v)]))
    return first_over_ranks(comm, int(tuples.index[k]), info)


def validate_2d(comm, grid: Grid2D, row_comm, col_comm, tuples: Tuples2D, parent,
                root: int) -> ValidationReport:
    """Check the distributed parent array (this rank's ``parent`` over its local vertices
    ``v % P == rank``, global ids, -1 unreached) against the 2D-distributed tuples
    (collective over ``comm``; ``row_comm`` = ``comm.split(grid.row, grid.col)``, ``col_comm``
    = ``comm.split(grid.col, grid.row)``). The same report on every rank, as
    ``validate_dist`` gives it; ``depth`` is not gathered (None)."""
    _check_mesh(grid, row_comm, col_comm, tuples)
    part = grid.part
    facts = check_parents(comm, part, parent, root)
    if isinstance(facts, ValidationReport):
        return facts
    found, nedge, nself, bad, dcol, drow = _edge_pass_2d(grid, row_comm, col_comm, tuples,
                                                         facts)
    level, comp = (_offender(comm, tuples, k, dcol, drow, grid) for k in bad)
    return edge_verdict(comm, part, facts, root, found, int(comm.allreduce(nedge)),
                        int(comm.allreduce(nself)), level, comp)


def _edge_pass_2d(grid: Grid2D, row_comm, col_comm, tuples: Tuples2D, facts: ParentFacts):
    """(this rank's found flags, nedge, nself, the local positions of the edge-levels and
    component offenders, the column- and row-block depths): one gather of depth and parent
    per mesh line, one flag reduction per mesh line."""
    narrow = facts.narrow_depth()
    dcol, drow = _blocks(grid, row_comm, col_comm, narrow, -1, narrow.dtype)
    vdt = vertex_dtype(grid.num_vertices)
    pcol, prow = _blocks(grid, row_comm, col_comm, facts.parent, -1, vdt)
    fcol = np.zeros(grid.col_length, dtype=np.uint8)
    frow = np.zeros(grid.row_length, dtype=np.uint8)
    nedge, nself, bad_level, bad_comp = _tuple_pass(
        (tuples.src, tuples.dst, tuples.index), _bases(grid), _kernel_args(grid),
        (dcol, pcol, fcol), (drow, prow, frow))
    fcol = col_comm.allreduce(fcol, "max")
    frow = row_comm.allreduce(frow, "max")
    nl, lb = grid.part.num_local, grid.block
    found = fcol[grid.row * lb:grid.row * lb + nl] | frow[grid.col * lb:grid.col * lb + nl]
    return found, int(nedge), int(nself), (int(bad_level), int(bad_comp)), dcol, drow


def count_component_edges_2d(comm, grid: Grid2D, row_comm, col_comm, tuples: Tuples2D,
                             parent) -> int:
    """The TEPS numerator without validating (``count_component_edges``, on the 2D tuples):
    tuples with both ends reached, duplicates counted, self-loops not (collective)."""
    _check_mesh(grid, row_comm, col_comm, tuples)
    parent = rules.check_parent_array(parent)
    if not comm.allreduce(int(parent.shape[0] == grid.part.num_local), "min"):
        raise InputError(f"parent: expected {grid.num_vertices} entries over the ranks, got "
                         f"{int(comm.allreduce(int(parent.shape[0])))}")
    reached = (parent != -1).astype(np.uint8)
    rcol, rrow = _blocks(grid, row_comm, col_comm, reached, 0, np.uint8)
    count = _count_pass(tuples.src, tuples.dst, _bases(grid), _kernel_args(grid), rcol, rrow)
    return int(comm.allreduce(int(count)))
