"""Users' graph files: every format round-trips, ids come back as the user wrote them, large
files are read in chunks, and every kind of bad input is one InputError naming file, line
(or byte offset) and value, exit status 2 and no output file."""
import gzip
import os
import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order
from test_cli_fuzz import run_cli

from pygraph500 import cli
from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.graph.types import EdgeList
from pygraph500.io import REGISTRY, GraphFile, chunked_io, read_graph, snap_text, write_graph

SUFFIX = {f.name: f.suffixes[0] for f in REGISTRY.values()}
# Matrix Market stores an undirected graph's entries as (max, min): the others keep (v0, v1)
ORIENTED = [name for name in REGISTRY if name != "mtx"]


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


@pytest.mark.parametrize("name", [*REGISTRY, "plain"])
def test_generate_writes_the_format_its_name_says(tmp_path, name, capsys):
    """`generate -o g.<suffix>` writes that format (a plain name: g500), every tuple in
    generation order, weights where the format holds them; `read_graph` reads it back by its
    name, and `validate` judges a tree against it: a valid one passes, one with a parent that
    is no neighbour fails (so it read this file's edges)."""
    out = str(tmp_path / ("g" if name == "plain" else "g" + SUFFIX[name]))
    fmt = REGISTRY["g500" if name == "plain" else name]
    assert cli.main(["generate", "-s", "7", "-e", "4", "-o", out, "--weights",
                     str(tmp_path / "w.bin"), "-q"]) == 0
    e = kronecker(7, 4, weights=True)
    g = read_graph(out, format=fmt.name, num_vertices=128, relabel=False)
    if fmt.name in ORIENTED:
        np.testing.assert_array_equal(g.edges.src, e.src)
        np.testing.assert_array_equal(g.edges.dst, e.dst)
    else:
        np.testing.assert_array_equal(np.minimum(g.edges.src, g.edges.dst),
                                      np.minimum(e.src, e.dst))
        np.testing.assert_array_equal(np.maximum(g.edges.src, g.edges.dst),
                                      np.maximum(e.src, e.dst))
    if fmt.weighted:
        np.testing.assert_array_equal(g.weights.astype(np.float32), e.weight)
    root = int(e.src[0])
    a = sp.coo_array((np.ones(e.num_edges), (e.src, e.dst)), shape=(128, 128)).tocsr()
    _, pred = breadth_first_order(a, root, directed=False)  # scipy's tree: the oracle
    parent = np.where(pred < 0, -1, pred).astype(np.int64)
    parent[root] = root
    adj = (a + a.T).tolil().rows
    tree = str(tmp_path / "tree.npy")
    np.save(tree, parent)
    capsys.readouterr()
    assert cli.main(["validate", out, tree, "--root", str(root)]) == 0
    assert capsys.readouterr().out.startswith("valid")
    leaf = next(v for v in range(128) if parent[v] >= 0 and v != root)
    parent[leaf] = next(u for u in range(128) if u not in adj[leaf] and parent[u] >= 0
                        and u != leaf)
    np.save(tree, parent)
    assert cli.main(["validate", out, tree, "--root", str(root)]) == 1


@pytest.mark.parametrize("name", ["g.snap", "g.csv", "g.mtx"])
def test_binary_file_under_a_text_name_is_one_line(tmp_path, name):
    """A binary edge list named as text is said to be binary (not "a bad vertex id" of its
    first byte), for every reader of files: exit 2, one line."""
    path = tmp_path / name
    np.array([[10, 1], [1, 2]], dtype="<i8").tofile(path)  # starts with a line break
    for argv in (["bfs", path, "--root", "0"], ["validate", path, path, "--root", "0"],
                 ["convert", path, tmp_path / "out.bin"]):
        rc, out, err = run_cli(*argv)
        assert rc == 2 and out == ""
        assert err.count("\n") == 1 and "binary data (a NUL byte" in err and "g500 (.bin" in err
    assert not os.path.exists(tmp_path / "out.bin")


def test_generate_refuses_a_compressed_name_before_generating(tmp_path):
    rc, _, err = run_cli("generate", "-s", "20", "-o", tmp_path / "g.txt.gz", "-q")
    assert rc == 2 and "compressed output is not supported" in err
    assert os.listdir(tmp_path) == []


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
    monkeypatch.setattr(chunked_io, "CHUNK_BYTES", 64)
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
            dist = pygraph500.bfs(g, index[r] * 3 + offset).distances
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
    _refused(tmp_path, name, content, kw, needles)


def _refused(tmp_path, name, content, kw, needles):
    """Write ``content`` to ``name``: read_graph refuses it, naming each of ``needles``."""
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        read_graph(str(path), **kw)
    for needle in needles:
        assert needle in str(info.value), str(info.value)
    return path


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


