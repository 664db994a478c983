"""File formats round-trip; bad files give one-line InputErrors and nothing half-written."""
import os

import numpy as np
import pytest

from pygraph500.errors import InputError
from pygraph500.generator import kronecker
from pygraph500.io import read_answer, read_edges, write_edges, write_text_edges, write_json


def test_binary_edges_layout_and_roundtrip(tmp_path):
    e = kronecker(6, 4)
    path = str(tmp_path / "g.bin")
    write_edges(e, path)
    raw = np.fromfile(path, dtype="<i8")
    assert raw.size == 2 * e.num_edges
    np.testing.assert_array_equal(raw[0::2], e.src)  # interleaved (v0, v1) pairs
    np.testing.assert_array_equal(raw[1::2], e.dst)
    back = read_edges(path, num_vertices=64)
    np.testing.assert_array_equal(back.src, e.src)
    assert back.num_vertices == 64


def test_text_edges_roundtrip(tmp_path):
    e = kronecker(5, 2)
    path = str(tmp_path / "g.txt")
    write_text_edges(e, path)
    back = read_edges(path)
    np.testing.assert_array_equal(back.dst, e.dst)


@pytest.mark.parametrize("content,where", [
    (b"\x00" * 17, "not a whole number"),
])
def test_bad_binary(tmp_path, content, where):
    path = tmp_path / "bad.bin"
    path.write_bytes(content)
    with pytest.raises(InputError, match=where):
        read_edges(str(path))


def test_bad_text_names_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# c\n1 2\n3 x\n")
    with pytest.raises(InputError, match=r"bad.txt:3"):
        read_edges(str(path))


def test_negative_and_out_of_range_labels(tmp_path):
    path = tmp_path / "neg.txt"
    path.write_text("1 2\n-3 4\n")
    with pytest.raises(InputError, match="negative"):
        read_edges(str(path))
    path.write_text("1 2\n3 9\n")
    with pytest.raises(InputError, match="not below the vertex count 5"):
        read_edges(str(path), num_vertices=5)


def test_missing_file():
    with pytest.raises(InputError, match="cannot read"):
        read_edges("/nonexistent/x.bin")
    with pytest.raises(InputError, match="cannot read"):
        read_answer("/nonexistent/p.npy", 4)


def test_parents_must_be_integers(tmp_path):
    p = tmp_path / "p.npy"
    np.save(p, np.zeros(4, dtype=np.float64))
    with pytest.raises(InputError, match="integers"):
        read_answer(str(p), 4)


def test_failed_write_leaves_nothing(tmp_path):
    path = tmp_path / "out.json"
    with pytest.raises(TypeError):
        write_json({"x": object()}, str(path))
    assert os.listdir(tmp_path) == []


def test_unwritable_path():
    with pytest.raises(InputError, match="does not exist"):
        write_json({}, "/nonexistent-dir/out.json")
