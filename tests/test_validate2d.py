"""The 2D validator (paper 001 section 5.2) against the embedded one, on ThreadComm meshes.

Oracles: the embedded ``validate`` / ``count_component_edges`` on the whole edge list and the
gathered parent array; the broken trees of test_distributed (one per rule) and a few more.
"""
import numpy as np
import pytest

import pygraph500.distributed.validate2d as v2d
from pygraph500 import build_csr, choose_roots, kronecker, validate
from pygraph500.bfs import ALGORITHMS
from pygraph500.distributed import (DistSearcher, SerialComm, ThreadComm, build_dist,
                                    generate_local)
from pygraph500.distributed.generate import LocalEdges
from pygraph500.distributed.grid import Grid2D
from pygraph500.distributed.validate2d import (Tuples2D, count_component_edges_2d,
                                               distribute_tuples, validate_2d)
from pygraph500.errors import InputError
from pygraph500.validate import count_component_edges

from test_distributed import _broken_trees

SCALE = 10
MESHES = [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3), (1, 3)]
FIELDS = ("valid", "rule", "vertex", "edge", "edge_index", "nedge", "num_self_loops",
          "num_visited", "max_depth", "message")


@pytest.fixture(scope="module")
def graph():
    edges = kronecker(SCALE)
    csr = build_csr(edges)
    root = int(choose_roots(csr.degree() > 0, (2, 3), 1)[0])
    return edges, csr, root


def _on_mesh(mesh, fn, *args):
    """``fn(comm, grid, row_comm, col_comm, *args)`` on every rank of an R x C mesh (the
    1 x 1 mesh on SerialComm); the results by rank."""
    rows, cols = mesh

    def body(comm):
        grid = Grid2D(1 << SCALE, rows, cols, comm.rank)
        row_comm = comm.split(grid.row, grid.col)
        col_comm = comm.split(grid.col, grid.row)
        return fn(comm, grid, row_comm, col_comm, *args)

    if rows * cols == 1:
        return [body(SerialComm())]
    return ThreadComm.run(rows * cols, body)


def _fields(rep):
    return tuple(getattr(rep, f) for f in FIELDS)


def _more_trees(edges, csr, root):
    """Broken trees beyond one per rule: several offenders (the smallest must be named), a
    self-parent vertex, a longer cycle."""
    good = ALGORITHMS["reference"](csr, root).parent
    depth = validate(edges, good, root).depth
    deep = np.flatnonzero(depth >= 2)
    out = {}
    p = good.copy()
    p[deep[::7]] = root  # many tree edges that are not input edges
    out["tree-edge-in-graph"] = p
    kids = set(good[good >= 0].tolist())
    leaves = [v for v in np.flatnonzero(good >= 0) if v not in kids and v != root]
    p = good.copy()
    p[leaves[::5]] = -1  # many component vertices left unreached
    out["component"] = p
    p = good.copy()
    p[deep[4]] = deep[4]
    out["no-cycles"] = p
    # a 3-cycle: a, its parent b and b's parent c point round
    a = next(v for v in deep if depth[v] >= 3)
    b, c = good[a], good[good[a]]
    p = good.copy()
    p[c] = a
    out["no-cycles-3"] = p
    return out


def _verdicts(comm, grid, row_comm, col_comm, edges_trees, root, wrong_root):
    e = generate_local(comm, SCALE)
    tuples = distribute_tuples(comm, grid, e)
    del e  # validation needs only the 2D tuples
    out = {}
    for name, parent in edges_trees.items():
        rep = validate_2d(comm, grid, row_comm, col_comm, tuples,
                          parent[comm.rank::comm.size].copy(), root)
        out[name] = _fields(rep)
    good = edges_trees["valid"][comm.rank::comm.size].copy()
    out["wrong-root"] = _fields(validate_2d(comm, grid, row_comm, col_comm, tuples, good,
                                            wrong_root))
    short = good[:-1] if comm.rank == comm.size - 1 else good
    out["parent-length"] = _fields(validate_2d(comm, grid, row_comm, col_comm, tuples,
                                               short, root))
    out["count"] = count_component_edges_2d(comm, grid, row_comm, col_comm, tuples, good)
    return out


@pytest.mark.parametrize("mesh", MESHES, ids=lambda m: f"{m[0]}x{m[1]}")
def test_2d_validator_agrees_with_the_embedded_one(mesh, graph):
    edges, csr, root = graph
    trees = _broken_trees(edges, csr, root)
    more = _more_trees(edges, csr, root)
    trees.update({f"{k}-many" if k in trees else k: v for k, v in more.items()})
    good = trees["valid"]
    wrong_root = int(np.flatnonzero((good >= 0) & (np.arange(len(good)) != root))[0])
    runs = _on_mesh(mesh, _verdicts, trees, root, wrong_root)
    assert all(r == runs[0] for r in runs)
    got = runs[0]
    for name, parent in trees.items():
        rep = validate(edges, parent, root)
        assert got[name] == _fields(rep), name
        assert rep.rule == (None if name == "valid" else name.replace("-many", "")
                            .replace("-3", ""))
    assert got["wrong-root"] == _fields(validate(edges, good, wrong_root))
    assert got["wrong-root"][1] == "root-self-parent"
    assert got["parent-length"] == _fields(validate(edges, good[:-1], root))
    assert got["count"] == count_component_edges(edges, good)
    assert got["valid"][0] and got["valid"][5] == got["count"] > 0


def _layout(comm, grid, row_comm, col_comm):
    e = generate_local(comm, SCALE)
    t = distribute_tuples(comm, grid, e)
    return t.src, t.dst, t.index, t.num_edges


