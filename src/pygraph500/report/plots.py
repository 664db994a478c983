"""Figures of a run's JSON document (``graph500 run --json``), as PNG files (matplotlib, Agg).

``plot_result(doc_or_path, out_dir)`` writes the figures and returns their paths;
``make_figures(doc)`` gives them as matplotlib Figures, not written. A run with BFS searches
("runs") gets three:

- ``teps.png``: TEPS of every search, in search order, with the harmonic mean (the official
  ``bfs harmonic_mean_TEPS``) and the median marked.
- ``levels.png``: the per-level statistics of the first search, the quantities of
  Mastrostefano 2013, Table 4.1: the current level queue (CLQ, the frontier), the next level
  frontier before pruning (NLF, adjacency entries examined) and the next level queue after pruning
  (NLQ, vertices discovered) per level on a log scale, and below them NLQ / NLF (the JSON's
  ``unique_ratio``: the project's, not the thesis's QR = CLQ / NLF or UR = pruned / NLF,
  which the algorithms that record Table 4.1 carry under those names), coloured by the
  level's direction.
- ``level_times.png``: time per level. Top: the first search, one bar per level coloured by
  direction. Bottom: every search, per level the median time and the range from the fastest
  to the slowest search.

A run with SSSP searches (``--kernel sssp|both``: "sssp_runs") gets two more:

- ``sssp_teps.png``: as ``teps.png``, the harmonic mean the official ``sssp
  harmonic_mean_TEPS``.
- ``sssp_phases.png``: the phases of the first SSSP search, as its algorithm records them
  (a phase of delta-stepping is one step of a bucket, or the pull; of the distributed one a
  light or heavy phase of a bucket; of Bellman-Ford a round): vertices relaxed, edges
  relaxed and distances lowered per phase, the phase's time coloured by its kind, and the
  bucket (Bellman-Ford: far piles opened) it belongs to.

TEPS axes are in MTEPS, or GTEPS from a billion TEPS up, with plain tick labels. Every figure
spells out its abbreviations in a caption under its axes. Searches with many levels (a long
path has thousands) or phases are drawn as lines instead of bars.
"""
from __future__ import annotations

import io
import os

import numpy as np

from ..errors import InputError
from ..io import atomic_writer, written_together
from .result import KERNEL_KEYS, load_result

__all__ = ["plot_result", "make_figures", "check_plot_target"]

_COLORS = {"top-down": "#1f77b4", "bottom-up": "#d62728"}
_BAR_LIMIT = 80  # above this many levels, lines instead of bars
_PHASE_BAR_LIMIT = 32  # above this many SSSP phases, lines instead of bar groups
# kernel -> the document's key of its searches, its prefix in the official block, its name
_KERNELS = {k: (*keys, k.upper()) for k, keys in KERNEL_KEYS.items()}
_CAPTION_SIZE = 7.5  # points

_DIRECTIONS = ("top-down: the frontier's vertices scan their adjacency lists;   bottom-up "
               "(Beamer's direction optimization): unvisited vertices look for a parent in the "
               "frontier")
_TEPS_TEXT = {
    "bfs": "BFS (Graph500 kernel 2): a breadth-first search tree from the root.",
    "sssp": "SSSP (Graph500 kernel 3): shortest paths from the root on the float32 edge "
            "weights; its TEPS counts the edges as BFS's does.",
}
# SSSP phase kind -> colour, what it is
_PHASE_KINDS = {
    "step": ("#1f77b4", "step: the vertices taken from the current bucket relax their edges "
                        "(light row heads, and the rests of settled rows that reach it)"),
    "pull": ("#9467bd", "pull: every vertex not yet settled reads its row from the settled "
                        "side (once per search)"),
    "light": ("#1f77b4", "light: the bucket's frontier relaxes its edges lighter than Δ "
                         "(repeated while the bucket refills)"),
    "heavy": ("#ff7f0e", "heavy: the vertices settled in the bucket relax their edges of "
                         "weight Δ or more (once per bucket)"),
    "round": ("#1f77b4", "round: the vertices lowered in the round before relax all their "
                         "edges"),
    "search": ("#1f77b4", "search: Dijkstra's whole search is one phase"),
}
_BUCKETS = {  # SSSP algorithm -> bottom panel's label, its line of the caption
    "bellman-ford": ("far piles\nopened", "far piles opened: near-far Bellman-Ford (Davidson et "
                     "al.) parks vertices lowered past the limit in a far pile; when the "
                     "frontier runs dry, the next band of the pile becomes the frontier"),
    "dijkstra": ("bucket", "bucket: Dijkstra has one (0)"),
}
_DELTA_BUCKET = ("bucket", "bucket b: the vertices whose tentative distance lies in "
                 "[b·Δ, (b+1)·Δ); Δ: the bucket width; buckets are taken in increasing order")


