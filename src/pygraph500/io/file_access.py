"""Checks made before reading or writing a file, and atomic writes.

Every write goes to a temporary file in the target's directory and is renamed into place, so
a failed run never leaves a half-written file. The checks run before long work, so a bad
path is reported at once, not after minutes of generation or search.
"""
from __future__ import annotations

import contextlib
import os
import tempfile

from ..errors import InputError

__all__ = ["check_writable", "check_readable", "atomic_writer", "open_error"]


def check_writable(path: str) -> None:
    """InputError now, before long work, if ``path`` cannot be created or replaced."""
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if os.path.isdir(path):
        raise InputError(f"cannot write {path}: it is a directory")
    if not os.path.isdir(directory):
        raise InputError(f"cannot write {path}: directory {directory} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise InputError(f"cannot write {path}: directory {directory} is not writable")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise InputError(f"cannot write {path}: file is not writable")


def open_error(path: str, exc: OSError) -> InputError:
    """The InputError for a file that could not be opened for reading."""
    return InputError(f"cannot read {path}: {exc.strerror or exc}")


def check_readable(path: str) -> int:
    """The file's size; InputError when it is missing, a directory or unreadable."""
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
def atomic_writer(path: str, mode: str = "wb"):
    """Open a temporary sibling of ``path``; rename it onto ``path`` only if the block succeeds."""
    check_writable(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=directory)
    try:
        with os.fdopen(fd, mode) as f:
            yield f
        # mkstemp makes the file 0600; give it the mode a plain open() would have
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
