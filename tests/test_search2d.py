"""The 2D partition (paper 001) without mpiexec: the mesh, kernel 1 on the edge blocks, the
searcher, and `graph500 run --partition 2d` in this process. P ranks as threads (ThreadComm),
the 1 x 1 mesh on SerialComm.

Oracles: paper 001 Table 1 for the mesh shapes; the embedded kernel 1 (``build_csr``) on the
whole Kronecker edge list for the blocks; the embedded validator and scipy's shortest paths
for the searches; the embedded and 1D engines' roots and edge counts for the engine.
"""
import json
import threading

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path

from pygraph500 import build_csr, choose_roots, cli, kronecker, validate
from pygraph500.distributed import SerialComm, ThreadComm, generate_local, search2d
from pygraph500.distributed.build2d import build_2d, mesh_comms
from pygraph500.distributed.fold_codec import FLAG_LAST, HEADER_BYTES
from pygraph500.distributed.grid import Grid2D, mesh_shape, parse_grid
from pygraph500.distributed.search2d import (COMPRESS_MODES, FOLD_MODES, LEVEL_FIELDS_2D,
                                             Searcher2D)
from pygraph500.errors import InputError

MESHES = [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (1, 3)]
ALGORITHMS_2D = ["topdown-queue", "direction-optimizing"]
BUILD_SCALE = 8
SEARCH_SCALE = 9
PACKET = 64  # bytes: a few pairs per packet, so every level sends many
# counts that must not depend on the packet format (not enqueued_*: which of several claims
# for one vertex arrives first may differ)
SAME_PER_RANK = ("direction", "queue", "nlf", "nlf_pruned", "local", "sent", "received",
                 "fold_bytes_raw")


def _on_mesh(mesh, fn, *args):
    """``fn(comm, grid, row_comm, col_comm, *args)`` on every rank of an R x C mesh over
    ``args[0]`` vertices (the 1 x 1 mesh on SerialComm); the results by rank."""
    rows, cols = mesh

    def body(comm):
        grid = Grid2D(args[0], rows, cols, comm.rank)
        row_comm, col_comm = mesh_comms(comm, grid)
        return fn(comm, grid, row_comm, col_comm, *args[1:])

    if rows * cols == 1:
        return [body(SerialComm())]
    return ThreadComm.run(rows * cols, body, timeout=60)


# ---- the mesh ---------------------------------------------------------------------------------

# paper 001, Table 1: processes -> R x C
TABLE_1 = {1: (1, 1), 2: (1, 2), 4: (2, 2), 8: (2, 4), 16: (4, 4), 32: (4, 8), 64: (8, 8),
           128: (8, 16), 256: (16, 16), 512: (16, 32), 1024: (32, 32), 2048: (32, 64)}


@pytest.mark.parametrize("size", sorted(TABLE_1) + [6, 3])
def test_mesh_shape_is_paper_table_1(size):
    want = TABLE_1.get(size, {6: (2, 3), 3: (1, 3)}.get(size))
    assert mesh_shape(size) == want
    assert parse_grid(None, size) == want


def test_parse_grid_accepts_rxc():
    assert parse_grid("2x3", 6) == (2, 3) and parse_grid("3x2", 6) == (3, 2)
    assert parse_grid("1x4", 4) == (1, 4) and parse_grid("4x1", 4) == (4, 1)


@pytest.mark.parametrize("text,size", [
    ("x", 4), ("2", 2), ("2x", 2), ("ax2", 2), ("2x2x1", 4), ("", 1), ("1.5x2", 3),  # not RxC
    ("0x1", 1), ("1x0", 1), ("-2x-2", 4), ("0x0", 1),                                 # <= 0
    ("2x2", 1), ("2x3", 4), ("3x2", 4), ("1x1", 2),                                   # != P
])
def test_parse_grid_rejects(text, size):
    with pytest.raises(InputError, match="^grid") as raised:
        parse_grid(text, size)
    assert raised.value.param == "grid"  # the CLI says it as --grid


