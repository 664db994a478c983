"""Beamer's direction-optimizing switch (Beamer, Asanovic, Patterson, SC12), one home for the
embedded and the distributed searches: go bottom-up when the frontier's edges m_f exceed the
unexplored edges m_u / alpha; come back top-down when the frontier shrinks below N / beta.
"""
from __future__ import annotations

from numba import njit

__all__ = ["ALPHA", "BETA", "go_bottom_up", "go_top_down"]

ALPHA = 15.0  # Beamer's defaults
BETA = 18.0


@njit(cache=True)
def go_bottom_up(nf, prev_nf, m_f, m_u, alpha):
    """Beamer's top-down -> bottom-up test: the frontier is growing and m_f > m_u / alpha.

    Never when no unvisited vertex has an edge (m_u == 0: the next level finds nothing, and
    top-down finds that out in O(m_f), bottom-up in O(N)).
    """
    return nf > prev_nf and m_u > 0 and m_f * alpha > m_u


@njit(cache=True)
def go_top_down(nf, prev_nf, n, beta, m_f, m_u, alpha):
    """Beamer's bottom-up -> top-down test after a bottom-up level: the frontier is small
    (nf <= N / beta) and either shrinking or no longer worth bottom-up (the top-down test
    fails). Never when the frontier is empty (the search is over)."""
    return nf > 0 and nf <= n / beta and (nf < prev_nf or not (m_u > 0 and m_f * alpha > m_u))
