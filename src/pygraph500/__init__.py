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
    dist, pred = pygraph500.bfs(g, 0)        # a SearchResult; also scipy.sparse, networkx, (src, dst)
    dist, pred = pygraph500.sssp(weighted_matrix, 0)   # kernel 3, as scipy's dijkstra

Kernel 3::

    edges = kronecker(16, weights=True)    # the reference's float32 weights (-DSSSP)
    graph = build_csr(edges)               # weighted kernel 1
    from pygraph500.sssp import ALGORITHMS as SSSP    # the registry of kernel-3 algorithms
    result = SSSP["delta-stepping"](graph, root=0)
    report = validate_sssp(edges, result.parent, result.distance, 0)

The names are loaded on first use (``import pygraph500`` imports neither numba nor scipy), so
the `graph500` command handles signals before any heavy import. ``pygraph500.bfs``,
``pygraph500.sssp`` and ``pygraph500.validate`` are functions (the first two ``api``'s); the
packages of the same names stay importable (``from pygraph500.bfs import ALGORITHMS``).
"""
import sys
import types

__version__ = "0.1.0"

# public name -> the module (relative to this package) that defines it
_HOMES = {
    "kronecker": "generator", "rmat": "generator", "erdos_renyi": "generator",
    "make_random_numbers": "generator",
    "EdgeList": "graph", "CSRGraph": "graph", "build_csr": "graph", "from_scipy": "graph",
    "from_networkx": "graph",
    "ALGORITHMS": "bfs", "DEFAULT_ALGORITHM": "bfs", "BFSResult": "bfs",
    "validate": "validate", "validate_sssp": "validate", "ValidationReport": "validate",
    "SSSPResult": "sssp",
    "RunConfig": "benchmark", "run_benchmark": "benchmark", "BenchmarkResult": "benchmark",
    "choose_roots": "benchmark",
    "Graph500Error": "errors", "InputError": "errors", "ResourceError": "errors",
    "ValidationError": "errors", "OutputError": "errors",
    "read_graph": "io", "write_graph": "io", "convert_graph": "io", "GraphFile": "io",
    "bfs": "api", "sssp": "api", "SearchResult": "api",
}
__all__ = list(_HOMES)


def _load(name: str):
    from importlib import import_module

    from . import primitives  # noqa: F401  (first: numba's package cache, before any kernel)

    return getattr(import_module(f".{_HOMES[name]}", __name__), name)


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = _load(name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


def _function(name: str) -> property:
    """The attribute ``name``: always the function, though a package has the same name (the
    import system's binding of that package to this attribute is set aside; the package stays
    in ``sys.modules``)."""
    return property(lambda self: _load(name), lambda self, value: None)


class _Package(types.ModuleType):
    """This package's module type: the functions that share a name with a package."""

    bfs = _function("bfs")
    sssp = _function("sssp")
    validate = _function("validate")


sys.modules[__name__].__class__ = _Package
