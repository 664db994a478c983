"""`graph500 plot` and `graph500 compare` on real run results."""
import json
import math
import os

import numpy as np
import pytest

from pygraph500 import cli
from pygraph500.errors import InputError
from pygraph500.report import compare_results, plot_result
from pygraph500.report.plots import make_figures

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
    with pytest.raises(InputError, match="no searches"):
        plot_result({"runs": [], "sssp_runs": [], "parameters": {}}, str(tmp_path / "o"))
    with pytest.raises(InputError, match="without per-level statistics"):
        plot_result({"runs": [], "sssp_runs": [{"root": 0, "teps": 1.0, "levels": []}],
                     "parameters": {}}, str(tmp_path / "o"))
    assert not (tmp_path / "o").exists()


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


# --- one tiny run of each kernel: which figures, and what they show ---------------------------

BFS_FIGURES = ["teps.png", "levels.png", "level_times.png"]
SSSP_FIGURES = ["sssp_teps.png", "sssp_phases.png"]


@pytest.fixture(scope="module")
def kernel_runs(tmp_path_factory):
    """kernel -> the JSON document of `graph500 run -s 8 --roots 4 --kernel KERNEL`."""
    d = tmp_path_factory.mktemp("kernels")
    out = {}
    for kernel in ("bfs", "sssp", "both"):
        path = str(d / f"{kernel}.json")
        assert cli.main(["run", "--scale", "8", "--roots", "4", "--kernel", kernel,
                         "--json", path, "-q"]) == 0
        out[kernel] = path
    return out


def _doc(kernel_runs, kernel):
    with open(kernel_runs[kernel]) as f:
        return json.load(f)


def _texts(fig):
    """Every text drawn on the figure: captions, titles, axis labels, legend entries."""
    texts = [t.get_text() for t in fig.texts]
    for ax in fig.axes:
        texts += [ax.get_title(), ax.get_ylabel(), ax.get_xlabel()]
        if ax.get_legend() is not None:
            texts += [t.get_text() for t in ax.get_legend().get_texts()]
            texts.append(ax.get_legend().get_title().get_text())
    return "\n".join(texts)


def _plain_labels(ax):
    """The y tick labels within the axis's view, each a plain decimal number (no exponent)
    that is its tick's value (no offset or multiplier beside the axis)."""
    ax.figure.canvas.draw()
    assert ax.yaxis.get_offset_text().get_text() == ""
    lo, hi = ax.get_ylim()
    shown = [(v, t.get_text()) for v, t in zip(ax.get_yticks(), ax.get_yticklabels())
             if lo <= v <= hi and t.get_text()]
    assert len(shown) >= 2
    for value, label in shown:
        assert all(c in "0123456789.,\u2212-" for c in label), label
        assert float(label.replace("\u2212", "-").replace(",", "")) == pytest.approx(value)
    return [label for _, label in shown]


@pytest.mark.parametrize("kernel, names", [("bfs", BFS_FIGURES), ("sssp", SSSP_FIGURES),
                                           ("both", BFS_FIGURES + SSSP_FIGURES)])
def test_figures_of_each_kernel(kernel_runs, kernel, names, tmp_path, capsys):
    """A BFS run makes its three figures, an SSSP run SSSP's two, a run of both all five."""
    out = tmp_path / "figs"
    assert cli.main(["plot", kernel_runs[kernel], "--out", str(out)]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(out / n) for n in names]
    assert sorted(os.listdir(out)) == sorted(names)
    for p in printed:
        h, w, _ = _png_size(p)
        assert h >= 500 and w >= 1000
        assert os.path.getsize(p) > 20_000  # not a blank canvas


