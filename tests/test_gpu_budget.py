"""The GPU's budget, checked without a GPU (issue 16) on the ``numpy-checked`` backend: every
array BFS level reads from the device once (the next queue's size) and never for its
statistics; its allocations are a fixed number, in proportion to its work; claims (scatters
with repeated indices) give valid trees whichever write wins; the distributed device
searcher reads back twice per top-down level (both for MPI) and once per bottom-up level."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest
from scipy.sparse.csgraph import shortest_path

from pygraph500 import EdgeList, build_csr, cli, kronecker, validate
from pygraph500.backend.arrays import checked_backend, get_backend
from pygraph500.backend.checked import CheckedArray
from pygraph500.bfs.array import (ARRAY_ALGORITHMS, LEVEL_BUDGET,
                                  bfs_direction_optimizing_array)
from pygraph500.errors import InputError
from pygraph500.graph.build_array import build_csr_array
from pygraph500.primitives.xp_steps import SPARE, claim, compact, sort_unique, spill

from test_array_bfs import case  # (edges, graph, roots, scipy's depths) of a Kronecker graph

ALL = {**ARRAY_ALGORITHMS, "direction-optimizing": bfs_direction_optimizing_array}
# ---- the checking backend itself ------------------------------------------------------------

def test_the_checked_backend_counts_what_a_gpu_waits_for():
    be = checked_backend()
    xp, c = be.xp, be.checks
    a = xp.arange(10, dtype=np.int64)
    assert isinstance(a, CheckedArray) and c.allocations == 1 and c.syncs == 0
    s = a.sum()  # a reduction stays on the device, as CuPy's does
    assert isinstance(s, CheckedArray) and s.shape == () and c.syncs == 0
    assert isinstance(xp.count_nonzero(a), CheckedArray)
    assert a[2:5].shape == (3,) and len(a) == 10 and c.syncs == 0  # views, metadata: free
    allocs = c.allocations
    a[2:5]
    assert c.allocations == allocs  # a view is no allocation
    def scalar_item(x):
        return x.item()

    for read in (int, float, bool, scalar_item, lambda x: x.tolist(), np.asarray,
                 be.to_host, lambda x: list(x[:2])):
        before = c.syncs
        read(s if read in (int, float, bool) or read is scalar_item else a)
        assert c.syncs == before + 1
    before = c.syncs
    a[a > 4]  # a boolean mask: the size of the result is read back
    xp.flatnonzero(a > 4)
    be.synchronize()
    assert c.syncs == before + 3
    assert any("test_gpu_budget.py" in site for site in c.sites)


def test_random_winners_of_duplicate_writes():
    """``shuffle``: which of the writes to a repeated index lands last is random."""
    winners = set()
    for seed in range(8):
        xp = checked_backend(shuffle=seed).xp
        t = xp.zeros(2, dtype=np.int64)
        t[xp.asarray([0, 0, 0, 0, 1])] = xp.asarray([1, 2, 3, 4, 9])
        assert int(t[1]) == 9
        winners.add(int(t[0]))
    assert len(winners) > 1


@pytest.mark.parametrize("seed", range(6))
def test_claim_and_sort_unique_keep_one_element_per_vertex_whichever_write_wins(seed):
    be = checked_backend(shuffle=seed)
    xp, rng = be.xp, np.random.default_rng(seed)
    n = 50
    v = rng.integers(0, n, 400)
    p = rng.integers(0, n, 400)
    fresh = rng.random(400) < 0.7
    np.testing.assert_array_equal(be.to_host(spill(xp, 3000, n)), n + np.arange(3000) % SPARE)
    slots = spill(xp, 400, n)  # where the others write: spread over SPARE slots after n
    take = be.to_host(claim(xp, xp.asarray(v), xp.asarray(fresh),
                            xp.empty(n + SPARE, np.int64), slots))
    assert not (take & ~fresh).any()
    np.testing.assert_array_equal(np.sort(v[take]), np.unique(v[fresh]))
    vs, ps, first = (be.to_host(x) for x in sort_unique(xp, xp.asarray(v), xp.asarray(p),
                                                        xp.asarray(fresh), n))
    np.testing.assert_array_equal(vs[first], np.unique(v[fresh]))
    assert set(zip(vs[first], ps[first])) <= set(zip(v[fresh], p[fresh]))
    out = xp.full(v.shape[0] + SPARE, -1, dtype=np.int64)
    count = compact(xp, xp.asarray(fresh), xp.asarray(v), out, spill(xp, 400, 400))
    assert int(count) == fresh.sum()
    np.testing.assert_array_equal(be.to_host(out)[:fresh.sum()], v[fresh])


# ---- the budget of every array algorithm ----------------------------------------------------

def _search(name, g, root, be, depth=True):
    fn = ALL[name]
    dg = build_csr_array(g, be) if isinstance(g, EdgeList) else g
    before = be.checks.snapshot()
    res = fn(dg, root, backend=be, depth=depth)
    return res, [b - a for a, b in zip(before, be.checks.snapshot())]


def _over_work(x, n, name):
    """The levels that allocate more than 32 int64 per element of their work (NLF, LV, CLQ)
    and a buffer's spare slots, beyond what the algorithm allocates over all N (frontier-
    mask's scan at every level; direction-optimizing's candidate lists and masks at its first
    bottom-up level: 8 int64 per vertex at most)."""
    work = 32 * 8 * (x["NLF"] + x["LV"] + x["CLQ"] + 1) + 8 * SPARE
    if name == "frontier-mask":
        work = work + 8 * 8 * n
    over = np.flatnonzero(x["allocated_bytes"] > work)
    if name == "direction-optimizing":
        assert len(over) <= 1 and (x["allocated_bytes"][over] <= work[over] + 8 * 8 * n).all()
        return []
    return over.tolist()


@pytest.mark.parametrize("scale", [10, 13])
@pytest.mark.parametrize("name", sorted(ALL))
def test_one_host_read_per_level_and_a_bounded_number_of_allocations(name, scale):
    """Every level: exactly one host synchronisation, none for the statistics (they are read
    once after the search); allocations within LEVEL_BUDGET (the same bound at every SCALE)
    and in proportion to the level's work."""
    edges, g, roots, dist = case(scale)
    syncs, allocs = LEVEL_BUDGET[name]
    for root, d in zip(roots.tolist()[:2], dist):
        be = checked_backend()
        res, (total, _, _, _) = _search(name, edges, root, be)
        x = res.levels.extra
        np.testing.assert_array_equal(res.depth, d)
        assert (x["host_syncs"] == syncs).all(), (name, x["host_syncs"])
        # before the levels: the root's degree (edge-parallel needs none); after them: the
        # statistics, then the parent and depth copied to the host
        assert total - x["host_syncs"].sum() == (3 if name == "edge-parallel" else 4)
        assert (x["allocations"] <= allocs).all(), (name, x["allocations"])
        assert _over_work(x, g.num_vertices, name) == [], name


