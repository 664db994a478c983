"""Text edge lists, SNAP style (also compressed): one ``source target [weight]`` a line,
blank-separated; ``#`` and ``%`` lines are comments, columns after the third are ignored,
and a header comment saying (un)directed sets directedness. Kernel 3's weights
(``weights=True``) are the third column of every line, float32, checked line by line.

A plain file is scanned once for its line count, so the edge arrays are allocated once at
their final size; a compressed one grows them as chunks come. The compiled kernels of
``text_kernels`` parse and format; Python only hands over byte chunks and turns the few
weights outside the fast path into floats.

The CSV format (``csv_text``) is read by the same loop and kernel: a ``TextLayout`` says how
lines split into columns (SNAP's, or one a CSV file's header and first data line decide).
"""
from __future__ import annotations

import gzip
import re
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, excerpt
from . import chunked_io, text_kernels
from .file_access import COMPRESSED_SUFFIXES
from .outputs import atomic_writer
from .weight_files import weight_problem

__all__ = ["TextLayout", "HEAD_BYTES", "read_head", "read_snap", "write_snap"]

_SLOW_CAP = 4096                        # weights left to Python's float() per parser call
HEAD_BYTES = 1 << 16                    # what is read first to tell a file's layout


@dataclass(frozen=True)
class TextLayout:
    """How a text edge list's lines split into columns: what the compiled parser is told.
    SNAP's is the default; ``csv_text`` makes one from a CSV file's header and first line."""

    sep: int = 10                   # the byte between columns; 10 (newline): blanks (SNAP)
    roles: tuple[int, ...] = (text_kernels.SOURCE, text_kernels.TARGET)  # what column j holds
    width: int = 0                  # columns on every data line; 0: SNAP's rule (2, or 3+)
    skip: int = 0                   # bytes before the data: a byte order mark, a header line
    skip_lines: int = 0             # the lines those bytes end
    directed: bool = False
    expected: str = "'source target [weight]'"  # a data line, as the messages describe it

    @property
    def weighted(self) -> bool:
        return text_kernels.WEIGHT in self.roles


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


def read_head(path: str) -> bytes:
    """The first HEAD_BYTES of a text file (decompressed): where its layout is told."""
    stream, raw, compressed = _open_text(path)
    with stream:
        try:
            return stream.read(HEAD_BYTES)
        except (OSError, EOFError) as exc:
            raise InputError(f"{path}: cannot decompress: {exc}") from None


def _peek_text(head: bytes, weights: bool) -> TextLayout:
    """SNAP's layout: weights kept when the first data line has a third column (or
    ``weights``); directed as the header comments say."""
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
    kept = (text_kernels.SOURCE, text_kernels.TARGET, text_kernels.WEIGHT)
    return TextLayout(roles=kept if weights or ncols == 3 else kept[:2], directed=directed)


def _token(buf, b, e) -> str:
    """The file's bytes ``buf[b:e]`` as a message quotes them (``excerpt``: never raw)."""
    return excerpt(buf[b:e], 60)


def _text_error(path, status, line, offset, token, extra, limit, layout, weights, first):
    """The InputError of the parser's ``status``: file, line, byte offset and the token
    (``first``: on the first data line, where a SNAP file may have a CSV header)."""
    where = f"{path}:{line} (byte offset {offset})"
    if status == text_kernels.COLUMNS and layout.width:
        return InputError(f"{where}: {extra} columns; expected {layout.expected}")
    if status == text_kernels.BAD_INT and token == "''":
        return InputError(f"{where}: empty field where a vertex id belongs; expected {layout.expected}")
    if status == text_kernels.COLUMNS and weights:
        return InputError(f"{where}: no weight (third column); reading weights needs one on every "
                          "line (or --unit-weights)")
    if status == text_kernels.BAD_INT:
        hint = ("; a header line of column names? --format csv reads those"
                if first and not layout.width else "")
        return InputError(f"{where}: not an integer vertex id: {token}{hint}")
    if status == text_kernels.NEGATIVE:
        return InputError(f"{where}: negative vertex id: {token}")
    if status == text_kernels.ONE_COLUMN:
        return InputError(f"{where}: one column ({token}); expected {layout.expected}")
    if status == text_kernels.COLUMNS:
        first = "three or more" if layout.weighted else "two"
        return InputError(f"{where}: {extra} columns, but the first data line has {first} "
                          f"(a weight column must be on every line or none)")
    if status == text_kernels.TOO_LARGE:
        return InputError(f"{where}: vertex id {token} is not below the vertex count {limit}")
    return InputError(f"{where}: vertex id {token} is larger than 2**63 - 1")


