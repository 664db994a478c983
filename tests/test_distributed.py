"""The distributed engine without mpiexec: P ranks as threads (ThreadComm) or one (SerialComm).

Oracles: the embedded generator, kernel 1 and validator (themselves checked against the
Graph500 reference and scipy); hand-made broken trees for every validation rule.
"""
import hashlib
import io
from contextlib import redirect_stderr

import numpy as np
import pytest

import pygraph500.distributed.search1d as dsearch
from pygraph500 import build_csr, choose_roots, kronecker, validate
from pygraph500.bfs import ALGORITHMS
from pygraph500.benchmark import RunConfig
from pygraph500.benchmark.distributed import (check_distributed, combine_levels,
                                              estimate_rank_bytes, run_distributed)
from pygraph500.benchmark.roots import choose_roots_with
from pygraph500.distributed import (DIST_ALGORITHMS, LEVEL_FIELDS, PRUNE_MODES, DistSearcher,
                             Partition1D, SerialComm, ThreadComm, abort_on_error, build_dist,
                             collective_check, edge_range, generate_local)
from pygraph500.distributed.validate import count_component_edges_dist, validate_dist
from pygraph500.errors import InputError, ResourceError
from pygraph500.report import format_dist_levels
from pygraph500.validate import count_component_edges

from conftest import REFERENCE_CASES, load_reference

SIZES = [1, 2, 3, 4]
SCALE = 10


@pytest.fixture(scope="module")
def graph():
    edges = kronecker(SCALE)
    csr = build_csr(edges)
    roots = choose_roots(csr.degree() > 0, (2, 3), 3)
    return edges, csr, roots


def gather_parent(comm, part, local):
    """The global parent array from every rank's local one (rank blocks are v % P)."""
    allp, counts = comm.allgatherv(local)
    parent = np.empty(part.num_vertices, dtype=np.int64)
    off = 0
    for r in range(comm.size):
        parent[r::comm.size] = allp[off:off + counts[r]]
        off += counts[r]
    return parent


# ---- communicators ---------------------------------------------------------------------------

def _collectives(comm):
    r, p = comm.rank, comm.size
    # rank r sends r + j rows of [r, j, k] to rank j, blocks in rank order
    counts = np.array([r + j for j in range(p)], dtype=np.int64)
    send = np.array([[r, j, k] for j in range(p) for k in range(r + j)], dtype=np.int64)
    send = send.reshape(-1, 3)
    recv, rc = comm.alltoallv(send, counts)
    # the same with explicit displacements and the own block left out
    displs = np.concatenate(([0], np.cumsum(counts)[:-1]))
    c2 = counts.copy()
    c2[r] = 0
    recv2, rc2 = comm.alltoallv(send, c2, displs=displs)
    return (recv, rc, recv2, rc2, comm.allgather((r, "x")), comm.allgather(np.full(2, r)),
            comm.allgatherv(np.arange(r + 1)), comm.allreduce(r + 1), comm.allreduce(r, "max"),
            comm.allreduce(np.array([r, -r]), "min"), comm.allreduce(0.5), comm.bcast(r * 10, root=p - 1))


@pytest.mark.parametrize("size", SIZES)
def test_comm_collectives(size):
    runs = ThreadComm.run(size, _collectives) if size > 1 else [_collectives(SerialComm())]
    for r, (recv, rc, recv2, rc2, objs, arrs, (gv, gc), s, mx, mn, fl, b) in enumerate(runs):
        want = np.array([[i, r, k] for i in range(size) for k in range(i + r)]).reshape(-1, 3)
        np.testing.assert_array_equal(recv, want)
        assert rc.tolist() == [i + r for i in range(size)]
        np.testing.assert_array_equal(recv2, want[want[:, 0] != r])
        assert rc2[r] == 0
        assert objs == [(i, "x") for i in range(size)]
        np.testing.assert_array_equal(arrs, np.repeat(np.arange(size), 2).reshape(size, 2))
        np.testing.assert_array_equal(gv, np.concatenate([np.arange(i + 1) for i in range(size)]))
        assert gc.tolist() == list(range(1, size + 1))
        assert s == size * (size + 1) // 2 and mx == size - 1 and fl == 0.5 * size
        assert mn.tolist() == [0, -(size - 1)] and b == (size - 1) * 10


