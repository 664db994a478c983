"""Paper 001's own fold and vertex order on the 2D mesh: ``fold="paper"`` (every edge from the
frontier sent, the paper's packet body, raw pairs at 16 bytes), ``sort_vertices=None`` in
the 2D kernel 1, and their flags (``graph500 run --fold``, ``--sort-vertices`` with
``--partition 2d``).

Oracles: the pairs each mode must send counted on the embedded CSR (``build_csr``) and
scipy's BFS depths; the Graph500 validator for every tree; the packet format's definition
for the bytes.
"""
import json

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from pygraph500 import build_csr, choose_roots, cli, kronecker, validate
from pygraph500.distributed import SerialComm, ThreadComm, generate_local
from pygraph500.distributed.build2d import build_2d, mesh_comms
from pygraph500.distributed.fold_codec import (ERR_FORMAT, ERR_VALUE, FLAG_FIXED_B, FLAG_LAST,
                                               FLAG_VLQ, HEADER_BYTES, VLQ_FIXED_B,
                                               append_pair, decode_pairs, encode_pairs,
                                               pair_bytes_max, read_header, vlq_bytes,
                                               zigzag)
from pygraph500.distributed.grid import Grid2D
from pygraph500.distributed.search2d import FOLD_MODES, Searcher2D
from pygraph500.errors import InputError

SCALE = 9
MESHES = [(2, 2), (1, 3), (2, 3)]


def _on_mesh(mesh, fn, *args):
    rows, cols = mesh

    def body(comm):
        grid = Grid2D(1 << SCALE, rows, cols, comm.rank)
        row_comm, col_comm = mesh_comms(comm, grid)
        return fn(comm, grid, row_comm, col_comm, *args)

    if rows * cols == 1:
        return [body(SerialComm())]
    return ThreadComm.run(rows * cols, body, timeout=120)


# ---- the paper's packet body ------------------------------------------------------------------

def test_paper_body_round_trips_at_vlq_of_the_delta_plus_4_bytes():
    a = np.array([300, 301, 301, 303, 303, 2, 2 ** 40], np.int64)   # the paper's u, then down
    b = np.array([533, 12, 63, 1222, 0, 2 ** 32 - 1, 7], np.int64)
    p = encode_pairs(a, b, 8, VLQ_FIXED_B, True)
    count, flags, width = read_header(p)
    assert (count, flags, width) == (7, FLAG_LAST | FLAG_VLQ | FLAG_FIXED_B, 8)
    deltas = np.diff(np.concatenate([[0], a]))
    assert len(p) == HEADER_BYTES + sum(vlq_bytes(zigzag(int(d))) + 4 for d in deltas)
    # the paper's example: u 300, 301, 301, 303 -> deltas 300, 1, 0, 2 zigzagged; v in 4 bytes
    assert p[HEADER_BYTES:HEADER_BYTES + 6].tolist() == [0xD8, 0x04, 0x15, 0x02, 0, 0]
    got_a, got_b, last = decode_pairs(p)
    np.testing.assert_array_equal(got_a, a)
    np.testing.assert_array_equal(got_b, b)
    assert last
    assert pair_bytes_max(8, VLQ_FIXED_B) == 14


def test_paper_body_refuses_a_wide_b_and_a_lone_fixed_flag():
    buf = np.zeros(64, np.uint8)
    assert append_pair(buf, HEADER_BYTES, 0, -1, 1, 2 ** 32, 8, VLQ_FIXED_B) == ERR_VALUE
    with pytest.raises(ValueError):
        encode_pairs(np.array([1]), np.array([2 ** 32]), 8, VLQ_FIXED_B, False)
    p = encode_pairs(np.array([1]), np.array([2]), 8, VLQ_FIXED_B, False)
    p[4] = FLAG_FIXED_B  # without FLAG_VLQ: not a format
    assert read_header(p)[0] == ERR_FORMAT


