"""The house rules of ARCHITECTURE.md, checked on the source itself: no module imports
another's private (``_``) name, no import cycle (imports inside functions count too), the
layers' arrows point down only (every package and top-level module has its row in
``ALLOWED``), no function is longer than ``MAX_FUNCTION_LINES`` but those of
``LONG_FUNCTIONS``, no block of code is repeated but those of ``KNOWN_DUPLICATES``, and no
numba kernel takes more than ``MAX_KERNEL_PARAMETERS`` but those counted in
``WIDE_KERNELS``."""
import ast
import itertools
import os
import tokenize
from collections import defaultdict

SRC = os.path.join(os.path.dirname(__file__), "..", "src")
PACKAGE = "pygraph500"

# Which packages and top-level modules each may import (DESIGN.md's layers); every one needs a
# row. ``__init__`` is the package itself (``pygraph500``), ``__main__`` ``python -m``. Besides
# its row, a module may import its own package and ALWAYS, the base under everything, whose
# members may import only what their own rows say. A package that holds numba code imports
# primitives first, for numba's package cache (see test_numba_packages_load_the_cache_first).
ALLOWED = {
    # the public names, loaded by name on first use (``_HOMES``, checked below)
    "__init__": {"api", "benchmark", "bfs", "generator", "graph", "io", "primitives", "sssp",
                 "validate"},
    "__main__": {"cli"},
    "cli": {"apsp", "benchmark", "bfs", "distributed", "generator", "graph", "io", "primitives",
            "report", "sssp", "validate"},
    "api": {"bfs", "graph", "io", "sssp", "primitives"},  # primitives: numba_cache only
    "benchmark": {"bfs", "sssp", "distributed", "generator", "graph", "io", "report", "validate",
                  "primitives"},
    "report": {"bfs", "sssp", "distributed", "io", "validate"},
    "apsp": {"generator", "graph", "io", "primitives"},
    "io": {"graph", "primitives"},
    "distributed": {"graph", "primitives", "generator", "validate"},
    "sssp": {"graph", "primitives", "bfs"},
    "bfs": {"graph", "primitives"},
    "validate": {"graph", "primitives"},
    "generator": {"graph", "primitives"},
    "graph": {"primitives"},
    "primitives": set(),
    # ALWAYS
    "backend": {"errors"},
    "process": {"errors"},
    "errors": set(),
    "descriptors": {"errors"},  # the registries' records: what an algorithm is and can do
}
ALWAYS = {"errors", "process", "backend", "descriptors"}

# No module takes a ``_name`` from another module of the package (``from home import _name``,
# ``home._name``): a name shared is public in its home, or lives where it is used. Test-only
# hooks may be the exception, listed here: (importer, home, name) -> why. None today.
PRIVATE_IMPORTS = {}

# Longest function or method, in lines of source (``def`` line to last line, docstring
# included). The functions that stay longer, each with the reason: nothing else may.
MAX_FUNCTION_LINES = 80
_KERNEL = "numba kernel (kernel modules are refactored on their own): "
_ISSUE_39 = "; under the descriptor change (issue 39), to be split there"
LONG_FUNCTIONS = {
    "pygraph500.bfs.array.direction_optimizing.bfs_direction_optimizing_array":
        "one level loop whose locals are the search's device state (queue, frontier masks, "
        "candidates, held count) across both directions" + _ISSUE_39,
    "pygraph500.bfs.hybrid.search.run_search":
        "paper 002's level loop: each level's split, CPU tasks, device side, clocks and tuner "
        "records share two dozen per-level locals" + _ISSUE_39,
    "pygraph500.cli.run.add": "argparse builder of `graph500 run`: one add_argument per option",
    "pygraph500.io.snap_text.read_snap":
        "the chunked text reader: one read loop carrying the chunk, its file offset and the "
        "bytes carried over between kernel calls" + _ISSUE_39,
    "pygraph500.bfs.determinate.tasks._run":
        _KERNEL + "paper 003's task interpreter, one branch per function of the paper (Figs. "
        "3-6) on the task's registers",
    "pygraph500.bfs.steps.bitmap_topdown.bitmap_topdown_levels_serial":
        _KERNEL + "the serial levels with their log in locals, written back at the end (a "
        "helper per level costs more than a level of a path)",
    "pygraph500.io.text_kernels.parse_lines":
        _KERNEL + "one pass over a chunk's bytes: comments, columns, ids and the weights' fast "
        "path in one state machine",
    "pygraph500.sssp.delta_pull.pull":
        _KERNEL + "one parallel pass: a block's vertices listed, then read with their rows "
        "prefetched a few vertices ahead",
    "pygraph500.sssp.delta_relax.relax_edges":
        _KERNEL + "the software pipeline of found edges (prefetched, relaxed _LAG finds later) "
        "lives in its locals",
    "pygraph500.sssp.delta_stepping._search":
        _KERNEL + "the compiled driver of the whole search (no Python per step): the bins, "
        "buffers and log are locals threaded through every step",
    "pygraph500.validate.csr_kernels.bfs_pass":
        _KERNEL + "the one parallel pass over the rows: the tree edge's binary search, the "
        "levels and the sieve of the rim rows",
}