def test_thread_comm_failure_breaks_the_others():
    def body(comm):
        if comm.rank == 1:
            raise ValueError("rank 1 fails")
        comm.barrier()

    with pytest.raises(ValueError, match="rank 1 fails"):
        ThreadComm.run(3, body, timeout=30)


def test_collective_check_reports_one_error_everywhere():
    def body(comm):
        def check():
            if comm.rank == 2:
                raise InputError("bad on rank 2", "scale")
        error = collective_check(comm, check)
        return type(error), str(error), error.param

    # every rank raises the same error, its parameter kept (the CLI says it as its flag)
    assert ThreadComm.run(3, body) == [(InputError, "bad on rank 2", "scale")] * 3
    assert collective_check(SerialComm(), lambda: None) is None


class _Recorder(SerialComm):
    def __init__(self):
        self.code = None

    def abort(self, code=1):
        self.code = code


@pytest.mark.parametrize("exc,code", [(InputError("no such thing"), 2), (RuntimeError("boom\nmore"), 1)])
def test_abort_on_error_prints_one_line_and_aborts(exc, code):
    comm = _Recorder()
    err = io.StringIO()
    with redirect_stderr(err), pytest.raises(type(exc)):
        with abort_on_error(comm):
            raise exc
    assert comm.code == code
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("graph500: error: ")
    assert "\n" not in lines[0] and str(exc).splitlines()[0] in lines[0]


# ---- partition, generation, kernel 1 ---------------------------------------------------------

@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_partition_and_edge_ranges(size):
    n, m = 37, 101
    parts = [Partition1D(n, size, r) for r in range(size)]
    assert sum(p.num_local for p in parts) == n
    assert max(p.num_local for p in parts) == parts[0].max_local
    owned = np.concatenate([p.global_ids() for p in parts])
    assert sorted(owned.tolist()) == list(range(n))
    for p in parts:
        g = p.global_ids()
        assert (p.owner(g) == p.rank).all() and (p.to_global(p.local(g)) == g).all()
    ranges = [edge_range(m, size, r) for r in range(size)]
    assert ranges[0][0] == 0 and ranges[-1][1] == m
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))


def _digest(comm):
    e = generate_local(comm, SCALE)
    src, _ = comm.allgatherv(e.src)
    dst, _ = comm.allgatherv(e.dst)
    return hashlib.sha256(np.stack([src, dst], axis=1).tobytes()).hexdigest()


@pytest.mark.parametrize("name,scale,ef,seed", REFERENCE_CASES)
def test_distributed_generation_is_the_reference(name, scale, ef, seed):
    """P = 1, 2, 3 ranks' ranges concatenate to the reference program's own edge list."""
    ref, _ = load_reference(name)

    def gather(comm):
        e = generate_local(comm, scale, ef, seed)
        return np.column_stack([comm.allgatherv(e.src)[0], comm.allgatherv(e.dst)[0]])

    for size in (1, 2, 3):
        for got in ThreadComm.run(size, gather):
            np.testing.assert_array_equal(got, ref)


def test_generation_union_is_the_same_for_every_size():
    whole = kronecker(SCALE)
    want = hashlib.sha256(np.stack([whole.src, whole.dst], axis=1).tobytes()).hexdigest()
    for size in SIZES:
        assert set(ThreadComm.run(size, _digest)) == {want}


def _rows(comm, compact):
    g = build_dist(comm, generate_local(comm, SCALE), compact_columns=compact)
    return g.part.global_ids(), g.indptr, g.indices, g.column, g.num_columns


@pytest.mark.parametrize("size", SIZES)
def test_kernel1_gives_the_embedded_rows(size, graph):
    _, csr, _ = graph
    for ids, indptr, indices, column, ncol in ThreadComm.run(size, _rows, True):
        for k, v in enumerate(ids.tolist()):
            np.testing.assert_array_equal(indices[indptr[k]:indptr[k + 1]], csr.neighbours(v))
        # compact columns: the rank of each neighbour among the distinct ones
        distinct = np.unique(indices)
        assert ncol == distinct.shape[0]
        np.testing.assert_array_equal(column, np.searchsorted(distinct, indices))


