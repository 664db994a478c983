"""pygraph500: the Graph500 benchmark in Python (kernel 2: BFS; kernel 3: SSSP).

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
    dist, pred = pygraph500.sssp(weighted_matrix, 0)           # kernel 3, scipy.dijkstra-style

Kernel 3::

    edges = kronecker(16, weights=True)    # the reference's float32 weights (-DSSSP)
    graph = build_csr(edges)               # weighted kernel 1
    from pygraph500.sssp import ALGORITHMS as SSSP    # the registry of kernel-3 algorithms
    result = SSSP["delta-stepping"](graph, root=0)
    report = validate_sssp(edges, result.parent, result.distance, 0)
"""
__version__ = "0.1.0"

from . import primitives  # noqa: F401  (first: installs numba's package cache, numba_cache)

from .benchmark import BenchmarkResult, RunConfig, choose_roots, run_benchmark
from .bfs import ALGORITHMS, DEFAULT_ALGORITHM, BFSResult
from .errors import Graph500Error, InputError, ResourceError, ValidationError
from .generator import erdos_renyi, kronecker, make_random_numbers, rmat
from .graph import CSRGraph, EdgeList, build_csr, from_networkx, from_scipy
from .validate import ValidationReport, validate, validate_sssp
from .sssp import SSSPResult
from .io import GraphFile, convert_graph, read_graph, write_graph

# ``pygraph500.bfs`` is the ecosystem-style search function (pygraph500.api.bfs). Importing the
# algorithms package above bound the attribute to the package; the function replaces it here,
# after that import. The package itself stays in sys.modules as "pygraph500.bfs", which is
# where ``from pygraph500.bfs import ALGORITHMS`` and ``import pygraph500.bfs.array`` look, so
# they keep working; only attribute access (``pygraph500.bfs.ALGORITHMS``) now sees the function.
# ``pygraph500.sssp`` likewise: the function of kernel 3 (the package of SSSP algorithms stays
# importable as ``pygraph500.sssp`` through sys.modules).
from .api import bfs, sssp  # noqa: E402  (must come after the algorithm packages are imported)

__all__ = [
    "kronecker", "rmat", "erdos_renyi", "make_random_numbers",
    "EdgeList", "CSRGraph", "build_csr", "from_scipy", "from_networkx",
    "ALGORITHMS", "DEFAULT_ALGORITHM", "BFSResult",
    "validate", "validate_sssp", "ValidationReport", "SSSPResult", "sssp",
    "RunConfig", "run_benchmark", "BenchmarkResult", "choose_roots",
    "Graph500Error", "InputError", "ResourceError", "ValidationError",
    "bfs", "read_graph", "write_graph", "convert_graph", "GraphFile",
]
