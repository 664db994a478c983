"""The one way every file of the project is written (edge lists, weights, parents, tables,
JSON, plots, converted files).

- A regular file, or a new path, is written to a hidden temporary beside it (``.tmp-``, same
  directory), fsynced and renamed over it: the target is always the old file or the whole
  new one, never a part. The new file keeps the old one's permission bits (a new path gets
  the umask's). While it is written, the disk writing is started every WRITEBACK_EVERY bytes
  (Linux's sync_file_range), so the fsync finds little left to wait for.
- A symlink is followed: its target is replaced, the link stays.
- Anything else (a character or block device such as /dev/null, a FIFO, a socket) is written
  to directly, never renamed over.
- One command's outputs are written together (``written_together``): each to its temporary
  first, then all renamed at once, with no signal between the renames, so an edge list and
  its weights on disk are old and old or new and new. Two outputs naming the same file are
  refused before any work (``check_outputs``).
- Any OSError while writing (a full disk, a quota, a read-only file system, no permission,
  an I/O error, a name too long) is an ``OutputError`` naming the path and the system's
  reason; the temporaries are removed and the old targets left as they were.

``PYGRAPH500_FAIL_WRITE=ERRNO@K`` (for tests): the K-th open, write, fsync or rename of a group
of outputs fails with ERRNO (a name such as ENOSPC, EIO, EDQUOT), as a full disk would.
"""
from __future__ import annotations

import contextlib
import contextvars
import errno
import functools
import io
import os
import stat
import tempfile
from dataclasses import dataclass

from ..errors import InputError, OutputError
from ..process import deferred, temporaries
from .file_access import STDIN

__all__ = ["atomic_writer", "written_together", "check_outputs", "check_writable", "same_file",
           "writes_in_place", "output_error", "FAIL_WRITE"]

FAIL_WRITE = "PYGRAPH500_FAIL_WRITE"
WRITEBACK_EVERY = 64 << 20  # bytes written between two starts of the disk writing
_GROUP: contextvars.ContextVar = contextvars.ContextVar("pygraph500_outputs", default=None)


def output_error(path: str, exc: OSError) -> OutputError:
    """The one-line OutputError for ``exc`` raised while writing ``path``."""
    return OutputError(f"cannot write {path}: {exc.strerror or exc}")


def _target(path: str) -> str:
    """The file a write to ``path`` replaces: symlinks followed (a dangling one's target).
    A link of /proc that names no path (/dev/stdout or /dev/fd/N on a pipe: "pipe:[N]")
    is followed by the kernel only, so such a path is its own target."""
    real = os.path.realpath(path)
    if not os.path.lexists(real) and os.path.exists(path):
        return os.path.abspath(path)
    return real


def writes_in_place(path: str) -> bool:
    """Whether ``path`` is written in place: it exists and is not a regular file (a device,
    a FIFO, a socket), so no temporary is renamed over it."""
    return _is_direct(_target(path))


def _is_direct(target: str) -> bool:
    """Whether ``target`` exists and is not a regular file (written in place, never renamed)."""
    try:
        return not stat.S_ISREG(os.stat(target).st_mode)
    except OSError:
        return False


def check_writable(path: str) -> None:
    """InputError now, before long work, if ``path`` cannot be written: a directory, a missing
    or read-only directory, a read-only file; for a regular file, a temporary is made and
    removed beside it (the way the output will be written)."""
    if path == STDIN:
        raise InputError("cannot write -: it reads stdin as an input; name the output file "
                         "(/dev/stdout writes to standard output)")
    target = _target(path)
    directory = os.path.dirname(target) or "."
    if os.path.isdir(target):
        raise InputError(f"cannot write {path}: it is a directory")
    if _is_direct(target):
        if not os.access(target, os.W_OK):
            raise InputError(f"cannot write {path}: permission denied")
        return
    if not os.path.isdir(directory):
        raise InputError(f"cannot write {path}: directory {directory} does not exist")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise InputError(f"cannot write {path}: file is not writable")
    try:
        with deferred():  # a signal cannot leave the probe behind
            fd, probe = tempfile.mkstemp(prefix=".tmp-", dir=directory)
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None