@pytest.mark.parametrize("name", sorted(ALL))
def test_long_searches_stay_in_budget(name):
    """A path of 80 vertices: 80 levels (the statistics' device array grows twice)."""
    n = 80
    edges = EdgeList(np.arange(n - 1), np.arange(1, n), n)
    be = checked_backend()
    res, _ = _search(name, edges, 0, be)
    x = res.levels.extra
    np.testing.assert_array_equal(res.depth, np.arange(n))
    assert len(res.levels) == n and (x["host_syncs"] == 1).all()
    assert (x["allocations"] <= LEVEL_BUDGET[name][1]).all()
    np.testing.assert_array_equal(x["CLQ"], np.ones(n))
    nlf = 2 * (n - 1) if name == "edge-parallel" else 2  # edge-parallel: every edge
    np.testing.assert_array_equal(x["NLF"][1:-1], np.full(n - 2, nlf))


def test_direction_optimizing_goes_bottom_up_within_budget():
    edges, g, roots, dist = case(13)
    be = checked_backend()
    res, _ = _search("direction-optimizing", edges, int(roots[0]), be)
    assert "bottom-up" in res.levels.direction
    assert (res.levels.extra["host_syncs"] == 1).all()


def test_direction_optimizing_goes_bottom_up_twice():
    """Two Kronecker graphs joined by a path of 40 vertices: bottom-up in the first, top-down
    along the path, bottom-up again in the second (the candidates made at the first switch
    are filtered, not made again): scipy's depths, valid trees, one read per level."""
    e = kronecker(9)
    k, gap = 512, 40
    edges = EdgeList(np.concatenate([e.src, e.src + k + gap, np.arange(k - 1, k + gap)]),
                     np.concatenate([e.dst, e.dst + k + gap, np.arange(k, k + gap + 1)]),
                     2 * k + gap)
    g = build_csr(edges)
    root = int(np.argmax(g.degree()[:k]))
    d = shortest_path(g.to_scipy(), unweighted=True, indices=root)
    for seed in (None, 3):
        res = bfs_direction_optimizing_array(g, root, backend=checked_backend(seed))
        codes = "".join("B" if c else "T" for c in res.levels.direction_code)
        assert re.search("B+T+B", codes), codes
        np.testing.assert_array_equal(res.depth, np.where(np.isinf(d), -1, d))
        assert validate(edges, res.parent, root).valid
        assert (res.levels.extra["host_syncs"] == 1).all()


