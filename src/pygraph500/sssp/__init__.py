"""SSSP algorithms (Graph500 kernel 3): the registry ``ALGORITHMS``, name -> ``Algorithm``
record (``descriptors``), each function obeying the SSSPResult contract (``sssp.types``):
``fn(graph: CSRGraph, root: int, *, options) -> SSSPResult``, refusing an unweighted graph
or a bad root with InputError. ``graph500 info --algorithms`` prints the table of them.

``state`` holds the packed distance/parent word the compiled ones update and the argument
that their parents form a tree with exact float32 distances.
"""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from ..backend.arrays import BACKENDS
from ..descriptors import Algorithm, Registry
from .types import SSSPResult, UNREACHED_PARENT
from .bellman_ford import sssp_bellman_ford
from .delta_stepping import default_delta, sssp_delta_stepping
from .dijkstra import sssp_dijkstra

ALGORITHMS = Registry("sssp", (
    Algorithm("delta-stepping", "sssp", sssp_delta_stepping,
              "Meyer and Sanders' delta-stepping after GAP's sssp.cc, parallel over numba's "
              "threads", "Meyer & Sanders 2003",
              {"delta": "the bucket width (default: default_delta(graph); inf: one bucket, "
                        "a label-correcting search)"}),
    Algorithm("dijkstra", "sssp", sssp_dijkstra,
              "serial binary-heap Dijkstra: the choice for high-diameter graphs, and the "
              "one that computes in float64", "Dijkstra 1959",
              {"dtype": "the distances' dtype: float32 (Graph500's), or float64 with float64 "
                        "weights"}, directed=True),
    Algorithm("bellman-ford", "sssp", sssp_bellman_ford,
              "frontier-based Bellman-Ford on the array backend (NumPy or CuPy) with a "
              "near-far split of the frontier", "Davidson et al. 2014 (near-far)",
              {"backend": "the array backend: cpu (NumPy), gpu (CuPy), auto, or an "
                          "ArrayBackend",
               "on_device": "leave parent and distance where they were computed",
               "scatter": "auto, at or sort: how the minimum per target is taken",
               "delta": "the near-far split (inf: plain Bellman-Ford)"},
              backends=BACKENDS, python_levels=True, directed=True),
), default="delta-stepping")
DEFAULT_ALGORITHM = ALGORITHMS.default
get_algorithm = ALGORITHMS.get_algorithm

__all__ = ["ALGORITHMS", "DEFAULT_ALGORITHM", "SSSPResult", "UNREACHED_PARENT", "get_algorithm",
           "default_delta"]
