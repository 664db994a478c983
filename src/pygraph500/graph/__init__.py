"""Graphs: the EdgeList and CSRGraph contracts, kernel 1 (build_csr), and CSR graphs from
scipy.sparse and networkx (``from_scipy``, ``from_networkx``: kernel 1 on their structure)."""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .types import CSRGraph, EdgeList, directed_csr, index_dtype
from .build import build_csr
from .interop import from_networkx, from_scipy

__all__ = ["EdgeList", "CSRGraph", "index_dtype", "build_csr", "directed_csr", "from_scipy",
           "from_networkx"]