def test_statistics_equal_numpys():
    """The statistics read after the search are those NumPy records (times aside)."""
    edges, g, roots, _ = case(10)
    for name, fn in ALL.items():
        a = fn(g, int(roots[0]), backend="cpu").levels.extra
        b = fn(g, int(roots[0]), backend="numpy-checked").levels.extra
        for key in ("CLQ", "NLF", "LV", "NLQ", "QR", "UR"):
            np.testing.assert_array_equal(a[key], b[key], err_msg=f"{name} {key}")


# ---- claims: any duplicate write may win ----------------------------------------------------

@pytest.mark.parametrize("name", sorted(ALL))
def test_trees_are_valid_whichever_duplicate_write_wins(name):
    """Random winners of every scatter with repeated indices (claims, parents, bottom-up
    parents): valid trees, scipy's depths, and the winners do change the trees."""
    edges, g, roots, dist = case(10)
    parents = set()
    for seed in range(4):
        be = checked_backend(shuffle=seed)
        dg = build_csr_array(edges, be)
        for root, d in zip(roots.tolist()[:4], dist):
            res = ALL[name](dg, root, backend=be)
            report = validate(edges, res.parent, root)
            assert report.valid, (name, seed, root, report.rule, report.message)
            np.testing.assert_array_equal(res.depth, d)
            if root == roots[0]:
                parents.add(res.parent.tobytes())
    if name != "sort-unique":  # the sort decides its winners, not the scatter
        assert len(parents) > 1, name


# ---- the command line -----------------------------------------------------------------------

