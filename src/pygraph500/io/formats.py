"""Users' graphs in and out: edge-list file formats, read in chunks, written atomically.

=========  ==========================================  =====================================
format     what it is                                   file names
=========  ==========================================  =====================================
snap       text, one ``source target [weight]`` a line  .txt .tsv .el .snap .wel (+ .gz)
           (SNAP style: ``#`` and ``%`` comments,
           blank-separated, columns after the third
           ignored)
mtx        Matrix Market coordinate (scipy.io)          .mtx .mm (+ .gz, .bz2)
g500       Graph500 binary: little-endian int64 pairs   .bin .edges .g500
           ``(v0, v1)``, as ``graph500 generate``
           writes them
packed48   the reference's packed 48-bit tuples: three  .p48 .packed48
           little-endian uint32 ``v0_low, v1_low,
           high`` (``high`` = bits 32..47 of v0, then
           of v1, sign-extended on reading)
npy        NumPy (M, 2) integer array                   .npy
npz        NumPy archive: ``src``, ``dst`` (or          .npz
           ``edges`` (M, 2)), optional ``weight``,
           ``num_vertices``, ``labels``, ``directed``
=========  ==========================================  =====================================

A name with another suffix is recognised by its first bytes (Matrix Market banner, NumPy
magic, zip, text without NUL bytes; anything else is read as g500).

Reading. Text, g500, packed48 and npy files are read in chunks (``CHUNK_BYTES``) into arrays
allocated once at their final size (text files are scanned once for their line count first),
so a read needs the edge arrays plus one chunk: never twice the file. ``progress(phase, done,
total)`` is told the bytes read. Matrix Market goes through ``scipy.io.mmread`` (whole file,
parsed in parallel by scipy) and npz through ``numpy.load``.

Vertex ids. Ids are non-negative integers. With ``num_vertices`` given they must be below it.
Otherwise ``relabel`` decides: ``"auto"`` (default) keeps them when the id range is at most
twice the number of endpoints (``max id + 1 <= 4 M + 1024``: a dense array over the ids costs
no more than the edges) and else compacts them to ``0..N-1`` in increasing id order; ``True``
always compacts, ``False`` never does. A compacted graph keeps ``labels`` (the user's id of each
vertex) and every result is reported through it, so users see their own ids. Matrix Market
vertices are the row/column numbers minus one (0-based, as ``scipy.io.mmread`` gives them).

Bad input raises InputError naming the file, the line (text) or byte offset (binary) and the
offending value, before anything is written; writes go through ``atomic_writer``.
"""
from __future__ import annotations

import gzip
import os
import re
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..graph.relabel import compact_ids, lookup_labels
from ..graph.types import EdgeList
from . import _text
from .files import atomic_writer, check_writable

__all__ = ["GraphFile", "FORMATS", "read_graph", "write_graph", "convert_graph",
           "detect_format", "CHUNK_BYTES"]

FORMATS = ("snap", "mtx", "g500", "packed48", "npy", "npz")
_SUFFIXES = {
    ".txt": "snap", ".tsv": "snap", ".el": "snap", ".snap": "snap", ".wel": "snap",
    ".mtx": "mtx", ".mm": "mtx",
    ".bin": "g500", ".edges": "g500", ".g500": "g500",
    ".p48": "packed48", ".packed48": "packed48",
    ".npy": "npy", ".npz": "npz",
}
_WEIGHTED = ("snap", "mtx", "npz")      # formats that can hold a weight per edge
_DIRECTED = ("snap", "mtx", "npz")      # formats that record directedness
CHUNK_BYTES = 32 << 20                  # bytes read (or written) per step
_SLOW_CAP = 4096                        # weights left to Python's float() per parser call


