"""numba's on-disk cache, keyed on the whole package, and one compilation per argument types.

numba checks only the file that defines a function, but a compiled level loop inlines kernels
and intrinsics of other modules (``bfs/`` steps, ``primitives``, the distributed kernels).
Without this, editing a step would leave the algorithms that inline it running stale cached
code. ``install()`` (called once, by ``pygraph500/__init__``) puts cache locators first in
numba's list that, for functions defined inside ``pygraph500`` only, stamp the cache with a
digest of every module of the package that uses numba (modules without numba code cannot
change a compiled function, so editing them keeps the cache). The cache goes where numba's
own would: ``NUMBA_CACHE_DIR`` when set, else ``__pycache__`` beside the modules, else (a
read-only install) numba's user-wide directory (``~/.cache/numba``).

``install()`` also makes a package function called from compiled code compile for its
arguments' types, never for their literal values (``Literal[int](0)``): numba types a call
while it still infers the caller, so a loop counter that starts at ``0`` had each callee
compiled first for the constant and again for ``int64`` (the default search compiled 2-3 times
its big steps: 40 of the cold run's 90 s); a call from Python never sees literals anyway.
"""
from __future__ import annotations

import functools
import hashlib
import os

__all__ = ["install", "cache_dir", "compiled_before", "note_compiled", "describe_cache"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # pygraph500/
_LOCATORS: list = []  # the package's locator classes, in numba's order (set by install)


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


@functools.cache
def _inside_package(py_file) -> bool:
    path = os.path.abspath(py_file)
    return os.path.commonpath([path, _PACKAGE_DIR]) == _PACKAGE_DIR


def install():
    """Put cache locators first in numba's list that, for functions defined in this package
    only, stamp the cache with all its numba modules; compile package functions for types,
    not literals. Uses numba internals; where they are missing, numba's default behaviour."""
    _compile_for_types()
    try:
        from numba.core import caching
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        bases = [getattr(caching, name, None) or getattr(caching, "_" + name)
                 for name in ("UserProvidedCacheLocator", "InTreeCacheLocator",
                              "UserWideCacheLocator")]
    except (ImportError, AttributeError):
        return

    def get_source_stamp(self):
        return _package_stamp()

    def from_function(cls, py_func, py_file):
        if not _inside_package(py_file):
            return None
        return super(cls, cls).from_function.__func__(cls, py_func, py_file)

    if _LOCATORS:
        return
    _LOCATORS.extend(type("Package" + base.__name__, (base,),
                          {"get_source_stamp": get_source_stamp,
                           "from_function": classmethod(from_function)}) for base in bases)
    impl._locator_classes[0:0] = _LOCATORS


def _compile_for_types():
    """Wrap numba's ``Dispatcher.get_call_template`` (how compiled code types a call) so that a
    function of this package gets its arguments without literal values (see the module
    docstring). Nothing is changed if the internals are missing or already wrapped."""
    try:
        from numba.core import types
        from numba.core.dispatcher import Dispatcher
        original = Dispatcher.get_call_template
    except (ImportError, AttributeError):
        return
    if getattr(original, "_pygraph500", False):
        return

    def get_call_template(self, args, kws):
        if _inside_package(self.py_func.__code__.co_filename):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return original(self, args, kws)

    get_call_template._pygraph500 = True
    Dispatcher.get_call_template = get_call_template


def cache_dir() -> str | None:
    """The directory numba caches this package's top-level kernels in (the first of
    ``NUMBA_CACHE_DIR``, the in-tree ``__pycache__``, the user-wide cache that is writable),
    or None when there is none (or nothing was installed)."""
    init = os.path.join(_PACKAGE_DIR, "__init__.py")
    for cls in _LOCATORS:
        locator = cls.from_function(cache_dir, init)
        if locator is not None:
            return locator.get_cache_path()
    return None


def _marker() -> str | None:
    where = cache_dir()
    return where and os.path.join(where, "compiled-" + _package_stamp().hex()[:16])


def compiled_before(what: str = "") -> bool:
    """Whether a run has finished compiling this version of the package's kernels into the
    cache numba uses now (or, ``what`` named, the kernels of that: one API search's): the
    first run after an install or an edit says it compiles."""
    marker = _marker()
    return marker is not None and (os.path.exists(marker)
                                   or bool(what) and os.path.exists(f"{marker}-{what}"))


def note_compiled(what: str = "") -> None:
    """Record beside the cache that this version's kernels (``what``'s) are compiled there."""
    marker = _marker()
    if marker is not None and what:
        marker = f"{marker}-{what}"
    if marker is not None:
        try:
            with open(marker, "w"):
                pass
        except OSError:
            pass


def describe_cache() -> str:
    """One line for ``graph500 info``: where the cache is and whether this version is in it."""
    where = cache_dir()
    if where is None:
        return "none usable (numba compiles the kernels in every run)"
    done = "compiled" if compiled_before() else "not compiled yet (graph500 info --compile)"
    return f"{where}: this version {done}"
