"""Kernel 3 end to end: the run loop with --kernel sssp|both, the official block in the
reference's order, `graph500 generate --weights`, `graph500 validate --distances`, `graph500
sssp FILE`, and `pygraph500.sssp`; against scipy's dijkstra and a transcription of the
reference's own delta-stepping (src/sssp_reference.c, one rank)."""
import json
import os

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

import pygraph500
from pygraph500.benchmark import RunConfig, run_benchmark
from pygraph500.cli import main
from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph import EdgeList, build_csr
from pygraph500.report import format_official

from conftest import load_reference_weighted


def reference_sssp(edges: EdgeList, root: int, delta=np.float32(0.1)):
    """The reference's run_sssp on one rank (its CSR keeps every tuple both ways, loops
    skipped), float32 sums, -1 for unreached: what graph500_reference_bfs_sssp outputs."""
    n = edges.num_vertices
    rows = [[] for _ in range(n)]
    for u, v, w in zip(edges.src.tolist(), edges.dst.tolist(), edges.weight.tolist()):
        if u != v:
            rows[u].append((v, np.float32(w)))
            rows[v].append((u, np.float32(w)))
    dist = np.full(n, -1, np.float32)
    pred = np.full(n, -1, np.int64)
    dist[root], pred[root] = 0, root
    lo, hi = np.float32(0), delta
    q1 = [root]
    while True:
        while q1:
            q2, seen = [], set()
            for u in q1:
                for v, w in rows[u]:
                    if w < delta:
                        nd = np.float32(dist[u] + w)
                        if dist[v] < 0 or dist[v] > nd:
                            dist[v], pred[v] = nd, u
                            if v not in seen and nd < hi:
                                q2.append(v)
                                seen.add(v)
            q1 = q2
        for u in range(n):
            if lo <= dist[u] < hi:
                for v, w in rows[u]:
                    if w >= delta:
                        nd = np.float32(dist[u] + w)
                        if dist[v] < 0 or dist[v] > nd:
                            dist[v], pred[v] = nd, u
        lo, hi = hi, np.float32(hi + delta)
        pending = [u for u in range(n) if dist[u] >= lo]
        if not pending:
            return pred, dist
        q1 = [u for u in pending if dist[u] < hi]


def _run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def both():
    return run_benchmark(RunConfig.of(scale=10, edgefactor=16, num_roots=6, kernel="both"))


def test_run_both_kernels_valid_and_in_reference_order(both):
    assert both.valid and len(both.runs) == 6 and len(both.sssp_runs) == 6
    # the same roots, the same component: the same TEPS numerators
    assert [r.nedge for r in both.runs] == [r.nedge for r in both.sssp_runs]
    keys = list(both.official())
    assert keys.index("bfs  stddev_time") < keys.index("sssp min_time") < keys.index("min_nedge")
    assert keys.index("bfs  harmonic_stddev_TEPS") < keys.index("sssp min_TEPS")
    assert keys.index("sssp harmonic_stddev_TEPS") < keys.index("bfs  min_validate")
    assert keys[-1] == "sssp stddev_validate"
    text = format_official(both.official())
    assert "sssp harmonic_mean_TEPS:     !  " in text and "bfs  harmonic_mean_TEPS:     !  " in text


def test_sssp_only_run_and_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    code, stdout, _ = _run(["run", "-s", "8", "--roots", "3", "--kernel", "sssp", "-q",
                            "--json", str(out)], capsys)
    assert code == 0
    assert "sssp harmonic_mean_TEPS:     !" in stdout and "bfs  min_time" not in stdout
    doc = json.loads(out.read_text())
    assert doc["parameters"]["kernel"] == "sssp" and len(doc["sssp_runs"]) == 3
    assert doc["runs"] == [] and all(r["valid"] for r in doc["sssp_runs"])


def test_run_results_match_scipy_dijkstra():
    e = kronecker(9, 16, (2, 3), weights=True)
    g = build_csr(e)
    from pygraph500.sssp import ALGORITHMS

    for name, fn in ALGORITHMS.items():
        for root in (int(e.src[0]), int(e.dst[5])):
            r = fn(g, root)
            ref = dijkstra(g.to_scipy(weighted=True).astype(np.float64), indices=root)
            np.testing.assert_allclose(np.where(r.parent >= 0, r.distance, np.inf), ref,
                                       rtol=1e-5, err_msg=name)


def test_bad_kernel_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["run", "--kernel", "kernel4"])
    assert exc.value.code == 2
    with pytest.raises(InputError):
        RunConfig.of(kernel="nope").check()


