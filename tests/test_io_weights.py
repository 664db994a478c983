"""Kernel 3's weights in users' files: every weighted format round-trips float32 exactly,
formats without weights refuse ``weights=True``, and every bad weight is one InputError
naming the file and the line (or entry, or byte offset); unweighted reads are unchanged."""
import gzip
import os
import tempfile
from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pygraph500.errors import InputError
from pygraph500.graph.types import EdgeList
from pygraph500.io import (REGISTRY, GraphFile, chunked_io, read_graph, read_weights, snap_text,
                           write_graph, write_weights)

WEIGHTED = {f.name: f.suffixes[0] for f in REGISTRY.values() if f.weighted}
UNWEIGHTED = {f.name: f.suffixes[0] for f in REGISTRY.values() if not f.weighted}
F32_MAX = float(np.finfo(np.float32).max)


def weighted_graph(m=200, seed=0, directed=True, integral=False):
    rng = np.random.default_rng(seed)
    src = rng.integers(0, 50, m)
    dst = rng.integers(0, 50, m)
    w = rng.random(m).astype(np.float32) * np.float32(1000)
    if integral:
        w = np.round(w)
    else:  # the ends of the range, and values whose shortest text is long
        w[:6] = [0.0, np.float32(1e-45), F32_MAX, np.float32(0.1), np.float32(1 / 3), 16777216.0]
    return GraphFile(EdgeList(src, dst, 50, weight=w), directed=directed)


