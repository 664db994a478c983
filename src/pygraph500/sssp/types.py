"""The SSSP contract (kernel 3): every algorithm returns an SSSPResult.

Distances are float32 and computed in float32 arithmetic, as the Graph500 reference computes
and validates them: a vertex's distance is exactly ``float32(distance[parent] + w)`` for the
edge from its parent, so the validator's equality test holds bit for bit.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..bfs.types import LevelTable

__all__ = ["SSSPResult", "UNREACHED_PARENT"]

UNREACHED_PARENT = -1


@dataclass
class SSSPResult:
    """Shortest paths from ``root``.

    ``parent``: int64, the predecessor on a shortest path, ``parent[root] == root``, -1 where
    unreached. ``distance``: float32, 0 at the root, ``inf`` where unreached.
    ``phases``: per-phase statistics as a LevelTable (one row per relaxation phase of the
    algorithm, e.g. a light-edge round of one delta-stepping bucket): ``frontier`` = vertices
    whose edges were relaxed, ``edges_examined`` = edges relaxed, ``discovered`` = distances
    lowered; algorithm-specific columns (e.g. ``bucket``) in ``phases.extra``.
    """

    parent: np.ndarray
    distance: np.ndarray
    root: int
    phases: LevelTable = field(default_factory=LevelTable)

    @property
    def reached(self) -> np.ndarray:
        return self.parent >= 0

    @property
    def num_reached(self) -> int:
        return int(np.count_nonzero(self.parent >= 0))
