"""BFS algorithms (kernel 2): one registry, name -> function obeying the BFSResult contract.

Every function has the signature ``fn(graph: CSRGraph, root: int, **options) -> BFSResult``.
"""
from .types import BFSResult, LevelStats
from .reference import bfs_reference
from .direction_optimizing import bfs_direction_optimizing

ALGORITHMS = {
    "reference": bfs_reference,
    "direction-optimizing": bfs_direction_optimizing,
}
DEFAULT_ALGORITHM = "direction-optimizing"

__all__ = ["ALGORITHMS", "DEFAULT_ALGORITHM", "BFSResult", "LevelStats", "get_algorithm"]


def get_algorithm(name: str):
    """The registered function for ``name``; InputError naming the known ones otherwise."""
    from ..errors import InputError

    try:
        return ALGORITHMS[name]
    except KeyError:
        raise InputError(
            f"unknown BFS algorithm {name!r}; known: {', '.join(sorted(ALGORITHMS))}"
        ) from None
