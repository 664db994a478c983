"""Search results in and out: parent arrays read for validation, search tables and JSON
reports written (atomically, through ``file_access.atomic_writer``)."""
from __future__ import annotations

import json
import warnings

import numpy as np

from ..errors import InputError
from . import text_kernels
from .file_access import atomic_writer, check_writable, open_error
from .npy_array import NUMPY_FILE_ERRORS

__all__ = ["read_parents", "write_json", "SEARCH_TABLE_SUFFIXES", "check_search_table_path",
           "write_search_table"]


def write_json(obj, path: str) -> None:
    with atomic_writer(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def _read_vector(path: str, text_dtype, what: str) -> np.ndarray:
    """A 1-D array from ``.npy`` or text (one value a line); InputError naming ``what``."""
    try:
        if path.endswith(".npy"):
            arr = np.load(path, allow_pickle=False)
        else:
            with warnings.catch_warnings():  # an empty file: said below, not warned about
                warnings.simplefilter("ignore", UserWarning)
                arr = np.loadtxt(path, dtype=text_dtype, comments="#", ndmin=1)
    except OSError as exc:
        raise open_error(path, exc) from None
    except NUMPY_FILE_ERRORS as exc:
        raise InputError(f"{path}: not a {what}: {exc}") from None
    if arr.size == 0:
        raise InputError(f"{path}: empty: no {what} in it")
    return arr


def read_parents(path: str) -> np.ndarray:
    """A parent array from ``.npy`` (any integer dtype) or text (one integer a line)."""
    arr = _read_vector(path, np.int64, "parent array")
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"{path}: parent array must be 1-D integers, got {arr.dtype}{list(arr.shape)}")
    return arr.astype(np.int64, copy=False)


def read_distances(path: str) -> np.ndarray:
    """Kernel-3 distances from ``.npy`` (a float array) or text (one number a line, ``inf``
    or -1 where unreached), for ``graph500 validate --distances``."""
    arr = _read_vector(path, np.float64, "distance array")
    if arr.ndim != 1 or arr.dtype.kind != "f":
        raise InputError(f"{path}: distances must be 1-D floats, got {arr.dtype}{list(arr.shape)}")
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
