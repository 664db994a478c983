"""CSRGraph from the Python graph ecosystem: scipy.sparse and networkx (the way out is
``CSRGraph.to_scipy`` / ``to_networkx``, which need no kernel 1).

Every conversion into a CSRGraph goes through kernel 1 (``build_csr``), so the result obeys
the CSR contract whatever came in: symmetric (a directed input's edges are followed both
ways, as scipy's ``directed=False``), no self-loops, no duplicate neighbours. These are
functions, not CSRGraph class methods, so that the contract (``types``) does not import
kernel 1 (``build``), which imports it. networkx is optional: imported only when asked for.

Weights round-trip: ``from_networkx(G, weight="weight").to_networkx()`` and
``from_scipy(a, weighted=True).to_scipy()`` give back each weight rounded to float32, the
package's weight type (exact for float32 values; 0.1 comes back as 0.10000000149011612).
Where several entries join one pair of vertices (parallel edges of a networkx multigraph,
the two directions of a directed graph or an asymmetric matrix, duplicates still stored in
a COO matrix) kernel 1 keeps the smallest, the edge a shortest path would take; scipy's
own constructors from ``(data, (row, col))`` to CSR sum duplicates before we see them.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError, shown
from .build import build_csr
from .types import CSRGraph, EdgeList, networkx_module

__all__ = ["edges_from_scipy", "from_scipy", "from_networkx"]


def edges_from_scipy(matrix, weighted: bool = False) -> EdgeList:
    """The stored entries of a square scipy.sparse matrix or array as an EdgeList.

    Every stored entry ``(i, j)`` is an edge, explicit zeros included (scipy.sparse.csgraph
    reads sparse input the same way); values are ignored unless ``weighted`` (kernel 3: the
    values, as float32, are the weights).
    """
    import scipy.sparse as sp

    if not sp.issparse(matrix):
        raise InputError(f"expected a scipy.sparse matrix or array, got {type(matrix).__name__}")
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise InputError(f"the adjacency matrix must be square, got shape {matrix.shape}")
    coo = matrix.tocoo()
    weight = _float32_weights(coo.data) if weighted else None
    return EdgeList(coo.row.astype(np.int64), coo.col.astype(np.int64), int(matrix.shape[0]),
                    weight)


def _float32_weights(values) -> np.ndarray:
    """``values`` as float32 weights; InputError for a finite one float32 cannot hold (it
    would become infinite: a path through it would look unreachable). Signs and NaNs are
    kernel 1's to refuse (``weights.check_weights``)."""
    values = np.asarray(values)
    with np.errstate(over="ignore"):
        weight = values.astype(np.float32)
    if not np.isfinite(weight[np.isfinite(values)]).all():
        raise InputError("a weight does not fit float32")
    return weight


def from_scipy(matrix, weighted: bool = False) -> CSRGraph:
    """Kernel 1 on the structure of a square scipy.sparse adjacency matrix (values ignored;
    ``weighted``: they are the weights, the smallest kept where both directions are stored).

    >>> import scipy.sparse as sp
    >>> a = sp.csr_array(([1, 1], ([0, 1], [1, 2])), shape=(3, 3))
    >>> g = from_scipy(a)
    >>> g.indptr.tolist(), g.indices.tolist()
    ([0, 1, 3, 4], [1, 0, 2, 1])
    """
    return build_csr(edges_from_scipy(matrix, weighted))


def from_networkx(graph, nodelist=None, weight: str | None = None) -> CSRGraph:
    """Kernel 1 on a networkx graph; vertex ``i`` is ``nodelist[i]`` (default ``list(graph)``;
    a subset: the edges among those nodes).

    Directed graphs are taken as undirected, self-loops are dropped. ``weight``: the edge
    attribute holding kernel 3's weights (missing on an edge: 1), rounded to float32; of a
    multigraph's parallel edges (and of a directed graph's two directions) the smallest
    weight is kept, as networkx's own shortest paths do.

    >>> import networkx as nx
    >>> g = from_networkx(nx.path_graph(4))
    >>> g.num_vertices, g.num_directed_edges
    (4, 6)
    """
    networkx_module()
    nodes = list(graph) if nodelist is None else list(nodelist)
    if len(nodes) == 0:
        raise InputError("the networkx graph has no nodes")
    index = _node_index(graph, nodes)
    # Each edge once, as networkx stores it (every parallel edge, a self-loop once: not
    # nx.to_scipy_sparse_array, whose symmetrised diagonal holds a negative entry).
    src, dst, values = [], [], []
    for u, v, w in graph.edges(data=weight, default=1):
        i, j = index.get(u), index.get(v)
        if i is not None and j is not None:
            src.append(i)
            dst.append(j)
            values.append(w)
    w32 = None
    if weight is not None:
        try:
            values = np.asarray(values, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            raise InputError(f"the edge attribute {weight!r} must be a number") from None
        bad = np.flatnonzero(~(values >= 0))
        if bad.size:
            k = int(bad[0])
            raise InputError(f"edge ({shown(nodes[src[k]])}, {shown(nodes[dst[k]])}) has "
                             f"{weight} {float(values[k])!r}: weights must be non-negative")
        w32 = _float32_weights(values)
    return build_csr(EdgeList(np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                              len(nodes), w32))


def _node_index(graph, nodes) -> dict:
    """Node -> vertex number; InputError for a node not in ``graph`` or listed twice."""
    index = {}
    for i, node in enumerate(nodes):
        if node not in graph:  # first: an unhashable node is not in the graph
            raise InputError(f"node {shown(node)} is not in the networkx graph")
        if node in index:
            raise InputError(f"node {shown(node)} is listed twice")
        index[node] = i
    return index
