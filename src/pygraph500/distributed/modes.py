"""The distributed engine's algorithms and pruning modes, and the check that a run names
ones it has (both searchers, compiled and array, run them all)."""
from __future__ import annotations

from ..errors import InputError

__all__ = ["PRUNE_MODES", "DEFAULT_PRUNE", "DIST_ALGORITHMS", "DEFAULT_DIST_ALGORITHM",
           "check_modes"]

PRUNE_MODES = ("sort-unique", "none", "bitmap")
DEFAULT_PRUNE = "sort-unique"
# The distributed engine's algorithms, named as their embedded counterparts. The default is
# the embedded default's: its top-down levels are Algorithm 4; "topdown-queue" is Algorithm 4
# on every level, the thesis's own algorithm (and the one for its pruning comparisons).
DIST_ALGORITHMS = ("topdown-queue", "direction-optimizing")
DEFAULT_DIST_ALGORITHM = "direction-optimizing"


def check_modes(prune: str, algorithm: str) -> None:
    """InputError for a pruning mode or algorithm the distributed engine does not have."""
    if prune not in PRUNE_MODES:
        raise InputError(f"prune must be one of {', '.join(PRUNE_MODES)}; got {prune!r}",
                         "prune")
    if algorithm not in DIST_ALGORITHMS:
        raise InputError(f"the distributed engine runs algorithm "
                         f"{' or '.join(DIST_ALGORITHMS)}; got {algorithm!r}", "algorithm")
