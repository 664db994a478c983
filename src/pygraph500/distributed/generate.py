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
    ``num_edges``; labels in ``[0, num_vertices)``. ``weight``: kernel 3's float32 weight of
    each tuple (None for the unweighted list of kernel 2)."""

    src: np.ndarray
    dst: np.ndarray
    start: int
    num_edges: int
    num_vertices: int
    weight: np.ndarray | None = None

    @property
    def weighted(self) -> bool:
        return self.weight is not None

    def __len__(self) -> int:
        return int(self.src.shape[0])


def generate_local(comm, scale: int, edgefactor: int = 16, seed=(2, 3), *,
                   weights: bool = False) -> LocalEdges:
    """This rank's share of the Graph500 Kronecker edge list (no communication);
    ``weights=True`` also draws the tuples' kernel-3 weights (each from its own tuple's
    substream, so the ranks' weights concatenate to the reference's weight vector)."""
    check_scale(scale, edgefactor)
    m = int(edgefactor) << int(scale)
    start, end = edge_range(m, comm.size, comm.rank)
    part = kronecker(scale, edgefactor, seed, start=start, end=end, weights=weights)
    return LocalEdges(part.src, part.dst, start, m, part.num_vertices, part.weight)