def test_cli_runs_the_array_algorithms_on_numpy_checked(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert cli.main(["run", "--scale", "9", "--backend", "numpy-checked", "-a", "sort-unique",
                     "--roots", "4", "--levels", "--json", str(out), "-q"]) == 0
    text = capsys.readouterr().out
    assert " syncs " in text and " allocs" in text
    doc = json.loads(out.read_text())
    assert doc["parameters"]["backend"] == "numpy-checked" and doc["valid"]
    for run in doc["runs"]:
        assert all(lv["host_syncs"] == 1 and 0 < lv["allocations"] <= LEVEL_BUDGET[
            "sort-unique"][1] for lv in run["levels"])
    assert cli.main(["run", "--scale", "8", "--backend", "numpy-checked", "-q",
                     "--roots", "2"]) == 0  # the default algorithm: its array form
    capsys.readouterr()
    for bad in (["-a", "topdown-queue"], ["--distributed"], ["--kernel", "sssp"]):
        assert cli.main(["run", "--scale", "8", "--backend", "numpy-checked", *bad]) == 2
        assert "numpy-checked" in capsys.readouterr().err
    with pytest.raises(InputError, match="numpy-checked"):
        get_backend("numpy-checkd")


# ---- the distributed device searcher --------------------------------------------------------

def _dist(comm, root, prune, algorithm, shuffle):
    from pygraph500.distributed import build_dist, generate_local
    from pygraph500.distributed.array_bfs import DistArraySearcher, device_graph
    from pygraph500.distributed.device import DeviceExchange

    host = build_dist(comm, generate_local(comm, 10))
    be = checked_backend(shuffle)
    searcher = DistArraySearcher(comm, device_graph(host, be), be,
                                 DeviceExchange(comm, be, direct=False), prune, algorithm)
    res = searcher.search(root)
    return host.part, be.to_host(res.parent), res.levels


@pytest.mark.parametrize("algorithm", ["topdown-queue", "direction-optimizing"])
@pytest.mark.parametrize("prune", ["sort-unique", "none", "bitmap"])
def test_distributed_device_searcher_reads_back_twice_per_top_down_level(prune, algorithm):
    """Own reads: the message counts and the vertices found per top-down level (MPI's calls
    take host numbers), the vertices found per bottom-up level; the exchange's (MPI reads
    the buffers; staged: the copy to the host) are counted apart. Random winners of the
    claims: valid trees."""
    from pygraph500.distributed import ThreadComm

    edges, g, roots, _ = case(10)
    root = int(roots[0])
    for size, seed in ((1, None), (3, 1), (3, 2)):
        runs = ThreadComm.run(size, _dist, root, prune, algorithm, seed)
        parent = np.full(g.num_vertices, -1, dtype=np.int64)
        for part, local, _ in runs:
            parent[part.global_ids()] = local
        assert validate(edges, parent, root).valid, (prune, algorithm, size, seed)
        for _, _, lv in runs:
            top = lv["direction"] == 0
            assert (lv["host_syncs"][top] == 2).all() and (lv["host_syncs"][~top] == 1).all()
            assert (lv["exchange_syncs"] <= 2).all()
            assert (lv["allocations"] <= 90).all()  # a fixed number, whatever the level
        if algorithm == "direction-optimizing":
            assert (runs[0][2]["direction"] == 1).any()


def test_warm_reductions_takes_every_block_size_cupy_picks():
    """CuPy compiles a reduction once per CUDA block size, the power of two at or above
    ceil(size / 4) kept within 32..512 (its _cub_reduction rule); the backend's warm-up
    must meet every block size that any array size can pick, for every reduction the device
    searches run (count_nonzero; bincount's any and max; sum), so that no level compiles one
    inside a timed search (1.5-3 s each on an H200 with an empty cache)."""
    from collections import defaultdict
    from types import SimpleNamespace

    from pygraph500.backend.arrays import WARM_REDUCTIONS, warm_reductions

    sizes = defaultdict(list)

    def reduction(name):
        return lambda a: sizes[name, a.dtype].append(a.size)

    fake = SimpleNamespace(
        **{name: reduction(name) for name, _ in WARM_REDUCTIONS}, zeros=np.zeros,
        cuda=SimpleNamespace(Stream=SimpleNamespace(null=SimpleNamespace(synchronize=lambda: 0))))
    warm_reductions(fake)

    def block(size):
        b = 1 << max(0, (-(-size // 4) - 1).bit_length())
        return min(max(b, 32), 512)

    assert set(sizes) == {(name, np.dtype(t)) for name, t in WARM_REDUCTIONS}
    assert {"count_nonzero", "any", "max"} <= {name for name, _ in sizes}
    for seen in sizes.values():
        assert {block(s) for s in seen} == {block(s) for s in range(1, 1 << 20)} == {
            32, 64, 128, 256, 512}


def test_kernel_modules_hush_numba_small_grid_hints_only():
    """numba-cuda's small-grid hint (as it printed on the H200, with its terminal colour
    codes) is silenced once a kernel module is imported; its other performance warnings are
    not, and NumPy arrays reach kernels as they are (the simulator's)."""
    import warnings

    from numba.core.errors import NumbaPerformanceWarning

    import importlib

    from pygraph500.backend.cuda_launch import device_view
    from pygraph500.bfs.array import cuda_levels

    # its import installs the filter (again here: pytest restores the filters after each
    # test, so an import by an earlier test left none)
    importlib.reload(cuda_levels)

    a = np.zeros(3)
    assert device_view(a) is a
    with warnings.catch_warnings(record=True) as seen:
        warnings.warn("\x1b[1mGrid size 93 will likely result in GPU under-utilization due to "
                      "low occupancy.\x1b[0m", NumbaPerformanceWarning)
        warnings.warn("\x1b[1mHost array used in CUDA kernel will incur copy overhead\x1b[0m",
                      NumbaPerformanceWarning)
    # numba adds its own colour codes around the text when colorama is installed
    assert [re.sub(r"\x1b\[[0-9;]*m", "", str(w.message)) for w in seen] == [
        "Host array used in CUDA kernel will incur copy overhead"]