def test_run_plot_writes_the_figures_and_refuses_a_file_before_running(tmp_path, capsys):
    """`run --plot DIR` writes what `graph500 plot` writes, the official block alone on
    stdout; a DIR that is a file is refused before the run (exit 2, one line)."""
    out = tmp_path / "figs"
    assert cli.main(["run", "--scale", "8", "--roots", "2", "--kernel", "both", "--plot",
                     str(out), "-q"]) == 0
    assert sorted(os.listdir(out)) == sorted(BFS_FIGURES + SSSP_FIGURES)
    assert "harmonic_mean_TEPS" in capsys.readouterr().out
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    assert cli.main(["run", "--scale", "8", "--plot", str(a_file)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "is not a directory" in captured.err


@pytest.mark.parametrize("kernel", ["bfs", "sssp"])
def test_teps_axis_in_mteps(kernel_runs, kernel):
    """The bars are each search's TEPS / 10^6 on an axis labelled MTEPS with plain ticks; the
    harmonic mean line is the official statistic."""
    doc = _doc(kernel_runs, "both")
    figs = dict(make_figures(doc))
    ax = figs["teps.png" if kernel == "bfs" else "sssp_teps.png"].axes[0]
    runs = doc["runs" if kernel == "bfs" else "sssp_runs"]
    teps = np.array([r["teps"] for r in runs])
    assert teps.max() < 1e9  # a tiny run: millions
    assert [p.get_height() for p in ax.patches] == pytest.approx(teps / 1e6, rel=1e-12)
    # log where the searches differ more than 20-fold (a search slowed by a busy machine)
    assert ax.get_yscale() == ("log" if teps.max() > 20 * teps.min() else "linear")
    assert "MTEPS" in ax.get_ylabel() and "GTEPS" not in ax.get_ylabel()
    labels = _plain_labels(ax)
    assert any(float(x) >= 1 for x in labels)  # in MTEPS: not 1e7-sized numbers, not fractions
    hm = doc["official"][f"{kernel:<5}harmonic_mean_TEPS"]
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    mean = next(ln for name, ln in lines.items() if name.startswith("harmonic mean"))
    assert mean.get_ydata()[0] == pytest.approx(hm / 1e6, rel=1e-12)
    text = _texts(ax.figure)
    assert f"harmonic mean {float(f'{hm / 1e6:.4g}'):g} MTEPS" in text
    assert "harmonic mean: searches / \u03a3(1/TEPS)" in text
    assert "TEPS: traversed edges per second" in text and "MTEPS = 10\u2076 TEPS" in text
    assert ("kernel 2" if kernel == "bfs" else "kernel 3") in text


def _synthetic(teps):
    levels = [{"level": 0, "frontier": 1, "edges_examined": 3, "discovered": 3,
               "direction": "top-down", "time": 1e-5, "unique_ratio": 1.0}]
    return {"official": None, "parameters": {"scale": 20, "edgefactor": 16,
                                             "algorithm": "reference", "threads": 8},
            "runs": [{"root": i, "teps": t, "levels": levels} for i, t in enumerate(teps)]}


@pytest.mark.parametrize("teps, unit, log", [
    ([2.1e9, 2.5e9, 3.0e9], "GTEPS", False),
    ([3.2e9, 4.0e7, 1.1e9], "GTEPS", True),     # spread over 20x: log scale, ticks 0.02 .. 5
    ([1.2e5, 4.0e5, 9.9e6], "MTEPS", True),     # below a million: fractions of an MTEPS
    ([1.234e8, 1.3e8, 1.25e8], "MTEPS", False),  # the case that showed a 1e8 offset
])
def test_teps_unit_and_plain_ticks(teps, unit, log):
    fig = dict(make_figures(_synthetic(teps)))["teps.png"]
    ax = fig.axes[0]
    per = 1e9 if unit == "GTEPS" else 1e6
    assert [p.get_height() for p in ax.patches] == pytest.approx(np.array(teps) / per)
    assert unit in ax.get_ylabel()
    assert ax.get_yscale() == ("log" if log else "linear")
    values = [float(x) for x in _plain_labels(ax)]
    if log:  # every value a 1, 2 or 5 times a power of ten, written out
        assert all(any(math.isclose(v, m * 10.0 ** k) for m in (1, 2, 5) for k in range(-6, 6))
                   for v in values)
    hm = len(teps) / sum(1 / t for t in teps)  # no official block: the measured harmonic mean
    mean = next(ln for ln in ax.get_lines() if ln.get_label().startswith("harmonic mean"))
    assert mean.get_ydata()[0] == pytest.approx(hm / per)
    assert f" {unit}" in mean.get_label() and "e+" not in mean.get_label()


def test_levels_figure_explains_table_41(kernel_runs):
    """levels.png draws each level's CLQ / NLF / NLQ and says what they are."""
    doc = _doc(kernel_runs, "bfs")
    fig = dict(make_figures(doc))["levels.png"]
    top, bottom = fig.axes
    levels = doc["runs"][0]["levels"]
    names = ("CLQ: current level queue", "NLF: next level frontier before pruning",
             "NLQ: next level queue after pruning")
    containers = {c.get_label(): c for c in top.containers}
    for name, key in zip(names, ("frontier", "edges_examined", "discovered")):
        bars = next(c for label, c in containers.items() if label.startswith(name))
        want = [lv[key] if lv[key] > 0 else math.nan for lv in levels]
        assert [p.get_height() for p in bars] == pytest.approx(want, nan_ok=True)
    text = _texts(fig)
    for phrase in ("CLQ = current level queue", "NLF = next level frontier before pruning",
                   "NLQ = next level queue after pruning", "NLQ / NLF", "queue ratio QR",
                   "top-down: the frontier's vertices scan", "bottom-up (Beamer's",
                   "unvisited vertices look for a parent"):
        assert phrase in text, phrase
    dirs = {lv["direction"] for lv in levels}
    legend = [t.get_text() for t in bottom.get_legend().get_texts()]
    assert legend == [d for d in ("top-down", "bottom-up") if d in dirs]
    times = _texts(dict(make_figures(doc))["level_times.png"])
    assert "top-down: the frontier's vertices scan" in times and "fastest .. slowest" in times


def test_sssp_phases_figure(kernel_runs):
    """sssp_phases.png draws what the SSSP search recorded per phase: vertices and edges
    relaxed, distances lowered, the time (coloured by kind) and the bucket, and explains them."""
    doc = _doc(kernel_runs, "sssp")
    assert doc["parameters"]["sssp_algorithm"] == "delta-stepping"
    fig = dict(make_figures(doc))["sssp_phases.png"]
    top, mid, bottom = fig.axes
    phases = doc["sssp_runs"][0]["levels"]
    assert len(phases) > 32  # drawn as lines
    lines = {ln.get_label().split(" (")[0]: ln for ln in top.get_lines()}
    for name, key in (("vertices relaxed", "frontier"), ("edges relaxed", "edges_examined"),
                      ("distances lowered", "discovered")):
        want = [p[key] if p[key] > 0 else math.nan for p in phases]
        assert list(lines[name].get_ydata()) == pytest.approx(want, nan_ok=True)
    scale = 1e3 if max(p["time"] for p in phases) >= 1e-3 else 1e6
    assert [b.get_height() for b in mid.patches] == pytest.approx(
        [p["time"] * scale for p in phases])
    assert mid.get_ylabel() == ("time (ms)" if scale == 1e3 else "time (\u00b5s)")
    assert list(bottom.get_lines()[0].get_ydata()) == [p["bucket"] for p in phases]
    kinds = ["pull" if p["pull"] else "step" for p in phases]
    legend = [t.get_text() for t in mid.get_legend().get_texts()]
    assert legend == [k for k in ("step", "pull") if k in kinds]
    colours = {k: {tuple(b.get_facecolor()) for b, kk in zip(mid.patches, kinds) if kk == k}
               for k in set(kinds)}
    assert all(len(c) == 1 for c in colours.values()) and len(set.union(*colours.values())) \
        == len(colours)
    text = _texts(fig)
    for phrase in ("vertices relaxed: the vertices whose edges the phase relaxed",
                   "edges relaxed: the adjacency entries it read",
                   "distances lowered: the candidates that lowered a distance",
                   "step: the vertices taken from the current bucket", "bucket b: the vertices "
                   "whose tentative distance lies in [b\u00b7\u0394, (b+1)\u00b7\u0394)",
                   "delta-stepping", f"root {phases and doc['sssp_runs'][0]['root']}"):
        assert phrase in text, phrase
    assert ("pull: every vertex not yet settled" in text) == ("pull" in kinds)


def test_sssp_phases_of_a_distributed_run():
    """The distributed delta-stepping's phases (light / heavy, relaxations, lowered) drawn as
    bars when there are few, each kind explained."""
    phases = [{"phase": i, "heavy": i % 2, "bucket": i // 2, "frontier": 3 + i,
               "relaxations": 10 * (i + 1), "candidates": 5, "local": 5, "sent": 0,
               "sent_bytes": 0, "received": 0, "received_bytes": 0, "lowered": i,
               "comp_time": 1e-3, "comm_time": 1e-3, "time": 2e-3 * (i + 1),
               "per_rank": {"frontier": [3 + i]}} for i in range(6)]
    doc = {"official": None, "parameters": {"scale": 8, "edgefactor": 16, "threads": 2,
                                            "algorithm": "direction-optimizing",
                                            "sssp_algorithm": "delta-stepping",
                                            "num_mpi_processes": 4},
           "runs": [], "sssp_runs": [{"root": 7, "teps": 5e6, "levels": phases}]}
    figs = make_figures(doc)
    assert [name for name, _ in figs] == SSSP_FIGURES
    fig = figs[1][1]
    top, mid, bottom = fig.axes
    bars = {c.get_label().split(" (")[0]: [p.get_height() for p in c] for c in top.containers}
    assert bars["edges relaxed"] == [10 * (i + 1) for i in range(6)]
    assert bars["distances lowered"] == pytest.approx([math.nan] + list(range(1, 6)),
                                                      nan_ok=True)
    assert [b.get_height() for b in mid.patches] == pytest.approx([2 * (i + 1) for i in range(6)])
    assert [t.get_text() for t in mid.get_legend().get_texts()] == ["light", "heavy"]
    assert list(bottom.get_lines()[0].get_ydata()) == [0, 0, 1, 1, 2, 2]
    text = _texts(fig)
    assert "light: the bucket's frontier relaxes its edges lighter than \u0394" in text
    assert "heavy: the vertices settled in the bucket relax" in text
    assert "4 processes" in text and "root 7" in text
