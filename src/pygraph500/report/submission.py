"""What a Graph500 list submission asks for, from a run's JSON document (``graph500 report``).

``submission_report(path, fmt)`` reads a result of ``graph500 run --json`` (``load_result``)
and gives it as text, a Markdown document or a JSON object, all three from one
``build_report``: the machine that ran the benchmark and its software (what the run recorded
in the document's ``machine``; a document written before that key existed says so instead of
describing the machine reading it), the run's parameters, each kernel's harmonic mean, the
official block as the reference prints it (``format_official``), the validation, the
settings the specification fixes for a submission, and what a submission needs that no
result can know (``NOT_COVERED``; docs/submission.md says where each comes from).
"""
from __future__ import annotations

import json
import textwrap

from ..errors import InputError
from .official import format_official
from .result import KERNEL_KEYS, load_result

__all__ = ["FORMATS", "NOT_COVERED", "NOT_RECORDED", "build_report", "submission_report"]

FORMATS = ("text", "md", "json")
_WIDTH = 96  # the text's lines, long values wrapped
NOT_RECORDED = "not recorded (result written by an older version)"

# What the Graph500 lists and rules ask for that a result cannot know.
NOT_COVERED = (
    "system name (the list's Machine column)",
    "installation site (the list's Installation Site column)",
    "the system's number of nodes and total cores (the list's #nodes and #cores columns): a "
    "result records the node of rank 0 and the number of MPI processes, not the nodes they "
    "spanned",
    "Green Graph 500 only: the whole system's power draw, idle power included, measured "
    "while the reported performance was achieved, and any power-saving features used",
    "the implementation: this is pygraph500, not the Graph500 reference code (the "
    "specification does not require the reference code; its notes record that proposal as "
    "not included)",
    "anything else the list's submission form asks beyond this report",
)

_MACHINE = ("cpu_model", "sockets", "physical_cores", "logical_cores", "memory_gib",
            "accelerator", "hostname", "os", "kernel")
_KERNEL_NAME = {"bfs": "BFS (kernel 2)", "sssp": "SSSP (kernel 3)"}
_MODES = {"csr": "against kernel 1's CSR (every rule; nedge from the tuple counts)",
          "tuples": "against every input tuple"}
_SECTIONS = (("machine", "Machine (the one that ran the benchmark)"), ("software", "Software"),
             ("run", "Run parameters"), ("results", "Results"),
             ("official", "Official output (as the reference prints it)"),
             ("validation", "Validation"),
             ("settings", "Settings the Graph500 specification fixes for a submission"),
             ("not_covered", "Not covered: a submission needs these too"))
_LABELS = {
    "cpu_model": "CPU model", "physical_cores": "cores (physical)",
    "logical_cores": "cores (logical)", "memory_gib": "memory (GiB)", "os": "OS",
    "pygraph500": "pygraph500", "python": "Python", "numpy": "NumPy", "llvm": "LLVM",
    "llvmlite": "llvmlite (numba's compiler)", "scipy": "SciPy", "mpi": "MPI",
    "cupy": "CuPy", "cuda": "CUDA (runtime, driver)", "scale": "SCALE",
    "mpi_processes": "MPI processes", "threads": "threads (per process)",
    "bfs_algorithm": "BFS algorithm", "sssp_algorithm": "SSSP algorithm",
    "bfs_searches": "BFS searches", "sssp_searches": "SSSP searches",
    "bfs_harmonic_mean_GTEPS": "BFS harmonic mean (GTEPS)",
    "sssp_harmonic_mean_GTEPS": "SSSP harmonic mean (GTEPS)",
    "all_valid": "all searches valid", "mode": "validation",
    "bfs_validated": "BFS searches validated", "bfs_invalid": "BFS searches invalid",
    "sssp_validated": "SSSP searches validated", "sssp_invalid": "SSSP searches invalid",
    "edgefactor_16": "edgefactor 16", "generated_graph": "graph from the Kronecker generator",
    "search_keys_64": "64 search keys", "all_validated_valid": "every search validated, valid",
    "notes": "notes of the run",
}


