"""LevelTable: the per-level statistics of a search as columns, read as LevelStats."""
from __future__ import annotations

import numpy as np
import pytest

from pygraph500.bfs import ALGORITHMS, LevelStats, LevelTable, check_levels
from pygraph500.bfs.types import BFSResult
from pygraph500.graph import EdgeList, build_csr

from test_bfs import SLOW_ON_PATHS


def brute(frontier, edges, directions, times):
    """The LevelStats list the table stands for, made one by one."""
    n = len(frontier)
    return [LevelStats(i, frontier[i], edges[i], frontier[i + 1] if i + 1 < n else 0,
                       directions[i], times[i]) for i in range(n)]


def test_columns_and_sequence():
    fr, ed = [1, 5, 40, 3], [5, 90, 70, 0]
    dirs = ["top-down", "bottom-up", "bottom-up", "top-down"]
    tm = [0.5, 1.5, 2.0, 0.25]
    t = LevelTable(fr, ed, direction=dirs, time=tm)
    want = brute(fr, ed, dirs, tm)
    assert len(t) == 4
    assert list(t) == want and t.to_list() == want
    assert [t[i] for i in range(4)] == want
    assert t[-1] == want[-1] and t[-4] == want[0]
    with pytest.raises(IndexError):
        t[4]
    with pytest.raises(IndexError):
        t[-5]
    assert t.as_dicts() == [lv.as_dict() for lv in want]
    assert list(t.as_dicts()[0]) == ["level", "frontier", "edges_examined", "discovered",
                                     "direction", "time", "unique_ratio"]
    assert t.as_dicts()[3]["unique_ratio"] == 0.0  # no edge examined
    np.testing.assert_array_equal(t.discovered, [5, 40, 3, 0])
    np.testing.assert_array_equal(t.direction_code, [0, 1, 1, 0])
    assert t.direction == dirs
    assert t == want and t != want[:3]


def test_slices_keep_level_numbers():
    t = LevelTable([1, 2, 4, 8, 3], [1, 2, 3, 4, 5])
    part = t[1:4]
    assert isinstance(part, LevelTable)
    assert [lv.level for lv in part] == [1, 2, 3]
    assert [lv.discovered for lv in part] == [4, 8, 3]
    assert [lv.level for lv in t[::2]] == [0, 2, 4]
    assert len(t[5:]) == 0 and list(t[5:]) == []
    assert [(a.level, b.level) for a, b in zip(t, t[1:])] == [(0, 1), (1, 2), (2, 3), (3, 4)]


def test_empty_table_and_default_result():
    t = LevelTable()
    assert len(t) == 0 and list(t) == [] and t.as_dicts() == [] and not t
    r = BFSResult(parent=np.zeros(1, np.int64), root=0)
    assert isinstance(r.levels, LevelTable) and len(r.levels) == 0


def test_bad_columns():
    with pytest.raises(ValueError):
        LevelTable([1, 2], [1])
    with pytest.raises(ValueError):
        LevelTable([1, 2], [1, 1], direction=[0, 1, 0])
    with pytest.raises(ValueError):
        LevelTable([1, 2], [1, 1], direction=[0, 2])
    with pytest.raises(ValueError):
        LevelTable([1, 2], [1, 1], time=[0.0])


def log(stats, dirs, batches):
    return LevelTable.from_log(np.asarray(stats, np.int32).reshape(-1, 2),
                               np.asarray(dirs, np.int8), np.asarray(batches, np.int64))


def test_from_log_splits_batches_by_work():
    # levels 0-2 timed together (600 ns), level 3 alone (1000 ns), level 4 alone (10 ns)
    t = log([[1, 1], [2, 0], [3, 5], [4, 100], [1, 0]], [0, 0, 0, 1, 0],
            [[3, 600], [4, 1000], [5, 10]])
    work = np.array([2, 2, 8])
    np.testing.assert_allclose(t.time[:3], 600e-9 * work / work.sum())
    np.testing.assert_allclose(t.time[3:], [1000e-9, 10e-9])
    assert t.time.sum() == pytest.approx(1610e-9)
    assert [lv.direction for lv in t] == ["top-down"] * 3 + ["bottom-up", "top-down"]
    np.testing.assert_array_equal(t.discovered, [2, 3, 4, 1, 0])
    np.testing.assert_array_equal(t.frontier, [1, 2, 3, 4, 1])
    assert t.frontier.dtype == np.int64
    # every level timed on its own
    t = log([[1, 1], [2, 0]], [0, 0], [[1, 5], [2, 7]])
    np.testing.assert_allclose(t.time, [5e-9, 7e-9])


def test_from_log_rejects_batches_not_covering_the_levels():
    for batches in ([[1, 5]], [[2, 5], [1, 3]], []):
        with pytest.raises(ValueError):
            log([[1, 1], [2, 0]], [0, 0], batches).time


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_results_carry_level_tables(algo):
    rec = ALGORITHMS[algo]
    n = 3000 if algo in SLOW_ON_PATHS else 20_000
    a = np.arange(n - 1)
    g = build_csr(EdgeList(a, a + 1, n))
    res = ALGORITHMS[algo](g, 0)
    levels = res.levels
    assert isinstance(levels, LevelTable) and len(levels) == n
    np.testing.assert_array_equal(levels.frontier, np.ones(n))
    if rec.examines_every_edge:
        np.testing.assert_array_equal(levels.edges_examined, g.num_directed_edges)
    elif "top-down" in rec.directions:  # (bottom-up examines the unvisited vertices' edges)
        np.testing.assert_array_equal(levels.edges_examined[1:-1], 2)
        assert levels[-1] == LevelStats(n - 1, 1, 1, 0, "top-down", levels[-1].time)
    check_levels(res)
    dicts = levels[:3].as_dicts()
    assert [d["level"] for d in dicts] == [0, 1, 2]
