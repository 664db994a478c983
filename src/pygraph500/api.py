"""The ecosystem-style entry points: ``pygraph500.bfs(graph, source, ...)`` and
``pygraph500.sssp``, returning a ``SearchResult``.

One call takes whatever graph the user has (a CSRGraph, a scipy.sparse matrix, a networkx
graph, ``(src, dst[, w])`` arrays, edge rows, a pandas DataFrame, an EdgeList or a GraphFile
read by ``read_graph``), directed or not as the input is (``directed=``), builds the CSR
graph when needed (kernel 1) and runs one of the registered searches.

``pygraph500.bfs`` is the package of the BFS algorithms, and called, the function ``bfs``
below (the package ``__init__`` makes it so); the same for ``sssp``.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import warnings
from dataclasses import dataclass, field

import numpy as np

from .bfs import DEFAULT_ALGORITHM, DETERMINISTIC_ALGORITHMS, get_algorithm
from .errors import InputError, shown
from .graph import CSRGraph, EdgeList, build_csr, directed_csr, from_networkx, from_scipy
from .graph.relabel import search_in_original_labels

__all__ = ["bfs", "sssp", "from_pandas", "SearchResult", "as_csr", "as_weighted_csr",
           "AUTO_SMALL_EDGES", "NEEDS_WEIGHTS", "SCIPY_UNREACHED"]

# algorithm="auto": graphs with fewer adjacency entries than this are searched by the serial
# ``reference`` BFS (waking a thread pool costs more than such a search), others by the default.
AUTO_SMALL_EDGES = 1 << 15
NEEDS_WEIGHTS = ("sssp needs a weighted graph: scipy values, a networkx weight attribute, "
                 "(src, dst, weights), rows (u, v, w), a DataFrame weight column, or an "
                 "EdgeList with weight")
SCIPY_UNREACHED = -9999  # scipy.sparse.csgraph's predecessor of the root and of unreached vertices


@dataclass(frozen=True)
class SearchResult:
    """What ``bfs`` and ``sssp`` return: ``distances`` and ``predecessors`` (numpy arrays
    indexed by vertex), unpacked in that order as scipy's ``dijkstra(...,
    return_predecessors=True)`` gives them: ``dist, pred = pygraph500.bfs(G, 0)``. Not
    indexable (``result[0]`` would read as a vertex's entry): use the names."""

    distances: np.ndarray
    predecessors: np.ndarray
    labels: object = field(default=None, repr=False)  # vertex i's name (networkx nodes, file ids)

    def __iter__(self):
        return iter((self.distances, self.predecessors))

    def __getitem__(self, key):
        raise TypeError("a SearchResult is not indexed: use .distances and .predecessors, "
                        "or unpack it: dist, pred = result")

    def as_frame(self, labels=None):
        """A pandas DataFrame (vertex, distance, predecessor), one row per vertex, as
        cuGraph gives; ``labels[i]``: vertex ``i``'s name (a networkx graph's nodes, a
        GraphFile's ids), used for vertex and predecessor (None where there is none)."""
        import pandas as pd

        n = self.predecessors.shape[0]
        labels = self.labels if labels is None else labels
        if labels is None:
            return pd.DataFrame({"vertex": np.arange(n), "distance": self.distances,
                                 "predecessor": self.predecessors})
        names = np.empty(n + 1, dtype=object)
        names[:n] = list(labels)
        names[n] = None
        pred = np.where((self.predecessors >= 0) & (self.predecessors < n),
                        self.predecessors, n)
        return pd.DataFrame({"vertex": names[:n], "distance": self.distances,
                             "predecessor": names[pred]})

    def as_dicts(self, labels=None):
        """({vertex: distance}, {vertex: predecessor}) of the reached vertices, networkx's
        way (``single_source_shortest_path_length``, ``predecessor``), by ``labels`` if given."""
        labels = self.labels if labels is None else labels
        names = (list(range(self.predecessors.shape[0])) if labels is None else
                 labels.tolist() if isinstance(labels, np.ndarray) else list(labels))
        reached = np.flatnonzero(np.isfinite(self.distances) & (self.distances >= 0))
        dist = {names[v]: self.distances[v].item() for v in reached}
        pred = {names[v]: (names[p] if 0 <= p < len(names) else None)
                for v, p in ((v, int(self.predecessors[v])) for v in reached)}
        return dist, pred


class _Process:
    shared_checked = False  # whether this process has looked for other busy processes
    converted = None        # networkx graph -> the kernels it was converted for
    told_reconverted = False


def _note_conversion(graph, kernel: str) -> None:
    """A networkx graph is converted (kernel 1) on every call: the second time the same
    object comes for the same kernel (``bfs`` builds it unweighted, ``sssp`` weighted),
    say once how to convert it once."""
    import weakref

    if not _is_networkx(graph):
        return
    if _Process.converted is None:
        _Process.converted = weakref.WeakKeyDictionary()
    kernels = _Process.converted.setdefault(graph, set())
    if kernel in kernels and not _Process.told_reconverted:
        _Process.told_reconverted = True
        warnings.warn("pygraph500: the same networkx graph was converted again (kernel 1 "
                      "runs on every call): convert it once, g = pygraph500.from_networkx(G) "
                      "(weight=... for sssp), and search g", RuntimeWarning,
                      stacklevel=_caller_level())
    kernels.add(kernel)


@contextlib.contextmanager
def _threads(threads):
    """The call on ``threads`` worker threads (None: all), numba's count restored after. The
    first call of the process first looks for other processes busy on the cores, as the CLI
    does, and if it finds them makes the threads wait with a bounded spin (before OpenMP
    starts: later it cannot change) and warns once."""
    import numba

    from .backend.threads import set_threads, shared_machine

    if not _Process.shared_checked:
        _Process.shared_checked = True
        note = shared_machine(threads)
        if note:
            warnings.warn(f"pygraph500: {note}", RuntimeWarning, stacklevel=_caller_level())
    before = numba.get_num_threads()
    set_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


@contextlib.contextmanager
def _compiling(what: str):
    """The first search of ``what`` (e.g. "bfs-reference") after an install or an edit
    compiles its kernels into numba's cache (seconds to a minute): say so on stderr, one line
    before and one after, so that a first call is not a silent wait."""
    import sys
    import time

    from .primitives.numba_cache import compiled_before, note_compiled

    if compiled_before(what):
        yield
        return
    print(f"pygraph500: compiling the kernels of {what} (once per install; later calls "
          f"load them from numba's cache) ...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    yield
    note_compiled(what)
    print(f"pygraph500: compiled in {time.perf_counter() - t0:.1f} s", file=sys.stderr,
          flush=True)


def _caller_level() -> int:
    """warnings.warn's stacklevel of the first frame outside this package (the user's)."""
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and (os.path.abspath(frame.f_code.co_filename).startswith(here)
                                 or "contextlib" in frame.f_code.co_filename):
        frame, level = frame.f_back, level + 1
    return level


def _is_networkx(graph) -> bool:
    return type(graph).__module__.split(".")[0] == "networkx"


def _edge_file(src, dst, weights=None, directed=False, relabel="auto"):
    """The GraphFile of edge columns: string ids numbered in sorted order; integer ids
    compacted to ``0..N-1`` when sparse (``relabel``: ``read_graph``'s rule,
    ``compacting``), else the vertices ``0..max``, refused up front when ids that large
    would not fit in memory. Numbered or compacted, the user's ids are kept as ``labels``.
    ``weights``: one number per edge, kept as given (float64) beside kernel 3's float32
    ones."""
    from .backend.memory import estimate_run_bytes, require_memory
    from .graph.relabel import compact_ids, compacting
    from .io import GraphFile

    src = np.asarray(src)
    dst = np.asarray(dst)
    if src.shape == dst.shape and src.ndim == 1 and _all_strings(src) and _all_strings(dst):
        # string ids: vertex i is the i-th id in sorted order, the ids kept as ``labels``
        labels, codes = np.unique(np.concatenate((src.astype(str), dst.astype(str))),
                                  return_inverse=True)
        codes = codes.astype(np.int64).reshape(-1)
        weights = _edge_weights(weights, src)
        src, dst, n = codes[:src.size], codes[src.size:], int(labels.size)
    else:
        if src.shape != dst.shape or src.ndim != 1 or src.dtype.kind not in "iu" \
                or dst.dtype.kind not in "iu":
            raise InputError("(src, dst) must be two 1-D arrays of the same length, of "
                             "integer ids or of string ids")
        if src.size and min(int(src.min()), int(dst.min())) < 0:
            raise InputError("(src, dst): vertex ids must be non-negative")
        if src.size and max(int(src.max()), int(dst.max())) >= 2**63:
            raise InputError("(src, dst): vertex ids must be below 2**63")
        weights = _edge_weights(weights, src)
        src, dst = src.astype(np.int64), dst.astype(np.int64)  # copies: compacted in place
        n = int(max(src.max(initial=-1), dst.max(initial=-1))) + 1
        labels = None
        if compacting(relabel, n, src.size):
            labels = compact_ids(src, dst, n)
            n = int(labels.size)
        else:
            require_memory(estimate_run_bytes(n, src.size, weights is not None),
                           f"a graph of vertex ids 0..{n - 1} (the largest id given; "
                           f"{src.size} edges: relabel=True compacts them)")
    edges = EdgeList(src, dst, max(n, 1), None if weights is None else weights.astype(np.float32))
    return GraphFile(edges, labels, weights, bool(directed))


def _edge_weights(weights, src):
    """The edge columns' weights as given, float64 (None stays None); one number an edge."""
    if weights is None:
        return None
    weights = np.asarray(weights)
    if weights.shape != src.shape or weights.dtype.kind not in "iuf":
        raise InputError("(src, dst, weights): weights must be numbers, one per edge")
    return weights.astype(np.float64)


def _all_strings(a: np.ndarray) -> bool:
    """Whether ``a`` holds string ids: a str array, or objects that are all str."""
    return a.dtype.kind == "U" or (a.dtype.kind == "O" and a.size > 0
                                   and all(isinstance(x, str) for x in a.tolist()))


def from_pandas(df, source="source", target="target", weight=None, *, directed=False,
                relabel="auto"):
    """A pandas DataFrame of edges as a ``GraphFile``, its columns named as networkx's and
    cuGraph's ``from_pandas_edgelist`` name them: ``source``, ``target`` and ``weight``
    (the column ``sssp`` reads; None: unweighted). Build it once and search it many times.

    Ids are integers or strings. Strings, and sparse integers (``relabel="auto"``: an id
    range over four times the edges, ``read_graph``'s rule; ``True``: always; ``False``:
    never), are numbered ``0..N-1`` in sorted order, and then a search's ``source`` is the
    user's id and its result carries the ids (``SearchResult.as_frame``, ``as_dicts``).
    ``directed``: what a search follows by default (each edge one way, or both).

    >>> import pandas as pd, pygraph500
    >>> df = pd.DataFrame({"a": [10, 10**12], "b": [10**12, 7], "cost": [1.5, 2.0]})
    >>> g = pygraph500.from_pandas(df, "a", "b", "cost")
    >>> pygraph500.sssp(g, 7).as_dicts()[0]
    {7: 0.0, 10: 3.5, 1000000000000: 2.0}
    """
    if type(df).__module__.split(".")[0] != "pandas" or not hasattr(df, "columns"):
        raise InputError(f"from_pandas takes a pandas DataFrame, got {type(df).__name__}")
    if relabel not in ("auto", True, False):
        raise InputError(f"relabel must be 'auto', True or False, got {shown(relabel)}")
    for role, name in (("source", source), ("target", target), ("weight", weight)):
        if name is not None and name not in df.columns:
            raise InputError(f"from_pandas: {role} column {shown(name)} is not in the "
                             f"DataFrame (columns: {', '.join(map(str, df.columns))})")
    return _edge_file(df[source].to_numpy(), df[target].to_numpy(),
                      None if weight is None else df[weight].to_numpy(), directed, relabel)


def _edge_columns(graph):
    """(src, dst, weights or None) of an edge input given as rows or a DataFrame, or None
    for the other kinds: an (N, 2) or (N, 3) ndarray or a list of (u, v[, w]) rows; a
    pandas DataFrame by its column names (source/src/from/u, target/destination/dst/to/v,
    weight/w: the csv reader's ``COLUMN_NAMES``), else its first two (three) columns. A tuple
    stays columns: (src, dst[, w])."""
    if type(graph).__module__.split(".")[0] == "pandas" and hasattr(graph, "columns"):
        from .io.csv_text import COLUMN_NAMES
        from .io.text_kernels import SOURCE, TARGET, WEIGHT

        names = {str(c).lower(): c for c in graph.columns}
        pick = [next((names[n] for n in COLUMN_NAMES[role] if n in names), None)
                for role in (SOURCE, TARGET, WEIGHT)]
        if pick[0] is None or pick[1] is None:
            if len(graph.columns) < 2:
                raise InputError("a DataFrame of edges needs two columns (source, target)")
            pick = list(graph.columns[:3]) + [None] * (3 - min(3, len(graph.columns)))
        return tuple(None if c is None else graph[c].to_numpy() for c in pick)
    if not isinstance(graph, (list, np.ndarray)):
        return None
    rows = np.asarray(graph)
    if rows.ndim != 2 or rows.shape[1] not in (2, 3) or rows.dtype.kind not in "iuf":
        raise InputError(f"edges as rows must be (u, v) or (u, v, weight) numbers, an array "
                         f"of shape (N, 2) or (N, 3); got shape {rows.shape} (for columns "
                         f"pass a tuple: (src, dst))")
    ids = rows[:, :2]
    if ids.dtype.kind == "f" and not np.array_equal(ids, np.floor(ids)):
        raise InputError("edges as rows: the vertex ids (first two columns) must be integers")
    return (ids[:, 0].astype(np.int64), ids[:, 1].astype(np.int64),
            rows[:, 2] if rows.shape[1] == 3 else None)


def _edge_input(graph):
    """Edge columns, rows or a DataFrame as their GraphFile (``_edge_file``: sparse ids
    compacted, the user's kept); any other graph the entry points take as it is; anything
    else refused here, before a search says it compiles."""
    import scipy.sparse as sp

    from .io import GraphFile

    columns = _edge_columns(graph)
    if columns is None and isinstance(graph, tuple) and len(graph) in (2, 3):
        columns = (*graph, None)[:3]
    if columns is not None:
        return _edge_file(*columns)
    if not (isinstance(graph, (CSRGraph, EdgeList, GraphFile)) or sp.issparse(graph)
            or _is_networkx(graph)):
        raise _not_a_graph(graph)
    return graph


def _file_vertex(graph, source) -> int:
    """The vertex number of ``source`` in a GraphFile: its user's id, or where the ids
    were kept, the vertex itself."""
    return graph.vertex(source) if graph.labels is not None else _vertex(source,
                                                                         graph.num_vertices)


def is_directed_input(graph) -> bool:
    """The input's own nature, the default of ``directed``: a networkx DiGraph and a scipy
    matrix are directed (as those libraries take them: csgraph's ``directed=True``), a
    GraphFile as its file says, a CSRGraph as it was built; edge arrays, rows, DataFrames
    and EdgeLists are undirected, as Graph500's edge lists are."""
    import scipy.sparse as sp

    from .io import GraphFile

    if _is_networkx(graph):
        return bool(graph.is_directed())
    if sp.issparse(graph):
        return True
    if isinstance(graph, (GraphFile, CSRGraph)):
        return bool(graph.directed)
    return False


def _directed(graph, source, weight=None, wide=False):
    """(out-edge CSRGraph, vertex number of ``source``) of any accepted input, its edges
    followed as given (an undirected networkx graph's both ways); ``weight``: the networkx
    attribute, or True for the other kinds' weights (float64 with ``wide``). A graph whose
    every edge has its reverse (with the same weight) is the undirected one, and says so,
    so that every algorithm can search it. A GraphFile's is built once and kept with it."""
    from .io import GraphFile

    graph = _edge_input(graph)
    if not isinstance(graph, GraphFile):
        csr, root = _out_edges(graph, source, weight, wide)
        return _marked(csr), root

    def make():
        e = graph.edges
        given = graph.weights if wide or e.weight is None else e.weight
        w = (_weights(given, np.float64 if wide else np.float32)
             if weight is not None and given is not None else None)
        return _marked(directed_csr(e.src, e.dst, e.num_vertices, w))

    return graph.built(("directed", weight is not None, wide), make), _file_vertex(graph, source)


def _marked(csr):
    """A directed ``csr`` marked undirected when it is (``_undirected_if_symmetric``)."""
    return _undirected_if_symmetric(csr) if csr.directed else csr


def _undirected_if_symmetric(csr):
    """``csr`` marked undirected when its transpose is itself (weights included)."""
    n = np.int64(csr.num_vertices)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(csr.indptr))
    key = rows * n + csr.indices
    back = csr.indices.astype(np.int64) * n + rows
    order = np.argsort(back, kind="stable")
    if not np.array_equal(back[order], key):
        return csr
    if csr.weights is not None and not np.array_equal(csr.weights[order], csr.weights):
        return csr
    return dataclasses.replace(csr, directed=False)


def _out_edges(graph, source, weight=None, wide=False):
    """``_directed``'s graph as given, for any input ``_edge_input`` lets through but a
    GraphFile: (out-edge CSRGraph, vertex number of ``source``)."""
    import scipy.sparse as sp

    dtype = np.float64 if wide else np.float32
    if isinstance(graph, CSRGraph):
        csr = graph if (weight is None or graph.weights is None or not wide) else \
            dataclasses.replace(graph, weights=graph.weights.astype(np.float64))
        return csr, _vertex(source, csr.num_vertices)
    if _is_networkx(graph):
        nodes = list(graph)
        if source not in nodes:
            raise InputError(f"source {shown(source)} is not a node of the networkx graph")
        src, dst, w = _networkx_edges(graph, nodes, weight or "weight")
        if not graph.is_directed():
            src, dst, w = np.r_[src, dst], np.r_[dst, src], np.r_[w, w]
        w = _weights(w, dtype) if weight is not None else None
        return directed_csr(src, dst, len(nodes), w), nodes.index(source)
    if sp.issparse(graph):
        if graph.ndim != 2 or graph.shape[0] != graph.shape[1]:
            raise InputError(f"a graph's matrix must be square, got shape {graph.shape}")
        coo = sp.coo_array(graph)
        w = _weights(coo.data, dtype) if weight is not None else None
        csr = directed_csr(coo.row, coo.col, graph.shape[0], w)
        return csr, _vertex(source, csr.num_vertices)
    # an EdgeList: the last kind _edge_input lets through
    w = _weights(graph.weight, dtype) if weight is not None else None
    csr = directed_csr(graph.src, graph.dst, graph.num_vertices, w)
    return csr, _vertex(source, csr.num_vertices)


def _not_a_graph(graph) -> InputError:
    """The one-line error for an input no entry point takes (a path: read_graph's)."""
    path = isinstance(graph, (str, os.PathLike))
    hint = ": a file? pygraph500.read_graph(path) reads it" if path else ""
    return InputError("graph must be a CSRGraph, a scipy.sparse matrix, a networkx graph, an "
                      "EdgeList, a GraphFile, an (src, dst) tuple of arrays, edge rows ((N, 2) "
                      f"array or list of (u, v)) or a pandas DataFrame; got "
                      f"{type(graph).__name__}{hint}")


def _networkx_edges(graph, nodes, weight: str):
    """(src, dst, weights) of a networkx graph's edges, vertex ``i`` being ``nodes[i]``, the
    ``weight`` attribute 1 where missing: the user's weights as given."""
    index = {node: i for i, node in enumerate(nodes)}
    triples = [(index[u], index[v], w) for u, v, w in graph.edges(data=weight, default=1)]
    if not triples:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    src, dst, w = zip(*triples)
    return np.array(src, np.int64), np.array(dst, np.int64), np.array(w)


def _weights(w, dtype) -> np.ndarray:
    """Weights as ``dtype``, refused in one line when one is negative or not a number."""
    w = np.asarray(w)
    if w.dtype.kind not in "iuf":
        raise InputError("weights must be numbers")
    w = w.astype(dtype)
    bad = np.flatnonzero(~(w >= 0))
    if bad.size:
        raise InputError(f"weight {w[bad[0]]} of edge {bad[0]}: weights must be non-negative "
                         f"numbers")
    return w


def _vertex(source, n: int) -> int:
    if not isinstance(source, (int, np.integer)) or not 0 <= int(source) < n:
        raise InputError(f"source {shown(source)} is not a vertex (0..{n - 1})")
    return int(source)


def as_csr(graph, source):
    """(CSRGraph, vertex number of ``source``, GraphFile or None) for any accepted graph."""
    import scipy.sparse as sp

    from .io import GraphFile

    graph = _edge_input(graph)
    if isinstance(graph, CSRGraph):
        csr = graph
    elif isinstance(graph, GraphFile):
        return _file_csr(graph), _file_vertex(graph, source), graph
    elif isinstance(graph, EdgeList):
        csr = build_csr(graph)
    elif sp.issparse(graph):
        csr = from_scipy(graph)
    else:  # a networkx graph: the last kind _edge_input lets through
        nodes = list(graph)
        try:
            index = nodes.index(source)
        except ValueError:
            raise InputError(f"source {shown(source)} is not a node of the networkx graph") from None
        return from_networkx(graph, nodes), index, None
    return csr, _vertex(source, csr.num_vertices), None


def bfs(graph, source, *, directed=None, algorithm="auto", scipy_compatible=False,
        deterministic=False, threads=None):
    """Breadth-first search from ``source``: a ``SearchResult`` (distances, predecessors).

    ``graph``: a CSRGraph (searched as it is), a square scipy.sparse matrix or array (stored
    entries are edges, values ignored), a networkx graph (vertex ``i`` is ``list(graph)[i]``
    and ``source`` is a node), an ``(src, dst)`` tuple of integer arrays (columns), edge rows
    (an (N, 2) or (N, 3) array or a list of ``(u, v)``), a pandas DataFrame (columns named
    source/src/from/u and target/destination/dst/to/v, else its first two), an EdgeList, or a
    GraphFile from ``read_graph`` or ``from_pandas`` (``source`` is then the user's id, the
    arrays are indexed by vertex number; ``result.labels`` maps them back). Ids of arrays,
    rows and DataFrames are the vertices ``0..max``, or where sparse (``read_graph``'s rule)
    compacted as a file's are, ``source`` and ``result.labels`` then the user's ids.
    ``directed``: follow each edge one way only (the default is the input's nature,
    ``is_directed_input``: networkx DiGraphs and scipy matrices directed, as those libraries
    do; edge lists undirected, as Graph500's), or both ways (False: scipy's
    ``directed=False``). A directed search runs on the algorithms whose records say so
    (``auto``: ``reference`` or ``direction-optimizing``, bottom-up over the in-edges).
    Anything but a CSRGraph is built first (kernel 1): to search one graph many times,
    build it once with ``graph.from_scipy`` / ``from_networkx`` / ``build_csr``.

    distances: int64 hops, ``-1`` where unreached; predecessors: int64, Graph500's
    convention, ``-1`` where unreached, the source its own parent. With
    ``scipy_compatible=True``, scipy's conventions: distances float64 with ``inf`` where
    unreached (as ``csgraph.shortest_path``), predecessors ``-9999`` for the source and
    unreached vertices. ``algorithm``: a name of ``pygraph500.ALGORITHMS``, or "auto" (the
    serial reference BFS below ``AUTO_SMALL_EDGES`` adjacency entries, else the parallel
    default). Several algorithms may pick different (equally valid) parents; distances
    never differ. ``deterministic=True``: the canonical tree, each vertex's parent its
    smallest neighbour one level nearer the source, whatever the algorithm (one of
    ``DETERMINISTIC_ALGORITHMS``) and the number of threads. ``threads``: worker threads
    for this call (default: all cores).

    >>> import networkx as nx, pygraph500
    >>> dist, pred = pygraph500.bfs(nx.path_graph(4), 0)
    >>> dist.tolist(), pred.tolist()
    ([0, 1, 2, 3], [0, 0, 1, 2])
    >>> import scipy.sparse as sp
    >>> a = sp.csr_array(([1, 1], ([0, 1], [1, 2])), shape=(4, 4))
    >>> pygraph500.bfs(a, 0, scipy_compatible=True).predecessors.tolist()
    [-9999, 0, 1, -9999]
    >>> pygraph500.bfs(([0, 1], [1, 2]), 2).distances.tolist()
    [2, 1, 0]
    """
    graph = _edge_input(graph)
    directed = is_directed_input(graph) if directed is None else bool(directed)
    _note_conversion(graph, "bfs")
    guess = algorithm if algorithm != "auto" else _auto(_entries_hint(graph))
    with _threads(threads), _compiling(f"bfs-{guess}"):
        return _bfs(graph, source, directed, algorithm, scipy_compatible, deterministic)


def _auto(entries: int) -> str:
    """algorithm="auto": the serial reference on small graphs (waking the threads costs more),
    else the parallel default (direction-optimizing, a directed graph's too: bottom-up over
    its in-edges)."""
    if entries < AUTO_SMALL_EDGES:
        return "reference"
    return DEFAULT_ALGORITHM


def _entries_hint(graph) -> int:
    """About the adjacency entries ``graph`` will have, before it is built (for the compile
    note's guess of what ``auto`` runs)."""
    import scipy.sparse as sp

    if isinstance(graph, CSRGraph):
        return graph.num_directed_edges
    if sp.issparse(graph):
        return 2 * graph.nnz
    if _is_networkx(graph):
        return 2 * graph.number_of_edges()
    if isinstance(graph, EdgeList):
        return 2 * graph.num_edges
    edges = getattr(graph, "edges", None)
    try:
        return 2 * len(edges if edges is not None else
                       graph[0] if isinstance(graph, tuple) else graph)
    except TypeError:
        return 0


def _bfs(graph, source, directed, algorithm, scipy_compatible, deterministic):
    from .bfs import ALGORITHMS

    csr, root = _directed(graph, source) if directed else as_csr(graph, source)[:2]
    if algorithm == "auto":
        algorithm = _auto(csr.num_directed_edges)
    fn = get_algorithm(algorithm)
    if csr.directed and not fn.directed:
        raise InputError(f"bfs: algorithm {algorithm} searches undirected graphs only; "
                         f"directed: {', '.join(ALGORITHMS.directed_names())} (or "
                         f"directed=False)")
    options = {}
    if deterministic:
        if algorithm not in DETERMINISTIC_ALGORITHMS:
            raise InputError(f"bfs: deterministic applies to {', '.join(DETERMINISTIC_ALGORITHMS)}"
                             f"; not to {algorithm}")
        options["deterministic"] = True
    result = search_in_original_labels(fn, csr, root, depth=True, **options)
    pred = np.asarray(result.parent, dtype=np.int64)
    dist = np.where(pred < 0, -1, np.asarray(result.depth, dtype=np.int64))
    if scipy_compatible:
        return SearchResult(np.where(dist < 0, np.inf, dist.astype(np.float64)),
                            _scipy_predecessors(pred, root), _labels(graph))
    return SearchResult(dist, pred, _labels(graph))


def _labels(graph):
    """The vertices' names of a labelled input: a networkx graph's nodes, a GraphFile's ids."""
    from .io import GraphFile

    if _is_networkx(graph):
        return list(graph)
    if isinstance(graph, GraphFile):
        return graph.labels
    return None


def _scipy_predecessors(pred, root):
    """scipy's predecessor convention: -9999 for the source and unreached vertices."""
    pred = np.where(pred < 0, SCIPY_UNREACHED, pred)
    pred[root] = SCIPY_UNREACHED
    return pred


def as_weighted_csr(graph, source, weight="weight", wide=False):
    """(weighted CSRGraph, vertex number of ``source``) for ``sssp``: scipy values, the
    networkx ``weight`` attribute, ``(src, dst, weights)`` arrays, a weighted EdgeList or
    GraphFile, or a weighted CSRGraph. ``wide``: float64 weights, the given ones for scipy,
    networkx and arrays (the others hold float32 weights already)."""
    import scipy.sparse as sp

    from .io import GraphFile

    given = None  # (src, dst, weights) as the user gave them, for float64 weights
    if sp.issparse(graph):
        coo = sp.coo_array(graph)
        given = coo.row, coo.col, coo.data
        csr, root, _ = as_csr(from_scipy(graph, weighted=True), source)
    elif _is_networkx(graph):
        nodes = list(graph)
        if source not in nodes:
            raise InputError(f"source {shown(source)} is not a node of the networkx graph")
        csr, root = from_networkx(graph, nodes, weight=weight), nodes.index(source)
        if wide:
            given = _networkx_edges(graph, nodes, weight)
    else:
        graph = _edge_input(graph)
        if isinstance(graph, GraphFile):
            csr = _file_csr(graph, wide, weighted=True)
            if not csr.weighted:
                raise InputError(NEEDS_WEIGHTS)
            return csr, _file_vertex(graph, source)
        csr, root, _ = as_csr(graph, source)
    if not csr.weighted:
        raise InputError(NEEDS_WEIGHTS)
    if wide:
        w64 = (csr.weights.astype(np.float64) if given is None or not csr.num_directed_edges
               else _smallest_weights(csr, *given))
        csr = dataclasses.replace(csr, weights=w64)
    return csr, root


def _file_csr(graph, wide=False, weighted=False):
    """Kernel 1's graph of a GraphFile (weighted when its edges carry kernel 3's weights;
    ``weighted``: also when the file's weights were read as given only, ``read_graph``
    without ``weights=True``; ``wide``: its weights as given, float64), built once and kept
    with it: a GraphFile searched many times costs one kernel 1."""
    e = graph.edges
    if weighted and e.weight is None and graph.weights is not None:
        csr = graph.built("csr-weighted", lambda: build_csr(
            dataclasses.replace(e, weight=graph.weights.astype(np.float32))))
    else:
        csr = graph.built("csr", lambda: build_csr(e))
    if not (wide and csr.weighted):
        return csr
    return graph.built("csr-float64", lambda: dataclasses.replace(
        csr, weights=_smallest_weights(csr, graph.edges.src, graph.edges.dst, graph.weights)
        if csr.num_directed_edges else csr.weights.astype(np.float64)))


def _smallest_weights(csr, src, dst, weights) -> np.ndarray:
    """float64 weights aligned with ``csr``'s entries: the smallest given weight joining each
    pair of vertices, as kernel 1 keeps the smallest float32 one (self-loops left out): the
    out-edge CSR of both directions has ``csr``'s entries, in the same order."""
    src, dst = np.asarray(src, np.int64), np.asarray(dst, np.int64)
    w = np.asarray(weights, np.float64)
    both = directed_csr(np.r_[src, dst], np.r_[dst, src], csr.num_vertices, np.r_[w, w])
    assert np.array_equal(both.indices, csr.indices), "kernel 1 and directed_csr disagree"
    return both.weights


def sssp(graph, source, *, directed=None, algorithm=None, scipy_compatible=False,
         weight="weight", dtype=None, threads=None):
    """Single-source shortest paths (Graph500 kernel 3) from ``source``: a ``SearchResult``
    (distances, predecessors), unpacked in the order ``scipy.sparse.csgraph.dijkstra``
    returns them.

    ``graph``: a square scipy.sparse matrix (the stored values are the weights), a
    networkx graph (edge attribute ``weight``, 1 where missing), a ``(src, dst, weights)``
    tuple of arrays, edge rows ``(u, v, w)`` (an (N, 3) array or a list), a pandas DataFrame
    with a weight column, an EdgeList with ``weight``, a weighted GraphFile, or a weighted
    CSRGraph.
    Weights must be non-negative (InputError otherwise). ``directed``: as ``bfs``'s (the
    input's nature by default; ``False``: both ways, the smaller weight of a pair wins, as
    scipy's ``directed=False``); directed runs on the algorithms whose records say so
    (default then ``dijkstra``).

    ``dtype``: float32 (the default, Graph500's: weights and sums in float32) or float64
    (the default with ``scipy_compatible=True``: the weights as given and float64 sums, as
    scipy; from scipy, networkx or arrays; ``algorithm`` default then the first that computes
    in float64, ``dijkstra``). distances: of that dtype, ``inf`` where unreached.
    predecessors: int64, Graph500's convention, -1 where unreached and the source its own
    parent (``scipy_compatible=True``: scipy's -9999 for the source and unreached vertices).
    ``algorithm``: a name of ``pygraph500.sssp.ALGORITHMS`` (default: its default).
    ``threads``: worker threads for this call (default: all cores).

    >>> import scipy.sparse as sp, pygraph500
    >>> a = sp.csr_array(([1.0, 2.0, 5.0], ([0, 1, 0], [1, 2, 2])), shape=(4, 4))
    >>> d, p = pygraph500.sssp(a, 0)
    >>> d.tolist(), p.tolist()
    ([0.0, 1.0, 3.0, inf], [0, 0, 1, -1])
    """
    from .sssp import ALGORITHMS as SSSP

    dtype = np.dtype(dtype if dtype is not None else
                     np.float64 if scipy_compatible else np.float32)
    if dtype not in (np.float32, np.float64):
        raise InputError(f"sssp: dtype must be float32 or float64, got {dtype}")
    wide = dtype == np.float64
    graph = _edge_input(graph)
    directed = is_directed_input(graph) if directed is None else bool(directed)
    if algorithm is not None:
        SSSP.get_algorithm(algorithm)  # an unknown name first, before any work
    _note_conversion(graph, "sssp")
    guess = algorithm or _sssp_default(SSSP, wide, directed)
    with _threads(threads), _compiling(f"sssp-{guess}{'-float64' if wide else ''}"):
        return _sssp(graph, source, directed, algorithm, scipy_compatible, weight, dtype)


def _sssp_default(SSSP, wide: bool, directed: bool) -> str:
    """The SSSP algorithm a call runs when it names none."""
    if not (wide or directed):
        return SSSP.default
    return SSSP.names(lambda a: (a.takes("dtype") or not wide) and (a.directed or not directed))[0]


def _sssp(graph, source, directed, algorithm, scipy_compatible, weight, dtype):
    from .graph.relabel import sssp_in_original_labels
    from .sssp import ALGORITHMS as SSSP

    wide = dtype == np.float64
    csr, root = (_directed(graph, source, weight, wide) if directed
                 else as_weighted_csr(graph, source, weight, wide))
    if not csr.weighted:
        raise InputError(NEEDS_WEIGHTS)
    algorithm = algorithm or _sssp_default(SSSP, wide, csr.directed)
    fn = SSSP.get_algorithm(algorithm)
    if wide and not fn.takes("dtype"):
        raise InputError(f"sssp: algorithm {algorithm} computes in float32 only; float64: "
                         f"{', '.join(SSSP.names(lambda a: a.takes('dtype')))}")
    if csr.directed and not fn.directed:
        raise InputError(f"sssp: algorithm {algorithm} searches undirected graphs only; "
                         f"directed: {', '.join(SSSP.directed_names())} (or directed=False)")
    result = sssp_in_original_labels(fn, csr, root, **({"dtype": dtype} if wide else {}))
    dist = np.asarray(result.distance, dtype=dtype)
    pred = np.asarray(result.parent, dtype=np.int64)
    if scipy_compatible:
        return SearchResult(dist, _scipy_predecessors(pred, root), _labels(graph))
    return SearchResult(dist, pred, _labels(graph))
