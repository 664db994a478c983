"""Figures of a run's JSON document (``graph500 run --json``), as PNG files (matplotlib, Agg).

``plot_result(doc_or_path, out_dir)`` writes three figures and returns their paths:

- ``teps.png``: TEPS of every search, in search order, with the harmonic mean (the official
  ``bfs harmonic_mean_TEPS``) and the median marked.
- ``levels.png``: the per-level statistics of the first search, the pictures of the thesis's
  Table 4.1 and Fig. 4.13: frontier size (CLQ), adjacency entries examined (NLF) and vertices
  discovered (NLQ) per level on a log scale, and below them the unique ratio (UR =
  discovered / examined). Bars are coloured by the level's direction (top-down / bottom-up).
- ``level_times.png``: time per level. A "phase" here is a level: its direction and its
  time are what the searches record (there is no finer breakdown in an embedded run). Top:
  the first search, one bar per level coloured by direction. Bottom: every search, per level
  the median time and the range from the fastest to the slowest search.

Searches with many levels (a long path has thousands) are drawn as lines instead of bars.
"""
from __future__ import annotations

import json
import os

import numpy as np

from ..errors import InputError
from ..io import atomic_writer, readable_input, written_together

__all__ = ["plot_result", "load_result"]

_COLORS = {"top-down": "#1f77b4", "bottom-up": "#d62728"}
_BAR_LIMIT = 80  # above this many levels, lines instead of bars


def load_result(path: str) -> dict:
    """The JSON document of ``graph500 run --json``; InputError when it is not one."""
    if os.path.isdir(path):
        raise InputError(f"cannot read {path}: it is a directory")
    with readable_input(path) as local:
        try:
            with open(local) as f:
                doc = json.load(f)
        except OSError as exc:
            raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: not a JSON document: {exc}") from None
    if not isinstance(doc, dict) or "runs" not in doc or "parameters" not in doc:
        raise InputError(f"{path}: not a result of `graph500 run --json` (no 'runs'/'parameters')")
    problem = _shape_problem(doc)
    if problem:
        raise InputError(f"{path}: not a result of `graph500 run --json` ({problem})")
    return doc


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _shape_problem(doc: dict) -> str | None:
    """What in ``doc`` has the wrong type for a run's document (None: nothing)."""
    if not isinstance(doc["parameters"], dict):
        return "'parameters' is not an object"
    official = doc.get("official")
    if official is not None and not (isinstance(official, dict)
                                     and all(_is_number(v) for v in official.values())):
        return "'official' is not an object of numbers"
    for key in ("runs", "sssp_runs"):
        runs = doc.get(key, [])
        if not isinstance(runs, list) or not all(isinstance(r, dict) for r in runs):
            return f"'{key}' is not a list of objects"
        for r in runs:
            if any(k in r and not _is_number(r[k]) for k in ("time", "nedge", "teps")):
                return f"a search of '{key}' has a time, nedge or teps that is not a number"
            levels = r.get("levels", [])
            if not isinstance(levels, list) or not all(isinstance(lv, dict) for lv in levels):
                return f"a search of '{key}' has 'levels' that are not a list of objects"
    return None


def _title(doc: dict) -> str:
    p = doc.get("parameters", {})
    src = p.get("input", {}).get("path") if isinstance(p.get("input"), dict) else None
    graph = os.path.basename(src) if src else f"SCALE {p.get('scale')}, edgefactor {p.get('edgefactor')}"
    return f"{graph} · {p.get('algorithm')} · {p.get('threads')} threads"


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'pygraph500[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: str) -> None:
    """Write the figure and close it, also when the write fails (pyplot keeps open ones)."""
    import matplotlib.pyplot as plt

    try:
        with atomic_writer(path) as f:
            fig.savefig(f, format="png", dpi=110)
    finally:
        plt.close(fig)


def _direction_legend(ax, directions):
    from matplotlib.patches import Patch

    present = [d for d in ("top-down", "bottom-up") if d in set(directions)]
    return [Patch(color=_COLORS[d], label=d) for d in present]


