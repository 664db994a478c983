"""`graph500 report`: what a list submission asks for, from real `graph500 run --json` results.

Each run is made once per module through the command itself; the report is checked against
the result document (its official block, its counts), psutil and /proc/cpuinfo (the machine),
and exact expected lines (a result written before ``machine`` existed, bad files).
"""
import contextlib
import io
import json
import os
import re
import sys
import types

import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pygraph500.backend.info import cpu_model_and_sockets, machine_info
from pygraph500.cli import main
from pygraph500.report import format_official
from pygraph500.report.submission import FORMATS, NOT_RECORDED, build_report

SECTIONS = ("Machine (the one that ran the benchmark)", "Software", "Run parameters", "Results",
            "Official output (as the reference prints it)", "Validation",
            "Settings the Graph500 specification fixes for a submission",
            "Not covered: a submission needs these too")
KEYS = {"result", "machine", "software", "run", "results", "official", "validation",
        "settings", "not_covered"}


def _run(path, *extra):
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["run", "--scale", "8", "--roots", "4", "--quiet", "--json", str(path),
                       *extra])
    assert status == 0
    with open(path) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def bfs_result(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "bfs.json"
    return str(path), _run(path)


@pytest.fixture(scope="module")
def both_result(tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "both.json"
    return str(path), _run(path, "--kernel", "both")


def _report(capsys, path, fmt=None):
    capsys.readouterr()
    status = main(["report", path] + (["--format", fmt] if fmt else []))
    out = capsys.readouterr()
    assert status == 0 and out.err == ""
    return out.out


def _section(text: str, title: str) -> list[str]:
    """The lines of one section of the text report (after its title, up to a blank line)."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    return lines[start:end]


def _write(tmp_path, doc, name="doc.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_the_run_records_the_machine_beside_the_unchanged_keys(bfs_result):
    _, doc = bfs_result
    assert set(doc) == {"official", "valid", "labels", "parameters", "roots", "runs", "machine"}
    assert set(doc["parameters"]["versions"]) == {"pygraph500", "python", "numpy", "numba",
                                                  "scipy"}
    machine = doc["machine"]
    assert machine["logical_cores"] == psutil.cpu_count()
    assert machine["physical_cores"] == psutil.cpu_count(logical=False)
    assert machine["memory_gib"] == round(psutil.virtual_memory().total / 2**30, 1)
    assert machine["accelerator"] == "none used"
    assert set(machine["software"]) == {"llvmlite", "llvm"}  # no MPI, CuPy or CUDA on a CPU run
    import llvmlite
    assert machine["software"]["llvmlite"] == llvmlite.__version__


@pytest.mark.skipif(not os.path.exists("/proc/cpuinfo"), reason="no /proc/cpuinfo")
def test_cpu_model_and_sockets_are_those_of_proc_cpuinfo(bfs_result):
    with open("/proc/cpuinfo") as f:
        text = f.read()
    models = re.findall(r"^model name\s*:\s*(.*)$", text, re.M)
    sockets = set(re.findall(r"^physical id\s*:\s*(\d+)", text, re.M))
    machine = bfs_result[1]["machine"]
    if models:
        assert machine["cpu_model"] == models[0].strip()
    assert machine["sockets"] == (len(sockets) or None)


def test_cpuinfo_of_two_sockets_and_of_a_kernel_without_model_names(tmp_path):
    two = tmp_path / "two"
    two.write_text("".join(f"processor\t: {i}\nmodel name\t: Xeon Gold 6130\nphysical id\t: "
                           f"{i % 2}\n\n" for i in range(8)))
    assert cpu_model_and_sockets(str(two)) == ("Xeon Gold 6130", 2)
    arm = tmp_path / "arm"
    arm.write_text("processor\t: 0\nBogoMIPS\t: 2000.00\nCPU implementer\t: 0x41\n\n")
    assert cpu_model_and_sockets(str(arm)) == (None, None)
    assert cpu_model_and_sockets(str(tmp_path / "missing")) == (None, None)


class _FakeCupy(types.ModuleType):
    """A CuPy that knows one device; ``touched`` counts the calls made on it."""

    def __init__(self):
        super().__init__("cupy")
        self.__version__ = "13.9"
        self.touched = 0
        runtime = types.SimpleNamespace(
            getDeviceProperties=self._call({"name": b"NVIDIA H100 80GB HBM3",
                                            "totalGlobalMem": 80 * 2**30}),
            getDeviceCount=self._call(4), runtimeGetVersion=self._call(12040),
            driverGetVersion=self._call(12080))
        self.cuda = types.SimpleNamespace(Device=self._call(types.SimpleNamespace(id=2)),
                                          runtime=runtime)

    def _call(self, value):
        def call(*args):
            self.touched += 1
            return value
        return call


def test_the_gpu_is_described_only_for_a_run_that_used_cupy(monkeypatch):
    fake = _FakeCupy()
    monkeypatch.setitem(sys.modules, "cupy", fake)
    monkeypatch.delenv("PYGRAPH500_GPU_STANDIN", raising=False)
    cpu = machine_info("cpu")
    assert cpu["accelerator"] == "none used" and "cupy" not in cpu["software"]
    checked = machine_info("numpy-checked")
    assert checked["accelerator"] == "none used (NumPy standing in for a GPU)"
    assert fake.touched == 0
    gpu = machine_info("gpu")
    assert gpu["accelerator"] == "NVIDIA H100 80GB HBM3, 80.0 GiB (GPU 2 of 4 on this node)"
    assert {k: gpu["software"][k] for k in ("cupy", "cuda_runtime", "cuda_driver")} == {
        "cupy": "13.9", "cuda_runtime": "12.4", "cuda_driver": "12.8"}
    monkeypatch.setenv("PYGRAPH500_GPU_STANDIN", "2")
    assert machine_info("gpu")["accelerator"] == "none used (NumPy standing in for a GPU)"


def test_every_section_in_every_format(capsys, bfs_result):
    path, doc = bfs_result
    text = _report(capsys, path)
    assert text.startswith(f"Graph500 submission report: {path}\n")
    md = _report(capsys, path, "md")
    for title in SECTIONS:
        assert title in text.splitlines()
        assert f"## {title}" in md.splitlines()
    report = json.loads(_report(capsys, path, "json"))
    assert set(report) == KEYS
    assert report == json.loads(json.dumps(build_report(doc, path)))


def test_the_official_block_is_the_results_own(capsys, bfs_result):
    path, doc = bfs_result
    report = json.loads(_report(capsys, path, "json"))
    assert report["official"] == doc["official"]
    assert list(report["official"]) == list(doc["official"])
    block = format_official(doc["official"])
    assert _section(_report(capsys, path), SECTIONS[4]) == block.splitlines()
    assert f"```text\n{block}\n```" in _report(capsys, path, "md")


def test_the_lines_of_a_bfs_run(capsys, bfs_result):
    path, doc = bfs_result
    text = _report(capsys, path)
    machine = _section(text, SECTIONS[0])
    assert f"  cores (logical)   {psutil.cpu_count()}" in machine
    assert "  accelerator       none used" in machine
    run = _section(text, SECTIONS[2])
    assert "  SCALE                  8" in run and "  seeds                  2 3" in run
    assert "  roots                  4" in run
    assert f"  threads (per process)  {doc['parameters']['threads']}" in run
    report = json.loads(_report(capsys, path, "json"))
    assert report["results"] == {"bfs_searches": 4, "bfs_harmonic_mean_GTEPS":
                                 doc["official"]["bfs  harmonic_mean_TEPS"] / 1e9}
    assert report["validation"] == {"all_valid": True, "mode": report["validation"]["mode"],
                                    "bfs_validated": 4, "bfs_invalid": 0}
    assert report["validation"]["mode"].startswith("against kernel 1's CSR")
    assert report["settings"]["edgefactor_16"] is True
    assert report["settings"]["search_keys_64"] is False  # 4 roots
    assert report["software"]["mpi"] == "not used (one process)"


def test_a_kernel_3_run_shows_both_kernels(capsys, both_result):
    path, doc = both_result
    text = _report(capsys, path)
    block = _section(text, SECTIONS[4])
    assert block == format_official(doc["official"]).splitlines()
    assert any(line.startswith("bfs  harmonic_mean_TEPS:") for line in block)
    assert any(line.startswith("sssp harmonic_mean_TEPS:") for line in block)
    report = json.loads(_report(capsys, path, "json"))
    assert report["run"]["kernels"] == "BFS (kernel 2) and SSSP (kernel 3)"
    assert report["run"]["sssp_algorithm"] == doc["parameters"]["sssp_algorithm"]
    assert report["results"]["sssp_searches"] == len(doc["sssp_runs"]) == 4
    assert report["results"]["sssp_harmonic_mean_GTEPS"] == (
        doc["official"]["sssp harmonic_mean_TEPS"] / 1e9)
    assert report["validation"]["sssp_validated"] == 4


def test_a_result_without_machine_says_not_recorded(capsys, tmp_path, bfs_result):
    _, doc = bfs_result
    old = {k: v for k, v in doc.items() if k != "machine"}
    path = _write(tmp_path, old)
    text = _report(capsys, path)
    machine = _section(text, SECTIONS[0])
    assert len(machine) == 9
    assert all(line.endswith(f"  {NOT_RECORDED}") for line in machine)
    software = _section(text, SECTIONS[1])
    assert f"  llvmlite (numba's compiler)  {NOT_RECORDED}" in software
    assert f"  NumPy                        {doc['parameters']['versions']['numpy']}" in software
    report = json.loads(_report(capsys, path, "json"))
    assert set(report["machine"].values()) == {NOT_RECORDED}
    assert _report(capsys, path, "md").count(f"| {NOT_RECORDED} |") == 11  # 9 + llvmlite, LLVM


def test_an_invalid_run_has_no_block_and_names_its_failure(capsys, tmp_path, bfs_result):
    _, doc = bfs_result
    bad = json.loads(json.dumps(doc))
    bad["runs"][1].update(valid=False, rule="tree_edge_levels")
    bad.update(valid=False, official=None)
    path = _write(tmp_path, bad)
    text = _report(capsys, path)
    assert _section(text, SECTIONS[4]) == ["  none: the run has invalid searches (see Validation)"]
    report = json.loads(_report(capsys, path, "json"))
    root = doc["runs"][1]["root"]
    assert report["validation"]["first_failure"] == (
        f"BFS (kernel 2) search from root {root}: tree_edge_levels")
    assert report["validation"]["bfs_invalid"] == 1 and report["validation"]["all_valid"] is False
    assert report["settings"]["all_validated_valid"] is False


def test_a_run_without_validation_says_so(capsys, tmp_path, bfs_result):
    _, doc = bfs_result
    skipped = json.loads(json.dumps(doc))
    skipped["parameters"]["validate"] = False
    for r in skipped["runs"]:
        r["valid"] = None
    report = json.loads(_report(capsys, _write(tmp_path, skipped), "json"))
    assert report["validation"]["mode"] == "skipped (--no-validate): not a Graph500 result"
    assert report["validation"]["all_valid"] is None and report["validation"]["bfs_validated"] == 0
    assert report["settings"]["all_validated_valid"] is False


def test_a_distributed_result_names_its_mpi_and_node(capsys, tmp_path, bfs_result):
    _, doc = bfs_result
    dist = json.loads(json.dumps(doc))
    dist["parameters"].update(num_mpi_processes=8, partition="2d", grid="2x4")
    dist["machine"]["software"]["mpi"] = "mpi4py 4.1.2, MPICH Version: 5.0.2"
    report = json.loads(_report(capsys, _write(tmp_path, dist), "json"))
    assert report["software"]["mpi"] == "mpi4py 4.1.2, MPICH Version: 5.0.2"
    assert report["run"]["mpi_processes"] == 8 and report["run"]["partition"] == "2d 2x4"
    assert report["machine"]["node"] == (
        "rank 0's, one of 8 MPI processes (the nodes of the others are not recorded)")


def test_md_cells_escape_the_table_separator(capsys, tmp_path, bfs_result):
    _, doc = bfs_result
    odd = json.loads(json.dumps(doc))
    odd["machine"]["cpu_model"] = "A|B"
    md = _report(capsys, _write(tmp_path, odd), "md")
    assert "| CPU model | A\\|B |" in md.splitlines()


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"),
    ("", "not a JSON document"),
    ("{not json", "not a JSON document"),
    ("[1, 2]", "not a result of `graph500 run --json`"),
    ('{"runs": [], "parameters": 3}', "'parameters' is not an object"),
])
def test_bad_files_exit_2_with_one_line(capsys, tmp_path, content, message):
    path = tmp_path / "result.json"
    if content is not None:
        path.write_text(content)
    capsys.readouterr()
    assert main(["report", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and out.err.startswith("graph500: error: ")
    assert message in out.err


def test_a_directory_exits_2(capsys, tmp_path):
    capsys.readouterr()
    assert main(["report", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"graph500: error: cannot read {tmp_path}: it is a directory\n"


def test_an_unknown_format_is_a_usage_error(capsys, bfs_result):
    with pytest.raises(SystemExit) as exc:
        main(["report", bfs_result[0], "--format", "html"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)


def test_a_result_of_any_shape_is_a_report_or_one_line(tmp_path, bfs_result):
    """Any value in place of the document's, its parameters' or its machine's entries: exit 0,
    or 2 with one line; never a traceback."""
    _, doc = bfs_result

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from([(), ("parameters",), ("machine",), ("machine", "software")]),
           st.sampled_from(sorted({*doc, *doc["parameters"], *doc["machine"], "kernel"})),
           JSON, st.sampled_from(FORMATS))
    def case(where, key, value, fmt):
        odd = json.loads(json.dumps(doc))
        target = odd
        for k in where:
            target = target[k]
        target[key] = value
        path = tmp_path / "odd.json"
        path.write_text(json.dumps(odd))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["report", str(path), "--format", fmt])
        assert (status, err.getvalue()) == (0, "") or (
            status == 2 and err.getvalue().count("\n") == 1), err.getvalue()

    case()


def test_an_official_count_that_is_not_finite_is_one_line(capsys, tmp_path, bfs_result):
    _, doc = bfs_result
    odd = json.loads(json.dumps(doc))
    odd["official"]["SCALE"] = float("inf")
    path = _write(tmp_path, odd)
    capsys.readouterr()
    assert main(["report", path]) == 2
    assert capsys.readouterr().err == (
        f"graph500: error: {path}: not a result of `graph500 run --json` (its official block "
        f"has a count that is not a finite number)\n")
