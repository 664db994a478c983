"""The Fresh Breeze BFS (paper 003): trees of chunks against their CSR and the paper's
section 5 bounds, the parent rule against an independent oracle (scipy's BFS depths and the
smallest neighbour one level up), determinacy over workers and random schedules, and the
command line."""
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings, strategies as st

from pygraph500.bfs import ALGORITHMS
from pygraph500.bfs.determinate import bfs_determinate, chunk_graph
from pygraph500.bfs.determinate.chunk_trees import (SLOTS, UNDEF, _write_vector,
                                                    build_chunk_graph, chunk_bounds, count_chunks,
                                                    to_csr, tree_depth, vector_elements)
from pygraph500.bfs.determinate.search import _pool
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList, build_csr
from pygraph500.validate import validate


def _graph(src, dst, n):
    edges = EdgeList(np.asarray(src, np.int64), np.asarray(dst, np.int64), n)
    return edges, build_csr(edges)


def _kron(scale, ef=16):
    edges = kronecker(scale, ef, (2, 3))
    return edges, build_csr(edges)


def _grid(rows, cols):
    v = np.arange(rows * cols).reshape(rows, cols)
    src = np.concatenate([v[:, :-1].ravel(), v[:-1, :].ravel()])
    dst = np.concatenate([v[:, 1:].ravel(), v[1:, :].ravel()])
    return _graph(src, dst, rows * cols)


def canonical_parents(graph, root, pick=np.min):
    """The oracle: scipy's hop counts, then for each reached vertex the smallest (``pick``)
    neighbour one hop nearer the root."""
    dist = csgraph.shortest_path(graph.to_scipy(), unweighted=True, indices=root)
    parent = np.full(graph.num_vertices, -1, np.int64)
    parent[root] = root
    for v in np.flatnonzero(np.isfinite(dist)):
        if v == root:
            continue
        nb = graph.indices[graph.indptr[v]:graph.indptr[v + 1]]
        parent[v] = pick(nb[dist[nb] == dist[v] - 1])
    return parent


GRAPHS = {
    "kronecker8": lambda: _kron(8),
    "kronecker11-ef4": lambda: _kron(11, 4),
    "grid": lambda: _grid(23, 19),
    "path": lambda: _graph(np.arange(299), np.arange(1, 300), 300),
    "two-parts-and-isolated": lambda: _graph([0, 1, 2, 5, 6, 7, 7], [1, 2, 0, 6, 7, 8, 5], 20),
    "one-edge": lambda: _graph([0], [1], 2),
    "n257": lambda: _graph(np.arange(256), np.arange(1, 257), 257),
}


# ---- trees of chunks -----------------------------------------------------------------------
@pytest.mark.parametrize("name", GRAPHS)
def test_chunk_graph_round_trip(name):
    _, g = GRAPHS[name]()
    cg = build_chunk_graph(g.indptr, g.indices)
    indptr, indices = to_csr(cg)
    assert np.array_equal(indptr, g.indptr) and np.array_equal(indices, g.indices)
    assert cg.depth == tree_depth(g.num_vertices) and SLOTS ** cg.depth >= g.num_vertices
    assert SLOTS ** (cg.depth - 1) < max(g.num_vertices, 2)


def test_tree_depth():
    assert [tree_depth(n) for n in (1, 16, 17, 256, 257, 4096, 4097)] == [1, 1, 2, 2, 3, 3, 4]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda d: st.tuples(
    st.just(d), st.sets(st.integers(0, SLOTS ** d - 1), min_size=1, max_size=300))))
def test_vector_chunks_within_section5_bounds(case):
    depth, index_set = case
    idx = np.array(sorted(index_set), np.int64)
    val = idx * 3 + 1
    mem = np.empty((depth * len(idx) + 1, SLOTS), np.int64)
    root = _write_vector(mem, 0, idx, val, 0, len(idx), depth)
    got_idx, got_val = vector_elements(mem, root, depth, len(idx))
    assert np.array_equal(got_idx, idx) and np.array_equal(got_val, val)
    x = len(idx)
    chunks = count_chunks(mem, root, depth)
    assert chunks == root + 1  # every chunk written is in the tree
    lower, upper = chunk_bounds(x, depth)
    assert lower <= chunks <= upper
    assert (x - 1) / 15 <= chunks <= depth * x  # the paper's closed forms


def test_graph_chunks_within_bounds():
    _, g = _kron(10)
    cg = build_chunk_graph(g.indptr, g.indices)
    roots = np.full(g.num_vertices, UNDEF, np.int64)
    from pygraph500.bfs.determinate.chunk_trees import flatten_into
    flatten_into(cg.mem, cg.root, cg.depth, roots)
    total = count_chunks(cg.mem, cg.root, cg.depth)
    for v in range(g.num_vertices):
        x = int(g.indptr[v + 1] - g.indptr[v])
        c = count_chunks(cg.mem, int(roots[v]), cg.depth)
        lower, upper = chunk_bounds(x, cg.depth)
        assert lower <= c <= upper
        total += c
    assert total == cg.graph_chunks
    # section 5.3: the graph needs at most d * 2m chunks
    assert cg.graph_chunks <= cg.depth * g.num_directed_edges + cg.depth * g.num_vertices