def test_kernel1_in_many_rounds(graph, monkeypatch):
    import pygraph500.distributed.build as dbuild

    monkeypatch.setattr(dbuild, "BUILD_CHUNK", 1000)
    _, csr, _ = graph
    for ids, indptr, indices, _, _ in ThreadComm.run(3, _rows, False):
        for k, v in enumerate(ids.tolist()):
            np.testing.assert_array_equal(indices[indptr[k]:indptr[k + 1]], csr.neighbours(v))


def test_kernel1_rejects_bad_labels():
    from pygraph500.distributed.generate import LocalEdges

    bad = LocalEdges(np.array([0, 5]), np.array([1, 16]), 0, 2, 16)
    with pytest.raises(InputError, match="edge tuple 1"):
        build_dist(SerialComm(), bad)


# ---- BFS ---------------------------------------------------------------------------------------

def _search(comm, roots, prune, algorithm):
    g = build_dist(comm, generate_local(comm, SCALE), compact_columns=prune == "bitmap")
    s = DistSearcher(comm, g, prune, algorithm)
    out = []
    for root in roots:
        r = s.search(int(root))
        out.append((gather_parent(comm, g.part, r.parent), r.levels))
    return out


@pytest.mark.parametrize("algorithm", DIST_ALGORITHMS)
@pytest.mark.parametrize("prune", PRUNE_MODES)
@pytest.mark.parametrize("size", SIZES)
def test_bfs_trees_are_valid(size, prune, algorithm, graph):
    edges, _, roots = graph
    runs = ThreadComm.run(size, _search, roots, prune, algorithm)
    for r, per_root in enumerate(runs):
        for root, (parent, levels) in zip(roots.tolist(), per_root):
            assert validate(edges, parent, root).valid
            assert set(levels) == set(LEVEL_FIELDS)
            assert len({len(v) for v in levels.values()}) == 1
            if algorithm == "topdown-queue":
                assert (levels["direction"] == 0).all()
                # nothing is sent to oneself; what is sent arrives somewhere
                assert (levels["local"] + levels["sent"] == levels["nlf_pruned"]).all()
            if size == 1:
                assert (levels["sent"] == 0).all() and (levels["received"] == 0).all()
    # every rank's levels add up: what is sent is received
    for i in range(len(roots)):
        lv = [per_root[i][1] for per_root in runs]
        assert sum(x["sent"].sum() for x in lv) == sum(x["received"].sum() for x in lv)


@pytest.mark.parametrize("pack,unique_bits", [(False, 15), (True, 2), (False, 3)])
def test_bfs_general_paths(pack, unique_bits, graph, monkeypatch):
    """The unpacked (key, parent) arrays (graphs too large to pack) and many unique blocks."""
    monkeypatch.setattr(dsearch, "PACK_PARENTS", pack)
    monkeypatch.setattr(dsearch, "UNIQUE_BITS", unique_bits)
    edges, _, roots = graph
    for size in (1, 3):
        for parent, levels in ThreadComm.run(size, _search, roots, "sort-unique",
                                             "topdown-queue")[0]:
            assert validate(edges, parent, int(parent[parent == np.arange(len(parent))][0])).valid


def test_sort_unique_sends_fewer_bytes_than_none(graph):
    _, _, roots = graph
    sent = {}
    for prune in PRUNE_MODES:
        runs = ThreadComm.run(4, _search, roots, prune, "topdown-queue")
        sent[prune] = sum(lv["sent_bytes"].sum() for per_root in runs for _, lv in per_root)
    assert sent["sort-unique"] < sent["none"] / 2
    assert sent["bitmap"] <= sent["sort-unique"]


def test_bad_search_arguments():
    comm = SerialComm()
    g = build_dist(comm, generate_local(comm, 5))
    with pytest.raises(InputError, match="^prune must be one of"):
        DistSearcher(comm, g, "sorted")
    with pytest.raises(InputError, match="compact columns"):
        DistSearcher(comm, g, "bitmap")
    with pytest.raises(InputError, match="distributed engine runs"):
        DistSearcher(comm, g, "none", "bottomup")
    with pytest.raises(InputError, match="not a vertex"):
        DistSearcher(comm, g).search(32)