def _title(doc: dict, kernel: str = "bfs") -> str:
    p = doc.get("parameters", {})
    src = p.get("input", {}).get("path") if isinstance(p.get("input"), dict) else None
    graph = (os.path.basename(src) if src
             else f"SCALE {p.get('scale')}, edgefactor {p.get('edgefactor')}")
    algorithm = p.get("sssp_algorithm") if kernel == "sssp" else p.get("algorithm")
    procs = p.get("num_mpi_processes")
    where = f" · {procs} process{'es' if procs != 1 else ''}" if procs else ""
    return f"{graph} · {algorithm} · {p.get('threads')} threads{where}"


def _new_figure(figsize):
    """A Figure drawn by Agg, outside pyplot (no global state, the user's backend untouched)."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'pygraph500[plot]'") from None
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig


def _finish(fig, caption: list[str]) -> None:
    """Lay the figure out with the lines of ``caption`` under its axes."""
    room = (len(caption) * _CAPTION_SIZE * 1.4 + 10) / (fig.get_figheight() * 72)
    fig.text(0.012, 0.01, "\n".join(caption), fontsize=_CAPTION_SIZE, ha="left", va="bottom",
             color="#222222", linespacing=1.4)
    fig.tight_layout(rect=(0, room, 1, 1))


def _number(v: float) -> str:
    """``v`` with four significant digits, never in scientific notation."""
    return np.format_float_positional(float(v), precision=4, unique=False, fractional=False,
                                      trim="-")


def _plain_tick(v, _pos=None) -> str:
    return np.format_float_positional(float(v), precision=6, trim="-")


def _teps_unit(teps: np.ndarray) -> tuple[float, str]:
    """(TEPS per unit, unit): GTEPS when the largest value is a billion TEPS or more, else
    MTEPS."""
    top = float(np.nanmax(teps)) if teps.size else 0.0
    return (1e9, "GTEPS") if top >= 1e9 else (1e6, "MTEPS")


def _teps_axis(ax, unit: str, log: bool) -> None:
    """The y axis in ``unit`` with plain tick labels: no offset, no multiplier, no exponent."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, ScalarFormatter

    if log:
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(_plain_tick))
        ax.yaxis.set_minor_formatter(NullFormatter())
    else:
        plain = ScalarFormatter(useOffset=False)
        plain.set_scientific(False)
        ax.yaxis.set_major_formatter(plain)
    size = "millions" if unit == "MTEPS" else "billions"
    ax.set_ylabel(f"{unit} ({size} of traversed\nedges per second)")


def _time_unit(seconds) -> tuple[float, str]:
    """(factor, unit) for times in seconds: ms, or µs when every one is below a millisecond."""
    top = float(np.nanmax(seconds, initial=0.0))
    return (1e3, "ms") if top >= 1e-3 else (1e6, "µs")


