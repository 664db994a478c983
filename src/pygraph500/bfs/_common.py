"""Low-level helpers shared by the compiled BFS kernels (and kernel 1).

- ``clock_ns()``: a monotonic clock callable from ``@njit`` code (``clock_gettime`` on POSIX),
  so kernels that run many BFS levels in one call can still time each level. Where no such
  clock exists (Windows) it returns 0 and levels timed by it report ``time == 0.0``.
- ``cas(arr, i, expected, new)``: atomic compare-and-swap on one element of an integer array.
- ``fetch_add(arr, i, value)``: atomic fetch-and-add on one element of an integer array.
- ``fetch_or(arr, i, value)``: atomic fetch-and-or (to claim a vertex in a shared bitmap).
  Both take ``i`` as an integer, or as a tuple ``(row, col)`` for a 2-D array.
- ``cttz(x)``: trailing zero bits of a non-zero uint64 (to walk the set bits of a bitmap word).
- ``popcount(x)``: set bits of a uint64.

All of them are numba intrinsics that expand to plain LLVM IR, so functions using them can still
be cached (``cache=True``): nothing process-specific (no function-pointer address) is baked in.

Importing this module also makes numba's on-disk cache of every function of this package
depend on all the package's modules (``_install_package_cache_stamp``): numba checks only the
file that defines a function, but an algorithm's compiled level loop contains the kernels of
``steps.py`` and the intrinsics above; without this, editing ``steps.py`` would leave the
algorithms running stale cached code.
"""
from __future__ import annotations

import hashlib
import operator
import os
import sys

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["clock_ns", "cas", "fetch_add", "fetch_or", "cttz", "popcount", "HAVE_CLOCK",
           "check_root"]

# CLOCK_MONOTONIC differs between platforms.
_CLOCK_MONOTONIC = {"linux": 1, "darwin": 6}.get(
    "linux" if sys.platform.startswith("linux") else sys.platform, 1
)
HAVE_CLOCK = not sys.platform.startswith("win")


@intrinsic
def clock_ns(typingctx):
    """Nanoseconds of a monotonic clock (0 where none is available)."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        i64 = ir.IntType(64)
        if not HAVE_CLOCK:
            return ir.Constant(i64, 0)
        ts_t = ir.LiteralStructType([i64, i64])  # struct timespec on LP64
        fnty = ir.FunctionType(i32, [i32, ts_t.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, ts_t)
        builder.call(fn, [ir.Constant(i32, _CLOCK_MONOTONIC), ts])
        sec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 0))
        nsec = builder.load(cgutils.gep_inbounds(builder, ts, 0, 1))
        return builder.add(builder.mul(sec, ir.Constant(i64, 1_000_000_000)), nsec)

    return sig, codegen


def _element_pointer(context, builder, aryty, ary, idx, idxty=types.intp):
    """Pointer to ``ary[idx]``; ``idx`` an integer, or a tuple of integers (one per
    dimension) when ``idxty`` is a tuple type."""
    arr = context.make_array(aryty)(context, builder, ary)
    if isinstance(idxty, types.BaseTuple):
        inds = [context.cast(builder, builder.extract_value(idx, k), t, types.intp)
                for k, t in enumerate(idxty)]
    else:
        inds = [idx]
    return cgutils.get_item_pointer(context, builder, aryty, arr, inds, wraparound=False)


@intrinsic
def cas(typingctx, arr, idx, expected, new):
    """Atomically: if arr[idx] == expected, set it to new and return True; else False."""
    if not isinstance(arr, types.Array) or not isinstance(arr.dtype, types.Integer):
        return None
    dtype = arr.dtype
    sig = types.boolean(arr, types.intp, dtype, dtype)

    def codegen(context, builder, signature, args):
        ary, i, exp, val = args
        ptr = _element_pointer(context, builder, signature.args[0], ary, i)
        res = builder.cmpxchg(ptr, exp, val, "monotonic", "monotonic")
        return builder.extract_value(res, 1)

    return sig, codegen


def _atomic_rmw(op: str, doc: str):
    """An intrinsic ``f(arr, idx, value)``: atomically ``arr[idx] = arr[idx] <op> value``,
    returning the value it held before."""

    @intrinsic
    def rmw(typingctx, arr, idx, value):
        if not isinstance(arr, types.Array) or not isinstance(arr.dtype, types.Integer):
            return None
        if isinstance(idx, types.BaseTuple):  # arr[i, j]: one integer per dimension
            if len(idx) != arr.ndim or not all(isinstance(t, types.Integer) for t in idx):
                return None
            idxty = idx
        else:
            idxty = types.intp
        sig = arr.dtype(arr, idxty, arr.dtype)

        def codegen(context, builder, signature, args):
            ary, i, val = args
            ptr = _element_pointer(context, builder, signature.args[0], ary, i,
                                   signature.args[1])
            return builder.atomic_rmw(op, ptr, val, "monotonic")

        return sig, codegen

    rmw.__doc__ = doc
    return rmw


fetch_add = _atomic_rmw("add", "Atomically add value to arr[idx]; return the value it held before.")
fetch_or = _atomic_rmw("or", "Atomically OR value into arr[idx]; return the value it held before.")


@intrinsic
def cttz(typingctx, x):
    """Number of trailing zero bits of a non-zero unsigned 64-bit integer."""
    if x != types.uint64:
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an unsigned 64-bit integer."""
    if x != types.uint64:
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return sig, codegen


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _package_stamp():
    """A digest of every module of this package (path, size, contents)."""
    h = hashlib.sha256()
    for name in sorted(os.listdir(_PACKAGE_DIR)):
        if name.endswith(".py"):
            with open(os.path.join(_PACKAGE_DIR, name), "rb") as f:
                h.update(name.encode() + b"\0" + f.read() + b"\0")
    return h.digest()


def _install_package_cache_stamp():
    """Put cache locators first in numba's list that, for functions defined in this package
    only, stamp the cache with all its modules. Uses numba internals; if they are missing,
    nothing is installed (numba's default behaviour)."""
    try:
        from numba.core import caching
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        bases = (getattr(caching, "InTreeCacheLocator", None)
                 or caching._InTreeCacheLocator,
                 getattr(caching, "UserWideCacheLocator", None)
                 or caching._UserWideCacheLocator)
    except (ImportError, AttributeError):
        return
    stamp = []

    def get_source_stamp(self):
        if not stamp:
            stamp.append(_package_stamp())
        return stamp[0]

    def from_function(cls, py_func, py_file):
        if os.path.dirname(os.path.abspath(py_file)) != _PACKAGE_DIR:
            return None
        return super(cls, cls).from_function.__func__(cls, py_func, py_file)

    made = [type("Package" + base.__name__, (base,),
                 {"get_source_stamp": get_source_stamp,
                  "from_function": classmethod(from_function)}) for base in bases]
    if not any(c.__name__ == made[0].__name__ for c in impl._locator_classes):
        impl._locator_classes[0:0] = made


_install_package_cache_stamp()


def check_root(graph, root) -> int:
    """The root as a Python int; InputError when it is not a vertex of the graph."""
    from ..errors import InputError

    try:
        r = operator.index(root)
    except TypeError:
        raise InputError(f"BFS root must be an integer vertex label, got {root!r}") from None
    if not 0 <= r < graph.num_vertices:
        raise InputError(
            f"BFS root {r} is not a vertex: the graph has {graph.num_vertices} vertices "
            f"(labels 0..{graph.num_vertices - 1})"
        )
    return r
