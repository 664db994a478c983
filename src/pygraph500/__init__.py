"""pygraph500: the Graph500 BFS benchmark in Python.

Public API::

    from pygraph500 import kronecker, build_csr, ALGORITHMS, validate, run_benchmark, RunConfig
    edges = kronecker(16)                  # reference-exact Kronecker edge list
    graph = build_csr(edges)               # kernel 1
    result = ALGORITHMS["direction-optimizing"](graph, root=0)   # kernel 2
    report = validate(edges, result.parent, 0)

Users' graphs and the Python graph ecosystem::

    import pygraph500
    g = pygraph500.read_graph("web-Google.txt")            # SNAP, Matrix Market, Graph500 binary, ...
    pred, dist = pygraph500.bfs(g, 0, return_distances=True)   # also scipy.sparse, networkx, (src, dst)
"""
__version__ = "0.1.0"

from .primitives import numba_cache as _numba_cache

_numba_cache.install()  # before any cached kernel is loaded

from .benchmark import BenchmarkResult, RunConfig, choose_roots, run_benchmark
from .bfs import ALGORITHMS, DEFAULT_ALGORITHM, BFSResult
from .errors import Graph500Error, InputError, ResourceError, ValidationError
from .generator import erdos_renyi, kronecker, make_random_numbers, rmat
from .graph import CSRGraph, EdgeList, build_csr
from .validate import ValidationReport, validate
from .io.formats import GraphFile, convert_graph, read_graph, write_graph
from . import bfs as _bfs_package
from .api import make_callable as _make_callable

# ``pygraph500.bfs(graph, source, ...)`` is the ecosystem-style search (pygraph500.api.bfs);
# the name is also the package of the algorithms, which keeps working as before.
_make_callable(_bfs_package)

__all__ = [
    "kronecker", "rmat", "erdos_renyi", "make_random_numbers",
    "EdgeList", "CSRGraph", "build_csr",
    "ALGORITHMS", "DEFAULT_ALGORITHM", "BFSResult",
    "validate", "ValidationReport",
    "RunConfig", "run_benchmark", "BenchmarkResult", "choose_roots",
    "Graph500Error", "InputError", "ResourceError", "ValidationError",
    "bfs", "read_graph", "write_graph", "convert_graph", "GraphFile",
]
