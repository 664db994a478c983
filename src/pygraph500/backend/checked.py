"""``numpy-checked``: NumPy standing in for a device, counting what a GPU would pay for.

CI has no GPU, so the GPU's budget (at most one host synchronisation per BFS level, none for
statistics, allocations in proportion to a level's work) is checked here. Every array is a
``CheckedArray`` (a NumPy array inside) and every result a new one, as CuPy gives device
arrays: reductions return 0-d arrays, never Python numbers. ``Checks`` counts

- a **host synchronisation** wherever CuPy waits for the device: a value read on the host
  (``int()``, ``float()``, ``bool()``, ``operator.index``, ``.item()``, ``.tolist()``,
  iteration, ``np.asarray`` / ``__array__``, ``.get()`` / ``to_host``), an output whose size
  depends on the data (a boolean-mask index, ``nonzero``, ``flatnonzero``, ``unique`` ...),
  and an explicit ``synchronize()``; ``len()`` and ``.shape`` are host metadata, free;
- an **allocation** for every result that shares no memory with an input (views are free),
  and for every copy of host data to the "device".

``shuffle`` (a seed): scatters with repeated indices write in a random order, so which of
duplicate writes wins is random (CuPy leaves it unspecified); the claims' tests use it.
"""
from __future__ import annotations

import os
import sys
from collections import Counter
from contextlib import contextmanager

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

__all__ = ["Checks", "CheckedArray", "CheckedNumPy", "PerLevel"]

# Outputs whose size depends on the data: CuPy reads a count back before allocating them.
_DATA_SIZED = frozenset({"nonzero", "flatnonzero", "argwhere", "unique", "compress",
                         "extract", "trim_zeros", "union1d", "intersect1d", "setdiff1d",
                         "setxor1d"})
# Functions that answer about metadata (host values, no device work).
_METADATA = frozenset({"ndim", "shape", "size", "result_type", "can_cast", "promote_types",
                       "min_scalar_type", "isscalar", "issubdtype", "iinfo", "finfo", "dtype"})
# Copies of host data to the device when given host arrays.
_UPLOADS = frozenset({"asarray", "array", "asanyarray", "ascontiguousarray"})


class Checks:
    """The counters of one checked backend: ``syncs``, ``allocations``, ``allocated_bytes``,
    ``apart_syncs`` (those inside ``apart()``: another party's, such as MPI's exchange), and
    ``sites`` ("file:line what" -> count: where the synchronisations were asked for)."""

    def __init__(self, shuffle: int | None = None):
        self.syncs = 0
        self.apart_syncs = 0
        self.allocations = 0
        self.allocated_bytes = 0
        self.sites: Counter = Counter()
        self.rng = None if shuffle is None else np.random.default_rng(shuffle)
        self._apart = 0

    def snapshot(self) -> tuple[int, int, int, int]:
        return self.syncs, self.allocations, self.allocated_bytes, self.apart_syncs

    @contextmanager
    def apart(self):
        """Count the synchronisations inside as ``apart_syncs``, not ``syncs``."""
        self._apart += 1
        try:
            yield
        finally:
            self._apart -= 1

    def sync(self, what: str) -> None:
        if self._apart:
            self.apart_syncs += 1
        else:
            self.syncs += 1
        self.sites[f"{_caller()} {what}"] += 1

    def allocated(self, a: np.ndarray) -> None:
        self.allocations += 1
        self.allocated_bytes += int(a.nbytes)


_HERE = os.path.dirname(__file__)


class PerLevel:
    """What each level of a search cost: ``mark()`` at each level's boundary keeps the counts
    since the last mark; ``columns()`` gives them as per-level arrays (empty without checks:
    ``checks`` None)."""

    def __init__(self, checks: Checks | None):
        self.checks, self.rows, self._last = checks, [], None

    def mark(self) -> None:
        if self.checks is not None:
            now = self.checks.snapshot()
            if self._last is not None:
                self.rows.append(tuple(b - a for a, b in zip(self._last, now)))
            self._last = now

    def columns(self, apart: str = "apart_syncs") -> dict:
        if self.checks is None:
            return {}
        c = np.array(self.rows, dtype=np.int64).reshape(-1, 4)
        return {"host_syncs": c[:, 0], "allocations": c[:, 1], "allocated_bytes": c[:, 2],
                apart: c[:, 3]}


def _caller() -> str:
    """file:line of the first frame outside ``backend`` and NumPy (the code that synced)."""
    f = sys._getframe(2)
    while f is not None and (os.path.dirname(f.f_code.co_filename) == _HERE
                             or "numpy" in f.f_code.co_filename.rsplit("site-packages", 1)[-1]):
        f = f.f_back
    if f is None:
        return "?"
    return f"{f.f_code.co_filename.rsplit('/', 2)[-1]}:{f.f_lineno}"


def _root(a):
    while isinstance(getattr(a, "base", None), np.ndarray):
        a = a.base
    return a


def _unwrap(x, roots: list):
    """``x`` with every CheckedArray replaced by its NumPy array (``roots`` collects the
    buffers of the inputs, to tell views from allocations)."""
    if isinstance(x, CheckedArray):
        roots.append(_root(x.a))
        return x.a
    if isinstance(x, np.ndarray):
        roots.append(_root(x))
        return x
    if isinstance(x, (list, tuple)):
        return type(x)(_unwrap(v, roots) for v in x)
    if isinstance(x, dict):
        return {k: _unwrap(v, roots) for k, v in x.items()}
    return x


def _is_mask(key) -> bool:
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, np.ndarray) and k.dtype == np.bool_ for k in keys)


