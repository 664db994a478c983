"""Low-level helpers shared by the compiled BFS kernels (and kernel 1).

- ``clock_ns()``: a monotonic clock callable from ``@njit`` code (``clock_gettime`` on POSIX),
  so kernels that run many BFS levels in one call can still time each level. Where no such
  clock exists (Windows) it returns 0 and levels timed by it report ``time == 0.0``.
- ``cas(arr, i, expected, new)``: atomic compare-and-swap on one element of an integer array.
- ``fetch_add(arr, i, value)``: atomic fetch-and-add on one element of an integer array.
- ``cttz(x)``: trailing zero bits of a non-zero uint64 (to walk the set bits of a bitmap word).

All of them are numba intrinsics that expand to plain LLVM IR, so functions using them can still
be cached (``cache=True``): nothing process-specific (no function-pointer address) is baked in.
"""
from __future__ import annotations

import gc
import itertools
import operator
import sys

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["clock_ns", "cas", "fetch_add", "cttz", "HAVE_CLOCK", "check_root", "levels_from_arrays"]

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


def _element_pointer(context, builder, aryty, ary, idx):
    arr = context.make_array(aryty)(context, builder, ary)
    return cgutils.get_item_pointer(context, builder, aryty, arr, [idx], wraparound=False)


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


@intrinsic
def fetch_add(typingctx, arr, idx, value):
    """Atomically add value to arr[idx]; return the value it held before."""
    if not isinstance(arr, types.Array) or not isinstance(arr.dtype, types.Integer):
        return None
    dtype = arr.dtype
    sig = dtype(arr, types.intp, dtype)

    def codegen(context, builder, signature, args):
        ary, i, val = args
        ptr = _element_pointer(context, builder, signature.args[0], ary, i)
        return builder.atomic_rmw("add", ptr, val, "monotonic")

    return sig, codegen


@intrinsic
def cttz(typingctx, x):
    """Number of trailing zero bits of a non-zero unsigned 64-bit integer."""
    if x != types.uint64:
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


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


def _aslist(x) -> list:
    return x if isinstance(x, list) else np.asarray(x).tolist()


def levels_from_arrays(frontier, edges, discovered, seconds, directions, start_level=0):
    """LevelStats list from per-level columns (lists or arrays; direction: one str or a
    sequence of str; times in seconds).

    A BFS of a path of N vertices has N levels: the objects are made with the cyclic garbage
    collector paused (it would otherwise rescan the growing list over and over, ~4x slower).
    """
    from .types import LevelStats

    fr = _aslist(frontier)
    n = len(fr)
    ed = _aslist(edges)
    di = _aslist(discovered)
    tm = _aslist(seconds)
    if isinstance(directions, str):
        directions = itertools.repeat(directions, n)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return list(map(LevelStats, range(start_level, start_level + n), fr, ed, di,
                        directions, tm))
    finally:
        if was_enabled:
            gc.enable()
