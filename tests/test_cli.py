"""The `graph500` command as a user runs it: output, exit status, files, bad input."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import REFERENCE_CASES, load_reference
from pygraph500 import cli

OFFICIAL_KEYS = [
    "SCALE", "edgefactor", "NBFS", "graph_generation", "num_mpi_processes", "construction_time",
    *[f"bfs  {s}_time" for s in ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")],
    *[f"{s}_nedge" for s in ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")],
    *[f"bfs  {s}_TEPS" for s in ("min", "firstquartile", "median", "thirdquartile", "max")],
    "bfs  harmonic_mean_TEPS", "bfs  harmonic_stddev_TEPS",
    *[f"bfs  {s}_validate" for s in ("min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev")],
]


def graph500(*args, cwd=None):
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "src"))
    return subprocess.run([sys.executable, "-m", "pygraph500", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=600)


def test_run_prints_official_block_and_json(tmp_path):
    out = tmp_path / "r.json"
    p = graph500("run", "--scale", "10", "--json", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    lines = [l for l in p.stdout.splitlines() if not l.startswith("#")]
    keys = [l[:32].rstrip().rstrip(":").replace(":     !", "") for l in lines]
    assert keys == OFFICIAL_KEYS
    assert all(len(l) > 32 and l[32] != " " for l in lines)  # values in column 33
    assert "bfs  harmonic_mean_TEPS:     !  " in p.stdout
    doc = json.loads(out.read_text())
    assert list(doc["official"]) == OFFICIAL_KEYS
    assert doc["official"]["SCALE"] == 10 and doc["official"]["NBFS"] == 64
    assert len(doc["roots"]) == 64 and len(doc["runs"]) == 64
    assert all(r["valid"] for r in doc["runs"])
    assert doc["parameters"]["threads"] >= 1 and doc["parameters"]["seeds"] == [2, 3]
    assert "self-loops" in doc["parameters"]["teps_counting"]
    assert doc["runs"][0]["levels"][0]["frontier"] == 1
    hm = 1 / np.mean([r["time"] / r["nedge"] for r in doc["runs"]])
    assert doc["official"]["bfs  harmonic_mean_TEPS"] == pytest.approx(hm)


def test_run_reference_roots_and_levels(tmp_path):
    _, ref_roots = load_reference("scale8-ef16-seed2-3")
    out = tmp_path / "r.json"
    p = graph500("run", "-s", "8", "--levels", "--algorithm", "reference", "--json", str(out), "-q")
    assert p.returncode == 0, p.stderr
    assert "# levels of the search from root" in p.stdout
    assert json.loads(out.read_text())["roots"] == ref_roots.tolist()


@pytest.mark.parametrize("name,scale,ef,seed", REFERENCE_CASES)
def test_generate_writes_reference_bytes(tmp_path, name, scale, ef, seed):
    ref, _ = load_reference(name)
    out = tmp_path / "g.bin"
    p = graph500("generate", "--scale", str(scale), "--edgefactor", str(ef), "--seed",
                 *map(str, seed), "--out", str(out))
    assert p.returncode == 0, p.stderr
    np.testing.assert_array_equal(np.fromfile(out, dtype="<i8").reshape(-1, 2), ref)


def test_validate_command_accepts_and_rejects(tmp_path):
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order

    ref, _ = load_reference("scale8-ef16-seed2-3")
    edges = tmp_path / "g.bin"
    ref.astype("<i8").tofile(edges)
    n = 256
    a = sp.coo_matrix((np.ones(len(ref)), (ref[:, 0], ref[:, 1])), shape=(n, n)).tocsr()
    root = 53
    _, pred = breadth_first_order(a, root, directed=False, return_predecessors=True)
    parent = np.where(pred < 0, -1, pred).astype(np.int64)
    parent[root] = root
    good = tmp_path / "good.npy"
    np.save(good, parent)
    p = graph500("validate", str(edges), str(good), "--root", str(root))
    assert p.returncode == 0 and p.stdout.startswith("valid"), p.stdout + p.stderr
    parent[root] = -1
    bad = tmp_path / "bad.npy"
    np.save(bad, parent)
    p = graph500("validate", str(edges), str(bad), "--root", str(root))
    assert p.returncode == 1 and "root" in p.stdout


@pytest.mark.parametrize("args,needle", [
    (["run", "--scale", "0"], "--scale must be an integer in [1, 62], got 0"),
    (["run", "--scale", "70"], "--scale must be"),
    (["run", "--edgefactor", "0"], "edgefactor"),
    (["run", "--algorithm", "nope"], "unknown BFS algorithm"),
    (["run", "--threads", "0"], "--threads"),
    (["run", "--roots", "0"], "--roots"),
    (["run", "--scale", "40"], "needs about"),
    (["run", "--scale", "8", "--validation", "csr", "--backend", "numpy-checked", "-a",
      "sort-unique"], "validation csr runs on the CPU"),
    (["run", "--scale", "8", "--validation", "tuples", "--distributed"], "one process"),
    (["run", "--scale", "8", "--validation", "edges"], "--validation"),
    (["run", "--scale", "8", "--json", "/nonexistent-dir/x.json"], "cannot write"),
    (["generate", "--scale", "8", "--out", "/nonexistent-dir/x.bin"], "cannot write"),
    (["validate", "/nonexistent/e.bin", "/nonexistent/p.npy", "--root", "0"], "cannot read"),
])
def test_bad_input_one_line_exit_2(args, needle):
    p = graph500(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr
    err = [l for l in p.stderr.splitlines() if l.strip()]
    assert len(err) == 1 and needle in err[0], p.stderr
    assert p.stdout == ""


def test_bad_seed_is_usage_error():
    p = graph500("run", "--seed", "-1", "3")
    assert p.returncode == 2 and "out of range" in p.stderr and "Traceback" not in p.stderr


def test_info(tmp_path, monkeypatch):
    p = graph500("info", "--compile")  # the tree's own cache: compiled (now or before)
    assert p.returncode == 0, p.stderr
    for key in ("numba", "threads", "mpi", "gpu"):
        assert key in p.stdout
    assert "this version compiled" in p.stdout
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # an empty cache
    p = graph500("info")
    line = next(l for l in p.stdout.splitlines() if l.startswith("kernel cache:"))
    assert str(tmp_path) in line and "not compiled yet (graph500 info --compile)" in line


def test_invalid_run_prints_no_results_and_exits_1(monkeypatch, capsys, tmp_path):
    """A BFS that returns a broken tree makes the run invalid: the reference's line, status 1."""
    from pygraph500 import cli
    from pygraph500.bfs import ALGORITHMS
    from pygraph500.descriptors import Algorithm

    def broken(graph, root, *, depth=True):
        result = ALGORITHMS["reference"](graph, root)
        far = int(np.flatnonzero(result.depth >= 2)[0])
        result.parent[far] = root  # not an input edge (depth 2 means no edge to the root)
        return result

    out = tmp_path / "r.json"
    with ALGORITHMS.including(Algorithm("broken", "bfs", broken, "a broken tree",
                                        option_help={"depth": "ignored"})):
        status = cli.main(["run", "--scale", "8", "--algorithm", "broken", "--quiet", "--json",
                           str(out)])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.out.strip().splitlines()[-1] == "No results printed for invalid run."
    assert "SCALE:" not in captured.out
    assert "tree-edge-in-graph" in captured.err
    doc = json.loads(out.read_text())
    assert doc["valid"] is False and doc["official"] is None
    assert doc["runs"][-1]["rule"] == "tree-edge-in-graph"


