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
    """A per-level table: level, direction, frontier, edges examined, discovered, UR, time.
    Levels of the array-backend algorithms carry thesis Table 4.1 (CLQ, NLF, LV, NLQ, QR,
    UR) and their phase times: those are printed instead."""
    if levels and "CLQ" in levels[0]:
        return _format_table41(levels, title)
    head = f"{'level':>5} {'direction':>10} {'frontier':>12} {'edges':>14} {'discovered':>12} {'UR':>7} {'time ms':>9}"
    rows = [title, head] if title else [head]
    for lv in levels:
        rows.append(
            f"{lv['level']:>5} {lv['direction']:>10} {lv['frontier']:>12} {lv['edges_examined']:>14} "
            f"{lv['discovered']:>12} {lv['unique_ratio']:>7.3f} {lv['time'] * 1e3:>9.3f}"
        )
    return "\n".join(rows)


def format_dist_levels(levels: list[dict], title: str = "") -> str:
    """The per-level table of a distributed search (thesis Table 4.1, Table 4.2, Fig. 4.13):
    first summed over the processes (times: the slowest process), then every process's row.

    queue: vertices in the current queue (CLQ); NLF: their adjacency entries; pruned: entries
    left after pruning (sort-unique: distinct vertices); UR: pruned / NLF; local: pruned
    entries the process owns itself (LV); sent / received: entries (RV) and bytes exchanged
    with the other processes; new: vertices discovered (NLQ: own + received); comp / comm:
    milliseconds computing and in MPI calls."""
    head = (f"{'level':>5} {'queue':>10} {'NLF':>11} {'pruned':>10} {'UR':>6} {'local':>10} "
            f"{'sent':>10} {'sent MB':>9} {'received':>10} {'new':>9} {'comp ms':>8} "
            f"{'comm ms':>8}")
    rows = [title] if title else []
    rows += ["# all processes: sums; times of the slowest process", head]
    for lv in levels:
        ur = lv["nlf_pruned"] / lv["nlf"] if lv["nlf"] else 0.0
        rows.append(
            f"{lv['level']:>5} {lv['frontier']:>10} {lv['nlf']:>11} {lv['nlf_pruned']:>10} "
            f"{ur:>6.3f} {lv['local']:>10} {lv['sent']:>10} {lv['sent_bytes'] / 1e6:>9.3f} "
            f"{lv['received']:>10} {lv['discovered']:>9} {lv['comp_time'] * 1e3:>8.2f} "
            f"{lv['comm_time'] * 1e3:>8.2f}")
    if levels and len(levels[0]["per_rank"]["queue"]) > 1:
        rows += ["# per process", f"{'level':>5} {'rank':>4} " + head[6:]]
        for lv in levels:
            pr = lv["per_rank"]
            for r in range(len(pr["queue"])):
                nlf, pruned = pr["nlf"][r], pr["nlf_pruned"][r]
                ur = pruned / nlf if nlf else 0.0
                new = pr["enqueued_local"][r] + pr["enqueued_received"][r]
                rows.append(
                    f"{lv['level']:>5} {r:>4} {pr['queue'][r]:>10} {nlf:>11} {pruned:>10} "
                    f"{ur:>6.3f} {pr['local'][r]:>10} {pr['sent'][r]:>10} "
                    f"{pr['sent_bytes'][r] / 1e6:>9.3f} {pr['received'][r]:>10} {new:>9} "
                    f"{pr['comp_time'][r] * 1e3:>8.2f} {pr['comm_time'][r] * 1e3:>8.2f}")
    return "\n".join(rows)


def _format_table41(levels: list[dict], title: str) -> str:
    """Thesis Table 4.1 per level (RV is 0 in one process) and the phase times in ms."""
    head = (f"{'level':>5} {'direction':>10} {'CLQ':>10} {'NLF':>12} {'LV':>11} {'NLQ':>10} "
            f"{'QR':>6} {'UR':>6} {'expand':>8} {'search':>8} {'prune':>8} {'update':>8}")
    rows = [title] if title else []
    rows += ["# CLQ queue, NLF its adjacency entries, LV the unvisited ones, NLQ the next queue; "
             "QR = NLQ/NLF, UR = NLQ/LV; phase times in ms", head]
    for lv in levels:
        rows.append(
            f"{lv['level']:>5} {lv['direction']:>10} {lv['CLQ']:>10} {lv['NLF']:>12} "
            f"{lv['LV']:>11} {lv['NLQ']:>10} {lv['QR']:>6.3f} {lv['UR']:>6.3f} "
            + " ".join(f"{lv['t_' + p] * 1e3:>8.3f}" for p in ("expand", "search", "prune",
                                                               "update")))
    return "\n".join(rows)