@dataclass(frozen=True)
class GraphFile:
    """A user's edge list as read from (or to be written to) a file.

    ``edges``: the EdgeList over vertex numbers ``0..N-1`` (what kernel 1 and the searches
    take). ``labels``: the user's id of each vertex (int64, sorted) when the ids were
    compacted, else None (vertex number == user id). ``weights``: float64 per edge, or None.
    ``directed``: what the file said (SNAP header, Matrix Market symmetry, npz flag); the
    Graph500 searches always follow every edge both ways. ``path`` and ``format``: where it
    came from.

    >>> import numpy as np
    >>> from pygraph500 import EdgeList
    >>> g = GraphFile(EdgeList(np.array([0, 1]), np.array([1, 2]), 3), labels=np.array([7, 40, 10**12]))
    >>> g.vertex(40), g.user_ids(np.array([2, -1])).tolist()
    (1, [1000000000000, -1])
    """

    edges: EdgeList
    labels: np.ndarray | None = None
    weights: np.ndarray | None = None
    directed: bool = False
    path: str = ""
    format: str = ""

    @property
    def num_vertices(self) -> int:
        return self.edges.num_vertices

    @property
    def num_edges(self) -> int:
        return self.edges.num_edges

    @property
    def relabelled(self) -> bool:
        return self.labels is not None

    def user_ids(self, vertices) -> np.ndarray:
        """The user's ids of ``vertices`` (vertex numbers); -1 stays -1."""
        v = np.asarray(vertices, dtype=np.int64)
        if self.labels is None:
            return v.copy()
        return np.where(v < 0, -1, self.labels[np.maximum(v, 0)])

    def vertex(self, user_id: int) -> int:
        """The vertex number of the user's id; InputError when it names no vertex."""
        where = f" of {self.path}" if self.path else ""
        try:
            uid = int(user_id)
        except (TypeError, ValueError):
            raise InputError(f"vertex id {user_id!r} is not an integer") from None
        if self.labels is None:
            if not 0 <= uid < self.num_vertices:
                raise InputError(f"vertex {uid} is not a vertex{where} (ids are 0..{self.num_vertices - 1})")
            return uid
        v = int(lookup_labels(self.labels, np.array([uid]))[0])
        if v < 0:
            raise InputError(f"vertex {uid} is not a vertex{where} (it is on no edge)")
        return v


# ---- format detection ---------------------------------------------------------------------

def _suffix(path: str) -> tuple[str, bool]:
    """(lower-case suffix without a compression suffix, compressed?)."""
    name = os.path.basename(path).lower()
    compressed = name.endswith((".gz", ".bz2"))
    if compressed:
        name = name.rsplit(".", 1)[0]
    return os.path.splitext(name)[1], compressed


def detect_format(path: str, *, for_writing: bool = False) -> str:
    """The format of ``path`` by its suffix; when reading a name without a known suffix, by
    its first bytes. InputError when a name to be written has no known suffix."""
    suffix, compressed = _suffix(path)
    fmt = _SUFFIXES.get(suffix)
    if fmt is not None:
        if compressed and fmt not in ("snap", "mtx"):
            raise InputError(f"{path}: only text and Matrix Market files may be compressed")
        if compressed and for_writing:
            raise InputError(f"{path}: compressed output is not supported; write {path.rsplit('.', 1)[0]}")
        return fmt
    if for_writing:
        raise InputError(f"cannot tell the format of {path} from its name: use one of "
                         f"{', '.join(sorted(_SUFFIXES))} or --to {{{','.join(FORMATS)}}}")
    _check_readable(path)
    with open(path, "rb") as f:
        head = f.read(4096)
    if compressed:
        return "snap"
    if head.startswith(b"%%MatrixMarket"):
        return "mtx"
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    if head.startswith(b"PK\x03\x04"):
        return "npz"
    return "g500" if b"\x00" in head else "snap"


def _check_readable(path: str) -> int:
    """The file's size; InputError when it is missing, a directory or unreadable."""
    if os.path.isdir(path):
        raise InputError(f"cannot read {path}: it is a directory")
    try:
        size = os.path.getsize(path)
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return size


# ---- reading ------------------------------------------------------------------------------

