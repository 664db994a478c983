"""Reading a user's file: the checks made before long work, and inputs that are not regular
files.

Every reader takes its path through ``readable_input``: a regular file is read where it is;
a stream (a FIFO, a pipe from process substitution such as ``<(zcat g.txt.gz)``, ``-`` for
stdin) is read once, as it comes, into a temporary copy that the readers then take like any
file (several formats need two passes or a known size; gzip or bzip2 data gets its suffix,
so that it is decompressed) and that is removed afterwards; a
character or block device, or a terminal on stdin, is refused with one line. A FIFO that no
program writes to yet is waited for, and the wait is said on stderr.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
import threading

from ..errors import InputError, ResourceError
from ..process import deferred, temporaries

__all__ = ["check_readable", "open_error", "readable_input", "STDIN", "COMPRESSED_SUFFIXES"]

STDIN = "-"
COMPRESSED_SUFFIXES = (".gz", ".bz2")  # gzip and bzip2: decompressed as they are read
_WAIT_NOTE_AFTER = 1.0  # seconds an open of a FIFO may block before the wait is said


def open_error(path: str, exc: OSError) -> InputError:
    """The InputError for a file that could not be opened for reading."""
    return InputError(f"cannot read {path}: {exc.strerror or exc}")


def check_readable(path: str) -> int:
    """The size of a regular file; InputError when it is missing, a directory or unreadable
    (``readable_input`` has turned any stream into a regular file before this is asked)."""
    if os.path.isdir(path):
        raise InputError(f"cannot read {path}: it is a directory")
    try:
        size = os.path.getsize(path)
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise open_error(path, exc) from None
    return size


@contextlib.contextmanager
def readable_input(path: str):
    """The path of a regular file holding ``path``'s bytes: ``path`` itself, or a temporary
    copy of a stream (see the module docstring). An InputError raised in the block names
    ``path``, never the copy."""
    if path == STDIN:
        if sys.stdin is None or sys.stdin.isatty():
            raise InputError("cannot read - (stdin): it is a terminal; pipe a file into it "
                             "or name the file")
        with _copied(path, lambda: sys.stdin.buffer, "", close=False) as copy:
            yield copy
        return
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise open_error(path, exc) from None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        yield path
        return
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = "a character device" if stat.S_ISCHR(mode) else "a block device"
        raise InputError(f"cannot read {path}: it is {kind}, not a file; give a regular file, "
                         "a pipe or - (stdin)")
    suffix = "".join(_suffixes(path))
    with _copied(path, lambda: _open_stream(path), suffix) as copy:
        yield copy


def _suffixes(path: str) -> list[str]:
    """The name's last suffix and a compression suffix before it (".txt", ".gz")."""
    name = os.path.basename(path)
    stem, last = os.path.splitext(name)
    if last.lower() in COMPRESSED_SUFFIXES:
        return [os.path.splitext(stem)[1], last]
    return [last]


def _open_stream(path: str):
    """Open a FIFO or socket for reading; a wait for its writer longer than a second is said
    on stderr (an interrupt ends the wait)."""
    note = threading.Timer(_WAIT_NOTE_AFTER, lambda: print(
        f"graph500: waiting for a program to write to {path}", file=sys.stderr, flush=True))
    note.daemon = True
    note.start()
    try:
        return open(path, "rb")
    except OSError as exc:
        raise open_error(path, exc) from None
    finally:
        note.cancel()


def _compression(path: str) -> str:
    """".gz" or ".bz2" when the file starts as gzip or bzip2 data does and decompresses,
    else "" (a binary edge list may start with the same bytes)."""
    import bz2
    import gzip
    import zlib

    with open(path, "rb") as f:
        magic = f.read(3)
    for start, opener, suffix in ((b"\x1f\x8b", gzip.open, ".gz"), (b"BZh", bz2.open, ".bz2")):
        if magic.startswith(start):
            try:
                with opener(path, "rb") as f:
                    f.read(1)
                return suffix
            except (OSError, EOFError, ValueError, zlib.error):
                return ""
    return ""


@contextlib.contextmanager
def _copied(path: str, opener, suffix: str, close: bool = True):
    """A temporary copy of the stream ``opener()`` gives (closed after unless ``close`` is
    False: stdin), removed after the block."""
    with deferred():
        fd, copy = tempfile.mkstemp(prefix="pygraph500-input-", suffix=suffix)
        temporaries.add(copy)
    try:
        with os.fdopen(fd, "wb") as out:
            stream = opener()
            try:
                shutil.copyfileobj(stream, out, 1 << 20)
            except OSError as exc:
                where = os.path.dirname(copy)
                raise ResourceError(f"cannot read {path}: copying the stream to {where} "
                                    f"failed: {exc.strerror or exc} (set TMPDIR)") from None
            finally:
                if close:
                    stream.close()
        packed = "" if suffix.lower().endswith(COMPRESSED_SUFFIXES) else _compression(copy)
        if packed:  # compressed data on a stream: named so, the readers decompress it
            with deferred():
                os.rename(copy, copy + packed)
                temporaries.discard(copy)
                copy += packed
                temporaries.add(copy)
        try:
            yield copy
        except InputError as exc:
            raise InputError(str(exc).replace(copy, path)) from None
    finally:
        with deferred():
            with contextlib.suppress(OSError):
                os.unlink(copy)
            temporaries.discard(copy)
