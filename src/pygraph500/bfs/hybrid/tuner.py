"""Lambda auto-tuning: a cost model of each side, fitted on measured levels, and per level the
lambda whose split the model predicts fastest (paper 002 leaves lambda to the user and names
its automatic tuning as future work).

Work of a task at a level: ``w = n + e``, n its vertices to visit (top-down: its frontier;
bottom-up: its unvisited vertices with neighbours) and e the adjacency entries they will
read. Top-down, e is exact (the frontier's degrees). Bottom-up, a scan stops at its first
frontier neighbour: with q the frontier's share of all adjacency entries, a candidate of
degree d reads about (1 - (1 - q)^d) / q entries (``bottom_up_entries``, with the task's mean
degree); a side that reads whole lists (the array side's vectorised bottom-up) reads all of
them (its e is the task's unvisited degree sum). Model of a side's time on a set S of tasks,
per direction:

- CPU engine: ``a + b * max(sum w, P * max w)``: P threads share the tasks, but a task runs
  on one thread, so the largest task bounds the level (why T = 1 uses one core);
- array side: ``a + b * sum w``, its transfers included (a is the launch and read cost).

``a`` and ``b`` come from a least-squares fit (relative errors, non-negative) of the levels
each side has run in that direction (the last ``KEEP``), refitted at the start of each
search. A level's predicted time is
max(CPU side, array side): both work at once (a GPU's kernels run while the CPU works). The split is a threshold (the paper's rule):
tasks with more than lambda vertices run on the array side. (Where the two sides cannot
work at once, NumPy's array side blocking the host, a level's time is their sum instead:
then a slower array side is worth no task at all.) Per level the tasks are sorted by
n and every cut between distinct n is evaluated (cumulative sums: O(T log T)); the chosen
lambda is the n of the largest task kept on the CPU (0 when all go to the array side; the
largest n when none does).

Until both sides have run levels of a direction whose work differs by ``SPAN`` times (a
fixed cost and a rate can then be told apart), levels of that direction explore: the array
side gets every ``EXPLORE``-th task by size (the largest first), the CPU the rest, so the
first search (the benchmark's untimed warm-up search) measures both at little cost when one
is slow; a direction stops exploring after ``EXPLORE_LEVELS`` such levels whatever it saw,
or once a search has ended (``done``) with both sides measured in it at least once: the
exploring stays inside the first search on a graph, never in the timed ones after it (a
model from levels of alike work is then a rate alone, ``fit``'s fallback).
"""
from __future__ import annotations

import math
import statistics
from collections import deque
from dataclasses import dataclass

import numpy as np

__all__ = ["Tuner", "Choice", "fit", "bottom_up_entries", "EXPLORE", "KEEP", "SPAN", "EXPLORE_LEVELS"]

EXPLORE = 8   # exploring levels give every 8th task (by size) to the array side
SPAN = 16     # a side is modelled once it has run levels of work differing this much
EXPLORE_LEVELS = 8  # ... or once a direction has explored this many levels
KEEP = 32     # measured levels kept per side and direction


@dataclass
class Choice:
    """A level's split: ``on_dev`` (a flag per task), ``lam`` (the threshold, None when
    exploring), ``predicted`` seconds (None while a model is missing), ``explore``."""
    on_dev: np.ndarray
    lam: int | None
    predicted: float | None
    explore: bool = False


def fit(points) -> tuple[float, float]:
    """(a, b) of t = a + b W minimising the relative errors (the normal equations of
    sum(((a + b W) / t - 1)^2), solved in closed form: this runs every level); a, b >= 0."""
    s11 = s12 = s22 = r1 = r2 = 0.0
    lo, hi = math.inf, -math.inf
    for w, t in points:
        x1 = 1.0 / max(t, 1e-9)
        x2 = w * x1
        s11 += x1 * x1
        s12 += x1 * x2
        s22 += x2 * x2
        r1 += x1
        r2 += x2
        lo, hi = min(lo, w), max(hi, w)
    det = s11 * s22 - s12 * s12
    if hi > lo and det > 1e-12 * s11 * s22:
        a, b = (r1 * s22 - r2 * s12) / det, (s11 * r2 - s12 * r1) / det
        if a >= 0 and b >= 0:
            return a, b
        if b < 0:  # time does not grow with work: a constant
            return statistics.median(t for _, t in points), 0.0
    return 0.0, statistics.median(t / max(w, 1.0) for w, t in points)


