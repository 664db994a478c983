"""`graph500 validate` knows the graph's vertex count independently of the answer (issue 38):
--num-vertices, --scale, the description `generate` writes beside its edge list, or the
largest id (said in a NOTE); it takes the tables `bfs --out` and `sssp --out` write, so the
bfs -> validate workflow connects. Trees come from scipy.sparse.csgraph (the oracle)."""
import json

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order

from test_cli_fuzz import run_cli


def scipy_parents(edges_path, n, root):
    """The BFS parent array of scipy.sparse.csgraph on the g500 binary edge list."""
    raw = np.fromfile(edges_path, dtype="<i8").reshape(-1, 2)
    a = sp.coo_matrix((np.ones(len(raw)), (raw[:, 0], raw[:, 1])), shape=(n, n)).tocsr()
    _, pred = breadth_first_order(a, root, directed=False, return_predecessors=True)
    parent = np.where(pred < 0, -1, pred).astype(np.int64)
    parent[root] = root
    return parent


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """SCALE 10, edgefactor 4 edges written by `generate` (with their description) and a
    root with a component; the last two vertices are on no edge, as in the one-short case of
    the issue."""
    d = tmp_path_factory.mktemp("validate")
    rc, _, err = run_cli("generate", "-s", "10", "-e", "4", "--out", d / "g.bin", "-q")
    assert rc == 0, err
    raw = np.fromfile(d / "g.bin", dtype="<i8")
    assert raw.max() == 1021  # vertices 1022 and 1023 isolated: the largest id misses them
    return d, 1024, int(raw[0])


def test_description_beside_the_edges(generated):
    d, n, _ = generated
    doc = json.loads((d / "g.bin.json").read_text())
    assert doc["num_vertices"] == n and doc["num_edges"] == 4 * n
    assert (doc["scale"], doc["edgefactor"], doc["seeds"]) == (10, 4, [2, 3])


@pytest.mark.parametrize("how", ["description", "--scale", "--num-vertices"])
def test_one_short_and_one_long_are_invalid_by_name(generated, tmp_path, how):
    d, n, root = generated
    edges = d / "g.bin"
    if how != "description":
        bare = tmp_path / "g.bin"
        bare.write_bytes(edges.read_bytes())  # no description beside it
        edges = bare
    extra = {"description": [], "--scale": ["--scale", "10"],
             "--num-vertices": ["--num-vertices", str(n)]}[how]
    parent = scipy_parents(edges, n, root)
    for name, answer, verdict in (("exact", parent, 0), ("short", parent[:-1], 1),
                                  ("long", np.append(parent, -1), 1)):
        path = tmp_path / f"{name}.npy"
        np.save(path, answer)
        rc, out, err = run_cli("validate", edges, path, "--root", root, *extra)
        assert rc == verdict, (name, out, err)
        if verdict:
            assert out == (f"invalid: parent-length: parent has {len(answer)} entries, the "
                           f"graph has {n} vertices\n"), out
        else:
            assert out.startswith("valid: ") and err == "", (out, err)


def test_without_a_count_it_says_how_it_inferred_one(generated, tmp_path):
    d, n, root = generated
    bare = tmp_path / "g.bin"
    bare.write_bytes((d / "g.bin").read_bytes())
    parent = scipy_parents(bare, n, root)
    np.save(tmp_path / "long.npy", np.append(parent, -1))
    rc, out, err = run_cli("validate", bare, tmp_path / "long.npy", "--root", root)
    assert rc == 1 and "parent-length: parent has 1025 entries, the graph has 1022" in out
    assert err.startswith(f"# NOTE: vertex count 1022 taken as the largest vertex id in {bare} + 1")


def test_a_stale_description_is_refused(generated, tmp_path):
    d, n, root = generated
    (tmp_path / "g.bin").write_bytes((d / "g.bin").read_bytes()[:-16])
    (tmp_path / "g.bin.json").write_text((d / "g.bin.json").read_text())
    np.save(tmp_path / "p.npy", np.zeros(n, dtype=np.int64))
    rc, _, err = run_cli("validate", tmp_path / "g.bin", tmp_path / "p.npy", "--root", root)
    assert rc == 2 and "describes 4096 edge tuples" in err and "holds 4095" in err


@pytest.mark.parametrize("suffix", [".csv", ".npy"])
@pytest.mark.parametrize("depth", [False, True])
def test_bfs_out_then_validate(generated, tmp_path, suffix, depth):
    """The documented workflow: `bfs --out` writes a table, `validate` takes it as it is;
    the same table with a parent changed is invalid."""
    d, n, root = generated
    table = tmp_path / f"t{suffix}"
    rc, out, err = run_cli("bfs", d / "g.bin", "--root", root, "--out", table, "-q",
                           *(["--distances"] if depth else []))
    assert rc == 0, err
    rc, out, err = run_cli("validate", d / "g.bin", table, "--root", root)
    assert rc == 0 and out.startswith("valid: "), (out, err)
    ours = np.full(n, -1)
    rows = (np.loadtxt(table, delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)
            if suffix == ".csv" else np.load(table))
    ours[rows[:, 0]] = rows[:, 1]
    oracle = scipy_parents(d / "g.bin", n, root)
    np.testing.assert_array_equal(ours >= 0, oracle >= 0)  # the same component as scipy's
    rows[1, 1] = rows[1, 0]  # a vertex its own parent
    bad = tmp_path / f"bad{suffix}"
    if suffix == ".csv":
        np.savetxt(bad, rows, fmt="%d", delimiter=",",
                   header="vertex,parent" + (",distance" if depth else ""), comments="")
    else:
        np.save(bad, rows)
    rc, out, _ = run_cli("validate", d / "g.bin", bad, "--root", root)
    assert rc == 1 and out.startswith("invalid: "), out