def test_generate_weights_equal_reference_and_validate_reference_output(tmp_path, capsys):
    """`generate --weights` writes the reference's weights; the output of the reference's
    own SSSP (transcribed) validates on them through `graph500 validate --distances`."""
    edges_path, w_path = tmp_path / "g.bin", tmp_path / "g.weights"
    code, _, _ = _run(["generate", "-s", "8", "-e", "16", "--seed", "2", "3", "-o",
                       str(edges_path), "--weights", str(w_path), "-q"], capsys)
    assert code == 0
    ref, ref_w = load_reference_weighted("scale8-ef16-seed2-3")
    w = np.fromfile(w_path, dtype="<f4")
    np.testing.assert_array_equal(w, ref_w)
    e = EdgeList(ref[:, 0], ref[:, 1], 256, ref_w)
    for root in (17, 82):
        pred, dist = reference_sssp(e, root)
        np.save(tmp_path / "p.npy", pred)
        np.save(tmp_path / "d.npy", dist)
        args = ["validate", str(edges_path), str(tmp_path / "p.npy"), "--root", str(root),
                "--distances", str(tmp_path / "d.npy"), "--weights", str(w_path)]
        code, out, _ = _run(args, capsys)
        assert code == 0 and out.startswith("valid:"), out
        bad = dist.copy()
        v = int(np.argmax(bad))
        bad[v] = np.float32(bad[v] * 0.5)
        np.save(tmp_path / "d.npy", bad)
        code, out, _ = _run(args, capsys)
        assert code == 1 and out.startswith("invalid: "), out
    code, _, err = _run(args[:-2], capsys)  # --distances without --weights
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_reference_transcription_agrees_with_dijkstra():
    """The transcription above is an oracle of its own: scipy agrees with its distances."""
    e = kronecker(7, 8, (5, 6), weights=True)
    g = build_csr(e)
    pred, dist = reference_sssp(e, int(e.src[0]))
    ref = dijkstra(g.to_scipy(weighted=True).astype(np.float64), indices=int(e.src[0]))
    np.testing.assert_allclose(np.where(dist < 0, np.inf, dist), ref, rtol=1e-5)


def _write_snap(path, src, dst, w):
    with open(path, "w") as f:
        f.write("# weighted test graph\n")
        for a, b, x in zip(src, dst, w):
            f.write(f"{a}\t{b}\t{x!r}\n")


def test_sssp_file_csv_against_scipy(tmp_path, capsys):
    rng = np.random.default_rng(1)
    n, m = 300, 1500
    src, dst = rng.integers(0, n, m) * 7 + 3, rng.integers(0, n, m) * 7 + 3  # sparse ids
    w = rng.random(m).astype(np.float32)
    path = tmp_path / "g.txt"
    _write_snap(path, src.tolist(), dst.tolist(), [float(x) for x in w])
    root = int(src[0])
    out = tmp_path / "t.csv"
    code, stdout, _ = _run(["sssp", str(path), "--root", str(root), "--out", str(out), "-q"],
                           capsys)
    assert code == 0, stdout
    assert "validation:        valid" in stdout and "sssp_time:" in stdout
    table = np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)
    assert out.read_text().splitlines()[0] == "vertex,parent,distance"
    ids = np.union1d(src, dst)
    u, v = np.searchsorted(ids, src), np.searchsorted(ids, dst)
    lo, hi = np.minimum(u, v), np.maximum(u, v)
    order = np.lexsort((w, hi, lo))  # the lightest of duplicate tuples first
    key = lo[order] * ids.size + hi[order]
    first = order[np.r_[True, key[1:] != key[:-1]]]  # (scipy would sum duplicates)
    keep = first[lo[first] != hi[first]]
    a = sp.coo_array((w[keep].astype(np.float64), (lo[keep], hi[keep])),
                     shape=(ids.size, ids.size)).tocsr()
    ref = dijkstra(a, directed=False, indices=int(np.searchsorted(ids, root)))
    reached = np.isfinite(ref)
    np.testing.assert_array_equal(np.sort(table[:, 0]).astype(np.int64), ids[reached])
    got = dict(zip(table[:, 0].astype(np.int64).tolist(), table[:, 2].tolist()))
    np.testing.assert_allclose([got[i] for i in ids[reached].tolist()], ref[reached], rtol=1e-5)
    npy = tmp_path / "t.npy"
    code, _, _ = _run(["sssp", str(path), "--root", str(root), "--out", str(npy), "-q"], capsys)
    t = np.load(npy)
    assert code == 0 and t.dtype == np.float64 and t.shape == (int(reached.sum()), 3)


