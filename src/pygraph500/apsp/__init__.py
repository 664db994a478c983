"""All-pairs shortest paths (paper 004): Floyd-Warshall, min-plus squaring, blocked
Floyd-Warshall, on the CPU (numba) and on a GPU (numba.cuda).

    from pygraph500.apsp import random_graph, shortest_paths, path
    W = random_graph(1024, density=0.25, seed=1)      # the paper's generator
    r = shortest_paths(W, algorithm="blocked", return_predecessors=True)
    r.dist[0, 5], path(r.pred, 0, 5), r.ops_per_second
"""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .matrix import DTYPES, as_matrix, from_edges, kronecker_weighted, random_graph, unreachable
from .solve import (ALGORITHMS, BACKENDS, APSPResult, NegativeCycleError, estimate_bytes, path,
                    shortest_paths)

__all__ = ["ALGORITHMS", "BACKENDS", "DTYPES", "APSPResult", "NegativeCycleError",
           "shortest_paths", "path", "estimate_bytes", "random_graph", "from_edges",
           "kronecker_weighted", "as_matrix", "unreachable"]
