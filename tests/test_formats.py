"""Users' graph files: every format round-trips, ids come back as the user wrote them, large
files are read in chunks, and every kind of bad input is one InputError naming file, line
(or byte offset) and value, exit status 2 and no output file."""
import gzip
import os
import random

import networkx as nx
import numpy as np
import pytest

from pygraph500 import cli
from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph.types import EdgeList
from pygraph500.io import REGISTRY, GraphFile, chunks, read_graph, snap_text, write_graph
from pygraph500.io.registry import formats_table

SUFFIX = {f.name: f.suffixes[0] for f in REGISTRY.values()}
# Matrix Market stores an undirected graph's entries as (max, min): the others keep (v0, v1)
ORIENTED = [name for name in REGISTRY if name != "mtx"]
README = os.path.join(os.path.dirname(__file__), "..", "README.md")


def user_pairs(g: GraphFile, undirected=True):
    """The edge tuples in the user's ids, as a sorted (M, 2) array (orientation dropped)."""
    s = g.user_ids(g.edges.src)
    d = g.user_ids(g.edges.dst)
    if undirected:
        s, d = np.minimum(s, d), np.maximum(s, d)
    pairs = np.column_stack([s, d])
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def graph_of(src, dst, n=None, weights=None, directed=False):
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    n = int(max(src.max(), dst.max())) + 1 if n is None else n
    return GraphFile(EdgeList(src, dst, n), None,
                     None if weights is None else np.asarray(weights, float), directed)


# ---- round trips ----------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", list(SUFFIX))
def test_roundtrip_every_format_kronecker(tmp_path, fmt):
    e = kronecker(7, 8)  # self-loops and duplicates included
    g = GraphFile(e)
    path = str(tmp_path / f"g{SUFFIX[fmt]}")
    write_graph(g, path)
    back = read_graph(path)
    assert back.format == fmt and not back.relabelled
    np.testing.assert_array_equal(user_pairs(back), user_pairs(g))
    if fmt in ORIENTED:
        np.testing.assert_array_equal(back.edges.src, e.src)
        np.testing.assert_array_equal(back.edges.dst, e.dst)


@pytest.mark.parametrize("fmt", list(SUFFIX))
def test_sparse_ids_roundtrip_and_relabel(tmp_path, fmt):
    ids = np.array([10**12 + 7, 42, 2**40 + 1, 999_999_937, 5], dtype=np.int64)
    src = ids[[0, 1, 2, 3, 0, 4]]
    dst = ids[[1, 2, 3, 0, 4, 4]]
    path = str(tmp_path / f"g{SUFFIX[fmt]}")
    write_graph(graph_of(src, dst), path) if fmt not in ("npz",) else None
    if fmt == "npz":  # npz keeps vertex numbers + labels: write a relabelled graph
        first = read_graph(_write_snap(tmp_path, src, dst))
        write_graph(first, path)
    g = read_graph(path)
    assert g.relabelled and g.num_vertices == 5
    np.testing.assert_array_equal(g.labels, np.sort(ids))
    np.testing.assert_array_equal(user_pairs(g), user_pairs(graph_of(src, dst)))
    assert g.vertex(2**40 + 1) == 4 and int(g.user_ids(np.array([1]))[0]) == 42
    with pytest.raises(InputError, match="is not a vertex"):
        g.vertex(43)


def _write_snap(tmp_path, src, dst, name="s.txt"):
    path = tmp_path / name
    path.write_text("".join(f"{a} {b}\n" for a, b in zip(src.tolist(), dst.tolist())))
    return str(path)


def test_relabel_policy(tmp_path):
    path = _write_snap(tmp_path, np.array([1, 2, 5000]), np.array([2, 3, 1]))
    assert read_graph(path).relabelled            # 5001 ids for 3 edges: sparse
    assert not read_graph(path, relabel=False).relabelled
    assert read_graph(path, relabel=False).num_vertices == 5001
    small = _write_snap(tmp_path, np.array([1, 2, 30]), np.array([2, 3, 1]), "t.txt")
    assert not read_graph(small).relabelled       # dense enough: ids kept, 0 is isolated
    g = read_graph(small, relabel=True)
    assert g.relabelled and g.num_vertices == 4
    assert read_graph(small, num_vertices=100).num_vertices == 100