def bottom_up_entries(n: np.ndarray, entries: np.ndarray, q: float) -> np.ndarray:
    """Adjacency entries a bottom-up level reads in each task: ``n`` candidates with
    ``entries`` entries in all, each scan stopping at its first frontier neighbour, a
    neighbour being in the frontier with probability ``q`` (see the module)."""
    if q <= 0.0:
        return entries.astype(np.float64)
    mean = entries / np.maximum(n, 1)
    return np.minimum(entries, n * -np.expm1(mean * np.log1p(-min(q, 1 - 1e-12))) / q)


class Tuner:
    """Measured levels per (side, direction) and the choice of lambda (see the module);
    ``threads``: the CPU engine's P; ``concurrent``: whether the two sides work at once."""

    def __init__(self, threads: int, concurrent: bool = True):
        self.threads = max(1, int(threads))
        self.concurrent = bool(concurrent)
        self.points = {(s, d): deque(maxlen=KEEP) for s in ("cpu", "dev") for d in (0, 1)}
        self.models: dict = {}
        self.explored = [0, 0]  # exploring levels so far, per direction
        self.searches = 0  # searches ended (``done``)

    def measured(self, side: str, direction: int) -> bool:
        """Whether ``side`` has run enough levels of ``direction`` to be modelled: two whose
        work differs by ``SPAN`` times (a fixed cost and a rate), or any after
        ``EXPLORE_LEVELS`` exploring levels (a graph whose levels are all alike)."""
        work = [p[0] for p in self.points[side, direction]]
        if not work:
            return False
        return (max(work) >= SPAN * max(min(work), 1.0)
                or self.explored[direction] >= EXPLORE_LEVELS or self.searches > 0)

    def cpu_work(self, w: np.ndarray) -> float:
        """The CPU model's W of the tasks with work ``w``."""
        return float(max(w.sum(), self.threads * w.max())) if w.shape[0] else 0.0

    def record(self, side: str, direction: int, work: float, seconds: float) -> None:
        """A measured level; the models see it from the next search (``refit``)."""
        self.points[side, direction].append((work, seconds))

    def done(self) -> None:
        """A search ended: from the next, a side measured at all is modelled."""
        self.searches += 1

    def refit(self) -> None:
        """Forget the fitted models (a search's start: refitted once, when first used)."""
        self.models.clear()

    def model(self, side: str, direction: int):
        key = (side, direction)
        if key not in self.models:
            pts = self.points[key]
            self.models[key] = fit(pts) if pts else None
        return self.models[key]

    def choose(self, direction: int, n: np.ndarray, w: np.ndarray,
               w_dev: np.ndarray | None = None) -> Choice:
        """The split of a level: ``n`` the vertices and ``w`` the work of every task on the
        CPU (``w_dev`` on the array side, when it differs; the idle tasks have n = 0 and
        stay on the CPU, idle)."""
        on_dev = np.zeros(n.shape[0], dtype=bool)
        if not (self.measured("cpu", direction) and self.measured("dev", direction)):
            self.explored[direction] += 1
            active = np.flatnonzero(n)
            on_dev[active[np.argsort(-n[active], kind="stable")][::EXPLORE]] = True
            return Choice(on_dev, None, None, explore=True)
        cpu, dev = self.model("cpu", direction), self.model("dev", direction)
        all_cpu = cpu[0] + cpu[1] * self.cpu_work(w)
        if dev[0] >= all_cpu:  # the array side's fixed cost alone exceeds the level on the
            return Choice(on_dev, int(n.max()), all_cpu)  # CPU (a small level: most of them)
        active = np.flatnonzero(n)
        ranked = active[np.argsort(-n[active], kind="stable")]
        ns, ws = n[ranked], w[ranked].astype(np.float64)
        wd = ws if w_dev is None else w_dev[ranked].astype(np.float64)
        k = ns.shape[0]
        # cut j: the j largest tasks on the array side; only between distinct n
        cuts = np.concatenate(([0], np.flatnonzero(ns[1:] != ns[:-1]) + 1, [k]))
        dev_sum = np.concatenate(([0.0], np.cumsum(wd)))[cuts]
        cpu_sum = np.concatenate(([0.0], np.cumsum(ws)))[cuts]
        rest_sum = ws.sum() - cpu_sum
        rest_max = np.concatenate((np.maximum.accumulate(ws[::-1])[::-1], [0.0]))[cuts]
        t_c = np.where(cuts < k, cpu[0] + cpu[1] * np.maximum(rest_sum,
                                                               self.threads * rest_max), 0.0)
        t_d = np.where(cuts > 0, dev[0] + dev[1] * dev_sum, 0.0)
        pred = np.maximum(t_c, t_d) if self.concurrent else t_c + t_d
        best = int(np.argmin(pred))
        j = int(cuts[best])
        on_dev[ranked[:j]] = True
        lam = int(ns[j]) if j < k else 0
        return Choice(on_dev, lam, float(pred[best]))
