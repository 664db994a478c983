"""File formats and safe writing.

Binary edge lists are the reference's packed_edge layout: little-endian int64 pairs
``(v0, v1)`` in generation order. Text edge lists hold one ``v0 v1`` pair a line; lines
starting with ``#`` are comments (the layout of ../shared/testdata). Every write goes to a
temporary file in the target's directory and is renamed into place, so a failed run never
leaves a half-written file.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile

import numpy as np

from ..errors import InputError
from ..graph.types import EdgeList

_EDGE_DTYPE = np.dtype("<i8")


def check_writable(path: str) -> None:
    """InputError now, before long work, if ``path`` cannot be created or replaced."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if os.path.isdir(path):
        raise InputError(f"cannot write {path}: it is a directory")
    if not os.path.isdir(directory):
        raise InputError(f"cannot write {path}: directory {directory} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise InputError(f"cannot write {path}: directory {directory} is not writable")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise InputError(f"cannot write {path}: file is not writable")


@contextlib.contextmanager
def atomic_writer(path: str, mode: str = "wb"):
    """Open a temporary sibling of ``path``; rename it onto ``path`` only if the block succeeds."""
    check_writable(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, mode) as f:
            yield f
        # mkstemp makes the file 0600; give it the mode a plain open() would have
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_edges(edges: EdgeList, path: str) -> None:
    """Write little-endian int64 pairs (v0, v1) in generation order."""
    pairs = np.empty((edges.num_edges, 2), dtype=_EDGE_DTYPE)
    pairs[:, 0] = edges.src
    pairs[:, 1] = edges.dst
    with atomic_writer(path) as f:
        pairs.tofile(f)


def write_text_edges(edges: EdgeList, path: str) -> None:
    """Write one ``v0 v1`` line per tuple, in generation order."""
    from . import _text

    step = 1 << 18
    out = np.empty(step * 2 * 21, dtype=np.uint8)
    with atomic_writer(path, "wb") as f:
        f.write(f"# {edges.num_edges} edge tuples over {edges.num_vertices} vertices (v0 v1)\n".encode())
        for a in range(0, edges.num_edges, step):  # compiled formatting, a chunk at a time
            cols = np.stack([edges.src[a:a + step], edges.dst[a:a + step]]).astype(np.int64)
            k = _text.format_rows(cols, 32, out)
            f.write(memoryview(out[:k]))


def write_json(obj, path: str) -> None:
    with atomic_writer(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def _open_error(path: str, exc: OSError) -> InputError:
    return InputError(f"cannot read {path}: {exc.strerror or exc}")


def read_edges(path: str, num_vertices: int | None = None) -> EdgeList:
    """Read an edge list: ``.txt`` as text pairs, anything else as binary int64 pairs.

    ``num_vertices`` defaults to the largest label + 1; labels must be in [0, num_vertices).
    Labels are never relabelled. (The readers are those of ``formats.read_graph``.)
    """
    from .formats import read_graph

    fmt = "snap" if path.endswith(".txt") else "g500"
    return read_graph(path, format=fmt, num_vertices=num_vertices, relabel=False).edges


def read_parents(path: str) -> np.ndarray:
    """A parent array from ``.npy`` (any integer dtype) or text (one integer a line)."""
    try:
        if path.endswith(".npy"):
            arr = np.load(path, allow_pickle=False)
        else:
            arr = np.loadtxt(path, dtype=np.int64, comments="#", ndmin=1)
    except OSError as exc:
        raise _open_error(path, exc) from None
    except ValueError as exc:
        raise InputError(f"{path}: not a parent array: {exc}") from None
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"{path}: parent array must be 1-D integers, got {arr.dtype}{list(arr.shape)}")
    return arr.astype(np.int64, copy=False)


SEARCH_TABLE_SUFFIXES = (".npy", ".csv")


def check_search_table_path(path: str) -> None:
    """InputError now, before any work, unless ``path`` is a writable .npy or .csv name."""
    if not path.lower().endswith(SEARCH_TABLE_SUFFIXES):
        raise InputError(f"--out {path}: name it .npy (int64 table) or .csv")
    check_writable(path)


def write_search_table(path: str, vertex, parent, distance=None) -> int:
    """One row per reached vertex: ``vertex, parent[, distance]`` as an int64 (K, 2|3) .npy
    table or a CSV with a header line, chosen by the suffix. Returns the number of rows."""
    from . import _text

    check_search_table_path(path)
    cols = [np.asarray(vertex, np.int64), np.asarray(parent, np.int64)]
    if distance is not None:
        cols.append(np.asarray(distance, np.int64))
    table = np.stack(cols)  # (k, rows): one column per row of the stack
    if path.lower().endswith(".npy"):
        with atomic_writer(path) as f:
            np.save(f, np.ascontiguousarray(table.T))
        return table.shape[1]
    step = 1 << 18
    out = np.empty(step * len(cols) * 21, dtype=np.uint8)
    with atomic_writer(path) as f:
        f.write(("vertex,parent" + (",distance" if distance is not None else "") + "\n").encode())
        for a in range(0, table.shape[1], step):
            k = _text.format_rows(np.ascontiguousarray(table[:, a:a + step]), 44, out)
            f.write(memoryview(out[:k]))
    return table.shape[1]
