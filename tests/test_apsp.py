"""All-pairs shortest paths against scipy.sparse.csgraph (floyd_warshall, dijkstra), brute
force on the predecessor paths, and the numba.cuda kernels under the CUDA simulator."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse.csgraph as csg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pygraph500 import cli
from pygraph500.apsp import (ALGORITHMS, NegativeCycleError, estimate_bytes, from_edges, path,
                             random_graph, shortest_paths, unreachable)
from pygraph500.apsp.run import scipy_distances
from pygraph500.errors import InputError, ResourceError

DTYPES = ["int32", "float32", "float64"]


def as_float(dist):
    """Our distances as float64 with inf where unreachable (scipy's form)."""
    out = dist.astype(np.float64)
    if dist.dtype.kind == "i":
        out[dist == unreachable(dist.dtype)] = np.inf
    return out


def random_weights(rng, n, density, lo, hi, dtype, negative=False):
    """A random directed graph (no edge = unreachable). ``negative``: weights shifted by
    vertex potentials, w(u, v) + h(u) - h(v): some edges negative, no negative cycle."""
    W = np.full((n, n), unreachable(dtype), dtype=dtype)
    mask = rng.random((n, n)) < density
    w = rng.integers(lo, hi + 1, size=(n, n))
    if negative:
        h = rng.integers(0, hi + 1, size=n)
        w = w + h[:, None] - h[None, :]
    W[mask] = w[mask].astype(dtype)
    np.fill_diagonal(W, 0)
    return W


def check_paths(W, res):
    """Every reachable pair's predecessor path is a walk in W of exactly the distance."""
    D = as_float(res.dist)
    Wf = as_float(W)
    n = W.shape[0]
    for i in range(n):
        for j in range(n):
            p = path(res.pred, i, j)
            if np.isinf(D[i, j]):
                assert p == [], (i, j)
                continue
            assert p[0] == i and p[-1] == j
            total = sum(Wf[p[k], p[k + 1]] for k in range(len(p) - 1))
            assert np.isclose(total, D[i, j], rtol=1e-5), (i, j, p)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 23), density=st.floats(0.0, 0.6), seed=st.integers(0, 2**32 - 1),
       dtype=st.sampled_from(DTYPES), algorithm=st.sampled_from(ALGORITHMS),
       negative=st.booleans(), pred=st.booleans())
def test_matches_scipy_floyd_warshall(n, density, seed, dtype, algorithm, negative, pred):
    """Disconnected graphs (low density), zero weights (lo = 0), negative edges without
    negative cycles, n = 1 and n not a multiple of the tile (8 here) all come up."""
    rng = np.random.default_rng(seed)
    W = random_weights(rng, n, density, 0, 50, np.dtype(dtype), negative)
    res = shortest_paths(W, algorithm=algorithm, return_predecessors=pred, tile=8)
    ref, _ = scipy_distances(W)
    assert res.dist.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(as_float(res.dist), ref)  # integer weights: exact
    if pred:
        check_paths(W, res)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_random_graph_against_dijkstra(algorithm, dtype):
    """The paper's generator at n = 300 (padded to 384 with tile 128): equals Dijkstra."""
    W = random_graph(300, density=0.05, seed=7, dtype=dtype)
    res = shortest_paths(W, algorithm=algorithm)
    Wf = as_float(W)
    ref = csg.dijkstra(csg.csgraph_from_dense(Wf, null_value=np.inf), directed=True)
    np.testing.assert_array_equal(as_float(res.dist), ref)


def test_float_weights_in_unit_interval():
    """Uniform float weights in [0, 1) (the Kronecker option): equal to scipy within float
    rounding for float64, a few ulps for float32."""
    rng = np.random.default_rng(3)
    n = 70
    src, dst = rng.integers(0, n, 400), rng.integers(0, n, 400)
    w = rng.random(400)
    for dtype, rtol in (("float64", 1e-12), ("float32", 1e-5)):
        W = from_edges(src, dst, w, n, dtype=dtype, directed=False)
        ref, _ = scipy_distances(W)
        for algorithm in ALGORITHMS:
            got = as_float(shortest_paths(W, algorithm=algorithm, tile=16).dist)
            assert np.array_equal(np.isinf(got), np.isinf(ref))
            np.testing.assert_allclose(got, ref, rtol=rtol, atol=rtol)