def test_packed48_layout_matches_reference(tmp_path):
    """v0_low, v1_low, high = (v0 >> 32) & 0xFFFF | ((v1 >> 32) & 0xFFFF) << 16."""
    v0 = np.array([1, 2**32 + 3, 2**47 - 1], dtype=np.int64)
    v1 = np.array([2**40 + 9, 7, 0], dtype=np.int64)
    path = str(tmp_path / "g.p48")
    write_graph(graph_of(v0, v1), path)
    words = np.fromfile(path, dtype="<u4").reshape(-1, 3)
    np.testing.assert_array_equal(words[:, 0], v0 & 0xFFFFFFFF)
    np.testing.assert_array_equal(words[:, 1], v1 & 0xFFFFFFFF)
    np.testing.assert_array_equal(words[:, 2], ((v0 >> 32) & 0xFFFF) | (((v1 >> 32) & 0xFFFF) << 16))
    back = read_graph(path)
    np.testing.assert_array_equal(back.user_ids(back.edges.src), v0)
    np.testing.assert_array_equal(back.user_ids(back.edges.dst), v1)
    with pytest.raises(InputError, match="2\\*\\*47"):
        write_graph(graph_of(np.array([2**47]), np.array([1])), str(tmp_path / "big.p48"))
    assert not os.path.exists(tmp_path / "big.p48")


def test_g500_reads_what_generate_writes(tmp_path):
    out = tmp_path / "k.bin"
    assert cli.main(["generate", "-s", "6", "-e", "4", "--out", str(out), "-q"]) == 0
    g = read_graph(str(out))
    e = kronecker(6, 4)
    np.testing.assert_array_equal(g.edges.src, e.src)
    np.testing.assert_array_equal(g.edges.dst, e.dst)
    assert g.num_vertices <= 64


def test_snap_text_features(tmp_path):
    path = tmp_path / "w.txt"
    path.write_bytes(b"# Directed graph (each unordered pair of nodes is saved once): w.txt\r\n"
                     b"# FromNodeId\tToNodeId\tWeight\r\n"
                     b"% another comment style\r\n\r\n"
                     b"  0\t1\t0.5  \r\n"
                     b"1 2 -2.5e-3 ignored-column\r\n"
                     b"+2 0 1e400\r\n"
                     b"2 3 0.30000000000000004\n"
                     b"3 3 7")  # no newline at the end
    g = read_graph(str(path))
    assert g.directed and g.format == "snap"
    np.testing.assert_array_equal(g.edges.src, [0, 1, 2, 2, 3])
    np.testing.assert_array_equal(g.edges.dst, [1, 2, 0, 3, 3])
    np.testing.assert_array_equal(g.weights, [0.5, -2.5e-3, float("inf"), 0.30000000000000004, 7.0])
    assert not read_graph(str(path), directed=False).directed
    konect = tmp_path / "k.tsv"
    konect.write_text("% sym unweighted\n1 2\n")
    assert not read_graph(str(konect)).directed


def test_weights_parse_exactly_like_python_float(tmp_path):
    rng = random.Random(7)
    tokens = []
    for _ in range(3000):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 19)))
        cut = rng.randint(0, len(digits))
        tok = digits[:cut] + ("." if rng.random() < 0.7 else "") + digits[cut:]
        if tok == ".":
            tok = "0.5"
        if rng.random() < 0.4:
            tok += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.randint(0, 30))
        if rng.random() < 0.3:
            tok = "-" + tok
        tokens.append(tok)
    tokens += ["1.7976931348623157e308", "4.9e-324", "nan1".replace("nan1", "12"), "0", "-0.0"]
    path = tmp_path / "w.txt"
    path.write_text("".join(f"{i} {i + 1} {t}\n" for i, t in enumerate(tokens)))
    g = read_graph(str(path))
    np.testing.assert_array_equal(g.weights, np.array([float(t) for t in tokens]))


