"""Edge generators with one random substream per edge: Kronecker (reference-exact), R-MAT, G(n, m).

Edge ``ei`` depends only on the seeds and ``ei``, so any range ``[start, end)`` is generated on
its own and ranges concatenate to the whole list: P processes or chunks give the same graph.
Work is split into chunks of consecutive edges, one chunk per parallel task; a chunk skips
to its first substream once and then moves one substream on per edge with one fixed
matrix-vector product (see mrg.py).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..errors import InputError, shown
from ..graph.types import EdgeList
from .mrg import (EDGE_STRIDE, INV_MOD, INV_MOD2, MUL_X, MUL_Y, POW2, make_mrg_seed, matvec,
                  reduce_mod, skip, step)

# Kronecker initiator of the reference, as fractions of 10000: A = 0.57, B = C = 0.19, D = 0.05.
INITIATOR_A = 5700
INITIATOR_BC = 1900
INITIATOR_DENOMINATOR = 10000
# Draws below this are rejected to avoid modulo bias, and the next draw of the same substream
# taken instead: generate_4way_bernoulli of the v3 reference uses UINT32_C(0x7FFFFFFF) % 10000
# = 3647 (the draws are 31-bit). The 2011 generator (v2.1.x) used 0xFFFFFFFF % 10000 = 7295,
# which gives a different graph on about one edge in 50,000.
REJECT_BELOW = 0x7FFFFFFF % INITIATOR_DENOMINATOR

MAX_SCALE = 62  # labels and edge counts must fit int64
_CHUNK = 1 << 14  # edges per parallel task

_U64 = np.uint64
_M1 = _U64(0x5555555555555555)
_M2 = _U64(0x3333333333333333)
_M4 = _U64(0x0F0F0F0F0F0F0F0F)
_M8 = _U64(0x00FF00FF00FF00FF)
_M16 = _U64(0x0000FFFF0000FFFF)
_S1, _S2, _S4, _S8, _S16, _S32 = (_U64(s) for s in (1, 2, 4, 8, 16, 32))
_SCRAMBLE_MUL0 = _U64(0x4519840211493211)
_SCRAMBLE_MUL1 = _U64(0x3050852102C843A5)


@njit(inline="always")
def _bitreverse(x):
    x = (x >> _S32) | (x << _S32)
    x = ((x >> _S16) & _M16) | ((x & _M16) << _S16)
    x = ((x >> _S8) & _M8) | ((x & _M8) << _S8)
    x = ((x >> _S4) & _M4) | ((x & _M4) << _S4)
    x = ((x >> _S2) & _M2) | ((x & _M2) << _S2)
    x = ((x >> _S1) & _M1) | ((x & _M1) << _S1)
    return x


@njit(inline="always")
def _scramble(v0, key):
    """The reference's vertex-label hash (a bijection on [0, 2**SCALE)); ``key``: (64 -
    SCALE, val0, val1), the shift and ``scramble_values``."""
    shift, val0, val1 = key
    v = _U64(v0) + val0 + val1
    v *= val0 | _SCRAMBLE_MUL0
    v = _bitreverse(v) >> shift
    v *= val1 | _SCRAMBLE_MUL1
    v = _bitreverse(v) >> shift
    return np.int64(v)


def scramble_values(seed_state: np.ndarray) -> tuple[int, int]:
    """val0, val1 of the reference: four draws after skipping 50 * 2**128 + 7 * 2**64 steps."""
    st = skip(POW2, seed_state, 50, 7, 0)
    z = tuple(int(x) for x in st)
    draws = []
    for _ in range(4):
        z = (((107374182 * z[0] + 104480 * z[4]) % 0x7FFFFFFF),) + z[:4]
        draws.append(z[0])
    val0 = (draws[0] * 0xFFFFFFFF + draws[1]) & (2**64 - 1)
    val1 = (draws[2] * 0xFFFFFFFF + draws[3]) & (2**64 - 1)
    return val0, val1


@njit(inline="always")
def _step(z):
    """``mrg.step`` on the state tuple (inlined calls take no ``*z``)."""
    return step(z[0], z[1], z[2], z[3], z[4])


@njit(inline="always")
def _draw(z):
    """One 4-way Bernoulli draw in [0, 10000) with the reference's rejection, and the new
    state ``z`` (the generator's five values, newest first)."""
    z = _step(z)
    while z[0] < REJECT_BELOW:
        z = _step(z)
    return z[0] % INITIATOR_DENOMINATOR, z


@njit(inline="always")
def _descend(val, base_src, base_tgt, half):
    """Move into the quadrant the draw picks, branch-free (random branches mispredict).

    val < BC -> (0, 1); val < 2BC -> (1, 0); val < 2BC + A -> (0, 0); else (1, 1); on the
    diagonal the lower triangle is flipped into the upper one (clip-and-flip).
    """
    d = np.int64(val >= 2 * INITIATOR_BC + INITIATOR_A)
    src_off = np.int64(val >= INITIATOR_BC) & np.int64(val < 2 * INITIATOR_BC) | d
    tgt_off = np.int64(val < INITIATOR_BC) | d
    flip = np.int64(base_src == base_tgt) & src_off & (tgt_off ^ 1)
    return base_src + half * (src_off ^ flip), base_tgt + half * (tgt_off ^ flip)


@njit(inline="always")
def _weight(draw):
    """The reference's mrg_get_float_orig: ``(float)draw * (2^31 - 1)^-1`` with a double
    constant, rounded to float32 on return. A draw near 2^31 - 1 rounds up to 2^31 as a float
    first, so a weight can be exactly 1.0f: the range is [0, 1], not [0, 1)."""
    return np.float32(np.float64(np.float32(draw)) * INV_MOD)


@njit(cache=True)
def kronecker_edge(scale, key, z):
    """One edge from its substream state ``z``, serially: the plain transcription of the
    reference (``key``: ``_scramble``'s).

    Returns (src, dst, weight): the weight is the draw after the endpoints' (the reference's
    generator built with -DSSSP). The lane kernel below computes the same thing many edges at
    a time; this one handles the edges whose stream contains a rejected draw, and is the
    tests' oracle for the lanes.
    """
    src = np.int64(0)
    tgt = np.int64(0)
    half = np.int64(1) << scale
    for _ in range(scale):
        val, z = _draw(z)
        half >>= 1
        src, tgt = _descend(val, src, tgt, half)
    z = _step(z)
    return _scramble(src, key), _scramble(tgt, key), _weight(z[0])


_LANES = 64
_LANE_STRIDE = POW2[64 + 6].copy()  # A**(64 * 2**64): a lane's state LANES edges on
_DIV10000_MAGIC = 3518437209  # floor(x / 10000) == (x * magic) >> 45 for 0 <= x < 2**32


@njit(cache=True)
def _kronecker_lanes(stride, state, count, scale, key, src, dst, wgt):
    """``count`` consecutive edges from substream ``state`` on, LANES edges in lockstep
    (and their weights into ``wgt`` unless it is empty).

    Lane l draws for edge ``base + l``; each level's draw is one vectorisable loop over the
    lanes (the serial chain of a single edge is what limits the plain version). A lane whose
    stream hits the reference's rejection (about once per 300,000 draws) is redone serially.
    The five state rows live in a ring: row p holds the newest value, row p + 1 the oldest.
    """
    init = np.empty((5, _LANES), dtype=np.int64)
    ring = np.empty((5, _LANES), dtype=np.int64)
    bs = np.empty(_LANES, dtype=np.int64)
    bt = np.empty(_LANES, dtype=np.int64)
    bad = np.empty(_LANES, dtype=np.int64)
    wl = np.empty(_LANES, dtype=np.float32)
    weighted = wgt.shape[0] > 0
    z0, z1, z2, z3, z4 = state[0], state[1], state[2], state[3], state[4]
    for lane in range(_LANES):
        init[0, lane], init[1, lane], init[2, lane], init[3, lane], init[4, lane] = z0, z1, z2, z3, z4
        z0, z1, z2, z3, z4 = matvec(stride, z0, z1, z2, z3, z4)
    for base in range(0, count, _LANES):
        for k in range(5):
            for lane in range(_LANES):
                ring[(5 - k) % 5, lane] = init[k, lane]
        bs[:] = 0
        bt[:] = 0
        bad[:] = 0
        half = np.int64(1) << scale
        p = 0
        for _ in range(scale):
            o = p + 1 if p < 4 else 0
            half >>= 1
            for lane in range(_LANES):
                val = reduce_mod(MUL_X * ring[p, lane] + MUL_Y * ring[o, lane])
                ring[o, lane] = val
                bad[lane] |= np.int64(val < REJECT_BELOW)
                val -= ((val * _DIV10000_MAGIC) >> 45) * INITIATOR_DENOMINATOR
                bs[lane], bt[lane] = _descend(val, bs[lane], bt[lane], half)
            p = o
        n = min(_LANES, count - base)
        if weighted:  # the draw after the endpoints', ring[p] being the newest value
            o = p + 1 if p < 4 else 0
            for lane in range(_LANES):
                wl[lane] = _weight(reduce_mod(MUL_X * ring[p, lane] + MUL_Y * ring[o, lane]))
        for lane in range(n):
            if bad[lane]:
                u, v, w = kronecker_edge(scale, key, (init[0, lane], init[1, lane],
                                                      init[2, lane], init[3, lane],
                                                      init[4, lane]))
                wl[lane] = w
            else:
                u = _scramble(bs[lane], key)
                v = _scramble(bt[lane], key)
            src[base + lane] = u
            dst[base + lane] = v
            if weighted:
                wgt[base + lane] = wl[lane]
        for lane in range(_LANES):
            init[0, lane], init[1, lane], init[2, lane], init[3, lane], init[4, lane] = matvec(
                _LANE_STRIDE, init[0, lane], init[1, lane], init[2, lane], init[3, lane],
                init[4, lane])


@njit(inline="always")
def _uniform(z):
    """The reference's double in [0, 1) from two draws, and the advanced state."""
    z = _step(z)
    hi = z[0]
    z = _step(z)
    return hi * INV_MOD + z[0] * INV_MOD2, z


@njit(inline="always")
def _rmat_edge(scale, key, model, z):
    """An R-MAT edge; ``model``: (kind, n, a, a + b, a + b + c, scramble?)."""
    _, _, a, ab, abc, do_scramble = model
    src = np.int64(0)
    tgt = np.int64(0)
    for _ in range(scale):
        u, z = _uniform(z)
        src <<= 1
        tgt <<= 1
        if u < a:
            pass
        elif u < ab:
            tgt += 1
        elif u < abc:
            src += 1
        else:
            src += 1
            tgt += 1
    if do_scramble:
        return _scramble(src, key), _scramble(tgt, key)
    return src, tgt


@njit(inline="always")
def _uniform_edge(n, z):
    u, z = _uniform(z)
    w, z = _uniform(z)
    return min(np.int64(u * n), n - 1), min(np.int64(w * n), n - 1)


@njit(cache=True, parallel=True)
def _generate_kronecker(tables, seed_state, span, scale, key, src, dst, wgt):
    """Fill src/dst with Kronecker edges ``span`` = [start, end) (and ``wgt`` with their
    weights unless it is empty); ``tables``: (POW2, EDGE_STRIDE), passed rather than frozen
    into the code. Apart from the sampled generators: the default run compiles only this
    (a kernel holding all three compiled 4 s longer)."""
    pow2, stride = tables
    start, end = span
    count = end - start
    for c in prange((count + _CHUNK - 1) // _CHUNK):
        lo = c * _CHUNK
        hi = min(lo + _CHUNK, count)
        st = skip(pow2, seed_state, 0, start + lo, 0)
        _kronecker_lanes(stride, st, hi - lo, scale, key, src[lo:hi], dst[lo:hi],
                         wgt[lo:hi] if wgt.shape[0] else wgt)


@njit(cache=True)
def _sampled_chunk(stride, st, scale, key, model, src, dst):
    """Consecutive edges of ``model`` from substream ``st`` on into src/dst (its own
    function: state tuples inlined into a parallel loop trip numba's array analysis)."""
    kind, n = model[0], model[1]
    z = (st[0], st[1], st[2], st[3], st[4])
    for i in range(src.shape[0]):
        if kind == 1:
            u, v = _rmat_edge(scale, key, model, z)
        else:
            u, v = _uniform_edge(n, z)
        src[i] = u
        dst[i] = v
        z = matvec(stride, z[0], z[1], z[2], z[3], z[4])


@njit(cache=True, parallel=True)
def _generate_sampled(tables, seed_state, span, scale, key, model, src, dst):
    """Fill src/dst with edges ``span`` = [start, end) of ``model`` (kind 1
    R-MAT, 2 uniform G(n, m); ``_rmat_edge``'s)."""
    pow2, stride = tables
    start, end = span
    count = end - start
    for c in prange((count + _CHUNK - 1) // _CHUNK):
        lo = c * _CHUNK
        hi = min(lo + _CHUNK, count)
        st = skip(pow2, seed_state, 0, start + lo, 0)
        _sampled_chunk(stride, st, scale, key, model, src[lo:hi], dst[lo:hi])


def check_seed(seed) -> tuple[int, int]:
    try:
        s1, s2 = (int(s) for s in seed)
    except (TypeError, ValueError):
        raise InputError(f"seed must be two integers, got {shown(seed)}", "seed") from None
    for s in (s1, s2):
        if not 0 <= s < 2**64:
            raise InputError(f"seed {s} out of range: each seed must be in [0, 2**64)", "seed")
    return s1, s2


def _check_range(start, end, total) -> tuple[int, int]:
    start = 0 if start is None else int(start)
    end = total if end is None else int(end)
    if not 0 <= start <= end <= total:
        raise InputError(f"edge range [{start}, {end}) is not inside [0, {total})")
    return start, end


def check_scale(scale: int, edgefactor: int) -> None:
    """SCALE and edgefactor as the benchmark accepts them; InputError otherwise."""
    if not isinstance(scale, (int, np.integer)) or not 1 <= scale <= MAX_SCALE:
        raise InputError(f"SCALE must be an integer in [1, {MAX_SCALE}], got {shown(scale)}",
                         "SCALE")
    if not isinstance(edgefactor, (int, np.integer)) or edgefactor < 1:
        raise InputError(f"edgefactor must be an integer >= 1, got {shown(edgefactor)}",
                         "edgefactor")
    if int(edgefactor) << int(scale) >= 2**63:
        raise InputError(f"edgefactor {edgefactor} << SCALE {scale} does not fit int64 edge counts")


class _Stream:
    """What every range of one generator's edges is drawn from: the kind, the seed state,
    the scramble values and the shape (computed once, then ``fill`` any range)."""

    def __init__(self, kind, seed, scale, n, a=0.0, ab=0.0, abc=0.0, do_scramble=True):
        s1, s2 = check_seed(seed)
        self.kind, self.scale, self.n = kind, scale, n
        self.seed_state = make_mrg_seed(s1, s2)
        val0, val1 = scramble_values(self.seed_state) if kind != 2 else (0, 0)
        shift = _U64(64 - scale) if scale > 0 else _U64(0)
        self.key = (shift, np.uint64(val0), np.uint64(val1))  # _scramble's
        self.model = (np.int64(kind), np.int64(n), float(a), float(ab), float(abc),
                      bool(do_scramble))

    def fill(self, start, end, src, dst, wgt):
        """Edges [start, end) into src/dst (int64), weights into wgt unless it is empty: the
        kernel of the kind (0 Kronecker, else ``_generate_sampled``)."""
        span = (np.int64(start), np.int64(end))
        if self.kind == 0:
            _generate_kronecker((POW2, EDGE_STRIDE), self.seed_state, span,
                                np.int64(self.scale), self.key, src, dst, wgt)
        else:
            _generate_sampled((POW2, EDGE_STRIDE), self.seed_state, span, np.int64(self.scale),
                              self.key, self.model, src, dst)


def kronecker_stream(scale: int, seed) -> _Stream:
    """The Kronecker generator of SCALE and seed, to ``fill`` ranges into buffers of the
    caller's (``generator.tuples.KroneckerTuples`` reuses its buffers piece after piece)."""
    return _Stream(0, seed, scale, 1 << scale)


def _run(kind, seed, start, end, total, scale, n, a=0.0, ab=0.0, abc=0.0, do_scramble=True,
         weights=False):
    stream = _Stream(kind, seed, scale, n, a, ab, abc, do_scramble)
    start, end = _check_range(start, end, total)
    src = np.empty(end - start, dtype=np.int64)
    dst = np.empty(end - start, dtype=np.int64)
    wgt = np.empty(end - start if weights else 0, dtype=np.float32)
    stream.fill(start, end, src, dst, wgt)
    return src, dst, (wgt if weights else None)


def kronecker(scale: int, edgefactor: int = 16, seed=(2, 3), *, start=None, end=None,
              weights: bool = False) -> EdgeList:
    """The Graph500 Kronecker graph, tuple for tuple the reference's generate_kronecker_range.

    ``edgefactor << scale`` tuples over ``2**scale`` vertices; ``start``/``end`` select the edge
    range ``[start, end)`` (default: all), so ranges concatenate to the whole list.
    ``weights=True``: also kernel 3's float32 weights (``EdgeList.weight``), as the reference
    built with -DSSSP draws them: one ``mrg_get_float_orig`` per tuple from the tuple's own
    substream, after its endpoint draws.
    """
    check_scale(scale, edgefactor)
    total = int(edgefactor) << int(scale)
    src, dst, wgt = _run(0, seed, start, end, total, scale, 1 << scale, weights=weights)
    return EdgeList(src, dst, 1 << int(scale), wgt)


def rmat(scale: int, edgefactor: int = 16, a: float = 0.57, b: float = 0.19, c: float = 0.19,
         seed=(2, 3), *, scramble: bool = True, start=None, end=None) -> EdgeList:
    """R-MAT (thesis 1.1.2): each of SCALE levels picks a quadrant with probabilities a, b, c, d.

    d = 1 - a - b - c. No clip-and-flip (tuples are directed draws, as in Chakrabarti et al.);
    labels go through the reference's scramble hash unless ``scramble=False``.
    """
    check_scale(scale, edgefactor)
    d = 1.0 - a - b - c
    if min(a, b, c) < 0 or d < -1e-12:
        raise InputError(f"R-MAT probabilities must be >= 0 with a + b + c <= 1, got {a}, {b}, {c}")
    total = int(edgefactor) << int(scale)
    src, dst, _ = _run(1, seed, start, end, total, scale, 1 << scale, a, a + b, a + b + c,
                       scramble)
    return EdgeList(src, dst, 1 << int(scale))


def erdos_renyi(n: int, m: int, seed=(2, 3), *, start=None, end=None) -> EdgeList:
    """Uniform random graph G(n, m) (thesis 1.2.1): m tuples with independent uniform endpoints.

    Like the Kronecker output, tuples may repeat or be self-loops; kernel 1 removes them.
    """
    if not isinstance(n, (int, np.integer)) or not 1 <= n < 2**62:
        raise InputError(f"n must be an integer in [1, 2**62), got {shown(n)}")
    if not isinstance(m, (int, np.integer)) or not 0 <= m < 2**62:
        raise InputError(f"m must be an integer in [0, 2**62), got {shown(m)}")
    src, dst, _ = _run(2, seed, start, end, int(m), 0, int(n))
    return EdgeList(src, dst, int(n))