# ---- validation ------------------------------------------------------------------------------

def _broken_trees(edges, csr, root):
    """One parent array breaking each rule, and the good one."""
    good = ALGORITHMS["reference"](csr, root).parent
    depth = validate(edges, good, root).depth
    reached = np.flatnonzero((good >= 0) & (np.arange(len(good)) != root))
    unreached = np.flatnonzero(good < 0)
    out = {"valid": good}
    p = good.copy()
    p[reached[3]] = len(good) + 5
    out["parent-range"] = p
    p = good.copy()
    p[root] = reached[0]
    out["root-self-parent"] = p
    p = good.copy()
    p[reached[5]] = unreached[0]
    out["parent-visited"] = p
    a = next(v for v in reached if good[v] != root)
    p = good.copy()
    p[good[a]] = a
    out["no-cycles"] = p
    p = good.copy()
    p[np.flatnonzero(depth >= 2)[0]] = root
    out["tree-edge-in-graph"] = p
    # a vertex at depth 1 re-hung below a depth-2 neighbour that is not its descendant
    for v in np.flatnonzero(depth == 1):
        w = next((w for w in csr.neighbours(v) if depth[w] == 2 and good[w] != v), None)
        if w is not None:
            p = good.copy()
            p[v] = w
            out["edge-levels"] = p
            break
    kids = set(good[good >= 0].tolist())
    leaf = next(v for v in reached if v not in kids)
    p = good.copy()
    p[leaf] = -1
    out["component"] = p
    return out


def _verdicts(comm, trees, root):
    e = generate_local(comm, SCALE)
    part = Partition1D(e.num_vertices, comm.size, comm.rank)
    out = {}
    for name, parent in trees.items():
        rep = validate_dist(comm, part, e, parent[comm.rank::comm.size].copy(), root)
        out[name] = (rep.valid, rep.rule, rep.vertex, rep.edge, rep.edge_index, rep.nedge,
                     rep.num_self_loops, rep.num_visited, rep.message)
    out["count"] = count_component_edges_dist(comm, part, e,
                                              trees["valid"][comm.rank::comm.size].copy())
    return out


@pytest.mark.parametrize("size", SIZES)
def test_distributed_validator_agrees_with_the_embedded_one(size, graph):
    edges, csr, roots = graph
    root = int(roots[0])
    trees = _broken_trees(edges, csr, root)
    assert set(trees) == {"valid", "parent-range", "root-self-parent", "parent-visited",
                          "no-cycles", "tree-edge-in-graph", "edge-levels", "component"}
    runs = ThreadComm.run(size, _verdicts, trees, root)
    assert all(r == runs[0] for r in runs)
    for name, parent in trees.items():
        rep = validate(edges, parent, root)
        want = (rep.valid, rep.rule, rep.vertex, rep.edge, rep.edge_index, rep.nedge,
                rep.num_self_loops, rep.num_visited, rep.message)
        assert runs[0][name] == want, name
        assert rep.rule == (None if name == "valid" else name)
    assert runs[0]["count"] == count_component_edges(edges, trees["valid"])


def test_distributed_validator_wrong_length_and_bad_input():
    comm = SerialComm()
    e = generate_local(comm, 5)
    part = Partition1D(32, 1, 0)
    rep = validate_dist(comm, part, e, np.full(31, -1), 0)
    assert rep.rule == "parent-length"
    with pytest.raises(InputError, match="root 40"):
        validate_dist(comm, part, e, np.full(32, -1), 40)
    with pytest.raises(InputError, match="1-D integer"):
        validate_dist(comm, part, e, np.zeros(32), 0)


# ---- roots and the run loop --------------------------------------------------------------------

def test_roots_with_a_lookup_are_the_reference_roots(graph):
    _, csr, _ = graph
    has = csr.degree() > 0
    want = choose_roots(has, (2, 3), 64)
    calls = []

    def lookup(v):
        calls.append(len(v))
        return has[v]

    np.testing.assert_array_equal(choose_roots_with(len(has), lookup, (2, 3), 64), want)
    assert max(calls) <= 256


