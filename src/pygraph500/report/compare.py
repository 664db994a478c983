"""Side-by-side official statistics of several runs (``graph500 compare A.json B.json ...``).

One row per key of the official block (in the reference's order), one column per result,
then one ratio column per result after the first: ``value / value of the first``. A TEPS
ratio above 1 is faster than the first result, a time ratio below 1 is. A few parameters
(graph, algorithm, threads, ...) head the table, then every other parameter of the JSON
documents whose values differ between the runs (a new field included, with no list to
update), so unlike runs are easy to spot.
"""
from __future__ import annotations

import os

from ..errors import InputError
from .result import load_result

__all__ = ["compare_results"]

_PARAMS = (("graph", None), ("algorithm", "algorithm"), ("threads", "threads"),
           ("sort_vertices", "sort_vertices"), ("validate", "validate"))
# what differs from run to run by nature, or is shown as the graph row already
_NOT_COMPARED = {"code_warmup_time", "scale", "edgefactor", "input"}


def _differing(docs) -> list[tuple[str, list]]:
    """(name, values) of the parameters beyond _PARAMS whose values differ between the
    documents (nested ones by their dotted names, e.g. ``versions.numba``)."""
    def flat(params, prefix=""):
        for k, v in params.items():
            if isinstance(v, dict):
                yield from flat(v, f"{prefix}{k}.")
            else:
                yield f"{prefix}{k}", v
    shown = {key for _, key in _PARAMS} | _NOT_COMPARED
    values = [dict(flat({k: v for k, v in d.get("parameters", {}).items() if k not in shown}))
              for d in docs]
    names = list(dict.fromkeys(k for v in values for k in v))
    rows = [(k, [v.get(k) for v in values]) for k in names]
    return [(k, vals) for k, vals in rows if any(v != vals[0] for v in vals)]


def _graph(doc) -> str:
    p = doc.get("parameters", {})
    inp = p.get("input")
    if isinstance(inp, dict):
        return os.path.basename(str(inp.get("path")))
    return f"kron S{p.get('scale')} ef{p.get('edgefactor')}"


def _fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def compare_results(paths: list[str]) -> str:
    """The comparison table of the JSON results at ``paths`` (two or more), as text.

    >>> print(compare_results(["a.json", "b.json"]))       # doctest: +SKIP
    key                          a.json      b.json   b/a
    ...
    bfs  harmonic_mean_TEPS   !  1.2e+08     2.4e+08  2.000
    """
    if len(paths) < 2:
        raise InputError("compare needs two or more result files")
    docs = [load_result(p) for p in paths]
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) < len(names):  # the same name twice: number the columns
        names = [f"{i + 1}:{n}" for i, n in enumerate(names)]
    keys: list[str] = []
    for d in docs:
        for k in (d.get("official") or {}):
            if k not in keys:
                keys.append(k)
    if not keys:
        raise InputError("none of the results has official statistics (all invalid runs?)")
    header = ["key"] + names + [f"{n}/{names[0]}" for n in names[1:]]
    rows = []
    for label, key in _PARAMS:
        vals = [_graph(d) if key is None else d.get("parameters", {}).get(key) for d in docs]
        rows.append([label] + [_fmt(v) for v in vals] + [""] * (len(docs) - 1))
    for label, vals in _differing(docs):
        rows.append([label] + [_fmt(v) for v in vals] + [""] * (len(docs) - 1))
    rows.append(["valid"] + [_fmt(d.get("valid")) for d in docs] + [""] * (len(docs) - 1))
    rows.append(None)  # separator
    for k in keys:
        vals = [(d.get("official") or {}).get(k) for d in docs]
        base = vals[0]
        ratios = []
        for v in vals[1:]:
            if isinstance(base, (int, float)) and isinstance(v, (int, float)) and base not in (0, -1) \
                    and v != -1:
                ratios.append(f"{v / base:.3f}")
            else:
                ratios.append("-")
        label = k + ("   !" if k == "bfs  harmonic_mean_TEPS" else "")
        rows.append([label] + [_fmt(v) for v in vals] + ratios)
    widths = [max(len(header[j]), *(len(r[j]) for r in rows if r)) for j in range(len(header))]
    line = lambda cells: "  ".join(  # noqa: E731
        (c.ljust(widths[j]) if j == 0 else c.rjust(widths[j])) for j, c in enumerate(cells))
    out = [line(header), "-" * (sum(widths) + 2 * (len(widths) - 1))]
    for r in rows:
        out.append("-" * (sum(widths) + 2 * (len(widths) - 1)) if r is None else line(r))
    for d, n in zip(docs, names):
        for lab in d.get("labels") or []:
            out.append(f"# NOTE ({n}): {lab}")
    return "\n".join(out)