def _plot_teps(doc: dict, kernel: str):
    key, prefix, name = _KERNELS[kernel]
    runs = doc[key]
    raw = np.array([r["teps"] for r in runs], dtype=float)
    per, unit = _teps_unit(raw)
    teps = raw / per
    fig = _new_figure((10, 5.3))
    ax = fig.subplots()
    x = np.arange(len(teps))
    ax.bar(x, teps, color="#8fb8de", edgecolor="#1f77b4", linewidth=0.5,
           label="one search (its root below)")
    hm = (doc.get("official") or {}).get(prefix + "harmonic_mean_TEPS")
    if hm is None:  # an invalid or partial run: the harmonic mean of what was measured
        hm = len(raw) / np.sum(1.0 / raw) if len(raw) else float("nan")
    ax.axhline(hm / per, color="#d62728", linewidth=2,
               label=f"harmonic mean {_number(hm / per)} {unit}")
    if len(teps):
        med = float(np.median(teps))
        ax.axhline(med, color="#555555", linestyle="--", linewidth=1,
                   label=f"median {_number(med)} {unit}")
    log = bool(len(teps) and teps.min() > 0 and teps.max() / teps.min() > 20)
    _teps_axis(ax, unit, log)
    if len(teps):  # headroom above the bars for the legend
        ax.set_ylim(top=teps.max() * (4 if log else 1.3))
    ax.set_xlabel("search (its root vertex)")
    ax.set_title(f"{name} TEPS per search: {_title(doc, kernel)}", fontsize=10)
    if len(x) <= 64:
        ax.set_xticks(x)
        ax.set_xticklabels([str(r["root"]) for r in runs], rotation=90, fontsize=6)
    ax.set_xlim(-0.8, len(x) - 0.2)
    ax.legend(loc="upper center", ncol=3, fontsize=8, framealpha=0.9)
    ax.grid(axis="y", alpha=0.3, which="both")
    caption = [_TEPS_TEXT[kernel],
               "TEPS: traversed edges per second, the input edges of the component reached "
               "from the root (Graph500's count) / the search's time; "
               f"{unit} = {'10⁹' if unit == 'GTEPS' else '10⁶'} TEPS.",
               "harmonic mean: searches / Σ(1/TEPS), the Graph500 figure of a run (the "
               "official block's harmonic_mean_TEPS); median: the middle search."]
    if log:
        caption.append("log scale: the searches' TEPS differ more than 20-fold.")
    _finish(fig, caption)
    return fig


def _direction_legend(directions):
    from matplotlib.patches import Patch

    present = [d for d in ("top-down", "bottom-up") if d in set(directions)]
    return [Patch(color=_COLORS[d], label=d) for d in present]


def _level_columns(levels):
    cols = {k: np.array([lv[k] for lv in levels]) for k in
            ("level", "frontier", "edges_examined", "discovered", "time")}
    cols["direction"] = [lv["direction"] for lv in levels]
    ed = cols["edges_examined"].astype(float)
    cols["unique_ratio"] = np.divide(cols["discovered"], ed, out=np.zeros_like(ed), where=ed > 0)
    return cols


def _draw_counts(ax, x, series, bars: bool) -> None:
    """Counts on a log scale: per ``(values, label, color)`` of ``series`` a bar beside the
    others at each x (labelled with its value up to 16 of them), or a line."""
    if bars:
        w = 0.8 / len(series)
        for k, (vals, label, color) in enumerate(series):
            vals = np.maximum(vals, 0)
            drawn = ax.bar(x + (k - (len(series) - 1) / 2) * w,
                           np.where(vals > 0, vals, np.nan), w, color=color, label=label)
            if len(x) <= 16:
                ax.bar_label(drawn, labels=[f"{v:,}" if v else "" for v in vals], fontsize=6,
                             rotation=90, padding=2)
    else:  # wide under narrow: equal lines stay visible; dots: a value between two zeros
        dots = dict(marker="o", markersize=2.5) if len(x) <= 4 * _BAR_LIMIT else {}
        for (vals, label, color), lw in zip(series, (3.0, 1.8, 1.0)):
            ax.plot(x, np.where(vals > 0, vals, np.nan), color=color, label=label, linewidth=lw,
                    **dots)
    ax.set_yscale("log")
    positive = np.concatenate([np.asarray(v)[np.asarray(v) > 0] for v, _, _ in series])
    if positive.size:  # the data in the lower two thirds: room for the legend above it
        lo, hi = positive.min() / 1.6, positive.max()
        ax.set_ylim(lo, hi * max(hi / lo, 10.0) ** 0.5)
    ax.grid(axis="y", alpha=0.3, which="major")


