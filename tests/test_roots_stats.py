"""Search keys against the reference's own choice; statistics against independent formulas."""
import math
import statistics

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pygraph500.benchmark import choose_roots, summary, teps_summary
from pygraph500.generator import kronecker
from pygraph500.graph import build_csr

from conftest import REFERENCE_CASES, load_reference


@pytest.mark.parametrize("name,scale,ef,seed", REFERENCE_CASES)
def test_roots_equal_reference(name, scale, ef, seed):
    _, ref_roots = load_reference(name)
    graph = build_csr(kronecker(scale, ef, seed))
    roots = choose_roots(graph.degree() > 0, seed)
    np.testing.assert_array_equal(roots, ref_roots)


def test_roots_skip_isolated_and_repeats():
    has = np.zeros(1 << 12, bool)
    has[::3] = True
    roots = choose_roots(has, (2, 3), 64)
    assert len(roots) == 64 and len(set(roots.tolist())) == 64
    assert has[roots].all()


def test_roots_none_when_graph_has_no_edges():
    assert len(choose_roots(np.zeros(64, bool), (2, 3))) == 0


def _quartile_oracle(x, q):
    """The reference's quartile: mean of the two order statistics around the cut."""
    x = sorted(x)
    n = len(x)
    lo = {1: (n - 1) // 4, 2: (n - 1) // 2, 3: n - 1 - n // 4}[q]
    hi = {1: n // 4, 2: n // 2, 3: n - 1 - (n - 1) // 4}[q]
    return (x[lo] + x[hi]) / 2


@given(st.lists(st.floats(0.001, 1000), min_size=2, max_size=80))
@settings(max_examples=100, deadline=None)
def test_summary_matches_oracle(xs):
    s = summary(xs)
    assert s["min"] == min(xs) and s["max"] == max(xs)
    assert s["median"] == pytest.approx(statistics.median(xs))
    assert s["mean"] == pytest.approx(statistics.fmean(xs))
    assert s["stddev"] == pytest.approx(statistics.stdev(xs), rel=1e-9, abs=1e-12)
    assert s["firstquartile"] == pytest.approx(_quartile_oracle(xs, 1))
    assert s["thirdquartile"] == pytest.approx(_quartile_oracle(xs, 3))


def test_teps_summary_is_harmonic():
    times = np.array([1.0, 2.0, 4.0, 0.5])
    nedge = np.array([100.0, 100.0, 200.0, 50.0])
    teps = nedge / times
    t = teps_summary(times, nedge)
    assert t["harmonic_mean"] == pytest.approx(statistics.harmonic_mean(teps))
    assert t["min"] == pytest.approx(teps.min()) and t["max"] == pytest.approx(teps.max())
    # Norris (1940): stddev of 1/x over (mean(1/x)^2 * sqrt(n-1))
    inv = 1 / teps
    expect = statistics.stdev(inv) / (statistics.fmean(inv) ** 2 * math.sqrt(len(inv) - 1))
    assert t["harmonic_stddev"] == pytest.approx(expect)
