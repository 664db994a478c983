"""benchmarks/bench_peers.py (ours against GAP): GAP's output lines read as printed, the
rounds' order and medians, GAP's text input holding exactly our tuples; and, where GAP can be
built here (its source beside the repository, a C++ compiler), GAP's graph from those files
having our CSR's edges and our searches' reach."""
import importlib.util
import os
import sys

import numpy as np
import pytest

from pygraph500 import build_csr, kronecker
from pygraph500.bfs import ALGORITHMS as BFS
from pygraph500.sssp import ALGORITHMS as SSSP

_DIR = os.path.join(os.path.dirname(__file__), "..", "benchmarks")


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, _DIR)  # the script imports bench_bfs beside it
    spec = importlib.util.spec_from_file_location("bench_peers", os.path.join(_DIR,
                                                                              "bench_peers.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BFS_OUT = """Read Time:           0.10960
Graph has 1048575 nodes and 15700369 undirected edges for degree: 14
Trial Time:          0.03712
BFS Tree has 645643 nodes and 31396046 edges
Average Time:        0.03712
"""

SSSP_OUT = """Read Time:           5.46763
Build Time:          1.27952
Graph has 1048575 nodes and 15700369 undirected edges for degree: 14
Trial Time:          2.15838
Trial Time:          1.5e-01
SSSP Tree reaches 645643 nodes
Average Time:        1.15419
"""


def test_parse_gap_reads_bfs_and_sssp_output(bench):
    assert bench.parse_gap(BFS_OUT) == {"trials": [0.03712], "load_s": 0.1096,
                                        "nodes": 1048575, "edges": 15700369,
                                        "undirected": True, "reached": 645643}
    out = bench.parse_gap(SSSP_OUT)
    assert out["trials"] == [2.15838, 0.15]
    assert out["load_s"] == pytest.approx(5.46763 + 1.27952, abs=1e-12)
    assert out["reached"] == 645643 and out["undirected"]


def test_parse_gap_without_trials_reach_or_symmetry(bench):
    text = ("Read Time:           0.07489\n"
            "Graph has 1024 nodes and 10551 directed edges for degree: 10\n"
            ".wsg only allowed for int32_t weights\n")
    assert bench.parse_gap(text) == {"trials": [], "load_s": 0.07489, "nodes": 1024,
                                     "edges": 10551, "undirected": False, "reached": None}


def test_run_gap_fails_loudly_without_a_trial(bench):
    with pytest.raises(RuntimeError, match="exit status 3"):
        bench.run_gap([sys.executable, "-c", "print('Trial Time: 1.0'); raise SystemExit(3)"], 1)
    with pytest.raises(RuntimeError, match="no-trial"):
        bench.run_gap([sys.executable, "-c", "print('no-trial')"], 1)
    out = bench.run_gap([sys.executable, "-c",
                         "import os; print('Trial Time: ' + os.environ['OMP_NUM_THREADS'])"], 7)
    assert out["trials"] == [7.0]  # GAP's threads come from OMP_NUM_THREADS


def test_interleave_alternates_the_order_and_medians(bench):
    calls = []

    def system(name, times):
        def run():
            calls.append(name)
            return {"times": times.pop(0)}
        return name, run

    out = bench.interleave(3, [system("ours", [[1.0, 3.0], [4.0, 4.0], [1.0, 1.0]]),
                               system("0.01", [[2.0], [6.0], [5.0]]),
                               system("0.1", [[9.0], [1.0], [3.0]])])
    assert calls == ["ours", "0.01", "0.1", "0.1", "0.01", "ours", "ours", "0.01", "0.1"]
    kernel = {"ours": out.pop("ours"), "gap": out}
    bench.summarise(kernel)
    # ours: round means 2, 4, 1 -> median 2; GAP at 0.01: 2, 6, 5 -> 5; at 0.1: 9, 1, 3 -> 3
    assert kernel["ours_s"] == 2.0
    assert kernel["gap_by_delta_s"] == {"0.01": 5.0, "0.1": 3.0}
    assert kernel["gap_delta"] == "0.1" and kernel["gap_s"] == 3.0
    assert kernel["gap_over_ours"] == 1.5
    bfs = {"ours": [{"times": [2.0]}], "gap": [{"times": [1.0, 2.0]}]}
    bench.summarise(bfs)
    assert (bfs["ours_s"], bfs["gap_s"], bfs["gap_over_ours"]) == (2.0, 1.5, 0.75)


def _read_text(path):
    with open(path) as f:
        return [line.split() for line in f]


def test_gap_text_holds_our_tuples_and_exact_weights(bench, tmp_path):
    edges = kronecker(7, 8, weights=True)
    bench.write_gap_text(edges, str(tmp_path / "g.wel"), weights=True)
    bench.write_gap_text(edges, str(tmp_path / "g.el"), weights=False)
    wel, el = _read_text(tmp_path / "g.wel"), _read_text(tmp_path / "g.el")
    assert len(wel) == len(el) == edges.num_edges  # no comment line: GAP's reader takes none
    assert all(len(r) == 3 for r in wel) and all(len(r) == 2 for r in el)
    src = np.array([int(r[0]) for r in wel])
    dst = np.array([int(r[1]) for r in wel])
    w = np.array([float(r[2]) for r in wel]).astype(np.float32)
    assert np.array_equal(src, edges.src) and np.array_equal(dst, edges.dst)
    assert np.array_equal(w, edges.weight)  # each text reads back to the same float32
    assert [r[:2] for r in wel] == el


def _gap_ready(bench):
    peers = bench.peers_dir(None)
    if peers is None:
        pytest.skip("no GAP source beside the repository (../shared/peers)")
    if bench.missing_tools():
        pytest.skip(f"cannot build GAP: not found: {', '.join(bench.missing_tools())}")
    return peers


@pytest.mark.slow
def test_gap_builds_our_graph_and_reaches_what_we_reach(bench, tmp_path):
    peers = _gap_ready(bench)
    build = bench.build_gap(peers, str(tmp_path))  # about 10 s on 2 cores
    wsg = bench.f32_serializes(build)
    edges = kronecker(9, 16, weights=True)
    graph = build_csr(edges)
    inputs = bench.gap_inputs(build, "scale9", edges, wsg)
    assert inputs["sssp"].endswith(".wsg" if wsg else ".wel")
    again = bench.gap_inputs(build, "scale9", None, wsg)  # cached: no tuples needed
    assert again == inputs
    root = int(np.argmax(graph.degree()))
    ours_bfs = int(np.count_nonzero(BFS["reference"](graph, root).parent >= 0))
    ours_sssp = SSSP["dijkstra"](graph, root).num_reached
    checks = bench.gap_checks({"bfs": os.path.join(build, "int", "bfs"),
                               "sssp": os.path.join(build, "f32", "sssp")},
                              inputs, root, 0.05, 2)
    half = graph.num_directed_edges // 2
    assert checks["gap_edges"] == [half, half]
    assert checks["gap_bfs_reach"] == ours_bfs == bench.giant_component(graph)
    assert checks["gap_sssp_reach"] == ours_sssp == ours_bfs
    times = bench.gap_searches(os.path.join(build, "int", "bfs"), inputs["bfs"], [root, 0], 2,
                               warm=True)
    assert len(times["times"]) == 2 and all(t >= 0 for t in times["times"])


def test_print_scale_with_the_sssp_kernel_only(bench, capsys):
    """``--kernels sssp``: the SCALE's table has the SSSP row and no BFS row."""
    sssp = {"ours": [{"times": [0.05]}], "gap": {"0.01": [{"times": [0.3]}]}}
    bench.summarise(sssp)
    checks = {"ours_bfs_reach": 10, "ours_sssp_reach": 10, "giant_component": 10,
              "gap_bfs_reach": 10, "gap_sssp_reach": 10, "gap_sssp_load_s": 1.0}
    bench.print_scale({"scale": 20, "seed": [2, 3], "num_vertices": 16,
                       "undirected_edges": 20, "roots": [3, 4], "sssp_roots": [3],
                       "checks": checks, "load_before": (1.0,), "load_after": (1.0,),
                       "gap_files": {"bfs": "g.sg", "sssp": "g.wsg"}, "sssp": sssp})
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert rows == ["| kernel | roots | ours ms | GAP ms | GAP delta | GAP / ours |",
                    "| SSSP | 1 | 50.0 | 300.0 | 0.01 | 6.00 |"]
