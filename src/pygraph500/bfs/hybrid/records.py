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
    """Rows appended per level (``add``: kept as they come, nothing converted inside the
    level loop), turned into a LevelTable at the end (``table``)."""

    def __init__(self):
        self.rows = []  # per level: frontier, edges, discovered, direction, time, numeric...
        self.codes, self.seconds = [], []  # per level: a side code and seconds per task

    def add(self, frontier, edges, discovered, direction, time, side_code, task_seconds,
            **numeric) -> None:
        self.rows.append((frontier, edges, discovered, direction, time,
                          *(numeric[name] for name in _NUMERIC)))
        self.codes.append(side_code)
        self.seconds.append(task_seconds)

    def table(self, link_columns: dict, setup: float, teardown: float) -> LevelTable:
        k = len(self.rows)
        cols = np.array(self.rows, dtype=np.float64).reshape(k, 5 + len(_NUMERIC))
        time = cols[:, 4].copy()
        if k:
            time[0] += setup
            time[-1] += teardown
        extra = {name: cols[:, 5 + j] for j, name in enumerate(_NUMERIC)}
        for name in ("cpu_tasks", "dev_tasks", "explore", "duplicates"):
            extra[name] = extra[name].astype(np.int64)
        extra.update(link_columns)
        sides = np.empty(k, dtype=object)
        task_ms = np.empty(k, dtype=object)
        if k:
            chars = SIDE_CHARS[np.array(self.codes)]
            ms = (np.array(self.seconds) * 1e3).round(6).tolist()
            for i in range(k):
                sides[i] = chars[i].tobytes().decode()
                task_ms[i] = ms[i]
        extra["sides"], extra["task_ms"] = sides, task_ms
        return LevelTable(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3].astype(np.int8),
                          time, extra=extra)