def _plot_levels(doc: dict):
    run = doc["runs"][0]
    c = _level_columns(run["levels"])
    n = len(c["level"])
    fig = _new_figure((10, 8.2))
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [2, 1]})
    series = ((c["frontier"], "CLQ: current level queue (frontier vertices)", "#1f77b4"),
              (c["edges_examined"], "NLF: next level frontier before pruning (entries "
                                    "examined)", "#ff7f0e"),
              (c["discovered"], "NLQ: next level queue after pruning (vertices discovered)",
               "#2ca02c"))
    _draw_counts(top, c["level"], series, n <= _BAR_LIMIT)
    if n <= _BAR_LIMIT:
        bottom.bar(c["level"], c["unique_ratio"], 0.6,
                   color=[_COLORS.get(d, "#777777") for d in c["direction"]])
        bottom.legend(handles=_direction_legend(c["direction"]), fontsize=8,
                      loc="upper right", title="direction", title_fontsize=8)
        bottom.set_xticks(c["level"])
    else:
        bottom.plot(c["level"], c["unique_ratio"], color="#444444", linewidth=1)
    top.set_ylabel("count per level (log)")
    top.legend(fontsize=8, loc="upper right")
    top.set_title(f"levels of the BFS from root {run['root']} "
                  f"(Mastrostefano 2013, Table 4.1)\n"
                  f"{_title(doc)}", fontsize=10)
    bottom.set_ylabel("NLQ / NLF\n(discovered / examined)")
    bottom.set_xlabel("BFS level")
    bottom.set_ylim(0, max(1.05, float(c["unique_ratio"].max(initial=0)) * 1.1))
    bottom.grid(axis="y", alpha=0.3)
    _finish(fig, [
        "CLQ = current level queue: the frontier's vertices at the start of the level.   "
        "NLQ = next level queue after pruning: the vertices the level discovered, each once.",
        "NLF = next level frontier before pruning: the adjacency entries the level examined "
        "(bottom-up: those unvisited vertices read until each finds a parent).",
        "NLQ / NLF: the share of the examined entries that reached a new vertex "
        "(unique_ratio in the JSON; Table 4.1's queue ratio QR is CLQ / NLF, "
        "its UR pruned / NLF).",
        _DIRECTIONS + "."])
    return fig


def _level_time_table(runs, factor: float):
    """Per level over the searches: median, fastest and slowest time (times ``factor``) and
    whether most of the searches went bottom-up there."""
    depth = max(len(r["levels"]) for r in runs)
    table = np.full((len(runs), depth), np.nan)
    bu = np.zeros(depth)
    for i, r in enumerate(runs):
        t = np.array([lv["time"] for lv in r["levels"]], dtype=float)
        table[i, :t.shape[0]] = t * factor
        bu[:t.shape[0]] += [lv["direction"] == "bottom-up" for lv in r["levels"]]
    share = bu / np.maximum(1, np.sum(~np.isnan(table), axis=0))
    return (np.nanmedian(table, axis=0), np.nanmin(table, axis=0), np.nanmax(table, axis=0),
            share > 0.5)


