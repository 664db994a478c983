"""The array backend (NumPy here, CuPy where a device is): kernel 1 against build_csr, every
array-backend BFS against scipy's distances and the Graph500 validator, thesis Table 4.1."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from pygraph500 import EdgeList, build_csr, cli, kronecker, validate
from pygraph500.backend.arrays import gpu_status, get_backend
from pygraph500.benchmark import choose_roots
from pygraph500.bfs import ALGORITHMS
from pygraph500.bfs.array import (ARRAY_ALGORITHMS, KERNEL_LEVEL_BUDGET,
                                  bfs_direction_optimizing_array)
from pygraph500.errors import InputError, ResourceError
from pygraph500.graph.build_array import build_csr_array

CPU = get_backend("cpu")
ALL = {**ARRAY_ALGORITHMS, "direction-optimizing (array)": bfs_direction_optimizing_array}
_CASES = {}


def case(scale):
    """(edges, graph, roots, scipy distances from each root) of a Kronecker SCALE graph."""
    if scale not in _CASES:
        edges = kronecker(scale)
        g = build_csr(edges)
        roots = choose_roots(g.degree() > 0, (2, 3), 64 if scale < 14 else 12)
        a = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr),
                          shape=(g.num_vertices,) * 2)
        d = shortest_path(a, unweighted=True, indices=roots)
        _CASES[scale] = edges, g, roots, np.where(np.isinf(d), -1, d).astype(np.int64)
    return _CASES[scale]


@pytest.mark.parametrize("scale", [6, 10, 12])
def test_kernel1_equals_build_csr(scale):
    edges = kronecker(scale, 8)
    a, b = build_csr(edges), build_csr_array(edges, CPU)
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    assert b.indices.dtype == a.indices.dtype and b.num_input_edges == edges.num_edges


def test_kernel1_bad_label_and_empty():
    with pytest.raises(InputError, match="outside"):
        build_csr_array(EdgeList(np.array([0, 7]), np.array([1, 1]), 5), CPU)
    g = build_csr_array(EdgeList(np.array([2, 2]), np.array([2, 2]), 4), CPU)  # loops only
    assert g.indptr.tolist() == [0, 0, 0, 0, 0] and g.indices.size == 0


@pytest.mark.parametrize("scale", [10, 12, 14])
@pytest.mark.parametrize("name", sorted(ALL))
def test_valid_trees_and_scipy_distances(scale, name):
    """Every root of the reference rule (12 at SCALE 14): the tree passes the Graph500
    validation and the depths are scipy's distances."""
    edges, g, roots, dist = case(scale)
    fn = ALL[name]
    for root, d in zip(roots.tolist(), dist):
        res = fn(g, root, backend="cpu")
        report = validate(edges, res.parent, root)
        assert report.valid, (name, root, report.rule, report.message)
        np.testing.assert_array_equal(res.depth, d)


@pytest.mark.parametrize("name", sorted(ALL))
def test_table_4_1_fields(name):
    """CLQ = frontier, NLQ = discovered, NLF = the frontier's degree sum on top-down levels
    (all M entries for edge-parallel), NLQ <= LV <= NLF, RV = 0 in one process, QR and UR
    their ratios, and the phase times add up to the level's time."""
    edges, g, roots, dist = case(12)
    deg = g.degree()
    res = ALL[name](g, int(roots[0]), backend="cpu")
    lv = res.levels
    x = lv.extra
    d = dist[0]
    np.testing.assert_array_equal(x["CLQ"], np.bincount(d[d >= 0]))
    np.testing.assert_array_equal(x["CLQ"], lv.frontier)
    np.testing.assert_array_equal(x["NLQ"], lv.discovered)
    for k in range(len(lv)):
        if name == "edge-parallel":
            assert x["NLF"][k] == g.num_directed_edges
        elif lv.direction[k] == "top-down":
            assert x["NLF"][k] == deg[d == k].sum()
        assert x["NLQ"][k] <= x["LV"][k] <= x["NLF"][k]
    assert not x["RV"].any()
    # the thesis's definitions (bfs/array/steps.py): QR = CLQ / NLF, UR = LV / NLF
    np.testing.assert_allclose(x["QR"], np.divide(x["CLQ"], x["NLF"], out=np.zeros(len(lv)),
                                                  where=x["NLF"] > 0))
    np.testing.assert_allclose(x["UR"], np.divide(x["LV"], x["NLF"], out=np.zeros(len(lv)),
                                                  where=x["NLF"] > 0))
    phases = sum(x[f"t_{p}"] for p in ("expand", "search", "prune", "update"))
    np.testing.assert_allclose(phases, lv.time)
    assert {"CLQ", "NLF", "LV", "RV", "NLQ", "QR", "UR"} <= set(lv.as_dicts()[0])


