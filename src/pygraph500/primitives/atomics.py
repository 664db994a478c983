"""Atomic read-modify-write on one element of an integer array, from ``@njit`` code.

- ``cas(arr, i, expected, new)``: compare-and-swap; True when it swapped.
- ``fetch_add(arr, i, value)``: fetch-and-add; returns the value held before.
- ``fetch_or(arr, i, value)``: fetch-and-or (to claim a vertex in a shared bitmap).
- ``cas_acquire``, ``store_release``, ``fetch_add_acq_rel``: the same with ordering, for code
  that publishes data through an atomic (a lock, a join counter); the others order nothing
  around them.

``fetch_add``/``fetch_or`` take ``i`` as an integer, or as a tuple ``(row, col)`` for a 2-D
array. All are numba intrinsics expanding to plain LLVM IR (``monotonic`` ordering unless named), so
functions using them can still be cached (no function-pointer address is baked in).
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["cas", "cas_acquire", "store_release", "fetch_add", "fetch_add_acq_rel", "fetch_or",
           "fetch_min"]


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


def _cas(ordering: str, doc: str):
    """An intrinsic ``f(arr, idx, expected, new)``: compare-and-swap with ``ordering``."""

    @intrinsic
    def cas(typingctx, arr, idx, expected, new):
        if not isinstance(arr, types.Array) or not isinstance(arr.dtype, types.Integer):
            return None
        dtype = arr.dtype
        sig = types.boolean(arr, types.intp, dtype, dtype)

        def codegen(context, builder, signature, args):
            ary, i, exp, val = args
            ptr = _element_pointer(context, builder, signature.args[0], ary, i)
            failure = "monotonic" if ordering == "monotonic" else "acquire"
            res = builder.cmpxchg(ptr, exp, val, ordering, failure)
            return builder.extract_value(res, 1)

        return sig, codegen

    cas.__doc__ = doc
    return cas


cas = _cas("monotonic", "Atomically: if arr[idx] == expected, set it to new and return True; "
                        "else False.")
cas_acquire = _cas("acquire", "``cas`` that also orders: nothing after it moves before it (to "
                              "take a lock).")


@intrinsic
def store_release(typingctx, arr, idx, value):
    """``arr[idx] = value`` atomically, nothing before it moved after it (to release a lock)."""
    if not isinstance(arr, types.Array) or not isinstance(arr.dtype, types.Integer):
        return None
    sig = types.none(arr, types.intp, arr.dtype)

    def codegen(context, builder, signature, args):
        ary, i, val = args
        ptr = _element_pointer(context, builder, signature.args[0], ary, i)
        builder.store_atomic(val, ptr, "release", arr.dtype.bitwidth // 8)
        return context.get_dummy_value()

    return sig, codegen


def _atomic_rmw(op: str, doc: str, ordering: str = "monotonic"):
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
            return builder.atomic_rmw(op, ptr, val, ordering)

        return sig, codegen

    rmw.__doc__ = doc
    return rmw


fetch_add = _atomic_rmw("add", "Atomically add value to arr[idx]; return the value it held before.")
fetch_or = _atomic_rmw("or", "Atomically OR value into arr[idx]; return the value it held before.")
fetch_min = _atomic_rmw("min", "Atomically lower arr[idx] to value if value is smaller (signed); "
                       "return the value it held before. On the int32 bits of non-negative "
                       "float32 values this is the float minimum (their bit patterns order "
                       "as the numbers do).")

fetch_add_acq_rel = _atomic_rmw(
    "add", "``fetch_add`` that also orders: what this thread wrote before is seen by whoever "
    "reads the result after it (release), and this thread sees what those before it wrote "
    "(acquire): the last of several contributors then sees all their writes.", "acq_rel")