# ---- the search ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", GRAPHS)
@pytest.mark.parametrize("workers", [1, 3])
def test_parents_are_the_smallest_neighbour_one_level_up(name, workers):
    edges, g = GRAPHS[name]()
    rng = np.random.default_rng(7)
    for root in [0, int(rng.integers(g.num_vertices)), g.num_vertices - 1]:
        got = bfs_determinate(g, root, workers=workers)
        assert np.array_equal(got.parent, canonical_parents(g, root))
        report = validate(edges, got.parent, root)
        assert report.valid, report.message
        reached = got.parent >= 0
        assert np.array_equal(got.depth >= 0, reached)
        # every reached vertex is in exactly one level's search set
        assert got.levels.frontier.sum() == reached.sum()
        assert got.levels.edges_examined.sum() == np.diff(g.indptr)[reached].sum()


@pytest.mark.parametrize("name", GRAPHS)
def test_merge_last_gives_the_largest_neighbour_one_level_up(name):
    """``merge="last"`` (the paper's leaf merge): the largest neighbour one level up, for any
    workers and schedule, with the tasks of ``merge="first"``."""
    _, g = GRAPHS[name]()
    for root in (0, g.num_vertices - 1):
        want = canonical_parents(g, root, np.max)
        first = bfs_determinate(g, root, workers=2)
        for workers, schedule in ((1, "depth-first"), (3, "random")):
            got = bfs_determinate(g, root, workers=workers, merge="last", schedule=schedule,
                                  seed=root)
            assert np.array_equal(got.parent, want)
            assert {k: list(v) for k, v in got.levels.extra.items() if k != "busy_s"} == \
                {k: list(v) for k, v in first.levels.extra.items() if k != "busy_s"}


def test_utilisation_columns():
    """``busy_s``: the workers' seconds running tasks, per level: positive, at most workers x
    the level's time, and growing with the work (a larger search keeps them busier)."""
    small, big = _kron(6), _kron(12)
    for w in (1, 2):
        got = []
        for _, g in (small, big):
            root = int(np.argmax(np.diff(g.indptr)))
            bfs_determinate(g, root, workers=w)
            res = bfs_determinate(g, root, workers=w)
            busy = np.asarray(res.levels.extra["busy_s"])
            assert (busy > 0).all() and (busy <= w * np.asarray(res.levels.time)).all()
            got.append(busy.sum())
        assert got[1] > got[0]


def test_same_tree_for_any_workers_and_random_schedules():
    """The issue's target: SCALE 12, W = 1, 2, 4, 8 and 20 randomised schedules."""
    _, g = _kron(12)
    root = int(np.flatnonzero(np.diff(g.indptr))[3])
    first = bfs_determinate(g, root, workers=1).parent
    assert np.array_equal(first, canonical_parents(g, root))
    for w in (2, 4, 8):
        assert np.array_equal(bfs_determinate(g, root, workers=w).parent, first)
    for seed in range(20):
        got = bfs_determinate(g, root, workers=(1, 2, 4, 8)[seed % 4], schedule="random",
                              seed=seed)
        assert np.array_equal(got.parent, first), seed


@pytest.mark.parametrize("name", ["direction-optimizing", "topdown-queue", "topdown-bitmap",
                                  "bottomup", "reference", "spmv"])
def test_deterministic_compiled_algorithms_give_the_determinate_tree(name, threads):
    """``deterministic=True`` and ``determinate`` keep the same parent: one tree, two ways."""
    _, g = _kron(11)
    for root in (int(np.argmax(np.diff(g.indptr))), 1, 1000):
        want = bfs_determinate(g, root, workers=2).parent
        assert np.array_equal(ALGORITHMS[name](g, root, deterministic=True).parent, want)


def test_random_schedules_do_run_tasks_in_other_orders():
    """The random mode changes what runs when (else the test above would prove nothing):
    the chunks the tasks allocate land at other handles."""
    _, g = _kron(9)
    root = int(np.argmax(np.diff(g.indptr)))
    pool = _pool(g, 1)
    handles = []
    for seed in (1, 2, None):
        bfs_determinate(g, root, workers=1, schedule="random" if seed else "depth-first",
                        seed=seed or 0)
        handles.append(pool.cg.mem[pool.cg.graph_chunks:pool.ctr[0]].copy())
    assert handles[0].shape == handles[1].shape == handles[2].shape
    assert not np.array_equal(handles[0], handles[1])
    assert not np.array_equal(handles[0], handles[2])


def test_arrays_grow_when_a_search_runs_out():
    _, g = _kron(10)
    want = bfs_determinate(g, 1, workers=2).parent
    pool = _pool(g, 2)
    pool.task = pool.task[:8].copy()
    pool.join = pool.join[:4].copy()
    pool.dq = pool.dq[:, :2].copy()
    pool.cg.mem = pool.cg.mem[:pool.cg.graph_chunks + 3].copy()
    assert np.array_equal(bfs_determinate(g, 1, workers=2).parent, want)
    assert pool.task.shape[0] > 8 and pool.dq.shape[1] > 2