def test_sort_unique_prunes_most_of_the_heaviest_level():
    """Thesis Fig. 4.7: at SCALE 16 the unique ratio of the level with the largest NLF is
    below 0.5 (duplicates and visited vertices are most of it)."""
    edges = kronecker(16)
    g = build_csr(edges)
    root = int(choose_roots(g.degree() > 0, (2, 3), 1)[0])
    x = ARRAY_ALGORITHMS["sort-unique"](g, root, backend="cpu", depth=False).levels.extra
    heavy = int(np.argmax(x["NLF"]))
    assert x["NLQ"][heavy] / x["NLF"][heavy] < 0.5 and x["UR"][heavy] < 0.5


def test_direction_optimizing_array_switches_and_matches_the_compiled_one():
    edges, g, roots, dist = case(12)
    for root in roots[:8].tolist():
        a = bfs_direction_optimizing_array(g, root, backend="cpu")
        b = ALGORITHMS["direction-optimizing"](g, root)
        np.testing.assert_array_equal(a.depth, b.depth)
    assert "bottom-up" in a.levels.direction and a.levels.direction[0] == "top-down"


def test_search_memory_is_checked_first(monkeypatch):
    edges, g, roots, _ = case(10)
    monkeypatch.setattr("pygraph500.backend.memory.available_memory", lambda: 1 << 10)
    for fn in ALL.values():
        with pytest.raises(ResourceError, match="needs about"):
            fn(g, int(roots[0]), backend="cpu")
        with pytest.raises(ResourceError, match="needs about"):
            build_csr_array(edges, CPU)


def test_backends():
    assert get_backend("cpu").xp is np
    with pytest.raises(InputError, match="^backend must be"):
        get_backend("tpu")
    if gpu_status()[0] is None:
        with pytest.raises(InputError, match="^backend gpu"):
            get_backend("gpu")
        auto = get_backend("auto")
        assert auto.name == "cpu" and "chose the CPU" in auto.note
        # direction-optimizing with backend=auto and no GPU: the compiled search, not NumPy
        edges, g, roots, _ = case(10)
        res = ALGORITHMS["direction-optimizing"](g, int(roots[0]), backend="auto")
        assert "CLQ" not in res.levels.extra


