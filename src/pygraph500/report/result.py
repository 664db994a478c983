"""A benchmark result as the reference prints it (the official block) and as ``--json`` writes it.

Both read a ``benchmark.BenchmarkResult`` by its attributes (this module imports nothing from
``benchmark``, which sits above ``report``); the statistics themselves are the benchmark's
(``BenchmarkResult.statistics``), the keys, their order and the document's layout are here.
"""
from __future__ import annotations

__all__ = ["official_block", "result_json"]

TEPS_ORDER = ("min", "firstquartile", "median", "thirdquartile", "max")


def official_block(result) -> dict[str, float]:
    """The reference's output block as key -> number, in the reference's order."""
    stats = result.statistics()
    out: dict[str, float] = {
        "SCALE": result.scale,
        "edgefactor": result.edgefactor,
        "NBFS": len(result.runs),
        "graph_generation": result.generation_time,
        "num_mpi_processes": result.num_processes,
        "construction_time": result.construction_time,
    }
    for k, v in stats["time"].items():
        out[f"bfs  {k}_time"] = v
    for k, v in stats["nedge"].items():
        out[f"{k}_nedge"] = v
    teps = stats["teps"]
    for k in TEPS_ORDER:
        out[f"bfs  {k}_TEPS"] = teps[k]
    out["bfs  harmonic_mean_TEPS"] = teps["harmonic_mean"]
    out["bfs  harmonic_stddev_TEPS"] = teps["harmonic_stddev"]
    for k, v in stats["validate"].items():
        out[f"bfs  {k}_validate"] = v
    return out


def result_json(result) -> dict:
    """The --json document: official block, parameters, roots, one entry per search."""
    from ..backend.info import system_info
    from ..validate import TEPS_COUNTING_RULE

    info = system_info()
    c = result.config
    doc = {
        "official": result.official() if result.valid and result.runs else None,
        "valid": result.valid,
        "labels": result.labels,
        "parameters": {
            "scale": c.scale,
            "edgefactor": c.edgefactor,
            "seeds": list(c.seed),
            "num_roots": c.num_roots,
            "algorithm": c.algorithm,
            "threads": result.threads,
            "backend": result.backend,
            "device": result.device,
            "validate": c.validate,
            "sort_vertices": c.sort_vertices or "none",
            "num_vertices": result.num_vertices,
            "num_edges": result.num_edges,
            "code_warmup_time": result.warmup_time,
            "teps_counting": TEPS_COUNTING_RULE,
            "versions": {k: info[k] for k in ("pygraph500", "python", "numpy", "numba", "scipy")},
        },
        "roots": result.user_ids(result.roots).tolist(),
        "runs": [
            {"root": int(result.user_ids(r.root)), "time": r.time, "nedge": r.nedge,
             "teps": r.teps, "valid": r.valid, "validate_time": r.validate_time, "rule": r.rule,
             "levels": r.levels}
            for r in result.runs
        ],
    }
    if result.source is not None:  # new keys only: a generated run's document is unchanged
        g = result.source
        doc["parameters"]["scale"] = result.scale
        doc["parameters"]["edgefactor"] = result.edgefactor
        doc["parameters"]["input"] = {
            "path": c.input, "format": g.format, "num_vertices": g.num_vertices,
            "num_edges": g.num_edges, "directed": g.directed, "relabelled": g.relabelled,
            "root_vertices": result.roots.tolist(),
        }
    if result.distributed is not None:  # new keys only, as above
        doc["parameters"]["num_mpi_processes"] = result.num_processes
        doc["parameters"]["algorithm"] = result.distributed["algorithm"]
        doc["parameters"]["prune"] = result.distributed["prune"]
        doc["distributed"] = result.distributed
    return doc
