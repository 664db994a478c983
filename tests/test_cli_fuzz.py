"""The command line under hostile input (issue 17, item 4): random bytes, truncated and
corrupted files in every format, result JSON of any shape, extreme numbers. Whatever comes
in, `graph500` exits 0, 1 or 2; exit 2 says one line on stderr; no traceback; and a command
that fails leaves no output file behind.

The commands run in this process (``cli.main``), so an exception that escapes it is a
traceback a user would see: the test fails with it.
"""
import contextlib
import io
import json
import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pygraph500 import cli
from pygraph500.graph import EdgeList
from pygraph500.io import REGISTRY, GraphFile, write_graph

# CI runs a fixed sample (derandomized); PYGRAPH500_FUZZ=N draws N fresh examples per test.
_FUZZ = int(os.environ.get("PYGRAPH500_FUZZ", "0"))
SETTINGS = settings(max_examples=_FUZZ or 60, deadline=None, derandomize=not _FUZZ,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
GRAPH_SUFFIXES = [f.suffixes[0] for f in REGISTRY.values()] + [""]   # "": told by its bytes
NUMBERS = st.sampled_from(["0", "1", "2", "-1", "7", "64", "2147483648", "9223372036854775807",
                           "9223372036854775808", "-9223372036854775809", "1e308", "nan",
                           "inf", "0x10", "", "abc", "3.5"])


def _valid_graph_bytes(tmp, suffix):
    """A small valid edge list (a triangle and a tail, with weights) in the format of
    ``suffix``."""
    src = np.array([0, 1, 2, 3, 4], np.int64)
    dst = np.array([1, 2, 0, 4, 5], np.int64)
    g = GraphFile(EdgeList(src, dst, 6), weights=np.linspace(0.1, 0.9, 5))
    path = os.path.join(tmp, "valid" + (suffix or ".txt"))
    write_graph(g, path)
    with open(path, "rb") as f:
        return f.read()


@st.composite
def graph_bytes(draw, valid):
    """Random bytes, a truncated or corrupted valid file, or text of extreme numbers."""
    kind = draw(st.sampled_from(["random", "truncated", "flipped", "numbers"]))
    if kind == "random":
        return draw(st.binary(max_size=300))
    if kind == "numbers":
        rows = draw(st.lists(st.lists(NUMBERS, min_size=1, max_size=4), max_size=6))
        return "\n".join(" ".join(r) for r in rows).encode()
    data = bytearray(valid)
    if kind == "truncated":
        return bytes(data[:draw(st.integers(0, max(0, len(data) - 1)))])
    if data:
        at = draw(st.integers(0, len(data) - 1))
        data[at] = draw(st.integers(0, 255))
    return bytes(data)


def run_cli(*argv):
    """(exit status, stdout, stderr) of ``graph500 argv``, in this process; a warning that
    Python shows by default counts as a stderr line (it would be printed there)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for hidden in (ResourceWarning, DeprecationWarning, PendingDeprecationWarning):
            warnings.simplefilter("ignore", hidden)  # Python's defaults hide these
        try:
            rc = cli.main([str(a) for a in argv])
        except SystemExit as exc:  # argparse's exits
            rc = exc.code
    shown = "".join(f"{w.category.__name__}: {w.message}\n" for w in caught)
    return rc, out.getvalue(), shown + err.getvalue()


def check(rc, err, outputs=()):
    assert rc in (0, 1, 2), (rc, err)
    assert "Traceback" not in err, err
    if rc == 2:
        assert err.strip() and err.strip().count("\n") == 0, err
    if rc != 0:
        for path in outputs:
            assert not os.path.exists(path), f"{path} left behind after exit {rc}: {err}"


@pytest.fixture(scope="module")
def valid_files(tmp_path_factory):
    tmp = str(tmp_path_factory.mktemp("valid"))
    return {s: _valid_graph_bytes(tmp, s) for s in GRAPH_SUFFIXES}


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def _fresh(tmp_path, name):
    path = str(tmp_path / name)
    if os.path.exists(path):
        os.remove(path)
    return path


@pytest.mark.parametrize("suffix", GRAPH_SUFFIXES)
def test_bfs_and_sssp_file_on_any_bytes(suffix, valid_files, tmp_path):
    @SETTINGS
    @given(graph_bytes(valid_files[suffix]), NUMBERS, st.booleans())
    def case(data, root, unit):
        path = _write(tmp_path, "g" + suffix, data)
        out = _fresh(tmp_path, "tree.npy")
        rc, _, err = run_cli("bfs", path, "--root", root, "--out", out, "-q")
        check(rc, err, [out])
        out = _fresh(tmp_path, "paths.csv")
        rc, _, err = run_cli("sssp", path, "--root", root, "--out", out, "-q",
                             *(["--unit-weights"] if unit else []))
        check(rc, err, [out])

    case()


@pytest.mark.parametrize("suffix", [".txt", ".npz", ".bin"])   # a sample: text, archive, binary
def test_run_input_and_convert_on_any_bytes(suffix, valid_files, tmp_path):
    @SETTINGS
    @given(graph_bytes(valid_files[suffix]), st.sampled_from(GRAPH_SUFFIXES[:-1] + [".xyz"]))
    def case(data, to):
        path = _write(tmp_path, "g" + suffix, data)
        js = _fresh(tmp_path, "r.json")
        rc, _, err = run_cli("run", "--input", path, "--roots", "2", "-q", "--json", js)
        check(rc, err, [js])
        out = _fresh(tmp_path, "c" + to)
        rc, _, err = run_cli("convert", path, out, "-q")
        check(rc, err, [out])

    case()


def test_validate_on_any_bytes(tmp_path):
    @SETTINGS
    @given(st.binary(max_size=200), st.binary(max_size=200), NUMBERS,
           st.sampled_from([".bin", ".txt"]), st.sampled_from([".npy", ".txt"]))
    def case(edges, parents, root, es, ps):
        e = _write(tmp_path, "e" + es, edges)
        p = _write(tmp_path, "p" + ps, parents)
        rc, _, err = run_cli("validate", e, p, "--root", root)
        check(rc, err)
        rc, _, err = run_cli("validate", e, p, "--root", root, "--distances", p,
                             "--weights", e)
        check(rc, err)

    case()


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["parameters", "official", "runs", "valid",
                                                        "scale", "SCALE", "levels", "labels",
                                                        "sssp_runs", "x"]), inner, max_size=5),
                    max_leaves=20)


@pytest.fixture(scope="module")
def result_doc(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("result") / "r.json")
    rc, _, err = run_cli("run", "--scale", "6", "--roots", "2", "-q", "--json", path)
    assert rc == 0, err
    with open(path) as f:
        return json.load(f)


def test_compare_and_plot_on_any_json(result_doc, tmp_path):
    @SETTINGS
    @given(JSON, st.sampled_from(["replace", "mutate", "bytes"]), st.binary(max_size=100))
    def case(value, how, raw):
        path = tmp_path / "a.json"
        if how == "bytes":
            path.write_bytes(raw)
        else:
            doc = value if how == "replace" else dict(result_doc, **{
                k: value for k in list(result_doc)[:1 + len(str(value)) % len(result_doc)]})
            path.write_text(json.dumps(doc))
        rc, _, err = run_cli("compare", str(path), str(path))
        check(rc, err)
        rc, _, err = run_cli("plot", str(path), "--out", str(tmp_path / "plots"))
        check(rc, err)

    case()


def test_extreme_numbers(tmp_path):
    small = st.sampled_from(["-1", "0", "1", "2", "4", "64", "2147483648", "1e3", "x",
                             "9223372036854775808"])

    @SETTINGS
    @given(small, small, small, small, small)
    def case(scale, ef, roots, s1, n):
        out = _fresh(tmp_path, "g.bin")
        rc, _, err = run_cli("generate", "--scale", scale, "--edgefactor", ef, "--seed", s1, "3",
                             "--out", out, "-q")
        check(rc, err, [out])
        if rc == 0 and int(scale) > 4:
            return
        rc, _, err = run_cli("run", "--scale", scale, "--edgefactor", ef, "--roots", roots,
                             "--seed", s1, "3", "-q")
        check(rc, err)
        rc, _, err = run_cli("apsp", "--n", n, "--seed", s1)
        check(rc, err)

    case()