# ---- the searches ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def graph():
    """Edges, the CSR, roots (two of the reference's and an isolated vertex), scipy's
    depths per root."""
    edges = kronecker(SCALE)
    n = edges.num_vertices
    csr = build_csr(edges)
    degree = np.diff(csr.indptr)
    roots = choose_roots(degree > 0, (2, 3), 2).tolist() + [int(np.flatnonzero(degree == 0)[0])]
    a = sp.coo_matrix((np.ones(len(edges.src)), (edges.src, edges.dst)), shape=(n, n)).tocsr()
    dist = shortest_path(a, directed=False, unweighted=True, indices=roots)
    return edges, csr, roots, np.where(np.isinf(dist), -1, dist).astype(np.int64)


def _searches(comm, grid, row_comm, col_comm, algorithm, sort, roots):
    edges = generate_local(comm, SCALE)
    g = build_2d(comm, grid, edges, row_comm, col_comm,
                 transpose=algorithm == "direction-optimizing", sort_vertices=sort)
    out = {}
    for fold in FOLD_MODES:
        for compress in ("vlq", "none"):
            s = Searcher2D(comm, g, row_comm, col_comm, algorithm, compress, fold=fold)
            out[fold, compress] = [(res.parent, res.levels)
                                   for res in (s.search(r) for r in roots)]
    return g, out