# Blocks of code repeated: a run of DUPLICATE_LINES or more alike lines (comments, blank
# lines, lone brackets and imports passed over; white space folded) in two places. The pairs
# of files that repeat themselves today: (file, file) under src/pygraph500 -> (runs, why).
DUPLICATE_LINES = 6
MAX_PLACES = 8  # a run found in more places than this is an idiom, not a copy
_LATER = "; numba kernels, left to the kernel refactor"
KNOWN_DUPLICATES = {
    ("bfs/array/cuda_levels.py", "bfs/array/cuda_levels.py"): (
        1, "two numba.cuda kernels' prologue: the thread's index, the block's shared counters "
           "zeroed, a barrier" + _LATER),
    ("bfs/hybrid/cpu.py", "bfs/steps/bottom_up.py"): (
        1, "the bottom-up scan of a word's unvisited vertices: the hybrid's tasks run the "
           "steps' inner loop over their own word ranges" + _LATER),
    ("bfs/steps/bitmap_topdown.py", "bfs/steps/bitmap_topdown.py"): (
        2, "the hierarchical bitmap's top-down walk, parallel (atomic claims) and serial "
           "(plain writes, no locked instruction)" + _LATER),
    ("bfs/steps/bitmap_topdown.py", "bfs/steps/canonical.py"): (
        1, "the dynamic chunk claim under prange (numba's prange has no dynamic schedule)"
           + _LATER),
    ("bfs/steps/bitmap_topdown.py", "bfs/steps/queue_topdown.py"): (
        2, "the serial stretches' level log, kept in locals and written back at the end, "
           "inlined in each serial kernel (a helper per level costs more)" + _LATER),
    ("distributed/build.py", "distributed/build2d.py"): (
        1, "the tuples' range check and self-loop skip before they are routed, to 1D owners "
           "or to 2D blocks" + _LATER),
    ("generator/kronecker.py", "generator/kronecker.py"): (
        1, "the chunked prange set-up (chunk bounds, the generator skipped to the chunk) of "
           "the Kronecker and the sampled generators, apart so that the default run compiles "
           "only the Kronecker kernel" + _LATER),
    ("io/text_kernels.py", "io/text_kernels.py"): (
        1, "the sign and digit scan of the float64 fast path and of the float32-only "
           "fallback" + _LATER),
}


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


TREES = {}


def _tree(name):
    """The parsed source of module ``name`` (read once)."""
    if name not in TREES:
        with open(MODULES[name]) as f:
            TREES[name] = ast.parse(f.read(), MODULES[name])
    return TREES[name]


def _from_module(name, node):
    """The module an ``ImportFrom`` in module ``name`` reads from, relative levels resolved."""
    if not node.level:
        return node.module or ""
    is_pkg = MODULES[name].endswith("__init__.py")
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    return ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))