def _plot_teps(plt, doc, path):
    runs = doc["runs"]
    teps = np.array([r["teps"] for r in runs], dtype=float)
    roots = [r["root"] for r in runs]
    fig, ax = plt.subplots(figsize=(10, 4.6))
    x = np.arange(len(teps))
    ax.bar(x, teps, color="#8fb8de", edgecolor="#1f77b4", linewidth=0.5, label="one search")
    official = doc.get("official") or {}
    if official.get("bfs  harmonic_mean_TEPS") is not None:
        hm = official["bfs  harmonic_mean_TEPS"]
    else:  # an invalid or partial run: the harmonic mean of what was measured
        hm = len(teps) / np.sum(1.0 / teps) if len(teps) else float("nan")
    ax.axhline(hm, color="#d62728", linewidth=2, label=f"harmonic mean {hm:.4g} TEPS")
    if len(teps):
        med = float(np.median(teps))
        ax.axhline(med, color="#555555", linestyle="--", linewidth=1, label=f"median {med:.4g}")
    log = bool(len(teps) and teps.min() > 0 and teps.max() / teps.min() > 20)
    if log:
        ax.set_yscale("log")
    if len(teps):  # headroom above the bars for the legend
        ax.set_ylim(top=teps.max() * (4 if log else 1.3))
    ax.set_xlabel("search (root)")
    ax.set_ylabel("TEPS (traversed edges per second)")
    ax.set_title(f"TEPS per search: {_title(doc)}", fontsize=10)
    if len(x) <= 64:
        ax.set_xticks(x)
        ax.set_xticklabels([str(r) for r in roots], rotation=90, fontsize=6)
    ax.set_xlim(-0.8, len(x) - 0.2)
    ax.legend(loc="upper center", ncol=3, fontsize=8, framealpha=0.9)
    ax.grid(axis="y", alpha=0.3, which="both")
    fig.tight_layout()
    _save(fig, path)


def _level_columns(levels):
    cols = {k: np.array([lv[k] for lv in levels]) for k in
            ("level", "frontier", "edges_examined", "discovered", "time")}
    cols["direction"] = [lv["direction"] for lv in levels]
    ed = cols["edges_examined"].astype(float)
    cols["unique_ratio"] = np.divide(cols["discovered"], ed, out=np.zeros_like(ed), where=ed > 0)
    return cols


def _plot_levels(plt, doc, path):
    run = doc["runs"][0]
    c = _level_columns(run["levels"])
    n = len(c["level"])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), sharex=True,
                                      gridspec_kw={"height_ratios": [2, 1]})
    colors = [_COLORS.get(d, "#777777") for d in c["direction"]]
    series = (("frontier", "frontier (CLQ)", "#1f77b4"),
              ("edges_examined", "edges examined (NLF)", "#ff7f0e"),
              ("discovered", "discovered (NLQ)", "#2ca02c"))
    if n <= _BAR_LIMIT:
        w = 0.27
        for k, (key, label, color) in enumerate(series):
            vals = np.maximum(c[key], 0)
            bars = top.bar(c["level"] + (k - 1) * w, np.where(vals > 0, vals, np.nan), w,
                           color=color, label=label)
            if n <= 16:
                top.bar_label(bars, labels=[f"{v:,}" if v else "" for v in vals], fontsize=6,
                              rotation=90, padding=2)
        bottom.bar(c["level"], c["unique_ratio"], 0.6, color=colors)
        bottom.legend(handles=_direction_legend(bottom, c["direction"]), fontsize=8,
                      loc="upper right", title="direction", title_fontsize=8)
    else:
        for (key, label, color), lw in zip(series, (3.0, 1.8, 1.0)):  # wide under narrow:
            top.plot(c["level"], np.where(c[key] > 0, c[key], np.nan), color=color, label=label,
                     linewidth=lw)                                      # equal lines stay visible
        bottom.plot(c["level"], c["unique_ratio"], color="#444444", linewidth=1)
    top.set_yscale("log")
    top.set_ylabel("count per level (log)")
    top.legend(fontsize=8, loc="upper right")
    top.grid(axis="y", alpha=0.3, which="major")
    top.set_title(f"levels of the search from root {run['root']} (thesis Table 4.1, Fig. 4.13)\n"
                  f"{_title(doc)}", fontsize=10)
    top.margins(y=0.15)
    bottom.set_ylabel("unique ratio\n(discovered / examined)")
    bottom.set_xlabel("BFS level")
    bottom.set_ylim(0, max(1.05, float(c["unique_ratio"].max(initial=0)) * 1.1))
    bottom.grid(axis="y", alpha=0.3)
    if n <= _BAR_LIMIT:
        bottom.set_xticks(c["level"])
    fig.tight_layout()
    _save(fig, path)


