"""The 2D mesh of paper 001 (Ueno & Suzumura, section 3.3 and Fig. 4; Table 1 for the shape).

P = R x C ranks form a mesh of R processor-rows and C processor-columns. Rank ``p`` sits at
row ``i = p % R`` and column ``j = p // R`` (column-major, so a processor-column is R
consecutive ranks). Vertices are owned as in the 1D partition (``Partition1D``: vertex v on
rank ``v % P`` as local id ``v // P``), so parent arrays, roots and the 1D validator's parent
rules are unchanged.

- **Column-block j**: the vertices of the R ranks of processor-column j. Vertex u of rank
  ``p_u = u % P`` (column j, row ``i' = p_u % R``) has column index ``i' * L + u // P`` in it,
  with ``L`` = ``ceil(N / P)`` rounded up to 64 (every rank's block padded to L): the
  column-block's arrays are the R ranks' arrays allgathered in the column.
- **Row-block i**: the vertices of the C ranks of processor-row i; vertex v of rank
  ``p_v = k * R + i`` has row index ``k * L + local`` in it (the local id in the owner's
  numbering: sorted by degree in the search, paper section 4.4).
- **Edge block A(i, j)**: the directed entries ``u -> v`` (u the source, a column; v the
  destination, a row) with u in column-block j and v in row-block i; rank (i, j) holds it.
  An undirected tuple ``(u, v)`` is the two entries ``u -> v`` and ``v -> u``.

Expand (the frontier of column-block j) is an allgather in the processor-column (R ranks);
fold (pairs to the owner of v) stays in the processor-row (C ranks): a rank talks to
R + C - 2 others, not P - 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import InputError
from .partition import Partition1D

__all__ = ["Grid2D", "mesh_shape", "parse_grid"]


def mesh_shape(size: int) -> tuple[int, int]:
    """The default mesh for ``size`` ranks: R x C with R <= C and R as close to C as ``size``
    allows (the largest divisor of ``size`` not above its square root), as paper 001's
    Table 1 maps 1, 2, 4, 8, ... processes to 1x1, 1x2, 2x2, 2x4, ...; P = 6 gives 2x3 and a
    prime P gives 1 x P."""
    if size < 1:
        raise InputError(f"a mesh needs at least one process, got {size}")
    r = math.isqrt(size)
    while size % r:
        r -= 1
    return r, size // r


def parse_grid(text: str | None, size: int) -> tuple[int, int]:
    """``--grid RxC`` (None: ``mesh_shape(size)``); InputError unless R and C are positive
    integers with R * C == size."""
    if text is None:
        return mesh_shape(size)
    parts = str(text).lower().replace("*", "x").split("x")
    try:
        if len(parts) != 2:
            raise ValueError
        r, c = int(parts[0]), int(parts[1])
    except ValueError:
        raise InputError(f"grid must be RxC (two positive integers, e.g. 2x3); got "
                         f"{text!r}", "grid") from None
    if r < 1 or c < 1:
        raise InputError(f"grid {text}: both dimensions must be positive", "grid")
    if r * c != size:
        raise InputError(f"grid {text} is a mesh of {r * c} processes, but {size} "
                         f"{'is' if size == 1 else 'are'} running", "grid")
    return r, c


@dataclass(frozen=True)
class Grid2D:
    """Rank ``rank``'s place in the R x C mesh over ``num_vertices`` vertices."""

    num_vertices: int
    rows: int   # R
    cols: int   # C
    rank: int

    def __post_init__(self):
        if self.rows < 1 or self.cols < 1 or not 0 <= self.rank < self.rows * self.cols:
            raise InputError(f"no rank {self.rank} in a {self.rows}x{self.cols} mesh")

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def part(self) -> Partition1D:
        """Vertex ownership (the 1D cyclic one)."""
        return Partition1D(self.num_vertices, self.size, self.rank)

    @property
    def row(self) -> int:
        """i: this rank's processor-row (its rank in its processor-column)."""
        return self.rank % self.rows

    @property
    def col(self) -> int:
        """j: this rank's processor-column (its rank in its processor-row)."""
        return self.rank // self.rows

    @property
    def block(self) -> int:
        """L: every rank's vertex block padded to this many local ids: ``ceil(N / P)`` rounded
        up to a multiple of 64, so a rank's bitmap is whole words of a block's bitmap."""
        return -(-self.num_vertices // (64 * self.size)) * 64

    @property
    def col_length(self) -> int:
        """Entries of a column-block array (R blocks of L)."""
        return self.rows * self.block

    @property
    def row_length(self) -> int:
        """Entries of a row-block array (C blocks of L)."""
        return self.cols * self.block

    def rank_of(self, i: int, j: int) -> int:
        return j * self.rows + i

    def edge_owner(self, u, v):
        """Rank holding the directed entry ``u -> v``: (row of v's owner, column of u's
        owner). Works on numbers and on numpy arrays."""
        p = self.size
        return ((u % p) // self.rows) * self.rows + (v % p) % self.rows

    def col_index(self, u):
        """u's index in its column-block (u must be in this rank's column-block)."""
        p = self.size
        return ((u % p) % self.rows) * self.block + u // p

    def row_index(self, v):
        """v's index in its row-block by original local id (v in this rank's row-block)."""
        p = self.size
        return ((v % p) // self.rows) * self.block + v // p

    def col_vertex(self, c):
        """The global vertex at column index ``c`` of this rank's column-block."""
        return (c % self.block) * self.size + self.col * self.rows + c // self.block

    def row_vertex(self, r):
        """The global vertex at row index ``r`` (original local ids) of this row-block."""
        return (r % self.block) * self.size + (r // self.block) * self.rows + self.row

    def describe(self) -> str:
        return (f"2D: {self.rows} x {self.cols} mesh (rank p at row p % {self.rows}, column "
                f"p // {self.rows}); vertex v on rank v % P; entry u -> v on (row of v's "
                f"owner, column of u's owner)")
