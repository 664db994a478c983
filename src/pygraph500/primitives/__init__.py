"""Building blocks below the algorithms: numba atomics, bit operations, bitmaps and their
conversions, the in-kernel clock, Beamer's direction test, and the whole-array (``xp``)
steps. ``bfs/``, ``sssp/`` and ``distributed/`` all import them from here.
"""
from .atomics import cas, fetch_add, fetch_or
from .bits import cttz, popcount
from .clock import HAVE_CLOCK, clock_ns

__all__ = ["cas", "fetch_add", "fetch_or", "cttz", "popcount", "clock_ns", "HAVE_CLOCK"]