def read_snap(path, size, limit, report, weights=False, *, layout: TextLayout | None = None):
    """(src, dst, weights, directed, n_hint, labels) of a text edge list, read in chunks.
    ``weights``: every line must have a weight column, checked and kept as float32
    (InputError naming the line otherwise); else the first data line decides (float64).
    ``layout``: how lines split (default: SNAP's, told by the file's first lines)."""
    if layout is None:
        layout = _peek_text(read_head(path), weights)
    ncols = 3 if layout.weighted else 2
    roles = np.array(layout.roles, dtype=np.int64)
    columns = (ncols, limit, layout.sep, roles, layout.width)  # parse_lines' layout
    compressed = path.lower().endswith(COMPRESSED_SUFFIXES)
    # pass 1 (plain files): the line count bounds the edge count, so the arrays are
    # allocated once; compressed files grow their arrays instead.
    cap = 0
    chunk = np.empty(chunked_io.CHUNK_BYTES, dtype=np.uint8)
    if not compressed:
        lines = 0
        with open(path, "rb") as f:
            while True:
                got = chunked_io.read_into(f, memoryview(chunk))
                if not got:
                    break
                lines += int(text_kernels.count_byte(chunk[:got], 10))
                report("scanning", f.tell(), size)
        cap = lines + 1
    src = np.empty(cap, dtype=np.int64)
    dst = np.empty(cap, dtype=np.int64)
    weight = np.empty(cap if ncols == 3 else 0, dtype=np.float32 if weights else np.float64)
    slow = [np.empty(_SLOW_CAP, dtype=np.int64) for _ in range(4)]
    pos = line = 0
    offset = 0          # file offset of chunk[0]
    have = 0            # bytes carried over at the front of chunk
    stream, raw, compressed = _open_text(path)
    with stream:
        while True:
            try:
                got = chunked_io.read_into(stream, memoryview(chunk)[have:])
            except (OSError, EOFError) as exc:
                raise InputError(f"{path}: cannot decompress: {exc}") from None
            total = have + got
            if total == 0:
                break
            eof = total < chunk.shape[0]  # read_into stops short only at the end
            end = total if eof else int(text_kernels.last_byte(chunk, total, 10)) + 1
            if end == 0:  # one line longer than the buffer: grow it
                bigger = np.empty(2 * chunk.shape[0], dtype=np.uint8)
                bigger[:total] = chunk[:total]
                chunk, have = bigger, total
                continue
            if compressed:  # make room for every line of this chunk
                need = pos + int(text_kernels.count_byte(chunk[:end], 10)) + 1
                if need > src.shape[0]:
                    cap = max(need, int(src.shape[0] * 1.5))
                    for arr in (src, dst) + ((weight,) if ncols == 3 else ()):
                        arr.resize(cap, refcheck=False)
            start = 0
            if offset < layout.skip:  # a byte order mark or a header line: not data
                start, line = min(end, layout.skip - offset), layout.skip_lines
            while True:
                status, i, pos, line, nslow, tb, te, extra = text_kernels.parse_lines(
                    chunk, (start, end), (src, dst, weight), (pos, line), columns,
                    tuple(slow), weights, text_kernels.POW10)
                for k in range(nslow):  # weights outside the compiled fast path
                    b, e = int(slow[1][k]), int(slow[2][k])
                    tok = bytes(chunk[b:e])
                    try:
                        value = float(tok)
                    except ValueError:
                        value = float("nan")
                    if value != value:
                        raise InputError(f"{path}:{int(slow[3][k])} (byte offset {offset + b}): "
                                         f"weight is not a number: {_token(chunk, b, e)}")
                    why = weight_problem(value) if weights else None
                    if why:
                        raise InputError(f"{path}:{int(slow[3][k])} (byte offset {offset + b}): {why}")
                    weight[int(slow[0][k])] = abs(value) if weights else value
                if status == text_kernels.SLOW_FULL:
                    start = i
                    continue
                if status == text_kernels.BAD_WEIGHT:
                    value = float(bytes(chunk[tb:te]))  # the kernel's value, in Python
                    raise InputError(f"{path}:{line} (byte offset {offset + tb}): "
                                     f"{weight_problem(value) or 'weight out of range'}")
                if status != text_kernels.OK:
                    raise _text_error(path, status, line, offset + tb, _token(chunk, tb, te),
                                      extra, limit, layout, weights, pos == 0)
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
    return src, dst, (weight if ncols == 3 else None), layout.directed, None, None



