"""Binary search inside compiled loops (numba): one home for the lower bound that kernels
inline instead of calling ``np.searchsorted`` on a slice."""
from __future__ import annotations

from numba import njit

__all__ = ["lower_bound"]


@njit(inline="always")
def lower_bound(a, lo, hi, x):
    """The first position in [lo, hi) of the ascending ``a`` whose value is at or above
    ``x`` (hi if none)."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo
