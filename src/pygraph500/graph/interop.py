"""CSRGraph from the Python graph ecosystem: scipy.sparse and networkx (the way out is
``CSRGraph.to_scipy`` / ``to_networkx``, which need no kernel 1).

Every conversion into a CSRGraph goes through kernel 1 (``build_csr``), so the result obeys
the CSR contract whatever came in: symmetric (a directed input's edges are followed both
ways, as scipy's ``directed=False``), no self-loops, no duplicate neighbours. These are
functions, not CSRGraph class methods, so that the contract (``types``) does not import
kernel 1 (``build``), which imports it. networkx is optional: imported only when asked for.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
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
    weight = None
    if weighted:
        with np.errstate(over="ignore"):
            weight = coo.data.astype(np.float32)
        if not np.isfinite(weight[np.isfinite(coo.data)]).all():
            raise InputError("a weight does not fit float32")
    return EdgeList(coo.row.astype(np.int64), coo.col.astype(np.int64), int(matrix.shape[0]),
                    weight)


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
    """Kernel 1 on a networkx graph; vertex ``i`` is ``nodelist[i]`` (default ``list(graph)``).

    Directed graphs are taken as undirected, multi-edges and self-loops are dropped.
    ``weight``: the edge attribute holding kernel 3's weights (missing: 1; a multigraph's
    parallel edges count as one edge with their summed weight, networkx's own rule).

    >>> import networkx as nx
    >>> g = from_networkx(nx.path_graph(4))
    >>> g.num_vertices, g.num_directed_edges
    (4, 6)
    """
    nx = networkx_module()
    nodes = list(graph) if nodelist is None else list(nodelist)
    if len(nodes) == 0:
        raise InputError("the networkx graph has no nodes")
    a = nx.to_scipy_sparse_array(graph, nodelist=nodes, weight=weight, format="coo")
    return from_scipy(a, weighted=weight is not None)
