"""The house rules of ARCHITECTURE.md, checked on the source itself: no module over 500 lines,
no import of another package's private (``_``-prefixed) module, no import cycle (imports
inside functions count too), and the layers' arrows pointing down only."""
import ast
import os

import pytest

SRC = os.path.join(os.path.dirname(__file__), "..", "src")
PACKAGE = "pygraph500"
MAX_LINES = 500

# Which top-level packages each may import (DESIGN.md's layers). Anything not listed here may
# import only errors, process and backend (besides itself). A package that holds numba code
# imports primitives first, for numba's package cache (see test_numba_packages_load_the_cache_first).
ALLOWED = {
    "primitives": set(),
    "generator": {"graph", "primitives"},
    "graph": {"primitives"},
    "validate": {"graph", "primitives"},
    "bfs": {"graph", "primitives"},
    "sssp": {"graph", "primitives", "bfs"},
    "distributed": {"graph", "primitives", "generator", "validate"},
    "io": {"graph", "primitives"},
    "apsp": {"generator", "graph", "io", "primitives"},
    "report": {"bfs", "sssp", "distributed", "io", "validate"},
    "benchmark": {"bfs", "sssp", "distributed", "generator", "graph", "io", "report", "validate",
                  "primitives"},
}
ALWAYS = {"errors", "process", "backend"}


def _modules():
    """{module name: file path} for every module of the package."""
    out = {}
    root = os.path.join(SRC, PACKAGE)
    for top, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(top, f), SRC)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = os.path.join(top, f)
    return out


MODULES = _modules()


def _imports(name, path):
    """The package modules ``name`` imports (anywhere in the file), resolved."""
    is_pkg = path.endswith("__init__.py")
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                mod = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            if t in MODULES:
                found.add(t)
    found.discard(name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _package_of(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_import_graph_was_read():
    assert len(MODULES) > 50 and sum(len(v) for v in GRAPH.values()) > 100


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_is_short(name):
    with open(MODULES[name]) as f:
        assert sum(1 for _ in f) <= MAX_LINES


def test_no_private_module_of_another_package():
    bad = []
    for name, deps in GRAPH.items():
        for d in deps:
            private = [p for p in d.split(".") if p.startswith("_") and p != "__init__"]
            if private and d.rsplit(".", 1)[0] != name.rsplit(".", 1)[0]:
                bad.append(f"{name} -> {d}")
    assert not bad


def test_no_import_cycle():
    """Tarjan's strongly connected components: every one must be a single module. A package
    importing its own submodules is not a cycle (the submodules run first)."""
    def edges(name):
        return [d for d in GRAPH[name] if not name.startswith(d + ".")]

    index, low, on, stack, cycles = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert not cycles


def test_layers_point_down():
    bad = []
    for name, deps in GRAPH.items():
        pkg = _package_of(name)
        if pkg not in ALLOWED:
            continue
        for d in deps:
            target = _package_of(d)
            if target and target != pkg and target not in ALLOWED[pkg] | ALWAYS:
                bad.append(f"{name} -> {d}")
    assert not bad


def _first_import(path):
    """The first package module a file imports, resolved like ``_imports``."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            return ".".join([node.module or ""] + [a.name for a in node.names][:1]).lstrip(".")
    return None


def test_numba_packages_load_the_cache_first():
    """``import pygraph500`` loads nothing (the command handles signals before any heavy
    import), so every package holding numba code imports primitives first: numba's package
    cache (primitives/numba_cache.py) is installed before any kernel is defined, whichever
    module a user imports first."""
    root = os.path.join(SRC, PACKAGE)
    with_numba = set()  # packages that define compiled kernels
    for name, path in MODULES.items():
        with open(path) as f:
            text = f.read()
        if len(name.split(".")) > 2 and any(k in text for k in ("njit", "@numba.", "cuda.jit")):
            with_numba.add(name.split(".")[1])
    with_numba -= {"primitives"}
    assert with_numba == {"apsp", "bfs", "distributed", "generator", "graph", "io", "sssp",
                          "validate"}
    for package in sorted(with_numba):
        assert _first_import(os.path.join(root, package, "__init__.py")) == "primitives", package


def test_the_package_imports_nothing_heavy():
    import subprocess
    import sys

    code = ("import sys, pygraph500, pygraph500.cli; "
            "print(sorted(m for m in ('numpy', 'numba', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=SRC), check=True).stdout
    assert out.strip() == "[]"
