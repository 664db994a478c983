"""Distributed generation: rank r generates only its own range of the reference-exact edge list.

Edge ``i`` depends only on the seeds and ``i`` (generator/kronecker.py), so the ranks' ranges
(``partition.edge_range``) concatenate to the same list for every number of processes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..generator import kronecker
from ..generator.kronecker import check_scale
from .partition import edge_range

__all__ = ["LocalEdges", "generate_local"]


@dataclass(frozen=True)
class LocalEdges:
    """This rank's edge tuples: ``src[i], dst[i]`` is global tuple ``start + i`` of
    ``num_edges``; labels in ``[0, num_vertices)``."""

    src: np.ndarray
    dst: np.ndarray
    start: int
    num_edges: int
    num_vertices: int

    def __len__(self) -> int:
        return int(self.src.shape[0])


def generate_local(comm, scale: int, edgefactor: int = 16, seed=(2, 3)) -> LocalEdges:
    """This rank's share of the Graph500 Kronecker edge list (no communication)."""
    check_scale(scale, edgefactor)
    m = int(edgefactor) << int(scale)
    start, end = edge_range(m, comm.size, comm.rank)
    part = kronecker(scale, edgefactor, seed, start=start, end=end)
    return LocalEdges(part.src, part.dst, start, m, part.num_vertices)
