"""benchmarks/papers/003_fresh_breeze.py (paper 003, Fresh Breeze): the task counts of a graph
counted by hand, Table 2's counts on the paper's graphs at 32 and 64 vertices against the
paper's within the page's tolerance, the paper's merge rule (``merge="last"``) against an
oracle, and the page the tiny run writes."""
import importlib.util
import os
import sys

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph

from pygraph500.bfs.determinate import bfs_determinate
from pygraph500.errors import InputError
from pygraph500.graph import EdgeList, build_csr

_DIR = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "papers")
# The paper's Table 2 as printed (vertices: MergeSparseVectors, UpdateParent).
PAPER = {32: (18, 5), 64: (49, 12)}


@pytest.fixture(scope="module")
def script():
    sys.path.insert(0, _DIR)
    spec = importlib.util.spec_from_file_location(
        "paper_003", os.path.join(_DIR, "003_fresh_breeze.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _star():
    return build_csr(EdgeList(np.array([0, 0, 0]), np.array([1, 2, 17]), 32))


@pytest.mark.parametrize("workers", [1, 2])
def test_hand_checked_counts(workers):
    """32 vertices (a root chunk over two leaves), edges 0-1, 0-2, 0-17, from 0. Pass 0:
    BreadthFirstSearch at the root chunk and leaf 0 (2), 15 UpdateNull, one CollectVectors;
    the parent update has no parent to merge with (UpdateParent 1). Pass 1 (search set
    {1, 2, 17}): BreadthFirstSearch 1 + 2 leaves, 14 UpdateNull; adj(1), adj(2) merged
    (MergeSparseVectors at the root chunk and at leaf 0: 2, MergeOne 15), then that with
    adj(17) (2 more, MergeOne 15); the parent update merges (parent, update) at the root
    chunk and leaf 0 (2, MergeOne 15). Pass 2: the search set is empty (0 is a parent:
    BreadthFirstSearch 2, UpdateNull 15, CollectVectors 1, no merge) while the update merges
    once more (2, MergeOne 15); it is counted with level 1."""
    want = {"tasks_BreadthFirstSearch": [2, 5], "tasks_UpdateNull": [15, 29],
            "tasks_CollectVectors": [1, 2], "tasks_MergeSparseVectors": [0, 4],
            "tasks_MergeOne": [0, 30], "tasks_DoneMerge": [0, 2],
            "tasks_ForwardHandle": [0, 2], "update_UpdateParent": [1, 2],
            "update_MergeSparseVectors": [0, 4], "update_MergeOne": [0, 30],
            "update_DoneMerge": [0, 2], "update_ForwardHandle": [0, 2]}
    for merge in ("first", "last"):
        res = bfs_determinate(_star(), 0, workers=workers, merge=merge)
        got = {k: [int(x) for x in v] for k, v in res.levels.extra.items() if k in want}
        assert got == want
        assert list(res.parent[[0, 1, 2, 17]]) == [0, 0, 0, 0]
        assert list(res.levels.frontier) == [1, 3]


def test_the_script_uses_the_same_hand_counts(script):
    from pygraph500.bfs.determinate import bfs_determinate as det

    res = det(_star(), 0, workers=1)
    for k, v in script.HAND_COUNTS.items():
        assert list(res.levels.extra[k]) == v, k


def _oracle(graph, root, pick):
    """Each reached vertex's parent: ``pick`` (min or max) of its neighbours one hop nearer
    the root, by scipy's hop counts."""
    dist = csgraph.shortest_path(graph.to_scipy(), unweighted=True, indices=root)
    parent = np.full(graph.num_vertices, -1, np.int64)
    for v in np.flatnonzero(np.isfinite(dist)):
        nb = graph.indices[graph.indptr[v]:graph.indptr[v + 1]]
        parent[v] = root if v == root else pick(nb[dist[nb] == dist[v] - 1])
    return parent


def test_merge_last_is_the_papers_rule_largest_neighbour_same_tasks():
    """Paper Fig. 5 keeps the last defined value: each parent the largest neighbour one level
    up; the task counts are those of ``merge="first"`` (the smallest)."""
    src = np.array([0, 0, 0, 1, 2, 17, 3, 40, 41, 5])
    dst = np.array([1, 2, 17, 3, 3, 3, 40, 41, 5, 60])
    g = build_csr(EdgeList(src, dst, 64))
    for root in (0, 3, 41):
        first = bfs_determinate(g, root, workers=2)
        last = bfs_determinate(g, root, workers=2, merge="last", schedule="random", seed=root)
        assert np.array_equal(first.parent, _oracle(g, root, np.min))
        assert np.array_equal(last.parent, _oracle(g, root, np.max))
        for k, v in first.levels.extra.items():
            if k != "busy_s":
                assert list(last.levels.extra[k]) == list(v), k
        if root == 0:  # 3's neighbours one level up: 1, 2 and 17
            assert (first.parent[3], last.parent[3]) == (1, 17)
    with pytest.raises(InputError, match="merge"):
        bfs_determinate(g, 0, merge="middle")


def test_busy_time_is_within_the_wall_time():
    g = _star()
    for workers in (1, 2):
        res = bfs_determinate(g, 0, workers=workers)
        busy = np.asarray(res.levels.extra["busy_s"])
        wall = np.asarray(res.levels.time)
        assert (busy > 0).all() and (busy <= workers * wall).all()


def test_table2_at_32_and_64_vertices(script):
    """The paper's graphs (Graph500 Kronecker, edgefactor 8): MergeSparseVectors within the
    page's 15 % at both sizes; the parent update's merges: at 64 the paper's one search lies
    in our range, at 32 no search of 3 levels or more merges fewer than 2 + 3 + 3 times."""
    import numba

    rows = {r["vertices"]: r for r in script.table2(numba.get_num_threads(), 16, "kronecker",
                                                    8, script.SEEDS, (32, 64))}
    assert script.TOLERANCE == 0.15
    for n, (msv, update) in PAPER.items():
        r = rows[n]
        assert r["searches"] == 64
        assert abs(r["msv"] - msv) <= 0.15 * msv, (n, r["msv"])
        lo, hi = r["update_range"]
        assert lo <= r["update"] <= hi
    assert rows[64]["update_range"][0] <= 12 <= rows[64]["update_range"][1]
    assert rows[32]["update_range"][0] == 8
    # one UpdateParent per pass: a search of L levels runs L + 1 passes
    for r in rows.values():
        assert r["update_tasks"] == pytest.approx(r["levels"] + 1)


def test_tiny_run_writes_every_item(script, tmp_path):
    out = tmp_path / "003.md"
    got = script.main(["--tiny", "--out", str(out)])
    text = out.read_text()
    for name in ("Fig. 1", "Fig. 2", "Fig. 3", "Fig. 4", "Fig. 5", "Fig. 6", "Fig. 7",
                 "Fig. 8", "Fig. 9", "Table 1", "Table 2", "Section 5"):
        assert f"## {name}:" in text, name
    assert got["hand_ok"] and all(got["table2"]["checks"]) and got["table2"]["last_ok"]
    assert "**Status: reproduced.**" in text.split("## Table 2:")[1].split("##")[0]
    # Table 2's rows carry the paper's printed numbers beside ours
    assert "| 32 | 64 |" in text and "| 18 |" in text and "| 49 |" in text