def read_graph(path: str, *, format: str | None = None, num_vertices: int | None = None,
               relabel="auto", directed: bool | None = None, progress=None) -> GraphFile:
    """Read a user's edge list (any of FORMATS) into a GraphFile.

    ``format``: one of FORMATS (default: from the name, see ``detect_format``).
    ``num_vertices``: the vertex count (ids must be below it; no relabelling). ``relabel``:
    "auto", True or False (see the module docstring). ``directed``: overrides what the file
    says. ``progress(phase, done, total)``: told the bytes read.

    >>> g = read_graph("karate.txt")                         # doctest: +SKIP
    >>> g.num_vertices, g.num_edges, g.relabelled            # doctest: +SKIP
    (34, 78, False)
    """
    if format is None:
        format = detect_format(path)
    elif format not in FORMATS:
        raise InputError(f"unknown format {format!r}; known: {', '.join(FORMATS)}")
    if relabel not in ("auto", True, False):
        raise InputError(f"relabel must be 'auto', True or False, got {relabel!r}")
    if num_vertices is not None:
        if int(num_vertices) < 1:
            raise InputError(f"--num-vertices must be >= 1, got {num_vertices}")
        if relabel is True:
            raise InputError("relabelling and a given vertex count exclude each other")
        num_vertices = int(num_vertices)
    size = _check_readable(path)
    if size == 0:
        raise InputError(f"{path}: empty file (no edges)")
    report = _in_mib(progress) if progress else (lambda *a: None)
    limit = -1 if num_vertices is None else num_vertices
    reader = {"snap": _read_text, "mtx": _read_mtx, "g500": _read_g500,
              "packed48": _read_packed48, "npy": _read_npy, "npz": _read_npz}[format]
    src, dst, weights, file_directed, n_hint, labels = reader(path, size, limit, report)
    if src.shape[0] == 0:
        raise InputError(f"{path}: no edges")
    hi = int(max(src.max(), dst.max())) + 1
    if labels is not None:  # an npz written by write_graph: already compact
        n = max(hi, n_hint or 0)
    elif num_vertices is not None:
        n = num_vertices
    else:
        n = max(hi, n_hint or 0)
        if relabel is True or (relabel == "auto" and n > 4 * src.shape[0] + 1024):
            report("relabelling", 0, 1)
            labels = compact_ids(src, dst, hi)
            n = int(labels.shape[0])
            report("relabelling", 1, 1)
    if directed is None:
        directed = bool(file_directed)
    return GraphFile(EdgeList(src, dst, n), labels, weights, bool(directed), path, format)


def _in_mib(progress):
    """``progress`` told bytes, shown in whole MiB for files of a MiB or more ("reading
    (MiB): 96/222"); the total is reached only at the end. Other phases pass through."""
    def report(phase, done, total):
        if phase not in ("reading", "scanning") or total <= 1:
            progress(phase, done, total)
        elif total >= 1 << 20:
            whole = -(-total >> 20)
            progress(f"{phase} (MiB)", whole if done >= total else min(done >> 20, whole - 1), whole)
        else:
            progress(f"{phase} (bytes)", done, total)
    return report


def _read_into(f, view: memoryview) -> int:
    """Fill ``view`` from ``f`` (short reads repeated); the number of bytes read."""
    got = 0
    while got < len(view):
        n = f.readinto(view[got:])
        if not n:
            break
        got += n
    return got


def _check_ids(path, values, base_offset, limit, itemsize=8, what="vertex id"):
    """InputError for the first negative id (or id >= limit) in ``values``, by byte offset."""
    bad = values < 0
    if limit >= 0:
        bad |= values >= limit
    if bad.any():
        j = int(np.argmax(bad))
        x = int(values.reshape(-1)[j])
        off = base_offset + j * itemsize
        if x < 0:
            raise InputError(f"{path}: byte offset {off}: negative {what} {x}")
        raise InputError(f"{path}: byte offset {off}: {what} {x} is not below the vertex count {limit}")


