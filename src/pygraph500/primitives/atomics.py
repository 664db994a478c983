"""Atomic read-modify-write on one element of an integer array, from ``@njit`` code.

- ``cas(arr, i, expected, new)``: compare-and-swap; True when it swapped.
- ``fetch_add(arr, i, value)``: fetch-and-add; returns the value held before.
- ``fetch_or(arr, i, value)``: fetch-and-or (to claim a vertex in a shared bitmap).
- ``fence()``: a full memory barrier (sequentially consistent), for code that publishes data
  through an atomic (a task record, then its handle): neither the compiler nor the CPU moves
  loads or stores across it.

``fetch_add``/``fetch_or`` take ``i`` as an integer, or as a tuple ``(row, col)`` for a 2-D
array. All are numba intrinsics expanding to plain LLVM IR (``monotonic`` ordering), so
functions using them can still be cached (no function-pointer address is baked in).
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["cas", "fetch_add", "fetch_or", "fetch_min", "fence"]


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
fetch_min = _atomic_rmw("min", "Atomically lower arr[idx] to value if value is smaller (signed); "
                       "return the value it held before. On the int32 bits of non-negative "
                       "float32 values this is the float minimum (their bit patterns order "
                       "as the numbers do).")


@intrinsic
def fence(typingctx):
    """A sequentially consistent memory fence (the atomics above are ``monotonic``: they
    order nothing around them)."""
    sig = types.none()

    def codegen(context, builder, signature, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()

    return sig, codegen