def _all_level_times(ax, runs, factor: float, unit: str) -> None:
    from matplotlib.lines import Line2D

    med, lo, hi, bottom_up = _level_time_table(runs, factor)
    lv = np.arange(med.shape[0])
    if med.shape[0] <= _BAR_LIMIT:
        most = ["bottom-up" if b else "top-down" for b in bottom_up]
        ax.bar(lv, med, 0.6, color=[_COLORS[d] for d in most], alpha=0.85)
        ax.errorbar(lv, med, yerr=[med - lo, hi - med], fmt="none", ecolor="#333333",
                    capsize=3, linewidth=1)
        ax.legend(handles=_direction_legend(most)
                  + [Line2D([], [], color="#333333", label="fastest .. slowest search")],
                  fontsize=8, title="direction of most searches", title_fontsize=8)
        ax.set_xticks(lv)
    else:
        ax.plot(lv, med, color="#1f77b4", linewidth=1, label="median")
        ax.fill_between(lv, lo, hi, color="#1f77b4", alpha=0.2, label="fastest .. slowest search")
        ax.legend(fontsize=8)
    ax.set_ylabel(f"time ({unit})")
    ax.set_xlabel("BFS level")
    ax.set_title(f"time per level over all {len(runs)} searches: median and range", fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def _plot_level_times(doc: dict):
    runs = doc["runs"]
    first = _level_columns(runs[0]["levels"])
    factor, unit = _time_unit([lv["time"] for r in runs for lv in r["levels"]])
    fig = _new_figure((10, 7.8))
    top, bottom = fig.subplots(2, 1)
    t = first["time"] * factor
    if len(t) <= _BAR_LIMIT:
        top.bar(first["level"], t, 0.6,
                color=[_COLORS.get(d, "#777777") for d in first["direction"]])
        top.legend(handles=_direction_legend(first["direction"]), fontsize=8,
                   title="direction", title_fontsize=8)
        top.set_xticks(first["level"])
    else:
        top.plot(first["level"], t, color="#1f77b4", linewidth=1)
    top.set_ylabel(f"time ({unit})")
    top.set_xlabel("BFS level")
    top.set_title(f"time per level of the BFS from root {runs[0]['root']} "
                  f"(total {_number(t.sum())} {unit})\n{_title(doc)}", fontsize=10)
    top.grid(axis="y", alpha=0.3)
    _all_level_times(bottom, runs, factor, unit)
    _finish(fig, [_DIRECTIONS + ".",
                  "Below: per level, the median over the searches (bar) and the fastest .. "
                  "slowest search (whisker); a level that some searches do not reach has "
                  "fewer searches."])
    return fig


def _phase_kinds(phases: list[dict], algorithm: str | None) -> list[str]:
    """Each phase's kind (a key of ``_PHASE_KINDS``) from what its algorithm records."""
    if phases and "heavy" in phases[0]:  # the distributed delta-stepping
        return ["heavy" if p["heavy"] else "light" for p in phases]
    plain = {"bellman-ford": "round", "dijkstra": "search"}.get(algorithm, "step")
    return ["pull" if p.get("pull") else plain for p in phases]


def _phase_columns(phases: list[dict]) -> dict:
    """The columns of an SSSP search's phases, embedded (frontier, edges_examined,
    discovered) or distributed (frontier, relaxations, lowered) alike."""
    def col(*keys):
        return np.array([next((p[k] for k in keys if k in p), 0) for p in phases])

    return {"phase": np.arange(len(phases)), "vertices": col("frontier"),
            "edges": col("relaxations", "edges_examined"),
            "lowered": col("lowered", "discovered"),
            "time": col("time").astype(float), "bucket": col("bucket")}


def _phase_times(ax, c, kinds, factor: float, unit: str) -> None:
    from matplotlib.patches import Patch

    colors = [_PHASE_KINDS[k][0] for k in kinds]
    t = c["time"] * factor
    if len(t) <= _BAR_LIMIT:
        ax.bar(c["phase"], t, 0.7, color=colors)
    else:
        ax.plot(c["phase"], t, color="#999999", linewidth=0.6)
        ax.scatter(c["phase"], t, c=colors, s=6, zorder=3)
    present = [k for k in _PHASE_KINDS if k in set(kinds)]
    ax.set_ylim(0, float(np.nanmax(t, initial=0.0)) * 1.25 or 1.0)
    ax.legend(handles=[Patch(color=_PHASE_KINDS[k][0], label=k) for k in present], fontsize=8,
              loc="best", title="phase kind", title_fontsize=8)
    ax.set_ylabel(f"time ({unit})")
    ax.grid(axis="y", alpha=0.3)


def _plot_sssp_phases(doc: dict):
    from matplotlib.ticker import MaxNLocator

    run = doc["sssp_runs"][0]
    algorithm = doc.get("parameters", {}).get("sssp_algorithm")
    c = _phase_columns(run["levels"])
    kinds = _phase_kinds(run["levels"], algorithm)
    factor, unit = _time_unit(c["time"])
    n = len(c["phase"])
    fig = _new_figure((10, 9.4))
    top, mid, bottom = fig.subplots(3, 1, sharex=True,
                                    gridspec_kw={"height_ratios": [2, 1.1, 0.8]})
    series = ((c["vertices"], "vertices relaxed (their edges relaxed in the phase)", "#1f77b4"),
              (c["edges"], "edges relaxed (adjacency entries read)", "#ff7f0e"),
              (c["lowered"], "distances lowered", "#2ca02c"))
    _draw_counts(top, c["phase"], series, n <= _PHASE_BAR_LIMIT)
    top.set_ylabel("count per phase (log)")
    top.legend(fontsize=8, loc="upper right")
    top.set_title(f"phases of the SSSP search from root {run['root']}: {n} phases in "
                  f"{_number(c['time'].sum() * factor)} {unit}\n{_title(doc, 'sssp')}",
                  fontsize=10)
    _phase_times(mid, c, kinds, factor, unit)
    label, bucket_text = _BUCKETS.get(algorithm, _DELTA_BUCKET)
    bottom.step(c["phase"], c["bucket"], where="mid", color="#444444", linewidth=1.2)
    bottom.set_ylabel(label)
    bottom.set_xlabel("phase (in order)")
    bottom.grid(axis="y", alpha=0.3)
    for ax in (mid, bottom):
        ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=ax is bottom))
    if n <= _PHASE_BAR_LIMIT:
        bottom.set_xticks(c["phase"])
    else:
        bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
    _finish(fig, [
        "A phase: one pass of the search in which a set of vertices relaxes its edges "
        "(candidate distance = distance + weight; a vertex's distance is lowered to a smaller "
        "candidate).",
        "vertices relaxed: the vertices whose edges the phase relaxed;   edges relaxed: the "
        "adjacency entries it read;   distances lowered: the candidates that lowered a distance.",
        *[_PHASE_KINDS[k][1] + "." for k in _PHASE_KINDS if k in set(kinds)],
        bucket_text + "."])
    return fig


