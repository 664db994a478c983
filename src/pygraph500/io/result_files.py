"""Search results in and out: answers read for validation (parent arrays, or the search
tables ``bfs``/``sssp --out`` write), search tables and JSON reports written (through
``outputs.atomic_writer``)."""
from __future__ import annotations

import json
import warnings
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, excerpt, plain_text
from . import text_kernels
from .file_access import open_error, readable_input
from .outputs import atomic_writer, check_writable
from .npy_array import NUMPY_FILE_ERRORS
from .registry import REGISTRY

__all__ = ["SearchAnswer", "read_answer", "read_distances", "write_json", "SEARCH_TABLE_SUFFIXES", "check_search_table_path",
           "write_search_table"]


def write_json(obj, path: str) -> None:
    """``obj`` as a JSON document (indented) at ``path``; serialised before anything is
    written, so a value JSON cannot hold leaves the old file as it was."""
    text = json.dumps(obj, indent=1) + "\n"
    with atomic_writer(path, "w") as f:
        f.write(text)


@dataclass(frozen=True)
class SearchAnswer:
    """A search's answer read for validation, over the graph's vertices: ``parent`` (-1 where
    unreached), ``distance`` (a kernel-3 table's; inf where unreached) or None, and ``table``:
    whether the file held rows ``vertex, parent[, distance]`` (``bfs``/``sssp --out``) rather
    than one parent per vertex."""

    parent: np.ndarray
    distance: np.ndarray | None = None
    table: bool = False


def read_answer(path: str, num_vertices: int, kernel3: bool = False) -> SearchAnswer:
    """The answer in ``path``: a parent array (a 1-D integer .npy, or text with one integer a
    line), taken as it is, its length the validator's to judge; or a table of
    ``bfs``/``sssp --out`` (a (K, 2|3) .npy, or a CSV with the header
    ``vertex,parent[,distance]``), spread over the graph's ``num_vertices`` vertices. A third
    column is kernel 3's distance when ``kernel3``; a BFS table's (the depth) is not read,
    since the validator finds the levels itself."""
    with readable_input(path) as local:
        if not _is_npy(local):
            header, skip = _csv_header(local)
            if header is not None:
                return _csv_table(local, header, skip, num_vertices, kernel3)
        arr = _load(local, np.int64, "parent array or search table")
        if arr.ndim == 1 and np.issubdtype(arr.dtype, np.integer):
            return SearchAnswer(arr.astype(np.int64, copy=False))
        if arr.ndim == 2 and arr.shape[1] in (2, 3) and arr.dtype.kind in "iuf":
            dist = arr[:, 2].astype(np.float64) if arr.shape[1] == 3 and kernel3 else None
            return _spread(local, _ids(local, arr[:, 0], "vertex"),
                           _ids(local, arr[:, 1], "parent"), dist, num_vertices)
        raise InputError(f"{local}: neither a parent array (1-D integers) nor a search table "
                         f"((K, 2) or (K, 3) numbers): {arr.dtype} {list(arr.shape)}")


def _ids(path, column, what) -> np.ndarray:
    """An integer column of a table (a float table's must hold whole numbers)."""
    if column.dtype.kind == "f":
        whole = np.isfinite(column) & (column == np.round(column))
        if not whole.all():
            i = int(np.argmin(whole))
            raise InputError(f"{path}: row {i + 1}: {what} {float(column[i])} is not a vertex id")
    return column.astype(np.int64)


def _is_npy(path: str) -> bool:
    """Whether ``path`` is a NumPy array file: by its name, or by its first bytes (a stream's
    copy has no name to go by)."""
    if path.lower().endswith(".npy"):
        return True
    magic = REGISTRY["npy"].magic
    try:
        with open(path, "rb") as f:
            return f.read(len(magic)) == magic
    except OSError as exc:
        raise open_error(path, exc) from None


def _load(path: str, text_dtype, what: str) -> np.ndarray:
    """An array from ``.npy`` or text (one value a line); InputError naming ``what``."""
    try:
        if _is_npy(path):
            arr = np.load(path, allow_pickle=False)
        else:
            with warnings.catch_warnings():  # an empty file: said below, not warned about
                warnings.simplefilter("ignore", UserWarning)
                arr = np.loadtxt(path, dtype=text_dtype, comments="#", ndmin=1)
    except OSError as exc:
        raise open_error(path, exc) from None
    except NUMPY_FILE_ERRORS as exc:
        raise InputError(f"{path}: not a {what}: {plain_text(str(exc))}") from None
    if arr.size == 0:
        raise InputError(f"{path}: empty: no {what} in it")
    return arr