def submission_report(path: str, fmt: str = "text") -> str:
    """The report of the result file ``path`` as ``fmt`` (text, md or json); InputError
    when ``path`` is not a result of ``graph500 run --json``."""
    report = build_report(load_result(path), path)
    if fmt == "json":
        return json.dumps(report, indent=2)
    return _markdown(report) if fmt == "md" else _text(report)


def build_report(doc: dict, source: str = "") -> dict:
    """The report's content: one object per section (key -> value), ``official`` the
    document's own block (None when the run has none), ``not_covered`` a list."""
    return {"result": source, "machine": _machine(doc), "software": _software(doc),
            "run": _run(doc), "results": _results(doc), "official": doc.get("official"),
            "validation": _validation(doc), "settings": _settings(doc),
            "not_covered": list(NOT_COVERED)}


def _obj(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _kernels(params: dict) -> list[str]:
    """The kernels the run was asked for, in the order it ran them."""
    kernel = params.get("kernel")
    if not isinstance(kernel, str):
        return ["bfs"]
    return {"sssp": ["sssp"], "both": ["bfs", "sssp"]}.get(kernel, ["bfs"])


def _distributed(params: dict) -> bool:
    return "num_mpi_processes" in params


def _machine(doc: dict) -> dict:
    machine = doc.get("machine")
    if not isinstance(machine, dict):
        return dict.fromkeys(_MACHINE, NOT_RECORDED)
    out = {k: machine.get(k) for k in _MACHINE}
    processes = _obj(doc["parameters"]).get("num_mpi_processes", 1)
    if isinstance(processes, int) and processes > 1:
        out["node"] = (f"rank 0's, one of {processes} MPI processes (the nodes of the others "
                       f"are not recorded)")
    return out


def _software(doc: dict) -> dict:
    params = _obj(doc["parameters"])
    versions = _obj(params.get("versions"))
    machine = doc.get("machine")
    recorded = _obj(_obj(machine).get("software"))

    def run_time(key, default="unknown"):
        return recorded.get(key, default) if isinstance(machine, dict) else NOT_RECORDED

    out = {k: versions.get(k, "unknown") for k in ("pygraph500", "python", "numpy", "numba")}
    out.update(llvmlite=run_time("llvmlite"), llvm=run_time("llvm"),
               scipy=versions.get("scipy", "unknown"))
    out["mpi"] = run_time("mpi") if _distributed(params) else "not used (one process)"
    backend = params.get("backend")
    if backend == "gpu":
        out["cupy"] = run_time("cupy", "not used (NumPy standing in for a GPU)")
        out["cuda"] = run_time("cuda_runtime", "not used")
        if out["cuda"] != NOT_RECORDED and "cuda_driver" in recorded:
            out["cuda"] = f"{out['cuda']}, driver {recorded['cuda_driver']}"
    else:
        out["cupy"] = out["cuda"] = f"not used (backend {backend})"
    return out


def _run(doc: dict) -> dict:
    params = _obj(doc["parameters"])
    source = params.get("input")
    out = {"graph": (f"input file {source.get('path')} ({source.get('format')})"
                     if isinstance(source, dict) else "Kronecker (the Graph500 generator)"),
           "scale": params.get("scale"), "edgefactor": params.get("edgefactor"),
           "mpi_processes": params.get("num_mpi_processes", 1),
           "threads": params.get("threads"),
           "kernels": " and ".join(_KERNEL_NAME[k] for k in _kernels(params))}
    for k in _kernels(params):
        out[f"{k}_algorithm"] = params.get("algorithm" if k == "bfs" else "sssp_algorithm")
    if _distributed(params):
        out["partition"] = " ".join(str(params[k]) for k in ("partition", "grid")
                                    if params.get(k) is not None)
    out.update(backend=params.get("backend"), device=params.get("device"),
               roots=len(_list(doc.get("roots"))),
               seeds=" ".join(str(s) for s in _list(params.get("seeds"))))
    return out


def _results(doc: dict) -> dict:
    """Each kernel's searches and harmonic mean TEPS in GTEPS, what the lists rank by."""
    params, official = _obj(doc["parameters"]), _obj(doc.get("official"))
    out = {}
    for k in _kernels(params):
        out[f"{k}_searches"] = len(_list(doc.get(KERNEL_KEYS[k][0])))
        mean = official.get(f"{KERNEL_KEYS[k][1]}harmonic_mean_TEPS")
        out[f"{k}_harmonic_mean_GTEPS"] = None if mean is None else mean / 1e9
    return out


def _validation(doc: dict) -> dict:
    params = _obj(doc["parameters"])
    checked = params.get("validate", True) is not False
    if not checked:
        mode = "skipped (--no-validate): not a Graph500 result"
    elif _distributed(params) and params.get("validation") is None:
        mode = "against the input tuples, spread over the processes"
    else:
        mode = _MODES.get(str(params.get("validation")), "unknown")
    out = {"all_valid": bool(doc.get("valid")) if checked else None, "mode": mode}
    failure = None
    for k in _kernels(params):
        runs = [r for r in _list(doc.get(KERNEL_KEYS[k][0])) if isinstance(r, dict)]
        out[f"{k}_validated"] = sum(r.get("valid") is not None for r in runs)
        out[f"{k}_invalid"] = sum(r.get("valid") is False for r in runs)
        bad = next((r for r in runs if r.get("valid") is False), None)
        if failure is None and bad is not None:
            failure = (f"{_KERNEL_NAME[k]} search from root {bad.get('root')}: "
                       f"{bad.get('rule') or 'invalid'}")
    if failure:
        out["first_failure"] = failure
    return out


def _settings(doc: dict) -> dict:
    """The specification's settings for submitted results, each true or false."""
    params = _obj(doc["parameters"])
    out = {"edgefactor_16": params.get("edgefactor") == 16,
           "generated_graph": not isinstance(params.get("input"), dict),
           "search_keys_64": len(_list(doc.get("roots"))) == 64,
           "all_validated_valid": (params.get("validate", True) is not False
                                   and bool(doc.get("valid")))}
    notes = [str(n) for n in _list(doc.get("labels"))]
    if notes:
        out["notes"] = "; ".join(notes)
    return out


def _label(key: str) -> str:
    return _LABELS.get(key, key.replace("_", " "))


def _shown(value) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _block(report: dict) -> str | None:
    """The official block as the reference prints it (None: the run has none)."""
    if not report["official"]:
        return None
    try:
        return format_official(report["official"])
    except (OverflowError, ValueError):  # a count of the block that is no finite number
        raise InputError(f"{report['result']}: not a result of `graph500 run --json` (its "
                         f"official block has a count that is not a finite number)") from None


def _no_official(report: dict) -> str:
    if report["validation"]["all_valid"] is False:
        return "none: the run has invalid searches (see Validation)"
    return "none: no search completed"


def _text(report: dict) -> str:
    lines = [f"Graph500 submission report: {report['result']}"]
    for key, title in _SECTIONS:
        lines += ["", title]
        section = report[key]
        if key == "official":
            lines.append(_block(report) or f"  {_no_official(report)}")
        elif key == "not_covered":
            lines += [textwrap.fill(item, _WIDTH, initial_indent="  - ",
                                    subsequent_indent="    ") for item in section]
        else:
            width = max(len(_label(k)) for k in section)
            lines += [textwrap.fill(_shown(v), _WIDTH, initial_indent=f"  {_label(k):<{width}}  ",
                                    subsequent_indent=" " * (width + 4))
                      for k, v in section.items()]
    return "\n".join(lines)


def _cell(value) -> str:
    return _shown(value).replace("|", "\\|").replace("\n", " ")


def _markdown(report: dict) -> str:
    lines = ["# Graph500 submission report", "", f"Result: `{report['result']}`"]
    for key, title in _SECTIONS:
        lines += ["", f"## {title}", ""]
        section = report[key]
        if key == "official":
            block = _block(report)
            lines += ["```text", block, "```"] if block else [_no_official(report)]
        elif key == "not_covered":
            lines += [f"- {item}" for item in section]
        else:
            lines += ["| item | value |", "|---|---|"]
            lines += [f"| {_cell(_label(k))} | {_cell(v)} |" for k, v in section.items()]
    return "\n".join(lines)
