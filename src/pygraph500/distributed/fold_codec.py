"""The packet codec of the 2D BFS fold messages (paper 001, Ueno & Suzumura, section 4.2).

A fold message is a list of pairs (a, b). The sender scans its frontier in order, so the a of
successive pairs are equal or close: each a is sent as its difference from the previous pair's
a, as a variable-length quantity (VLQ). The paper sends b (the receiver's local id) as a
fixed 4-byte integer; here b is a VLQ too, of its difference from the previous b when the pair
repeats the previous a (one a's b ascend: its neighbours in order), else of b itself (small
for busy vertices: the receiver's local ids are sorted by degree). A packet is the unit that
decodes on its own (the delta chains restart), so packets can be filled, flushed when full,
sent and decoded by different threads.

Paper 001's own body (``vlq=VLQ_FIXED_B``, header flag FLAG_FIXED_B, the 2D search's
``fold="paper"``): a as above, b in 4 fixed bytes ("the vertex v consumes 4 bytes"), so a
pair takes about 5 bytes as the paper says.

The paper's deltas are non-negative (a sorted). Here each delta is zigzag coded first
(0, -1, 1, -2, 2 -> 0, 1, 2, 3, 4) so unsorted pairs decode too, at the price of one bit:
ascending a take 1 byte per delta below 64 (the paper: below 128).

Packet format, all integers little-endian:

    header, HEADER_BYTES = 8
      bytes 0-3  count  uint32, the number of pairs
      byte  4    flags  bit 0 FLAG_LAST: the sender's last packet to this receiver this level;
                        bit 1 FLAG_VLQ: the body is compressed, else raw;
                        bit 2 FLAG_FIXED_B (with FLAG_VLQ only): b in 4 fixed bytes;
                        other bits 0
      byte  5    width  bytes of each raw field: 4 or 8
      bytes 6-7  zero
    body with FLAG_VLQ, per pair:  VLQ(zigzag(a_k - a_(k-1))) with a_(-1) = 0, then
                                   VLQ(zigzag(b_k - b_(k-1))) when k > 0 and a_k = a_(k-1),
                                   else VLQ(b_k)
    body with FLAG_VLQ and FLAG_FIXED_B: VLQ(zigzag(a_k - a_(k-1))), then b_k in 4 bytes
    body without, per pair:        a in width bytes, then b in width bytes (the 1D engine's
                                   uncompressed pair)

VLQ: 7 bits a byte, least significant group first; a byte whose top bit is 1 has another
after it; at most MAX_VLQ_BYTES = 10 bytes (a uint64). The paper's example deltas
300, 1, 0, 2 are AC 02 01 00 02 as plain VLQ (the paper prints AC 01, a typo); zigzagged
they are 600, 2, 0, 4: D8 04 02 00 04.

Values a and b are int64 in [0, 2**62); raw width 4 needs a and b below 2**32, as does b
with FLAG_FIXED_B. The functions' ``vlq`` says which body: False (0) raw, True (1) VLQ,
VLQ_FIXED_B (2) the paper's.

Errors. The functions a kernel calls per pair or per packet return codes and never raise:
ERR_FORMAT (-1, a malformed packet: shorter than its header says, a truncated or over-long
VLQ, a bad header, a decoded value outside [0, 2**62)), ERR_ROOM (-2, the output buffer is
too small; nothing is written past its end) and ERR_VALUE (-3, a value or width the format
cannot carry). ``encode_pairs`` and ``decode_pairs`` allocate their result and raise
ValueError instead (from compiled code as well). Every function here is ``@njit`` and can be
called from other kernels.
"""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["HEADER_BYTES", "FLAG_LAST", "FLAG_VLQ", "FLAG_FIXED_B", "VLQ_FIXED_B",
           "MAX_VLQ_BYTES", "ERR_FORMAT", "ERR_ROOM",
           "ERR_VALUE", "VALUE_LIMIT", "zigzag", "unzigzag", "vlq_bytes", "put_vlq", "get_vlq",
           "put_fixed", "get_fixed", "write_header", "read_header", "pair_bytes_max", "body_flags",
           "b_code", "append_pair", "encode_pairs", "decode_at", "decode_into", "decode_pairs"]

HEADER_BYTES = 8
FLAG_LAST = 1
FLAG_VLQ = 2
FLAG_FIXED_B = 4
VLQ_FIXED_B = 2  # ``vlq`` for the paper's body
FIXED_B_BYTES = 4
MAX_VLQ_BYTES = 10
ERR_FORMAT = -1
ERR_ROOM = -2
ERR_VALUE = -3
VALUE_LIMIT = 1 << 62  # a and b are below this
_WIDE4 = 1 << 32  # width 4 carries values below this

