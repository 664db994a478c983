"""`graph500 plot` and `graph500 compare` on real run results."""
import json
import os

import pytest

from pygraph500 import cli
from pygraph500.errors import InputError
from pygraph500.report import compare_results, plot_result

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    d = tmp_path_factory.mktemp("runs")
    a, b = d / "a.json", d / "b.json"
    assert cli.main(["run", "-s", "9", "--roots", "12", "--json", str(a), "-q"]) == 0
    assert cli.main(["run", "-s", "9", "--roots", "12", "-a", "topdown-queue", "--json", str(b),
                     "-q"]) == 0
    return str(a), str(b)


def _png_size(path):
    from matplotlib.image import imread

    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    img = imread(path)
    return img.shape


def test_plot_writes_three_figures(results, tmp_path, capsys):
    out = tmp_path / "figs"
    assert cli.main(["plot", results[0], "--out", str(out)]) == 0
    printed = capsys.readouterr().out.split()
    assert [os.path.basename(p) for p in printed] == ["teps.png", "levels.png", "level_times.png"]
    for p in printed:
        h, w, _ = _png_size(p)
        assert h >= 400 and w >= 900
        assert os.path.getsize(p) > 20_000  # not a blank canvas
    assert sorted(os.listdir(out)) == ["level_times.png", "levels.png", "teps.png"]


def test_plot_many_levels_uses_lines(tmp_path):
    """A long path (hundreds of levels) and an invalid run without official statistics."""
    n = 400
    levels = [{"level": i, "frontier": 1, "edges_examined": 2, "discovered": 1 if i < n - 1 else 0,
               "direction": "top-down", "time": 1e-6 * (1 + i % 7), "unique_ratio": 0.5}
              for i in range(n)]
    doc = {"official": None, "valid": False, "labels": [],
           "parameters": {"scale": 9, "edgefactor": 1, "algorithm": "reference", "threads": 1},
           "roots": [0, 5],
           "runs": [{"root": 0, "time": 1e-3, "nedge": n - 1, "teps": (n - 1) / 1e-3, "valid": True,
                     "levels": levels},
                    {"root": 5, "time": 2e-3, "nedge": n - 1, "teps": (n - 1) / 2e-3, "valid": False,
                     "levels": levels[:200]}]}
    paths = plot_result(doc, str(tmp_path / "f"))
    assert len(paths) == 3 and all(os.path.getsize(p) > 10_000 for p in paths)


def test_compare_table(results, capsys):
    a, b = results
    assert cli.main(["compare", a, b, a]) == 0
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0].split() == ["key", "1:a.json", "2:b.json", "3:a.json", "2:b.json/1:a.json",
                                "3:a.json/1:a.json"]
    hm = next(l for l in lines if l.startswith("bfs  harmonic_mean_TEPS"))
    da, db = (json.load(open(p))["official"]["bfs  harmonic_mean_TEPS"] for p in (a, b))
    cells = hm.split()
    assert float(cells[-2]) == pytest.approx(db / da, abs=5.01e-4)  # printed with 3 decimals
    assert cells[-1] == "1.000"
    assert "topdown-queue" in text and "direction-optimizing" in text
    assert compare_results([a, b]).count("\n") > 40


def test_bad_results(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"x": 1}))
    for args in (["plot", str(bad), "--out", str(tmp_path / "o")],
                 ["plot", str(other), "--out", str(tmp_path / "o")],
                 ["plot", str(tmp_path / "missing.json"), "--out", str(tmp_path / "o")],
                 ["plot", str(tmp_path), "--out", str(tmp_path / "o")],
                 ["compare", str(bad)],
                 ["compare", str(other), str(other)]):
        assert cli.main(args) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("graph500: error:"), err
    assert not (tmp_path / "o").exists()
    with pytest.raises(InputError, match="no searches"):
        plot_result({"runs": [], "parameters": {}}, str(tmp_path / "o"))


def test_compare_shows_any_parameter_that_differs(results, tmp_path):
    """A parameter beyond the fixed head rows, a new field included, is a row when the runs
    differ in it, and no row when they agree."""
    a, b = results
    docs = [json.load(open(p)) for p in (a, b)]
    docs[0]["parameters"]["new_field"], docs[1]["parameters"]["new_field"] = 1, 2
    docs[1]["parameters"]["versions"]["numba"] = "9.9"
    paths = []
    for i, d in enumerate(docs):
        paths.append(str(tmp_path / f"{i}.json"))
        with open(paths[-1], "w") as f:
            json.dump(d, f)
    rows = {l.split()[0]: l.split()[1:] for l in compare_results(paths).splitlines() if l.strip()}
    assert rows["new_field"] == ["1", "2"]
    assert rows["versions.numba"][1] == "9.9"
    assert "versions.python" not in rows and "code_warmup_time" not in rows