def test_random_graph_is_connected_and_reproducible():
    W = random_graph(200, density=0.01, seed=5)
    assert np.array_equal(W, random_graph(200, density=0.01, seed=5))
    assert not np.array_equal(W, random_graph(200, density=0.01, seed=6))
    res = shortest_paths(W)
    assert (res.dist != unreachable(np.int32)).all()  # strongly connected
    finite = W[W != unreachable(np.int32)]
    assert finite.min() == 0 and finite.max() <= 1000  # 0 only on the diagonal
    assert (np.diagonal(W) == 0).all() and (W[~np.eye(200, dtype=bool)] >= 1).all()


def test_unreachable_encoding_and_single_vertex():
    W = np.array([[0, 3, np.inf], [np.inf, 0, np.inf], [np.inf, np.inf, 0]])
    res = shortest_paths(W, return_predecessors=True)
    assert res.dist[0, 2] == np.inf and res.dist[0, 1] == 3 and path(res.pred, 0, 2) == []
    res = shortest_paths(W.astype(np.float32), dtype="int32")
    assert res.dist[0, 2] == np.iinfo(np.int32).max and res.dist[0, 1] == 3
    one = shortest_paths(np.zeros((1, 1)), algorithm="min-plus", return_predecessors=True)
    assert one.dist.tolist() == [[0.0]] and path(one.pred, 0, 0) == [0]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("pred", [False, True])
def test_negative_cycle_names_a_vertex_on_it(algorithm, pred):
    """A negative cycle 11 -> 4 -> 17 -> 11 hidden in a graph of 30 vertices."""
    rng = np.random.default_rng(1)
    W = random_weights(rng, 30, 0.1, 1, 20, np.dtype(np.float64))
    W[11, 4], W[4, 17], W[17, 11] = 2.0, -9.0, 3.0
    with pytest.raises(NegativeCycleError) as err:
        shortest_paths(W, algorithm=algorithm, return_predecessors=pred, tile=8)
    e = err.value
    assert e.vertex in (11, 4, 17)
    assert e.cycle is not None and sorted(e.cycle) == [4, 11, 17]
    assert sum(W[e.cycle[k], e.cycle[(k + 1) % 3]] for k in range(3)) < 0
    assert isinstance(e, InputError) and "negative cycle" in str(e)


def test_negative_self_loop_and_int_overflow_guard():
    W = np.array([[-1, 1], [1, 0]], dtype=np.int32)
    with pytest.raises(NegativeCycleError) as err:
        shortest_paths(W)
    assert err.value.vertex == 0
    big = np.full((3, 3), 400_000_000, dtype=np.int32)
    with pytest.raises(InputError, match="overflow"):
        shortest_paths(big)


def test_bad_input():
    with pytest.raises(InputError, match="square"):
        shortest_paths(np.zeros((2, 3)))
    with pytest.raises(InputError, match="NaN"):
        shortest_paths(np.array([[0, np.nan], [1, 0]]))
    with pytest.raises(InputError, match="algorithm"):
        shortest_paths(np.zeros((2, 2)), algorithm="dijkstra")
    with pytest.raises(InputError, match="dtype"):
        shortest_paths(np.zeros((2, 2)), dtype="int8")
    with pytest.raises(InputError, match="outside"):
        from_edges([0, 5], [1, 1], [1.0, 2.0], 3)


def test_memory_is_estimated_before_allocating(monkeypatch):
    assert estimate_bytes(4096, "float32") == 4096 * 4096 * 4
    assert estimate_bytes(1000, "float64", "min-plus", predecessors=True) == 2 * 1024**2 * 12 \
        + 1000**2 * 8
    monkeypatch.setattr("pygraph500.backend.memory.available_memory", lambda: 1 << 20)
    with pytest.raises(ResourceError, match="needs about"):
        shortest_paths(np.zeros((1000, 1000)))


