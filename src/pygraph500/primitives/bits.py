"""Bit operations from ``@njit`` code: ``cttz`` (trailing zeros, to walk the set bits of a
bitmap word) and ``popcount`` on uint64 words; ``f32_bits`` / ``bits_f32``, the float32 <->
int32 bitcasts of kernel 3 (non-negative float32 values order as their bit patterns do, so a
distance fits in an integer word that atomics can compare). Numba intrinsics expanding to one
LLVM instruction each. ``LOW32``: the mask of a word's low half, where two 32-bit values
share an int64 (``hi << 32 | lo``).
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["cttz", "popcount", "f32_bits", "bits_f32", "LOW32"]

LOW32 = np.int64(0xFFFFFFFF)


def _uint64_unary(emit, doc):
    """A numba intrinsic ``f(x)`` on one uint64 that emits ``emit(builder, x)``."""

    @intrinsic
    def op(typingctx, x):
        if x != types.uint64:
            return None

        def codegen(context, builder, signature, args):
            return emit(builder, args[0])

        return types.uint64(types.uint64), codegen

    op.__doc__ = doc
    return op


def _emit_ctpop(builder, x):
    i64 = ir.IntType(64)
    fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64]),
                                        "llvm.ctpop.i64")
    return builder.call(fn, [x])


cttz = _uint64_unary(lambda builder, x: builder.cttz(x, ir.Constant(ir.IntType(1), 1)),
                     "Number of trailing zero bits of a non-zero unsigned 64-bit integer.")
popcount = _uint64_unary(_emit_ctpop, "Number of set bits of an unsigned 64-bit integer.")


@intrinsic
def f32_bits(typingctx, x):
    """The bit pattern of a float32, as an int32 (a bitcast, no conversion)."""
    if x != types.float32:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(32))

    return types.int32(types.float32), codegen


@intrinsic
def bits_f32(typingctx, x):
    """The float32 whose bit pattern is the int32 ``x`` (the inverse of ``f32_bits``)."""
    if x != types.int32:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.FloatType())

    return types.float32(types.int32), codegen