def _csv_header(path) -> tuple[list[str] | None, int]:
    """The column names of a table's header line (None for a file of bare numbers) and the
    number of lines up to and including it."""
    try:
        return _header_of(path)
    except OSError as exc:
        raise open_error(path, exc) from None


def _header_of(path) -> tuple[list[str] | None, int]:
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith(b"#"):
                continue
            if text[:1].isalpha():
                names = [c.strip().lower() for c in text.decode("ascii", "replace").split(",")]
                if names[:2] != ["vertex", "parent"] or len(names) > 3:
                    raise InputError(f"{path}:{number}: expected the header vertex,parent"
                                     f"[,distance], got {excerpt(text)}")
                return names, number
            return None, 0
    return None, 0


def _csv_table(path, header, skip, n, kernel3) -> SearchAnswer:
    """A CSV search table spread over the graph's ``n`` vertices."""
    def column(c, dtype):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return np.loadtxt(path, dtype=dtype, delimiter=",", comments="#", skiprows=skip,
                              usecols=c, ndmin=1)
    vertex, parent = column(0, np.int64), column(1, np.int64)
    # text distances are decimal: each is read as the float32 nearest to it (kernel 3's type;
    # sssp --out prints 9 significant digits, which give back the float32 it wrote)
    dist = column(2, np.float32) if kernel3 and header[2:] == ["distance"] else None
    return _spread(path, vertex, parent, dist, n)


def _spread(path, vertex, parent, distance, n) -> SearchAnswer:
    """Rows ``vertex, parent[, distance]`` as arrays over the graph's ``n`` vertices."""
    outside = (vertex < 0) | (vertex >= n)
    if outside.any():
        i = int(np.argmax(outside))
        raise InputError(f"{path}: row {i + 1}: vertex {int(vertex[i])} is not a vertex of the "
                         f"graph (0..{n - 1})")
    twice = np.bincount(vertex, minlength=n) > 1
    if twice.any():
        raise InputError(f"{path}: vertex {int(np.argmax(twice))} has more than one row")
    p = np.full(n, -1, dtype=np.int64)
    p[vertex] = parent
    d = None
    if distance is not None:
        d = np.full(n, np.inf, dtype=distance.dtype)
        d[vertex] = distance
    return SearchAnswer(p, d, table=True)


def read_distances(path: str) -> np.ndarray:
    """Kernel-3 distances from ``.npy`` (a float array) or text (one number a line, ``inf``
    or -1 where unreached), for ``graph500 validate --distances``."""
    with readable_input(path) as local:
        arr = _load(local, np.float64, "distance array")
        if arr.ndim != 1 or arr.dtype.kind != "f":
            raise InputError(f"{local}: distances must be 1-D floats, got {arr.dtype} "
                             f"{list(arr.shape)}")
        return arr


SEARCH_TABLE_SUFFIXES = (".npy", ".csv")


def check_search_table_path(path: str) -> None:
    """InputError now, before any work, unless ``path`` is a writable .npy or .csv name."""
    if not path.lower().endswith(SEARCH_TABLE_SUFFIXES):
        raise InputError(f"--out {path}: name it .npy (int64 table) or .csv")
    check_writable(path)


def write_search_table(path: str, vertex, parent, distance=None) -> int:
    """One row per reached vertex: ``vertex, parent[, distance]`` as an int64 (K, 2|3) .npy
    table or a CSV with a header line, chosen by the suffix. Returns the number of rows.
    Float distances (kernel 3) make a float64 (K, 3) table, or CSV distances printed with 9
    significant digits (which read back to the same float32)."""
    check_search_table_path(path)
    if distance is not None and np.asarray(distance).dtype.kind == "f":
        return _write_float_table(path, vertex, parent, np.asarray(distance))
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
            k = text_kernels.format_rows(np.ascontiguousarray(table[:, a:a + step]), 44, out)
            f.write(memoryview(out[:k]))
    return table.shape[1]


def _write_float_table(path: str, vertex, parent, distance) -> int:
    vertex = np.asarray(vertex, np.int64)
    parent = np.asarray(parent, np.int64)
    if path.lower().endswith(".npy"):
        table = np.column_stack([vertex.astype(np.float64), parent.astype(np.float64),
                                 distance.astype(np.float64)])
        with atomic_writer(path) as f:
            np.save(f, table)
        return table.shape[0]
    step = 1 << 16
    with atomic_writer(path) as f:
        f.write(b"vertex,parent,distance\n")
        for a in range(0, vertex.shape[0], step):
            rows = zip(vertex[a:a + step].tolist(), parent[a:a + step].tolist(),
                       distance[a:a + step].tolist())
            f.write("".join(f"{v},{p},{d:.9g}\n" for v, p, d in rows).encode())
    return vertex.shape[0]
