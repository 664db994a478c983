"""The one run loop: any ``Engine`` through the Graph500 phases, timed as the reference times them.

Code warm-up (untimed in the block, reported as code_warmup_time), generation or reading
(graph_generation), kernel 1 (construction_time), roots, then for each kernel of the run (BFS,
SSSP or both, in that order) one untimed warm-up search and per root one timed search and its
untimed validation; the loop stops at the first invalid result, as the reference does. Every
timed phase starts after ``engine.barrier()`` and takes ``engine.elapsed`` (the slowest rank's
seconds on a distributed engine). A user's input is read before the warm-up, so that a bad
file is refused in seconds, not after kernels have compiled; where the reader's kernels are
not yet in the cache (once per install), its reading time includes compiling them.
"""
from __future__ import annotations

import time

import numpy as np

from ..errors import InputError
from ..primitives.numba_cache import compiled_before, note_compiled
from .compile_ahead import compile_ahead
from .config import RunConfig
from .engine import Engine
from .result import BenchmarkResult, SearchRun

__all__ = ["timed", "run_trials", "run_engine"]


def _silent(*args) -> None:
    pass


def timed(engine: Engine, fn, *args):
    """(fn(*args), seconds), the phase started together on every process of ``engine``."""
    engine.barrier()
    t0 = time.perf_counter()
    out = fn(*args)
    return out, engine.elapsed(t0)


# What the progress line calls each kernel's searches.
SEARCH_PHASES = {"bfs": "search", "sssp": "sssp search"}


def run_trials(engine: Engine, roots: np.ndarray, *, validate: bool = True,
               record_levels: bool = True, progress=_silent) -> list[SearchRun]:
    """A warm-up search, then per root a timed search and (``validate``) its untimed check,
    of the engine's current kernel; stops after the first invalid result. ``record_levels``:
    keep per-level (per-phase for SSSP) dicts."""
    runs: list[SearchRun] = []
    phase = SEARCH_PHASES[engine.kernel]
    if len(roots):  # warm-up search, as the reference does
        engine.fetch(engine.search(int(roots[0])))
    for i, root in enumerate(roots.tolist()):
        progress(phase, i, len(roots))
        engine.begin("search")
        # The clock stops when the search is done where it ran (a GPU synchronised); its
        # result comes to where the validator reads it afterwards, untimed.
        result, elapsed = timed(engine, engine.search, root)
        result = engine.fetch(result)
        levels = engine.levels(result) if record_levels else []
        if validate:
            engine.begin("validation")
            verdict, vtime = timed(engine, engine.validate, result, root)
            run = SearchRun(root, elapsed, verdict.nedge, verdict.valid, vtime, verdict.rule,
                            verdict.message, levels)
        else:
            run = SearchRun(root, elapsed, engine.count_edges(result), None, -1.0, levels=levels)
        runs.append(run)
        if run.valid is False:
            break  # the reference stops at the first invalid tree
    progress(phase, len(roots), len(roots))
    return runs


def _load(engine: Engine, report) -> tuple[float, float]:
    """Generation or reading, timed, then the check that the graph fits: (its seconds, the
    seconds of kernel 1 done inside it)."""
    if engine.load_phase:
        report(engine.load_phase, 0, 1)
    engine.begin("generation")
    _, seconds = timed(engine, engine.load)
    seconds, kernel1_in_load = engine.split_load(seconds)
    if engine.load_phase:
        report(engine.load_phase, 1, 1)
    engine.fits()
    return seconds, kernel1_in_load


def run_engine(engine: Engine, config: RunConfig, progress=None) -> BenchmarkResult:
    """The whole benchmark on ``engine``. ``progress(phase, done, total)`` is called as work
    advances (the CLI prints it on stderr; pass None on the processes that stay silent)."""
    report = progress or _silent
    cold = not compiled_before()  # numba compiles the kernels once per install
    if engine.reads_input:
        generation_time, kernel1_in_load = _load(engine, report)
    phase = "compiling kernels (once per install)" if cold else "warm-up"
    report(phase, 0, 1)
    t0 = time.perf_counter()
    if cold:
        compile_ahead(engine)  # the warm-up's parts at once on every core
    engine.warm_up()
    warmup_time = engine.elapsed(t0)
    report(phase, 1, 1)
    if cold:
        note_compiled()
    if not engine.reads_input:
        generation_time, kernel1_in_load = _load(engine, report)

    report("construction", 0, 1)
    engine.begin("construction")
    _, construction_time = timed(engine, engine.build)
    construction_time += kernel1_in_load
    report("construction", 1, 1)

    roots = engine.roots()
    if not len(roots):  # the same on every rank: they all stop here
        raise InputError("no search key: no vertex of the graph has an edge to another vertex "
                         "(self-loops do not count)")
    labels = engine.labels(roots)
    runs: dict[str, list[SearchRun]] = {}
    for kernel in config.search.kernels:  # every BFS, then every SSSP, as the reference runs them
        engine.use_kernel(kernel)
        runs[kernel] = run_trials(engine, roots, validate=config.search.validate,
                                  record_levels=config.output.record_levels, progress=report)
        if any(r.valid is False for r in runs[kernel]):
            break  # an invalid run prints no results: the next kernel would not change that
    return BenchmarkResult(config=config, generation_time=generation_time,
                           construction_time=construction_time, roots=roots,
                           runs=runs.get("bfs", []), sssp_runs=runs.get("sssp"),
                           labels=labels, warmup_time=warmup_time, **engine.result_fields())