def test_task_counts_within_section5_bounds():
    """T_S (master and merge tasks of the search) <= 4 (d - 1) m, >= 2 (n - 1) / 15."""
    _, g = _kron(11)
    root = int(np.argmax(np.diff(g.indptr)))
    got = bfs_determinate(g, root, workers=2)
    extra = got.levels.extra
    tasks = sum(int(np.sum(extra[k])) for k in extra
                if k in ("tasks_BreadthFirstSearch", "tasks_CollectVectors",
                         "tasks_MergeSparseVectors"))
    d = tree_depth(g.num_vertices)
    m = g.num_directed_edges // 2
    n = int((got.parent >= 0).sum())
    assert 2 * (n - 1) / 15 <= tasks <= 4 * (d - 1) * m
    # one parent update per level, and one more after the last (its candidates merged)
    assert list(extra["update_UpdateParent"]) == [1] * (len(got.levels) - 1) + [2]


def test_bad_options():
    from pygraph500.errors import InputError

    _, g = _kron(5)
    with pytest.raises(InputError, match="workers"):
        bfs_determinate(g, 0, workers=0)
    with pytest.raises(InputError, match="schedule"):
        bfs_determinate(g, 0, schedule="fifo")
    with pytest.raises(InputError, match="merge"):
        bfs_determinate(g, 0, merge="first-wins")
    assert "determinate" in ALGORITHMS


# ---- the command line ----------------------------------------------------------------------
def _cli(*args):
    return subprocess.run([sys.executable, "-m", "pygraph500", *args], capture_output=True,
                          text=True)


def test_cli_bfs_file_determinate_and_deterministic_agree(tmp_path):
    edges, g = _kron(9)
    text = tmp_path / "g.txt"
    np.savetxt(text, np.stack([edges.src, edges.dst], 1), fmt="%d")
    trees = []
    for args in (["--algorithm", "determinate", "--workers", "3"],
                 ["--algorithm", "topdown-queue", "--deterministic"]):
        out = tmp_path / f"t{len(trees)}.npy"
        r = _cli("bfs", str(text), "--root", str(int(edges.src[0])), "--out", str(out), "-q",
                 *args)
        assert r.returncode == 0, r.stderr
        trees.append(np.load(out))
    assert np.array_equal(trees[0], trees[1])


def test_cli_run_determinate_and_bad_flags():
    r = _cli("run", "-s", "8", "--roots", "4", "-a", "determinate", "--workers", "2", "-q")
    assert r.returncode == 0, r.stderr
    assert "harmonic_mean_TEPS" in r.stdout
    for args, word in ((["--workers", "2"], "--workers"),
                       (["-a", "determinate", "--workers", "0"], "--workers"),
                       (["-a", "gpu-queue", "--deterministic"], "--deterministic")):
        r = _cli("run", "-s", "6", "--roots", "1", "-q", *args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and word in r.stderr, r.stderr


def test_api_bfs_deterministic_is_the_canonical_tree():
    import networkx as nx

    import pygraph500
    from pygraph500.errors import InputError

    g = nx.gnm_random_graph(300, 900, seed=3)
    _, csr = _graph([u for u, _ in g.edges], [v for _, v in g.edges], 300)
    want = canonical_parents(csr, 7)
    for algorithm in ("auto", "topdown-queue", "determinate"):
        pred = pygraph500.bfs(g, 7, algorithm=algorithm, deterministic=True).predecessors
        assert np.array_equal(pred, want)
    with pytest.raises(InputError, match="deterministic"):
        pygraph500.bfs(g, 7, algorithm="gpu-queue", deterministic=True)


def test_run_builds_the_chunk_graph_as_construction():
    """``graph500 run`` builds the trees of chunks with kernel 1 (timed as construction),
    not inside the warm-up search."""
    from pygraph500.benchmark import RunConfig
    from pygraph500.benchmark.embedded import EmbeddedEngine
    from pygraph500.bfs.determinate.search import _graphs

    engine = EmbeddedEngine(RunConfig.of(scale=8, algorithm="determinate", num_roots=1))
    engine.load()
    engine.build()
    assert id(engine.graph) in _graphs


def test_concurrent_searches_on_one_graph():
    """Searches from several Python threads (different worker counts share the graph's
    spare chunks) each get their own right tree."""
    from concurrent.futures import ThreadPoolExecutor

    _, g = _kron(10)
    roots = [int(r) for r in np.flatnonzero(np.diff(g.indptr))[:6]]
    want = {r: canonical_parents(g, r) for r in roots}
    with ThreadPoolExecutor(3) as ex:
        got = list(ex.map(lambda r: bfs_determinate(g, r, workers=1 + r % 3).parent, roots))
    for r, parent in zip(roots, got):
        assert np.array_equal(parent, want[r])