# ---- CSV: separators, headers, named columns ---------------------------------------------------

CSV_SAME = [  # every one holds the edges 0-5 (weight 0.5) and 1-2 (weight 1.25)
    ("header", b"source,target,weight\n0,5,0.5\n1,2,1.25\n"),
    ("no-header", b"0,5,0.5\n1,2,1.25"),
    ("tab", b"src\tdst\tw\n0\t5\t0.5\n1\t2\t1.25\n"),
    ("tab-no-header", b"0\t5\t0.5\n1\t2\t1.25\n"),
    ("named-reordered", b"Weight,To,From\n0.5,5,0\n1.25,2,1\n"),
    ("ignored-named-columns", b"Source,Target,Type,Id,Label,Weight\n"   # Gephi's export
                              b"0,5,Undirected,0,New York,0.5\n1,2,Undirected,1,,1.25\n"),
    ("bom-crlf-blanks-comments", b"\xef\xbb\xbf# from a spreadsheet\r\n\"u\" , \"v\", \"w\"\r\n"
                                 b"% kept out\r\n 0 , 5 ,0.5\r\n\r\n1,2 , 1.25 \r\n"),
    ("positional-header", b"node_a,node_b,cost\n0,5,0.5\n1,2,1.25\n"),
    ("trailing-separators", b"from\tto\tweight\t\n0\t5\t0.5\t\n1\t2\t1.25\t\n"),  # an empty column
]


@pytest.mark.parametrize("name,content", CSV_SAME, ids=[c[0] for c in CSV_SAME])
def test_csv_layouts(tmp_path, name, content):
    path = tmp_path / "e.csv"
    path.write_bytes(content)
    for weights in (False, True):
        g = read_graph(str(path), weights=weights)
        assert g.format == "csv" and not g.directed and g.num_vertices == 6
        np.testing.assert_array_equal(g.edges.src, [0, 1])
        np.testing.assert_array_equal(g.edges.dst, [5, 2])
        np.testing.assert_array_equal(g.weights, [0.5, 1.25])
        assert g.weights.dtype == (np.float32 if weights else np.float64)
    gz = tmp_path / "e.csv.gz"
    gz.write_bytes(gzip.compress(content))
    np.testing.assert_array_equal(read_graph(str(gz)).edges.dst, [5, 2])
    if b"," in content:  # no suffix: told by the comma (tab-separated ones are SNAP's then)
        unnamed = tmp_path / "unnamed"
        unnamed.write_bytes(content)
        assert read_graph(str(unnamed)).format == "csv"


def test_csv_without_weights_and_sparse_ids(tmp_path):
    path = tmp_path / "e.csv"
    path.write_text("to,from\n10000000000,7\n7,42\n")
    g = read_graph(str(path))
    assert g.weights is None and g.relabelled   # sparse ids compacted, as in SNAP files
    np.testing.assert_array_equal(g.user_ids(g.edges.src), [7, 42])
    np.testing.assert_array_equal(g.user_ids(g.edges.dst), [10**10, 7])
    with pytest.raises(InputError, match=r"e.csv:2: no weight column .*--unit-weights"):
        read_graph(str(path), weights=True)


def test_csv_writer_header_and_rows(tmp_path):
    path = tmp_path / "w.csv"
    assert write_graph(graph_of([3, 0], [1, 2], weights=[0.1, 2.0]), str(path)) == []
    assert path.read_text() == "source,target,weight\n3,1,0.1\n0,2,2.0\n"
    write_graph(graph_of([3, 0], [1, 2], directed=True), str(path))
    assert path.read_text() == "source,target\n3,1\n0,2\n"


def test_csv_chunked_reading_is_exact(tmp_path, monkeypatch):
    """Tiny chunks: a header (and comments before it) longer than a chunk, lines cut anywhere."""
    rng = np.random.default_rng(3)
    src, dst = rng.integers(0, 1000, 300), rng.integers(0, 1000, 300)
    w = rng.random(300)
    long_name = "x" * 150
    path = tmp_path / "c.csv"
    path.write_text(f"# {long_name}\n{long_name},weight,target,source\n"
                    + "".join(f"a b,{c!r},{b},{a}\n" for a, b, c in zip(src.tolist(), dst.tolist(), w.tolist())))
    monkeypatch.setattr(chunked_io, "CHUNK_BYTES", 64)
    monkeypatch.setattr(snap_text, "_SLOW_CAP", 3)
    g = read_graph(str(path), relabel=False)
    np.testing.assert_array_equal(g.edges.src, src)
    np.testing.assert_array_equal(g.edges.dst, dst)
    np.testing.assert_array_equal(g.weights, w)
    path.write_text(path.read_text().replace("source\n", "source\nz,2,3,q\n", 1))
    with pytest.raises(InputError, match=r"c.csv:3 .*: not an integer vertex id: 'q'"):
        read_graph(str(path))   # line numbers count the comment and the header