def _expected_pairs(csr, depth, rows, cols):
    """Per rank, the pairs each top-down fold sends over a search: paper, every entry
    u -> v of a reached u held where v is not the holder's own; dedup, each such v once per
    holder. The holder of u -> v is in u's owner's processor-column and v's owner's row."""
    size = rows * cols
    n = csr.num_vertices
    u = np.repeat(np.arange(n), np.diff(csr.indptr))
    v = csr.indices.astype(np.int64)
    holder = ((u % size) // rows) * rows + (v % size) % rows
    sent = (depth[u] >= 0) & (holder != v % size)
    paper = np.bincount(holder[sent], minlength=size)
    dedup = np.bincount(np.unique(holder[sent] * n + v[sent]) // n, minlength=size)
    return paper, dedup


@pytest.mark.parametrize("sort", ["degree", None])
@pytest.mark.parametrize("mesh", MESHES)
def test_paper_fold_sends_every_edge_topdown(mesh, sort, graph):
    """Top-down: the pairs of each rank are exactly the oracle's in both modes; raw bytes
    16 a pair (and sent as such by compress none), the paper's body 5 bytes a pair or more
    and below raw; trees valid with scipy's depths, with or without vertex sorting."""
    edges, csr, roots, depths = graph
    rows, cols = mesh
    size = rows * cols
    ranks = _on_mesh(mesh, _searches, "topdown-queue", sort, roots)
    for p, (g, _) in enumerate(ranks):
        if sort is None:
            np.testing.assert_array_equal(g.order, np.arange(g.num_local))
            np.testing.assert_array_equal(g.sorted_id, np.arange(g.num_local))
        else:
            assert (np.diff(g.degree[g.order]) <= 0).all()
    for t, root in enumerate(roots):
        paper, dedup = _expected_pairs(csr, depths[t], rows, cols)
        for (fold, compress), want in (((f, c), paper if f == "paper" else dedup)
                                       for f in FOLD_MODES for c in ("vlq", "none")):
            parent = np.empty(csr.num_vertices, dtype=np.int64)
            for p in range(size):
                parent[p::size] = ranks[p][1][fold, compress][t][0]
            rep = validate(edges, parent, root)
            assert rep.valid, (fold, compress, rep.message)
            assert rep.num_visited == (depths[t] >= 0).sum()
            for p in range(size):
                lv = ranks[p][1][fold, compress][t][1]
                pairs = int(lv["sent"].sum())
                assert pairs == want[p], (fold, compress, p)
                per_pair = 16 if fold == "paper" else 8
                np.testing.assert_array_equal(lv["fold_bytes_raw"], per_pair * lv["sent"])
                packets = (lv["fold_bytes"].sum() - per_pair * pairs) / HEADER_BYTES
                if compress == "none":  # raw fields: two ids of per_pair / 2 bytes
                    assert packets == int(packets) and packets >= (cols - 1) * len(lv["sent"])
                elif fold == "paper" and pairs:
                    body = lv["fold_bytes"].sum() - HEADER_BYTES * (cols - 1) * len(lv["sent"])
                    assert 5 * pairs <= body < 16 * pairs
        assert (paper >= dedup).all()


@pytest.mark.parametrize("mesh", [(2, 2), (1, 3)])
def test_paper_fold_with_bottom_up_levels_gives_valid_trees(mesh, graph):
    """direction-optimizing: bottom-up levels send one pair per vertex found in both modes;
    the top-down levels after them skip what a rank learnt is visited, so the paper fold
    sends no more than every entry and no fewer than dedup."""
    edges, csr, roots, depths = graph
    rows, cols = mesh
    size = rows * cols
    ranks = _on_mesh(mesh, _searches, "direction-optimizing", "degree", roots)
    for t, root in enumerate(roots):
        paper_all, _ = _expected_pairs(csr, depths[t], rows, cols)
        sent = {}
        for fold in FOLD_MODES:
            parent = np.empty(csr.num_vertices, dtype=np.int64)
            for p in range(size):
                parent[p::size] = ranks[p][1][fold, "vlq"][t][0]
            rep = validate(edges, parent, root)
            assert rep.valid and rep.num_visited == (depths[t] >= 0).sum()
            sent[fold] = sum(int(ranks[p][1][fold, "vlq"][t][1]["sent"].sum())
                             for p in range(size))
        assert sent["dedup"] <= sent["paper"] <= paper_all.sum() + csr.num_vertices


def test_bad_fold_and_sort_are_input_errors():
    def body(comm, grid, row_comm, col_comm):
        edges = generate_local(comm, SCALE)
        with pytest.raises(InputError, match="^sort_vertices must be") as raised:
            build_2d(comm, grid, edges, row_comm, col_comm, sort_vertices="random")
        assert raised.value.param == "sort_vertices"
        g = build_2d(comm, grid, edges, row_comm, col_comm, transpose=False)
        with pytest.raises(InputError, match="^fold must be one of dedup, paper") as raised:
            Searcher2D(comm, g, row_comm, col_comm, "topdown-queue", fold="every")
        assert raised.value.param == "fold"
        return True

    assert _on_mesh((1, 1), body) == [True]


# ---- the command ------------------------------------------------------------------------------

def _run(tmp_path, *extra):
    out = tmp_path / "r.json"
    assert cli.main(["run", "--scale", "10", "--roots", "2", "--quiet", "--json", str(out),
                     "--partition", "2d", *extra]) == 0
    return json.loads(out.read_text())


def test_run_fold_paper_and_sort_flags(tmp_path, capsys):
    default = _run(tmp_path)
    paper = _run(tmp_path, "--fold", "paper", "--sort-vertices", "none")
    capsys.readouterr()
    assert default["parameters"]["fold"] == "dedup"
    assert default["parameters"]["sort_vertices"] == "degree"  # the 2D default: the paper's
    assert default["distributed"]["sort_vertices"] == "degree"
    assert paper["parameters"]["fold"] == "paper"
    assert paper["parameters"]["sort_vertices"] == paper["distributed"]["sort_vertices"] == "none"
    assert paper["valid"] and default["valid"]
    assert [r["nedge"] for r in paper["runs"]] == [r["nedge"] for r in default["runs"]]
    for run in paper["runs"]:
        for lv in run["levels"]:  # one process: every pair is the rank's own
            assert lv["fold_bytes_raw"] == 16 * lv["sent"] == 0


@pytest.mark.parametrize("argv,needle", [
    (["--fold", "paper"], "--fold applies to partition 2d"),
    (["--fold", "every"], "--fold"),
    (["--distributed", "--sort-vertices", "degree"], "--sort-vertices"),
])
def test_bad_fold_flags_are_one_line_exit_2(argv, needle, tmp_path, capsys):
    out = tmp_path / "r.json"
    try:
        code = cli.main(["run", "--scale", "8", "--roots", "2", "--json", str(out), *argv])
    except SystemExit as stop:  # argparse's refusal of a choice
        code = stop.code
    assert code == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[-1], captured.err
    assert not out.exists()
