"""The Graph500 reference's splittable random stream, bit for bit.

A multiple recursive generator of L'Ecuyer, Blouin and Couture (1993), order 5, modulus
2**31 - 1: ``z_new = (107374182 * z1 + 104480 * z5) mod (2**31 - 1)``, state ``(z1..z5)``
with ``z1`` the newest value. Skipping ``k`` steps multiplies the state by ``A**k``; the
reference keeps byte tables of these powers, we keep ``A**(2**j)`` for j < 192 and multiply
the ones whose bit is set (powers of ``A`` commute, so the order does not matter and the
resulting state is exactly the reference's).

Every Graph500 edge ``ei`` draws from its own substream: the seed state skipped by
``ei * 2**64`` steps. Consecutive edges are therefore one fixed matrix ``A**(2**64)`` apart,
which is how a chunk of edges is generated with one matrix-vector product per edge.
"""
from __future__ import annotations

import numpy as np
from numba import njit

MOD = 2**31 - 1
MUL_X = 107374182
MUL_Y = 104480
# The reference's double from two outputs: u1 / (2^31-1) + u2 / (2^31-1)^2, its literals exactly.
INV_MOD = 0.000000000465661287524579692
INV_MOD2 = 0.0000000000000000002168404346990492787

_POW_BITS = 192  # exponents up to 2**192, as the reference's (high, middle, low) 64-bit words


def make_mrg_seed(userseed1: int, userseed2: int) -> np.ndarray:
    """Spread two 64-bit user seeds into the five nonzero state words (reference make_mrg_seed)."""
    s1 = int(userseed1) & (2**64 - 1)
    s2 = int(userseed2) & (2**64 - 1)
    return np.array(
        [
            (s1 & 0x3FFFFFFF) + 1,
            ((s1 >> 30) & 0x3FFFFFFF) + 1,
            (s2 & 0x3FFFFFFF) + 1,
            ((s2 >> 30) & 0x3FFFFFFF) + 1,
            ((s2 >> 60) << 4) + (s1 >> 60) + 1,
        ],
        dtype=np.int64,
    )


def _matmul_mod(a: list, b: list) -> list:
    n = len(a)
    return [[sum(a[i][k] * b[k][j] for k in range(n)) % MOD for j in range(n)] for i in range(n)]


def _power_table() -> np.ndarray:
    """A**(2**j) for j in [0, 192), as int64 (192, 5, 5); exact Python integers underneath."""
    a = [[0] * 5 for _ in range(5)]
    a[0][0], a[0][4] = MUL_X, MUL_Y
    for i in range(1, 5):
        a[i][i - 1] = 1
    table = np.empty((_POW_BITS, 5, 5), dtype=np.int64)
    for j in range(_POW_BITS):
        table[j] = a
        a = _matmul_mod(a, a)
    return table


POW2 = _power_table()
# The matrix between consecutive edge substreams.
EDGE_STRIDE = POW2[64].copy()


@njit(inline="always")
def reduce_mod(x):
    """x mod (2^31 - 1) for 0 <= x < 2^62, branch-light (the generator's unrolled streams too)."""
    x = (x & 0x7FFFFFFF) + (x >> 31)
    x = (x & 0x7FFFFFFF) + (x >> 31)
    if x >= 0x7FFFFFFF:
        x -= 0x7FFFFFFF
    return x


@njit(inline="always")
def _fold(x):
    """A value congruent to x mod (2^31 - 1), below 2^32, for 0 <= x < 2^62."""
    return (x & 0x7FFFFFFF) + (x >> 31)


@njit(inline="always")
def _row(m, i, z0, z1, z2, z3, z4):
    """Row i of the product, reduced mod (2^31 - 1)."""
    return reduce_mod(_fold(m[i, 0] * z0) + _fold(m[i, 1] * z1) + _fold(m[i, 2] * z2)
                   + _fold(m[i, 3] * z3) + _fold(m[i, 4] * z4))


@njit(inline="always")
def matvec(m, z0, z1, z2, z3, z4):
    """Apply a 5x5 transition matrix to the state (z1..z5 of the reference); the state is
    five scalars, not an array, so that it stays in registers."""
    return (_row(m, 0, z0, z1, z2, z3, z4), _row(m, 1, z0, z1, z2, z3, z4),
            _row(m, 2, z0, z1, z2, z3, z4), _row(m, 3, z0, z1, z2, z3, z4),
            _row(m, 4, z0, z1, z2, z3, z4))


@njit(cache=True)
def skip(pow2, state, exp_high, exp_mid, exp_low):
    """The state advanced by exp_high * 2**128 + exp_mid * 2**64 + exp_low steps (all >= 0)."""
    z0, z1, z2, z3, z4 = state[0], state[1], state[2], state[3], state[4]
    for word in range(3):
        e = exp_low if word == 0 else (exp_mid if word == 1 else exp_high)
        bit = 0
        while e > 0:
            if e & 1:
                z0, z1, z2, z3, z4 = matvec(pow2[64 * word + bit], z0, z1, z2, z3, z4)
            e >>= 1
            bit += 1
    out = np.empty(5, dtype=np.int64)
    out[0], out[1], out[2], out[3], out[4] = z0, z1, z2, z3, z4
    return out


@njit(inline="always")
def step(z0, z1, z2, z3, z4):
    """One step of the original recurrence; the new value is the first word returned."""
    new = reduce_mod(MUL_X * z0 + MUL_Y * z4)
    return new, z0, z1, z2, z3


@njit(cache=True)
def _doubles(pow2, seed_state, position, n):
    st = skip(pow2, seed_state, 2, 0, 2 * position)
    z0, z1, z2, z3, z4 = st[0], st[1], st[2], st[3], st[4]
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        z0, z1, z2, z3, z4 = step(z0, z1, z2, z3, z4)
        hi = z0
        z0, z1, z2, z3, z4 = step(z0, z1, z2, z3, z4)
        out[i] = hi * INV_MOD + z0 * INV_MOD2
    return out


def make_random_numbers(nvalues: int, userseed1: int, userseed2: int, position: int) -> np.ndarray:
    """The reference's make_random_numbers: doubles in [0, 1) from a reproducible stream.

    Value ``i`` of a call at ``position`` equals value ``i + k`` of a call at ``position - k``.
    """
    if nvalues < 0 or position < 0:
        raise ValueError("make_random_numbers: nvalues and position must be >= 0")
    return _doubles(POW2, make_mrg_seed(userseed1, userseed2), np.int64(position), np.int64(nvalues))
