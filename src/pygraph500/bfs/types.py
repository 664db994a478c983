"""The BFS contract: every algorithm returns a BFSResult.

``BFSResult.levels`` is a LevelTable: the per-level statistics as numpy columns, read as a
sequence of LevelStats. A search of a path of a million vertices has a million levels; the
table is made without a Python object per level (LevelStats are made only when read).
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field, asdict

import numpy as np

from ..errors import InputError, shown

__all__ = ["LevelStats", "LevelTable", "BFSResult", "TOP_DOWN", "BOTTOM_UP", "DIRECTIONS",
           "check_root", "check_positive", "check_levels", "OPTION_HELP", "option_help"]

# Direction codes of LevelTable.direction_code.
TOP_DOWN = 0
BOTTOM_UP = 1
DIRECTIONS = ("top-down", "bottom-up")


@dataclass
class LevelStats:
    """What happened at one BFS level (the fields of thesis Table 4.1 where they apply).

    frontier: vertices in the current level queue (CLQ); edges_examined: adjacency entries
    scanned (NLF before pruning); discovered: vertices newly reached (NLQ); direction:
    'top-down' or 'bottom-up'; time: seconds spent on the level.

    The compiled algorithms read a monotonic clock inside their level loop. Levels smaller
    than a grain (``steps.TIME_GRAIN`` vertices + edges, about a microsecond of work: reading
    the clock costs more than such a level) are timed together until their work reaches the
    grain, and the measured time is split among them in proportion to their work; larger
    levels of the parallel algorithms, and every parallel or bottom-up level, are timed on
    their own. The times of a search's levels add up to the time measured around them.
    """

    level: int
    frontier: int
    edges_examined: int
    discovered: int
    direction: str = "top-down"
    time: float = 0.0

    @property
    def unique_ratio(self) -> float:
        """Discovered vertices per examined edge (UR of Table 4.1)."""
        return self.discovered / self.edges_examined if self.edges_examined else 0.0

    def as_dict(self) -> dict:
        d = asdict(self)
        d["unique_ratio"] = self.unique_ratio
        return d


_COLUMNS = ("level", "frontier", "edges_examined", "discovered", "direction_code", "time")


def _column(name: str) -> property:
    """A LevelTable column as a read-only attribute (a numpy array)."""
    return property(lambda self: self._columns()[name], doc=f"the {name} column")


class LevelTable(Sequence):
    """Per-level statistics of one search: a read-only sequence of LevelStats, stored as columns.

    Columns (numpy arrays of one entry per level): ``level``, ``frontier``,
    ``edges_examined``, ``discovered`` (int64), ``direction_code`` (int8: 0 top-down,
    1 bottom-up; ``direction`` gives the names) and ``time`` (seconds, float64).
    ``table[i]`` is a LevelStats (negative indices count from the end), ``table[a:b]`` a
    LevelTable keeping the level numbers, iteration yields LevelStats, and ``as_dicts()``
    is ``[lv.as_dict() for lv in table]`` made column-wise.

    ``extra``: more columns by name (the array-backend algorithms record the fields of thesis
    Table 4.1 and their phase times there); ``as_dicts()`` includes them.

    Build one from columns: ``LevelTable(frontier, edges_examined, discovered=None,
    direction='top-down', time=None, extra=None)``; ``discovered`` defaults to the next level's frontier
    (0 for the last level), ``direction`` is one name or code for all levels or one per
    level, ``time`` defaults to zeros. The compiled kernels use ``from_log``, whose columns
    are derived on first access, so making the table costs nothing inside a timed search.
    """

    __slots__ = ("_n", "_cols", "_log", "extra")

    def __init__(self, frontier=(), edges_examined=(), discovered=None, direction=TOP_DOWN,
                 time=None, *, level=None, extra=None):
        fr = np.asarray(frontier, dtype=np.int64).reshape(-1)
        n = fr.shape[0]
        ed = np.asarray(edges_examined, dtype=np.int64).reshape(-1)
        if ed.shape[0] != n:
            raise ValueError("LevelTable: frontier and edges_examined differ in length")
        if discovered is None:
            di = _next_frontier(fr)
        else:
            di = np.asarray(discovered, dtype=np.int64).reshape(-1)
        lv = np.arange(n, dtype=np.int64) if level is None else np.asarray(level, np.int64)
        tm = np.zeros(n) if time is None else np.asarray(time, dtype=np.float64).reshape(-1)
        dc = _direction_codes(direction, n)
        for name, col in (("discovered", di), ("level", lv), ("time", tm)):
            if col.shape[0] != n:
                raise ValueError(f"LevelTable: {name} has {col.shape[0]} entries, not {n}")
        self._n = n
        self._cols = dict(zip(_COLUMNS, (lv, fr, ed, di, dc, tm)))
        self._log = None
        self.extra = {}
        for name, col in (extra or {}).items():
            col = np.asarray(col).reshape(-1)
            if col.shape[0] != n:
                raise ValueError(f"LevelTable: extra column {name} has {col.shape[0]} entries")
            self.extra[name] = col

    @classmethod
    def from_log(cls, stats, dirs, batches, num_levels=None) -> "LevelTable":
        """The table of a compiled search's log (see ``steps``): ``stats`` rows (frontier,
        edges examined[, count]: a row stands for ``count`` equal consecutive levels, 1 when
        absent), ``dirs`` (one direction code per row, or one code for all) and ``batches``
        (rows: end level, nanoseconds; levels ``[end of previous, end)`` were timed
        together). Nothing else is computed until a column is read."""
        self = cls.__new__(cls)
        if num_levels is None:
            num_levels = int(stats[:, 2].sum()) if stats.shape[1] > 2 else stats.shape[0]
        self._n = int(num_levels)
        self._cols = None
        self._log = (stats, dirs, batches)
        self.extra = {}
        return self

    # ---- columns ------------------------------------------------------------------------
    def _columns(self) -> dict:
        if self._cols is None:
            stats, dirs, batches = self._log
            n = self._n
            fr = stats[:, 0].astype(np.int64)
            ed = stats[:, 1].astype(np.int64)
            dc = _direction_codes(dirs, stats.shape[0])
            if stats.shape[1] > 2 and stats.shape[0] != n:  # runs of equal levels
                count = stats[:, 2]
                fr, ed, dc = np.repeat(fr, count), np.repeat(ed, count), np.repeat(dc, count)
            if fr.shape[0] != n:
                raise ValueError(f"LevelTable: the log holds {fr.shape[0]} levels, not {n}")
            self._cols = dict(zip(_COLUMNS, (
                np.arange(n, dtype=np.int64), fr, ed, _next_frontier(fr), dc,
                _batch_times(fr, ed, batches))))
            self._log = None
        return self._cols

    level = _column("level")
    frontier = _column("frontier")
    edges_examined = _column("edges_examined")
    discovered = _column("discovered")
    direction_code = _column("direction_code")
    time = _column("time")

    @property
    def direction(self) -> list[str]:
        return [DIRECTIONS[c] for c in self.direction_code.tolist()]

    @property
    def unique_ratio(self) -> np.ndarray:
        ed = self.edges_examined
        out = np.zeros(self._n)
        np.divide(self.discovered, ed, out=out, where=ed != 0)
        return out

    # ---- sequence -----------------------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):
        c = self._columns()
        if isinstance(i, slice):
            part = {k: v[i] for k, v in c.items()}
            return LevelTable(part["frontier"], part["edges_examined"], part["discovered"],
                              part["direction_code"], part["time"], level=part["level"],
                              extra={k: v[i] for k, v in self.extra.items()})
        k = operator.index(i)
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError(f"level index {i} out of range for {self._n} levels")
        return LevelStats(int(c["level"][k]), int(c["frontier"][k]),
                          int(c["edges_examined"][k]), int(c["discovered"][k]),
                          DIRECTIONS[int(c["direction_code"][k])], float(c["time"][k]))

    def __iter__(self):
        c = self._columns()
        names = DIRECTIONS
        for lv, fr, ed, di, dc, tm in zip(*(c[k].tolist() for k in _COLUMNS)):
            yield LevelStats(lv, fr, ed, di, names[dc], tm)

    def to_list(self) -> list[LevelStats]:
        return list(self)

    def as_dicts(self) -> list[dict]:
        """``[lv.as_dict() for lv in self]``, made from the columns."""
        c = self._columns()
        names = DIRECTIONS
        cols = [c[k].tolist() for k in _COLUMNS] + [self.unique_ratio.tolist()]
        out = [{"level": lv, "frontier": fr, "edges_examined": ed, "discovered": di,
                "direction": names[dc], "time": tm, "unique_ratio": ur}
               for lv, fr, ed, di, dc, tm, ur in zip(*cols)]
        for name, col in self.extra.items():
            for d, x in zip(out, col.tolist()):
                d[name] = x
        return out

    def __eq__(self, other):
        if isinstance(other, (LevelTable, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"LevelTable({self._n} levels)"


def _next_frontier(fr: np.ndarray) -> np.ndarray:
    """discovered[l] = frontier[l + 1]; the last level discovers nothing (the search ends)."""
    di = np.empty_like(fr)
    di[:-1] = fr[1:]
    if di.shape[0]:
        di[-1] = 0
    return di


def _direction_codes(direction, n: int) -> np.ndarray:
    if isinstance(direction, str):
        direction = DIRECTIONS.index(direction)
    d = np.asarray(direction)
    if d.ndim == 0:
        return np.full(n, int(d), dtype=np.int8)
    if d.dtype.kind in "US":
        d = np.array([DIRECTIONS.index(str(x)) for x in d.tolist()], dtype=np.int8)
    d = d.astype(np.int8).reshape(-1)
    if d.shape[0] != n:
        raise ValueError(f"LevelTable: direction has {d.shape[0]} entries, not {n}")
    if n and (d.min() < 0 or d.max() >= len(DIRECTIONS)):
        raise ValueError("LevelTable: direction codes must be 0 (top-down) or 1 (bottom-up)")
    return d


def _batch_times(fr: np.ndarray, ed: np.ndarray, batches) -> np.ndarray:
    """Seconds per level from batches (end level, ns): a batch's time is split among its
    levels in proportion to their work (frontier + edges examined)."""
    n = fr.shape[0]
    if n == 0:
        return np.zeros(0)
    batches = np.asarray(batches, dtype=np.int64).reshape(-1, 2)
    ends = batches[:, 0]
    if ends.shape[0] == 0 or ends[-1] != n or np.any(np.diff(ends) <= 0) or ends[0] <= 0:
        raise ValueError("LevelTable: timing batches must end at increasing levels, the last at "
                         f"level {n}")
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1]
    if ends.shape[0] == n:  # every level timed on its own
        return batches[:, 1] * 1e-9
    work = (fr + ed).astype(np.float64)
    batch_work = np.add.reduceat(work, starts)
    counts = ends - starts
    bid = np.repeat(np.arange(ends.shape[0]), counts)
    # (a batch without work cannot happen, a level's frontier is never empty: split evenly)
    share = np.divide(work, batch_work[bid], out=1.0 / counts[bid], where=batch_work[bid] > 0)
    return batches[:, 1][bid] * 1e-9 * share


@dataclass
class BFSResult:
    """parent: int64, -1 where not reached, parent[root] == root; depth optional;
    levels: a LevelTable (or any sequence of LevelStats)."""

    parent: np.ndarray
    root: int
    depth: np.ndarray | None = None
    levels: LevelTable | list[LevelStats] = field(default_factory=LevelTable)


def check_levels(result: BFSResult) -> None:
    """The per-level contract every algorithm's ``result.levels`` keeps (the tests call
    this on every algorithm; AssertionError naming the rule broken):

    - one row per level, numbered 0, 1, ...; level 0's frontier is the root alone;
    - each level's ``discovered`` is the next level's ``frontier``, and the last level
      discovers nothing; the frontiers add up to the vertices reached;
    - directions are ``DIRECTIONS`` names; edges examined and times are >= 0, and the
      times of a search that examined an edge add up to more than zero (a level loop that
      never reads the clock breaks this)."""
    lv = result.levels
    if not isinstance(lv, LevelTable):
        lv = LevelTable([s.frontier for s in lv], [s.edges_examined for s in lv],
                        [s.discovered for s in lv], [s.direction for s in lv],
                        [s.time for s in lv])
    n = len(lv)
    assert n >= 1, "a search has at least the root's level"
    assert np.array_equal(lv.level, np.arange(n)), "levels are numbered 0, 1, ..."
    assert lv.frontier[0] == 1, "level 0's frontier is the root alone"
    assert np.array_equal(lv.discovered[:-1], lv.frontier[1:]), \
        "a level's discovered vertices are the next level's frontier"
    assert lv.discovered[-1] == 0, "the last level discovers nothing"
    reached = int(np.count_nonzero(np.asarray(result.parent) >= 0))
    assert int(lv.frontier.sum()) == reached, "the frontiers add up to the vertices reached"
    assert set(lv.direction) <= set(DIRECTIONS), "directions are top-down or bottom-up"
    assert np.all(lv.edges_examined >= 0) and np.all(lv.time >= 0), "counts and times >= 0"
    assert lv.edges_examined.sum() == 0 or lv.time.sum() > 0, \
        "the levels' times add up to more than zero"


# The help of the options several BFS algorithms take (their records' ``option_help``).
OPTION_HELP = {
    "depth": "also return each vertex's level (False: the parent array only, as the "
             "benchmark asks)",
    "deterministic": "the canonical tree: each vertex's parent is its smallest neighbour one "
                     "level nearer the root, for any number of threads",
    "backend": "the array backend: cpu (NumPy), gpu (CuPy), auto, numpy-checked, or an "
               "ArrayBackend",
    "on_device": "leave the result on the device (the benchmark fetches it after the clock)",
    "alpha": "go bottom-up when the frontier's edges exceed the unvisited vertices' edges / "
             "alpha",
    "beta": "go back top-down when the frontier shrinks below N / beta",
    "kernel": "run the numba.cuda kernels (default: on a device; True under numba's CUDA "
              "simulator)",
}


def option_help(*names: str, **own: str) -> dict:
    """The records' option help: the shared ``names`` and the algorithm's ``own``."""
    return {**{n: OPTION_HELP[n] for n in names}, **own}


def check_root(graph, root) -> int:
    """The root as a Python int; InputError when it is not a vertex of the graph."""
    try:
        r = operator.index(root)
    except TypeError:
        raise InputError(f"BFS root must be an integer vertex label, got {shown(root)}") from None
    if not 0 <= r < graph.num_vertices:
        raise InputError(
            f"BFS root {r} is not a vertex: the graph has {graph.num_vertices} vertices "
            f"(labels 0..{graph.num_vertices - 1})"
        )
    return r


def check_positive(name: str, value) -> float:
    """``value`` as a positive float (``inf`` allowed): a search's tuning parameter (alpha,
    beta, delta); InputError naming ``name`` otherwise."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{name} must be a positive number, got {shown(value)}",
                         name) from None
    if not x > 0:
        raise InputError(f"{name} must be a positive number, got {shown(value)}", name)
    return x
