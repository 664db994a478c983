"""Graph500 edge lists (an EdgeList, vertex numbers as they are) to and from files, in the
format the file's name says (``registry``, as ``graph500 convert`` tells it): text ``v0 v1``
lines for snap names (``#`` comments, the layout of ../shared/testdata), the reference's
int64 pairs (g500) for a name without a known suffix. Thin wrappers over the formats' one
reader and writer each.

An edge list ``graph500 generate`` writes has a description beside it, ``EDGES.json``
(``description_path``): the generator's parameters and the graph's vertex count, which the
file itself cannot hold (the last vertices may be on no edge), so that ``graph500 validate``
judges a parent array's length against the graph's, not against the array.
"""
from __future__ import annotations

import json
import os

from ..errors import InputError
from ..graph.types import EdgeList
from .graph_file import GraphFile, read_graph
from .registry import format_named, named_format
from .snap_text import write_snap

__all__ = ["edge_list_format", "read_edges", "write_edges", "write_text_edges",
           "description_path", "describe_generated", "read_description"]


def _silent(*_args) -> None:
    """A progress report that shows nothing."""


def edge_list_format(path: str, *, for_writing: bool = False) -> str:
    """The format of the edge list ``path``: the one its suffix names, else g500, the
    reference's layout (a device, a pipe, a name without a known suffix)."""
    return named_format(path, for_writing=for_writing) or "g500"


def write_edges(edges: EdgeList, path: str) -> None:
    """Write the tuples in generation order (with their weights where the format holds
    them), in the format of ``edge_list_format``."""
    fmt = edge_list_format(path, for_writing=True)
    if fmt == "snap":
        write_text_edges(edges, path)
    else:
        format_named(fmt).write(GraphFile(edges), path, _silent)


def write_text_edges(edges: EdgeList, path: str) -> None:
    """Write one ``v0 v1`` line per tuple, in generation order."""
    columns = "v0 v1 weight" if edges.weighted else "v0 v1"
    header = f"# {edges.num_edges} edge tuples over {edges.num_vertices} vertices ({columns})\n"
    write_snap(GraphFile(edges), path, _silent, header=header, separator=" ")


def read_edges(path: str, num_vertices: int | None = None) -> EdgeList:
    """Read an edge list in the format of ``edge_list_format``.

    ``num_vertices`` defaults to the largest label + 1; labels must be in [0, num_vertices).
    Labels are never relabelled. (The readers are those of ``read_graph``.)
    """
    return read_graph(path, format=edge_list_format(path), num_vertices=num_vertices,
                      relabel=False).edges


def description_path(path: str) -> str:
    """Where the description of the edge list ``path`` is: ``path`` + ".json"."""
    return path + ".json"


def describe_generated(edges: EdgeList, scale: int, edgefactor: int, seed, weights: str | None,
                       version: str) -> dict:
    """The description ``graph500 generate`` writes beside its edge list."""
    return {"generator": f"pygraph500 {version}: Graph500 Kronecker (the reference's tuples)",
            "scale": scale, "edgefactor": edgefactor, "seeds": [int(s) for s in seed],
            "num_vertices": edges.num_vertices, "num_edges": edges.num_edges,
            "weights": None if weights is None else os.path.basename(weights)}


def read_description(path: str) -> dict | None:
    """The description beside the edge list ``path``, or None when there is none; InputError
    when it is not one."""
    where = description_path(path)
    if not os.path.isfile(where):
        return None
    try:
        with open(where, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as exc:
        raise InputError(f"cannot read {where}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"{where}: not a description of {path}: {exc}") from None
    counts = [doc.get(k) for k in ("num_vertices", "num_edges")] if isinstance(doc, dict) else []
    if len(counts) != 2 or not all(type(c) is int and c >= 0 for c in counts) or counts[0] < 1:
        raise InputError(f"{where}: not a description of {path} (no num_vertices and "
                         "num_edges)")
    return doc