def test_mesh_of_no_process_is_an_error():
    with pytest.raises(InputError):
        mesh_shape(0)


@pytest.mark.parametrize("n", [1000, 1 << 9])
@pytest.mark.parametrize("mesh", MESHES + [(3, 2), (4, 8)])
def test_block_indices_invert_on_every_rank(mesh, n):
    """Every vertex of a rank's column-block (owner in its processor-column) has a distinct
    column index below col_length that maps back to it, and the same for row-blocks; the
    vertex count 1000 leaves padding at the end of blocks."""
    rows, cols = mesh
    size = rows * cols
    v = np.arange(n, dtype=np.int64)
    owner = v % size
    for rank in range(size):
        g = Grid2D(n, rows, cols, rank)
        assert (g.row, g.col) == (rank % rows, rank // rows) and g.rank_of(g.row, g.col) == rank
        assert g.block % 64 == 0 and g.block * size >= n
        mine = v[owner // rows == g.col]  # column-block: owners in processor-column j
        c = g.col_index(mine)
        assert ((0 <= c) & (c < g.col_length)).all() and np.unique(c).size == mine.size
        np.testing.assert_array_equal(g.col_vertex(c), mine)
        every = np.arange(g.col_length)
        real = g.col_vertex(every) < n
        assert real.sum() == mine.size
        np.testing.assert_array_equal(g.col_index(g.col_vertex(every[real])), every[real])
        mine = v[owner % rows == g.row]  # row-block: owners in processor-row i
        r = g.row_index(mine)
        assert ((0 <= r) & (r < g.row_length)).all() and np.unique(r).size == mine.size
        np.testing.assert_array_equal(g.row_vertex(r), mine)
        every = np.arange(g.row_length)
        real = g.row_vertex(every) < n
        assert real.sum() == mine.size
        np.testing.assert_array_equal(g.row_index(g.row_vertex(every[real])), every[real])


@pytest.mark.parametrize("mesh", MESHES + [(3, 2), (4, 8)])
def test_edge_owner_holds_u_in_its_column_and_v_in_its_row(mesh):
    rows, cols = mesh
    size, n = rows * cols, 1000
    rng = np.random.default_rng(5)
    u, v = rng.integers(0, n, 5000), rng.integers(0, n, 5000)
    owner = Grid2D(n, rows, cols, 0).edge_owner(u, v)
    assert ((0 <= owner) & (owner < size)).all()
    for p in np.unique(owner):
        g = Grid2D(n, rows, cols, int(p))
        at = owner == p
        assert {Grid2D(n, rows, cols, int(q)).col for q in np.unique(u[at] % size)} == {g.col}
        assert {Grid2D(n, rows, cols, int(q)).row for q in np.unique(v[at] % size)} == {g.row}
    g0 = Grid2D(n, rows, cols, 0)
    assert g0.edge_owner(int(u[0]), int(v[0])) == owner[0]  # numbers as arrays


# ---- kernel 1 on the blocks -------------------------------------------------------------------

def _build_rank(comm, grid, row_comm, col_comm, scale):
    edges = generate_local(comm, scale)
    return build_2d(comm, grid, edges, row_comm, col_comm, transpose=True)


@pytest.fixture(scope="module")
def whole():
    edges = kronecker(BUILD_SCALE)
    return edges, build_csr(edges)


@pytest.mark.parametrize("mesh", MESHES)
def test_blocks_are_the_embedded_csr(mesh, whole):
    edges, csr = whole
    n = edges.num_vertices
    rows, cols = mesh
    size = rows * cols
    graphs = _on_mesh(mesh, _build_rank, n, BUILD_SCALE)
    block = graphs[0].grid.block
    emb_deg = np.diff(csr.indptr)
    emb_u = np.repeat(np.arange(n, dtype=np.int64), emb_deg)
    want = np.sort(emb_u * n + csr.indices.astype(np.int64))
    # each owner's degree order, padded: orders[p][s] = original local id of sorted id s
    orders = np.full((size, block), -1, dtype=np.int64)
    for p, g in enumerate(graphs):
        orders[p, :g.num_local] = g.order
    got = []
    for p, g in enumerate(graphs):
        grid = g.grid
        assert grid.rank == p and g.num_input_edges == len(edges.src)
        # degrees of the owned vertices, and their order: degree descending, ties by local id
        np.testing.assert_array_equal(g.degree, emb_deg[p::size])
        assert sorted(g.order.tolist()) == list(range(g.num_local))
        np.testing.assert_array_equal(g.sorted_id[g.order], np.arange(g.num_local))
        d = g.degree[g.order]
        assert (np.diff(d) <= 0).all()
        assert (np.diff(g.order)[np.diff(d) == 0] > 0).all()
        # column CSR entries back to global (u, v): u by column index, v by sorted row index
        assert g.cindptr.shape[0] == grid.col_length + 1
        c = np.repeat(np.arange(grid.col_length), np.diff(g.cindptr))
        r = g.cindices.astype(np.int64)
        assert ((0 <= r) & (r < grid.row_length)).all()
        k, s = r // block, r % block
        orig = orders[grid.rank_of(grid.row, k), s]
        assert (orig >= 0).all()  # no entry points into a block's padding
        u, v = grid.col_vertex(c), grid.row_vertex(k * block + orig)
        assert (u < n).all() and (v < n).all()
        np.testing.assert_array_equal(grid.edge_owner(u, v), np.full(u.shape, p))
        code = u * n + v
        assert np.unique(code).size == code.size  # no duplicates in the block
        got.append(code)
        # every row of the column CSR strictly ascending (sorted, no duplicate neighbours)
        first_c = np.zeros(r.shape, bool)
        first_c[g.cindptr[:-1][np.diff(g.cindptr) > 0]] = True
        assert (np.diff(r)[~first_c[1:]] > 0).all()
        # the row CSR is the transpose of the column CSR
        assert g.rindptr.shape[0] == grid.row_length + 1
        rr = np.repeat(np.arange(grid.row_length), np.diff(g.rindptr))
        rc = g.rindices.astype(np.int64)
        first_r = np.zeros(rc.shape, bool)
        first_r[g.rindptr[:-1][np.diff(g.rindptr) > 0]] = True
        # a row's neighbours busiest first (the embedded degree), ties by column index
        key = -emb_deg[grid.col_vertex(rc)] * grid.col_length + rc
        assert (np.diff(key)[~first_r[1:]] > 0).all()
        np.testing.assert_array_equal(np.sort(rc * grid.row_length + rr),
                                      np.sort(c * grid.row_length + r))
    np.testing.assert_array_equal(np.sort(np.concatenate(got)), want)
    assert sum(g.num_entries for g in graphs) == want.size


# ---- the searcher ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def search_graph():
    """Edges, roots (three of the reference's and an isolated vertex) and, per root, the BFS
    depths by scipy (-1: unreached)."""
    edges = kronecker(SEARCH_SCALE)
    n = edges.num_vertices
    csr = build_csr(edges)
    degree = np.diff(csr.indptr)
    isolated = np.flatnonzero(degree == 0)
    assert isolated.size, "the test graph has no isolated vertex"
    roots = choose_roots(degree > 0, (2, 3), 3).tolist() + [int(isolated[-1])]
    a = sp.coo_matrix((np.ones(len(edges.src)), (edges.src, edges.dst)), shape=(n, n)).tocsr()
    dist = shortest_path(a, directed=False, unweighted=True, indices=roots)
    depths = np.where(np.isinf(dist), -1, dist).astype(np.int64)
    return edges, roots, depths


def _graph_recording_folds(comm, grid, row_comm, col_comm, scale, algorithm, record):
    """This rank's part of the 2D graph, and the list its fold packets are recorded into
    (``record(packet, dest)`` of each; not a bottom-up level's bitmaps) as they are sent."""
    edges = generate_local(comm, scale)
    graph = build_2d(comm, grid, edges, row_comm, col_comm,
                     transpose=algorithm == "direction-optimizing")
    packets = []
    send = row_comm.isend

    def recorded(packet, dest, tag=0):
        if tag == search2d._TAG:
            packets.append(record(np.asarray(packet), dest))
        return send(packet, dest, tag)

    row_comm.isend = recorded
    return graph, packets


def _search_rank(comm, grid, row_comm, col_comm, scale, algorithm, roots):
    """Both packet formats from every root on this rank: per mode and root, (parent, levels,
    the bytes of each fold packet this rank sent)."""
    graph, packets = _graph_recording_folds(comm, grid, row_comm, col_comm, scale, algorithm,
                                            lambda packet, dest: int(packet.nbytes))
    out = {}
    for mode in COMPRESS_MODES:
        searcher = Searcher2D(comm, graph, row_comm, col_comm, algorithm, mode,
                              packet_bytes=PACKET)
        out[mode] = []
        for root in roots:
            packets.clear()
            res = searcher.search(root)
            out[mode].append((res.parent, res.levels, list(packets)))
    return out


def _tree_depth(parent, root):
    """Depth of every vertex in the tree ``parent`` (-1 where unreached)."""
    depth = np.full(parent.shape, -1, dtype=np.int64)
    depth[root] = 0
    while True:
        todo = (depth < 0) & (parent >= 0)
        step = todo & (depth[np.where(todo, parent, root)] >= 0)
        if not step.any():
            return depth
        depth[step] = depth[parent[step]] + 1


@pytest.mark.parametrize("algorithm", ALGORITHMS_2D)
@pytest.mark.parametrize("mesh", MESHES)
def test_search_matches_scipy_in_both_formats(mesh, algorithm, search_graph):
    """Valid trees with scipy's depths; the packet format changes bytes only, never what is
    found or sent (64-byte packets: every level splits its fold into many)."""
    edges, roots, depths = search_graph
    n = edges.num_vertices
    rows, cols = mesh
    size = rows * cols
    ranks = _on_mesh(mesh, _search_rank, n, SEARCH_SCALE, algorithm, roots)
    many_packets = bottom_up = 0
    for t, root in enumerate(roots):
        want = depths[t]
        runs = {}
        for mode in COMPRESS_MODES:
            parent = np.empty(n, dtype=np.int64)
            for p in range(size):
                parent[p::size] = ranks[p][mode][t][0]
            rep = validate(edges, parent, root)
            assert rep.valid, (mode, root, rep.message)
            assert rep.num_visited == (want >= 0).sum()
            np.testing.assert_array_equal(_tree_depth(parent, root), want)
            levels = [ranks[p][mode][t][1] for p in range(size)]
            assert all(set(lv) == set(LEVEL_FIELDS_2D) for lv in levels)
            frontier = sum(lv["queue"] for lv in levels)
            found = sum(lv["enqueued_local"] + lv["enqueued_received"] for lv in levels)
            # level i starts with the vertices at depth i and finds those at depth i + 1
            per_depth = np.bincount(want[want >= 0], minlength=frontier.size + 1)
            np.testing.assert_array_equal(frontier, per_depth[:frontier.size])
            np.testing.assert_array_equal(found, per_depth[1:frontier.size + 1])
            assert found[-1] == 0
            np.testing.assert_array_equal(sum(lv["sent"] for lv in levels),
                                          sum(lv["received"] for lv in levels))
            for p in range(size):
                lv, sizes = levels[p], ranks[p][mode][t][2]
                assert all(b <= PACKET for b in sizes)
                assert sum(sizes) == lv["fold_bytes"].sum()
                # each peer's last packet of every level, and every full one before it
                assert len(sizes) >= (cols - 1) * frontier.size
                many_packets += len(sizes) > (cols - 1) * frontier.size
                if mode == "none":  # raw pairs of two 4-byte fields after each header
                    assert lv["fold_bytes"].sum() == (HEADER_BYTES * len(sizes)
                                                      + 8 * lv["sent"].sum())
            runs[mode] = levels
            bottom_up += int(levels[0]["direction"].sum())
        for p in range(size):
            for field in SAME_PER_RANK:
                np.testing.assert_array_equal(runs["vlq"][p][field], runs["none"][p][field],
                                              err_msg=f"{field} on rank {p}, root {root}")
        vlq = sum(lv["fold_bytes"].sum() for lv in runs["vlq"])
        raw = sum(lv["fold_bytes"].sum() for lv in runs["none"])
        if sum(lv["sent"].sum() for lv in runs["vlq"]):
            assert vlq < raw, (vlq, raw)
        else:  # one processor-column, or an isolated root: only the empty last packets
            assert cols == 1 or (want >= 0).sum() == 1
            assert vlq == raw == HEADER_BYTES * (cols - 1) * size
    assert (many_packets > 0) == (cols > 1)  # several packets per peer in a level
    assert (bottom_up > 0) == (algorithm == "direction-optimizing")


def _overlap_rank(comm, grid, row_comm, col_comm, scale, algorithm, roots):
    """Every fold and compress mode with the fold overlapped (``pipeline``) and not, from
    every root: per (fold, compress, pipeline) and root, (parent, levels, the bytes of every
    fold packet this rank sent, in order)."""
    graph, packets = _graph_recording_folds(comm, grid, row_comm, col_comm, scale, algorithm,
                                            lambda packet, dest: (int(dest), packet.tobytes()))
    out = {}
    for fold in FOLD_MODES:
        for mode in COMPRESS_MODES:
            for pipeline in (False, True):
                searcher = Searcher2D(comm, graph, row_comm, col_comm, algorithm, mode,
                                      packet_bytes=PACKET, fold=fold, pipeline=pipeline)
                runs = out[fold, mode, pipeline] = []
                for root in roots:
                    packets.clear()
                    res = searcher.search(root)
                    runs.append((res.parent, res.levels, list(packets)))
    return out


def _first_nearest_parent(edges, depth, root, mesh):
    """The top-down parent each vertex gets on the R x C ``mesh`` (``claim_pairs``): of its
    neighbours one level up, one from its own processor-column if any, else from the nearest
    column after it; within a column the first in that column's scan order (column index c
    ascending, ``td_scan``). -1 where unreached."""
    rows, cols = mesh
    size = rows * cols
    block = Grid2D(edges.num_vertices, rows, cols, 0).block
    u = np.concatenate([edges.src, edges.dst])
    v = np.concatenate([edges.dst, edges.src])
    up = (depth[v] > 0) & (depth[u] == depth[v] - 1)
    u, v = u[up], v[up]
    column = (u % size) // rows
    nearest = (column - (v % size) // rows) % cols
    scan = (u % size - column * rows) * block + u // size  # c, u's column index in its column
    order = np.lexsort((scan, nearest, v))
    first = np.ones(order.size, dtype=bool)
    first[1:] = v[order][1:] != v[order][:-1]
    parent = np.full(edges.num_vertices, -1, dtype=np.int64)
    parent[v[order][first]] = u[order][first]
    parent[root] = root
    return parent


@pytest.mark.parametrize("algorithm", ALGORITHMS_2D)
@pytest.mark.parametrize("mesh", [(2, 2), (2, 3)])
def test_overlapped_fold_sends_what_the_plain_fold_sends(mesh, algorithm, search_graph,
                                                        monkeypatch):
    """``pipeline`` (the fold's packets sent and claimed while the scan goes on, the first 4
    runs of own entries of a level deferred) against the fold after the scan, in every
    fold and compress mode: valid trees with scipy's depths, the same tree, every rank's
    packets byte for byte in the same order, and every per-level count but the times.
    Top-down, every parent is the one ``_first_nearest_parent`` names, whatever order the
    packets arrived in."""
    monkeypatch.setattr(search2d, "DEFERRED_RUNS", 4)
    edges, roots, depths = search_graph
    n = edges.num_vertices
    size = mesh[0] * mesh[1]
    ranks = _on_mesh(mesh, _overlap_rank, n, SEARCH_SCALE, algorithm, roots)
    same = [f for f in LEVEL_FIELDS_2D if not f.endswith("time")]
    for t, root in enumerate(roots):
        want = (_first_nearest_parent(edges, depths[t], root, mesh)
                if algorithm == "topdown-queue" else None)
        for fold in FOLD_MODES:
            for mode in COMPRESS_MODES:
                for pipeline in (False, True):
                    parent = np.empty(n, dtype=np.int64)
                    for p in range(size):
                        parent[p::size] = ranks[p][fold, mode, pipeline][t][0]
                    rep = validate(edges, parent, root)
                    assert rep.valid, (fold, mode, pipeline, root, rep.message)
                    np.testing.assert_array_equal(_tree_depth(parent, root), depths[t])
                    if want is not None:
                        np.testing.assert_array_equal(parent, want,
                                                      err_msg=f"{fold} {mode} {pipeline}")
                for p in range(size):
                    off = ranks[p][fold, mode, False][t]
                    on = ranks[p][fold, mode, True][t]
                    np.testing.assert_array_equal(on[0], off[0], err_msg=f"{fold} {mode} {p}")
                    assert on[2] == off[2], (fold, mode, root, p)
                    for field in same:
                        np.testing.assert_array_equal(on[1][field], off[1][field],
                                                      err_msg=f"{field} {fold} {mode} {p}")
                if t == 0:  # the first root reaches the giant component: many packets
                    assert sum(len(ranks[p][fold, mode, True][t][2]) for p in range(size)) > \
                        size * (mesh[1] - 1) * len(ranks[0][fold, mode, True][t][1]["queue"])


def test_overlapped_fold_claims_after_the_levels_last_packets(search_graph, monkeypatch):
    """With ``pipeline`` a top-down level claims nothing (own entries, peers' packets) from its
    first packet sent until its last packets to every peer have left: the packets taken off
    the network meanwhile, and the own entries, are claimed while the last packets travel."""
    streams = {}  # per rank thread, its fold events in order

    def log(kind):
        streams.setdefault(threading.get_ident(), []).append(kind)

    claim_pairs, claim_deferred = search2d.claim_pairs, search2d.claim_deferred
    monkeypatch.setattr(search2d, "claim_pairs", lambda *a: (log("claim"), claim_pairs(*a))[1])
    monkeypatch.setattr(search2d, "claim_deferred",
                        lambda *a: (log("own"), claim_deferred(*a))[1])
    edges, roots, _ = search_graph
    mesh = (2, 2)

    def rank(comm, grid, row_comm, col_comm):
        graph, _ = _graph_recording_folds(
            comm, grid, row_comm, col_comm, SEARCH_SCALE, "topdown-queue",
            lambda packet, dest: log("last" if packet[4] & FLAG_LAST else "full"))
        receive = row_comm.recv_packet

        def recorded(tag=0, block=True):
            got = receive(tag, block=block)
            if got is not None and tag == search2d._TAG and not block:
                log("took")
            return got

        row_comm.recv_packet = recorded
        searcher = Searcher2D(comm, graph, row_comm, col_comm, "topdown-queue",
                              packet_bytes=PACKET, pipeline=True)
        for root in roots:
            searcher.search(root)
        return streams[threading.get_ident()]

    took = own = 0
    for stream in _on_mesh(mesh, rank, edges.num_vertices):
        sending, lasts = False, 0
        for kind in stream:
            if kind in ("full", "last"):
                sending = True
                lasts += kind == "last"
                if lasts == mesh[1] - 1:  # the level's last packets have all left
                    sending, lasts = False, 0
            elif kind in ("claim", "own"):
                assert not sending, stream
                own += kind == "own"
            else:
                took += sending
    assert took > 0 and own > 0  # packets did arrive during scans; own entries were deferred


def test_searcher_rejects_what_it_cannot_do():
    def body(comm, grid, row_comm, col_comm):
        graph = build_2d(comm, grid, generate_local(comm, 6), row_comm, col_comm,
                         transpose=False)
        with pytest.raises(InputError, match="row CSR"):
            Searcher2D(comm, graph, row_comm, col_comm, "direction-optimizing")
        with pytest.raises(InputError, match="too small"):
            Searcher2D(comm, graph, row_comm, col_comm, "topdown-queue", packet_bytes=32)
        with pytest.raises(InputError, match="^compress must be"):
            Searcher2D(comm, graph, row_comm, col_comm, "topdown-queue", "zip")
        with pytest.raises(InputError, match="root"):
            Searcher2D(comm, graph, row_comm, col_comm, "topdown-queue").search(1 << 6)
        return True

    assert _on_mesh((1, 1), body, 1 << 6) == [True]


# ---- the engine through the command, in this process ----------------------------------------

def _run(tmp_path, name, *extra):
    out = tmp_path / f"{name}.json"
    assert cli.main(["run", "--scale", "10", "--roots", "4", "--quiet", "--json", str(out),
                     *extra]) == 0
    return json.loads(out.read_text())


def test_run_partition_2d_on_one_process(tmp_path, capsys):
    doc = _run(tmp_path, "2d", "--partition", "2d", "--pipeline")
    embedded = _run(tmp_path, "embedded")
    dist1d = _run(tmp_path, "1d", "--distributed")
    assert capsys.readouterr().out.count("SCALE:") == 3
    params = doc["parameters"]
    assert params["partition"] == "2d" and params["grid"] == [1, 1]
    assert params["compress"] == "vlq" and doc["distributed"]["partition"] == "2d"
    assert doc["distributed"]["pipeline"] is True
    assert doc["valid"] and len(doc["runs"]) == 4
    assert doc["roots"] == embedded["roots"] == dist1d["roots"]
    nedge = [r["nedge"] for r in doc["runs"]]
    assert nedge == [r["nedge"] for r in embedded["runs"]] == [r["nedge"] for r in dist1d["runs"]]
    for run, emb in zip(doc["runs"], embedded["runs"]):
        assert run["valid"] and run["root"] == emb["root"]
        assert [lv["frontier"] for lv in run["levels"]] == [lv["frontier"] for lv in emb["levels"]]
        for lv in run["levels"]:
            # one process: no peer to expand to or fold to
            assert lv["expand_bytes"] == lv["fold_bytes"] == lv["fold_bytes_raw"] == 0


@pytest.mark.parametrize("argv,needle", [
    (["--partition", "2d", "--grid", "2x2"], "--grid 2x2 is a mesh of 4 processes"),
    (["--partition", "2d", "--grid", "0x1"], "--grid 0x1"),
    (["--partition", "2d", "--grid", "x"], "--grid must be RxC"),
    (["--compress", "none"], "--compress applies to partition 2d"),
    (["--grid", "1x1"], "--grid applies to partition 2d"),
    (["--partition", "2d", "--prune", "none"], "--prune"),
    (["--partition", "2d", "--kernel", "sssp"], "kernel 3"),
    (["--partition", "2d", "--backend", "gpu"], "--partition 2d runs on the CPU"),
])
def test_bad_2d_input_is_one_line_exit_2(argv, needle, tmp_path, capsys):
    out = tmp_path / "r.json"
    assert cli.main(["run", "--scale", "8", "--roots", "2", "--json", str(out), *argv]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("graph500: error: "), captured.err
    assert needle in lines[0]
    assert captured.out == "" and not out.exists()
