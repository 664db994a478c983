"""Paper 000 (the thesis): Table 4.1's counts as the thesis defines them, against a brute-force
count on tiny graphs, in the distributed searcher (P ranks as threads) and the embedded array
algorithms; and the reproduction script at its tiny size."""
import importlib.util
import os

import numpy as np
import pytest
from scipy.sparse.csgraph import shortest_path

from pygraph500 import build_csr, choose_roots, kronecker
from pygraph500.bfs.array import ARRAY_ALGORITHMS, bfs_direction_optimizing_array
from pygraph500.distributed import DistSearcher, ThreadComm, build_dist, generate_local

SCALE = 8
SCRIPT = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "papers", "000_thesis.py")


@pytest.fixture(scope="module")
def graph():
    g = build_csr(kronecker(SCALE))
    depth = shortest_path(g.to_scipy(), unweighted=True, indices=None)
    return g, depth, choose_roots(g.degree() > 0, (2, 3), 3)


def thesis_counts(g, d, size):
    """Table 4.1 per rank and level by brute force from the depths ``d`` of one search: the
    queue (CLQ), its entries (NLF), the distinct vertices among them (pruned, the whole NLF
    sorted as the thesis does), those the rank owns (LV), the others' distinct vertices the
    rank owns (RV), the new vertices from the own entries and from the received ones (NLQ)."""
    n = g.num_vertices
    reach = np.isfinite(d)
    depth = np.where(reach, d, -1).astype(np.int64)
    levels = int(depth.max()) + 1
    owner = np.arange(n) % size
    out = {k: np.zeros((size, levels), np.int64) for k in
           ("queue", "nlf", "nlf_pruned", "local", "sent", "received", "enqueued_local",
            "enqueued_received")}
    for lev in range(levels):
        uniq = []
        for r in range(size):
            q = np.flatnonzero((depth == lev) & (owner == r))
            nb = np.concatenate([g.indices[g.indptr[u]:g.indptr[u + 1]] for u in q] or
                                [np.zeros(0, np.int64)]).astype(np.int64)
            u = np.unique(nb)
            uniq.append(u)
            own = u[owner[u] == r]
            out["queue"][r, lev] = len(q)
            out["nlf"][r, lev] = len(nb)
            out["nlf_pruned"][r, lev] = len(u)
            out["local"][r, lev] = len(own)
            out["sent"][r, lev] = len(u) - len(own)
            out["enqueued_local"][r, lev] = np.count_nonzero(depth[own] == lev + 1)
        for r in range(size):
            out["received"][r, lev] = sum(np.count_nonzero(owner[uniq[s]] == r)
                                          for s in range(size) if s != r)
            new = np.count_nonzero((depth == lev + 1) & (owner == r))
            out["enqueued_received"][r, lev] = new - out["enqueued_local"][r, lev]
    return out


def _search(comm, roots, drop_visited):
    g = build_dist(comm, generate_local(comm, SCALE))
    s = DistSearcher(comm, g, "sort-unique", "topdown-queue", drop_visited=drop_visited)
    return [s.search(int(r)).levels for r in roots]


@pytest.mark.parametrize("size", [1, 3, 4])
def test_distributed_counts_are_the_thesis_definitions(graph, size):
    g, depth, roots = graph
    thesis = ThreadComm.run(size, _search, roots, False)
    dropped = ThreadComm.run(size, _search, roots, True)
    for i, root in enumerate(roots.tolist()):
        want = thesis_counts(g, depth[root], size)
        for r in range(size):
            got = thesis[r][i]
            for key, col in want.items():
                np.testing.assert_array_equal(got[key], col[r], err_msg=f"{key} rank {r}")
            # UR = pruned / NLF and QR = CLQ / NLF lie in [0, 1]
            nlf = np.maximum(got["nlf"], 1)
            assert (got["nlf_pruned"] <= nlf).all() and (got["queue"] <= nlf).all()
            # the project's default drops own visited entries before pruning: fewer entries,
            # the same traffic's receivers, and LV is then exactly the own new vertices
            d = dropped[r][i]
            assert (d["nlf"] == got["nlf"]).all() and (d["nlf_pruned"] <= got["nlf_pruned"]).all()
            np.testing.assert_array_equal(d["local"], d["enqueued_local"])
            np.testing.assert_array_equal(d["sent"], got["sent"])
            np.testing.assert_array_equal(d["enqueued_local"] + d["enqueued_received"],
                                          got["enqueued_local"] + got["enqueued_received"])
        # RV is what the other ranks sent: over the ranks, sent = received
        assert sum(thesis[r][i]["sent"].sum() for r in range(size)) == \
            sum(thesis[r][i]["received"].sum() for r in range(size))