@pytest.mark.skipif(gpu_status()[0] is not None, reason="a GPU is present")
def test_cli_backend_without_a_gpu(tmp_path, capsys):
    """--backend gpu: one line, exit 2; auto: the CPU, said in a NOTE and in the JSON;
    --levels of an array algorithm prints thesis Table 4.1."""
    assert cli.main(["run", "--scale", "8", "--backend", "gpu", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--backend gpu" in err[0]
    assert cli.main(["run", "--scale", "8", "--backend", "gpu", "-a", "topdown-queue"]) == 2
    assert "runs on the CPU only" in capsys.readouterr().err
    out = tmp_path / "r.json"
    assert cli.main(["run", "--scale", "9", "--backend", "auto", "-a", "sort-unique",
                     "--levels", "--json", str(out), "-q"]) == 0
    text = capsys.readouterr().out
    assert "--backend auto chose the CPU" in text and " CLQ " in text and "harmonic_mean_TEPS" in text
    import json

    doc = json.loads(out.read_text())
    assert doc["parameters"]["backend"] == "cpu" and doc["valid"]
    assert {"CLQ", "NLF", "LV", "RV", "NLQ", "QR", "UR", "t_prune"} <= set(doc["runs"][0]["levels"][0])


@pytest.mark.gpu
@pytest.mark.skipif(gpu_status()[0] is None, reason="no CUDA device with CuPy")
@pytest.mark.parametrize("name", sorted(ALL))
def test_gpu_equals_numpy(name):
    """On a device: kernel 1 and every algorithm give NumPy's depths and valid trees."""
    gpu = get_backend("gpu")
    edges, g, roots, dist = case(14)
    dg = build_csr_array(edges, gpu)
    assert np.array_equal(gpu.to_host(dg.indices), g.indices)
    for root, d in zip(roots[:4].tolist(), dist):
        res = ALL[name](dg, root, backend=gpu)
        np.testing.assert_array_equal(res.depth, d)
        assert validate(edges, res.parent, root).valid


SIM_SCRIPT = """
import json, os
import numpy as np
from pygraph500 import build_csr, kronecker
from pygraph500.backend.arrays import checked_backend
from pygraph500.bfs.array.queue_based import bfs_gpu_queue, bfs_sort_unique
edges = kronecker(7, 8)
g = build_csr(edges)
out = []
for root in json.loads(os.environ["ROOTS"]):
    be = checked_backend()  # counts what a device would wait for; a kernel's reads are its own
    r = SEARCH(g, root, backend=be, kernel=True)
    x = r.levels.extra
    out.append({"parent": r.parent.tolist(), "depth": r.depth.tolist(),
                "CLQ": x["CLQ"].tolist(), "NLF": x["NLF"].tolist(), "LV": x["LV"].tolist(),
                "NLQ": x["NLQ"].tolist(), "syncs": x["host_syncs"].tolist(),
                "allocations": x["allocations"].tolist(), "all_syncs": be.checks.syncs})
print(json.dumps(out))
"""


def _kernel_budget(res, name, outside):
    """A kernel search's levels on numpy-checked: one host read each, allocations within
    ``KERNEL_LEVEL_BUDGET``; ``outside``: the reads before and after the levels."""
    syncs, allocs = KERNEL_LEVEL_BUDGET[name]
    assert all(k == syncs for k in res["syncs"]), res["syncs"]
    assert max(res["allocations"]) <= allocs, res["allocations"]
    assert res["all_syncs"] - sum(res["syncs"]) == outside


def _under_the_simulator(script, edges, roots, bottom_up=False):
    """Run ``script`` (a search per root of ``ROOTS``, printing its results as JSON) under
    numba's CUDA simulator; check each tree (valid, scipy's distances) and Table 4.1 against
    the depths (``bottom_up``: NLF and LV on the top-down levels only, a bottom-up level's
    NLF being its candidates' lists); return the results."""
    import json
    import os
    import subprocess
    import sys

    g = build_csr(edges)
    a = sp.csr_matrix((np.ones(g.indices.size), g.indices, g.indptr), shape=(g.num_vertices,) * 2)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", ROOTS=json.dumps(roots))
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    deg = g.degree()
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    for root, res in zip(roots, results):
        parent, depth = np.array(res["parent"]), np.array(res["depth"])
        assert validate(edges, parent, root).valid
        d = shortest_path(a, unweighted=True, indices=root)
        np.testing.assert_array_equal(depth, np.where(np.isinf(d), -1, d).astype(np.int64))
        for lev, (clq, nlf, lv, nlq) in enumerate(zip(res["CLQ"], res["NLF"], res["LV"],
                                                     res["NLQ"])):
            assert clq == np.count_nonzero(depth == lev)
            assert nlq == np.count_nonzero(depth == lev + 1)
            if not bottom_up or res["direction"][lev] == "top-down":
                assert nlf == deg[depth == lev].sum()
                assert nlq <= lv <= nlf
    return results


def test_gpu_queue_kernel_under_the_simulator():
    """The numba.cuda gpu-queue kernel (one thread per queued vertex, claims by
    compare-and-swap), run by numba's CUDA simulator: valid trees, scipy's distances, and
    Table 4.1 consistent (the next queue is the vertices at the next depth; NLF the degree
    sum of the queue); on numpy-checked one read from the device per level (the next
    queue's length) and KERNEL_LEVEL_BUDGET's allocations, one read for the statistics
    after the search, then the parent and depth copied."""
    edges = kronecker(7, 8)
    roots = choose_roots(build_csr(edges).degree() > 0, (2, 3), 4).tolist()
    script = SIM_SCRIPT.replace("SEARCH", "bfs_gpu_queue")
    for res in _under_the_simulator(script, edges, roots):
        _kernel_budget(res, "gpu-queue", 3)  # after the levels: statistics, parent, depth


def test_sort_unique_kernels_under_the_simulator():
    """Sort-unique's kernel form (a thread per queue entry packs the unvisited NLF elements'
    keys, the keys sorted, a thread per key keeps each vertex's first), run by numba's CUDA
    simulator: valid trees, scipy's distances, Table 4.1 consistent, and the same tree as the
    whole-array steps (each parent the smallest neighbour one level up, by no race); on
    numpy-checked one read per level and KERNEL_LEVEL_BUDGET's allocations, one read before
    the levels (the root's degree), the statistics, parent and depth after."""
    edges = kronecker(7, 8)
    g = build_csr(edges)
    roots = choose_roots(g.degree() > 0, (2, 3), 4).tolist()
    script = SIM_SCRIPT.replace("SEARCH", "bfs_sort_unique")
    for root, res in zip(roots, _under_the_simulator(script, edges, roots)):
        _kernel_budget(res, "sort-unique", 4)
        parent, depth = np.array(res["parent"]), np.array(res["depth"])
        np.testing.assert_array_equal(parent, ARRAY_ALGORITHMS["sort-unique"](g, root).parent)
        for v in np.flatnonzero(depth > 0):
            nbrs = g.indices[g.indptr[v]:g.indptr[v + 1]]
            assert parent[v] == nbrs[depth[nbrs] == depth[v] - 1].min()


SIM_DIRECTION_OPTIMIZING = """
import json, os
from pygraph500 import build_csr, kronecker
from pygraph500.backend.arrays import checked_backend
from pygraph500.bfs.array import bfs_direction_optimizing_array
g = build_csr(kronecker(SCALE, 16))
out = []
for root in json.loads(os.environ["ROOTS"]):
    be = checked_backend()  # counts what a device would wait for; a kernel's reads are its own
    r = bfs_direction_optimizing_array(g, root, backend=be, kernel=True, alpha=ALPHA)
    x = r.levels.extra
    nodepth = bfs_direction_optimizing_array(g, root, backend="cpu", kernel=True, alpha=ALPHA,
                                             depth=False)
    out.append({"parent": r.parent.tolist(), "depth": r.depth.tolist(),
                "direction": list(r.levels.direction), "CLQ": x["CLQ"].tolist(),
                "NLF": x["NLF"].tolist(), "LV": x["LV"].tolist(), "NLQ": x["NLQ"].tolist(),
                "syncs": x["host_syncs"].tolist(), "allocations": x["allocations"].tolist(),
                "all_syncs": be.checks.syncs,
                "same_without_depth": (nodepth.parent == r.parent).all()})
print(json.dumps(out, default=bool))
"""


@pytest.mark.parametrize("scale, alpha, directions", [(8, 2.0, {"top-down", "bottom-up"}),
                                                       (6, 1e-9, {"top-down"})])
def test_direction_optimizing_kernels_under_the_simulator(scale, alpha, directions):
    """The numba.cuda kernels of the array direction-optimizing, run by numba's CUDA
    simulator: top-down (a thread per queue entry, claims by atomic minimum; alone when
    alpha is tiny) and bottom-up (a thread per candidate, stopping at its first frontier
    neighbour). The trees are valid with scipy's distances, Table 4.1 agrees with the
    depths, and each found vertex's parent is determinate, by no race: on a top-down level
    the smallest neighbour one level up (sort-unique's rule, so NumPy's tree), on a
    bottom-up level the first such neighbour in its list. On numpy-checked one read from the
    device per level and KERNEL_LEVEL_BUDGET's allocations, one read before (the root's
    degree) and one after (the statistics), then the parent and depth copied; the same tree
    without depths."""
    edges = kronecker(scale, 16)
    g = build_csr(edges)
    roots = choose_roots(g.degree() > 0, (2, 3), 3).tolist()
    script = SIM_DIRECTION_OPTIMIZING.replace("SCALE", str(scale)).replace("ALPHA", repr(alpha))
    for root, res in zip(roots, _under_the_simulator(script, edges, roots, bottom_up=True)):
        parent, depth = np.array(res["parent"]), np.array(res["depth"])
        assert set(res["direction"]) == directions and res["direction"][0] == "top-down"
        _kernel_budget(res, "direction-optimizing", 4)  # before the levels: the root's degree
        assert res["same_without_depth"]
        numpy_tree = bfs_direction_optimizing_array(g, root, alpha=alpha)
        checked = {"top-down": 0, "bottom-up": 0}
        for lev, direction in enumerate(res["direction"]):
            for v in np.flatnonzero(depth == lev + 1):
                nbrs = g.indices[g.indptr[v]:g.indptr[v + 1]]
                up = nbrs[depth[nbrs] == lev]
                assert parent[v] == (up.min() if direction == "top-down" else up[0])
                if direction == "top-down":
                    assert parent[v] == numpy_tree.parent[v]
                checked[direction] += 1
        assert all(checked[d] > 0 for d in directions)


def test_a_device_warm_up_searches_both_directions():
    """On a device backend the engine's warm-up searches the tiny graph from its
    highest-degree vertex and from a lowest-degree one: direction-optimizing goes bottom-up
    from the first's first level and starts top-down from the second, so the kernels of both
    directions compile untimed (numpy-checked stands in for the device)."""
    from pygraph500.benchmark import RunConfig
    from pygraph500.benchmark.embedded import EmbeddedEngine

    engine = EmbeddedEngine(RunConfig.of(scale=6, backend="numpy-checked",
                                      algorithm="direction-optimizing"))
    seen = []
    search = engine.search

    def spy(root):
        res = search(root)
        seen.append((root, list(res.levels.direction)))
        return res

    engine.search = spy
    engine.warm_up()
    assert [d[0] for _, d in seen] == ["bottom-up", "top-down"]
    assert "bottom-up" in seen[1][1]
    cpu = EmbeddedEngine(RunConfig.of(scale=6))  # the CPU's warm-up: one root, as before
    cpu_seen = []
    cpu_search = cpu.search
    cpu.search = lambda root: cpu_seen.append(root) or cpu_search(root)
    cpu.warm_up()
    assert cpu_seen == [seen[0][0]]


# ---- frontier-mask's sequential pass below serial_below (paper 004) -------------------------

@pytest.mark.parametrize("serial_below", [0, 512, 10**9])
def test_frontier_mask_serial_pass_below_the_threshold(serial_below):
    """Levels whose frontier (CLQ) has fewer than ``serial_below`` vertices compact the mask
    by one sequential pass, the others by the prefix scan (the ``serial_scan`` column says
    which: with the paper's 512 at SCALE 12 both kinds occur); either way the trees are valid
    and the depths scipy's. A device-like backend (numpy-checked) always scans."""
    edges, g, roots, dist = case(12)
    fn = ARRAY_ALGORITHMS["frontier-mask"]
    kinds = set()
    for root, d in zip(roots.tolist()[:8], dist):
        res = fn(g, root, backend="cpu", serial_below=serial_below)
        assert validate(edges, res.parent, root).valid
        np.testing.assert_array_equal(res.depth, d)
        x = res.levels.extra
        np.testing.assert_array_equal(x["serial_scan"], x["CLQ"] < serial_below)
        kinds |= set(x["serial_scan"].tolist())
    assert kinds == ({False} if serial_below == 0 else {True} if serial_below > g.num_vertices
                     else {False, True})
    res = fn(g, int(roots[0]), backend=get_backend("numpy-checked"), serial_below=serial_below)
    np.testing.assert_array_equal(res.depth, dist[0])
    assert not res.levels.extra["serial_scan"].any()


def test_frontier_mask_threshold_default_and_bad_values():
    """The paper's 512 is the default; a negative or non-integer threshold is refused."""
    import inspect

    fn = ARRAY_ALGORITHMS["frontier-mask"]
    assert inspect.signature(fn.function).parameters["serial_below"].default == 512
    g = case(10)[1]
    for bad in (-1, 2.5, True, "512"):
        with pytest.raises(InputError, match="serial_below"):
            fn(g, 0, serial_below=bad)
