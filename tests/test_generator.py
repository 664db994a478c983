"""The generator against the Graph500 reference's own output, whole and split into ranges."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from pygraph500.errors import InputError
from pygraph500.generator import erdos_renyi, kronecker, make_mrg_seed, make_random_numbers, rmat
from pygraph500.generator.mrg import MOD, MUL_X, MUL_Y, POW2, skip

from conftest import REFERENCE_CASES, load_reference


@pytest.mark.parametrize("name,scale,ef,seed", REFERENCE_CASES)
def test_kronecker_equals_reference(name, scale, ef, seed):
    ref, _ = load_reference(name)
    e = kronecker(scale, ef, seed)
    assert e.num_vertices == 2**scale
    assert e.src.dtype == np.int64 and e.dst.dtype == np.int64
    np.testing.assert_array_equal(np.column_stack([e.src, e.dst]), ref)


@pytest.mark.parametrize("name,scale,ef,seed", REFERENCE_CASES)
@pytest.mark.parametrize("parts", [2, 3, 7])
def test_kronecker_ranges_concatenate_to_reference(name, scale, ef, seed, parts):
    ref, _ = load_reference(name)
    m = ef << scale
    cuts = np.linspace(0, m, parts + 1).astype(int)
    pieces = [kronecker(scale, ef, seed, start=a, end=b) for a, b in zip(cuts[:-1], cuts[1:])]
    got = np.concatenate([np.column_stack([p.src, p.dst]) for p in pieces])
    np.testing.assert_array_equal(got, ref)


def test_single_edges_anywhere():
    """Edge i generated alone equals edge i of the whole list (chunk boundaries included)."""
    whole = kronecker(12, 8, (1, 2))
    for i in [0, 1, 16383, 16384, 16385, 32767, 32768 - 1]:
        one = kronecker(12, 8, (1, 2), start=i, end=i + 1)
        assert (one.src[0], one.dst[0]) == (whole.src[i], whole.dst[i])


def _step_python(z):
    return [(MUL_X * z[0] + MUL_Y * z[4]) % MOD] + z[:4]


@given(st.integers(0, 300), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
@settings(max_examples=40, deadline=None)
def test_skip_equals_stepping(k, s1, s2):
    """The matrix-power skip equals k single steps of the recurrence (pure-Python oracle)."""
    seed = make_mrg_seed(s1, s2)
    z = [int(x) for x in seed]
    for _ in range(k):
        z = _step_python(z)
    assert skip(POW2, seed, 0, 0, k).tolist() == z


def test_skip_words_compose():
    seed = make_mrg_seed(2, 3)
    a = skip(POW2, skip(POW2, seed, 0, 5, 0), 1, 0, 7)
    b = skip(POW2, seed, 1, 5, 7)
    assert a.tolist() == b.tolist()


def test_mrg_seed_is_nonzero_and_in_range():
    for s1, s2 in [(0, 0), (2**64 - 1, 2**64 - 1), (2, 3)]:
        seed = make_mrg_seed(s1, s2)
        assert ((seed >= 1) & (seed < MOD)).all()


def test_random_numbers_are_a_stream():
    a = make_random_numbers(10, 2, 3, 0)
    b = make_random_numbers(4, 2, 3, 6)
    np.testing.assert_array_equal(a[6:10], b)
    assert ((a >= 0) & (a < 1)).all()


def test_kronecker_labels_in_range_and_degree_skewed():
    e = kronecker(14, 16)
    assert e.src.min() >= 0 and max(e.src.max(), e.dst.max()) < 2**14
    deg = np.bincount(np.concatenate([e.src, e.dst]), minlength=2**14)
    # Kronecker graphs are heavy-tailed: the top vertex has far more than the mean degree.
    assert deg.max() > 50 * deg.mean()


def test_kronecker_seeds_change_graph():
    a = kronecker(10, 4, (2, 3))
    b = kronecker(10, 4, (3, 2))
    assert not np.array_equal(a.src, b.src)


@pytest.mark.parametrize("gen", [
    lambda **kw: rmat(10, 8, 0.45, 0.15, 0.15, (5, 6), **kw),
    lambda **kw: erdos_renyi(1000, 8000, (5, 6), **kw),
])
def test_other_generators_are_chunk_independent(gen):
    whole = gen()
    m = whole.num_edges
    parts = [gen(start=a, end=b) for a, b in [(0, 1), (1, 3000), (3000, m)]]
    np.testing.assert_array_equal(np.concatenate([p.src for p in parts]), whole.src)
    np.testing.assert_array_equal(np.concatenate([p.dst for p in parts]), whole.dst)


def test_rmat_quadrant_frequencies():
    """Without scrambling, the top bit of (src, dst) follows the initiator (a, b, c, d)."""
    a, b, c = 0.5, 0.2, 0.1
    e = rmat(8, 64, a, b, c, (1, 1), scramble=False)
    hs, ht = e.src >> 7, e.dst >> 7
    freq = [np.mean((hs == i) & (ht == j)) for i, j in [(0, 0), (0, 1), (1, 0), (1, 1)]]
    np.testing.assert_allclose(freq, [a, b, c, 1 - a - b - c], atol=0.01)


def test_erdos_renyi_uniform():
    e = erdos_renyi(100, 200_000, (9, 9))
    counts = np.bincount(e.src, minlength=100)
    assert e.src.max() < 100 and e.dst.min() >= 0
    # chi-square-ish: every bucket within 6 sigma of 2000
    assert np.abs(counts - 2000).max() < 6 * np.sqrt(2000)


@pytest.mark.parametrize("call", [
    lambda: kronecker(0),
    lambda: kronecker(63),
    lambda: kronecker(5, 0),
    lambda: kronecker(5, 16, (-1, 3)),
    lambda: kronecker(5, 16, (2**64, 3)),
    lambda: kronecker(5, 16, start=10, end=5),
    lambda: kronecker(5, 16, end=10**9),
    lambda: rmat(5, 16, 0.6, 0.3, 0.3),
    lambda: erdos_renyi(0, 5),
])
def test_bad_parameters_raise_input_error(call):
    with pytest.raises(InputError):
        call()


def test_lane_kernel_equals_serial_edges_including_rejections():
    """The SIMD lane kernel equals the serial per-edge transcription, rejected draws included."""
    from numba import njit

    from pygraph500.generator.kronecker import _REJECT_BELOW, kronecker_edge, scramble_values
    from pygraph500.generator.mrg import EDGE_STRIDE, matvec, step

    @njit
    def serial(state, m, scale, val0, val1, src, dst):
        z0, z1, z2, z3, z4 = state[0], state[1], state[2], state[3], state[4]
        rejecting = 0
        shift = np.uint64(64 - scale)
        for i in range(m):
            src[i], dst[i] = kronecker_edge(scale, shift, val0, val1, z0, z1, z2, z3, z4)
            y0, y1, y2, y3, y4 = z0, z1, z2, z3, z4
            for _ in range(scale):  # does this edge's stream reject a draw?
                y0, y1, y2, y3, y4 = step(y0, y1, y2, y3, y4)
                if y0 < _REJECT_BELOW:
                    rejecting += 1
                    break
            z0, z1, z2, z3, z4 = matvec(EDGE_STRIDE, z0, z1, z2, z3, z4)
        return rejecting

    scale, ef, seed = 14, 16, (11, 13)
    e = kronecker(scale, ef, seed)
    state = make_mrg_seed(*seed)
    val0, val1 = scramble_values(state)
    src = np.empty(e.num_edges, np.int64)
    dst = np.empty(e.num_edges, np.int64)
    rejecting = serial(state, e.num_edges, scale, np.uint64(val0), np.uint64(val1), src, dst)
    assert rejecting > 0  # about 12 expected: the fallback path is exercised
    np.testing.assert_array_equal(e.src, src)
    np.testing.assert_array_equal(e.dst, dst)
