"""The hybrid search's level records: what each level did on each side, as a LevelTable.

Columns beside the contract's (frontier, edges examined, discovered, direction, time):

- ``time``: the level's seconds (with the stand-in: modelled, max(CPU side, stand-in) plus
  the host's own work; the first level includes the search's setup and the last its end, so
  the levels add up to the search); ``wall``: the seconds it really took here;
- ``cpu_tasks`` / ``dev_tasks``: tasks run on each side; ``cpu_time`` / ``dev_time``: each
  side's seconds (the array side's with its transfers); ``dev_share``: the work fraction on
  the array side;
- ``lambda``: the threshold used (workload mode; -1 when none applied: fixed mode, or an
  exploring level of auto), ``predicted``: the tuner's prediction of the level's time for
  the split it chose (-1 when it had no model yet), ``explore``: 1 on exploring levels;
- ``duplicates``: vertices both sides claimed in the level (either parent is kept);
- the link's counters (``link.Link.columns``): bytes and transfers each way, bytes per kind;
- on ``numpy-checked``: the array side's host synchronisations and allocations per level
  (``host_syncs``, ``allocations``, ``allocated_bytes``);
- ``sides``: one character per task, ``C`` (ran on the CPU), ``G`` (on the array side) or
  ``.`` (idle: nothing to do at this level); ``task_ms``: each task's milliseconds (0 when
  idle; array-side tasks on NumPy/CuPy: the side's time shared by their work).
"""
from __future__ import annotations

import numpy as np

from ..types import LevelTable

__all__ = ["LevelRecords", "SIDE_CHARS"]

SIDE_CHARS = np.frombuffer(b".CG", dtype=np.uint8)  # idle, CPU, array side
_NUMERIC = ("wall", "cpu_tasks", "dev_tasks", "cpu_time", "dev_time", "dev_share", "lambda",
            "predicted", "explore", "duplicates")


class LevelRecords:
    """Rows appended per level (``add``), turned into a LevelTable at the end (``table``)."""

    def __init__(self):
        self.frontier, self.edges, self.discovered, self.direction, self.time = [], [], [], [], []
        self.numeric = {name: [] for name in _NUMERIC}
        self.sides, self.task_ms = [], []

    def add(self, frontier, edges, discovered, direction, time, side_code, task_seconds,
            **numeric) -> None:
        self.frontier.append(frontier)
        self.edges.append(edges)
        self.discovered.append(discovered)
        self.direction.append(direction)
        self.time.append(time)
        for name in _NUMERIC:
            self.numeric[name].append(numeric[name])
        self.sides.append(SIDE_CHARS[side_code].tobytes().decode())
        self.task_ms.append(np.round(task_seconds * 1e3, 6))

    def table(self, link_columns: dict, setup: float, teardown: float) -> LevelTable:
        time = np.array(self.time, dtype=np.float64)
        if time.shape[0]:
            time[0] += setup
            time[-1] += teardown
        extra = {name: np.array(col) for name, col in self.numeric.items()}
        extra.update(link_columns)
        extra["sides"] = np.array(self.sides, dtype=object)
        task_ms = np.empty(len(self.task_ms), dtype=object)
        for i, row in enumerate(self.task_ms):
            task_ms[i] = row.tolist()
        extra["task_ms"] = task_ms
        return LevelTable(self.frontier, self.edges, self.discovered,
                          np.array(self.direction, dtype=np.int8), time, extra=extra)