# uint64 constants, so numba never mixes signed and unsigned (which it does in float64)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U7 = np.uint64(7)
_U8 = np.uint64(8)
_LOW7 = np.uint64(0x7F)
_MORE = np.uint64(0x80)
_BYTE = np.uint64(0xFF)


@njit(cache=True)
def zigzag(x):
    """int64 -> uint64 with small magnitudes small: 0, -1, 1, -2, 2 -> 0, 1, 2, 3, 4."""
    x = np.int64(x)
    return np.uint64((x << 1) ^ (x >> 63))


@njit(cache=True)
def unzigzag(z):
    """The inverse of ``zigzag``: uint64 (an int64 is read as its bit pattern) -> int64. From
    Python pass values above 2**63 as np.uint64 (numba may pick an int64 version for an int)."""
    z = np.uint64(z)
    return np.int64(z >> _U1) ^ -np.int64(z & _U1)


@njit(cache=True)
def vlq_bytes(value):
    """Bytes the VLQ of ``value`` (taken as uint64) takes: 1 below 2**7, 2 below 2**14..."""
    v = np.uint64(value) >> _U7
    n = 1
    while v != _U0:
        v >>= _U7
        n += 1
    return n


@njit(cache=True)
def put_vlq(buf, pos, value):
    """Write ``value`` (taken as uint64) as a VLQ at ``buf[pos]``; returns the position after.
    The caller makes room (``vlq_bytes``, or ``MAX_VLQ_BYTES``): nothing is checked here."""
    v = np.uint64(value)
    while v >= _MORE:
        buf[pos] = np.uint8((v & _LOW7) | _MORE)
        v >>= _U7
        pos += 1
    buf[pos] = np.uint8(v)
    return pos + 1


@njit(cache=True)
def get_vlq(buf, pos):
    """(uint64 value, position after) of the VLQ at ``buf[pos]``; position ERR_FORMAT when it
    runs past the end of ``buf``, is longer than MAX_VLQ_BYTES or overflows 64 bits."""
    end = len(buf)
    v = _U0
    shift = _U0
    for i in range(MAX_VLQ_BYTES):
        if pos >= end:
            return _U0, ERR_FORMAT
        byte = np.uint64(buf[pos])
        pos += 1
        if i == MAX_VLQ_BYTES - 1 and byte > _U1:  # the 10th byte holds bit 63 only
            return _U0, ERR_FORMAT
        v |= (byte & _LOW7) << shift
        if byte < _MORE:
            return v, pos
        shift += _U7
    return _U0, ERR_FORMAT


@njit(cache=True)
def put_fixed(buf, pos, value, width):
    """Write the low ``width`` bytes of ``value`` little-endian at ``buf[pos]``; returns the
    position after. The caller makes room and checks that the value fits."""
    v = np.uint64(np.int64(value))
    for i in range(width):
        buf[pos + i] = np.uint8(v & _BYTE)
        v >>= _U8
    return pos + width


@njit(cache=True)
def get_fixed(buf, pos, width):
    """(int64 value, position after) of ``width`` little-endian bytes at ``buf[pos]``;
    position ERR_FORMAT when they run past the end of ``buf``."""
    if pos + width > len(buf):
        return np.int64(0), ERR_FORMAT
    v = _U0
    for i in range(width - 1, -1, -1):
        v = (v << _U8) | np.uint64(buf[pos + i])
    return np.int64(v), pos + width


@njit(cache=True)
def write_header(buf, count, flags, width):
    """Write the 8-byte header at ``buf[0]`` (pass a view to write elsewhere); the pairs
    follow at ``buf[HEADER_BYTES]``. The caller keeps ``count`` below 2**32."""
    put_fixed(buf, 0, count, 4)
    buf[4] = np.uint8(flags)
    buf[5] = np.uint8(width)
    buf[6] = np.uint8(0)
    buf[7] = np.uint8(0)


