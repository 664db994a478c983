"""The two graph contracts of DESIGN.md: EdgeList (as generated) and CSRGraph (kernel 1 output)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numba import njit

from ..errors import InputError


@dataclass(frozen=True)
class EdgeList:
    """Undirected tuples as generated: may hold self-loops and duplicates.

    ``src[i], dst[i]`` is edge tuple ``i`` in generation order; labels are in ``[0, num_vertices)``.
    ``weight``: kernel 3's float32 weight of each tuple (``weight[i]`` belongs to tuple ``i``),
    or None for an unweighted list.
    """

    src: np.ndarray
    dst: np.ndarray
    num_vertices: int
    weight: np.ndarray | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if self.src.shape != self.dst.shape or self.src.ndim != 1:
            raise ValueError("EdgeList: src and dst must be 1-D arrays of the same length")
        if self.weight is not None and self.weight.shape != self.src.shape:
            raise ValueError("EdgeList: weight must have one entry per tuple")

    @property
    def weighted(self) -> bool:
        return self.weight is not None

    @property
    def num_edges(self) -> int:
        return int(self.src.shape[0])

    def __len__(self) -> int:
        return self.num_edges

    def chunks(self, weights: bool = True):
        """The tuples as ``(first index, src, dst, weight or None)`` pieces in order, as
        kernel 1 reads any tuple source (a list in memory is one piece; the generator's
        ``KroneckerTuples`` makes them on demand). ``weights=False``: None for the weight."""
        yield 0, self.src, self.dst, (self.weight if weights else None)


@dataclass(frozen=True)
class CSRGraph:
    """Symmetric adjacency in CSR form: no self-loops, no duplicate neighbours, sorted lists;
    or, ``directed``, each vertex's out-neighbours (``directed_csr``: the Python API's
    directed searches; the benchmark's graphs are undirected), and on first use its
    in-neighbours (``in_edges``, kept with it).

    ``indices`` is int32 when ``num_vertices < 2**31``, else int64. Never mutated.
    ``num_input_edges`` is the length of the EdgeList it was built from. Vertex ids are the
    input's labels unless the graph was relabelled (see ``original_label``).
    ``weights`` (float32, aligned with ``indices``; None when unweighted): the weight of each
    adjacency entry, the smallest of the input tuples joining the two vertices (kernel 3).
    """

    indptr: np.ndarray
    indices: np.ndarray
    num_vertices: int
    num_input_edges: int
    # A relabelled graph (kernel 1 with vertex sorting) keeps both directions of the map:
    # original_label[new] and new_label[original] (int64); None when labels are the input's.
    original_label: np.ndarray | None = field(default=None, compare=False, repr=False)
    new_label: np.ndarray | None = field(default=None, compare=False, repr=False)
    weights: np.ndarray | None = field(default=None, compare=False, repr=False)
    # The input tuples at each vertex, self-loops left out and duplicates counted (the row
    # lengths before duplicate removal; int32, int64 if a count could exceed it): half their
    # sum over a component's vertices is its TEPS numerator, so validation against this graph
    # (``validate.validate_csr``) needs no tuples. None when not built by kernel 1.
    tuple_degree: np.ndarray | None = field(default=None, compare=False, repr=False)
    directed: bool = False

    @property
    def relabelled(self) -> bool:
        return self.original_label is not None

    @property
    def weighted(self) -> bool:
        return self.weights is not None

    @cached_property
    def by_weight(self):
        """(indices, float32 weights) of the same rows sorted by increasing weight (ties by
        neighbour), what delta-stepping reads; kernel 1 (``build_csr``) makes it with the
        graph, other graphs on first use. InputError for an unweighted graph."""
        if self.weights is None:
            raise InputError("the graph has no weights")
        from .weights import by_weight

        return by_weight(self.indptr, self.indices, self.weights)

    @cached_property
    def in_edges(self) -> tuple[np.ndarray, np.ndarray]:
        """(indptr, indices) of each vertex's in-neighbours, sorted (the transpose): what a
        directed search's bottom-up levels read. An undirected graph's are its own arrays;
        a directed graph's are built on first use (a counting sort, ``transpose``) and kept
        with it, refused first (ResourceError) when they would not fit in memory."""
        if not self.directed:
            return self.indptr, self.indices
        from ..backend.memory import require_memory

        n = self.num_vertices
        m = self.num_directed_edges
        require_memory(16 * (n + 1) + self.indices.itemsize * m,  # with the fill counts
                       f"the in-edge lists of a directed graph ({n} vertices, {m} edges)")
        return transpose(self.indptr, self.indices, n)

    @property
    def num_directed_edges(self) -> int:
        return int(self.indptr[-1])

    def degree(self) -> np.ndarray:
        return np.diff(self.indptr)

    def neighbours(self, v: int) -> np.ndarray:
        return self.indices[self.indptr[v]:self.indptr[v + 1]]

    # ---- out to the Python graph ecosystem (in: graph/interop.py, through kernel 1) ---------
    def to_scipy(self, dtype=None, *, weighted: bool | None = None):
        """The symmetric adjacency as a ``scipy.sparse.csr_array`` that owns its arrays (changing
        it leaves the graph alone).

        Its values: a weighted graph's float32 ``weights`` (``weighted=None``, the default, or
        True; exact, as ``from_scipy(a, weighted=True)`` reads them back), else ones. The ones
        are float64 by default because ``scipy.sparse.csgraph`` converts every input to float64
        (another copy for any other dtype) and so products such as ``a @ a`` count without
        overflow; ``dtype`` casts the values (``np.int8`` ones: an eighth of the memory;
        ``np.float64`` weights: csgraph's own type, no copy inside it). ``weighted=False``:
        ones even for a weighted graph; True: InputError for an unweighted one. Every entry is
        stored, a zero weight included: csgraph takes a stored zero as an edge.

        >>> from pygraph500 import EdgeList, build_csr
        >>> g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
        >>> a = g.to_scipy()
        >>> a.dtype, a.toarray().tolist()
        (dtype('float64'), [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
        """
        import scipy.sparse as sp

        n = self.num_vertices
        if weighted and self.weights is None:
            raise InputError("the graph has no weights")
        if self.weights is not None and weighted is not False:
            data = self.weights.astype(np.float32 if dtype is None else dtype)
        else:
            data = np.ones(self.indices.shape[0], dtype=np.float64 if dtype is None else dtype)
        # int32 structure where it fits: csgraph's own index type; astype copies.
        itype = np.int32 if max(n, self.num_directed_edges) < 2**31 else np.int64
        return sp.csr_array((data, self.indices.astype(itype), self.indptr.astype(itype)),
                            shape=(n, n))

    def to_networkx(self, nodes=None, weight: str | None = "weight"):
        """A ``networkx.Graph`` (undirected: the CSR contract is symmetric); vertex ``i``
        becomes node ``nodes[i]`` (default ``i``).

        A weighted graph's edges carry their weight, a Python float equal to the float32
        stored (the package's weight type: ``from_networkx`` rounds to it), in the attribute
        ``weight`` (None: no attribute). Each edge is there once, with the smallest weight
        kernel 1 kept for the pair.

        >>> from pygraph500 import EdgeList, build_csr
        >>> w = np.array([0.5, 3.0], dtype=np.float32)
        >>> g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3, w))
        >>> sorted(g.to_networkx(nodes=["a", "b", "c"]).edges(data="weight"))
        [('a', 'b', 0.5), ('b', 'c', 3.0)]
        """
        nx = networkx_module()
        n = self.num_vertices
        names = range(n) if nodes is None else list(nodes)
        if len(names) != n:
            raise InputError(f"nodes has {len(names)} entries, the graph {n} vertices")
        src = np.repeat(np.arange(n, dtype=np.int64), self.degree())
        dst = self.indices.astype(np.int64)
        keep = src < dst
        ends = zip(src[keep].tolist(), dst[keep].tolist())
        if nodes is not None:
            ends = ((names[u], names[v]) for u, v in ends)
        if self.directed:
            keep = np.ones(src.shape, bool)
            ends = zip(src.tolist(), dst.tolist())
            if nodes is not None:
                ends = ((names[u], names[v]) for u, v in ends)
        g = nx.DiGraph() if self.directed else nx.Graph()
        g.add_nodes_from(names)
        if self.weights is None or weight is None:
            g.add_edges_from(ends)
        else:
            w = self.weights[keep].tolist()
            g.add_weighted_edges_from(((u, v, x) for (u, v), x in zip(ends, w)), weight=weight)
        return g


def directed_csr(src, dst, num_vertices: int, weights=None) -> CSRGraph:
    """The out-edge CSR of directed edges ``src[i] -> dst[i]``: self-loops dropped, one entry
    per ordered pair (the smallest weight of its duplicates), sorted lists. ``weights`` keep
    their dtype (float32, or float64 for the API's float64 searches). The in-edge lists are
    made from it when a search first asks (``CSRGraph.in_edges``)."""
    src = np.asarray(src, np.int64)
    dst = np.asarray(dst, np.int64)
    keep = src != dst
    n = np.int64(num_vertices)
    key = src[keep] * n + dst[keep]
    if weights is None:
        key = np.unique(key)
        w = None
    else:
        w = np.asarray(weights)[keep]
        order = np.lexsort((w, key))
        key, w = key[order], w[order]
        first = np.ones(key.shape, bool)
        first[1:] = key[1:] != key[:-1]
        key, w = key[first], np.ascontiguousarray(w[first])
    indptr = np.zeros(num_vertices + 1, np.int64)
    np.cumsum(np.bincount(key // n, minlength=num_vertices), out=indptr[1:])
    indices = (key % n).astype(index_dtype(num_vertices))
    return CSRGraph(indptr, indices, int(num_vertices), int(src.shape[0]), weights=w,
                    directed=True)


@njit(cache=True)
def transpose(indptr, indices, num_vertices):
    """(indptr, indices) of the transpose of a CSR: a counting sort of the entries by
    neighbour, rows visited in order, so each new row lists its vertices ascending."""
    t_indptr = np.zeros(num_vertices + 1, np.int64)
    for k in range(indices.shape[0]):
        t_indptr[indices[k] + 1] += 1
    for v in range(num_vertices):
        t_indptr[v + 1] += t_indptr[v]
    fill = t_indptr[:-1].copy()
    t_indices = np.empty_like(indices)
    for u in range(num_vertices):
        for k in range(indptr[u], indptr[u + 1]):
            v = indices[k]
            t_indices[fill[v]] = u
            fill[v] += 1
    return t_indptr, t_indices


def networkx_module():
    """networkx, an optional dependency, imported only when a conversion asks for it."""
    try:
        import networkx
    except ImportError:  # pragma: no cover - depends on the environment
        raise InputError("networkx is not installed (pip install networkx)") from None
    return networkx


def index_dtype(num_vertices: int):
    """The neighbour-index dtype of the CSR contract."""
    return np.int32 if num_vertices < 2**31 else np.int64
