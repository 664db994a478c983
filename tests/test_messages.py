"""What users read: messages show plain numbers (``3``, ``0.5``, never ``np.int64(3)``) and a
file's bytes only escaped (``'\\xff'``), never raw, whatever the input or the argument types."""
from __future__ import annotations

import re
import struct
import zipfile

import numpy as np
import pytest
import scipy.sparse as sp

import pygraph500
from pygraph500.backend import check_threads
from pygraph500.errors import plain_text, shown
from pygraph500.benchmark.config import RunConfig
from pygraph500.bfs.hybrid.options import check_share, parse_lambda
from pygraph500.bfs.hybrid.tasks import check_tasks
from pygraph500.bfs.types import check_positive, check_root
from pygraph500.distributed import SerialComm, validate_sssp_dist
from pygraph500.distributed.generate import LocalEdges
from pygraph500.distributed.partition import Partition1D
from pygraph500.errors import InputError
from pygraph500.generator import check_scale, check_seed, erdos_renyi
from pygraph500.graph import EdgeList, build_csr
from pygraph500.io import read_graph
from pygraph500.validate import (as_distances, rules, validate, validate_csr, validate_sssp,
                                 validate_sssp_csr)

NUMPY_REPR = re.compile(r"np\.|numpy\.|array\(")


def plain(message: str) -> str:
    """``message``, after checking it is printable ASCII with no NumPy repr in it."""
    assert message.isascii() and message.isprintable(), ascii(message)
    assert not NUMPY_REPR.search(message), message
    return message


def raised(fn, *args, **kw) -> str:
    with pytest.raises(InputError) as info:
        fn(*args, **kw)
    return plain(str(info.value))


# ---- a user's file: its bytes reach a message only escaped ----------------------------------

@pytest.mark.parametrize("data, kw, shows", [
    (b"1 2\n\xff\xfe\x00garbage 3\n", {}, r"not an integer vertex id: '\xff\xfe\x00garbage'"),
    (b"1 2\n\xe9\x1b[31m\n", {}, r"not an integer vertex id: '\xe9\x1b[31m'"),
    (b"1 2\n5\n", {}, "one column ('5'); expected"),
    (b"0 1 0.5\n1 2 \xff\xfe\n", {"weights": True}, r"weight is not a number: '\xff\xfe'"),
    (b"0 1 0.5\n1 2 \xc3\xa9\n", {}, r"weight is not a number: '\xc3\xa9'"),
    (b"0 1\n-5 2\n", {}, "negative vertex id: '-5'"),
    (b"0 1\n7 2\n", {"num_vertices": 5}, "vertex id '7' is not below the vertex count 5"),
    (b"0 1\n99999999999999999999 2\n", {}, "vertex id '99999999999999999999' is larger than"),
    (b"1 2\n" + b"\xff" * 100 + b" 3\n", {}, "'" + r"\xff" * 60 + "'..."),
])
def test_text_edge_list_tokens_are_escaped(tmp_path, data, kw, shows):
    path = tmp_path / "g.txt"
    path.write_bytes(data)
    message = raised(read_graph, str(path), **kw)
    assert shows in message and ":2 (byte offset" in message


def test_matrix_market_header_text_is_escaped(tmp_path):
    path = tmp_path / "g.mtx"
    path.write_bytes("%%MatrixMarket matrix coordinate réal\u202e general\n3 3 1\n1 2 1\n"
                     .encode())
    message = raised(read_graph, str(path))
    assert "not a readable Matrix Market file" in message and r"r\xc3\xa9al\xe2\x80\xae" in message


def _npy_bytes(header: bytes) -> bytes:
    header += b" " * ((64 - (10 + len(header) + 1) % 64) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + b"\0" * 32


def test_npy_header_text_is_escaped(tmp_path):
    path = tmp_path / "g.npy"
    path.write_bytes(_npy_bytes(b"{'descr': '<\xe9\xff8', 'fortran_order': False, 'shape': (2, 2), }"))
    message = raised(read_graph, str(path))
    assert "not a NumPy .npy array" in message and r"\xc3\xa9" in message


def test_npz_member_names_are_escaped(tmp_path):
    path = tmp_path / "g.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("s\u00e9rc\u202e.npy", _npy_bytes(
            b"{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }")[:-32] + b"\0" * 16)
    message = raised(read_graph, str(path))
    assert r"found ['s\xc3\xa9rc\xe2\x80\xae']" in message


def test_npz_damaged_header_text_is_escaped(tmp_path):
    path = tmp_path / "g.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("src.npy", _npy_bytes(b"{'descr': '<\xe9\xff8', 'fortran_order': False, "
                                         b"'shape': (2,), }"))
        z.writestr("dst.npy", _npy_bytes(b"{'descr': '<i8', 'fortran_order': False, "
                                         b"'shape': (2,), }")[:-16])
    message = raised(read_graph, str(path))
    assert "not a NumPy .npz archive" in message and r"\xc3\xa9" in message


