"""Compiled kernels for text files: a parser of edge-list columns (blank-separated as in
SNAP, or comma/tab-separated as in CSV) and an integer formatter (text edge lists, CSV search tables). Python never loops over lines or
edges; it only hands over byte chunks.

The parser reads ``buf[start:end]`` (whole lines) and writes edges from position ``pos`` of
``src``/``dst`` (and ``weight`` when it has room). It stops at the first error and returns
where, so the caller can name the line, the byte offset and the offending token.
"""
from __future__ import annotations

import numpy as np
from numba import njit

# Status codes of parse_lines.
OK = 0
BAD_INT = 1        # a vertex id that is not a non-negative integer
NEGATIVE = 2       # a vertex id with a minus sign
ONE_COLUMN = 3     # a data line with fewer than two columns
COLUMNS = 4        # a line whose column count (2, or 3 and more) differs from the first one
TOO_LARGE = 5      # a vertex id >= the vertex count the caller gave
OVERFLOW = 6       # a vertex id beyond int64
SLOW_FULL = 7      # the list of weights left for Python is full: call again from ``i``
BAD_WEIGHT = 8     # (``wcheck``) a weight that is negative or overflows float32

# What a column holds (parse_lines' ``roles``).
SOURCE = 0
TARGET = 1
WEIGHT = 2
IGNORED = -1

STATUS_NAMES = {BAD_INT: "not an integer vertex id", NEGATIVE: "negative vertex id",
                ONE_COLUMN: "expected two columns (source target [weight])",
                COLUMNS: "column count differs from the first data line",
                TOO_LARGE: "vertex id out of range", OVERFLOW: "vertex id larger than 2**63-1",
                BAD_WEIGHT: "weight negative or beyond float32"}

POW10 = np.array([10.0 ** k for k in range(23)])
# float32's largest finite value plus half its last step: the least float64 rounding to inf
F32_ROUNDS_TO_INF = float(np.finfo(np.float32).max) + 2.0 ** 103
_TWO53 = 1 << 53
_I64MAX = (1 << 63) - 1


@njit(inline="always")
def _is_blank(c):
    return c == 32 or c == 9 or c == 13 or c == 11 or c == 12


@njit(inline="always")
def _exponent(buf, i, e):
    """(ok, exponent) of the rest ``buf[i:e]`` of a decimal: empty (0), or ``e``/``E``, an
    optional sign and digits; not ok for anything else or an exponent beyond 1000."""
    exp = 0
    if i < e and (buf[i] == 101 or buf[i] == 69):
        i += 1
        eneg = False
        if i < e and (buf[i] == 45 or buf[i] == 43):
            eneg = buf[i] == 45
            i += 1
        if i >= e:
            return False, 0
        while i < e and 48 <= buf[i] <= 57:
            if exp > 1000:
                return False, 0
            exp = exp * 10 + (buf[i] - 48)
            i += 1
        if eneg:
            exp = -exp
    return i == e, exp


@njit(cache=True)
def _fast_float(buf, b, e, pow10):
    """(ok, value) for a decimal like -12.5e3 whose digits fit in 2**53 and whose power of
    ten is within 10**+-22 (Clinger's fast path: one correctly rounded operation); ok is
    False for anything else (nan, inf, hex, long mantissas), which Python's float() gets."""
    i = b
    neg = False
    if i < e and (buf[i] == 45 or buf[i] == 43):
        neg = buf[i] == 45
        i += 1
    mant = 0
    ndig = 0
    frac = 0
    seen = False
    while i < e and 48 <= buf[i] <= 57:
        if mant > 900719925474099:  # more digits could exceed 2**53
            return False, 0.0
        mant = mant * 10 + (buf[i] - 48)
        i += 1
        seen = True
    if i < e and buf[i] == 46:
        i += 1
        while i < e and 48 <= buf[i] <= 57:
            if mant > 900719925474099:
                return False, 0.0
            mant = mant * 10 + (buf[i] - 48)
            frac += 1
            i += 1
            seen = True
    if not seen:
        return False, 0.0
    ok, exp = _exponent(buf, i, e)
    if not ok:
        return False, 0.0
    ndig = exp - frac
    if mant > _TWO53 or ndig > 22 or ndig < -22:
        return False, 0.0
    v = float(mant)
    if ndig >= 0:
        v = v * pow10[ndig]
    else:
        v = v / pow10[-ndig]
    return True, -v if neg else v


