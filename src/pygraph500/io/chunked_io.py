"""Chunked reading and writing of users' edge files, shared by the format modules: one
reusable buffer of at most ``CHUNK_BYTES`` per read or write, and the vertex-id check
(``bad_ids``).

A read fills arrays allocated once at their final size from one reusable buffer of at most
``CHUNK_BYTES``, so it needs the edge arrays plus one chunk, never twice the file; a write
converts and writes the edges the same way. Readers look ``CHUNK_BYTES`` up at call time
(``chunked_io.CHUNK_BYTES``), so tests can shrink it.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError

__all__ = ["CHUNK_BYTES", "bad_ids", "read_into", "read_records", "user_chunks", "write_records"]

CHUNK_BYTES = 32 << 20                  # bytes read (or written) per step


def bad_ids(values: np.ndarray, limit: int) -> np.ndarray:
    """Where ``values`` are not vertex ids: negative, or (``limit >= 0``) not below ``limit``.
    The readers name the first one, each with its own position (byte offset, row, index)."""
    bad = values < 0
    if limit >= 0:
        bad |= values >= limit
    return bad


def read_into(f, view: memoryview) -> int:
    """Fill ``view`` from ``f`` (short reads repeated); the number of bytes read."""
    got = 0
    while got < len(view):
        n = f.readinto(view[got:])
        if not n:
            break
        got += n
    return got


def read_records(path: str, buf: np.ndarray, count: int, size: int, report):
    """Yield ``(first, block)``: the ``count`` fixed-size records of the file at ``path``, read
    ``len(buf)`` at a time into ``buf`` (one row a record); ``block`` holds records
    ``first, first + 1, ...``. Reports the bytes read after each block is used."""
    record = buf.itemsize * buf.shape[1]
    done = 0
    with open(path, "rb") as f:
        while done < count:
            k = min(buf.shape[0], count - done)
            block = buf[:k]
            got = read_into(f, memoryview(block).cast("B"))
            if got != record * k:
                raise InputError(f"{path}: truncated at byte offset {record * done + got} "
                                 f"(file shrank while read)")
            yield done, block
            done += k
            report("reading", record * done, size)


def user_chunks(graph, step: int):
    """(a, b, src, dst) of a GraphFile's edges ``a:b`` in the user's ids, ``step`` edges at a time."""
    e = graph.edges
    for a in range(0, e.num_edges, step):
        b = min(e.num_edges, a + step)
        s, d = e.src[a:b], e.dst[a:b]
        if graph.labels is not None:
            s, d = graph.labels[s], graph.labels[d]
        yield a, b, np.asarray(s, dtype=np.int64), np.asarray(d, dtype=np.int64)


def write_records(f, graph, buf: np.ndarray, fill, report) -> None:
    """Write a GraphFile's edges to ``f``, one row of ``buf`` an edge, ``len(buf)`` at a time:
    ``fill(block, src, dst)`` encodes the user's ids into the rows ``block``."""
    m = graph.num_edges
    for a, b, s, d in user_chunks(graph, buf.shape[0]):
        block = buf[:b - a]
        fill(block, s, d)
        f.write(memoryview(block).cast("B"))
        report("writing", b, m)