def check_outputs(*named: tuple[str, str | None]) -> None:
    """InputError unless every output can be written and no two name the same file;
    ``named``: (option, path) pairs, a None path skipped (the option names it in the message)."""
    seen: list[tuple[str, str]] = []
    for option, path in named:
        if path is None:
            continue
        check_writable(path)
        for other_option, other_path in seen:
            if same_file(other_path, path):
                raise InputError(f"{other_option} {other_path} and {option} {path} are the "
                                 "same file; give each output its own")
        seen.append((option, path))


def same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file (symlinks followed, hard links too)."""
    if _target(a) == _target(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


@dataclass
class _Output:
    path: str                 # as the caller named it (messages)
    target: str               # the file replaced
    direct: bool              # not a regular file: written in place
    tmp: str | None = None    # the temporary, once opened


class _Group:
    """Outputs written together: temporaries first, then every rename at once."""

    def __init__(self, paths):
        self.outputs: dict[str, _Output] = {}
        self.ops = 0
        self.fail = _fault_spec()
        for path in paths:
            target = _target(path)
            self.outputs[target] = _Output(path, target, _is_direct(target))

    def step(self, what: str, path: str) -> None:
        """Count one operation; the injected fault (PYGRAPH500_FAIL_WRITE) when it is due."""
        if self.fail is not None:
            self.ops += 1
            code, at = self.fail
            if self.ops == at:
                raise OSError(code, f"{os.strerror(code)} (injected at {what} {at})", path)

    def get(self, path: str) -> _Output | None:
        return self.outputs.get(_target(path))

    @contextlib.contextmanager
    def open(self, out: _Output, mode: str):
        try:
            self.step("open", out.path)
            if out.direct:
                f = open(out.target, mode)
            else:
                with deferred():  # a temporary is always recorded the moment it exists
                    fd, out.tmp = tempfile.mkstemp(prefix=".tmp-",
                                                   dir=os.path.dirname(out.target))
                    temporaries.add(out.tmp)
                f = _WritingBack(io.FileIO(fd, "wb"))
                if "b" not in mode:
                    f = io.TextIOWrapper(f, encoding="utf-8")
            with f:
                yield _Counted(f, self, out.path) if self.fail is not None else f
                f.flush()
                if not out.direct:
                    self.step("fsync", out.path)
                    os.fsync(f.fileno())
        except OSError as exc:
            raise output_error(out.path, exc) from None

    def commit(self) -> None:
        """Rename every temporary over its target, no signal in between; if one rename fails,
        undo the others (each old file was kept as a hard link), so the set stays old. Then
        make the renames durable (the directories fsynced)."""
        done = [o for o in self.outputs.values() if o.tmp is not None]
        umask = os.umask(0)
        os.umask(umask)
        renamed: list[tuple[_Output, bool, str | None]] = []  # (output, it existed, its link)
        kept: list[str] = []                                  # every old file's link
        with deferred():
            try:
                for out in done:
                    self.step("rename", out.path)
                    existed = os.path.exists(out.target)
                    old = _keep_old(out.target) if existed and len(done) > 1 else None
                    if old is not None:
                        kept.append(old)
                    try:
                        bits = stat.S_IMODE(os.stat(out.target).st_mode)
                    except FileNotFoundError:
                        bits = 0o666 & ~umask
                    os.chmod(out.tmp, bits)
                    os.replace(out.tmp, out.target)
                    temporaries.discard(out.tmp)
                    out.tmp = None
                    renamed.append((out, existed, old))
            except OSError as exc:
                for done_out, existed, old in reversed(renamed):
                    with contextlib.suppress(OSError):
                        if not existed:
                            os.unlink(done_out.target)
                        elif old is not None:  # (without hard links the new one stays)
                            os.replace(old, done_out.target)
                raise output_error(out.path, exc) from None
            finally:
                for old in kept:
                    with contextlib.suppress(OSError):
                        os.unlink(old)
                    temporaries.discard(old)
        for directory in {os.path.dirname(o.target) for o in done}:
            with contextlib.suppress(OSError):
                fd = os.open(directory, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)

    def discard(self) -> None:
        with deferred():
            for out in self.outputs.values():
                if out.tmp is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(out.tmp)
                    temporaries.discard(out.tmp)
                    out.tmp = None


@contextlib.contextmanager
def written_together(*paths: str | None):
    """Within the block, ``atomic_writer`` on any of ``paths`` writes a temporary; they are all
    renamed into place when the block ends without an error, else all removed."""
    group = _Group([p for p in paths if p is not None])
    token = _GROUP.set(group)
    try:
        yield
        group.commit()
    finally:
        _GROUP.reset(token)
        group.discard()


@contextlib.contextmanager
def atomic_writer(path: str, mode: str = "wb"):
    """A file object for ``path`` (see the module docstring): its temporary, renamed over
    ``path`` when the block succeeds (or when the enclosing ``written_together`` does)."""
    group = _GROUP.get()
    out = group.get(path) if group is not None else None
    if out is not None:
        with group.open(out, mode) as f:
            yield f
        return
    check_writable(path)
    with written_together(path):
        group = _GROUP.get()
        with group.open(group.get(path), mode) as f:
            yield f


def _keep_old(target: str) -> str | None:
    """A hard link to the existing ``target`` beside it (recorded as a temporary), so a set of
    renames can be undone; None when the file system has no hard links."""
    name = os.path.join(os.path.dirname(target), f".tmp-old-{os.urandom(6).hex()}")
    try:
        os.link(target, name)
    except OSError:
        return None
    temporaries.add(name)
    return name


class _WritingBack(io.BufferedWriter):
    """A temporary's writer that starts the disk writing of what it holds every
    WRITEBACK_EVERY bytes, without waiting for it: the fsync before the rename then waits
    for the last part only (a GiB edge list: 0.02 s instead of 0.3 s here). A BufferedWriter
    still, so NumPy writes arrays to it directly."""

    def __init__(self, raw):
        super().__init__(raw, buffer_size=1 << 20)
        self.unsynced = 0

    def write(self, data):
        n = super().write(data)
        self.unsynced += n
        if self.unsynced >= WRITEBACK_EVERY:
            self.unsynced = 0
            start = _start_writeback()
            if start is not None:
                self.flush()
                start(self.fileno(), 0, 0, 2)  # the whole file; 2: SYNC_FILE_RANGE_WRITE
        return n


@functools.cache
def _start_writeback():
    """The C library's sync_file_range (Linux), or None where there is none."""
    try:
        import ctypes

        fn = ctypes.CDLL(None, use_errno=True).sync_file_range
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


class _Counted:
    """A file whose writes count towards the injected fault (only when one is set)."""

    def __init__(self, f, group: _Group, path: str):
        self._f, self._group, self._path = f, group, path

    def write(self, data):
        self._group.step("write", self._path)
        return self._f.write(data)

    def __getattr__(self, name):
        return getattr(self._f, name)


def _fault_spec() -> tuple[int, int] | None:
    """(errno, K) of PYGRAPH500_FAIL_WRITE, or None."""
    spec = os.environ.get(FAIL_WRITE)
    if not spec:
        return None
    name, _, at = spec.partition("@")
    code = getattr(errno, name.strip().upper(), None)
    if code is None or not at.strip().isdigit():
        raise InputError(f"{FAIL_WRITE}={spec}: expected ERRNO@K, e.g. ENOSPC@3")
    return code, int(at)