CSV_BAD = [
    # name, content, read_graph kwargs, what the message must hold
    ("id.csv", b"source,target\n0,1\n2,x7\n", {}, ("id.csv:3", "byte offset 20", "'x7'")),
    ("neg.csv", b"0,1\n-3,4\n", {}, ("neg.csv:2", "negative vertex id: '-3'")),
    ("empty.csv", b"0,1\n2,\n", {}, ("empty.csv:2", "empty field where a vertex id belongs")),
    ("float.csv", b"0.5,1\n", {}, ("float.csv:1", "not an integer vertex id: '0.5'")),
    ("four.csv", b"0,1,2,3\n", {}, ("four.csv:1", "4 columns; expected 2 or 3", "header line naming")),
    ("more.csv", b"0,1,0.5\n1,2,0.5,9\n", {}, ("more.csv:2", "4 columns; expected 3 comma-separated")),
    ("trail.csv", b"0\t1\t\n", {}, ("trail.csv:1", "weight is not a number: ''")),  # empty third
    ("fewer.csv", b"src,dst,w\n0,1,0.5\n1,2\n", {}, ("fewer.csv:3", "2 columns; expected 3", "line 1")),
    ("named.csv", b"id,source,target\n0,1,2\n1,2,3,4\n", {}, ("named.csv:3", "4 columns; expected 3",
                                                          "ignored, source, target")),
    ("one.csv", b"0,1\n5\n", {}, ("one.csv:2", "one column ('5')")),
    ("blank.csv", b"0 1\n", {}, ("blank.csv:1", "no comma or tab", "--format snap")),
    ("inner.csv", b"0,1\n1 2,3\n", {}, ("inner.csv:2", "'1 2'")),
    ("notarget.csv", b"source,dest\n0,1\n", {}, ("notarget.csv:1", "no target column", "target/destination/dst/to/v")),
    ("twice.csv", b"from,to,u\n0,1,2\n", {}, ("twice.csv:1", "2 source columns")),
    ("wide.csv", b"a,b,c,d\n0,1,2,3\n", {}, ("wide.csv:1", "4 columns and names none")),
    ("weight.csv", b"0,1,0.5\n1,2,heavy\n", {}, ("weight.csv:2", "weight is not a number: 'heavy'")),
    ("negw.csv", b"0,1,0.5\n1,2,-1\n", {"weights": True}, ("negw.csv:2", "negative")),
    ("noweight.csv", b"# c\n0,1\n", {"weights": True}, ("noweight.csv:2", "no weight column")),
    ("header-only.csv", b"source,target\n", {}, ("header-only.csv", "no edges after the header")),
    ("range.csv", b"0,1\n1,10\n", {"num_vertices": 10}, ("range.csv:2", "not below the vertex count 10")),
    ("big.csv", b"0,99999999999999999999\n", {}, ("big.csv:1", "larger than 2**63 - 1")),
]


@pytest.mark.parametrize("name,content,kw,needles", CSV_BAD, ids=[b[0] for b in CSV_BAD])
def test_csv_bad_input_names_file_line_value(tmp_path, capsys, name, content, kw, needles):
    path = _refused(tmp_path, name, content, kw, needles)
    command = ["sssp" if kw.get("weights") else "bfs", str(path), "--root", "0",
               "--out", str(tmp_path / "t.csv"), "-q"]
    if "num_vertices" in kw:
        command += ["--num-vertices", str(kw["num_vertices"])]
    assert cli.main(command) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("graph500: error: ") and needles[0] in err[0]
    assert os.listdir(tmp_path) == [name]  # nothing written


def test_snap_file_with_a_header_points_to_csv(tmp_path):
    path = tmp_path / "e.tsv"
    path.write_text("source\ttarget\n0\t5\n")
    with pytest.raises(InputError, match="e.tsv:1 .*'source'; a header line .* --format csv"):
        read_graph(str(path))
    assert read_graph(str(path), format="csv").num_edges == 1


def _summary(out: str, key: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(key))


