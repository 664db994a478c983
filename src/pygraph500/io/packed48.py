"""The reference's packed 48-bit edge tuples: three little-endian uint32 ``v0_low, v1_low,
high`` (``high`` = bits 32..47 of v0, then of v1, sign-extended on reading)."""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from . import chunked_io
from .outputs import atomic_writer

__all__ = ["read_packed48", "write_packed48"]


def read_packed48(path, size, limit, report):
    """(src, dst, weights, directed, n_hint, labels) of a packed48 file, read in chunks."""
    if size % 12:
        raise InputError(f"{path}: truncated: {size} bytes is not a whole number of 12-byte packed "
                         f"edges (the last edge, at byte offset {size - size % 12}, has "
                         f"{size % 12} of 12 bytes)")
    m = size // 12
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    step = max(1, chunked_io.CHUNK_BYTES // 48)  # a quarter chunk: decoding makes a few int64 temporaries
    buf = np.empty((min(step, m), 3), dtype="<u4")
    for done, w in chunked_io.read_records(path, buf, m, size, report):
        k = w.shape[0]
        hi = w[:, 2]
        s = src[done:done + k]
        d = dst[done:done + k]
        # the reference's get_v0_from_edge / get_v1_from_edge: 16 high bits sign-extended
        np.left_shift((hi & 0xFFFF).astype(np.uint16).view(np.int16).astype(np.int64), 32, out=s)
        s |= w[:, 0]
        np.left_shift((hi >> 16).astype(np.uint16).view(np.int16).astype(np.int64), 32, out=d)
        d |= w[:, 1]
        for col, arr in ((0, s), (1, d)):
            bad = chunked_io.bad_ids(arr, limit)
            if bad.any():
                j = int(np.argmax(bad))
                x = int(arr[j])
                off = 12 * (done + j)
                what = "v0" if col == 0 else "v1"
                if x < 0:
                    raise InputError(f"{path}: byte offset {off}: edge {done + j} has a negative "
                                     f"{what} {x} (bit 47 set)")
                raise InputError(f"{path}: byte offset {off}: edge {done + j} has {what} {x}, not "
                                 f"below the vertex count {limit}")
    return src, dst, None, False, None, None


def _fill_packed(block, s, d):
    block[:, 0] = s & 0xFFFFFFFF
    block[:, 1] = d & 0xFFFFFFFF
    block[:, 2] = ((s >> 32) & 0xFFFF) | (((d >> 32) & 0xFFFF) << 16)


def write_packed48(graph, path, report) -> None:
    """Write a GraphFile as packed48 (atomically); InputError for ids of 2**47 and more."""
    top = int(graph.labels[-1]) if graph.labels is not None else graph.num_vertices - 1
    if top >= 1 << 47:
        raise InputError(f"cannot write {path}: vertex id {top} does not fit the packed 48-bit "
                         f"format (ids below 2**47)")
    step = max(1, chunked_io.CHUNK_BYTES // 12)
    buf = np.empty((min(step, max(graph.num_edges, 1)), 3), dtype="<u4")
    with atomic_writer(path) as f:
        chunked_io.write_records(f, graph, buf, _fill_packed, report)
