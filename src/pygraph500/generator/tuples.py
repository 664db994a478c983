"""The Kronecker edge list without holding it: ``KroneckerTuples`` generates the tuples in
pieces, on demand, into buffers it reuses.

Each tuple depends only on its index, so a piece can be made again whenever it is needed:
kernel 1 reads the list twice (counting, then placing) and never holds more than one piece.
At SCALE 26 the list as int64 pairs is 17 GB, the CSR built from it 8.6 GB: a run that keeps
only the CSR fits in 24 GB. The time spent inside the generator is kept
(``generation_seconds``), so a run can report generation and kernel 1 apart.
"""
from __future__ import annotations

import time

import numpy as np

from ..graph.types import EdgeList
from .kronecker import check_scale, check_seed, kronecker, kronecker_stream

__all__ = ["KroneckerTuples", "piece_size"]


def piece_size(num_edges: int) -> int:
    """Tuples per piece: a 64th of the list, between 2^16 and 2^22 (64 MiB of int64
    endpoints). Small enough that the buffers stay small beside the CSR (a 64th of a list
    whose CSR holds each tuple twice) and a piece is often still in cache when kernel 1 reads
    it; large enough that a SCALE 26 pass is 256 pieces, each a few parallel regions."""
    return min(1 << 22, max(1 << 16, num_edges >> 6))


class KroneckerTuples:
    """The Graph500 Kronecker tuples of (scale, edgefactor, seed), made piece by piece.

    It answers what kernel 1 asks of a tuple source (``num_vertices``, ``num_edges``,
    ``weighted``, ``chunks``), like an ``EdgeList`` whose arrays are never all in memory.
    ``chunks()`` yields ``(first index, src, dst, weight or None)``; the arrays are views of
    buffers that the next piece overwrites. ``edge_list()`` makes the whole list (the same
    tuples as ``kronecker``).
    """

    def __init__(self, scale: int, edgefactor: int = 16, seed=(2, 3), *, weights: bool = False,
                 piece: int | None = None):
        check_scale(scale, edgefactor)
        self.scale = int(scale)
        self.edgefactor = int(edgefactor)
        self.seed = check_seed(seed)
        self.weighted = bool(weights)
        self.num_vertices = 1 << self.scale
        self.num_edges = self.edgefactor << self.scale
        self.piece = piece_size(self.num_edges) if piece is None else max(1, int(piece))
        self.generation_seconds = 0.0  # time spent generating, every pass together
        self._stream = None

    def __len__(self) -> int:
        return self.num_edges

    def chunks(self, weights: bool = True):
        """Every tuple once, in order, as ``(first index, src, dst, weight or None)`` pieces
        (``weights=False``: endpoints only, which is faster). The views are valid until the
        next piece is made."""
        if self._stream is None:
            self._stream = kronecker_stream(self.scale, self.seed)
        size = min(self.piece, self.num_edges)
        src = np.empty(size, dtype=np.int64)
        dst = np.empty(size, dtype=np.int64)
        with_weights = weights and self.weighted
        wgt = np.empty(size if with_weights else 0, dtype=np.float32)
        for start in range(0, self.num_edges, size):
            k = min(size, self.num_edges - start)
            t0 = time.perf_counter()
            self._stream.fill(start, start + k, src[:k], dst[:k], wgt[:k] if with_weights else wgt)
            self.generation_seconds += time.perf_counter() - t0
            yield start, src[:k], dst[:k], (wgt[:k] if with_weights else None)

    def edge_list(self) -> EdgeList:
        """All the tuples at once (``kronecker`` of the same parameters)."""
        return kronecker(self.scale, self.edgefactor, self.seed, weights=self.weighted)
