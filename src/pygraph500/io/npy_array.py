"""NumPy ``.npy`` edge lists: an (M, 2) integer array (more columns are ignored on reading;
written as int64)."""
from __future__ import annotations

import tokenize
import zipfile
import zlib

import numpy as np

from ..errors import InputError, plain_text
from . import chunked_io
from .outputs import atomic_writer
from .g500_binary import write_int64_pairs

__all__ = ["read_npy", "write_npy", "NUMPY_FILE_ERRORS"]

# What numpy.load raises on a damaged .npy or .npz: its header is parsed as a Python literal
# (SyntaxError, tokenize.TokenError), a shape or dtype may be nonsense, an archive broken.
NUMPY_FILE_ERRORS = (ValueError, TypeError, OSError, EOFError, KeyError, OverflowError,
                     SyntaxError, tokenize.TokenError, NotImplementedError, zipfile.BadZipFile,
                     zlib.error)


def read_npy(path, size, limit, report):
    """(src, dst, weights, directed, n_hint, labels) of an .npy array, memory-mapped and
    copied in chunks."""
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except NUMPY_FILE_ERRORS as exc:
        raise InputError(f"{path}: not a NumPy .npy array: {plain_text(str(exc))}") from None
    if arr.ndim != 2 or arr.shape[1] < 2 or not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"{path}: a .npy edge list is an (M, 2) integer array, got "
                         f"{arr.dtype}{list(arr.shape)}")
    m = arr.shape[0]
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    step = max(1, chunked_io.CHUNK_BYTES // (arr.shape[1] * arr.dtype.itemsize))
    header = size - m * arr.shape[1] * arr.dtype.itemsize
    for a in range(0, m, step):
        b = min(m, a + step)
        part = np.asarray(arr[a:b, :2])
        bad = chunked_io.bad_ids(part, limit)
        if bad.any():
            j, c = np.unravel_index(int(np.argmax(bad)), bad.shape)
            x = int(part[j, c])
            why = "negative vertex id" if x < 0 else f"vertex id not below the vertex count {limit}:"
            raise InputError(f"{path}: row {a + j}, column {c} (byte offset "
                             f"{header + ((a + j) * arr.shape[1] + c) * arr.dtype.itemsize}): {why} {x}")
        src[a:b] = part[:, 0]
        dst[a:b] = part[:, 1]
        report("reading", header + b * arr.shape[1] * arr.dtype.itemsize, size)
    del arr
    return src, dst, None, False, None, None


def write_npy(graph, path, report) -> None:
    """Write a GraphFile as an (M, 2) int64 .npy array (atomically): a header, then the same
    bytes as a g500 file."""
    with atomic_writer(path) as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<i8", "fortran_order": False, "shape": (graph.num_edges, 2)})
        write_int64_pairs(f, graph, report)
