"""The Graph500 binary edge list: little-endian int64 pairs ``(v0, v1)`` in generation order
(the layout ``graph500 generate`` writes)."""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from . import chunked_io
from .outputs import atomic_writer

__all__ = ["read_g500", "write_g500", "write_int64_pairs"]


def _check_ids(path, values, base_offset, limit, itemsize=8, what="vertex id"):
    """InputError for the first negative id (or id >= limit) in ``values``, by byte offset."""
    bad = chunked_io.bad_ids(values, limit)
    if bad.any():
        j = int(np.argmax(bad))
        x = int(values.reshape(-1)[j])
        off = base_offset + j * itemsize
        if x < 0:
            raise InputError(f"{path}: byte offset {off}: negative {what} {x}")
        raise InputError(f"{path}: byte offset {off}: {what} {x} is not below the vertex count {limit}")


def read_g500(path, size, limit, report):
    """(src, dst, weights, directed, n_hint, labels) of a g500 file, read in chunks."""
    if size % 8:
        raise InputError(f"{path}: truncated: {size} bytes is not a whole number of int64 values "
                         f"(the last value, at byte offset {size - size % 8}, has {size % 8} of 8 bytes)")
    if size % 16:
        raise InputError(f"{path}: odd number of int64 values ({size // 8}): the last one, at byte "
                         f"offset {size - 8}, has no partner (a g500 file holds (v0, v1) pairs)")
    m = size // 16
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    step = max(1, chunked_io.CHUNK_BYTES // 16)
    buf = np.empty((min(step, m), 2), dtype="<i8")
    for done, view in chunked_io.read_records(path, buf, m, size, report):
        k = view.shape[0]
        _check_ids(path, view, 16 * done, limit)
        src[done:done + k] = view[:, 0]
        dst[done:done + k] = view[:, 1]
    return src, dst, None, False, None, None


def _fill_pairs(block, s, d):
    block[:, 0] = s
    block[:, 1] = d


def write_int64_pairs(f, graph, report) -> None:
    """The g500 bytes of a GraphFile (user's ids) to the open file ``f``, in chunks; also the
    data of an (M, 2) int64 .npy array."""
    step = max(1, chunked_io.CHUNK_BYTES // 16)
    buf = np.empty((min(step, max(graph.num_edges, 1)), 2), dtype="<i8")
    chunked_io.write_records(f, graph, buf, _fill_pairs, report)


def write_g500(graph, path, report) -> None:
    """Write a GraphFile as a g500 file (atomically)."""
    with atomic_writer(path) as f:
        write_int64_pairs(f, graph, report)