@njit(cache=True)
def read_header(buf):
    """(count, flags, width) of the header at ``buf[0]``; count ERR_FORMAT when ``buf`` is
    shorter than a header, the width is not 4 or 8, or an unused bit or byte is not 0."""
    if len(buf) < HEADER_BYTES:
        return np.int64(ERR_FORMAT), np.int64(0), np.int64(0)
    count = get_fixed(buf, 0, 4)[0]
    flags = np.int64(buf[4])
    width = np.int64(buf[5])
    if ((width != 4 and width != 8) or (flags & ~(FLAG_LAST | FLAG_VLQ | FLAG_FIXED_B)) != 0
            or (flags & (FLAG_VLQ | FLAG_FIXED_B)) == FLAG_FIXED_B
            or buf[6] != 0 or buf[7] != 0):
        return np.int64(ERR_FORMAT), flags, width
    return count, flags, width


@njit(cache=True)
def pair_bytes_max(width, vlq):
    """The most bytes one pair can take, so a sender flushes a packet before it overflows."""
    if vlq == VLQ_FIXED_B:
        return MAX_VLQ_BYTES + FIXED_B_BYTES
    return 2 * MAX_VLQ_BYTES if vlq else 2 * width


@njit(cache=True)
def body_flags(vlq):
    """The header flags of a body written with ``vlq``."""
    if vlq == VLQ_FIXED_B:
        return FLAG_VLQ | FLAG_FIXED_B
    return FLAG_VLQ if vlq else 0


@njit(cache=True)
def _fits(a, b, width, vlq):
    """Whether the format carries the pair (a, b) in fields of ``width`` bytes."""
    if a < 0 or b < 0 or a >= VALUE_LIMIT or b >= VALUE_LIMIT:
        return False
    if vlq == VLQ_FIXED_B and b >= _WIDE4:
        return False
    if width == 8:
        return True
    if width != 4:
        return False
    if vlq:
        return True
    return a < _WIDE4 and b < _WIDE4


@njit(cache=True)
def b_code(a, b, prev_a, prev_b):
    """What the VLQ body writes for b: zigzag(b - prev_b) when the pair repeats the previous
    a (``prev_b >= 0``: there is a previous pair), else b."""
    if prev_b >= 0 and a == prev_a:
        return zigzag(b - prev_b)
    return np.uint64(b)


@njit(cache=True)
def append_pair(buf, pos, prev_a, prev_b, a, b, width, vlq):
    """Write the pair (a, b) at ``buf[pos]``; ``prev_a``, ``prev_b`` are the packet's previous
    pair (0 and -1 before its first). Returns the position after, ERR_ROOM when the pair does
    not fit in ``buf`` (nothing written) or ERR_VALUE when the format cannot carry it (see
    ``_fits``)."""
    a = np.int64(a)
    b = np.int64(b)
    if not _fits(a, b, width, vlq):
        return ERR_VALUE
    if vlq == VLQ_FIXED_B:
        z = zigzag(a - np.int64(prev_a))
        if pos + vlq_bytes(z) + FIXED_B_BYTES > len(buf):
            return ERR_ROOM
        pos = put_vlq(buf, pos, z)
        return put_fixed(buf, pos, b, FIXED_B_BYTES)
    if vlq:
        z = zigzag(a - np.int64(prev_a))
        y = b_code(a, b, np.int64(prev_a), np.int64(prev_b))
        if (pos + 2 * MAX_VLQ_BYTES > len(buf)
                and pos + vlq_bytes(z) + vlq_bytes(y) > len(buf)):
            return ERR_ROOM
        pos = put_vlq(buf, pos, z)
        return put_vlq(buf, pos, y)
    else:
        if pos + 2 * width > len(buf):
            return ERR_ROOM
        pos = put_fixed(buf, pos, a, width)
    return put_fixed(buf, pos, b, width)


@njit(cache=True)
def encode_pairs(a, b, width, vlq, last):
    """One whole packet of the pairs (a[k], b[k]), exactly as long as it needs to be. Raises
    ValueError on arrays of different lengths, a bad width or a value the format cannot
    carry."""
    n = len(a)
    if len(b) != n:
        raise ValueError("fold_codec: a and b differ in length")
    if width != 4 and width != 8:
        raise ValueError("fold_codec: width must be 4 or 8")
    if n >= _WIDE4:
        raise ValueError("fold_codec: a packet holds fewer than 2**32 pairs")
    size = HEADER_BYTES
    prev = np.int64(0)
    prev_b = np.int64(-1)
    for k in range(n):
        ak = np.int64(a[k])
        bk = np.int64(b[k])
        if not _fits(ak, bk, width, vlq):
            raise ValueError("fold_codec: a value is negative, >= 2**62 or too wide for width 4")
        if vlq == VLQ_FIXED_B:
            size += vlq_bytes(zigzag(ak - prev)) + FIXED_B_BYTES
        elif vlq:
            size += vlq_bytes(zigzag(ak - prev)) + vlq_bytes(b_code(ak, bk, prev, prev_b))
        else:
            size += 2 * width
        prev = ak
        prev_b = bk
    out = np.empty(size, np.uint8)
    pos = HEADER_BYTES
    prev = np.int64(0)
    prev_b = np.int64(-1)
    for k in range(n):
        pos = append_pair(out, pos, prev, prev_b, a[k], b[k], width, vlq)
        prev = np.int64(a[k])
        prev_b = np.int64(b[k])
    write_header(out, n, (FLAG_LAST if last else 0) | body_flags(vlq), width)
    return out


