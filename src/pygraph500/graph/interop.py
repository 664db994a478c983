"""CSRGraph to and from the Python graph ecosystem: scipy.sparse and networkx.

Every conversion into a CSRGraph goes through kernel 1 (``build_csr``), so the result obeys
the CSR contract whatever came in: symmetric (a directed input's edges are followed both
ways, as scipy's ``directed=False``), no self-loops, no duplicate neighbours. Conversions out
give the symmetric graph as it is stored. networkx is optional: it is imported only here,
only when asked for.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from .build import build_csr
from .types import CSRGraph, EdgeList

__all__ = ["edges_from_scipy", "from_scipy", "to_scipy", "from_networkx", "to_networkx"]


def edges_from_scipy(matrix) -> EdgeList:
    """The stored entries of a square scipy.sparse matrix or array as an EdgeList.

    Every stored entry ``(i, j)`` is an edge, explicit zeros included (scipy.sparse.csgraph
    reads sparse input the same way); values are ignored.
    """
    import scipy.sparse as sp

    if not sp.issparse(matrix):
        raise InputError(f"expected a scipy.sparse matrix or array, got {type(matrix).__name__}")
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise InputError(f"the adjacency matrix must be square, got shape {matrix.shape}")
    coo = matrix.tocoo()
    return EdgeList(coo.row.astype(np.int64), coo.col.astype(np.int64), int(matrix.shape[0]))


def from_scipy(matrix) -> CSRGraph:
    """Kernel 1 on the structure of a square scipy.sparse adjacency matrix (values ignored).

    >>> import scipy.sparse as sp
    >>> a = sp.csr_array(([1, 1], ([0, 1], [1, 2])), shape=(3, 3))
    >>> g = CSRGraph.from_scipy(a)
    >>> g.indptr.tolist(), g.indices.tolist()
    ([0, 1, 3, 4], [1, 0, 2, 1])
    """
    return build_csr(edges_from_scipy(matrix))


def to_scipy(graph: CSRGraph, dtype=np.int8):
    """The symmetric adjacency as a ``scipy.sparse.csr_array`` with ones of ``dtype``.

    >>> from pygraph500 import EdgeList, build_csr
    >>> import numpy as np
    >>> g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
    >>> g.to_scipy().toarray().tolist()
    [[0, 1, 0], [1, 0, 1], [0, 1, 0]]
    """
    import scipy.sparse as sp

    n = graph.num_vertices
    data = np.ones(graph.indices.shape[0], dtype=dtype)
    return sp.csr_array((data, graph.indices, graph.indptr), shape=(n, n))


def _networkx():
    try:
        import networkx
    except ImportError:  # pragma: no cover - depends on the environment
        raise InputError("networkx is not installed (pip install networkx)") from None
    return networkx


def from_networkx(graph, nodelist=None) -> CSRGraph:
    """Kernel 1 on a networkx graph; vertex ``i`` is ``nodelist[i]`` (default ``list(graph)``).

    Directed graphs are taken as undirected, multi-edges and self-loops are dropped.

    >>> import networkx as nx
    >>> g = CSRGraph.from_networkx(nx.path_graph(4))
    >>> g.num_vertices, g.num_directed_edges
    (4, 6)
    """
    nx = _networkx()
    nodes = list(graph) if nodelist is None else list(nodelist)
    if len(nodes) == 0:
        raise InputError("the networkx graph has no nodes")
    a = nx.to_scipy_sparse_array(graph, nodelist=nodes, weight=None, format="coo")
    return from_scipy(a)


def to_networkx(graph: CSRGraph, nodes=None):
    """A ``networkx.Graph`` of the CSR graph; vertex ``i`` becomes node ``nodes[i]``
    (default ``i``).

    >>> from pygraph500 import EdgeList, build_csr
    >>> import numpy as np
    >>> g = build_csr(EdgeList(np.array([0, 1]), np.array([1, 2]), 3))
    >>> sorted(g.to_networkx(nodes=["a", "b", "c"]).edges())
    [('a', 'b'), ('b', 'c')]
    """
    nx = _networkx()
    n = graph.num_vertices
    deg = np.diff(graph.indptr)
    src = np.repeat(np.arange(n, dtype=np.int64), deg)
    dst = graph.indices.astype(np.int64)
    keep = src < dst
    src, dst = src[keep], dst[keep]
    g = nx.Graph()
    if nodes is None:
        g.add_nodes_from(range(n))
        g.add_edges_from(zip(src.tolist(), dst.tolist()))
    else:
        names = list(nodes)
        if len(names) != n:
            raise InputError(f"nodes has {len(names)} entries, the graph {n} vertices")
        g.add_nodes_from(names)
        g.add_edges_from((names[u], names[v]) for u, v in zip(src.tolist(), dst.tolist()))
    return g