def _imports(name):
    """The package modules ``name`` imports (anywhere in the file), resolved."""
    found = set()
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = _from_module(name, node)
            targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            if t in MODULES:
                found.add(t)
    found.discard(name)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def _package_of(module):
    """The top-level package or module of the package that ``module`` belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_import_graph_was_read():
    assert len(MODULES) > 50 and sum(len(v) for v in GRAPH.values()) > 100


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def _private_imports_of(name, tree):
    """``(importer, home, name)`` for every private name module ``name`` (source ``tree``)
    takes from another module of the package: ``from home import _name``, ``home._name`` on
    an imported module, or a private module imported from outside its package."""
    found = []
    bound = {}  # local name -> the package module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            pairs = [(a.name, a.asname) for a in node.names if a.asname]
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = _from_module(name, node)
            pairs = [(f"{mod}.{a.name}", a.asname or a.name) for a in node.names]
            mods = [mod] + [m for m, _ in pairs]
            if mod in MODULES and mod != name:
                found += [(name, mod, a.name) for a in node.names
                          if _private(a.name) and f"{mod}.{a.name}" not in MODULES]
        else:
            continue
        bound.update({local: m for m, local in pairs if m in MODULES})
        for m in (m for m in mods if m in MODULES):  # a private module: within its package
            parts = m.split(".")
            for i, part in enumerate(parts):
                home = ".".join(parts[:i])
                if _private(part) and name != home and not name.startswith(home + "."):
                    found.append((name, home, part))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and bound.get(node.value.id, name) != name and _private(node.attr)):
            found.append((name, bound[node.value.id], node.attr))
    return found


def test_the_private_import_check_sees_private_imports():
    name = "pygraph500.validate.on_csr"
    tree = ast.parse("from .bfs_tree import _hidden, public\nfrom . import bfs_tree as b\n"
                     "from ..graph import _helpers\nb._other\n")
    assert sorted(_private_imports_of(name, tree)) == [
        (name, "pygraph500.graph", "_helpers"),
        (name, "pygraph500.validate.bfs_tree", "_hidden"),
        (name, "pygraph500.validate.bfs_tree", "_other")]


def test_no_private_name_of_another_module():
    """A name another module needs is public in its home (with a docstring saying why it is
    shared), or moves to where it is used; only the hooks listed in PRIVATE_IMPORTS stay."""
    found = sorted({f for name in MODULES for f in _private_imports_of(name, _tree(name))})
    new = [f"{a} takes {c} from {b}" for a, b, c in found if (a, b, c) not in PRIVATE_IMPORTS]
    gone = [k for k in PRIVATE_IMPORTS if k not in found]
    assert not new, "make these public in their home modules, or move them: " + "; ".join(new)
    assert not gone, f"no longer imported: remove from PRIVATE_IMPORTS: {gone}"


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


def _top_level():
    """The packages and modules directly under src/pygraph500 (``__init__`` the package)."""
    root = os.path.join(SRC, PACKAGE)
    return {e[:-3] if e.endswith(".py") else e for e in os.listdir(root)
            if e.endswith(".py") or os.path.isfile(os.path.join(root, e, "__init__.py"))}


def test_every_package_has_a_row_in_allowed():
    missing = sorted(_top_level() - set(ALLOWED))
    assert not missing, (f"add a row to ALLOWED in tests/test_structure.py for {missing}: "
                         f"the packages each may import (its layer)")


def test_the_public_names_come_from_the_packages_of_its_row():
    """``pygraph500.__init__`` loads its names by module name (``_HOMES``), which the import
    graph does not see."""
    tree = _tree(PACKAGE)
    homes = next(ast.literal_eval(n.value) for n in tree.body
                 if isinstance(n, ast.Assign) and n.targets[0].id == "_HOMES")
    assert set(homes.values()) <= ALLOWED["__init__"] | ALWAYS


def test_layers_point_down():
    """Every import is of the module's own package, of its row in ALLOWED, or of ALWAYS (its
    packages themselves only of their rows). A package a module lies in is loaded before it
    whatever it imports, so ``from .. import x`` is not an import of the package above."""
    bad = []
    for name, deps in GRAPH.items():
        pkg = _package_of(name)
        may = ALLOWED.get(pkg, set()) | {pkg} | (set() if pkg in ALWAYS else ALWAYS)
        for d in deps:
            if not name.startswith(d + ".") and _package_of(d) not in may:
                bad.append(f"{name} -> {d}")
    assert not bad, "imports against the layers (ALLOWED): " + "; ".join(bad)


def _functions(name, node, prefix):
    """(qualified name, lines of source) of every function and method under ``node``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}.{child.name}", child.end_lineno - child.lineno + 1
            yield from _functions(name, child, f"{prefix}.{child.name}")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(name, child, f"{prefix}.{child.name}")
        else:
            yield from _functions(name, child, prefix)


def test_functions_are_short():
    """A function says one thing: at most MAX_FUNCTION_LINES lines, or listed (with why) in
    LONG_FUNCTIONS."""
    sizes = {q: n for name in MODULES for q, n in _functions(name, _tree(name), name)}
    long = {q: n for q, n in sizes.items() if n > MAX_FUNCTION_LINES}
    new = [f"{q} ({n} lines)" for q, n in sorted(long.items()) if q not in LONG_FUNCTIONS]
    gone = [q for q in LONG_FUNCTIONS if q not in long]
    assert not new, (f"over {MAX_FUNCTION_LINES} lines: split them, or list them with the "
                     f"reason in LONG_FUNCTIONS: " + "; ".join(new))
    assert not gone, f"short now or gone: remove from LONG_FUNCTIONS: {gone}"
    assert all(len(why) > 20 for why in LONG_FUNCTIONS.values())


