"""The hybrid BFS's options, checked once (one line each when wrong), and what is kept per
graph between searches (``Plan``: the tasks, the array side with its graph parts, the
tuner's measurements).
"""
from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass

import numba
import numpy as np

from ...errors import InputError, shown
from ..types import check_positive
from .tasks import TaskSet, check_tasks
from .tuner import Tuner

__all__ = ["MODES", "CLOCKS", "DIRECTIONS", "DEFAULT_TASKS", "DEFAULT_SHARE", "HybridOptions", "parse_lambda",
           "check_share", "Plan", "plan_for"]

MODES = ("workload", "fixed")  # paper 002's two schemes (section V-A and V-B)
CLOCKS = ("measured", "work")
# both: Beamer's bottom-up levels added (lambda then splits the bottom-up candidates too);
# top-down: paper 002's algorithm, every level top-down, lambda on the frontier only
DIRECTIONS = ("both", "top-down")
DEFAULT_TASKS = 128  # paper 002's Fig. 9 peaks near 128 tasks
DEFAULT_SHARE = 0.5


def parse_lambda(value) -> float | None:
    """None for "auto" (or None), else the threshold as a number >= 0 (inf: all on the CPU);
    InputError otherwise."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "auto"):
        return None
    try:
        lam = float(value)
    except (TypeError, ValueError):
        lam = math.nan
    if isinstance(value, bool) or not lam >= 0:
        raise InputError(f"lambda must be 'auto' or a number >= 0 (vertices), got "
                         f"{shown(value)}", "lambda")
    return lam


def check_share(value) -> float:
    """The fixed mode's share of tasks on the array side, a number in [0, 1]."""
    try:
        share = float(value)
    except (TypeError, ValueError):
        share = math.nan
    if isinstance(value, bool) or not 0.0 <= share <= 1.0:
        raise InputError(f"gpu_share must be a number in [0, 1], got {shown(value)}", "gpu_share")
    return share


@dataclass
class HybridOptions:
    """The checked options of a hybrid search (see ``bfs_hybrid``)."""
    tasks: int = DEFAULT_TASKS
    mode: str = "workload"
    lam: float | None = None      # None: auto
    share: float = DEFAULT_SHARE
    standin: float | None = None  # the stand-in's speed (None: the array engine)
    clock: str = "measured"
    alpha: float = 15.0
    beta: float = 18.0
    direction: str = "both"

    @classmethod
    def check(cls, tasks=DEFAULT_TASKS, mode="workload", lam=None, gpu_share=None,
              standin_speed=None, clock="measured", alpha=15.0, beta=18.0,
              direction="both") -> "HybridOptions":
        if mode not in MODES:
            raise InputError(f"mode must be one of {', '.join(MODES)}; got {mode!r}", "mode")
        if mode == "fixed" and lam is not None:
            raise InputError("lambda applies to hybrid mode workload (mode fixed splits the "
                             "tasks by gpu_share)", "lambda")
        if mode == "workload" and gpu_share is not None:
            raise InputError("gpu_share applies to hybrid mode fixed (mode workload splits "
                             "them by lambda)", "gpu_share")
        if clock not in CLOCKS:
            raise InputError(f"clock must be one of {', '.join(CLOCKS)}; got {clock!r}")
        if direction not in DIRECTIONS:
            raise InputError(f"direction must be one of {', '.join(DIRECTIONS)}; got "
                             f"{shown(direction)}", "direction")
        speed = (None if standin_speed is None
                 else check_positive("standin_speed", standin_speed))
        if clock == "work" and speed is None:
            raise InputError("clock 'work' models the stand-in's levels: give standin_speed")
        return cls(check_tasks(tasks), mode, parse_lambda(lam),
                   DEFAULT_SHARE if gpu_share is None else check_share(gpu_share), speed,
                   clock, check_positive("alpha", alpha), check_positive("beta", beta),
                   direction)


class Plan:
    """What a graph keeps between hybrid searches with the same tasks and array side: the
    ``TaskSet``, the array side (created at its first use; its graph parts stay there:
    ``vertex_array``, and the adjacency lists of the tasks ``on_side``), the ``Tuner``'s measurements. One search at a time (``lock``)."""

    def __init__(self, graph, tasks: int, make_side, concurrent: bool, checks=None):
        self.ts = TaskSet(graph, tasks)  # (no reference to the graph: the cache dies with it)
        self._make_side = make_side
        self.side = None
        self.on_side = np.zeros(self.ts.count, dtype=bool)  # tasks' adjacency lists there
        self.vertex_array = False  # the graph's indptr there
        self.tuner = Tuner(numba.get_num_threads(), concurrent)
        self.lock = threading.Lock()
        self.checks = checks  # numpy-checked's counters (the array side's syncs per level)

    def array_side(self, graph):
        if self.side is None:
            self.side = self._make_side(self.ts, graph)
        return self.side


_plans: dict = {}


def plan_for(graph, tasks: int, key, make_side, concurrent: bool, checks=None) -> Plan:
    """The graph's Plan for ``tasks`` and the array side ``key`` (made by ``make_side(ts,
    graph)`` when first needed; ``concurrent``: whether it works while the CPU does), kept
    while the graph lives; ``checks``: numpy-checked's counters."""
    full = (id(graph), tasks, key)
    plan = _plans.get(full)
    if plan is None:
        plan = _plans[full] = Plan(graph, tasks, make_side, concurrent, checks)
        weakref.finalize(graph, _plans.pop, full, None)
    return plan