def _run(comm, config):
    return run_distributed(config, comm)


@pytest.mark.parametrize("size,algorithm", [(1, "topdown-queue"), (3, "direction-optimizing")])
def test_run_distributed(size, algorithm, graph):
    _, csr, _ = graph
    config = RunConfig.of(scale=SCALE, num_roots=5, algorithm=algorithm, threads=1, prune="none")
    results = ThreadComm.run(size, _run, config) if size > 1 else [_run(SerialComm(), config)]
    want_roots = choose_roots(csr.degree() > 0, (2, 3), 5)
    for res in results:
        np.testing.assert_array_equal(res.roots, want_roots)
        assert res.valid and len(res.runs) == 5 and res.num_processes == size
        off = res.official()
        assert off["num_mpi_processes"] == size and off["NBFS"] == 5
        assert res.distributed["algorithm"] == algorithm and res.distributed["prune"] == "none"
        assert res.distributed["per_rank"]["local_vertices"] == [
            Partition1D(1 << SCALE, size, r).num_local for r in range(size)]
        lv = res.runs[0].levels
        assert lv[0]["frontier"] == 1 and len(lv[0]["per_rank"]["queue"]) == size
        reached = int((ALGORITHMS["reference"](csr, int(res.roots[0])).parent >= 0).sum())
        assert sum(x["discovered"] for x in lv) + 1 == reached
    assert all(r.roots.tolist() == results[0].roots.tolist() for r in results)
    assert [r.nedge for r in results[0].runs] == [r.nedge for r in results[-1].runs]


def test_distributed_parameter_checks():
    with pytest.raises(InputError, match="--input"):
        check_distributed(RunConfig.of(scale=5, input="x.txt", algorithm="topdown-queue"))
    with pytest.raises(InputError, match="--sort-vertices"):
        check_distributed(RunConfig.of(scale=5, sort_vertices="degree", algorithm="topdown-queue"))
    with pytest.raises(InputError, match="distributed engine runs"):
        check_distributed(RunConfig.of(scale=5, algorithm="bottomup"))
    with pytest.raises(InputError, match="^prune must be one of"):
        check_distributed(RunConfig.of(scale=5, algorithm="topdown-queue", prune="fast"))
    with pytest.raises(InputError, match="SCALE"):
        check_distributed(RunConfig.of(scale=-1, algorithm="topdown-queue"))
    with pytest.raises(ResourceError, match="needs about"):
        check_distributed(RunConfig.of(scale=40, algorithm="topdown-queue"), SerialComm())
    assert estimate_rank_bytes(1 << 20, 16 << 20, 4) < estimate_rank_bytes(1 << 20, 16 << 20, 2)
    assert estimate_rank_bytes(1 << 20, 16 << 20, 2) < estimate_rank_bytes(1 << 20, 16 << 20, 2,
                                                                            weighted=True)


def test_levels_table_and_combination():
    per_rank = []
    for r in range(2):
        lv = {k: np.array([r + 1, 2 * r + 3]) for k in LEVEL_FIELDS}
        lv["direction"] = np.array([0, 1])
        lv["comp_time"] = lv["comm_time"] = lv["time"] = np.array([0.001 * (r + 1), 0.002])
        per_rank.append(lv)
    levels = combine_levels(per_rank)
    assert [x["direction"] for x in levels] == ["top-down", "bottom-up"]
    assert levels[0]["frontier"] == 3 and levels[1]["sent_bytes"] == 8
    assert levels[0]["comp_time"] == 0.002 and levels[0]["per_rank"]["queue"] == [1, 2]
    text = format_dist_levels(levels, "# title")
    lines = text.splitlines()
    assert lines[0] == "# title" and "# per process" in lines
    assert len(lines) == 1 + 3 + 2 + 2 + 4
    # level 0 summed: CLQ 1 + 2, NLF 3, NLQ own + received = 3 + 3, QR = CLQ / NLF = 1
    assert lines[4].split()[:3] == ["0", "td", "3"] and lines[4].split()[-4:-2] == ["3+3", "1.000"]
