"""The reference's official output block, key for key, and the per-level table."""
from __future__ import annotations

import statistics

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

    The harmonic means (BFS and SSSP) carry the reference's ``!`` marker.
    """
    lines = []
    for key, value in official.items():
        label = f"{key}:"
        if key.endswith(" harmonic_mean_TEPS"):
            label += "     !"
        lines.append(f"{label:<{_KEY_WIDTH}}{_value(key, value)}")
    return "\n".join(lines)


def format_levels(levels: list[dict], title: str = "") -> str:
    """A per-level table: level, direction, frontier, edges examined, discovered, UR, time.
    Levels of the array-backend algorithms carry thesis Table 4.1 (CLQ, NLF, LV, NLQ, QR,
    UR; and FRESH) and their phase times: those are printed instead. Levels of
    ``determinate`` add the tasks run (all; MergeSparseVectors of the search; UpdateParent and the merges it
    spawned) and the chunks allocated. Levels of ``hybrid`` show where the tasks ran
    (``_format_hybrid``)."""
    if levels and "CLQ" in levels[0]:
        return _format_table41(levels, title)
    if levels and "sides" in levels[0]:
        return _format_hybrid(levels, title)
    tasks = bool(levels) and "chunks" in levels[0]
    head = f"{'level':>5} {'direction':>10} {'frontier':>12} {'edges':>14} {'discovered':>12} {'UR':>7} {'time ms':>9}"
    if tasks:
        head += f" {'tasks':>10} {'merges':>10} {'update':>8} {'chunks':>10}"
    rows = [title, head] if title else [head]
    for lv in levels:
        row = (f"{lv['level']:>5} {lv['direction']:>10} {lv['frontier']:>12} {lv['edges_examined']:>14} "
               f"{lv['discovered']:>12} {lv['unique_ratio']:>7.3f} {lv['time'] * 1e3:>9.3f}")
        if tasks:
            every = sum(v for k, v in lv.items() if k.startswith(("tasks_", "update_")))
            update = lv.get("update_UpdateParent", 0) + lv.get("update_MergeSparseVectors", 0)
            row += (f" {every:>10} {lv.get('tasks_MergeSparseVectors', 0):>10} {update:>8} "
                    f"{lv['chunks']:>10}")
        rows.append(row)
    return "\n".join(rows)


def format_dist_levels(levels: list[dict], title: str = "") -> str:
    """The per-level table of a distributed search in thesis Table 4.1's terms (with Table
    4.2's times and Fig. 4.13's bytes): first summed over the processes (times: the slowest
    process), then every process's row (the thesis prints one task's).

    dir: td (top-down, thesis Algorithm 4) or bu (bottom-up); CLQ: vertices in the current
    queue; NLF: their adjacency entries (bu: entries examined); pruned: entries left after
    pruning (sort-unique: distinct vertices); UR = pruned / NLF; LV: pruned entries the
    process owns itself (never sent); sent: entries sent to the others, and MB; RV: entries
    received from the others ((vertex, parent) pairs: the thesis's printed RV counts two
    words per pair); NLQ: vertices enqueued, from the received entries + from the own ones;
    QR = CLQ / NLF (top-down levels); comp / comm: milliseconds computing and in MPI calls. A
    1D bottom-up level prunes and sends no entries: those columns show '-' (a 2D one sends the
    parents it found for other owners' vertices)."""
    head = (f"{'level':>5} {'dir':>3} {'CLQ':>10} {'NLF':>11} {'pruned':>10} {'UR':>6} "
            f"{'LV':>10} {'sent':>10} {'sent MB':>9} {'RV':>10} {'NLQ':>15} {'QR':>6} "
            f"{'comp ms':>8} {'comm ms':>8}")

    def row(level, td, queue, nlf, pruned, local, sent, sent_bytes, received, new_local,
            new_received, comp, comm, rank=None):
        lead = f"{level:>5} " + (f"{rank:>4} " if rank is not None else "")
        if td or pruned:  # 2D bottom-up levels send pairs too (parents found off-owner)
            ur = f"{pruned / nlf if nlf else 0.0:>6.3f}"
            mid = f"{pruned:>10} {ur} {local:>10} {sent:>10}"
            got = f"{received:>10}"
        else:
            mid = f"{'-':>10} {'-':>6} {'-':>10} {'-':>10}"
            got = f"{'-':>10}"
        nlq = f"{new_received}+{new_local}"  # the thesis's order
        qr = f"{queue / nlf if nlf else 0.0:>6.3f}" if td else f"{'-':>6}"
        return (f"{lead}{'td' if td else 'bu':>3} {queue:>10} {nlf:>11} {mid} "
                f"{sent_bytes / 1e6:>9.3f} {got} {nlq:>15} {qr} "
                f"{comp * 1e3:>8.2f} {comm * 1e3:>8.2f}")

    def news(pr, r=None):  # NLQ: new vertices from the own entries, from the received ones
        own, got = pr["enqueued_local"], pr["enqueued_received"]
        return (sum(own), sum(got)) if r is None else (own[r], got[r])

    rows = [title] if title else []
    rows += ["# thesis Table 4.1: CLQ queue, NLF its entries, pruned after pruning, UR = "
             "pruned/NLF, LV pruned and own, RV received (pairs), NLQ = new vertices from RV + "
             "from LV, QR = CLQ/NLF (top-down)", "# all processes: sums; times of the slowest process",
             head]
    for lv in levels:
        rows.append(row(lv["level"], lv["direction"] == "top-down", lv["frontier"], lv["nlf"],
                        lv["nlf_pruned"], lv["local"], lv["sent"], lv["sent_bytes"],
                        lv["received"], *news(lv["per_rank"]), lv["comp_time"], lv["comm_time"]))
    if levels and len(levels[0]["per_rank"]["queue"]) > 1:
        rows += ["# per process", f"{'level':>5} {'rank':>4} " + head[6:]]
        for lv in levels:
            pr = lv["per_rank"]
            for r in range(len(pr["queue"])):
                rows.append(row(lv["level"], pr["direction"][r] == 0, pr["queue"][r],
                                pr["nlf"][r], pr["nlf_pruned"][r], pr["local"][r],
                                pr["sent"][r], pr["sent_bytes"][r], pr["received"][r],
                                *news(pr, r), pr["comp_time"][r], pr["comm_time"][r], rank=r))
    return "\n".join(rows)


def _format_table41(levels: list[dict], title: str) -> str:
    """Thesis Table 4.1 per level as one process counts it (``bfs.array.steps``: every vertex
    is its own, so RV is 0; the visited are dropped before pruning, so LV is the distinct
    unvisited NLF vertices), FRESH and the phase times in ms."""
    head = (f"{'level':>5} {'direction':>10} {'CLQ':>10} {'NLF':>12} {'FRESH':>11} {'LV':>11} "
            f"{'NLQ':>10} {'QR':>6} {'UR':>6} {'expand':>8} {'search':>8} {'prune':>8} "
            f"{'update':>8}")
    checked = bool(levels) and "host_syncs" in levels[0]  # --backend numpy-checked
    rows = [title] if title else []
    rows += ["# thesis Table 4.1 in one process: CLQ queue, NLF its adjacency entries, LV the "
             "entries left after pruning (the visited dropped first; all own, RV = 0), NLQ the "
             "next queue, QR = CLQ/NLF, UR = LV/NLF; FRESH (not the thesis's): the unvisited "
             "NLF entries; phase times in ms"
             + ("; syncs, allocs: host synchronisations, allocations" if checked else ""),
             head + (f" {'syncs':>6} {'allocs':>7}" if checked else "")]
    for lv in levels:
        rows.append(
            f"{lv['level']:>5} {lv['direction']:>10} {lv['CLQ']:>10} {lv['NLF']:>12} "
            f"{lv.get('FRESH', 0):>11} {lv['LV']:>11} {lv['NLQ']:>10} {lv['QR']:>6.3f} "
            f"{lv['UR']:>6.3f} "
            + " ".join(f"{lv['t_' + p] * 1e3:>8.3f}" for p in ("expand", "search", "prune",
                                                               "update"))
            + (f" {lv['host_syncs']:>6} {lv['allocations']:>7}" if checked else ""))
    return "\n".join(rows)


def format_phases(phases: list[dict], title: str = "") -> str:
    """The per-phase table of a kernel-3 search: every scalar column of its phase dicts
    (embedded delta-stepping: bucket, vertices relaxed, edges relaxed, distances lowered;
    distributed: also messages and bytes, summed over the processes), times in ms."""
    if not phases:
        return title
    skip = {"per_rank", "direction", "unique_ratio"}
    cols = [k for k, v in phases[0].items() if k not in skip and isinstance(v, (int, float))]
    names = {"level": "phase", "frontier": "relaxed", "edges_examined": "edges",
             "discovered": "lowered"}
    width = {k: max(9, len(names.get(k, k))) for k in cols}

    def cell(k, v):
        if k.endswith("time"):
            return f"{v * 1e3:>{width[k]}.3f}"
        return f"{v:>{width[k]}}" if isinstance(v, int) else f"{v:>{width[k]}.4g}"

    head = " ".join(f"{names.get(k, k) + (' ms' if k.endswith('time') else ''):>{width[k]}}"
                    for k in cols)
    rows = [title] if title else []
    rows.append(head)
    rows += [" ".join(cell(k, ph[k]) for k in cols) for ph in phases]
    return "\n".join(rows)


_SIDES_SHOWN = 64  # task characters printed per level (the JSON has all, with their times)


def _format_hybrid(levels: list[dict], title: str) -> str:
    """The hybrid BFS's levels (paper 002): tasks on the CPU and on the array side, lambda,
    the tuner's predicted time against the level's, each side's time, the transfers (KB and
    count each way), duplicates, and a character per task (C: CPU, G: array side, .: idle)."""
    head = (f"{'level':>5} {'dir':>3} {'frontier':>10} {'edges':>11} {'found':>10} {'cpu':>5} "
            f"{'array':>5} {'lambda':>8} {'pred ms':>8} {'time ms':>8} {'cpu ms':>8} "
            f"{'array ms':>8} {'h2d KB/#':>12} {'d2h KB/#':>12} {'dups':>6}  tasks")
    rows = [title, head] if title else [head]
    for lv in levels:
        lam = "explore" if lv["explore"] else ("-" if lv["lambda"] < 0 else f"{lv['lambda']:g}")
        pred = "-" if lv["predicted"] < 0 else f"{lv['predicted'] * 1e3:.3f}"
        sides = lv["sides"]
        if len(sides) > _SIDES_SHOWN:
            sides = sides[:_SIDES_SHOWN] + f"... ({len(lv['sides'])})"
        rows.append(
            f"{lv['level']:>5} {'bu' if lv['direction'] == 'bottom-up' else 'td':>3} "
            f"{lv['frontier']:>10} {lv['edges_examined']:>11} {lv['discovered']:>10} "
            f"{lv['cpu_tasks']:>5} {lv['dev_tasks']:>5} {lam:>8} {pred:>8} "
            f"{lv['time'] * 1e3:>8.3f} {lv['cpu_time'] * 1e3:>8.3f} {lv['dev_time'] * 1e3:>8.3f} "
            f"{lv['h2d_bytes'] / 1e3:>7.1f}/{lv['h2d_count']:<4} "
            f"{lv['d2h_bytes'] / 1e3:>7.1f}/{lv['d2h_count']:<4} {lv['duplicates']:>6}  {sides}")
    return "\n".join(rows)


def format_network(result) -> list[str]:
    """A line per kernel of a run on an emulated network: the median emulated time of a
    search (the slowest process's virtual time) beside the median measured here."""
    network = (result.distributed or {}).get("network")
    if network is None:
        return []
    lines = []
    for kernel, emulated in network["search_times"].items():
        runs = result.runs if kernel == "bfs" else result.sssp_runs
        measured = statistics.median(r.time for r in runs)
        lines.append(f"emulated network {network['network']}: {kernel} "
                     f"{1e3 * statistics.median(emulated):.3f} ms a search (median of the "
                     f"slowest process's virtual times), {1e3 * measured:.3f} ms measured here")
    return lines
