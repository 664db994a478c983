"""SSSP algorithms (Graph500 kernel 3): one registry, name -> function obeying the SSSPResult
contract (``sssp.types``).

Every function has the signature ``fn(graph: CSRGraph, root: int, **options) -> SSSPResult``
and refuses an unweighted graph or a bad root with InputError.

- ``delta-stepping`` (default): Meyer & Sanders' delta-stepping after GAP's sssp.cc, parallel
  over numba's threads; option ``delta`` (default ``delta_stepping.default_delta``).
- ``dijkstra``: serial binary-heap Dijkstra (numba); the choice for high-diameter graphs.
- ``bellman-ford``: frontier-based Bellman-Ford on the array backend (NumPy or CuPy) with a
  near-far split of the frontier; options ``backend`` ("cpu", "gpu", "auto"), ``on_device``,
  ``scatter``, ``delta`` (``inf``: plain Bellman-Ford).

``state`` holds the packed distance/parent word the compiled ones update and the argument
that their parents form a tree with exact float32 distances.
"""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .types import SSSPResult, UNREACHED_PARENT
from .bellman_ford import sssp_bellman_ford
from .delta_stepping import default_delta, sssp_delta_stepping
from .dijkstra import sssp_dijkstra

ALGORITHMS = {
    "delta-stepping": sssp_delta_stepping,
    "dijkstra": sssp_dijkstra,
    "bellman-ford": sssp_bellman_ford,
}
DEFAULT_ALGORITHM = "delta-stepping"

__all__ = ["ALGORITHMS", "DEFAULT_ALGORITHM", "SSSPResult", "UNREACHED_PARENT", "get_algorithm",
           "default_delta"]


def get_algorithm(name: str):
    """The registered function for ``name``; InputError naming the known ones otherwise."""
    from ..errors import InputError

    try:
        return ALGORITHMS[name]
    except KeyError:
        raise InputError(
            f"unknown SSSP algorithm {name!r}; known: {', '.join(sorted(ALGORITHMS))}"
        ) from None