def _code_lines(path):
    """The file's lines of code, normalised: tokens joined by one space (white space inside a
    string folded too), comments, blank lines, lone brackets and imports left out. A string
    over several lines is one line."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
            tokenize.ENDMARKER}
    lines = defaultdict(list)
    starting, importing = True, False
    with open(path, "rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type == tokenize.NEWLINE:
                starting = True
            elif tok.type not in skip:
                if starting:
                    starting, importing = False, tok.string in ("import", "from")
                if not importing:
                    lines[tok.start[0]].append(" ".join(tok.string.split()))
    return [(no, " ".join(t)) for no, t in sorted(lines.items())
            if not all(x in "()[]{}:,.;" for x in t)]


def _duplicates(files):
    """{(file, file): runs} for ``files`` ({name: code lines}): the pairs of places that share
    DUPLICATE_LINES or more consecutive lines (a run: overlapping shared windows joined)."""
    places = defaultdict(list)
    for f, lines in files.items():
        texts = [t for _, t in lines]
        for i in range(len(texts) - DUPLICATE_LINES + 1):
            places[tuple(texts[i:i + DUPLICATE_LINES])].append((f, i))
    shared = defaultdict(set)
    for where in places.values():
        if 1 < len(where) <= MAX_PLACES:
            for (fa, ia), (fb, ib) in itertools.combinations(sorted(where), 2):
                if fa != fb or ib - ia >= DUPLICATE_LINES:
                    shared[fa, fb].add((ia, ib))
    return {pair: sum((ia - 1, ib - 1) not in hits for ia, ib in hits)
            for pair, hits in shared.items()}


def test_the_duplicate_check_finds_a_repeated_block():
    block = [(i, f"x{i} = y[{i}] + {i}") for i in range(DUPLICATE_LINES)]
    other = [(0, "a = 1")] + block + [(9, "b = 2")]
    assert _duplicates({"a.py": block, "b.py": other}) == {("a.py", "b.py"): 1}
    assert _duplicates({"a.py": block[1:], "b.py": other}) == {}
    assert _duplicates({"a.py": block + [(7, "c = 3")] + block}) == {("a.py", "a.py"): 1}


def test_no_new_repeated_block():
    """What repeats itself is known: KNOWN_DUPLICATES says where and why, and the count of
    pairs it holds is today's. A new pair (or a new run in a listed pair) fails: make one
    piece of code serve both places, or list the pair with its reason."""
    root = os.path.join(SRC, PACKAGE)
    files = {os.path.relpath(path, root).replace(os.sep, "/"): _code_lines(path)
             for path in MODULES.values()}
    found = _duplicates(files)
    new = [f"{a} ~ {b}: {n} runs" for (a, b), n in sorted(found.items())
           if n > KNOWN_DUPLICATES.get((a, b), (0, ""))[0]]
    gone = [f"{a} ~ {b}: {runs} runs listed, {found.get((a, b), 0)} found"
            for (a, b), (runs, _) in sorted(KNOWN_DUPLICATES.items())
            if found.get((a, b), 0) < runs]
    assert not new, (f"repeated blocks of {DUPLICATE_LINES}+ lines: share the code, or list "
                     f"the pair in KNOWN_DUPLICATES with the reason: " + "; ".join(new))
    assert not gone, "fewer repeats now: update KNOWN_DUPLICATES: " + "; ".join(gone)


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


# A numba kernel (``njit``, ``cuda.jit``) takes at most MAX_KERNEL_PARAMETERS parameters:
# state travels as records (tuples unpacked at the kernel's top). A kernel that must be wider
# is counted here per module with the reason, a count that may only fall (issue 39; none
# today). Numba prunes a branch on ``x is None`` only where x is an argument, not a tuple's
# member, so None-typed parameters (in-edges, ``det``) stay arguments.
MAX_KERNEL_PARAMETERS = 8
WIDE_KERNELS: dict[str, tuple[int, str]] = {}


def _kernel_widths(name):
    """(qualified name, parameters) of each numba kernel of module ``name``."""
    for node in ast.walk(_tree(name)):
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                f = d.func if isinstance(d, ast.Call) else d
                if ast.unparse(f) in ("njit", "cuda.jit"):
                    args = node.args
                    yield f"{name}.{node.name}", len(args.args) + len(args.kwonlyargs)
                    break


def test_kernels_take_few_parameters():
    """No numba kernel takes more than MAX_KERNEL_PARAMETERS parameters but those counted,
    with the reason, in WIDE_KERNELS."""
    wide = {name: sum(1 for _, n in _kernel_widths(name) if n > MAX_KERNEL_PARAMETERS)
            for name in MODULES}
    more = [f"{m} ({n}, listed {WIDE_KERNELS.get(m, (0, ''))[0]})" for m, n in sorted(wide.items())
            if n > WIDE_KERNELS.get(m, (0, ""))[0]]
    fewer = [f"{m} ({wide[m]}, listed {n})" for m, (n, _) in sorted(WIDE_KERNELS.items())
             if wide.get(m, 0) < n]
    assert not more, (f"kernels over {MAX_KERNEL_PARAMETERS} parameters: pass a record, or "
                      f"count them with the reason in WIDE_KERNELS: " + "; ".join(more))
    assert not fewer, "fewer wide kernels now: lower WIDE_KERNELS: " + "; ".join(fewer)
    assert all(len(why) > 20 for _, why in WIDE_KERNELS.values())