def test_tables_with_rows_outside_or_twice_are_bad_input(generated, tmp_path):
    d, n, root = generated
    for rows, needle in (([[root, root], [n, root]], f"row 2: vertex {n} is not a vertex"),
                         ([[root, root], [root, root]], f"vertex {root} has more than one row")):
        path = tmp_path / "t.csv"
        path.write_text("vertex,parent\n" + "".join(f"{a},{b}\n" for a, b in rows))
        rc, _, err = run_cli("validate", d / "g.bin", path, "--root", root)
        assert rc == 2 and needle in err, err
    (tmp_path / "h.csv").write_text("node,pred\n1,1\n")
    rc, _, err = run_cli("validate", d / "g.bin", tmp_path / "h.csv", "--root", root)
    assert rc == 2 and "expected the header vertex,parent[,distance], got 'node,pred'" in err


def test_sssp_out_then_validate(tmp_path):
    """Kernel 3: `generate --weights`, `sssp --out`, `validate --weights` on the table."""
    rc, _, err = run_cli("generate", "-s", "8", "--out", tmp_path / "g.txt", "--weights",
                         tmp_path / "w.bin", "-q")
    assert rc == 0, err
    raw = np.loadtxt(tmp_path / "g.txt", comments="#")  # v0 v1 weight
    np.testing.assert_array_equal(raw[:, 2].astype(np.float32),
                                  np.fromfile(tmp_path / "w.bin", dtype="<f4"))
    root = int(raw[0, 0])
    rc, _, err = run_cli("sssp", tmp_path / "g.txt", "--root", root, "--out", tmp_path / "s.csv",
                         "-q", "--num-vertices", 256)
    assert rc == 0, err
    rc, out, err = run_cli("validate", tmp_path / "g.txt", tmp_path / "s.csv", "--root", root,
                           "--weights", tmp_path / "w.bin")
    assert rc == 0 and out.startswith("valid: ") and "max distance" in out, (out, err)
    assert "np." not in out
    rc, _, err = run_cli("validate", tmp_path / "g.txt", tmp_path / "s.csv", "--root", root,
                         "--weights", tmp_path / "w.bin", "--distances", tmp_path / "s.csv")
    assert rc == 2 and "holds distances already" in err


def test_sssp_only_run_json_has_its_official_block(tmp_path):
    rc, out, err = run_cli("run", "-s", "8", "--roots", "2", "--kernel", "sssp", "--json",
                           tmp_path / "r.json", "-q")
    assert rc == 0, err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["official"]["sssp harmonic_mean_TEPS"] > 0
    assert f"sssp harmonic_mean_TEPS:     !  " in out


def test_out_through_a_symlink_writes_its_target(generated, tmp_path):
    d, n, root = generated
    target = tmp_path / "real.csv"
    target.write_text("old")
    (tmp_path / "link.csv").symlink_to(target)
    rc, _, err = run_cli("bfs", d / "g.bin", "--root", root, "--out", tmp_path / "link.csv", "-q")
    assert rc == 0, err
    assert (tmp_path / "link.csv").is_symlink() and target.read_text().startswith("vertex,parent\n")


def test_npy_answers_on_stdin(generated, tmp_path):
    """`bfs --out t.npy` then `cat t.npy | graph500 validate EDGES -`: a .npy answer on stdin
    is told by its magic bytes (its copy has no name; it was read as text: "'utf-8' codec
    can't decode byte 0x93"), a bare parent array and a table both; a broken one still
    fails by the rules."""
    import subprocess
    import sys

    d, n, root = generated
    parent = scipy_parents(d / "g.bin", n, root)
    reached = np.flatnonzero(parent >= 0)
    table = np.column_stack([reached, parent[reached]])
    broken = parent.copy()
    leaf = int(reached[reached != root][-1])
    broken[leaf] = leaf  # its own parent: not a tree
    for answer, verdict in ((parent, 0), (table, 0), (broken, 1)):
        np.save(tmp_path / "a.npy", answer)
        p = subprocess.run([sys.executable, "-m", "pygraph500", "validate", str(d / "g.bin"),
                            "-", "--root", str(root)], input=(tmp_path / "a.npy").read_bytes(),
                           capture_output=True, timeout=600)
        assert p.returncode == verdict, p.stderr
        assert p.stdout.startswith(b"valid: " if verdict == 0 else b"invalid")
