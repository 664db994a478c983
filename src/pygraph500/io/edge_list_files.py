"""Graph500 edge lists (an EdgeList, vertex numbers as they are) to and from files: the
g500 binary layout, or text ``v0 v1`` lines (``#`` comments, the layout of
../shared/testdata). Thin wrappers over the g500 and snap formats' one reader and writer."""
from __future__ import annotations

from ..graph.types import EdgeList
from .g500_binary import write_g500
from .graph_file import GraphFile, read_graph
from .snap_text import write_snap

__all__ = ["read_edges", "write_edges", "write_text_edges"]


def _silent(*_args) -> None:
    """A progress report that shows nothing."""


def write_edges(edges: EdgeList, path: str) -> None:
    """Write little-endian int64 pairs (v0, v1) in generation order."""
    write_g500(GraphFile(edges), path, _silent)


def write_text_edges(edges: EdgeList, path: str) -> None:
    """Write one ``v0 v1`` line per tuple, in generation order."""
    header = f"# {edges.num_edges} edge tuples over {edges.num_vertices} vertices (v0 v1)\n"
    write_snap(GraphFile(edges), path, _silent, header=header, separator=" ")


def read_edges(path: str, num_vertices: int | None = None) -> EdgeList:
    """Read an edge list: ``.txt`` as text pairs, anything else as binary int64 pairs.

    ``num_vertices`` defaults to the largest label + 1; labels must be in [0, num_vertices).
    Labels are never relabelled. (The readers are those of ``read_graph``.)
    """
    fmt = "snap" if path.endswith(".txt") else "g500"
    return read_graph(path, format=fmt, num_vertices=num_vertices, relabel=False).edges
