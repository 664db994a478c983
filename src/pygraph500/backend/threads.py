"""The number of CPU threads the compiled kernels use (numba's thread pool)."""
from __future__ import annotations

import numbers

from ..errors import InputError, shown


def check_threads(threads: int | None) -> None:
    """InputError unless ``threads`` is None or an integer (NumPy's too) in
    1..NUMBA_NUM_THREADS."""
    import numba

    if threads is not None:
        limit = numba.config.NUMBA_NUM_THREADS
        if not isinstance(threads, numbers.Integral) or not 1 <= threads <= limit:
            raise InputError(f"threads must be in [1, {limit}], got {shown(threads)}", "threads")


def set_threads(threads: int | None) -> int:
    """Use ``threads`` worker threads (None: leave numba's default, all cores); returns the
    number in use. InputError outside 1..NUMBA_NUM_THREADS."""
    import numba

    check_threads(threads)
    if threads is not None:
        numba.set_num_threads(int(threads))
    return numba.get_num_threads()


# Other runnable processes at start that make the machine "shared": the run's threads then
# wait with a bounded spin. Measured (benchmarks/bench_shared.py, RESULTS.md): libgomp's
# default spin is the fastest on a quiet machine, and 4x slower than a bounded spin beside
# one busy process; a passive wait costs a third on a quiet machine.
BOUNDED_SPIN = "1000"
_WAIT_VARIABLES = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME")


def _runnable_others(samples: int = 5, interval: float = 0.004) -> float | None:
    """Other processes ready to run, the mean of a few looks at /proc/stat's run queue (this
    process excluded); None where there is no /proc/stat."""
    import time

    counts = []
    for _ in range(samples):
        try:
            with open("/proc/stat") as f:
                line = next(l for l in f if l.startswith("procs_running"))
        except (OSError, StopIteration):
            return None
        counts.append(int(line.split()[1]) - 1)
        time.sleep(interval)
    return sum(counts) / len(counts)


def shared_machine(threads: int | None) -> str | None:
    """Called before the first parallel kernel: when other processes compete for the cores the
    run's threads need, make OpenMP's waiting threads spin briefly, then sleep (unless the
    user set a wait policy), and return a note for the output; None on a free machine. The
    run queue is looked at now, not the load average, which still counts a run that has just
    ended."""
    import os

    cores = os.cpu_count() or 1
    want = threads or cores
    others = _runnable_others()
    if others is None or others + min(want, cores) <= cores + 0.5:
        return None
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    note = (f"{others:.1f} other processes were running at the start (load average "
            f"{load:.2f}) on {cores} cores for {want} threads: timings may be disturbed")
    if not any(v in os.environ for v in _WAIT_VARIABLES):
        os.environ["GOMP_SPINCOUNT"] = BOUNDED_SPIN
        note += f"; threads wait with a bounded spin (GOMP_SPINCOUNT={BOUNDED_SPIN})"
    return note
