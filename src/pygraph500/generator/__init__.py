"""Graph generators: the Graph500 Kronecker generator (reference-exact), R-MAT, G(n, m)."""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .kronecker import MAX_SCALE, check_scale, check_seed, erdos_renyi, kronecker, rmat
from .mrg import make_mrg_seed, make_random_numbers

__all__ = ["kronecker", "rmat", "erdos_renyi", "make_mrg_seed", "make_random_numbers",
           "check_scale", "check_seed", "MAX_SCALE"]