def _searches_problem(doc: dict) -> None:
    """InputError when ``doc`` holds no search to plot, or one without its level table."""
    searches = [r for key, _, _ in _KERNELS.values() for r in (doc.get(key) or [])]
    if not searches:
        raise InputError("the result holds no searches to plot")
    if not all(r.get("levels") for r in searches):
        raise InputError("the result has searches without per-level statistics")


def make_figures(doc: dict) -> list[tuple[str, object]]:
    """The figures of a run's document as (file name, matplotlib Figure), not written: BFS's
    three when it has BFS searches, then SSSP's two when it has SSSP searches."""
    _searches_problem(doc)
    figures = []
    if doc.get("runs"):
        figures += [("teps.png", _plot_teps(doc, "bfs")), ("levels.png", _plot_levels(doc)),
                    ("level_times.png", _plot_level_times(doc))]
    if doc.get("sssp_runs"):
        figures += [("sssp_teps.png", _plot_teps(doc, "sssp")),
                    ("sssp_phases.png", _plot_sssp_phases(doc))]
    return figures


def check_plot_target(out_dir: str, option: str = "--out") -> None:
    """InputError unless figures can go to ``out_dir`` (given as ``option``): matplotlib is
    installed and ``out_dir`` is not a file. ``graph500 run --plot`` asks before its run."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'pygraph500[plot]'") from None
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise InputError(f"{option} {out_dir}: exists and is not a directory")


def plot_result(result, out_dir: str) -> list[str]:
    """Write the figures of a run's JSON (a path or the dict) into ``out_dir`` (created if
    missing): teps.png, levels.png, level_times.png for its BFS searches, sssp_teps.png and
    sssp_phases.png for its SSSP searches; return the paths written.

    >>> plot_result("r.json", "figs")                     # doctest: +SKIP
    ['figs/teps.png', 'figs/levels.png', 'figs/level_times.png']
    """
    doc = load_result(result) if isinstance(result, str) else result
    _searches_problem(doc)
    check_plot_target(out_dir)
    figures = make_figures(doc)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {out_dir}: {exc.strerror or exc}") from None
    paths = [os.path.join(out_dir, name) for name, _ in figures]
    images = []  # rendered before any file is opened: a file gets one write of its bytes
    for _, fig in figures:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
        images.append(buf.getvalue())
    with written_together(*paths):  # every figure new, or every one as it was
        for path, image in zip(paths, images):
            with atomic_writer(path) as f:
                f.write(image)
    return paths
