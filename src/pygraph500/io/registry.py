"""The registry of edge-list file formats, and how a file's format is told.

=========  ===============================  ==================================  ==============
format     module (reader, writer)          file names                          first bytes
=========  ===============================  ==================================  ==============
snap       snap_text: text pairs/triples    .txt .tsv .el .snap .wel (+ .gz)    no NUL byte
mtx        matrix_market (scipy.io)         .mtx .mm (+ .gz, .bz2)              %%MatrixMarket
g500       g500_binary: int64 pairs         .bin .edges .g500                   a NUL byte
packed48   packed48: 48-bit tuples          .p48 .packed48                      (by name only)
npy        npy_array: (M, 2) integers       .npy                                \\x93NUMPY
npz        npz_archive: src, dst, ...       .npz                                PK\\x03\\x04
=========  ===============================  ==================================  ==============

A name with a known suffix has that format. Another name is recognised by its first bytes:
a format's magic bytes first, then the sniffing rules (a NUL byte in the first 4 KiB means
binary g500, none means text); a compressed name without a known suffix is text.

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
from .file_access import check_readable
from .g500_binary import read_g500, write_g500
from .matrix_market import read_mtx, write_mtx
from .npy_array import read_npy, write_npy
from .npz_archive import read_npz, write_npz
from .packed48 import read_packed48, write_packed48
from .snap_text import read_snap, write_snap

__all__ = ["Format", "REGISTRY", "FORMATS", "format_named", "detect_format"]


@dataclass(frozen=True)
class Format:
    """One edge-list file format: what it is called, how it is recognised, read and written,
    and what it can hold."""

    name: str
    suffixes: tuple[str, ...]
    read: Callable
    write: Callable
    magic: bytes = b""                            # the file's first bytes, when it has any
    sniff: Callable[[bytes], bool] | None = None  # a rule on the first 4 KiB, when no magic
    weighted: bool = False                        # can hold a weight per edge
    directed: bool = False                        # records directedness
    compressible: bool = False                    # may be read from .gz / .bz2


def _binary(head: bytes) -> bool:
    return b"\x00" in head


def _text(head: bytes) -> bool:
    return b"\x00" not in head


REGISTRY: dict[str, Format] = {f.name: f for f in (
    Format("snap", (".txt", ".tsv", ".el", ".snap", ".wel"), read_snap, write_snap,
           sniff=_text, weighted=True, directed=True, compressible=True),
    Format("mtx", (".mtx", ".mm"), read_mtx, write_mtx, magic=b"%%MatrixMarket",
           weighted=True, directed=True, compressible=True),
    Format("g500", (".bin", ".edges", ".g500"), read_g500, write_g500, sniff=_binary),
    Format("packed48", (".p48", ".packed48"), read_packed48, write_packed48),
    Format("npy", (".npy",), read_npy, write_npy, magic=b"\x93NUMPY"),
    Format("npz", (".npz",), read_npz, write_npz, magic=b"PK\x03\x04",
           weighted=True, directed=True),
)}
FORMATS = tuple(REGISTRY)
_BY_SUFFIX = {suffix: f for f in REGISTRY.values() for suffix in f.suffixes}
_COMPRESSED_TEXT = "snap"   # what a compressed file without a known suffix is read as


def format_named(name: str) -> Format:
    """The Format called ``name``; InputError naming the known ones otherwise."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise InputError(f"unknown format {name!r}; known: {', '.join(FORMATS)}") from None


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
    fmt = _BY_SUFFIX.get(suffix)
    if fmt is not None:
        if compressed and not fmt.compressible:
            raise InputError(f"{path}: only text and Matrix Market files may be compressed")
        if compressed and for_writing:
            raise InputError(f"{path}: compressed output is not supported; write {path.rsplit('.', 1)[0]}")
        return fmt.name
    if for_writing:
        raise InputError(f"cannot tell the format of {path} from its name: use one of "
                         f"{', '.join(sorted(_BY_SUFFIX))} or --to {{{','.join(FORMATS)}}}")
    check_readable(path)
    with open(path, "rb") as f:
        head = f.read(4096)
    if compressed:
        return _COMPRESSED_TEXT
    for fmt in REGISTRY.values():
        if fmt.magic and head.startswith(fmt.magic):
            return fmt.name
    return next(fmt.name for fmt in REGISTRY.values() if fmt.sniff is not None and fmt.sniff(head))
