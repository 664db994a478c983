"""Hints for ``@njit`` code that change its speed, never its result.

- ``prefetch(arr, i)``: ask the CPU to bring ``arr[i]``'s cache line in (no fault, no
  result; an index past the end is harmless: nothing is read). The serial top-down levels
  load the lists of the vertices a few places ahead in the queue while the current one is
  scanned: on a grid those lines come from L3 or memory, and the out-of-order window alone
  overlaps only a few vertices. A numba intrinsic expanding to LLVM's ``llvm.prefetch``, so
  functions using it can still be cached.
- ``hold(arr)``: nothing, but a use of ``arr``. An ``inline="always"`` function that reads
  an array argument on some paths only gets numba's release of that array on each path, a
  pattern numba's reference-count pruning does not remove: every call of it in a loop then
  costs an atomic increment and decrement per array (a path's BFS 8x slower). Calling
  ``hold`` on each array at the function's end gives them one release there, which is
  pruned.
"""
from __future__ import annotations

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch", "hold"]


@intrinsic
def prefetch(typingctx, arr, idx):
    """Prefetch the cache line holding ``arr[idx]`` (1-D array, integer index)."""
    if not isinstance(arr, types.Array) or arr.ndim != 1 or not isinstance(idx, types.Integer):
        return None
    sig = types.none(arr, idx)

    def codegen(context, builder, signature, args):
        aryty, idxty = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        i = context.cast(builder, args[1], idxty, types.intp)
        # no bounds check, no wraparound: a prefetch of any address is harmless
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [i], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
            "llvm.prefetch.p0")
        # rw = 0 (read), locality = 3 (keep in every level), cache type = 1 (data)
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(inline="always")
def hold(arr):
    """A use of ``arr`` and nothing else (see the module's docstring)."""
    return None
