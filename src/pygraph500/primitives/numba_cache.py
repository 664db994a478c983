"""numba's on-disk cache, keyed on the whole package.

numba checks only the file that defines a function, but a compiled level loop inlines kernels
and intrinsics of other modules (``bfs/`` steps, ``primitives``, the distributed kernels).
Without this, editing a step would leave the algorithms that inline it running stale cached
code. ``install()`` (called once, by ``pygraph500/__init__``) puts cache locators first in
numba's list that, for functions defined inside ``pygraph500`` only, stamp the cache with a
digest of every module of the package that uses numba (modules without numba code cannot
change a compiled function, so editing them keeps the cache).
"""
from __future__ import annotations

import functools
import hashlib
import os

__all__ = ["install", "compiled_before", "note_compiled"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # pygraph500/


@functools.cache
def _package_stamp():
    """A digest of every module of the package that uses numba (path and contents), read
    once per process (numba's cache stamp and the compiled marker share it)."""
    h = hashlib.sha256()
    for top, dirs, files in os.walk(_PACKAGE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(top, name)
                with open(path, "rb") as f:
                    text = f.read()
                if b"numba" in text:
                    rel = os.path.relpath(path, _PACKAGE_DIR).encode()
                    h.update(rel + b"\0" + text + b"\0")
    return h.digest()


def _inside_package(py_file) -> bool:
    path = os.path.abspath(py_file)
    return os.path.commonpath([path, _PACKAGE_DIR]) == _PACKAGE_DIR


def install():
    """Put cache locators first in numba's list that, for functions defined in this package
    only, stamp the cache with all its numba modules. Uses numba internals; if they are
    missing, nothing is installed (numba's default behaviour)."""
    try:
        from numba.core import caching
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        bases = (getattr(caching, "InTreeCacheLocator", None)
                 or caching._InTreeCacheLocator,
                 getattr(caching, "UserWideCacheLocator", None)
                 or caching._UserWideCacheLocator)
    except (ImportError, AttributeError):
        return
    def get_source_stamp(self):
        return _package_stamp()

    def from_function(cls, py_func, py_file):
        if not _inside_package(py_file):
            return None
        return super(cls, cls).from_function.__func__(cls, py_func, py_file)

    made = [type("Package" + base.__name__, (base,),
                 {"get_source_stamp": get_source_stamp,
                  "from_function": classmethod(from_function)}) for base in bases]
    if not any(c.__name__ == made[0].__name__ for c in impl._locator_classes):
        impl._locator_classes[0:0] = made


def _markers() -> list[str]:
    """Where a note "this code was compiled here" can go: beside the in-tree cache, else in
    the user's cache directory (a read-only install)."""
    name = "compiled-" + _package_stamp().hex()[:16]
    return [os.path.join(_PACKAGE_DIR, "__pycache__", name),
            os.path.join(os.path.expanduser("~"), ".cache", "pygraph500", name)]


def compiled_before() -> bool:
    """Whether a run has finished compiling this version of the package's kernels here (so
    numba's cache holds them): the first run after an install or an edit says it compiles."""
    return any(os.path.exists(m) for m in _markers())


def note_compiled() -> None:
    """Record that the kernels are compiled (in the first writable place of ``_markers``)."""
    for marker in _markers():
        try:
            os.makedirs(os.path.dirname(marker), exist_ok=True)
            with open(marker, "w"):
                pass
            return
        except OSError:
            continue