def test_chunked_reading_is_exact(tmp_path, monkeypatch):
    """Tiny chunks: lines cut at every place, a line longer than the buffer, many slow weights."""
    rng = np.random.default_rng(1)
    src = rng.integers(0, 10**6, 500)
    dst = rng.integers(0, 10**6, 500)
    path = tmp_path / "c.txt"
    lines = ["# header"] + [f"{a} {b} {a / 7!r}" for a, b in zip(src.tolist(), dst.tolist())]
    lines[100] = "%" + "x" * 300   # a comment longer than the chunk
    path.write_text("\n".join(lines) + "\n")
    whole = read_graph(str(path), relabel=False)
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 64)
    monkeypatch.setattr(snap_text, "_SLOW_CAP", 3)
    seen = []
    small = read_graph(str(path), relabel=False, progress=lambda *a: seen.append(a))
    keep = np.ones(500, bool)
    keep[99] = False  # line 100 became a comment
    np.testing.assert_array_equal(small.edges.src, src[keep])
    np.testing.assert_array_equal(whole.edges.dst, small.edges.dst)
    np.testing.assert_array_equal(small.weights, (src[keep] / 7))
    assert seen[-1][1] == seen[-1][2] == os.path.getsize(path)  # progress reached the end
    # gzip: same edges, arrays grown as the chunks come
    gz = tmp_path / "c.txt.gz"
    gz.write_bytes(gzip.compress(path.read_bytes()))
    zipped = read_graph(str(gz), relabel=False)
    np.testing.assert_array_equal(zipped.edges.src, small.edges.src)
    np.testing.assert_array_equal(zipped.weights, small.weights)
    # every other format (the chunked binary ones in chunks of a few edges)
    for fmt in ORIENTED:
        p = str(tmp_path / f"c{SUFFIX[fmt]}")
        write_graph(whole, p)
        back = read_graph(p, relabel=False)
        np.testing.assert_array_equal(back.edges.src, whole.edges.src)
        np.testing.assert_array_equal(back.edges.dst, whole.edges.dst)


def test_format_sniffing_and_notes(tmp_path):
    e = kronecker(5, 4)
    g = GraphFile(e, weights=np.arange(e.num_edges, dtype=float) / 2, directed=True)
    sniffed = [f for f in REGISTRY.values() if f.magic or f.sniff is not None]
    assert sniffed
    for i, f in enumerate(sniffed):
        path = str(tmp_path / f"noname{i}")
        notes = write_graph(g, path, format=f.name)
        # weights dropped, direction unrecorded: each said
        assert len(notes) == (not f.weighted) + (not f.directed)
        back = read_graph(path)
        assert back.format == f.name
        np.testing.assert_array_equal(user_pairs(back), user_pairs(GraphFile(e)))
        assert back.directed == f.directed
        if f.weighted:
            np.testing.assert_array_equal(np.sort(back.weights), np.sort(g.weights))


def test_matrix_market_symmetric_keeps_stored_entries(tmp_path):
    path = tmp_path / "s.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real symmetric\n% c\n4 4 3\n2 1 1.5\n3 3 2\n4 2 -1\n")
    g = read_graph(str(path))
    assert not g.directed and g.num_vertices == 4
    np.testing.assert_array_equal(g.edges.src, [1, 2, 3])
    np.testing.assert_array_equal(g.edges.dst, [0, 2, 1])
    np.testing.assert_array_equal(g.weights, [1.5, 2, -1])


# ---- networkx graphs through every format: BFS distances equal networkx's ------------------

GRAPHS = {
    "karate": nx.karate_club_graph,
    "lesmis": nx.les_miserables_graph,
    "florentine": nx.florentine_families_graph,
    "grid": lambda: nx.grid_2d_graph(12, 9),
    "path": lambda: nx.path_graph(600),
}


