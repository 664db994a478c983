"""The BFS contract: every algorithm returns a BFSResult."""
from __future__ import annotations

from dataclasses import dataclass, field, asdict

import numpy as np


@dataclass
class LevelStats:
    """What happened at one BFS level (the fields of thesis Table 4.1 where they apply).

    frontier: vertices in the current level queue (CLQ); edges_examined: adjacency entries
    scanned (NLF before pruning); discovered: vertices newly reached (NLQ); direction:
    'top-down' or 'bottom-up'; time: seconds spent on the level.
    """

    level: int
    frontier: int
    edges_examined: int
    discovered: int
    direction: str = "top-down"
    time: float = 0.0

    @property
    def unique_ratio(self) -> float:
        """Discovered vertices per examined edge (UR of Table 4.1)."""
        return self.discovered / self.edges_examined if self.edges_examined else 0.0

    def as_dict(self) -> dict:
        d = asdict(self)
        d["unique_ratio"] = self.unique_ratio
        return d


@dataclass
class BFSResult:
    """parent: int64, -1 where not reached, parent[root] == root; depth optional."""

    parent: np.ndarray
    root: int
    depth: np.ndarray | None = None
    levels: list[LevelStats] = field(default_factory=list)
