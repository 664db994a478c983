"""Graphs: the EdgeList and CSRGraph contracts and kernel 1 (build_csr)."""
from .types import CSRGraph, EdgeList, index_dtype
from .build import build_csr

__all__ = ["EdgeList", "CSRGraph", "index_dtype", "build_csr"]