@njit(cache=True)
def decode_at(buf, start, a_out, b_out):
    """Decode the packet starting at ``buf[start]`` into ``a_out[:count]``, ``b_out[:count]``
    (integer arrays, int64 to hold any value); bytes after it are left alone, so packets laid
    end to end decode one after another. Returns (count, position after the packet), or
    (ERR_FORMAT or ERR_ROOM, start). Never reads past ``len(buf)`` nor writes past the
    outputs; the flags are ``read_header(buf[start:])``."""
    if start < 0 or start > len(buf):
        return np.int64(ERR_FORMAT), start
    count, flags, width = read_header(buf[start:])
    if count < 0:
        return np.int64(ERR_FORMAT), start
    vlq = (flags & FLAG_VLQ) != 0
    fixed_b = (flags & FLAG_FIXED_B) != 0
    pos = start + HEADER_BYTES
    least = 2 if vlq else 2 * width
    if count > (len(buf) - pos) // least:  # before anything, so a huge count costs nothing
        return np.int64(ERR_FORMAT), start
    if count > len(a_out) or count > len(b_out):
        return np.int64(ERR_ROOM), start
    prev = np.int64(0)
    prev_b = np.int64(-1)
    for k in range(count):
        if vlq:
            z, pos = get_vlq(buf, pos)
            if pos < 0:
                return np.int64(ERR_FORMAT), start
            ak = prev + unzigzag(z)
            if fixed_b:
                bk, pos = get_fixed(buf, pos, FIXED_B_BYTES)
                if pos < 0:
                    return np.int64(ERR_FORMAT), start
            else:
                y, pos = get_vlq(buf, pos)
                if pos < 0:
                    return np.int64(ERR_FORMAT), start
                if k > 0 and ak == prev:
                    bk = prev_b + unzigzag(y)
                elif y >= np.uint64(VALUE_LIMIT):
                    return np.int64(ERR_FORMAT), start
                else:
                    bk = np.int64(y)
        else:
            ak, pos = get_fixed(buf, pos, width)
            if pos < 0:
                return np.int64(ERR_FORMAT), start
            bk, pos = get_fixed(buf, pos, width)
            if pos < 0:
                return np.int64(ERR_FORMAT), start
        if ak < 0 or ak >= VALUE_LIMIT or bk < 0 or bk >= VALUE_LIMIT:
            return np.int64(ERR_FORMAT), start
        a_out[k] = ak
        b_out[k] = bk
        prev = ak
        prev_b = bk
    return count, pos


@njit(cache=True)
def decode_into(packet, a_out, b_out):
    """Decode ``packet`` (exactly one packet: trailing bytes are ERR_FORMAT) into the caller's
    buffers without allocating; returns the count, ERR_FORMAT or ERR_ROOM (see
    ``decode_at``)."""
    count, end = decode_at(packet, 0, a_out, b_out)
    if count >= 0 and end != len(packet):
        return np.int64(ERR_FORMAT)
    return count


@njit(cache=True)
def decode_pairs(packet):
    """(a, b as int64 arrays, whether FLAG_LAST is set) of exactly one packet; raises
    ValueError on a malformed one."""
    count, flags, width = read_header(packet)
    if count < 0:
        raise ValueError("fold_codec: bad packet header")
    least = 2 if (flags & FLAG_VLQ) != 0 else 2 * width
    if count > (len(packet) - HEADER_BYTES) // least:
        raise ValueError("fold_codec: packet shorter than its count says")
    a = np.empty(count, np.int64)
    b = np.empty(count, np.int64)
    if decode_into(packet, a, b) < 0:
        raise ValueError("fold_codec: malformed packet (truncated, bad VLQ or trailing bytes)")
    return a, b, (flags & FLAG_LAST) != 0