@pytest.mark.parametrize("name", ["sort-unique", "gpu-queue", "bitmap-filter", "frontier-mask",
                                  "direction-optimizing"])
def test_embedded_levels_are_the_thesis_columns(graph, name):
    """One process: LV is the NLF elements left after pruning (the distinct unvisited ones
    where the algorithm prunes, every unvisited one in gpu-queue), RV 0, QR = CLQ / NLF,
    UR = LV / NLF; FRESH (the project's) the unvisited NLF elements."""
    g, depth, roots = graph
    deg = g.degree()
    for root in roots.tolist():
        d = np.where(np.isfinite(depth[root]), depth[root], -1).astype(np.int64)
        fn = ARRAY_ALGORITHMS.get(name, bfs_direction_optimizing_array)
        res = fn(g, root, backend="cpu")
        x, lv = res.levels.extra, res.levels
        assert not x["RV"].any()
        np.testing.assert_allclose(x["QR"], np.divide(x["CLQ"], x["NLF"], out=np.zeros(len(lv)),
                                                      where=x["NLF"] > 0))
        np.testing.assert_allclose(x["UR"], np.divide(x["LV"], x["NLF"], out=np.zeros(len(lv)),
                                                      where=x["NLF"] > 0))
        for k in range(len(lv)):
            if lv.direction[k] != "top-down":
                np.testing.assert_array_equal(x["LV"][k], x["NLQ"][k])
                continue
            q = np.flatnonzero(d == k)
            nb = np.concatenate([g.indices[g.indptr[u]:g.indptr[u + 1]] for u in q])
            assert x["NLF"][k] == deg[q].sum() == len(nb)
            assert x["FRESH"][k] == np.count_nonzero(d[nb] == k + 1)  # unvisited when read
            assert x["NLQ"][k] == np.count_nonzero(d == k + 1)
            assert x["LV"][k] == (x["FRESH"][k] if name == "gpu-queue" else x["NLQ"][k])
            assert x["NLQ"][k] <= x["LV"][k] <= x["FRESH"][k] <= x["NLF"][k]


def test_script_tiny(tmp_path):
    spec = importlib.util.spec_from_file_location("paper_000", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "000.md"
    checks = mod.main(["--tiny", "--out", str(out)])
    text = out.read_text()
    # every table and figure of the thesis has its entry, with a status
    for name in ("Fig. 1.1", "Table 1.1", "Fig. 4.2", "Fig. 4.7", "Fig. 4.8", "Table 4.1",
                 "Table 4.2", "Fig. 4.9", "Fig. 4.10", "Fig. 4.11", "Table 4.3",
                 "Tables 4.4-4.6", "Tables 4.7, 4.8", "Fig. 4.12", "Fig. 4.13"):
        assert f"## {name}: " in text, name
    # the machine-independent checks that hold at the tiny size
    assert checks["table_4_1"]["sent_is_received"]
    assert checks["table_4_1"]["peak_level"] == 3 and checks["fig_4_13"]["peak_level"] == 3
    assert checks["fig_4_7"]["rises"] and all(0 < u <= 1 for u in checks["fig_4_7"]["ur"])
    b = checks["fig_4_8"]["bytes"]
    assert b["none"] >= b["sort-unique"] >= b["bitmap"] > 0
    assert checks["fig_4_10"]["prunes_more"]
    assert checks["fig_1_1"]["heavy_tail"]
    # Table 4.1's rows are the searcher's counts: sums over the levels agree with the ratios
    lv = checks["table_4_1"]["levels"]
    assert (lv["nlf_pruned"] <= lv["nlf"]).all() and (lv["local"] <= lv["nlf_pruned"]).all()
