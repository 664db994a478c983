"""``hybrid``: paper 002's task-based BFS over the CPU and an array side (Munguía, Bader,
Ayguadé, "Task-based Parallel Breadth-First Search in Heterogeneous Environments").

- ``tasks``: the graph cut into t contiguous vertex ranges, independent of the threads.
- ``cpu``: the compiled CPU engine (the CPU task, Algorithm 4; bottom-up too) and the host's
  side of the exchange.
- ``device``: the array side on ``xp`` (CuPy on a GPU, NumPy where none); ``warp``: the GPU
  task of Algorithm 3, warp-cooperative, as a numba.cuda kernel.
- ``standin``: an array side of controlled speed (the CPU kernels, clock modelled).
- ``link``: every transfer between host and array side, counted per level.
- ``tuner``: lambda chosen per level by a cost model fitted on measured levels.
- ``search``: the level loop; ``records``: its level table; ``options``: the checks and
  what a graph keeps between searches.
"""
from __future__ import annotations

from ..array.queue_based import resolve_backend
from ...errors import InputError
from .device import ArrayDevice
from .options import (CLOCKS, DEFAULT_SHARE, DEFAULT_TASKS, DIRECTIONS, MODES, HybridOptions,
                      parse_lambda, plan_for)
from .search import run_search
from .standin import StandinDevice

__all__ = ["bfs_hybrid", "MODES", "CLOCKS", "DIRECTIONS", "DEFAULT_TASKS", "DEFAULT_SHARE", "parse_lambda",
           "HybridOptions"]


def bfs_hybrid(graph, root, *, tasks=DEFAULT_TASKS, mode="workload", lam=None, gpu_share=None,
               standin_speed=None, clock="measured", backend="cpu", warp=None, alpha=15.0,
               beta=18.0, direction="both", depth=True):
    """Paper 002's hybrid BFS from ``root`` (``search``'s docstring says how it works).

    ``tasks``: t, the number of vertex ranges (default 128). ``mode``: "workload" (a task
    with more than ``lam`` frontier vertices runs on the array side; ``lam`` a number >= 0 or
    "auto"/None: chosen per level by the tuner, fitted on the levels measured so far) or
    "fixed" (the first ``gpu_share`` of the tasks, default 0.5, always on the array side).
    lam = 0: every task with work on the array side; lam = N: all on the CPU.
    ``backend``: the array side's ("cpu": NumPy, "gpu": CuPy, "auto", "numpy-checked", or an
    ArrayBackend). ``warp``: top-down levels there by Algorithm 3's kernel (default: on a
    CUDA device; True on NumPy needs numba's CUDA simulator). ``standin_speed``: k > 0, the
    array side is the stand-in (``standin``) at k times the CPU engine's speed;
    ``clock="work"`` then charges both sides by their work at fixed rates (a deterministic
    model, for tests). ``direction``: "both" (Beamer's bottom-up levels added, switched by
    ``alpha`` and ``beta`` as direction-optimizing; lambda then splits the bottom-up
    candidates too) or "top-down" (the paper's algorithm: every level top-down, lambda on
    the frontier only).
    Returns parent, depth (``depth=False``: none) and the level table of ``records``.
    A graph keeps its tasks, the array side's copy of its graph parts and the tuner's
    measurements between searches (one search at a time per graph and setting).
    """
    opts = HybridOptions.check(tasks, mode, lam, gpu_share, standin_speed, clock, alpha, beta,
                               direction)
    if opts.standin is not None:
        if backend != "cpu":
            raise InputError("standin_speed replaces the array side: no backend to give it "
                             f"(got backend {backend!r})")
        speed = opts.standin
        key = ("standin", speed, opts.clock)
        concurrent = True  # modelled as a device working beside the CPU

        def make_side(ts, g):
            return StandinDevice(ts, g, speed)
    else:
        be = resolve_backend(backend)
        key = ("array", be.name, be.device_id, None if be.checks is None else id(be.checks),
               warp, opts.clock)
        concurrent = be.on_cuda  # NumPy (and numpy-checked) block the host: one after the other

        def make_side(ts, g):
            return ArrayDevice(ts, g, be, warp)
    checks = None if opts.standin is not None else be.checks
    plan = plan_for(graph, opts.tasks, key, make_side, concurrent, checks)
    with plan.lock:
        return run_search(plan, graph, root, opts, bool(depth))