@pytest.mark.parametrize("name", list(GRAPHS))
def test_networkx_graphs_through_files(tmp_path, name):
    import pygraph500

    G = GRAPHS[name]()
    nodes = list(G)
    index = {v: i for i, v in enumerate(nodes)}
    offset = 1000  # users' ids: sparse-ish, not 0-based
    src = np.array([index[u] * 3 + offset for u, v in G.edges()], dtype=np.int64)
    dst = np.array([index[v] * 3 + offset for u, v in G.edges()], dtype=np.int64)
    base = graph_of(src, dst)
    roots = [nodes[0], nodes[len(nodes) // 2], nodes[-1]]
    expect = {r: nx.single_source_shortest_path_length(G, r) for r in roots}
    for fmt, suffix in SUFFIX.items():
        path = str(tmp_path / f"{name}{suffix}")
        write_graph(base, path)
        g = read_graph(path, relabel=True)
        for r in roots:
            dist = pygraph500.bfs(g, index[r] * 3 + offset, return_predecessors=False,
                                  return_distances=True)
            got = {nodes[int((uid - offset) // 3)]: int(d)
                   for uid, d in zip(g.user_ids(np.arange(g.num_vertices)).tolist(), dist.tolist())
                   if d >= 0}
            assert got == expect[r], (fmt, r)


# ---- bad input --------------------------------------------------------------------------------

BAD = [
    # name, content, extra read_graph kwargs, (file, where, value) the message must name
    ("tok.txt", b"1 2\n3 x7\n", {}, ("tok.txt:2", "byte offset 6", "x7")),
    ("neg.txt", b"# c\n1 2\n-3 4\n", {}, ("neg.txt:3", "byte offset 8", "-3")),
    ("one.txt", b"1 2\n\n3\n", {}, ("one.txt:3", "byte offset 5", "'3'")),
    ("odd.bin", np.arange(3, dtype="<i8").tobytes(), {}, ("odd.bin", "byte offset 16", "3")),
    ("trunc.bin", np.arange(4, dtype="<i8").tobytes()[:-3], {}, ("trunc.bin", "byte offset 24", "5 of 8")),
    ("trunc.p48", b"\x01" * 30, {}, ("trunc.p48", "byte offset 24", "6 of 12")),
    ("range.txt", b"0 1\n1 2\n2 10\n", {"num_vertices": 10}, ("range.txt:3", "byte offset 10", "10")),
    ("range.bin", np.array([0, 1, 12, 3], "<i8").tobytes(), {"num_vertices": 10},
     ("range.bin", "byte offset 16", "12")),
    ("negb.bin", np.array([0, 1, 2, -5], "<i8").tobytes(), {}, ("negb.bin", "byte offset 24", "-5")),
    ("empty.txt", b"", {}, ("empty.txt", "empty", "")),
    ("comments.txt", b"# nothing\n% here\n", {}, ("comments.txt", "no edges", "")),
    ("weight.txt", b"1 2 0.5\n2 3 heavy\n", {}, ("weight.txt:2", "byte offset 12", "heavy")),
    ("cols.txt", b"1 2\n2 3 4\n", {}, ("cols.txt:2", "3 columns", "")),
    ("big.txt", b"1 99999999999999999999\n", {}, ("big.txt:1", "byte offset 2", "99999999999999999999")),
    ("bad.mtx", b"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1\n", {},
     ("bad.mtx", "Matrix Market", "")),
    ("bad.npy", b"\x93NUMPY garbage", {}, ("bad.npy", "NumPy", "")),
]


@pytest.mark.parametrize("name,content,kw,needles", BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_file_place_value(tmp_path, name, content, kw, needles):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        read_graph(str(path), **kw)
    for needle in needles:
        assert needle in str(info.value), str(info.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="cannot read .*nope.txt: No such file"):
        read_graph(str(tmp_path / "nope.txt"))
    with pytest.raises(InputError, match="it is a directory"):
        read_graph(str(tmp_path))


@pytest.mark.parametrize("name,content,kw,needles", BAD[:9] + BAD[9:12], ids=[b[0] for b in BAD[:12]])
def test_cli_bad_input_exit_2_nothing_written(tmp_path, capsys, name, content, kw, needles):
    path = tmp_path / name
    path.write_bytes(content)
    extra = ["--num-vertices", str(kw["num_vertices"])] if kw else []
    for args in (["bfs", str(path), "--root", "1", "--out", str(tmp_path / "t.npy"), "-q"],
                 ["convert", str(path), str(tmp_path / "out.npz"), "-q"]):
        assert cli.main(args + extra) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("graph500: error: ") and needles[0] in err[0]
    assert sorted(os.listdir(tmp_path)) == [name]  # no output, no temporary left behind


def test_cli_missing_file_directory_exit_2(tmp_path, capsys):
    for target in (str(tmp_path / "missing.txt"), str(tmp_path)):
        assert cli.main(["bfs", target, "--root", "0", "-q"]) == 2
        assert cli.main(["convert", target, str(tmp_path / "o.bin"), "-q"]) == 2
        assert cli.main(["run", "--input", target, "-q"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 3 and all(target in line for line in err)
    assert os.listdir(tmp_path) == []


# ---- the commands -----------------------------------------------------------------------------

def test_cli_bfs_writes_tree_in_user_ids(tmp_path, capsys):
    G = nx.les_miserables_graph()
    nodes = sorted(G)
    ids = {v: 7 * i + 10**9 for i, v in enumerate(nodes)}  # sparse ids
    path = tmp_path / "lesmis.txt"
    path.write_text("# Undirected graph\n" + "".join(f"{ids[u]}\t{ids[v]}\n" for u, v in G.edges()))
    root = "Valjean"
    expect = nx.single_source_shortest_path_length(G, root)
    by_id = {i: v for v, i in ids.items()}
    for out in ("tree.npy", "tree.csv"):
        assert cli.main(["bfs", str(path), "--root", str(ids[root]), "--out", str(tmp_path / out),
                         "--distances", "-q"]) == 0
        text = capsys.readouterr().out
        assert "valid (Graph500 rules" in text and f"{len(expect)} vertices" in text
        table = (np.load(tmp_path / out) if out.endswith(".npy")
                 else np.loadtxt(tmp_path / out, delimiter=",", skiprows=1, dtype=np.int64))
        assert table.dtype == np.int64 and table.shape == (len(expect), 3)
        got = {by_id[int(v)]: int(d) for v, p, d in table}
        assert got == expect
        for v, p, d in table:  # every parent is a neighbour one level up, the root its own
            if d == 0:
                assert p == v == ids[root]
            else:
                assert G.has_edge(by_id[int(v)], by_id[int(p)]) and expect[by_id[int(p)]] == d - 1
    with open(tmp_path / "tree.csv") as f:
        assert f.readline() == "vertex,parent,distance\n"


def test_cli_convert_and_run_input(tmp_path, capsys):
    import json

    src = tmp_path / "k.bin"
    assert cli.main(["generate", "-s", "8", "--out", str(src), "-q"]) == 0
    for suffix in (s for s in SUFFIX.values() if s != ".bin"):
        out = tmp_path / f"k{suffix}"
        assert cli.main(["convert", str(src), str(out), "-q"]) == 0
        assert "wrote" in capsys.readouterr().out
        np.testing.assert_array_equal(user_pairs(read_graph(str(out))), user_pairs(read_graph(str(src))))
    res = tmp_path / "r.json"
    assert cli.main(["run", "--input", str(tmp_path / "k.txt"), "--roots", "8", "--json", str(res), "-q"]) == 0
    out = capsys.readouterr().out
    assert "# NOTE: graph read from" in out and "SCALE:                          8" in out
    doc = json.loads(res.read_text())
    assert doc["parameters"]["input"]["num_edges"] == 16 * 256
    assert doc["valid"] and len(doc["runs"]) == 8
    # the generated run from the same seeds picks the same roots: N and degrees are the same
    ref = tmp_path / "g.json"
    assert cli.main(["run", "-s", "8", "--roots", "8", "--json", str(ref), "-q"]) == 0
    capsys.readouterr()
    assert json.loads(ref.read_text())["roots"] == doc["roots"]
    assert [r["nedge"] for r in json.loads(ref.read_text())["runs"]] == [r["nedge"] for r in doc["runs"]]


def test_written_files_get_the_usual_mode(tmp_path):
    """atomic_writer's temporary file is 0600; the renamed result has open()'s mode."""
    umask = os.umask(0o022)
    try:
        path = tmp_path / "g.txt"
        write_graph(graph_of([0], [1]), str(path))
        assert (os.stat(path).st_mode & 0o777) == 0o644
    finally:
        os.umask(umask)


# ---- the registry: the one list of formats ----------------------------------------------------

def test_readme_formats_table_is_the_registrys():
    with open(README) as f:
        text = f.read()
    start = "<!-- formats: generated by pygraph500.io.registry.formats_table -->\n"
    end = "\n<!-- /formats -->"
    assert start in text and end in text, "README.md has lost the formats table's markers"
    table = text[text.index(start) + len(start):text.index(end)]
    assert table == formats_table(), (
        "README.md's formats table is not the registry's: replace the lines between its "
        "formats markers with the output of\n  python -c 'from pygraph500.io.registry import "
        "formats_table; print(formats_table())'")


def test_each_format_is_one_module_with_its_own_names():
    modules = [f.module for f in REGISTRY.values()]
    assert len(set(modules)) == len(modules)
    for f in REGISTRY.values():
        assert f.read.__module__ == f.write.__module__ == f"pygraph500.io.{f.module}", f.name
    suffixes = [s for f in REGISTRY.values() for s in f.suffixes]
    assert len(set(suffixes)) == len(suffixes)  # no file name claimed by two formats
    magics = [f.magic for f in REGISTRY.values() if f.magic]
    assert not [a for a in magics for b in magics if a != b and b.startswith(a)]


@pytest.mark.parametrize("flag", [["convert", "a.txt", "b.bin", "--from"],
                                  ["convert", "a.txt", "b.bin", "--to"],
                                  ["bfs", "a.txt", "--root", "0", "--format"],
                                  ["run", "--input", "a.txt", "--format"]])
def test_cli_format_choices_are_the_registrys(flag, capsys):
    from pygraph500.cli.common import FORMATS_HELP

    parser = cli.build_parser()
    for name in REGISTRY:
        parser.parse_args(flag + [name])
    with pytest.raises(SystemExit) as exc:
        parser.parse_args(flag + ["nope"])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and "\n" not in err and all(name in err for name in REGISTRY)
    assert all(f"{f.name} {' '.join(f.suffixes)}" in FORMATS_HELP for f in REGISTRY.values())