@pytest.mark.parametrize("argv", [
    ["run", "--seed", "1", "-5"],
    ["run", "--kernel", "kernel4"],
    ["apsp", "--n", "10", "--seed", "-1"],
    ["apsp", "--kronecker", "4", "--seed", "-1"],
    ["no-such-command"],
])
def test_usage_errors_are_one_line_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and len(err.strip().splitlines()) == 1 and "error:" in err


@pytest.mark.parametrize("doc", [
    {"parameters": 5, "official": [], "runs": []},
    {"parameters": {}, "official": {"SCALE": "x"}, "runs": []},
    {"parameters": {}, "official": None, "runs": [5]},
    {"parameters": {}, "official": None, "runs": [{"time": "1", "levels": []}]},
    {"parameters": {}, "official": None, "runs": [{"time": 1.0, "levels": 3}]},
])
def test_results_of_the_wrong_shape_are_one_line_exit_2(tmp_path, capsys, doc):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    for argv in (["compare", str(path), str(path)], ["plot", str(path), "-o", str(tmp_path)]):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "not a result" in err


def test_empty_parent_file_is_one_line_exit_2(tmp_path, capsys):
    edges, parents = tmp_path / "g.bin", tmp_path / "p.npy"
    assert cli.main(["generate", "-s", "4", "-e", "2", "-o", str(edges), "-q"]) == 0
    parents.write_bytes(b"")
    assert cli.main(["validate", str(edges), str(parents), "--root", "0"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_reader_that_goes_away_ends_the_command_quietly():
    """`graph500 info | head`: stdout's reader gone is SIGPIPE's status, no traceback."""
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), "..", "src"))
    read, write = os.pipe()
    os.close(read)  # nobody will read
    p = subprocess.run([sys.executable, "-m", "pygraph500", "info", "--algorithms"],
                       stdout=write, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    os.close(write)
    assert (p.returncode, p.stderr) == (141, "")


def test_progress_without_a_terminal_says_only_the_compile():
    """A log (no terminal) gets the slow first compile's two plain lines and nothing else;
    --quiet gets nothing; a terminal gets the self-overwriting line."""
    import io

    from pygraph500.report import Progress

    log = io.StringIO()
    p = Progress(None, log)
    for phase in ("compiling kernels (once per install)", "generation", "bfs"):
        p(phase, 0, 1)
        p(phase, 1, 1)
    lines = log.getvalue().splitlines()
    assert lines[0] == "compiling kernels (once per install) ..."
    assert lines[1].startswith("compiling kernels (once per install): done (")
    assert len(lines) == 2
    quiet = io.StringIO()
    Progress(False, quiet)("compiling kernels (once per install)", 0, 1)
    assert quiet.getvalue() == ""

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    tty = Terminal()
    Progress(None, tty)("bfs", 3, 64)
    assert tty.getvalue().startswith("\rbfs: 3/64 (")


def test_the_top_level_help_imports_no_library():
    """`graph500 --help` took 1.4 s importing numba, scipy and every registry; it is made
    from ``cli.COMMANDS`` alone, the same text as the full parser's."""
    code = ("import sys\nfrom pygraph500.cli import main\ntry:\n    main(['--help'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted(m for m in ('numpy', 'numba', 'scipy', 'mpi4py') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout
    assert "usage: graph500 [-h] COMMAND ..." in out.stdout
    full = cli.build_parser()
    light = cli.build_parser(commands=False)
    assert full.format_help() == light.format_help()
    choices = next(a for a in full._actions if a.dest == "command").choices
    assert list(choices) == list(cli.COMMANDS)