@njit(cache=True)
def _float32_weight(buf, b, e, pow10):
    """(ok, value) for a decimal the fast path left, when only its float32 rounding is kept:
    18 significant digits and at most three scalings by exact powers of ten put ``value``
    within 6e-16 (relative) of the decimal, so when no float32 tie lies within 4e-15 of it,
    ``float32(value)`` is ``float32(float(token))``; ok is False otherwise (Python decides)."""
    i = b
    neg = False
    if i < e and (buf[i] == 45 or buf[i] == 43):
        neg = buf[i] == 45
        i += 1
    mant = 0
    kept = 0
    adj = 0          # the decimal exponent of the last kept digit, before the exponent part
    seen = False
    dot = False
    while i < e:
        c = buf[i]
        if c == 46 and not dot:
            dot = True
            i += 1
            continue
        if not 48 <= c <= 57:
            break
        seen = True
        if mant == 0 and c == 48:
            if dot:
                adj -= 1
        elif kept < 18:
            mant = mant * 10 + (c - 48)
            kept += 1
            if dot:
                adj -= 1
        elif not dot:
            adj += 1  # a dropped integer digit
        i += 1
    if not seen:
        return False, 0.0
    ok, exp = _exponent(buf, i, e)
    if not ok:
        return False, 0.0
    if mant == 0:
        return True, -0.0 if neg else 0.0
    k = exp + adj
    if k > 44 or k < -66:
        return False, 0.0
    v = float(mant)
    while k > 22:
        v *= pow10[22]
        k -= 22
    while k < -22:
        v /= pow10[22]
        k += 22
    v = v * pow10[k] if k >= 0 else v / pow10[-k]
    if np.float32(v * (1.0 - 4e-15)) != np.float32(v * (1.0 + 4e-15)):
        return False, 0.0  # a float32 tie (or the overflow edge) is near: Python decides
    return True, -v if neg else v


