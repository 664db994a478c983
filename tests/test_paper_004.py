"""benchmarks/papers/004_course.py (paper 004's tables) at --tiny: the paper's BFS graphs
have the stated sizes, densities and degree caps, every variant's answer is scipy's, the
linear-work example's frontiers are the paper's, APSP agrees with scipy, and the page lists
every table and figure of the paper."""
import importlib.util
import os
import re
import sys

import numpy as np
import pytest
from scipy.sparse.csgraph import breadth_first_order

_DIR = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "papers")


@pytest.fixture(scope="module")
def script():
    sys.path.insert(0, _DIR)
    spec = importlib.util.spec_from_file_location("course_004",
                                                  os.path.join(_DIR, "004_course.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("n, density, degree", [(300, 20, 100), (300, 80, 100),
                                                 (256, 25, 25), (256, 25, 60)])
def test_course_graph_has_the_stated_size_density_and_degree_cap(script, n, density, degree):
    """initGraph's graph: n vertices, n^2 x density edges (self-edges counted) within the
    stated tolerance when no cap binds, no out-degree above the cap (reached when the cap
    binds), every vertex reached from 0, directed (not symmetric), no self-loop in the CSR."""
    g, facts = script.course_graph(n, density, degree)
    cap = degree * n // 100
    deg = np.diff(g.indptr) + 1  # the self-edge
    assert g.num_vertices == n and facts["edges"] == deg.sum() and facts["cap"] == cap
    assert deg.max() == facts["max_degree"] <= cap
    if degree == 100:
        assert abs(100 * deg.sum() / n ** 2 - density) <= script.DENSITY_TOL
    if cap < 0.3 * n:
        assert deg.max() == cap
    a = g.to_scipy()
    assert (a != a.T).nnz > 0 and not a.diagonal().any()
    assert breadth_first_order(a, 0, directed=True, return_predecessors=False).size == n


def test_every_variant_is_scipys_and_a_wrong_tree_is_caught(script):
    """The three variants on one graph: scipy's depths and shortest-path trees; the tree
    check refuses a parent that is one level up but not joined by an edge."""
    g, _ = script.course_graph(200, 25, 100)
    out = script.run_variants(g, 1)
    assert set(out) == set(script.VARIANTS) and all(v[1] for v in out.values())
    assert out["linear-work GPU"][3] >= 1  # the root's level is below 512: the pass
    ref = script.scipy_depths(g)
    res = script.ARRAY_ALGORITHMS["frontier-mask"](g, 0)
    assert script.tree_ok(g, res.parent, ref)
    v = int(np.flatnonzero(ref == 2)[0])
    lacking = [u for u in np.flatnonzero(ref == 1)
               if v not in g.indices[g.indptr[u]:g.indptr[u + 1]]]
    bad = res.parent.copy()
    bad[v] = lacking[0]
    assert not script.tree_ok(g, bad, ref)


def test_tiny_page(script, tmp_path):
    """--tiny writes the page: every item of the paper, the machine-independent checks all
    hold (exit status 0), the example reproduced row by row, the paper's numbers beside
    ours."""
    out = tmp_path / "004.md"
    assert script.main(["--tiny", "--out", str(out)]) == 0
    text = out.read_text()
    names = ["Figures 1-3", "Figure (APSP elements per thread)", "Table (APSP results)",
             "Figures 4-9", "Table (linear-work example)", "Table (BFS, graph size)",
             "Table (BFS, density)", "Table (BFS, degree)"]
    for name in names:
        assert f"[{name}" in text
    assert re.search(r"\[Table \(linear-work example\)\]\([^)]*\) \| reproduced \|", text)
    assert "Every row matches." in text and "(all hold)" in text
    assert "| 2 | [1, 3] | [1, 3] | [0, 2, 4, 4] | [0, 2, 4, 4] | 4 | 4 |" in text
    assert "| 40960 | serial CPU" in text and "1892354" in text  # not run, still listed
    assert "| 512 | CPU floyd-warshall | floyd-warshall | - | 1473223 | - |" in text
    assert "WRONG ANSWER" not in text and "FAILED" not in text
