"""The registry of edge-list file formats, and how a file's format is told.

``REGISTRY`` is the one list of formats: the command's ``--format`` choices and help, the
docs' formats table (``formats_table``) and the tests' parameters are read from its records.

A name with a known suffix has that format. Another name is recognised by its first bytes:
a format's magic bytes first, then the formats' sniffing rules (a compressed name's on its
decompressed bytes: one of the text formats).

A reader is ``read(path, size, limit, report) -> (src, dst, weights, directed, n_hint,
labels)`` (``limit`` -1 or the vertex count ids must stay below; ``report(phase, done,
total)`` told the bytes read); a ``weighted`` format's reader also takes ``weights=True``
(float32 weights, checked; InputError naming the line or entry otherwise). A writer is
``write(graph, path, report)`` for a GraphFile, in the user's ids, atomically.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from ..errors import InputError
from .csv_text import read_csv, write_csv
from .file_access import COMPRESSED_SUFFIXES, check_readable
from .g500_binary import read_g500, write_g500
from .matrix_market import read_mtx, write_mtx
from .npy_array import read_npy, write_npy
from .npz_archive import read_npz, write_npz
from .packed48 import read_packed48, write_packed48
from .snap_text import read_head, read_snap, write_snap

__all__ = ["Format", "REGISTRY", "FORMATS", "COMPRESSED_SUFFIXES", "format_named",
           "named_format", "detect_format", "check_text", "formats_table"]


@dataclass(frozen=True)
class Format:
    """One edge-list file format: what it is called, how it is recognised, read and written,
    and what it can hold."""

    name: str
    summary: str                                  # what a file holds (markdown; the docs' table)
    suffixes: tuple[str, ...]
    read: Callable
    write: Callable
    magic: bytes = b""                            # the file's first bytes, when it has any
    sniff: Callable[[bytes], bool] | None = None  # a rule on the first 4 KiB (its docstring
                                                  # says it), when no magic
    weighted: bool = False                        # can hold a weight per edge
    directed: bool = False                        # records directedness
    compressible: bool = False                    # may be read from COMPRESSED_SUFFIXES
    text: bool = False                            # lines of text (``check_text``)

    @property
    def module(self) -> str:
        """The module of ``pygraph500.io`` that reads and writes it."""
        return self.read.__module__.rsplit(".", 1)[-1]


def _binary(head: bytes) -> bool:
    """a NUL byte in the first 4 KiB"""
    return b"\x00" in head


def _first_line(head: bytes) -> bytes:
    """The first line of ``head`` that is neither blank nor a ``#``/``%`` comment (a UTF-8
    byte order mark before it passed over)."""
    head = head.removeprefix(b"\xef\xbb\xbf")
    return next((t for t in (line.strip() for line in head.split(b"\n"))
                 if t and t[:1] not in (b"#", b"%")), b"")


def _text(head: bytes) -> bool:
    """no NUL byte in the first 4 KiB, no comma in the first line that is not a comment"""
    return b"\x00" not in head and b"," not in _first_line(head)


def _comma_text(head: bytes) -> bool:
    """no NUL byte in the first 4 KiB, a comma in the first line that is not a comment"""
    return b"\x00" not in head and b"," in _first_line(head)


REGISTRY: dict[str, Format] = {f.name: f for f in (
    Format("snap", "text, one `source target [weight]` a line, blank-separated; `#` and `%` "
                   "comments; a SNAP `# Directed graph` / `# Undirected graph` (or KONECT "
                   "`% sym` / `% asym`) header sets the direction; columns after the third "
                   "are ignored",
           (".txt", ".tsv", ".el", ".snap", ".wel"), read_snap, write_snap,
           sniff=_text, weighted=True, directed=True, compressible=True, text=True),
    Format("csv", "text, one `source,target[,weight]` a line, comma- or tab-separated; an "
                  "optional header line may name the columns (`source`/`src`/`from`/`u`, "
                  "`target`/`dst`/`to`/`v`, `weight`/`w`, any order; other named columns are "
                  "ignored); `#` and `%` comments",
           (".csv",), read_csv, write_csv, sniff=_comma_text, weighted=True, compressible=True,
           text=True),
    Format("mtx", "Matrix Market coordinate (through `scipy.io`); vertices are row/column "
                  "numbers - 1",
           (".mtx", ".mm"), read_mtx, write_mtx, magic=b"%%MatrixMarket",
           weighted=True, directed=True, compressible=True, text=True),
    Format("g500", "Graph500 binary: little-endian int64 pairs `(v0, v1)`, what `graph500 "
                   "generate` writes",
           (".bin", ".edges", ".g500"), read_g500, write_g500, sniff=_binary),
    Format("packed48", "the reference's packed 48-bit tuples: uint32 `v0_low, v1_low, high`, "
                       "`high` = bits 32..47 of v0, then of v1",
           (".p48", ".packed48"), read_packed48, write_packed48),
    Format("npy", "an (M, 2) integer array", (".npy",), read_npy, write_npy,
           magic=b"\x93NUMPY"),
    Format("npz", "`src`, `dst` (or `edges`), optional `weight`, `num_vertices`, `labels`, "
                  "`directed`",
           (".npz",), read_npz, write_npz, magic=b"PK\x03\x04", weighted=True, directed=True),
)}
FORMATS = tuple(REGISTRY)
_BY_SUFFIX = {suffix: f for f in REGISTRY.values() for suffix in f.suffixes}


def format_named(name: str) -> Format:
    """The Format called ``name``; InputError naming the known ones otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise InputError(f"unknown format {name!r}; known: {', '.join(FORMATS)}") from None