@njit(cache=True)
def parse_lines(buf, span, out, cursor, layout, slow, wcheck, pow10):
    """Parse the lines of ``buf[start:end]`` (``span`` = (start, end)) into ``out`` = (src,
    dst, weight) from edge ``pos`` on, ``cursor`` = (pos, lines begun before). ``layout`` =
    (ncols, limit, sep, roles, width); ``slow`` = (slow_edge, slow_beg, slow_end, slow_line);
    ``pow10``: ``POW10``.

    Lines whose first non-blank byte is ``#`` or ``%`` are comments; blank lines are skipped.
    ``sep`` 10 (SNAP): columns are separated by blanks; another byte (CSV's comma or tab):
    by that byte, blanks around it dropped and empty fields kept. ``roles[j]`` says what
    column ``j`` holds (SOURCE, TARGET, WEIGHT; IGNORED, as every column past ``roles``).
    ``width`` 0 (SNAP): a data line has two columns, or three and more (its first data line
    decides, ``ncols``); else exactly ``width``. ``ncols`` is 3 when a weight is kept, in
    ``weight[pos]``. ``limit`` >= 0 bounds the ids (``id < limit``).
    A weight outside the fast path is left for Python: its edge index, byte span and line go
    to the ``slow_*`` arrays and ``weight`` gets NaN until then. ``wcheck`` (kernel 3's
    weights, ``weight`` float32): a negative weight or one beyond float32 stops the parse
    (BAD_WEIGHT), and -0.0 is stored as 0.0.

    Returns (status, i, pos, line, nslow, tok_beg, tok_end, extra): ``i`` is where parsing
    stopped, ``line`` the number of lines begun so far (1-based line of an error), and
    ``extra`` the column count of a COLUMNS error.
    """
    start, end = span
    src, dst, weight = out
    pos, line = cursor
    ncols, limit, sep, roles, width = layout
    slow_edge, slow_beg, slow_end, slow_line = slow
    i = start
    nslow = 0
    cap = slow_edge.shape[0]
    nroles = roles.shape[0]
    while i < end:
        if nslow == cap:
            return SLOW_FULL, i, pos, line, nslow, 0, 0, 0
        line += 1
        while i < end and _is_blank(buf[i]) and buf[i] != sep:  # a tab may be ``sep``
            i += 1
        if i >= end:
            break
        c = buf[i]
        if c == 10:
            i += 1
            continue
        if c == 35 or c == 37:
            while i < end and buf[i] != 10:
                i += 1
            i += 1
            continue
        col = 0
        u = 0
        v = 0
        while True:
            b = i
            if sep == 10:
                while i < end and buf[i] != 10 and not _is_blank(buf[i]):
                    i += 1
                e = i
            else:  # a field runs to the separator; blanks before it are not its own
                while i < end and buf[i] != 10 and buf[i] != sep:
                    i += 1
                e = i
                while e > b and _is_blank(buf[e - 1]):
                    e -= 1
            role = roles[col] if col < nroles else IGNORED
            if role == SOURCE or role == TARGET:
                if e == b:
                    return BAD_INT, i, pos, line, nslow, b, e, 0
                k = b
                if buf[k] == 43 and e - b > 1:
                    k += 1
                if buf[k] == 45 and e - b > 1:
                    ok = True
                    for t in range(k + 1, e):
                        if not 48 <= buf[t] <= 57:
                            ok = False
                    return (NEGATIVE if ok else BAD_INT), i, pos, line, nslow, b, e, 0
                x = 0
                for t in range(k, e):
                    d = buf[t] - 48
                    if d < 0 or d > 9:
                        return BAD_INT, i, pos, line, nslow, b, e, 0
                    if x > (_I64MAX - d) // 10:
                        return OVERFLOW, i, pos, line, nslow, b, e, 0
                    x = x * 10 + d
                if limit >= 0 and x >= limit:
                    return TOO_LARGE, i, pos, line, nslow, b, e, 0
                if role == SOURCE:
                    u = x
                else:
                    v = x
            elif role == WEIGHT:
                ok, w = _fast_float(buf, b, e, pow10)
                if not ok and wcheck:  # only float32 is kept: a wider fast path
                    ok, w = _float32_weight(buf, b, e, pow10)
                if ok and wcheck:
                    if not (0.0 <= w < F32_ROUNDS_TO_INF):
                        return BAD_WEIGHT, i, pos, line, nslow, b, e, 0
                    if w == 0.0:
                        w = 0.0  # not -0.0: its sign bit would sort it above every weight
                if ok:
                    weight[pos] = w
                else:
                    weight[pos] = np.nan
                    slow_edge[nslow] = pos
                    slow_beg[nslow] = b
                    slow_end[nslow] = e
                    slow_line[nslow] = line
                    nslow += 1
            col += 1
            more = sep != 10 and i < end and buf[i] == sep  # a field follows, maybe empty
            if more:
                i += 1
            while i < end and _is_blank(buf[i]) and buf[i] != sep:
                i += 1
            if not more and (i >= end or buf[i] == 10):
                break
        if col < 2:
            return ONE_COLUMN, i, pos, line, nslow, b, e, col
        if width:
            got = col
            want = width
        else:
            got = 3 if col >= 3 else 2
            want = ncols
        if got != want:
            return COLUMNS, i, pos, line, nslow, b, e, col
        src[pos] = u
        dst[pos] = v
        pos += 1
        i += 1
    return OK, i, pos, line, nslow, 0, 0, 0


@njit(cache=True)
def count_byte(buf, value):
    n = 0
    for i in range(buf.shape[0]):
        if buf[i] == value:
            n += 1
    return n


@njit(inline="always")
def _put_int(out, w, x):
    if x < 0:
        out[w] = 45
        w += 1
        x = -x
    if x == 0:
        out[w] = 48
        return w + 1
    k = 0
    y = x
    while y > 0:
        y //= 10
        k += 1
    e = w + k
    while x > 0:
        e -= 1
        out[e] = 48 + x % 10
        x //= 10
    return w + k


@njit(cache=True)
def format_rows(cols, sep, out):
    """Write the rows of the int64 matrix ``cols`` (k x m, column-major: cols[j] is column j)
    as decimal text, ``sep`` between columns and a newline after each row; return the bytes
    written. ``out`` needs 21 bytes per value."""
    k, m = cols.shape
    w = 0
    for r in range(m):
        for j in range(k):
            if j:
                out[w] = sep
                w += 1
            w = _put_int(out, w, cols[j, r])
        out[w] = 10
        w += 1
    return w


@njit(cache=True)
def last_byte(buf, end, value):
    """Index of the last ``value`` in ``buf[:end]``, -1 when there is none."""
    for i in range(end - 1, -1, -1):
        if buf[i] == value:
            return i
    return -1
