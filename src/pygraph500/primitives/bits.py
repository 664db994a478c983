"""Bit operations on uint64 words from ``@njit`` code: ``cttz`` (trailing zeros, to walk the
set bits of a bitmap word) and ``popcount``; numba intrinsics expanding to one LLVM
instruction each.
"""
from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["cttz", "popcount"]


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