def _suffix(path: str) -> tuple[str, bool]:
    """(lower-case suffix without a compression suffix, compressed?)."""
    name = os.path.basename(path).lower()
    compressed = name.endswith(COMPRESSED_SUFFIXES)
    if compressed:
        name = name.rsplit(".", 1)[0]
    return os.path.splitext(name)[1], compressed


def named_format(path: str, *, for_writing: bool = False) -> str | None:
    """The format the suffix of ``path`` names, or None for a name without a known suffix;
    InputError for a compressed name the format cannot have."""
    suffix, compressed = _suffix(path)
    fmt = _BY_SUFFIX.get(suffix)
    if fmt is None:
        return None
    if compressed and not fmt.compressible:
        raise InputError(f"{path}: only {_compressible()} files may be compressed")
    if compressed and for_writing:
        raise InputError(f"{path}: compressed output is not supported; write {path.rsplit('.', 1)[0]}")
    return fmt.name


def detect_format(path: str, *, for_writing: bool = False) -> str:
    """The format of ``path`` by its suffix; when reading a name without a known suffix, by
    its first bytes. InputError when a name to be written has no known suffix."""
    named = named_format(path, for_writing=for_writing)
    if named is not None:
        return named
    _, compressed = _suffix(path)
    if for_writing:
        raise InputError(f"cannot tell the format of {path} from its name: use one of "
                         f"{', '.join(sorted(_BY_SUFFIX))} or --to {{{','.join(FORMATS)}}}")
    check_readable(path)
    head = _head(path, compressed)
    for fmt in REGISTRY.values():
        if fmt.magic and head.startswith(fmt.magic):
            return fmt.name
    found = next(f for f in REGISTRY.values() if f.sniff is not None and f.sniff(head))
    if compressed and not found.compressible:
        raise _compressed_binary(path)
    return found.name


def _compressible() -> str:
    """The names of the formats that may be compressed, as "a, b and c"."""
    return _listed(f.name for f in REGISTRY.values() if f.compressible)


def _compressed_binary(path: str) -> InputError:
    return InputError(f"{path}: compressed binary data; only {_compressible()} files may be "
                      f"compressed")


def _head(path: str, compressed: bool) -> bytes:
    """The first 4 KiB of the file, decompressed when its name says it is compressed."""
    if compressed:
        return read_head(path)[:4096]
    with open(path, "rb") as f:
        return f.read(4096)


def check_text(fmt: Format, path: str) -> None:
    """InputError when ``path``, to be read as the text format ``fmt``, holds binary data (a
    NUL byte in its first line that is not blank): a binary edge list under a text name,
    whose first bytes would otherwise be reported as a bad vertex id. (A NUL further on is
    a bad line of a text file, which its reader names.)"""
    compressed = _suffix(path)[1]
    if not fmt.text or not _binary_start(_head(path, compressed)):
        return
    if compressed:
        raise _compressed_binary(path)
    binary = _listed(f"{f.name} ({', '.join(f.suffixes)})" for f in REGISTRY.values()
                     if not f.text)
    raise InputError(f"{path}: binary data (a NUL byte in its first line), not {fmt.name} "
                     f"text; binary edge lists are {binary}: name the file by its format or "
                     f"give the format (--format; convert --from)")


def _binary_start(head: bytes) -> bool:
    """Whether the first line of ``head`` that is not blank holds a NUL byte."""
    return b"\x00" in next((line for line in head.split(b"\n") if line.strip()), b"")


def _listed(names) -> str:
    """The names as "a, b and c"."""
    names = list(names)
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def formats_table() -> str:
    """The formats as a markdown table: docs/graphs.md's, put there when the site builds."""
    def first_bytes(f: Format) -> str:
        if f.magic:
            return f"`{repr(f.magic)[2:-1]}`"
        return f.sniff.__doc__ if f.sniff is not None else "(by name only)"

    def yes(flag: bool) -> str:
        return "yes" if flag else "no"

    rows = ["| format | what it is | names | first bytes | weights | direction | compressed |",
            "|---|---|---|---|---|---|---|"]
    for f in REGISTRY.values():
        rows.append(f"| `{f.name}` | {f.summary} | `{' '.join(f.suffixes)}` | {first_bytes(f)} "
                    f"| {yes(f.weighted)} | {yes(f.directed)} "
                    f"| {'`' + ' '.join(COMPRESSED_SUFFIXES) + '`' if f.compressible else 'no'} |")
    return "\n".join(rows)
