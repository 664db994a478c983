"""Matrix Market coordinate files (also compressed) through ``scipy.io``: the whole file at
once, parsed in parallel by scipy. Vertices are the row/column numbers minus one;
a symmetric file is an undirected graph, each edge stored once (lower triangle)."""
from __future__ import annotations

import io

import numpy as np

from ..errors import InputError, plain_text
from .file_access import COMPRESSED_SUFFIXES
from .outputs import atomic_writer
from .weight_files import NO_WEIGHTS_HINT, float32_weights

__all__ = ["read_mtx", "write_mtx"]


class _NewlineTerminated(io.RawIOBase):
    """A stream that ends with a newline. scipy's reader (fast_matrix_market) reads past the
    end of a file whose last token stops inside a number's exponent ("9E", a truncated
    file) and crashes the process (SIGSEGV); a final newline keeps it inside."""

    def __init__(self, stream):
        self._stream = stream
        self._last = b"\n"
        self._done = False

    def readable(self):
        return True

    def close(self):
        self._stream.close()
        super().close()

    def readinto(self, buf):
        got = self._stream.readinto(buf)
        if got:
            self._last = bytes(buf[got - 1:got])
            return got
        if self._done or self._last == b"\n" or not len(buf):
            return 0
        self._done = True
        buf[0:1] = b"\n"
        return 1


def _open(path):
    lower = path.lower()
    if lower.endswith(".gz"):
        import gzip

        return gzip.open(path, "rb")
    if lower.endswith(".bz2"):
        import bz2

        return bz2.open(path, "rb")
    return open(path, "rb")


def _source(path):
    """What ``scipy.io.mmread`` may read: the path itself when the (decompressed) file ends
    with a newline, else a stream that adds one. InputError for a NUL byte, which is in no
    text file and which scipy's reader also runs past."""
    last = b"\n"
    offset = 0
    with _open(path) as f:
        while True:
            block = f.read(1 << 24)
            if not block:
                break
            nul = block.find(b"\0")
            if nul >= 0:
                raise InputError(f"{path}: byte {offset + nul} is NUL: not a Matrix Market "
                                 f"text file")
            offset += len(block)
            last = block[-1:]
    if last == b"\n" and not path.lower().endswith(COMPRESSED_SUFFIXES):
        return path
    return io.BufferedReader(_NewlineTerminated(_open(path)))


def read_mtx(path, size, limit, report, weights=False):
    """(src, dst, weights, directed, n_hint, labels) of a Matrix Market file. ``weights``:
    the values, checked, as float32 (a symmetric file's entry stands for both directions)."""
    import scipy.io

    try:
        rows, cols, _nnz, layout, field, symmetry = scipy.io.mminfo(path)
        if field == "complex":
            raise InputError(f"{path}: complex Matrix Market values are not edge weights")
        if weights and field == "pattern":
            raise InputError(f"{path}: a pattern Matrix Market file has no weights; {NO_WEIGHTS_HINT}")
        source = _source(path)
        try:
            a = scipy.io.mmread(source)
        finally:
            if source is not path:
                source.close()
    except InputError:
        raise
    except (ValueError, OSError, EOFError, IndexError, TypeError, OverflowError) as exc:
        raise InputError(f"{path}: not a readable Matrix Market file: "
                         f"{plain_text(str(exc))}") from None
    report("reading", size, size)
    import scipy.sparse as sp

    if not sp.issparse(a):
        a = sp.coo_matrix(np.asarray(a))
    a = a.tocoo()
    r = a.row.astype(np.int64)
    c = a.col.astype(np.int64)
    w = None if field == "pattern" else np.asarray(a.data, dtype=np.float64)
    directed = symmetry == "general"
    if not directed:  # scipy mirrored the stored triangle; keep each stored entry once
        keep = r >= c
        r, c = r[keep], c[keep]
        if w is not None:
            w = w[keep]
    if weights:
        w = float32_weights(w, path, lambda j: f"entry ({r[j] + 1}, {c[j] + 1})")
    n = max(int(rows), int(cols))
    if limit >= 0 and n > limit:
        bad = np.flatnonzero((r >= limit) | (c >= limit))
        if bad.size:
            j = int(bad[0])
            raise InputError(f"{path}: entry ({r[j] + 1}, {c[j] + 1}) names vertex "
                             f"{max(r[j], c[j])}, not below the vertex count {limit}")
        n = limit
    return r, c, w, directed, n, None


def write_mtx(graph, path, report) -> None:
    """Write a GraphFile as Matrix Market (atomically): pattern, integer or real values,
    symmetric unless directed."""
    import scipy.io
    import scipy.sparse as sp

    e = graph.edges
    s, d = e.src, e.dst
    n = graph.num_vertices
    if graph.labels is not None:
        s, d = graph.labels[s], graph.labels[d]
        n = int(graph.labels[-1]) + 1
    if not graph.directed:  # symmetric: the lower triangle holds each edge once
        s, d = np.maximum(s, d), np.minimum(s, d)
    field = "pattern" if graph.weights is None else (
        "integer" if np.all(np.isfinite(graph.weights)) and np.all(graph.weights == np.round(graph.weights))
        and np.abs(graph.weights).max(initial=0) < 2**53 else "real")
    data = np.ones(e.num_edges, dtype=np.int8) if graph.weights is None else (
        graph.weights.astype(np.int64) if field == "integer"
        else np.asarray(graph.weights, dtype=np.float64))  # float32 written exactly, as float64
    a = sp.coo_matrix((data, (s, d)), shape=(n, n))
    comment = f"pygraph500: {e.num_edges} edges" + (f", from {graph.path}" if graph.path else "")
    with atomic_writer(path) as f:
        scipy.io.mmwrite(f, a, comment=comment, field=field,
                         symmetry="general" if graph.directed else "symmetric")
    report("writing", 1, 1)