@pytest.mark.parametrize("mesh", [(1, 1), (2, 3), (3, 1)], ids=lambda m: f"{m[0]}x{m[1]}")
def test_tuples_are_distributed_once_each_to_their_entry(mesh, monkeypatch):
    """Every tuple lands once, oriented as generated, on ``edge_owner(u, v)`` (so u is in the
    holder's column-block and v in its row-block), in rounds of unequal counts."""
    monkeypatch.setattr(v2d, "TUPLE_CHUNK", 1000)
    whole = kronecker(SCALE)
    rows, cols = mesh
    runs = _on_mesh(mesh, _layout)
    index = np.concatenate([r[2] for r in runs])
    assert sorted(index.tolist()) == list(range(len(whole.src)))
    for rank, (src, dst, idx, m) in enumerate(runs):
        assert m == len(whole.src) and src.dtype == np.int32 and idx.dtype == np.int64
        np.testing.assert_array_equal(src, whole.src[idx])
        np.testing.assert_array_equal(dst, whole.dst[idx])
        grid = Grid2D(1 << SCALE, rows, cols, rank)
        assert (grid.edge_owner(src.astype(np.int64), dst.astype(np.int64)) == rank).all()
        assert (grid.col_vertex(grid.col_index(src.astype(np.int64))) == src).all()
        assert (grid.row_vertex(grid.row_index(dst.astype(np.int64))) == dst).all()


def _searched(comm, grid, row_comm, col_comm, root):
    e = generate_local(comm, SCALE)
    tuples = distribute_tuples(comm, grid, e)
    g = build_dist(comm, e)
    result = DistSearcher(comm, g).search(root)
    rep = validate_2d(comm, grid, row_comm, col_comm, tuples, result.parent, root)
    full, counts = comm.allgatherv(result.parent)
    parent = np.empty(grid.num_vertices, dtype=np.int64)
    off = 0
    for r in range(comm.size):
        parent[r::comm.size] = full[off:off + counts[r]]
        off += counts[r]
    return _fields(rep), parent


@pytest.mark.parametrize("mesh", [(2, 2), (2, 3)], ids=lambda m: f"{m[0]}x{m[1]}")
def test_the_1d_engines_trees_validate_on_the_mesh(mesh, graph):
    """The 1D engine's parent arrays (vertex ownership is the same) pass on the mesh."""
    edges, _, root = graph
    for got, parent in _on_mesh(mesh, _searched, root):
        assert got == _fields(validate(edges, parent, root)) and got[0]


def _traffic(comm, grid, row_comm, col_comm, parent, root):
    """Entries moved by every collective of two validations: on the tuples, and on the
    tuples three times over (same parent)."""
    t = distribute_tuples(comm, grid, generate_local(comm, SCALE))
    triple = Tuples2D(np.tile(t.src, 3), np.tile(t.dst, 3),
                      np.concatenate([t.index + k * t.num_edges for k in range(3)]),
                      3 * t.num_edges, t.num_vertices)
    log = []
    for c in (comm, row_comm, col_comm):
        for name in ("alltoallv", "allgather", "allreduce", "allgatherv"):
            _record(c, name, log)
    out = []
    for tuples in (t, triple):
        log.clear()
        rep = validate_2d(comm, grid, row_comm, col_comm, tuples,
                          parent[comm.rank::comm.size].copy(), root)
        out.append((rep.nedge, list(log)))
    return out


def _record(comm, name, log):
    real = getattr(comm, name)

    def wrapper(data, *args, **kw):
        log.append((name, int(np.size(data)) if isinstance(data, np.ndarray) else 1))
        return real(data, *args, **kw)

    setattr(comm, name, wrapper)


def test_no_tuple_moves_during_validation(graph):
    """The traffic of a validation does not grow with the tuples (three times as many give
    the same messages); the mesh lines carry R x L and C x L entries."""
    edges, csr, root = graph
    good = ALGORITHMS["reference"](csr, root).parent
    for (n1, log1), (n3, log3) in _on_mesh((2, 3), _traffic, good, root):
        assert n3 == 3 * n1 == 3 * validate(edges, good, root).nedge
        assert log1 == log3
        assert max(size for _, size in log1) <= 3 * (1 << SCALE) // 2 + 3


def test_bad_labels_are_reported_by_every_rank():
    """The smallest global index with a label outside [0, N), as the 1D edge pass words it."""
    def body(comm, grid, row_comm, col_comm):
        src = np.array([0, 1, 2, 3])
        dst = np.array([1, 2, 3, 4]) if comm.rank == 0 else np.array([1, -1, 1 << SCALE, 2])
        e = LocalEdges(src, dst, 4 * comm.rank, 4 * comm.size, 1 << SCALE)
        try:
            distribute_tuples(comm, grid, e)
        except InputError as exc:
            return str(exc)

    assert _on_mesh((2, 2), body) == ["input edge #5 (1, -1) has an endpoint outside "
                                      "[0, 1024)"] * 4


def test_mesh_communicators_are_checked(graph):
    def body(comm, grid, row_comm, col_comm):
        t = distribute_tuples(comm, grid, generate_local(comm, SCALE))
        with pytest.raises(InputError, match="row_comm"):
            validate_2d(comm, grid, col_comm, row_comm, t, np.full(256, -1), 0)
        with pytest.raises(InputError, match="parent: expected 1024"):
            count_component_edges_2d(comm, grid, row_comm, col_comm, t, np.full(3, -1))
        return True

    assert _on_mesh((1, 3), body) == [True] * 3