# ---- kernel 3 distances and validation reports ---------------------------------------------

def test_as_distances_shows_the_float64_value():
    assert "distance[0] = 0.1 is not a float32 value" in raised(as_distances, np.array([0.1]))
    assert "d[1] = 0.3 " in raised(as_distances, np.array([0.5, 0.3], np.longdouble), "d")


def _path_graph():
    """0 -0.5- 1 -0.25- 2, and 3 -1.0- 4 apart; the valid answer from root 0."""
    e = EdgeList(np.array([0, 1, 3], np.int64), np.array([1, 2, 4], np.int64), 5,
                 weight=np.array([0.5, 0.25, 1.0], np.float32))
    parent = np.array([0, 0, 1, -1, -1], np.int64)
    dist = np.array([0, 0.5, 0.75, np.inf, np.inf], np.float32)
    return e, parent, dist


def _sssp_reports(e, parent, dist, root=0):
    """The report of each kernel-3 validator: on the tuples, on the CSR, distributed."""
    n = e.num_vertices
    local = LocalEdges(e.src, e.dst, 0, len(e.src), n, e.weight)
    return [validate_sssp(e, parent, dist, root),
            validate_sssp_csr(build_csr(e), parent, dist, root),
            validate_sssp_dist(SerialComm(), Partition1D(n, 1, 0), local, parent, dist, root)]


@pytest.mark.parametrize("changes, rule, shows", [
    ({}, None, "max distance 0.75,"),
    ({"d0": 0.1}, "root-distance", "root 0 has distance 0.10000000149011612, expected 0"),
    ({"d1": -0.5}, "distance-range", "reached vertex 1 has distance -0.5;"),
    ({"d3": 0.3}, "unreached-distance", "has distance 0.30000001192092896; expected -1 or inf"),
    ({"d2": 0.7}, "tree-edge-distance",
     "vertex 2 has distance 0.699999988079071 but no input edge from its parent 1 (distance 0.5)"),
    ({"p2": -1, "d2": np.inf}, "component", "joins reached vertex 1 (distance 0.5)"),
])
def test_sssp_reports_show_plain_numbers(changes, rule, shows):
    e, parent, dist = _path_graph()
    for key, x in changes.items():
        (parent if key[0] == "p" else dist)[int(key[1:])] = x
    for r in _sssp_reports(e, parent, dist):
        assert r.rule == rule and shows in plain(r.message), r.message


def test_edge_distances_report_shows_the_float32_weight():
    e = EdgeList(np.array([0, 1, 0], np.int64), np.array([1, 2, 2], np.int64), 3,
                 weight=np.array([1.0, 1.0, 0.1], np.float32))
    parent = np.array([0, 0, 1], np.int64)
    dist = np.array([0, 1, 2], np.float32)
    for r in _sssp_reports(e, parent, dist):
        assert r.rule == "edge-distances"
        assert "weight 0.10000000149011612) joins distances 0.0 and 2.0" in plain(r.message)


def test_rules_given_numpy_scalars_show_plain_numbers():
    i64, f32 = np.int64, np.float32
    reports = [
        rules.sssp_valid_report(i64(0), i64(3), f32(0.75), i64(2)),
        rules.root_distance(i64(0), f32(0.5)),
        rules.distance_range(i64(1), f32(-1)),
        rules.unreached_distance(i64(2), f32(0.25)),
        rules.tree_edge_distance(i64(2), i64(1), f32(0.5), f32(0.25)),
        rules.edge_distances(i64(4), i64(1), i64(2), f32(0.1), f32(0.5), f32(3)),
        rules.component(i64(4), i64(1), i64(2), f32(0.5), f32(-1), what="distance"),
        rules.edge_levels(i64(4), i64(1), i64(2), i64(1), i64(3)),
        rules.tree_edge_levels(i64(2), i64(1), i64(3), i64(1)),
        rules.root_depth(i64(0), i64(2)),
        rules.parent_range(i64(3), i64(9), 5),
    ]
    for r in reports:
        plain(r.message)
    assert "weight 0.10000000149011612) joins distances 0.5 and 3.0" in reports[5].message


def test_bfs_reports_show_plain_numbers():
    e = EdgeList(np.array([0, 1, 2, 0], np.int64), np.array([1, 2, 3, 3], np.int64), 5)
    g = build_csr(e)
    for parent, rule in [([0, 0, 1, 0, -1], None),
                         ([0, 0, 1, 2, -1], "edge-levels"),
                         ([0, 0, -1, 0, -1], "component"),
                         ([0, 0, 1, 0, 4], "no-cycles"),
                         ([0, 0, 4, 0, -1], "parent-visited"),
                         ([0, 0, 1, 0, 7], "parent-range"),
                         ([1, 0, 1, 0, -1], "root-self-parent"),
                         ([0, 0, 0, 0, -1], "tree-edge-in-graph")]:
        p = np.array(parent, np.int64)
        for r in (validate(e, p, 0), validate_csr(g, p, 0)):
            assert r.rule == rule, r.message
            plain(r.message)


