"""The number of CPU threads the compiled kernels use (numba's thread pool)."""
from __future__ import annotations

from ..errors import InputError


def check_threads(threads: int | None) -> None:
    """InputError unless ``threads`` is None or in 1..NUMBA_NUM_THREADS."""
    import numba

    if threads is not None:
        limit = numba.config.NUMBA_NUM_THREADS
        if not isinstance(threads, int) or not 1 <= threads <= limit:
            raise InputError(f"--threads must be in [1, {limit}], got {threads!r}")


def set_threads(threads: int | None) -> int:
    """Use ``threads`` worker threads (None: leave numba's default, all cores); returns the
    number in use. InputError outside 1..NUMBA_NUM_THREADS."""
    import numba

    check_threads(threads)
    if threads is not None:
        numba.set_num_threads(threads)
    return numba.get_num_threads()