class CheckedArray(NDArrayOperatorsMixin):
    """A NumPy array standing for a device array; see the module docstring."""

    __slots__ = ("a", "checks")
    __array_priority__ = 100

    def __init__(self, a: np.ndarray, checks: Checks):
        self.a = a
        self.checks = checks

    def _wrap(self, r, roots):
        return _wrap(r, roots, self.checks)

    # ---- host metadata: free ----------------------------------------------------------------
    shape = property(lambda self: self.a.shape)
    dtype = property(lambda self: self.a.dtype)
    ndim = property(lambda self: self.a.ndim)
    size = property(lambda self: self.a.size)
    nbytes = property(lambda self: self.a.nbytes)
    itemsize = property(lambda self: self.a.itemsize)
    T = property(lambda self: CheckedArray(self.a.T, self.checks))

    def __len__(self) -> int:
        return len(self.a)

    # ---- values read on the host: one synchronisation each ---------------------------------
    def _read(self, what):
        self.checks.sync(what)
        return self.a

    def __int__(self):
        return int(self._read("int()"))

    def __float__(self):
        return float(self._read("float()"))

    def __bool__(self):
        return bool(self._read("bool()"))

    def __index__(self):
        return self._read("index()").__index__()

    def __complex__(self):
        return complex(self._read("complex()"))

    def item(self, *args):
        return self._read(".item()").item(*args)

    def tolist(self):
        return self._read(".tolist()").tolist()

    def get(self):
        return self._read(".get()").copy()

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._read("np.asarray()"), dtype=dtype)

    def __iter__(self):
        return iter(self._read("iteration").copy())

    def __repr__(self):
        return f"CheckedArray({self._read('repr()')!r})"

    # ---- device work ---------------------------------------------------------------------
    def __getitem__(self, key):
        roots = [_root(self.a)]
        k = _unwrap(key, [])
        if _is_mask(k):
            self.checks.sync("boolean-mask index")
        return self._wrap(self.a[k], roots)

    def __setitem__(self, key, value):
        k = _unwrap(key, [])
        v = _unwrap(value, [])
        rng = self.checks.rng
        if (rng is not None and isinstance(k, np.ndarray) and k.ndim == 1
                and k.dtype.kind in "iu" and k.shape[0] > 1):
            perm = rng.permutation(k.shape[0])  # duplicate writes land in a random order
            if np.ndim(v) == 0:
                self.a[k[perm]] = v
                return
            v = np.asarray(v)
            if v.ndim >= 1 and v.shape[0] == k.shape[0]:
                self.a[k[perm]] = v[perm]
                return
        self.a[k] = v

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        roots = []
        ins = _unwrap(inputs, roots)
        kw = _unwrap(kwargs, roots)
        return self._wrap(getattr(ufunc, method)(*ins, **kw), roots)

    def __array_function__(self, func, types, args, kwargs):
        return _call(func, self.checks, args, kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):  # __array_interface__ & co. would let NumPy read it freely
            raise AttributeError(name)
        attr = getattr(self.a, name)
        if not callable(attr):
            return attr

        def method(*args, **kwargs):
            roots = [_root(self.a)]
            return self._wrap(attr(*_unwrap(args, roots), **_unwrap(kwargs, roots)), roots)

        return method


def _wrap(r, roots, checks: Checks):
    """A result as CheckedArrays (Python and NumPy scalars as 0-d arrays), allocations
    counted."""
    if isinstance(r, (tuple, list)):
        return type(r)(_wrap(v, roots, checks) for v in r)
    if isinstance(r, (np.generic, bool, int, float, complex)):
        r = np.asarray(r)
    if not isinstance(r, np.ndarray):
        return r
    if not any(_root(r) is x for x in roots):
        checks.allocated(_root(r))
    return CheckedArray(r, checks)


def _call(fn, checks: Checks, args, kwargs):
    name = getattr(fn, "__name__", "")
    if name in _DATA_SIZED or (name == "where" and len(args) == 1):
        checks.sync(f"{name}() (data-dependent size)")
    roots = []
    uargs, ukw = _unwrap(args, roots), _unwrap(kwargs, roots)
    if name in _METADATA:
        return fn(*uargs, **ukw)
    if name in _UPLOADS and args and not isinstance(args[0], CheckedArray):
        roots = []  # host data copied to the device: always a new buffer
        uargs = (np.array(uargs[0], copy=True, dtype=ukw.pop("dtype", None)), *uargs[1:])
    return _wrap(fn(*uargs, **ukw), roots, checks)


class _Ufunc:
    """A NumPy ufunc whose calls and methods (``at``, ``reduce``...) go through the checks."""

    def __init__(self, ufunc, checks):
        self.ufunc, self.checks = ufunc, checks

    def __call__(self, *args, **kwargs):
        return _call(self.ufunc, self.checks, args, kwargs)

    def __getattr__(self, name):
        attr = getattr(self.ufunc, name)
        if not callable(attr):
            return attr
        return lambda *args, **kwargs: _call(attr, self.checks, args, kwargs)


class CheckedNumPy:
    """The ``xp`` of ``numpy-checked``: NumPy's namespace, every call checked."""

    ndarray = CheckedArray

    def __init__(self, checks: Checks):
        self.checks = checks
        self._cache = {}

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        cache = self.__dict__["_cache"]
        if name not in cache:
            obj = getattr(np, name)  # AttributeError for cuda & co.: not NumPy's
            if isinstance(obj, np.ufunc):
                obj = _Ufunc(obj, self.checks)
            elif callable(obj) and not isinstance(obj, type):
                fn = obj
                obj = lambda *args, _fn=fn, **kwargs: _call(_fn, self.checks, args, kwargs)
            cache[name] = obj
        return cache[name]
