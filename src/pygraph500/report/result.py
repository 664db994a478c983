"""A benchmark result as the reference prints it (the official block) and as ``--json`` writes it.

Both read a ``benchmark.BenchmarkResult`` by its attributes (this module imports nothing from
``benchmark``, which sits above ``report``); the statistics themselves are the benchmark's
(``BenchmarkResult.statistics``), the keys, their order and the document's layout are here;
so is ``load_result``, which reads a document back (plot, compare, report) and refuses one of
the wrong shape.
"""
from __future__ import annotations

import json
import os

from ..errors import InputError
from ..io import readable_input

__all__ = ["official_block", "result_json", "load_result", "KERNEL_KEYS"]

TEPS_ORDER = ("min", "firstquartile", "median", "thirdquartile", "max")
# kernel -> the document's key of its searches, the prefix of its keys in the official block
KERNEL_KEYS = {"bfs": ("runs", "bfs  "), "sssp": ("sssp_runs", "sssp ")}


def official_block(result) -> dict[str, float]:
    """The reference's output block as key -> number, in the reference's order.

    With both kernels the order is graph500_reference_bfs_sssp's: the BFS times, the SSSP
    times, the edge counts, the BFS TEPS, the SSSP TEPS, the BFS validation times, the SSSP
    validation times. The edge counts are the last kernel's (the reference overwrites its
    counts with the SSSP ones; for the same roots they are the same component's tuples).
    """
    kernels = result.config.search.kernels
    stats = {k: result.statistics(k) for k in kernels}
    prefix = {k: p for k, (_, p) in KERNEL_KEYS.items()}
    out: dict[str, float] = {
        "SCALE": result.scale,
        "edgefactor": result.edgefactor,
        "NBFS": len(result.roots),
        "graph_generation": result.generation_time,
        "num_mpi_processes": result.num_processes,
        "construction_time": result.construction_time,
    }
    for k in kernels:
        for name, v in stats[k]["time"].items():
            out[f"{prefix[k]}{name}_time"] = v
    for name, v in stats[kernels[-1]]["nedge"].items():
        out[f"{name}_nedge"] = v
    for k in kernels:
        teps = stats[k]["teps"]
        for name in TEPS_ORDER:
            out[f"{prefix[k]}{name}_TEPS"] = teps[name]
        out[f"{prefix[k]}harmonic_mean_TEPS"] = teps["harmonic_mean"]
        out[f"{prefix[k]}harmonic_stddev_TEPS"] = teps["harmonic_stddev"]
    for k in kernels:
        for name, v in stats[k]["validate"].items():
            out[f"{prefix[k]}{name}_validate"] = v
    return out


def result_json(result) -> dict:
    """The --json document: official block, parameters, roots, one entry per search, and the
    machine that ran it (gathered now, by the process that ran the benchmark)."""
    from ..backend.info import machine_info, versions
    from ..validate import TEPS_COUNTING_RULE

    c = result.config
    doc = {
        "official": (result.official() if result.valid and (result.runs or result.sssp_runs)
                     else None),
        "valid": result.valid,
        "labels": result.labels,
        "parameters": {
            "scale": c.graph.scale,
            "edgefactor": c.graph.edgefactor,
            "seeds": list(c.graph.seed),
            "num_roots": c.search.num_roots,
            "algorithm": c.search.algorithm,
            "deterministic": c.search.deterministic,
            "workers": c.search.options.get("workers"),
            "threads": result.threads,
            "backend": result.backend,
            "device": result.device,
            "validate": c.search.validate,
            "validation": result.validation,
            "graph_bytes": result.graph_bytes,
            "sort_vertices": c.sort_vertices or "none",
            "num_vertices": result.num_vertices,
            "num_edges": result.num_edges,
            "code_warmup_time": result.warmup_time,
            "teps_counting": TEPS_COUNTING_RULE,
            "versions": versions(),
        },
        "roots": result.user_ids(result.roots).tolist(),
        "runs": _runs(result, result.runs),
        # new keys only: what `graph500 report` prints for a list submission
        "machine": machine_info(result.backend, distributed=result.distributed is not None),
    }
    if result.sssp_runs is not None:  # new keys only: a BFS run's document is unchanged
        doc["parameters"]["kernel"] = c.search.kernel
        doc["parameters"]["sssp_algorithm"] = c.search.sssp_algorithm
        doc["sssp_runs"] = _runs(result, result.sssp_runs)
    if result.source is not None:  # new keys only: a generated run's document is unchanged
        g = result.source
        doc["parameters"]["scale"] = result.scale
        doc["parameters"]["edgefactor"] = result.edgefactor
        doc["parameters"]["input"] = {
            "path": c.graph.input, "format": g.format, "num_vertices": g.num_vertices,
            "num_edges": g.num_edges, "directed": g.directed, "relabelled": g.relabelled,
            "root_vertices": result.roots.tolist(),
        }
        if c.graph.input_weights is not None:
            doc["parameters"]["input"]["weights"] = c.graph.input_weights
    if result.distributed is not None:  # new keys only, as above
        doc["parameters"]["num_mpi_processes"] = result.num_processes
        doc["parameters"]["algorithm"] = result.distributed["algorithm"]
        doc["parameters"]["prune"] = result.distributed["prune"]
        doc["parameters"]["partition"] = result.distributed["partition"]
        if "grid" in result.distributed:
            doc["parameters"]["grid"] = result.distributed["grid"]
            doc["parameters"]["compress"] = result.distributed["compress"]
            doc["parameters"]["fold"] = result.distributed["fold"]
        doc["distributed"] = result.distributed
    return doc


def _runs(result, runs) -> list[dict]:
    """One entry per search (SSSP searches: ``levels`` are their phases)."""
    return [{"root": int(result.user_ids(r.root)), "time": r.time, "nedge": r.nedge,
             "teps": r.teps, "valid": r.valid, "validate_time": r.validate_time, "rule": r.rule,
             "levels": r.levels}
            for r in runs]


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
    for key, _ in KERNEL_KEYS.values():
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
