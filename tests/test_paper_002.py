"""benchmarks/papers/002_munguia_hybrid.py at its tiny size: the page has every figure of
paper 002, and the machine-independent facts behind it hold (task counts, the workload rule,
what crosses the link, level counts against scipy, the top-down mode, lambda's extremes, the
deterministic lambda sweep)."""
from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

_SCRIPT = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "papers",
                       "002_munguia_hybrid.py")
FIGURES = [f"Fig. {k}" for k in range(1, 12) if k != 10] + ["Fig. 10 (a)", "Fig. 10 (b)",
                                                              "Lambda (section V-A)"]


def _load():
    spec = importlib.util.spec_from_file_location("paper_002", _SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def script():
    return _load()


@pytest.fixture(scope="module")
def tiny(script, tmp_path_factory):
    page = tmp_path_factory.mktemp("p002") / "002.md"
    out = script.main(["--tiny", "--out", str(page)])
    return out, page.read_text()


def test_page_has_every_figure(tiny):
    _, text = tiny
    for name in FIGURES:
        assert f"## {name}: " in text, name
        assert f"| [{name}](#" in text, name
    assert "**Status: not reproducible here.**\n\nNo GPU on this machine" in text  # Fig. 8


def test_tasks_any_size_and_none_empty(tiny, script):
    """Fig. 2: every T up to N gives T non-empty ranges within one vertex of each other; past
    N, N tasks have a vertex; the tasks' entries add up to the graph's."""
    out, text = tiny
    assert out["tasks"] == {"empty": 0, "spread": 1, "ok": True}
    g = script.graph(script.TINY["fig9"], script.TINY["roots"]).g
    n, entries = g.num_vertices, int(g.indptr[-1])
    for t in script.TINY["tasks"]:
        row = f"| {t} | {min(t, n)} | "
        assert row in text and f"| {entries} | {min(t, n)} tasks, {entries} entries |" in text


def test_rule_caching_and_exchange(tiny):
    """Fig. 6: every task on the rule's side at every level; the graph parts cross once
    (at most the whole CSR), none in the second search. Fig. 7: fixed mode exchanges only
    VB and NVF words during the levels, and both sides ran in some level."""
    out, _ = tiny
    flow = out["dataflow"]
    assert flow["rule"] and flow["graph_again"] == 0
    assert 0 < flow["graph_first"] <= flow["want"]
    assert out["fig7"]["per_level_parents"] == 0 and out["fig7"]["both"] > 0


def test_levels_match_scipy(tiny):
    """Fig. 5: the vertices per level are scipy's, exactly."""
    assert tiny[0]["fig5"]["exact"] and tiny[0]["fig5"]["levels"] >= 3


def test_work_clock_sweep(tiny, script):
    """The lambda sweep under the work clock (deterministic): auto lambda, calibrated in its
    warm-up search alone, within 10 % of the sweep's best, and no timed search explores."""
    summary = tiny[0]["sweep"]["summary"]
    work = summary[f"stand-in {script.SPEED:g}x, work clock"]
    assert work["auto_ok"], work
    assert all(s["explored"] == 0 for s in summary.values()), summary


def test_top_down_mode_and_lambda_extremes(script):
    """direction top-down never runs a bottom-up level; lambda = 0 puts every task with work
    on the array side at every level, lambda = N none."""
    g = script.graph(script.TINY["sweep"], script.TINY["roots"])
    n = g.g.num_vertices
    for lam in (0, n):
        for res in script.searches(g, tasks=100, lam=lam, **script.TOP):
            x = res.levels.extra
            assert (res.levels.direction_code == 0).all()
            busy = np.array([sum(c != "." for c in s) for s in x["sides"]])
            on_side, on_cpu = x["dev_tasks"], x["cpu_tasks"]
            assert (on_side == (busy if lam == 0 else 0)).all()
            assert (on_cpu == (0 if lam == 0 else busy)).all()
