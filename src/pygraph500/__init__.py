"""pygraph500: the Graph500 benchmark in Python (kernel 2: BFS; kernel 3: SSSP).

Public API::

    from pygraph500 import kronecker, build_csr, ALGORITHMS, validate, run_benchmark
    edges = kronecker(16)                  # reference-exact Kronecker edge list
    graph = build_csr(edges)               # kernel 1
    result = ALGORITHMS["direction-optimizing"](graph, root=0)   # kernel 2
    report = validate(edges, result.parent, 0)
    bench = run_benchmark(scale=16, threads=2)   # the whole benchmark (RunConfig's specs)

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
``pygraph500.sssp`` and ``pygraph500.validate`` are the packages of those names, and called
they are the functions (``api.bfs``, ``api.sssp``, ``validate.validate``): one object each,
so ``import pygraph500.bfs as m; m.ALGORITHMS`` and ``pygraph500.bfs(G, 0)`` both work.
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
    "RunConfig": "benchmark", "GraphSpec": "benchmark", "SearchSpec": "benchmark",
    "ExecutionSpec": "benchmark", "OutputSpec": "benchmark", "run_benchmark": "benchmark",
    "BenchmarkResult": "benchmark", "choose_roots": "benchmark",
    "Graph500Error": "errors", "InputError": "errors", "ResourceError": "errors",
    "ValidationError": "errors", "OutputError": "errors",
    "read_graph": "io", "write_graph": "io", "convert_graph": "io", "GraphFile": "io",
    "bfs": "api", "sssp": "api", "from_pandas": "api", "SearchResult": "api",
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


class _CalledPackage(types.ModuleType):
    """A package that is also the function of its name: ``pygraph500.bfs(G, 0)`` calls
    ``api.bfs``, and ``import pygraph500.bfs as m; m.ALGORITHMS`` is the package. One object,
    so neither shadows the other."""

    def __call__(self, *args, **kwargs):
        return self.called(*args, **kwargs)

    @property
    def called(self):
        """The function a call of this package runs."""
        from importlib import import_module

        name = self.__name__.rpartition(".")[2]
        return getattr(import_module(f".{_HOMES[name]}", __name__), name)

    @property
    def __signature__(self):  # inspect.signature and help() show the function's
        import inspect

        return inspect.signature(self.called)


def _called_package(name: str) -> property:
    """The attribute ``name``: the package of that name, made callable (``_CalledPackage``);
    the import system's own binding of the package here goes through the same door."""
    def get(self):
        from importlib import import_module

        from . import primitives  # noqa: F401  (first: numba's package cache)

        return make_called(import_module(f".{name}", __name__))

    def make_called(module):
        if type(module) is types.ModuleType:
            module.__class__ = _CalledPackage
        return module

    return property(get, lambda self, module: make_called(module))


class _Package(types.ModuleType):
    """This package's module type: the packages that are also functions of their names."""

    bfs = _called_package("bfs")
    sssp = _called_package("sssp")
    validate = _called_package("validate")


sys.modules[__name__].__class__ = _Package