def _plot_level_times(plt, doc, path):
    runs = doc["runs"]
    first = _level_columns(runs[0]["levels"])
    n = len(first["level"])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7))
    ms = first["time"] * 1e3
    if n <= _BAR_LIMIT:
        top.bar(first["level"], ms, 0.6, color=[_COLORS.get(d, "#777") for d in first["direction"]])
        top.legend(handles=_direction_legend(top, first["direction"]), fontsize=8,
                   title="direction (phase)", title_fontsize=8)
        top.set_xticks(first["level"])
    else:
        top.plot(first["level"], ms, color="#1f77b4", linewidth=1)
    top.set_ylabel("time (ms)")
    top.set_xlabel("BFS level")
    top.set_title(f"time per level of the search from root {runs[0]['root']} "
                  f"(total {ms.sum():.3g} ms)\n{_title(doc)}", fontsize=10)
    top.grid(axis="y", alpha=0.3)

    depth = max(len(r["levels"]) for r in runs)
    table = np.full((len(runs), depth), np.nan)
    bu = np.zeros(depth)
    for i, r in enumerate(runs):
        t = np.array([lv["time"] for lv in r["levels"]], dtype=float)
        table[i, :t.shape[0]] = t * 1e3
        bu[:t.shape[0]] += [lv["direction"] == "bottom-up" for lv in r["levels"]]
    med = np.nanmedian(table, axis=0)
    lo = np.nanmin(table, axis=0)
    hi = np.nanmax(table, axis=0)
    lv = np.arange(depth)
    share = bu / np.maximum(1, np.sum(~np.isnan(table), axis=0))
    if depth <= _BAR_LIMIT:
        colors = [_COLORS["bottom-up"] if s > 0.5 else _COLORS["top-down"] for s in share]
        bottom.bar(lv, med, 0.6, color=colors, alpha=0.85)
        bottom.errorbar(lv, med, yerr=[med - lo, hi - med], fmt="none", ecolor="#333333",
                        capsize=3, linewidth=1)
        bottom.legend(handles=_direction_legend(bottom, ["bottom-up" if s > 0.5 else "top-down"
                                                         for s in share])
                      + [plt.Line2D([], [], color="#333333", label="fastest .. slowest")],
                      fontsize=8, title="direction of most searches", title_fontsize=8)
        bottom.set_xticks(lv)
    else:
        bottom.plot(lv, med, color="#1f77b4", linewidth=1, label="median")
        bottom.fill_between(lv, lo, hi, color="#1f77b4", alpha=0.2, label="fastest .. slowest")
        bottom.legend(fontsize=8)
    bottom.set_ylabel("time (ms)")
    bottom.set_xlabel("BFS level")
    bottom.set_title(f"time per level over all {len(runs)} searches: median and range",
                     fontsize=10)
    bottom.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    _save(fig, path)


def plot_result(result, out_dir: str) -> list[str]:
    """Write teps.png, levels.png and level_times.png for a run's JSON (a path or the dict)
    into ``out_dir`` (created if missing); return the paths written.

    >>> plot_result("r.json", "figs")                     # doctest: +SKIP
    ['figs/teps.png', 'figs/levels.png', 'figs/level_times.png']
    """
    doc = load_result(result) if isinstance(result, str) else result
    runs = doc.get("runs") or []
    if not runs:
        raise InputError("the result holds no searches to plot")
    if not all(r.get("levels") for r in runs):
        raise InputError("the result has searches without per-level statistics")
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise InputError(f"--out {out_dir}: exists and is not a directory")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {out_dir}: {exc.strerror or exc}") from None
    plt = _pyplot()
    figures = (("teps.png", _plot_teps), ("levels.png", _plot_levels),
               ("level_times.png", _plot_level_times))
    paths = [os.path.join(out_dir, name) for name, _ in figures]
    with written_together(*paths):  # all three figures new, or all three as they were
        for path, (_, fn) in zip(paths, figures):
            fn(plt, doc, path)
    return paths