def written(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


# ---- round trips ----------------------------------------------------------------------------

@pytest.mark.parametrize("integral", [False, True], ids=["fractional", "integral"])
@pytest.mark.parametrize("directed", [True, False], ids=["directed", "undirected"])
@pytest.mark.parametrize("fmt", list(WEIGHTED))
def test_weighted_roundtrip_is_exact(tmp_path, fmt, directed, integral):
    g = weighted_graph(directed=directed, integral=integral)
    path = str(tmp_path / f"g{WEIGHTED[fmt]}")
    notes = write_graph(g, path)  # weights kept; direction noted where it is not
    assert len(notes) == (directed and not REGISTRY[fmt].directed), notes
    back = read_graph(path, weights=True, relabel=False)
    assert back.edges.weight.dtype == np.float32
    assert back.weights is back.edges.weight
    np.testing.assert_array_equal(back.edges.weight, g.edges.weight)
    if fmt == "mtx" and not directed:  # stored as (max, min), in the same order
        np.testing.assert_array_equal(back.edges.src, np.maximum(g.edges.src, g.edges.dst))
    else:
        np.testing.assert_array_equal(back.edges.src, g.edges.src)
        np.testing.assert_array_equal(back.edges.dst, g.edges.dst)


def test_snap_weights_are_short_text(tmp_path):
    g = GraphFile(EdgeList(np.array([0, 1, 2]), np.array([1, 2, 0]), 3,
                           weight=np.array([0.1, 2.5, 1e-45], np.float32)))
    path = str(tmp_path / "w.txt")
    write_graph(g, path)
    rows = [line.split() for line in open(path) if not line.startswith("#")]
    assert [r[2] for r in rows] == ["0.1", "2.5", "1e-45"]


def test_reference_weighted_vector_reads_exactly(tmp_path):
    """The reference's -DSSSP tuples (9 significant digits) read to its float32 weights."""
    path = os.path.join(os.path.dirname(__file__), "data", "graph500-reference",
                        "scale8-ef16-seed2-3.weighted.txt")
    rows = [line.split() for line in open(path) if not line.startswith("#")]
    edges = np.array([r[:2] for r in rows], dtype=np.int64)
    weights = np.array([r[2] for r in rows]).astype(np.float32)  # numpy's own parse
    g = read_graph(path, weights=True, relabel=False)
    np.testing.assert_array_equal(g.edges.src, edges[:, 0])
    np.testing.assert_array_equal(g.edges.weight, weights)
    wpath = str(tmp_path / "g.weights")
    write_weights(wpath, g.edges.weight)
    np.testing.assert_array_equal(np.fromfile(wpath, dtype="<f4"), weights)
    np.testing.assert_array_equal(read_weights(wpath, count=g.num_edges), weights)


def test_snap_weights_in_chunks_and_gzip(tmp_path, monkeypatch):
    """Tiny chunks and a tiny list of slow weights: the same float32 as Python's float()."""
    rng = np.random.default_rng(3)
    toks = [repr(float(x)) for x in rng.random(300) * 10] + ["1e-30", "123456789012345678", "7"]
    text = "".join(f"{i} {i + 1} {t}\n" for i, t in enumerate(toks))
    path = written(tmp_path, "c.txt", "# header\n" + text)
    expect = np.array([float(t) for t in toks]).astype(np.float32)
    monkeypatch.setattr(chunked_io, "CHUNK_BYTES", 64)
    monkeypatch.setattr(snap_text, "_SLOW_CAP", 3)
    np.testing.assert_array_equal(read_graph(path, weights=True).edges.weight, expect)
    gz = written(tmp_path, "c.txt.gz", gzip.compress(("# header\n" + text).encode()))
    np.testing.assert_array_equal(read_graph(gz, weights=True).edges.weight, expect)


def test_long_weights_round_like_python(tmp_path):
    """Tokens beyond the float64 fast path (17+ digits, exponents, float32 ties nearby) give
    float32(float(token)) exactly: the compiled float32 path or Python's float()."""
    rng = np.random.default_rng(11)
    xs = rng.integers(1, 0x7F7FFFFE, 600, dtype=np.int64).astype(np.uint32).view(np.float32)
    toks = [repr(float(x)) for x in xs[:200]] + ["%.17g" % float(x) for x in xs[200:400]]
    with localcontext() as ctx:
        ctx.prec = 60  # float32 ties exactly
        for x in xs[400:]:  # decimals at and just beside the tie between x and the next float32
            tie = (Decimal(float(x)) + Decimal(float(np.nextafter(x, np.float32(np.inf))))) / 2
            nudge = int(rng.integers(-1, 2)) * Decimal(10) ** -int(rng.integers(14, 30))
            toks.append(format(tie * (1 + nudge), f".{int(rng.integers(15, 30))}e"))
    digits = rng.integers(0, 10, (300, 24))
    toks += ["".join(map(str, d[:12])) + "." + "".join(map(str, d[12:])) + f"e-{k}"
             for d, k in zip(digits, rng.integers(0, 55, 300))]
    path = written(tmp_path, "long.txt", "".join(f"{i} {i + 1} {t}\n" for i, t in enumerate(toks)))
    expect = np.array([float(t) for t in toks]).astype(np.float32)
    got = read_graph(path, weights=True).edges.weight
    np.testing.assert_array_equal(got.view(np.uint32), expect.view(np.uint32))


def test_negative_zero_becomes_zero(tmp_path):
    path = written(tmp_path, "z.txt", "0 1 -0\n1 2 -0.0\n2 3 -0e400\n")
    w = read_graph(path, weights=True).edges.weight
    assert not np.signbit(w).any() and not w.any()


# ---- unweighted reads are unchanged ---------------------------------------------------------

def test_weights_false_ignores_the_third_column(tmp_path):
    path = written(tmp_path, "u.txt", "0 1 -2.5\n1 2 1e50 extra\n")
    g = read_graph(path)
    assert g.edges.weight is None
    np.testing.assert_array_equal(g.weights, [-2.5, 1e50])  # float64, as the file holds them
    assert g.weights.dtype == np.float64
    two = written(tmp_path, "two.txt", "0 1\n1 2\n")
    assert read_graph(two).edges.weight is None and read_graph(two).weights is None


def test_extra_columns_are_ignored(tmp_path):
    path = written(tmp_path, "x.txt", "0 1 2.5 9 9\n1 2\t4\tnote\n")
    np.testing.assert_array_equal(read_graph(path, weights=True).edges.weight, [2.5, 4])


# ---- bad weights: one InputError naming file and line -------------------------------------

@pytest.mark.parametrize("body,match", [
    ("0 1 0.5\n1 2\n", r"e\.txt:2 .*no weight \(third column\)"),
    ("0 1\n1 2 0.5\n", r"e\.txt:1 .*no weight"),
    ("0 1 0.5\n1 2 abc\n", r"e\.txt:2 .*weight is not a number: 'abc'"),
    ("0 1 0.5\n1 2 -1\n", r"e\.txt:2 .*negative weight -1\.0"),
    ("0 1 0.5\n1 2 -1e30\n", r"e\.txt:2 .*negative weight"),
    ("0 1 0.5\n\n1 2 nan\n", r"e\.txt:3 .*weight is not a number"),
    ("0 1 0.5\n1 2 1e50\n", r"e\.txt:2 .*weight 1e\+50 overflows float32"),
    ("0 1 3.5e38\n", r"e\.txt:1 .*overflows float32"),
    ("0 1 inf\n", r"e\.txt:1 .*not a finite number"),
    ("# c\n0 1 -" + "0" * 80 + "1\n", r"e\.txt:2 .*negative weight"),
])
def test_bad_text_weights_name_the_line(tmp_path, body, match):
    path = written(tmp_path, "e.txt", body)
    with pytest.raises(InputError, match=match):
        read_graph(path, weights=True)


def test_largest_float32_is_accepted(tmp_path):
    path = written(tmp_path, "big.txt", f"0 1 {F32_MAX!r}\n1 2 3.4028235e38\n")
    np.testing.assert_array_equal(read_graph(path, weights=True).edges.weight, [F32_MAX, F32_MAX])


def test_matrix_market_weights(tmp_path):
    sym = written(tmp_path, "s.mtx", "%%MatrixMarket matrix coordinate real symmetric\n"
                                     "3 3 3\n2 1 1.5\n3 3 2\n3 2 0.25\n")
    g = read_graph(sym, weights=True)
    np.testing.assert_array_equal(g.edges.weight, [1.5, 2, 0.25])
    from pygraph500.graph import build_csr

    csr = build_csr(g.edges)  # the one stored entry stands for both directions
    a = csr.to_scipy(weighted=True).toarray()
    assert a[1, 0] == a[0, 1] == 1.5 and a[2, 1] == a[1, 2] == 0.25
    ints = written(tmp_path, "i.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 7\n")
    np.testing.assert_array_equal(read_graph(ints, weights=True).edges.weight, [7])
    pattern = written(tmp_path, "p.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n")
    with pytest.raises(InputError, match=r"p\.mtx: a pattern Matrix Market file has no weights; .*--unit-weights"):
        read_graph(pattern, weights=True)
    assert read_graph(pattern).edges.weight is None
    for value, match in (("-1", "negative weight"), ("nan", "NaN"), ("1e50", "overflows float32")):
        bad = written(tmp_path, "b.mtx", f"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n3 1 {value}\n")
        with pytest.raises(InputError, match=rf"b\.mtx: entry \(3, 1\): .*{match}"):
            read_graph(bad, weights=True)


def test_npz_weights(tmp_path):
    path = str(tmp_path / "w.npz")
    np.savez(path, src=np.array([0, 1, 2]), dst=np.array([1, 2, 0]), weights=np.array([1, 2, 3]))
    np.testing.assert_array_equal(read_graph(path, weights=True).edges.weight, [1, 2, 3])
    np.savez(path, src=np.array([0, 1]), dst=np.array([1, 2]))
    with pytest.raises(InputError, match=r"w\.npz: no 'weight' array"):
        read_graph(path, weights=True)
    np.savez(path, src=np.array([0, 1]), dst=np.array([1, 2]), weight=np.array([1.0]))
    with pytest.raises(InputError, match="one per edge"):
        read_graph(path, weights=True)
    np.savez(path, src=np.array([0, 1, 2]), dst=np.array([1, 2, 0]), weight=np.array([1.0, 2, -3]))
    with pytest.raises(InputError, match=r"w\.npz: weight\[2\]: negative weight -3\.0"):
        read_graph(path, weights=True)
    np.savez(path, src=np.array([0]), dst=np.array([1]), weight=np.array([1 + 2j]))
    with pytest.raises(InputError, match="real numbers"):
        read_graph(path, weights=True)


@pytest.mark.parametrize("fmt", list(UNWEIGHTED))
def test_formats_without_weights_refuse_them(tmp_path, fmt):
    g = weighted_graph(m=20)
    path = str(tmp_path / f"g{UNWEIGHTED[fmt]}")
    notes = write_graph(g, path)
    assert any("weights dropped" in n for n in notes)  # written without them, and said so
    with pytest.raises(InputError, match=rf"g\{UNWEIGHTED[fmt]}: the {fmt} format has no weights; .*--unit-weights"):
        read_graph(path, weights=True)
    assert read_graph(path).edges.weight is None


# ---- separate weight files ------------------------------------------------------------------

def test_weight_file_roundtrip_and_layout(tmp_path):
    w = np.array([0.5, 0, -0.0, 1e-45, F32_MAX, 3], dtype=np.float32)
    path = str(tmp_path / "g.weights")
    write_weights(path, w)
    assert os.path.getsize(path) == 4 * w.size
    np.testing.assert_array_equal(np.fromfile(path, dtype="<f4"), w)
    back = read_weights(path, count=w.size)
    assert back.dtype == np.float32 and not np.signbit(back).any()
    np.testing.assert_array_equal(back, w)
    write_weights(path, [1, 2.5])  # any real numbers; float64 rounded to float32
    np.testing.assert_array_equal(read_weights(path), [1, 2.5])


def test_weight_file_errors(tmp_path):
    path = tmp_path / "w.bin"
    path.write_bytes(b"\x00" * 10)
    with pytest.raises(InputError, match=r"w\.bin: 10 bytes is not a whole number of float32"):
        read_weights(str(path))
    np.array([1, 2, 3], dtype="<f4").tofile(path)
    with pytest.raises(InputError, match=r"w\.bin: holds 3 weights, but the graph has 4 edge tuples"):
        read_weights(str(path), count=4)
    for value, match in ((-2.0, "negative weight -2.0"), (np.nan, "NaN"), (np.inf, "not a finite")):
        np.array([1, 2, value], dtype="<f4").tofile(path)
        with pytest.raises(InputError, match=rf"w\.bin: weight 2 \(byte offset 8\): .*{match}"):
            read_weights(str(path))
    with pytest.raises(InputError, match="cannot read"):
        read_weights(str(tmp_path / "missing.weights"))


def test_failed_weight_write_leaves_nothing(tmp_path):
    for bad, match in (([1.0, -1.0], r"weight 1: negative"), ([1e50], "overflows float32"),
                       ([[1.0]], "1-D")):
        with pytest.raises(InputError, match=match):
            write_weights(str(tmp_path / "w.weights"), np.array(bad))
    assert os.listdir(tmp_path) == []


# ---- property: any float32 weights round-trip every weighted format -------------------------

weights_st = st.lists(st.floats(min_value=0, max_value=F32_MAX, width=32, allow_nan=False,
                                allow_infinity=False), min_size=1, max_size=40)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(w=weights_st, directed=st.booleans(), data=st.data())
def test_weights_roundtrip_property(w, directed, data):
    w = np.abs(np.array(w, dtype=np.float32))  # -0.0 reads back as 0.0
    m = w.size
    src = np.array(data.draw(st.lists(st.integers(0, 9), min_size=m, max_size=m)), dtype=np.int64)
    dst = np.array(data.draw(st.lists(st.integers(0, 9), min_size=m, max_size=m)), dtype=np.int64)
    g = GraphFile(EdgeList(src, dst, 10, weight=w), directed=directed)
    with tempfile.TemporaryDirectory() as d:
        for fmt, suffix in WEIGHTED.items():
            path = os.path.join(d, f"g{suffix}")
            write_graph(g, path)
            np.testing.assert_array_equal(read_graph(path, weights=True, relabel=False).edges.weight, w)
        path = os.path.join(d, "g.weights")
        write_weights(path, w)
        np.testing.assert_array_equal(read_weights(path, count=m), w)