# ---- values a caller passed: shown as the numbers they are ---------------------------------

def test_api_source_shown_plainly():
    a = sp.csr_array(np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]))
    assert "source 99 is not a vertex (0..2)" in raised(pygraph500.bfs, a, np.int64(99))
    assert "source 1.5 is not a vertex" in raised(pygraph500.bfs, a, np.float64(1.5))
    nx = pytest.importorskip("networkx")
    g = nx.path_graph(3)
    assert "source 7 is not a node" in raised(pygraph500.bfs, g, np.int64(7))
    assert "source 7 is not a node" in raised(pygraph500.sssp, g, np.int64(7))


def test_checks_show_plain_numbers():
    g = build_csr(EdgeList(np.array([0], np.int64), np.array([1], np.int64), 2))
    assert "got 1.5" in raised(check_root, g, np.float64(1.5))
    assert "delta must be a positive number, got -1.0" in raised(check_positive, "delta",
                                                                 np.float64(-1))
    assert "got -2.0" in raised(parse_lambda, np.float64(-2))
    assert "got 1.5" in raised(check_share, np.float32(1.5))
    assert "got 2.5" in raised(check_tasks, np.float64(2.5))
    assert "got 0" in raised(check_tasks, np.int64(0))
    assert "SCALE must be an integer in [1, " in raised(check_scale, np.int64(0), 16)
    assert raised(check_scale, np.int64(0), 16).endswith("got 0")
    assert raised(check_scale, 4, np.int64(0)).endswith("got 0")
    assert raised(check_seed, (np.int64(1),)).endswith("got (1,)")
    assert raised(check_seed, np.array([2, 3, 4])).endswith("got [2, 3, 4]")
    assert raised(erdos_renyi, np.int64(0), 3).endswith("got 0")
    assert raised(erdos_renyi, 4, np.int64(-1)).endswith("got -1")
    assert raised(check_threads, np.float64(2.0)).endswith("got 2.0")
    check_threads(np.int64(1))


def test_apsp_inputs_shown_plainly():
    from pygraph500.apsp import from_edges, random_graph

    assert raised(random_graph, np.int64(0)).endswith("got 0")
    assert raised(random_graph, 4, density=np.float64(1.5)).endswith("got 1.5")
    assert raised(random_graph, 4, max_weight=np.int64(0)).endswith("got 0")
    assert raised(from_edges, [0], [1], np.array([np.nan]), 2).endswith("not finite: nan")


def test_distributed_delta_shown_plainly():
    from pygraph500.distributed import DistSSSPSearcher, build_dist, generate_local

    comm = SerialComm()
    g = build_dist(comm, generate_local(comm, 4, weights=True))
    assert raised(DistSSSPSearcher, comm, g, np.float64(-1)).endswith("got -1.0")


def test_determinate_workers_shown_plainly():
    from pygraph500.bfs.determinate.search import bfs_determinate

    g = build_csr(EdgeList(np.array([0], np.int64), np.array([1], np.int64), 2))
    assert raised(bfs_determinate, g, 0, workers=np.float64(2.0)).endswith("got 2.0")


def test_run_config_numbers():
    assert raised(RunConfig.of(scale=4, num_roots=np.int64(0)).check).endswith("got 0")
    assert raised(RunConfig.of(scale=4, num_roots=np.float64(2.0)).check).endswith("got 2.0")
    c = RunConfig.of(scale=4, num_roots=np.int64(3), threads=np.int64(1))
    c.check()
    assert type(c.search.num_roots) is int and c.search.num_roots == 3
    bad = RunConfig.of(scale=4, algorithm="determinate", workers=np.int64(0))
    assert raised(bad.check).endswith("got 0")


def test_helpers():
    assert shown(np.int64(3)) == "3" and shown(np.float32(0.5)) == "0.5"
    assert shown((np.int64(1), np.float64(2.5))) == "(1, 2.5)" and shown([np.int8(1)]) == "[1]"
    assert shown("auto") == "'auto'" and shown(None) == "None"
    assert shown(np.array([2, 3, 4])) == "[2, 3, 4]"
    assert shown(np.zeros((5, 5))) == "an array of shape (5, 5) and dtype float64"
    assert plain_text("Line 3: Invalid value.") == "Line 3: Invalid value."
    assert plain_text("bad: \xe9\x1b") == r"'bad: \xc3\xa9\x1b'"
