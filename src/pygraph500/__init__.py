"""pygraph500: the Graph500 BFS benchmark in Python.

Public API::

    from pygraph500 import kronecker, build_csr, ALGORITHMS, validate, run_benchmark, RunConfig
    edges = kronecker(16)                  # reference-exact Kronecker edge list
    graph = build_csr(edges)               # kernel 1
    result = ALGORITHMS["direction-optimizing"](graph, root=0)   # kernel 2
    report = validate(edges, result.parent, 0)
"""
__version__ = "0.1.0"

from .benchmark import BenchmarkResult, RunConfig, choose_roots, run_benchmark
from .bfs import ALGORITHMS, DEFAULT_ALGORITHM, BFSResult
from .errors import Graph500Error, InputError, ResourceError, ValidationError
from .generator import erdos_renyi, kronecker, make_random_numbers, rmat
from .graph import CSRGraph, EdgeList, build_csr
from .validate import ValidationReport, validate

__all__ = [
    "kronecker", "rmat", "erdos_renyi", "make_random_numbers",
    "EdgeList", "CSRGraph", "build_csr",
    "ALGORITHMS", "DEFAULT_ALGORITHM", "BFSResult",
    "validate", "ValidationReport",
    "RunConfig", "run_benchmark", "BenchmarkResult", "choose_roots",
    "Graph500Error", "InputError", "ResourceError", "ValidationError",
]
