"""Kernel 3's weights on disk and their checks.

A separate weight file is what the Graph500 reference writes beside its edges
(``TMPFILE.weights``): float32 per edge tuple, in generation order, nothing else; here
always little-endian. ``float32_weights`` is the one check every weighted reader applies:
shortest paths are undefined with negative or NaN weights, and a weight float32 cannot hold
would silently become infinity, so each is an InputError naming the file and the record.
"""
from __future__ import annotations

import numpy as np

from ..errors import InputError
from . import chunked_io
from .file_access import check_readable, open_error, readable_input
from .outputs import atomic_writer
from .text_kernels import F32_ROUNDS_TO_INF

__all__ = ["read_weights", "write_weights", "float32_weights", "weight_problem", "NO_WEIGHTS_HINT"]

# What to say when a file holds no weights (the options of the `graph500` command).
NO_WEIGHTS_HINT = ("give them in a format that holds them (SNAP third column, CSV weight "
                   "column, Matrix Market real, npz weight) or use --unit-weights")


def weight_problem(x: float) -> str | None:
    """Why ``x`` is not a kernel 3 weight (None when it is one)."""
    if x != x:
        return "weight is NaN (not a number)"
    if x < 0:
        return f"negative weight {float(x)!r} (shortest paths need weights >= 0)"
    if x == float("inf"):
        return "weight inf is not a finite number"
    if x >= F32_ROUNDS_TO_INF:
        return f"weight {float(x)!r} overflows float32 (largest {float(np.finfo(np.float32).max)!r})"
    return None


def float32_weights(values, path: str, describe, *, copy: bool = True) -> np.ndarray:
    """``values`` as a contiguous float32 array, -0.0 made 0.0 (in place when ``copy`` is
    False and they are float32 already); InputError naming the file and ``describe(j)`` of
    the first negative, NaN or float32-overflowing one."""
    v = np.asarray(values)
    if v.ndim != 1 or v.dtype.kind not in "iuf":
        raise InputError(f"{path}: weights must be a 1-D array of real numbers, got {v.dtype}{list(v.shape)}")
    if v.dtype == np.float32:
        w = np.array(v, copy=True, order="C") if copy else np.ascontiguousarray(v)
    else:
        w = np.empty(v.shape[0], dtype=np.float32)  # filled a block at a time below
    step = 1 << 22  # checked a block at a time: the masks stay small
    with np.errstate(over="ignore", invalid="ignore"):
        for a in range(0, v.shape[0], step):
            part = v[a:a + step]
            if part.dtype != w.dtype:
                w[a:a + step] = part
            bad = ~(part >= 0) | np.isinf(w[a:a + step])
            if bad.any():
                j = a + int(np.argmax(bad))
                x = float(v[j]) if v.dtype.kind == "f" else int(v[j])
                raise InputError(f"{path}: {describe(j)}: {weight_problem(x)}")
    np.abs(w, out=w)  # -0.0 -> 0.0: its sign bit would sort it above every weight
    return w


def write_weights(path: str, weights) -> None:
    """Write one little-endian float32 per edge tuple (the reference's ``.weights`` file),
    atomically; InputError for a negative, NaN or float32-overflowing weight."""
    v = np.asarray(weights)
    if v.ndim != 1:
        raise InputError(f"cannot write {path}: weights must be a 1-D array, got shape {list(v.shape)}")
    step = max(1, chunked_io.CHUNK_BYTES // 4)
    with atomic_writer(path) as f:
        for a in range(0, v.shape[0], step):  # a block converted and checked at a time
            w = float32_weights(v[a:a + step], path, lambda j, a=a: f"weight {a + j}")
            f.write(memoryview(w.astype("<f4", copy=False)).cast("B"))


def read_weights(path: str, count: int | None = None) -> np.ndarray:
    """The float32 weights of a weight file (little-endian float32 per tuple). InputError when
    the size is not a whole number of float32s, when ``count`` (the number of edge tuples) is
    given and differs, or for a negative, NaN or infinite weight (named by index and offset)."""
    with readable_input(path) as local:
        return _read_weights(local, count)


def _read_weights(path: str, count: int | None) -> np.ndarray:
    size = check_readable(path)
    if size % 4:
        raise InputError(f"{path}: {size} bytes is not a whole number of float32 weights "
                         f"(4 bytes each; the last has {size % 4})")
    if count is not None and size // 4 != int(count):
        raise InputError(f"{path}: holds {size // 4} weights, but the graph has {int(count)} "
                         f"edge tuples (one weight per tuple, in file order)")
    try:
        raw = np.fromfile(path, dtype="<f4")
    except OSError as exc:
        raise open_error(path, exc) from None
    if raw.shape[0] != size // 4:
        raise InputError(f"{path}: truncated at byte offset {4 * raw.shape[0]} (file shrank while read)")
    return float32_weights(raw, path, lambda j: f"weight {j} (byte offset {4 * j})", copy=False)
