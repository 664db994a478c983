"""A monotonic clock callable from ``@njit`` code, so kernels that run many BFS levels in one
call can still time each level.

``clock_ns()`` is ``clock_gettime(CLOCK_MONOTONIC)`` in nanoseconds on POSIX; where no such
clock exists (Windows) it returns 0 and levels timed by it report ``time == 0.0``. It is a
numba intrinsic that expands to plain LLVM IR, so functions using it can still be cached.
"""
from __future__ import annotations

import sys

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["clock_ns", "HAVE_CLOCK"]

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
