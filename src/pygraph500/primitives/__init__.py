"""Building blocks below the algorithms, imported by ``bfs/``, ``sssp/`` and ``distributed/``
alike: numba atomics (``atomics``), bit operations (``bits``), bitmaps and their conversions
(``bitmaps``), the in-kernel clock (``clock``), Beamer's direction test (``direction``),
hints that change speed only (``hints``: prefetch, and ``hold`` for numba's reference
counts), the whole-array ``xp`` steps (``xp_steps``), the numba.cuda steps (``cuda_steps``,
imported only where a kernel runs) and numba's package-wide cache key (``numba_cache``).
"""
from . import numba_cache

numba_cache.install()  # before the first cached kernel below is defined (its cache is made then)

from .atomics import (cas, cas_acquire, fetch_add, fetch_add_acq_rel, fetch_min, fetch_or,
                      store_release)
from .bits import cttz, popcount
from .bitmaps import bitmap_to_queue, new_bitmap, queue_to_bitmap, unvisited_bitmap
from .clock import HAVE_CLOCK, clock_ns
from .direction import ALPHA, BETA, go_bottom_up, go_top_down
from .hints import hold, prefetch

__all__ = ["cas", "cas_acquire", "store_release", "fetch_add", "fetch_add_acq_rel", "fetch_or",
           "fetch_min", "cttz", "popcount", "clock_ns", "HAVE_CLOCK",
           "new_bitmap", "queue_to_bitmap", "unvisited_bitmap", "bitmap_to_queue",
           "ALPHA", "BETA", "go_bottom_up", "go_top_down", "prefetch", "hold"]
