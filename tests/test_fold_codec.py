"""The fold packet codec (paper 001, section 4.2): round trips of random pairs in every mode,
the exact bytes of the VLQ, zigzag and the paper's example, the size on sorted a, b sent as a
zigzag delta within a repeated a (ascending and descending), a sender kernel built from
``append_pair`` that flushes packets, and malformed packets (truncated, corrupted, trailing
bytes) reported instead of read past their end.

Expected lengths are computed here from the format's rule, not with the codec's helpers: per
VLQ pair, VLQ(zigzag(a_k - a_(k-1))) with a_(-1) = 0, then VLQ(zigzag(b_k - b_(k-1))) when
k > 0 and a_k == a_(k-1), else VLQ(b_k); per raw pair 2 * width bytes."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from numba import njit

from pygraph500.distributed.fold_codec import (ERR_FORMAT, ERR_ROOM, ERR_VALUE, FLAG_LAST,
                                               FLAG_VLQ, HEADER_BYTES, MAX_VLQ_BYTES,
                                               VALUE_LIMIT, append_pair, b_code, decode_at,
                                               decode_into, decode_pairs, encode_pairs,
                                               get_fixed, get_vlq,
                                               pair_bytes_max, put_fixed, put_vlq, read_header,
                                               unzigzag, vlq_bytes, write_header, zigzag)

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)
TOP40 = 2 ** 40 - 1  # the largest vertex id at SCALE 40
MODES = [(w, v) for w in (4, 8) for v in (True, False)]


def _zz(x):
    """zigzag in Python integers: 0, -1, 1, -2, 2 -> 0, 1, 2, 3, 4."""
    return 2 * x if x >= 0 else -2 * x - 1


def _vlq_len(v):
    """Bytes of the VLQ of v >= 0: 7 bits a byte, at least one."""
    return max(1, -(-v.bit_length() // 7))


def _body_bytes(a, b, width, vlq):
    """The body's length by the format's rule (see the module docstring)."""
    if not vlq:
        return 2 * width * len(a)
    n, prev_a, prev_b = 0, 0, None
    for k, (x, y) in enumerate(zip(np.asarray(a).tolist(), np.asarray(b).tolist())):
        n += _vlq_len(_zz(x - prev_a))
        n += _vlq_len(_zz(y - prev_b) if k > 0 and x == prev_a else y)
        prev_a, prev_b = x, y
    return n


def _arrays(pairs):
    a = np.array([p[0] for p in pairs], np.int64)
    b = np.array([p[1] for p in pairs], np.int64)
    return a, b


def _round_trip(a, b, width, vlq, last):
    """Encode, check the header and the exact length, decode both ways; returns the packet."""
    p = encode_pairs(a, b, width, vlq, last)
    assert p.dtype == np.uint8
    count, flags, w = read_header(p)
    assert (count, w) == (len(a), width)
    assert flags == (FLAG_LAST if last else 0) | (FLAG_VLQ if vlq else 0)
    assert len(p) == HEADER_BYTES + _body_bytes(a, b, width, vlq)
    got_a, got_b, got_last = decode_pairs(p)
    assert np.array_equal(got_a, a) and np.array_equal(got_b, b) and got_last == last
    a_out = np.full(len(a) + 3, -7, np.int64)
    b_out = np.full(len(a) + 3, -7, np.int64)
    assert decode_into(p, a_out, b_out) == len(a)
    assert np.array_equal(a_out[:len(a)], a) and np.array_equal(b_out[:len(a)], b)
    assert (a_out[len(a):] == -7).all()  # nothing written past the count
    return p


def _value(top):
    return st.one_of(st.integers(0, 300), st.integers(0, top))


@st.composite
def packets(draw):
    """(a, b, width, vlq, last) within what the format carries, sorted (a, b) or not; values
    mix small numbers and the whole range, and a often repeats (runs of b deltas, ascending
    when sorted, either way when not)."""
    width, vlq = draw(st.sampled_from(MODES))
    top = 2 ** 32 - 1 if (width == 4 and not vlq) else VALUE_LIMIT - 1
    a_value = st.one_of(st.integers(0, 3), _value(top))
    pairs = draw(st.lists(st.tuples(a_value, _value(top)), max_size=60))
    if draw(st.booleans()):
        pairs.sort()
    a, b = _arrays(pairs)
    return a, b, width, vlq, draw(st.booleans())


@SETTINGS
@given(packets())
def test_round_trip(case):
    _round_trip(*case)


@pytest.mark.parametrize("width,vlq", MODES)
@pytest.mark.parametrize("last", [True, False])
def test_empty_and_one_pair(width, vlq, last):
    empty = np.zeros(0, np.int64)
    p = _round_trip(empty, empty, width, vlq, last)
    assert len(p) == HEADER_BYTES and p[:4].tolist() == [0, 0, 0, 0] and p[6:].tolist() == [0, 0]
    p = _round_trip(np.array([7]), np.array([9]), width, vlq, last)
    assert len(p) == HEADER_BYTES + (2 if vlq else 2 * width)  # VLQ: zigzag 7, then b = 9


@pytest.mark.parametrize("width", [4, 8])
def test_maximal_deltas(width):
    """a jumps 0 -> 2**40 - 1 -> 0 (zigzag 2**41 - 2 and 2**41 - 3: 6 VLQ bytes each); the
    b are plain (a changes) but the last, a delta +1 (zigzag 2). Within one a, b jumps the same
    way, and 0 -> 2**62 - 1 -> 0 (zigzag 2**63 - 2 and 2**63 - 3: 9 bytes each); a jumps
    2**62 - 1 -> 0 the same. The width does not matter in VLQ mode."""
    a = np.array([0, TOP40, 0, TOP40, TOP40], np.int64)
    b = np.array([1, 2, 3, 4, 5], np.int64)
    p = _round_trip(a, b, width, True, True)
    assert len(p) == HEADER_BYTES + (1 + 6 + 6 + 6 + 1) + (1 + 1 + 1 + 1 + 1)
    top = VALUE_LIMIT - 1
    a = np.array([5, 5, 5, 5, 5], np.int64)
    b = np.array([0, TOP40, 0, top, 0], np.int64)
    p = _round_trip(a, b, width, True, True)
    assert len(p) == HEADER_BYTES + 5 * 1 + (1 + 6 + 6 + 9 + 9)
    p = _round_trip(np.array([top, 0, top]), np.array([top, top, top]), width, True, False)
    assert len(p) == HEADER_BYTES + (9 + 9) + (9 + 9) + (9 + 9)  # every b plain: a changes


def test_scale40_ids():
    """SCALE-40 ids in a and b, plain and as b deltas within one a, raw at width 8 and VLQ at
    either width (VLQ values are not limited by the width)."""
    a = np.array([TOP40, 0, TOP40, TOP40, TOP40])
    b = np.array([TOP40, TOP40, 0, TOP40, 0])
    for width, vlq in [(8, False), (8, True), (4, True)]:
        _round_trip(a, b, width, vlq, False)
    top = VALUE_LIMIT - 1
    for width in (4, 8):
        _round_trip(np.array([top, 0, top, top]), np.array([top, top, 0, top]), width, True, True)


def test_width4_limits():
    """Raw width 4 carries a and b below 2**32; in VLQ mode width 4 limits neither."""
    edge = 2 ** 32 - 1
    _round_trip(np.array([edge, 0]), np.array([edge, edge]), 4, False, True)
    _round_trip(np.array([TOP40, 2 ** 32, 2 ** 32]), np.array([edge, 2 ** 32, TOP40]), 4, True,
                True)
    for a, b in [(1, 2 ** 32), (2 ** 32, 1)]:
        with pytest.raises(ValueError):
            encode_pairs(np.array([a]), np.array([b]), 4, False, False)
        assert append_pair(np.zeros(64, np.uint8), 8, 0, -1, a, b, 4, False) == ERR_VALUE
    buf = np.zeros(64, np.uint8)
    end = append_pair(buf, 8, 0, -1, 2 ** 32, 2 ** 32, 4, True)  # zigzag 2**33, plain 2**32
    assert end == 8 + 5 + 5 and not buf[:8].any() and not buf[end:].any()
    assert buf[8:end].tolist() == [0x80, 0x80, 0x80, 0x80, 0x20, 0x80, 0x80, 0x80, 0x80, 0x10]
    end = append_pair(buf, end, 2 ** 32, 2 ** 32, 2 ** 32, 2 ** 32 + 1, 4, True)  # 0, zz(1)
    assert end == 8 + 10 + 2 and buf[18:20].tolist() == [0, 2] and not buf[end:].any()


@pytest.mark.parametrize("a,b,width", [(-1, 0, 8), (0, -1, 8), (VALUE_LIMIT, 0, 8),
                                       (0, VALUE_LIMIT, 8), (-1, 0, 4), (0, VALUE_LIMIT, 4),
                                       (1, 1, 5), (1, 1, 0)])
@pytest.mark.parametrize("vlq", [True, False])
def test_values_the_format_cannot_carry(a, b, width, vlq):
    with pytest.raises(ValueError):
        encode_pairs(np.array([a]), np.array([b]), width, vlq, False)
    with pytest.raises(ValueError):  # the same value as a b delta within a repeated a
        encode_pairs(np.array([1, 1, a]), np.array([0, 2, b]), width, vlq, False)
    buf = np.zeros(64, np.uint8)
    assert append_pair(buf, 8, 0, -1, a, b, width, vlq) == ERR_VALUE
    assert append_pair(buf, 8, a, 2, a, b, width, vlq) == ERR_VALUE
    assert not buf.any()
    with pytest.raises(ValueError):
        encode_pairs(np.array([1, 2]), np.array([1]), 8, vlq, False)


def test_zigzag():
    assert [zigzag(x) for x in (0, -1, 1, -2, 2)] == [0, 1, 2, 3, 4]
    assert zigzag(2 ** 63 - 1) == 2 ** 64 - 2 and zigzag(-2 ** 63) == 2 ** 64 - 1
    # numba hands a uint64 to Python as an int; above 2**63 pass it back as np.uint64 (the
    # dispatcher tries an int64 version first once one is compiled)
    big = np.uint64(2 ** 64 - 1)
    assert unzigzag(big) == -2 ** 63 and unzigzag(big - np.uint64(1)) == 2 ** 63 - 1
    assert unzigzag(np.uint64(3)) == -2 and unzigzag(-1) == -2 ** 63  # an int64 as its bits


@SETTINGS
@given(st.integers(-2 ** 63, 2 ** 63 - 1))
def test_zigzag_round_trip(x):
    z = zigzag(x)
    assert 0 <= int(z) < 2 ** 64 and unzigzag(np.uint64(z)) == x
    assert int(z) == (2 * x if x >= 0 else -2 * x - 1)


def test_vlq_lengths():
    """k bytes hold 7k bits: 2**(7k) - 1 takes k bytes, 2**(7k) takes k + 1; 2**64 - 1 ten."""
    cases = [(0, 1), (2 ** 64 - 1, MAX_VLQ_BYTES)]
    for k in range(1, 10):
        cases += [(2 ** (7 * k) - 1, k), (2 ** (7 * k), k + 1)]
    for value, n in cases:
        buf = np.full(12, 0xEE, np.uint8)
        assert vlq_bytes(np.uint64(value)) == n
        assert put_vlq(buf, 1, np.uint64(value)) == 1 + n
        assert (buf[1:n] >= 0x80).all() and buf[n] < 0x80 and (buf[n + 1:] == 0xEE).all()
        got, pos = get_vlq(buf, 1)
        assert (int(got), pos) == (value, 1 + n)
    buf = np.zeros(4, np.uint8)
    assert put_vlq(buf, 0, 300) == 2 and buf[:2].tolist() == [0xAC, 0x02]


@SETTINGS
@given(st.integers(0, 2 ** 64 - 1), st.sampled_from([4, 8]), st.integers(0, 2 ** 32 - 1))
def test_vlq_and_fixed_round_trip(value, width, fixed):
    buf = np.zeros(MAX_VLQ_BYTES + 8, np.uint8)
    pos = put_vlq(buf, 0, np.uint64(value))
    got, end = get_vlq(buf, 0)
    assert (int(got), end) == (value, pos)
    assert put_fixed(buf, pos, fixed, width) == pos + width
    assert get_fixed(buf, pos, width) == (fixed, pos + width)
    assert get_fixed(buf, len(buf) - width + 1, width)[1] == ERR_FORMAT
    assert get_vlq(buf[:pos - 1], 0)[1] == ERR_FORMAT  # a truncated VLQ


def test_bad_vlq():
    assert get_vlq(np.full(MAX_VLQ_BYTES + 1, 0x80, np.uint8), 0)[1] == ERR_FORMAT  # too long
    over = np.array([0xFF] * 9 + [0x02], np.uint8)  # bit 64
    assert get_vlq(over, 0)[1] == ERR_FORMAT
    assert get_vlq(np.zeros(0, np.uint8), 0)[1] == ERR_FORMAT


def test_paper_example():
    """(300, 533), (301, 12), (301, 63), (303, 1222): the a are sent as deltas 300, 1, 0, 2,
    zigzagged 600, 2, 0, 4 (the paper's plain VLQ of 300 is AC 02, printed AC 01); b is plain
    533, 12 and 1222 where a changes, and zigzag(63 - 12) = 102 in the third pair, which
    repeats a = 301. 11 body bytes against the paper's 5 + 4 * 4 = 21."""
    a, b = np.array([300, 301, 301, 303]), np.array([533, 12, 63, 1222])
    p = _round_trip(a, b, 4, True, False)
    assert p[:HEADER_BYTES].tolist() == [4, 0, 0, 0, FLAG_VLQ, 4, 0, 0]
    assert p[HEADER_BYTES:].tolist() == [0xD8, 0x04, 0x95, 0x04,  # 600, 533
                                         0x02, 0x0C,              # 2, 12
                                         0x00, 0x66,              # 0, zigzag(51) = 102
                                         0x04, 0xC6, 0x09]        # 4, 1222
    pos, deltas, codes = HEADER_BYTES, [], []
    for _ in range(4):
        z, pos = get_vlq(p, pos)
        deltas.append(unzigzag(z))
        y, pos = get_vlq(p, pos)
        codes.append(int(y))
    assert deltas == [300, 1, 0, 2] and pos == len(p)
    assert codes == [533, 12, 102, 1222]
    assert [int(b_code(a[k], b[k], a[k - 1] if k else 0, b[k - 1] if k else -1))
            for k in range(4)] == codes


def test_size_on_sorted_a():
    """Strictly ascending a with gaps below 64 (each b plain): 2 bytes a pair when b < 128, 3
    when b < 2**14, against 8 raw at width 4 and 16 for the 1D engine's int64 pair."""
    rng = np.random.default_rng(5)
    n = 1000
    a = np.cumsum(rng.integers(1, 64, n))
    b = rng.integers(0, 128, n)
    for width in (4, 8):
        assert len(encode_pairs(a, b, width, True, True)) == HEADER_BYTES + 2 * n
    assert len(encode_pairs(a, b, 4, False, True)) == HEADER_BYTES + 8 * n
    assert len(encode_pairs(a, b, 8, False, True)) == HEADER_BYTES + 16 * n
    b = rng.integers(128, 2 ** 14, n)
    assert len(encode_pairs(a, b, 4, True, True)) == HEADER_BYTES + 3 * n
    b = rng.integers(0, 2 ** 32, n)  # any b: the rule's length
    assert len(encode_pairs(a, b, 4, True, True)) == HEADER_BYTES + _body_bytes(a, b, 4, True)
    # zigzag's bit on a: a gap of 64 takes 2 bytes; a plain b has no such bit: 127 takes 1
    one = [(64, 0, 3), (63, 127, 2), (63, 128, 3)]
    for x, y, size in one:
        assert len(encode_pairs(np.array([x]), np.array([y]), 4, True, True)) == (
            HEADER_BYTES + size)


def test_b_deltas_within_repeated_a():
    """A run of one a with ascending b: after the first pair each pair is a's delta 0 (00)
    and b's zigzag delta, 1 byte below 64 (127 < 128 at 63) and 2 at 64; where a changes b is
    plain again. The first pair's b is plain even when its a is a_(-1) = 0."""
    a = np.array([7, 7, 7, 7, 7, 8], np.int64)
    b = np.array([1000, 1001, 1010, 1073, 1073, 1074], np.int64)
    p = _round_trip(a, b, 4, True, True)
    assert p[HEADER_BYTES:].tolist() == [0x0E, 0xE8, 0x07,  # zigzag 7, 1000
                                         0x00, 0x02,        # 0, zigzag(1)
                                         0x00, 0x12,        # 0, zigzag(9)
                                         0x00, 0x7E,        # 0, zigzag(63) = 126
                                         0x00, 0x00,        # 0, zigzag(0): a repeated pair
                                         0x02, 0xB2, 0x08]  # 2, plain 1074
    p = _round_trip(np.array([7, 7]), np.array([1000, 1064]), 4, True, True)
    assert p[HEADER_BYTES:].tolist() == [0x0E, 0xE8, 0x07, 0x00, 0x80, 0x01]  # zigzag 64 = 128
    p = _round_trip(np.array([0, 0]), np.array([200, 201]), 8, True, True)
    assert p[HEADER_BYTES:].tolist() == [0x00, 0xC8, 0x01, 0x00, 0x02]
    rng = np.random.default_rng(11)
    n = 500
    b = 10 ** 9 + np.cumsum(rng.integers(0, 64, n))
    a = np.full(n, TOP40, np.int64)
    p = _round_trip(a, b, 4, True, False)
    assert len(p) == HEADER_BYTES + (6 + 5) + 2 * (n - 1)  # zigzag(2**40 - 1), plain b ~ 2**30
    # the same b each under its own a are plain: 5 bytes each
    p = _round_trip(np.arange(n), b, 4, True, False)
    assert len(p) == HEADER_BYTES + (1 + 5) + (n - 1) * (1 + 5)


def test_b_descending_within_repeated_a():
    """Descending b within one a are negative deltas, zigzag odd: -1 -> 1, -63 -> 125 (1 byte),
    -936 -> 1871 (2 bytes); and the whole range down, 2**62 - 1 -> 0 (9 bytes)."""
    a = np.array([7, 7, 7, 7], np.int64)
    b = np.array([1000, 999, 936, 0], np.int64)
    p = _round_trip(a, b, 4, True, True)
    assert p[HEADER_BYTES:].tolist() == [0x0E, 0xE8, 0x07,  # zigzag 7, 1000
                                         0x00, 0x01,        # 0, zigzag(-1)
                                         0x00, 0x7D,        # 0, zigzag(-63) = 125
                                         0x00, 0xCF, 0x0E]  # 0, zigzag(-936) = 1871
    assert int(b_code(7, 999, 7, 1000)) == 1 and int(b_code(7, 0, 7, 936)) == 1871
    assert int(b_code(7, 999, 6, 1000)) == 999 and int(b_code(0, 5, 0, -1)) == 5
    top = VALUE_LIMIT - 1
    p = _round_trip(np.array([3, 3, 3]), np.array([top, 0, top]), 8, True, False)
    assert len(p) == HEADER_BYTES + (1 + 9) + (1 + 9) + (1 + 9)
    rng = np.random.default_rng(12)
    for width in (4, 8):
        b = rng.integers(0, 2 ** 40, 300)
        a = np.sort(rng.integers(0, 20, 300))  # long runs, b in no order
        _round_trip(a, b, width, True, True)
        _round_trip(a, np.sort(b)[::-1].copy(), width, True, False)


@njit
def _send(a, b, width, vlq, cap, out, ends):
    """A sender as a kernel would be: pairs appended to a packet buffer of ``cap`` bytes that is
    flushed (header written, copied to ``out``) before a pair could overflow it; the last
    packet carries FLAG_LAST. Returns (bytes in out, packets)."""
    buf = np.empty(cap, np.uint8)
    flags = FLAG_VLQ if vlq else 0
    room = pair_bytes_max(width, vlq)
    used = 0
    npk = 0
    pos = HEADER_BYTES
    prev = np.int64(0)
    prev_b = np.int64(-1)
    count = 0
    for k in range(len(a)):
        if pos + room > cap:
            write_header(buf, count, flags, width)
            out[used:used + pos] = buf[:pos]
            used += pos
            ends[npk] = used
            npk += 1
            pos = HEADER_BYTES
            prev = np.int64(0)  # a packet decodes on its own: the delta chains restart
            prev_b = np.int64(-1)
            count = 0
        pos = append_pair(buf, pos, prev, prev_b, a[k], b[k], width, vlq)
        if pos < 0:
            return pos, npk
        prev = np.int64(a[k])
        prev_b = np.int64(b[k])
        count += 1
    write_header(buf, count, flags | FLAG_LAST, width)
    out[used:used + pos] = buf[:pos]
    used += pos
    ends[npk] = used
    return used, npk + 1


@SETTINGS
@given(packets(), st.integers(0, 40))
def test_append_pair_kernel(case, extra):
    """One big packet is byte for byte ``encode_pairs``; small packets each decode on their
    own, only the last has FLAG_LAST, and ``decode_at`` walks them end to end."""
    a, b, width, vlq, _ = case
    n = len(a)
    room = pair_bytes_max(width, vlq)
    out = np.zeros(HEADER_BYTES + n * room + HEADER_BYTES * (n + 1), np.uint8)
    ends = np.zeros(n + 1, np.int64)
    used, npk = _send(a, b, width, vlq, HEADER_BYTES + n * room, out, ends)
    assert npk == 1 and np.array_equal(out[:used], encode_pairs(a, b, width, vlq, True))
    used, npk = _send(a, b, width, vlq, HEADER_BYTES + room + extra, out, ends)
    assert used > 0
    got_a, got_b, start = [], [], 0
    for i, end in enumerate(ends[:npk]):
        pa, pb, last = decode_pairs(out[start:end])
        assert last == (i == npk - 1) and (len(pa) > 0 or n == 0)
        assert len(out[start:end]) <= HEADER_BYTES + room + extra
        got_a.append(pa)
        got_b.append(pb)
        start = end
    assert np.array_equal(np.concatenate(got_a), a) and np.array_equal(np.concatenate(got_b), b)
    a_out, b_out = np.empty(n, np.int64), np.empty(n, np.int64)
    start, total = 0, 0
    while start < used:
        count, start = decode_at(out[:used], start, a_out[total:], b_out[total:])
        assert count >= 0
        total += count
    assert total == n and np.array_equal(a_out, a) and np.array_equal(b_out, b)


@pytest.mark.parametrize("width,vlq", MODES)
def test_append_pair_room(width, vlq):
    """A pair that fits exactly is written; one byte less is ERR_ROOM and nothing written.
    Cases (prev_a, prev_b, a, b): first pairs, a changing, and b deltas within a repeated a
    (small, descending, maximal)."""
    top = VALUE_LIMIT - 1
    cases = [(0, -1, 5, 77), (0, -1, TOP40, 77), (0, -1, 0, TOP40), (TOP40, 5, 0, 77),
             (5, 100, 5, 77), (5, 0, 5, TOP40), (TOP40, TOP40, TOP40, 0), (9, 0, 9, top),
             (9, top, 9, 0), (top, 3, 0, top)]
    for prev_a, prev_b, a, b in cases:
        if width == 4 and not vlq and max(a, b) >= 2 ** 32:
            continue
        if vlq:
            code = _zz(b - prev_b) if prev_b >= 0 and a == prev_a else b
            size = 8 + _vlq_len(_zz(a - prev_a)) + _vlq_len(code)
        else:
            size = 8 + 2 * width
        buf = np.zeros(size, np.uint8)
        assert append_pair(buf, 8, prev_a, prev_b, a, b, width, vlq) == size
        if vlq:
            z, pos = get_vlq(buf, 8)
            y, pos = get_vlq(buf, pos)
            assert unzigzag(z) == a - prev_a and int(y) == code and pos == size
        small = np.zeros(size - 1, np.uint8)
        assert (append_pair(small, 8, prev_a, prev_b, a, b, width, vlq) == ERR_ROOM
                and not small.any())


def _sample_packets():
    """7 pairs: b deltas up then down within a = 3, then a changing both ways."""
    a = np.array([3, 3, 3, 900, 2, 2 ** 32 - 1, 0], np.int64)
    b = np.array([1, 2 ** 31, 5, 5, 0, 7, 2 ** 32 - 1], np.int64)
    return [encode_pairs(a, b, w, v, True) for w, v in MODES]


@pytest.mark.parametrize("mode", range(len(MODES)))
def test_truncated_packet_reported(mode):
    """Every prefix fails; each is a view of the whole packet, so a decoder that read past its
    end would find the real bytes there and succeed."""
    packet = _sample_packets()[mode]
    a_out, b_out = np.empty(10, np.int64), np.empty(10, np.int64)
    for n in range(len(packet)):
        assert decode_into(packet[:n], a_out, b_out) == ERR_FORMAT
        assert decode_at(packet[:n], 0, a_out, b_out) == (ERR_FORMAT, 0)
        with pytest.raises(ValueError):
            decode_pairs(packet[:n])
    longer = np.concatenate([packet, [0]]).astype(np.uint8)
    assert decode_into(longer, a_out, b_out) == ERR_FORMAT  # one packet, nothing after it
    assert decode_at(longer, 0, a_out, b_out) == (7, len(packet))
    assert decode_into(packet, a_out[:6], b_out) == ERR_ROOM
    ro = np.frombuffer(packet.tobytes(), np.uint8)  # a read-only receive buffer
    assert decode_into(ro, a_out, b_out) == 7 and decode_pairs(ro)[2]


def test_corrupted_header_and_values():
    good = encode_pairs(np.array([5, 9]), np.array([1, 2]), 8, True, False)
    a_out, b_out = np.empty(4, np.int64), np.empty(4, np.int64)
    for at, byte in [(5, 5), (5, 0), (4, 4), (4, 0x80), (6, 1), (7, 1)]:
        bad = good.copy()
        bad[at] = byte
        assert read_header(bad)[0] == ERR_FORMAT
        assert decode_into(bad, a_out, b_out) == ERR_FORMAT
        with pytest.raises(ValueError):
            decode_pairs(bad)
    huge = good.copy()
    huge[:4] = 0xFF  # count 2**32 - 1: refused before any allocation
    assert decode_into(huge, a_out, b_out) == ERR_FORMAT
    with pytest.raises(ValueError):
        decode_pairs(huge)
    assert read_header(good[:HEADER_BYTES - 1])[0] == ERR_FORMAT
    negative = np.zeros(HEADER_BYTES + 2, np.uint8)  # first delta zigzag 1: a = -1, b = 0
    write_header(negative, 1, FLAG_VLQ, 8)
    negative[HEADER_BYTES] = 1
    assert decode_into(negative, a_out, b_out) == ERR_FORMAT
    negative[HEADER_BYTES] = 2  # a = 1: the same bytes are fine
    assert decode_into(negative, a_out, b_out) == 1 and (a_out[0], b_out[0]) == (1, 0)
    top = VALUE_LIMIT - 1
    # VLQ b out of range: plain 2**62; a delta below 0 (3 + zigzag 7 = -4) or to 2**62
    # (2**62 - 1 + 1), or past int64 (2**62 - 1 + 2**63 - 1, zigzag 2**64 - 2)
    for first_b, code in [(None, VALUE_LIMIT), (3, 7), (top, 2), (top, 2 ** 64 - 2)]:
        buf = np.zeros(HEADER_BYTES + 4 * MAX_VLQ_BYTES, np.uint8)
        pos = HEADER_BYTES
        if first_b is not None:
            pos = put_vlq(buf, put_vlq(buf, pos, 10), np.uint64(first_b))  # (5, first_b)
        pos = put_vlq(buf, put_vlq(buf, pos, 10 if first_b is None else 0), np.uint64(code))
        bad = buf[:pos]
        write_header(bad, 1 if first_b is None else 2, FLAG_VLQ, 8)
        assert decode_into(bad, a_out, b_out) == ERR_FORMAT
        with pytest.raises(ValueError):
            decode_pairs(bad)
    wide_b = np.zeros(HEADER_BYTES + 16, np.uint8)  # raw b with bit 63 set
    write_header(wide_b, 1, 0, 8)
    wide_b[-1] = 0x80
    assert decode_into(wide_b, a_out, b_out) == ERR_FORMAT


@SETTINGS
@given(st.data())
def test_corrupted_bytes_never_crash(data):
    """Random bytes over a valid packet: a count with values in range, ERR_FORMAT, or ERR_ROOM
    (a count above 8)."""
    packet = data.draw(st.sampled_from(_sample_packets())).copy()
    for _ in range(data.draw(st.integers(1, 4))):
        packet[data.draw(st.integers(0, len(packet) - 1))] = data.draw(st.integers(0, 255))
    a_out, b_out = np.empty(8, np.int64), np.empty(8, np.int64)
    got = decode_into(packet, a_out, b_out)
    assert got in (ERR_FORMAT, ERR_ROOM) or (0 <= got <= 8 and (a_out[:got] >= 0).all()
                                 and (b_out[:got] >= 0).all())