def _read_g500(path, size, limit, report):
    if size % 8:
        raise InputError(f"{path}: truncated: {size} bytes is not a whole number of int64 values "
                         f"(the last value, at byte offset {size - size % 8}, has {size % 8} of 8 bytes)")
    if size % 16:
        raise InputError(f"{path}: odd number of int64 values ({size // 8}): the last one, at byte "
                         f"offset {size - 8}, has no partner (a g500 file holds (v0, v1) pairs)")
    m = size // 16
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    step = max(1, CHUNK_BYTES // 16)
    buf = np.empty((min(step, m), 2), dtype="<i8")
    done = 0
    with open(path, "rb") as f:
        while done < m:
            k = min(step, m - done)
            view = buf[:k]
            got = _read_into(f, memoryview(view).cast("B"))
            if got != 16 * k:
                raise InputError(f"{path}: truncated at byte offset {16 * done + got} (file shrank while read)")
            _check_ids(path, view, 16 * done, limit)
            src[done:done + k] = view[:, 0]
            dst[done:done + k] = view[:, 1]
            done += k
            report("reading", 16 * done, size)
    return src, dst, None, False, None, None


def _read_packed48(path, size, limit, report):
    if size % 12:
        raise InputError(f"{path}: truncated: {size} bytes is not a whole number of 12-byte packed "
                         f"edges (the last edge, at byte offset {size - size % 12}, has "
                         f"{size % 12} of 12 bytes)")
    m = size // 12
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    step = max(1, CHUNK_BYTES // 48)  # a quarter chunk: decoding makes a few int64 temporaries
    buf = np.empty((min(step, m), 3), dtype="<u4")
    done = 0
    with open(path, "rb") as f:
        while done < m:
            k = min(step, m - done)
            w = buf[:k]
            got = _read_into(f, memoryview(w).cast("B"))
            if got != 12 * k:
                raise InputError(f"{path}: truncated at byte offset {12 * done + got} (file shrank while read)")
            hi = w[:, 2]
            s = src[done:done + k]
            d = dst[done:done + k]
            # the reference's get_v0_from_edge / get_v1_from_edge: 16 high bits sign-extended
            np.left_shift((hi & 0xFFFF).astype(np.uint16).view(np.int16).astype(np.int64), 32, out=s)
            s |= w[:, 0]
            np.left_shift((hi >> 16).astype(np.uint16).view(np.int16).astype(np.int64), 32, out=d)
            d |= w[:, 1]
            for col, arr in ((0, s), (1, d)):
                bad = arr < 0
                if limit >= 0:
                    bad |= arr >= limit
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
            done += k
            report("reading", 12 * done, size)
    return src, dst, None, False, None, None


def _read_npy(path, size, limit, report):
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError, EOFError) as exc:
        raise InputError(f"{path}: not a NumPy .npy array: {exc}") from None
    if arr.ndim != 2 or arr.shape[1] < 2 or not np.issubdtype(arr.dtype, np.integer):
        raise InputError(f"{path}: a .npy edge list is an (M, 2) integer array, got "
                         f"{arr.dtype}{list(arr.shape)}")
    m = arr.shape[0]
    src = np.empty(m, dtype=np.int64)
    dst = np.empty(m, dtype=np.int64)
    step = max(1, CHUNK_BYTES // (arr.shape[1] * arr.dtype.itemsize))
    header = size - m * arr.shape[1] * arr.dtype.itemsize
    for a in range(0, m, step):
        b = min(m, a + step)
        part = np.asarray(arr[a:b, :2])
        bad = part < 0
        if limit >= 0:
            bad |= part >= limit
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


def _read_npz(path, size, limit, report):
    try:
        with np.load(path, allow_pickle=False) as z:
            keys = set(z.files)
            if {"src", "dst"} <= keys:
                src = np.asarray(z["src"])
                dst = np.asarray(z["dst"])
            elif "edges" in keys:
                e = np.asarray(z["edges"])
                if e.ndim != 2 or e.shape[1] < 2:
                    raise InputError(f"{path}: 'edges' must be an (M, 2) array, got shape {list(e.shape)}")
                src, dst = e[:, 0], e[:, 1]
            else:
                raise InputError(f"{path}: an .npz edge list holds 'src' and 'dst' (or 'edges'); "
                                 f"found {sorted(keys)}")
            weights = z["weight"] if "weight" in keys else (z["weights"] if "weights" in keys else None)
            n_hint = int(z["num_vertices"]) if "num_vertices" in keys else None
            labels = np.asarray(z["labels"]) if "labels" in keys else None
            directed = bool(z["directed"]) if "directed" in keys else False
    except InputError:
        raise
    except (ValueError, OSError, EOFError, KeyError) as exc:
        raise InputError(f"{path}: not a NumPy .npz archive of an edge list: {exc}") from None
    report("reading", size, size)
    for name, a in (("src", src), ("dst", dst)):
        if a.ndim != 1 or not np.issubdtype(a.dtype, np.integer):
            raise InputError(f"{path}: {name!r} must be a 1-D integer array, got {a.dtype}{list(a.shape)}")
    if src.shape != dst.shape:
        raise InputError(f"{path}: 'src' and 'dst' differ in length ({src.size} and {dst.size})")
    src = src.astype(np.int64, copy=False)
    dst = dst.astype(np.int64, copy=False)
    for name, a in (("src", src), ("dst", dst)):
        bad = a < 0
        if limit >= 0:
            bad |= a >= limit
        if labels is not None:
            bad |= a >= labels.shape[0]
        if bad.any():
            j = int(np.argmax(bad))
            raise InputError(f"{path}: {name}[{j}] = {int(a[j])} is not a valid vertex number")
    if weights is not None:
        weights = np.asarray(weights)
        if weights.shape != src.shape or not np.issubdtype(weights.dtype, np.number):
            raise InputError(f"{path}: 'weight' must be numbers, one per edge")
        weights = weights.astype(np.float64, copy=False)
    if labels is not None:
        if limit >= 0:
            raise InputError(f"{path}: holds relabelled vertices ('labels'); --num-vertices does not apply")
        labels = labels.astype(np.int64, copy=False)
        if labels.ndim != 1 or (labels.size > 1 and np.any(np.diff(labels) <= 0)) or \
                (labels.size and labels[0] < 0):
            raise InputError(f"{path}: 'labels' must be increasing non-negative ids")
        n_hint = labels.shape[0]
    return src, dst, weights, directed, n_hint, labels


def _read_mtx(path, size, limit, report):
    import scipy.io

    try:
        rows, cols, _nnz, layout, field, symmetry = scipy.io.mminfo(path)
        if field == "complex":
            raise InputError(f"{path}: complex Matrix Market values are not edge weights")
        a = scipy.io.mmread(path)
    except InputError:
        raise
    except (ValueError, OSError, EOFError, IndexError, TypeError, OverflowError) as exc:
        raise InputError(f"{path}: not a readable Matrix Market file: {exc}") from None
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
    n = max(int(rows), int(cols))
    if limit >= 0 and n > limit:
        bad = np.flatnonzero((r >= limit) | (c >= limit))
        if bad.size:
            j = int(bad[0])
            raise InputError(f"{path}: entry ({r[j] + 1}, {c[j] + 1}) names vertex "
                             f"{max(r[j], c[j])}, not below the vertex count {limit}")
        n = limit
    return r, c, w, directed, n, None


# -- text --

def _open_text(path: str):
    """(binary stream, raw file for progress, compressed?)."""
    raw = open(path, "rb")
    if path.lower().endswith(".gz"):
        return gzip.GzipFile(fileobj=raw, mode="rb"), raw, True
    if path.lower().endswith(".bz2"):
        import bz2

        return bz2.BZ2File(raw, "rb"), raw, True
    return raw, raw, False


_DIRECTED_RE = re.compile(rb"^\s*[#%].*?\b(undirected|directed|asym|sym)\b", re.I | re.M)


def _peek_text(path: str, head: bytes) -> tuple[int, bool]:
    """(columns to keep: 2 or 3, directed?) from the first data line and the header comments."""
    ncols = 2
    header = []
    for raw_line in head.split(b"\n")[:-1] if b"\n" in head else [head]:
        text = raw_line.strip()
        if not text:
            continue
        if text[:1] in (b"#", b"%"):
            header.append(raw_line)
            continue
        ncols = 3 if len(text.split()) >= 3 else 2
        break
    directed = False
    m = _DIRECTED_RE.search(b"\n".join(header))
    if m:
        directed = m.group(1).lower() in (b"directed", b"asym")
    return ncols, directed


def _token(buf, b, e) -> str:
    text = bytes(buf[b:e][:60]).decode("utf-8", "replace")
    return text + ("..." if e - b > 60 else "")


def _text_error(path, status, line, offset, token, extra, limit, ncols):
    where = f"{path}:{line} (byte offset {offset})"
    if status == _text.BAD_INT:
        return InputError(f"{where}: not an integer vertex id: {token!r}")
    if status == _text.NEGATIVE:
        return InputError(f"{where}: negative vertex id: {token}")
    if status == _text.ONE_COLUMN:
        return InputError(f"{where}: one column ({token!r}); expected 'source target [weight]'")
    if status == _text.COLUMNS:
        first = "three or more" if ncols == 3 else "two"
        return InputError(f"{where}: {extra} columns, but the first data line has {first} "
                          f"(a weight column must be on every line or none)")
    if status == _text.TOO_LARGE:
        return InputError(f"{where}: vertex id {token} is not below the vertex count {limit}")
    return InputError(f"{where}: vertex id {token} is larger than 2**63 - 1")


def _read_text(path, size, limit, report):
    # pass 1 (plain files): the line count bounds the edge count, so the arrays are
    # allocated once; compressed files grow their arrays instead.
    stream, raw, compressed = _open_text(path)
    with stream:
        try:
            head = stream.read(1 << 16)
        except (OSError, EOFError) as exc:
            raise InputError(f"{path}: cannot decompress: {exc}") from None
    ncols, directed = _peek_text(path, head)
    cap = 0
    chunk = np.empty(CHUNK_BYTES, dtype=np.uint8)
    if not compressed:
        lines = 0
        with open(path, "rb") as f:
            while True:
                got = _read_into(f, memoryview(chunk))
                if not got:
                    break
                lines += int(_text.count_byte(chunk[:got], 10))
                report("scanning", f.tell(), size)
        cap = lines + 1
    src = np.empty(cap, dtype=np.int64)
    dst = np.empty(cap, dtype=np.int64)
    weight = np.empty(cap if ncols == 3 else 0, dtype=np.float64)
    slow = [np.empty(_SLOW_CAP, dtype=np.int64) for _ in range(4)]
    pos = line = 0
    offset = 0          # file offset of chunk[0]
    have = 0            # bytes carried over at the front of chunk
    stream, raw, compressed = _open_text(path)
    with stream:
        while True:
            try:
                got = _read_into(stream, memoryview(chunk)[have:])
            except (OSError, EOFError) as exc:
                raise InputError(f"{path}: cannot decompress: {exc}") from None
            total = have + got
            if total == 0:
                break
            eof = total < chunk.shape[0]  # _read_into stops short only at the end
            end = total if eof else int(_text.last_byte(chunk, total, 10)) + 1
            if end == 0:  # one line longer than the buffer: grow it
                bigger = np.empty(2 * chunk.shape[0], dtype=np.uint8)
                bigger[:total] = chunk[:total]
                chunk, have = bigger, total
                continue
            if compressed:  # make room for every line of this chunk
                need = pos + int(_text.count_byte(chunk[:end], 10)) + 1
                if need > src.shape[0]:
                    cap = max(need, int(src.shape[0] * 1.5))
                    for arr in (src, dst) + ((weight,) if ncols == 3 else ()):
                        arr.resize(cap, refcheck=False)
            start = 0
            while True:
                status, i, pos, line, nslow, tb, te, extra = _text.parse_lines(
                    chunk, start, end, src, dst, weight, pos, ncols, limit, _text._POW10,
                    slow[0], slow[1], slow[2], slow[3], line)
                for k in range(nslow):  # weights outside the compiled fast path
                    b, e = int(slow[1][k]), int(slow[2][k])
                    tok = bytes(chunk[b:e])
                    try:
                        value = float(tok)
                    except ValueError:
                        value = float("nan")
                    if value != value:
                        raise InputError(f"{path}:{int(slow[3][k])} (byte offset {offset + b}): "
                                         f"weight is not a number: {_token(chunk, b, e)!r}")
                    weight[int(slow[0][k])] = value
                if status == _text.SLOW_FULL:
                    start = i
                    continue
                if status != _text.OK:
                    raise _text_error(path, status, line, offset + tb, _token(chunk, tb, te),
                                      extra, limit, ncols)
                break
            rest = total - end
            if rest:
                chunk[:rest] = chunk[end:total].copy()
            offset += end
            have = rest
            report("reading", raw.tell() if compressed else offset, size)
            if eof:
                break
    for arr in (src, dst) + ((weight,) if ncols == 3 else ()):
        arr.resize(pos, refcheck=False)  # shrinks in place (realloc), no copy
    return src, dst, (weight if ncols == 3 else None), directed, None, None


# ---- writing ------------------------------------------------------------------------------

def write_graph(graph: GraphFile, path: str, *, format: str | None = None, progress=None) -> list[str]:
    """Write ``graph`` to ``path`` (atomically) in the user's ids; returns notes on anything
    the format cannot hold (weights, directedness), for the caller to show.

    Every format writes the user's ids (``labels`` applied), except npz, which stores the
    vertex numbers and ``labels`` so it reads back without relabelling.

    >>> g = read_graph("web-Google.txt")                     # doctest: +SKIP
    >>> write_graph(g, "web-Google.p48")                     # doctest: +SKIP
    []
    >>> write_graph(g, "web-Google.bin")  # a weighted graph would give a note  # doctest: +SKIP
    []
    """
    if format is None:
        format = detect_format(path, for_writing=True)
    elif format not in FORMATS:
        raise InputError(f"unknown format {format!r}; known: {', '.join(FORMATS)}")
    check_writable(path)
    report = progress or (lambda *a: None)
    notes = []
    if graph.weights is not None and format not in _WEIGHTED:
        notes.append(f"weights dropped: the {format} format has no weight column")
    if graph.directed and format not in _DIRECTED:
        notes.append(f"the {format} format holds undirected Graph500 tuples: edge directions "
                     "are kept as (v0, v1) order only")
    writer = {"snap": _write_text, "mtx": _write_mtx, "g500": _write_g500,
              "packed48": _write_packed48, "npy": _write_npy, "npz": _write_npz}[format]
    writer(graph, path, report)
    return notes


def _user_chunks(graph: GraphFile, step: int):
    """(a, b, src, dst) in the user's ids, ``step`` edges at a time."""
    e = graph.edges
    for a in range(0, e.num_edges, step):
        b = min(e.num_edges, a + step)
        s, d = e.src[a:b], e.dst[a:b]
        if graph.labels is not None:
            s, d = graph.labels[s], graph.labels[d]
        yield a, b, np.asarray(s, dtype=np.int64), np.asarray(d, dtype=np.int64)


def _write_g500(graph, path, report):
    m = graph.num_edges
    step = max(1, CHUNK_BYTES // 16)
    buf = np.empty((min(step, max(m, 1)), 2), dtype="<i8")
    with atomic_writer(path) as f:
        for a, b, s, d in _user_chunks(graph, step):
            view = buf[:b - a]
            view[:, 0] = s
            view[:, 1] = d
            f.write(memoryview(view).cast("B"))
            report("writing", b, m)


def _write_packed48(graph, path, report):
    m = graph.num_edges
    top = int(graph.labels[-1]) if graph.labels is not None else graph.num_vertices - 1
    if top >= 1 << 47:
        raise InputError(f"cannot write {path}: vertex id {top} does not fit the packed 48-bit "
                         f"format (ids below 2**47)")
    step = max(1, CHUNK_BYTES // 12)
    buf = np.empty((min(step, max(m, 1)), 3), dtype="<u4")
    with atomic_writer(path) as f:
        for a, b, s, d in _user_chunks(graph, step):
            w = buf[:b - a]
            w[:, 0] = s & 0xFFFFFFFF
            w[:, 1] = d & 0xFFFFFFFF
            w[:, 2] = ((s >> 32) & 0xFFFF) | (((d >> 32) & 0xFFFF) << 16)
            f.write(memoryview(w).cast("B"))
            report("writing", b, m)


def _write_npy(graph, path, report):
    m = graph.num_edges
    step = max(1, CHUNK_BYTES // 16)
    buf = np.empty((min(step, max(m, 1)), 2), dtype="<i8")
    with atomic_writer(path) as f:
        np.lib.format.write_array_header_1_0(
            f, {"descr": "<i8", "fortran_order": False, "shape": (m, 2)})
        for a, b, s, d in _user_chunks(graph, step):
            view = buf[:b - a]
            view[:, 0] = s
            view[:, 1] = d
            f.write(memoryview(view).cast("B"))
            report("writing", b, m)


def _write_npz(graph, path, report):
    arrays = {"src": graph.edges.src, "dst": graph.edges.dst,
              "num_vertices": np.int64(graph.num_vertices), "directed": np.bool_(graph.directed)}
    if graph.labels is not None:
        arrays["labels"] = graph.labels
    if graph.weights is not None:
        arrays["weight"] = graph.weights
    with atomic_writer(path) as f:
        np.savez(f, **arrays)
    report("writing", 1, 1)


def _write_mtx(graph, path, report):
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
        graph.weights.astype(np.int64) if field == "integer" else graph.weights)
    a = sp.coo_matrix((data, (s, d)), shape=(n, n))
    comment = f"pygraph500: {e.num_edges} edges" + (f", from {graph.path}" if graph.path else "")
    with atomic_writer(path) as f:
        scipy.io.mmwrite(f, a, comment=comment, field=field,
                         symmetry="general" if graph.directed else "symmetric")
    report("writing", 1, 1)


def _write_text(graph, path, report):
    e = graph.edges
    m = e.num_edges
    w = graph.weights
    integral = w is not None and bool(np.all(np.isfinite(w)) and np.all(w == np.round(w))
                                      and np.abs(w).max(initial=0) < 2**53)
    kind = "Directed" if graph.directed else "Undirected"
    top = int(graph.labels[-1]) if graph.labels is not None else graph.num_vertices - 1
    header = (f"# {kind} graph, written by pygraph500" + (f" from {graph.path}" if graph.path else "")
              + f"\n# Nodes: {graph.num_vertices} Edges: {m} (ids up to {top})\n"
              + "# FromNodeId\tToNodeId" + ("\tWeight" if w is not None else "") + "\n")
    step = 1 << 18
    out = np.empty(step * (3 if integral else 2) * 21, dtype=np.uint8)
    with atomic_writer(path) as f:
        f.write(header.encode())
        for a, b, s, d in _user_chunks(graph, step):
            if w is None or integral:
                cols = np.empty((3 if integral else 2, b - a), dtype=np.int64)
                cols[0] = s
                cols[1] = d
                if integral:
                    cols[2] = w[a:b]
                k = _text.format_rows(cols, 9, out)
                f.write(memoryview(out[:k]))
            else:  # fractional weights: shortest round-trip repr, through Python
                f.write("".join(f"{x}\t{y}\t{z!r}\n" for x, y, z in
                                zip(s.tolist(), d.tolist(), w[a:b].tolist())).encode())
            report("writing", b, m)


def convert_graph(src_path: str, dst_path: str, *, in_format: str | None = None,
                  out_format: str | None = None, num_vertices: int | None = None,
                  directed: bool | None = None, progress=None) -> tuple[GraphFile, list[str]]:
    """Read ``src_path`` and write it to ``dst_path`` (formats from the names unless given).

    Ids are the user's on both sides. Returns the graph read and the notes of ``write_graph``.

    >>> graph, notes = convert_graph("ca-GrQc.txt.gz", "ca-GrQc.mtx")   # doctest: +SKIP
    >>> graph.num_edges, notes                                        # doctest: +SKIP
    (28980, [])
    """
    out_fmt = out_format or detect_format(dst_path, for_writing=True)
    if out_fmt not in FORMATS:
        raise InputError(f"unknown format {out_fmt!r}; known: {', '.join(FORMATS)}")
    check_writable(dst_path)
    if os.path.abspath(src_path) == os.path.abspath(dst_path):
        raise InputError(f"convert: input and output are the same file ({src_path})")
    graph = read_graph(src_path, format=in_format, num_vertices=num_vertices, directed=directed,
                       progress=progress)
    notes = write_graph(graph, dst_path, format=out_fmt, progress=progress)
    return graph, notes
