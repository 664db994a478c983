"""The reference's official output block, key for key, and the per-level table."""
from __future__ import annotations

_INT_KEYS = {"SCALE", "edgefactor", "NBFS", "num_mpi_processes"}
_KEY_WIDTH = 32


def _value(key: str, value: float) -> str:
    if key in _INT_KEYS:
        return str(int(value))
    if key.endswith("_nedge"):
        return "%.11g" % value
    return "%g" % value


def format_official(official: dict[str, float]) -> str:
    """Lines ``key: value`` with values in column 33, as the reference prints them.

    The harmonic mean carries the reference's ``!`` marker.
    """
    lines = []
    for key, value in official.items():
        label = f"{key}:"
        if key == "bfs  harmonic_mean_TEPS":
            label += "     !"
        lines.append(f"{label:<{_KEY_WIDTH}}{_value(key, value)}")
    return "\n".join(lines)


def format_levels(levels: list[dict], title: str = "") -> str:
    """A per-level table: level, direction, frontier, edges examined, discovered, UR, time."""
    head = f"{'level':>5} {'direction':>10} {'frontier':>12} {'edges':>14} {'discovered':>12} {'UR':>7} {'time ms':>9}"
    rows = [title, head] if title else [head]
    for lv in levels:
        rows.append(
            f"{lv['level']:>5} {lv['direction']:>10} {lv['frontier']:>12} {lv['edges_examined']:>14} "
            f"{lv['discovered']:>12} {lv['unique_ratio']:>7.3f} {lv['time'] * 1e3:>9.3f}"
        )
    return "\n".join(rows)
