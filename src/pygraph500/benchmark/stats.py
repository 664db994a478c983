"""Order statistics, mean, stddev and harmonic statistics exactly as the reference computes them.

Quartiles are the reference's: the mean of ``x[(n-1)//4]`` and ``x[n//4]`` of the sorted data
(and the mirror for the third quartile); stddev uses n - 1. TEPS statistics are taken on
seconds per edge and inverted, so the mean of those is the harmonic mean of TEPS, and its
standard error follows Norris (1940) as in the specification.
"""
from __future__ import annotations

import math

import numpy as np

STAT_NAMES = ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")


def summary(values) -> dict[str, float]:
    """min, quartiles, median, max, mean and (n - 1) stddev of a non-empty sample."""
    x = np.sort(np.asarray(values, dtype=np.float64))
    n = x.shape[0]
    if n == 0:
        raise ValueError("summary of an empty sample")
    mean = float(x.sum() / n)
    std = math.sqrt(float(((x - mean) ** 2).sum()) / (n - 1)) if n > 1 else 0.0
    return {
        "min": float(x[0]),
        "firstquartile": float((x[(n - 1) // 4] + x[n // 4]) * 0.5),
        "median": float((x[(n - 1) // 2] + x[n // 2]) * 0.5),
        "thirdquartile": float((x[n - 1 - (n - 1) // 4] + x[n - 1 - n // 4]) * 0.5),
        "max": float(x[n - 1]),
        "mean": mean,
        "stddev": std,
    }


def teps_summary(times, nedges) -> dict[str, float]:
    """TEPS quartiles, harmonic mean and harmonic stddev from per-search times and edge counts."""
    times = np.asarray(times, dtype=np.float64)
    nedges = np.asarray(nedges, dtype=np.float64)
    s = summary(times / nedges)
    n = times.shape[0]
    return {
        "min": 1.0 / s["max"],
        "firstquartile": 1.0 / s["thirdquartile"],
        "median": 1.0 / s["median"],
        "thirdquartile": 1.0 / s["firstquartile"],
        "max": 1.0 / s["min"],
        "harmonic_mean": 1.0 / s["mean"],
        "harmonic_stddev": (s["stddev"] / (s["mean"] ** 2 * math.sqrt(n - 1))) if n > 1 else 0.0,
    }