def _weight_text(w: np.ndarray) -> list[str]:
    """The shortest text of each weight that reads back (float64, then float32 for kernel 3)
    to the same value: float32's shortest digits where that holds, else the float64 repr."""
    if w.dtype != np.float32:
        return [repr(x) for x in w.tolist()]
    text = w.astype(str)
    with np.errstate(invalid="ignore"):
        wrong = text.astype(np.float64).astype(np.float32) != w  # a double-rounding case; NaN
    out = text.tolist()
    for j in np.flatnonzero(wrong).tolist():
        out[j] = repr(float(w[j]))
    return out


def write_snap(graph, path, report, *, header: str | None = None, separator: str = "\t") -> None:
    """Write a GraphFile as a text edge list (atomically), in the user's ids.

    ``header`` (default: SNAP's comment lines: directedness, counts, column names) and
    ``separator`` let ``write_text_edges`` keep the Graph500 text layout (its own comment
    line, space-separated) with this one writer. Whole-number weights are written as
    integers by the compiled formatter; others as the shortest text that reads back exactly
    (float32 weights: as float32).
    """
    e = graph.edges
    m = e.num_edges
    w = graph.weights
    integral = w is not None and bool(np.all(np.isfinite(w)) and np.all(w == np.round(w))
                                      and np.abs(w).max(initial=0) < 2**53)
    if header is None:
        kind = "Directed" if graph.directed else "Undirected"
        top = int(graph.labels[-1]) if graph.labels is not None else graph.num_vertices - 1
        header = (f"# {kind} graph, written by pygraph500" + (f" from {graph.path}" if graph.path else "")
                  + f"\n# Nodes: {graph.num_vertices} Edges: {m} (ids up to {top})\n"
                  + "# FromNodeId\tToNodeId" + ("\tWeight" if w is not None else "") + "\n")
    sep = ord(separator)
    step = 1 << 18
    out = np.empty(step * (3 if integral else 2) * 21, dtype=np.uint8)
    with atomic_writer(path) as f:
        f.write(header.encode())
        for a, b, s, d in chunked_io.user_chunks(graph, step):
            if w is None or integral:
                cols = np.empty((3 if integral else 2, b - a), dtype=np.int64)
                cols[0] = s
                cols[1] = d
                if integral:
                    cols[2] = w[a:b]
                k = text_kernels.format_rows(cols, sep, out)
                f.write(memoryview(out[:k]))
            else:  # fractional weights: shortest round-trip text, through Python
                f.write("".join(f"{x}{separator}{y}{separator}{z}\n" for x, y, z in
                                zip(s.tolist(), d.tolist(), _weight_text(w[a:b]))).encode())
            report("writing", b, m)