def test_cli_csv_bfs_convert_and_sssp(tmp_path, capsys):
    edges = tmp_path / "edges.csv"
    edges.write_text("source,target,weight\n0,5,0.5\n1,2,1.25\n5,1,2\n")
    assert cli.main(["bfs", str(edges), "--root", "0"]) == 0
    out = capsys.readouterr().out
    assert "(csv, 6 vertices, 3 edge tuples" in out and "valid (Graph500 rules" in out
    assert _summary(out, "reached:").startswith("reached:           4 vertices, 3 edge tuples")
    assert cli.main(["sssp", str(edges), "--root", "0", "--out", str(tmp_path / "d.csv"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "max distance 3.75" in out and "valid (Graph500 kernel-3 rules" in out
    rows = (tmp_path / "d.csv").read_text().splitlines()
    assert rows[0] == "vertex,parent,distance" and "2,1,3.75" in rows
    # a SNAP file converted to CSV searches to the same tree
    g = kronecker(8, 8)
    txt = tmp_path / "g.txt"
    write_graph(GraphFile(g), str(txt))
    assert cli.main(["convert", str(txt), str(tmp_path / "out.csv"), "-q"]) == 0
    capsys.readouterr()
    summaries = []
    for path in (txt, tmp_path / "out.csv"):
        assert cli.main(["bfs", str(path), "--root", "1", "-q"]) == 0
        out = capsys.readouterr().out
        summaries.append((_summary(out, "reached:"), _summary(out, "validation:").split(",")[0]))
    assert summaries[0] == summaries[1] and "valid (Graph500 rules" in summaries[0][1]

# ---- the registry: the one list of formats ----------------------------------------------------

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
    from pygraph500.cli.common import formats_help

    parser = cli.build_parser()
    for name in REGISTRY:
        parser.parse_args(flag + [name])
    with pytest.raises(SystemExit) as exc:
        parser.parse_args(flag + ["nope"])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and "\n" not in err and all(name in err for name in REGISTRY)
    assert all(f"{f.name} {' '.join(f.suffixes)}" in formats_help() for f in REGISTRY.values())


def test_compressed_files_told_by_their_decompressed_bytes(tmp_path):
    """A .gz or .bz2 name without a format suffix is told by its decompressed first bytes
    (a gzipped CSV was read as SNAP text, its header "a bad vertex id"); compressed binary
    data, or binary data under a compressed text name, is said to be so in one line."""
    import bz2

    text = "source,target,weight\n0,1,0.5\n1,2,0.25\n2,0,1.0\n"
    (tmp_path / "c.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "c.bz2").write_bytes(bz2.compress(text.encode()))
    (tmp_path / "s.gz").write_bytes(gzip.compress(b"0 1\n1 2\n"))
    for name, fmt in (("c.gz", "csv"), ("c.bz2", "csv"), ("s.gz", "snap")):
        g = read_graph(str(tmp_path / name))
        assert g.format == fmt and g.num_edges == (3 if fmt == "csv" else 2)
    pairs = np.array([[0, 1], [1, 2]], dtype="<i8").tobytes()
    for name in ("b.gz", "b.txt.gz", "b.csv.bz2"):
        packed = bz2.compress(pairs) if name.endswith("bz2") else gzip.compress(pairs)
        (tmp_path / name).write_bytes(packed)
        with pytest.raises(InputError, match=f"^{tmp_path / name}: compressed binary data; "
                                             "only snap, csv and mtx files may be compressed$"):
            read_graph(str(tmp_path / name))
    (tmp_path / "bad.gz").write_bytes(b"not gzip at all\n")
    with pytest.raises(InputError, match="cannot decompress"):
        read_graph(str(tmp_path / "bad.gz"))


def test_compressed_data_on_stdin_is_decompressed(tmp_path):
    """`cat g.csv.gz | graph500 bfs -`: the stream's gzip or bzip2 bytes are decompressed
    (they were read as int64 pairs: "truncated"); a g500 stream whose first bytes look like
    gzip's but are not gzip data is still read as g500."""
    import bz2
    import subprocess
    import sys

    text = b"source,target\n0,1\n1,2\n2,3\n"
    for packed in (gzip.compress(text), bz2.compress(text)):
        p = subprocess.run([sys.executable, "-m", "pygraph500", "bfs", "-", "--root", "0"],
                           input=packed, capture_output=True, timeout=600, cwd=tmp_path)
        assert p.returncode == 0, p.stderr
        assert b"reached:           4 vertices" in p.stdout
    first = 0x088B1F  # little-endian bytes 1f 8b 08: gzip's magic and method
    pairs = np.array([[first, 1], [1, 2]], dtype="<i8").tobytes()
    assert pairs[:3] == b"\x1f\x8b\x08"
    p = subprocess.run([sys.executable, "-m", "pygraph500", "bfs", "-", "--root", "1"],
                       input=pairs, capture_output=True, timeout=600, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert b"reached:           3 vertices" in p.stdout
    assert os.listdir(tmp_path) == []