def test_scipy_sparse_input_keeps_zero_weight_edges():
    import scipy.sparse as sp

    A = sp.csr_matrix((np.array([0.0, 2.0]), (np.array([0, 1]), np.array([1, 2]))),
                      shape=(3, 3))
    assert shortest_paths(A).dist[0, 2] == 2.0


# ---- CLI -----------------------------------------------------------------------------------

def test_cli_check_and_json(tmp_path, capsys):
    out = tmp_path / "a.json"
    assert cli.main(["apsp", "--n", "150", "--check", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "results agree" in text and "min-plus operations/s" in text
    doc = json.loads(out.read_text())
    assert doc["n"] == 150 and doc["algorithm"] == "blocked" and doc["dtype"] == "int32"
    assert doc["check"]["agree"] and doc["ops_per_second"] > 0
    assert cli.main(["apsp", "--kronecker", "6", "--weights", "float", "-a", "min-plus",
                     "--check"]) == 0


def test_cli_input_file(tmp_path, capsys):
    """A weighted directed SNAP edge list (negative edge, no negative cycle) against scipy;
    the same file read as undirected has a negative cycle: exit 2, one line naming it."""
    f = tmp_path / "g.txt"
    f.write_text("# Directed graph\n1 2 0.5\n2 3 1.5\n3 1 -0.25\n1 5 2\n")
    out = tmp_path / "g.json"
    assert cli.main(["apsp", "--input", str(f), "--check", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["n"] == 6 and doc["directed"] and doc["check"]["agree"]
    f.write_text("1 2 0.5\n2 3 1.5\n3 1 -0.25\n")
    capsys.readouterr()
    assert cli.main(["apsp", "--input", str(f)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "negative cycle through vertex" in err[0]


def test_cli_reports_a_difference(monkeypatch, capsys):
    import pygraph500.apsp.run as run

    real = run.shortest_paths

    def wrong(W, **kw):
        res = real(W, **kw)
        res.dist[0, 1] += 1
        return res

    monkeypatch.setattr(run, "shortest_paths", wrong)
    assert cli.main(["apsp", "--n", "40", "--check"]) == 1
    assert "DIFFER at 1 pairs" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--n", "0"], "positive"),
    (["--n", "100000"], "needs about"),
    (["--n", "10", "--density", "2"], "density"),
    (["--n", "10", "--threads", "999"], "--threads"),
    (["--kronecker", "30"], "SCALE"),
    (["--n", "10", "--thread-tile", "4x2"], "applies to the GPU blocked"),
    (["--n", "10", "--backend", "gpu", "--thread-tile", "3x3"], "3x3 is not one of"),
])
def test_cli_bad_input(args, message, capsys, monkeypatch):
    monkeypatch.setattr("pygraph500.backend.memory.available_memory", lambda: 8 << 30)
    assert cli.main(["apsp", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


# ---- GPU kernels -----------------------------------------------------------------------------

SIM_SCRIPT = textwrap.dedent("""
    import numpy as np, json
    from pygraph500.apsp import shortest_paths, path, NegativeCycleError
    rng = np.random.default_rng(4)
    report = []
    for n, dtype, neg in [(7, "int32", False), (13, "float64", True)]:
        W = np.full((n, n), np.inf)
        mask = rng.random((n, n)) < 0.3
        w = rng.integers(0, 20, (n, n)).astype(float)
        if neg:
            h = rng.integers(0, 20, n)
            w = w + h[:, None] - h[None, :]
        W[mask] = w[mask]
        np.fill_diagonal(W, 0)
        for algorithm in ["blocked", "min-plus", "floyd-warshall"]:
            for pred in [False, True] if n == 7 else [True]:
                g = shortest_paths(W, algorithm=algorithm, backend="gpu", dtype=dtype,
                                   return_predecessors=pred)
                c = shortest_paths(W, algorithm=algorithm, backend="cpu", dtype=dtype)
                ok = bool(np.array_equal(g.dist, c.dist))
                if pred:
                    D = c.dist.astype(float)
                    for i in range(n):
                        for j in range(n):
                            p = path(g.pred, i, j)
                            if p:
                                ok &= bool(np.isclose(sum(W[p[k], p[k + 1]]
                                                          for k in range(len(p) - 1)), D[i, j]))
                report.append([n, dtype, algorithm, pred, ok])
    W = np.full((9, 9), np.inf)
    np.fill_diagonal(W, 0)
    W[2, 5], W[5, 8], W[8, 2] = 1.0, 1.0, -5.0
    try:
        shortest_paths(W, backend="gpu")
        cycle = None
    except NegativeCycleError as e:
        cycle = sorted(e.cycle)
    print(json.dumps({"report": report, "cycle": cycle}))
""")


def test_cuda_kernels_under_the_simulator():
    """The numba.cuda kernels, run by numba's CUDA simulator on 4 x 4 tiles (blocked: 8 x 8,
    the default 4 x 4 elements a thread), so the matrices span several tiles and need
    padding: same distances as the CPU, valid predecessor paths, and a negative cycle
    found."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYGRAPH500_CUDA_TILE="4")
    proc = subprocess.run([sys.executable, "-c", SIM_SCRIPT], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(doc["report"]) == 9
    assert all(row[-1] for row in doc["report"]), [r for r in doc["report"] if not r[-1]]
    assert doc["cycle"] == [2, 5, 8]


MAPPING_SCRIPT = textwrap.dedent("""
    import json
    import time
    import numpy as np
    from numba import cuda
    from pygraph500.apsp import shortest_paths
    from pygraph500.apsp.gpu import _fw_step
    # relaxing through k = 0 lowers every D[i, j] (i, j >= 1) from 10 to 2; a launch of one
    # block along x and two along y reaches the cells of the first TILE values of x only
    D = np.full((8, 8), 10.0)
    D[0, :] = D[:, 0] = 1.0
    D[0, 0] = 0.0
    d = cuda.to_device(D)
    _fw_step[(1, 2), (4, 4)](d, cuda.to_device(np.full((1, 1), -1, np.int32)), 0, 0.0,
                             False, False)
    D = d.copy_to_host()
    times = []
    for algorithm in ("blocked", "min-plus", "floyd-warshall"):
        t = time.perf_counter()
        r = shortest_paths(np.where(np.eye(9) > 0, 0, 1.0), algorithm=algorithm, backend="gpu")
        times.append((r.seconds, r.copy_seconds, time.perf_counter() - t))
    print(json.dumps({"lowered": (D[1:] == 2).tolist(), "times": times}))
""")


TILES_SCRIPT = textwrap.dedent("""
    import json
    import numpy as np
    from pygraph500.apsp import shortest_paths, path
    rng = np.random.default_rng(6)
    n = 13  # two 8 x 8 tiles a side for blocked (PAD), the last padded
    W = np.full((n, n), np.inf)
    mask = rng.random((n, n)) < 0.35
    h = rng.integers(0, 20, n)
    w = rng.integers(0, 20, (n, n)) + h[:, None] - h[None, :]  # negative edges, no cycle
    W[mask] = w[mask]
    np.fill_diagonal(W, 0)
    cpu = shortest_paths(W, dtype="float64").dist
    report = []
    for tile in ((4, 2), "4x4"):
        g = shortest_paths(W, backend="gpu", dtype="float64", thread_tile=tile,
                           return_predecessors=True)
        bare = shortest_paths(W, backend="gpu", dtype="float64", thread_tile=tile)
        ok = bool(np.array_equal(g.dist, cpu)) and bool(np.array_equal(bare.dist, cpu))
        for i in range(n):
            for j in range(n):
                p = path(g.pred, i, j)
                ok &= bool(bool(p) == np.isfinite(cpu[i, j]))
                if p:
                    ok &= bool(np.isclose(sum(W[p[k], p[k + 1]] for k in range(len(p) - 1)),
                                          cpu[i, j]))
        report.append([str(tile), list(g.thread_tile), ok])
    print(json.dumps(report))
""")


def test_cuda_blocked_thread_tiles_under_the_simulator():
    """The blocked kernels with each thread computing rx x ry elements (the paper's best
    4 x 2, and 4 x 4) on two 8 x 8 tiles a side, with negative edges (clamped sums), with
    and without predecessors: the distances of the CPU and predecessor paths of exactly those
    weights (the default tile: the simulator test above)."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYGRAPH500_CUDA_TILE="4")
    proc = subprocess.run([sys.executable, "-c", TILES_SCRIPT], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert [r[1] for r in report] == [[4, 2], [4, 4]]
    assert all(r[2] for r in report), report


def test_blocked_side_doubles_where_shared_memory_allows():
    """blocked's GPU tile side: 2 TILE for 4-byte elements (two 64 x 64 float32 tiles: 32 KiB),
    TILE for 8-byte ones (64 KiB would pass the 48 KiB of static shared memory) and for
    thread tiles whose block would pass 512 threads on the larger side."""
    from pygraph500.apsp.gpu import MAX_THREADS, PAD, SHARED_BYTES, TILE, blocked_side

    assert PAD == 2 * TILE
    for itemsize in (4, 8):
        for rx, ry in ((1, 1), (2, 2), (4, 2), (4, 4), (8, 8)):
            side = blocked_side(itemsize, rx, ry)
            big_fits = (2 * PAD * PAD * itemsize <= SHARED_BYTES
                        and (PAD // rx) * (PAD // ry) <= MAX_THREADS // 2)
            assert side == (PAD if big_fits else TILE) and PAD % side == 0
    if TILE == 32:  # the shipped sizes
        assert blocked_side(4, 4, 4) == 64 and blocked_side(8, 4, 4) == 32
        assert blocked_side(4, 1, 1) == blocked_side(4, 2, 2) == 32  # 4096, 1024 threads


def test_thread_tile_is_checked():
    """Only the GPU blocked algorithm takes a thread tile, one of THREAD_TILES."""
    from pygraph500.apsp.gpu import DEFAULT_THREAD_TILE, THREAD_TILES, thread_tile

    W = random_graph(8, seed=1)
    with pytest.raises(InputError, match="applies to the GPU blocked"):
        shortest_paths(W, thread_tile="4x2")
    with pytest.raises(InputError, match="applies to the GPU blocked"):
        shortest_paths(W, algorithm="min-plus", backend="gpu", thread_tile="4x2")
    assert thread_tile(None) == DEFAULT_THREAD_TILE and thread_tile("4X2") == (4, 2) in THREAD_TILES
    for bad in ("3x3", "8x1", "4", (16, 2), "ax2"):
        with pytest.raises(InputError, match="is not one of"):
            thread_tile(bad)


def test_cuda_threads_run_along_rows_and_copies_are_timed_apart():
    """Floyd-Warshall's kernel puts x along j (a warp reads a row's consecutive elements:
    coalesced): a launch one block wide in x relaxes the first TILE columns of every row.
    The GPU's copies to and from the device are timed apart from its kernels, for every
    algorithm: both times positive and within the call's wall time (a loop variable once
    took the clock's name, and blocked reported the copies as -714 s on a device)."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYGRAPH500_CUDA_TILE="4")
    proc = subprocess.run([sys.executable, "-c", MAPPING_SCRIPT], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(proc.stdout.strip().splitlines()[-1])
    lowered = np.array(doc["lowered"])
    assert lowered[:, 1:4].all() and not lowered[:, 4:].any()
    for seconds, copy_seconds, wall in doc["times"]:
        assert 0 < seconds < wall and 0 < copy_seconds < wall


def _have_device():
    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        return False
    from pygraph500.apsp.gpu import available

    return available()


@pytest.mark.gpu
@pytest.mark.skipif(not _have_device(), reason="no CUDA device")
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_gpu_equals_cpu_on_a_device(algorithm):
    W = random_graph(1000, density=0.1, seed=2, dtype="float32")
    g = shortest_paths(W, algorithm=algorithm, backend="gpu", return_predecessors=True)
    c = shortest_paths(W, algorithm=algorithm)
    np.testing.assert_array_equal(g.dist, c.dist)