def test_sssp_file_bad_input_exit_2_nothing_written(tmp_path, capsys):
    path, out = tmp_path / "g.txt", tmp_path / "t.csv"
    _write_snap(path, [0, 1], [1, 2], [0.5, -1.0])
    code, _, err = _run(["sssp", str(path), "--root", "0", "--out", str(out), "-q"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()
    path.write_text("0 1\n1 2\n")
    code, _, err = _run(["sssp", str(path), "--root", "0", "--out", str(out), "-q"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and not out.exists()
    code, stdout, _ = _run(["sssp", str(path), "--root", "0", "--unit-weights", "-q"], capsys)
    assert code == 0 and "max distance 2" in stdout


def test_api_sssp_scipy_networkx_and_arrays():
    a = sp.csr_array(([1.0, 2.0, 5.0, 0.5], ([0, 1, 0, 3], [1, 2, 2, 3])), shape=(5, 5))
    d, p = pygraph500.sssp(a, 0)
    assert d.dtype == np.float32 and d.tolist() == [0.0, 1.0, 3.0, np.inf, np.inf]
    assert p.tolist() == [0, 0, 1, -1, -1]
    d64, p2 = pygraph500.sssp(a, 0, scipy_compatible=True)
    ref_d, ref_p = dijkstra(a, directed=False, indices=0, return_predecessors=True)
    np.testing.assert_array_equal(d64, ref_d)
    np.testing.assert_array_equal(p2, ref_p)
    nx = pytest.importorskip("networkx")
    g = nx.Graph()
    g.add_edge("a", "b", weight=2.0)
    g.add_edge("b", "c", weight=1.0)
    g.add_edge("a", "c", weight=5.0)
    d = pygraph500.sssp(g, "a").distances
    assert d.tolist() == [0.0, 2.0, 3.0]
    d, p = pygraph500.sssp(([0, 1], [1, 2], [0.25, 0.5]), 2)
    assert d.tolist() == [0.75, 0.5, 0.0] and p.tolist() == [1, 2, 2]
    with pytest.raises(InputError):
        pygraph500.sssp(([0, 1], [1, 2], [0.25, -0.5]), 0)
    with pytest.raises(InputError):  # no weights at all
        pygraph500.sssp(EdgeList(np.array([0]), np.array([1]), 2), 0)


def test_a_binary_edge_list_with_its_weights_file(tmp_path, capsys):
    """The reference's pair, `generate -o g.bin --weights w.bin`: `sssp g.bin --weights w.bin`
    and `run --input g.bin --weights w.bin` search those weights (a g500 file holds none):
    the distances of scipy's Dijkstra over the same tuples (each pair's smallest weight), and
    exactly those of the same weights inside a CSV; a weights file of another length, one
    beside a file with its own weights, with --unit-weights or without --input: exit 2."""
    d = str(tmp_path)
    for out in ("g.bin", "g.csv"):
        assert _run(["generate", "-s", "8", "-o", f"{d}/{out}", "--weights", f"{d}/w.bin",
                     "-q"], capsys)[0] == 0
    e = kronecker(8, 16, weights=True)
    root = int(e.src[0])
    code, out, err = _run(["sssp", f"{d}/g.bin", "--root", str(root), "--weights",
                           f"{d}/w.bin", "-o", f"{d}/a.npy", "-q"], capsys)
    assert code == 0 and "valid (Graph500 kernel-3 rules" in out, err
    assert _run(["sssp", f"{d}/g.csv", "--root", str(root), "-o", f"{d}/b.npy", "-q"],
                capsys)[0] == 0
    a, b = np.load(f"{d}/a.npy"), np.load(f"{d}/b.npy")
    np.testing.assert_array_equal(a[:, [0, 2]], b[:, [0, 2]])
    keep = e.src != e.dst
    smallest = {}
    for u, v, w in zip(e.src[keep].tolist(), e.dst[keep].tolist(), e.weight[keep].tolist()):
        key = (min(u, v), max(u, v))
        smallest[key] = min(w, smallest.get(key, np.inf))
    u, v = np.array(list(smallest)).T
    w = np.array(list(smallest.values()))
    m = sp.coo_array((np.r_[w, w], (np.r_[u, v], np.r_[v, u])), shape=(256, 256)).tocsr()
    want = dijkstra(m, indices=root)
    np.testing.assert_array_equal(a[:, 0], np.flatnonzero(np.isfinite(want)))
    np.testing.assert_allclose(a[:, 2], want[np.isfinite(want)], rtol=1e-5)
    code, out, err = _run(["run", "--input", f"{d}/g.bin", "--weights", f"{d}/w.bin",
                           "--kernel", "sssp", "--roots", "4", "-q"], capsys)
    assert code == 0 and "sssp harmonic_mean_TEPS" in out, err
    np.array(e.weight[:10]).tofile(f"{d}/short.bin")
    for argv, message in (
            (["sssp", f"{d}/g.bin", "--root", "1", "--weights", f"{d}/short.bin"],
             "short.bin: holds 10 weights, but the graph has 4096 edge tuples"),
            (["sssp", f"{d}/g.csv", "--root", "1", "--weights", f"{d}/w.bin"],
             "g.csv holds its own weights; --weights are for a file without them"),
            (["run", "-s", "8", "--kernel", "sssp", "--weights", f"{d}/w.bin"],
             "--weights are the weights of an input file without them; the generator"),
            (["run", "--input", f"{d}/g.bin", "--kernel", "sssp", "--weights", f"{d}/w.bin",
              "--unit-weights"], "--weights and unit weights exclude each other"),
            (["sssp", f"{d}/g.bin", "--root", "1", "--weights", f"{d}/w.bin",
              "--unit-weights"], "--weights and unit weights exclude each other")):
        code, out, err = _run(argv, capsys)
        assert code == 2 and out == "" and message in err and err.count("\n") == 1, err
