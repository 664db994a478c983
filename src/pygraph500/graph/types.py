"""The two graph contracts of DESIGN.md: EdgeList (as generated) and CSRGraph (kernel 1 output)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class EdgeList:
    """Undirected tuples as generated: may hold self-loops and duplicates.

    ``src[i], dst[i]`` is edge tuple ``i`` in generation order; labels are in ``[0, num_vertices)``.
    """

    src: np.ndarray
    dst: np.ndarray
    num_vertices: int

    def __post_init__(self):
        if self.src.shape != self.dst.shape or self.src.ndim != 1:
            raise ValueError("EdgeList: src and dst must be 1-D arrays of the same length")

    @property
    def num_edges(self) -> int:
        return int(self.src.shape[0])

    def __len__(self) -> int:
        return self.num_edges


@dataclass(frozen=True)
class CSRGraph:
    """Symmetric adjacency in CSR form: no self-loops, no duplicate neighbours, sorted lists.

    ``indices`` is int32 when ``num_vertices < 2**31``, else int64. Never mutated.
    ``num_input_edges`` is the length of the EdgeList it was built from. Vertex ids are the
    input's labels unless the graph was relabelled (see ``original_label``).
    """

    indptr: np.ndarray
    indices: np.ndarray
    num_vertices: int
    num_input_edges: int
    # A relabelled graph (kernel 1 with vertex sorting) keeps both directions of the map:
    # original_label[new] and new_label[original] (int64); None when labels are the input's.
    original_label: np.ndarray | None = field(default=None, compare=False, repr=False)
    new_label: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def relabelled(self) -> bool:
        return self.original_label is not None

    @property
    def num_directed_edges(self) -> int:
        return int(self.indptr[-1])

    def degree(self) -> np.ndarray:
        return np.diff(self.indptr)

    def neighbours(self, v: int) -> np.ndarray:
        return self.indices[self.indptr[v]:self.indptr[v + 1]]

    # ---- the Python graph ecosystem (graph/interop.py) ---------------------------------
    @classmethod
    def from_scipy(cls, matrix) -> "CSRGraph":
        """Kernel 1 on a square scipy.sparse adjacency matrix (stored entries are edges).

        >>> import scipy.sparse as sp
        >>> CSRGraph.from_scipy(sp.eye_array(3, k=1, format="csr")).degree().tolist()
        [1, 2, 1]
        """
        from .interop import from_scipy

        return from_scipy(matrix)

    def to_scipy(self, dtype=np.int8):
        """The symmetric adjacency as a ``scipy.sparse.csr_array`` of ones.

        >>> import scipy.sparse as sp
        >>> CSRGraph.from_scipy(sp.eye_array(3, k=1, format="csr")).to_scipy().nnz
        4
        """
        from .interop import to_scipy

        return to_scipy(self, dtype)

    @classmethod
    def from_networkx(cls, graph, nodelist=None) -> "CSRGraph":
        """Kernel 1 on a networkx graph; vertex ``i`` is ``nodelist[i]`` (default ``list(graph)``).

        >>> import networkx as nx
        >>> CSRGraph.from_networkx(nx.karate_club_graph()).num_directed_edges
        156
        """
        from .interop import from_networkx

        return from_networkx(graph, nodelist)

    def to_networkx(self, nodes=None):
        """A ``networkx.Graph``; vertex ``i`` becomes ``nodes[i]`` (default ``i``).

        >>> import networkx as nx
        >>> CSRGraph.from_networkx(nx.cycle_graph(5)).to_networkx().number_of_edges()
        5
        """
        from .interop import to_networkx

        return to_networkx(self, nodes)


def index_dtype(num_vertices: int):
    """The neighbour-index dtype of the CSR contract."""
    return np.int32 if num_vertices < 2**31 else np.int64
