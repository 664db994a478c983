"""The distributed engine under a real ``mpiexec -n P`` (P = 1..4, oversubscribed on a small
machine), as a user runs it: same edges for every P, valid trees, the distributed validator
agreeing with the embedded one, fewer bytes with sort-unique, the official block printed
once, bad parameters reported once, a failing rank ending the whole job promptly.

Needs mpi4py and an ``mpiexec`` (the ``mpi`` extra: mpi4py + the mpich wheel); skipped only
when mpi4py cannot be imported.
"""
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip("mpi4py", reason="mpi4py is not installed (pip install '.[mpi]'): the "
                                     "multi-process tests need it")

pytestmark = pytest.mark.mpi

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..", "src")
CHECK = os.path.join(HERE, "check_distributed.py")
MPIEXEC = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep
                       + os.environ.get("PATH", ""))
SCALE = 11
TIMEOUT = 300


def _env(**extra):
    # SRC first, what the caller had after it (a device run puts a carried NumPy there)
    path = os.pathsep.join([SRC, *filter(None, [os.environ.get("PYTHONPATH")])])
    env = dict(os.environ, PYTHONPATH=path, **extra)
    env.pop("PYGRAPH500_TRACEBACK", None)
    if os.geteuid() == 0:  # Open MPI's mpiexec refuses root without these (a device image's
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")  # is Open MPI, run as root); MPICH
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")  # ignores them
    return env


def mpirun(n, *args, env=None, timeout=TIMEOUT):
    assert MPIEXEC, "mpi4py is installed but no mpiexec was found (the mpich wheel provides one)"
    return subprocess.run([MPIEXEC, "-n", str(n), sys.executable, *args], capture_output=True,
                          text=True, env=env or _env(), timeout=timeout,
                          stdin=subprocess.DEVNULL)


def graph500_mpi(n, *args, **kw):
    return mpirun(n, "-m", "pygraph500", *args, **kw)


@pytest.fixture(scope="module")
def warm_cache():
    """One process first compiles (or loads) every kernel, so that P processes started
    together find numba's cache filled instead of all compiling at once."""
    p = subprocess.run([sys.executable, CHECK, "6", "1"], capture_output=True, text=True,
                       env=_env(), timeout=TIMEOUT)
    assert p.returncode == 0, p.stderr


@pytest.fixture(scope="module")
def checks(warm_cache):
    out = {}
    for n in (1, 2, 3, 4):
        p = mpirun(n, CHECK, str(SCALE), "2")
        assert p.returncode == 0, p.stderr
        lines = [l for l in p.stdout.splitlines() if l.strip()]
        assert len(lines) == 1, p.stdout  # rank 0 only
        out[n] = json.loads(lines[0])
    return out


def test_same_edges_for_every_process_count(checks):
    from pygraph500 import kronecker
    import hashlib

    whole = kronecker(SCALE)
    want = hashlib.sha256(np.stack([whole.src, whole.dst], axis=1).tobytes()).hexdigest()
    assert {c["sha256"] for c in checks.values()} == {want}
    assert [c["size"] for c in checks.values()] == [1, 2, 3, 4]


_GATHER_EDGES = """
import sys
import numpy as np
from pygraph500.distributed import generate_local, world
comm = world()
e = generate_local(comm, 11, 16, (4, 9))
src, _ = comm.allgatherv(e.src)
dst, _ = comm.allgatherv(e.dst)
if comm.rank == 0:
    np.save(sys.argv[1], np.column_stack([src, dst]))
"""


@pytest.mark.parametrize("n", [1, 2, 3])
def test_distributed_generator_is_the_reference(n, tmp_path, warm_cache):
    """Under mpiexec -n P the ranks' ranges of scale11-ef16-seed4-9 (a vector whose stream
    goes through the v3 rejection rule) concatenate to the reference program's edge list."""
    sys.path.insert(0, os.path.join(HERE, ".."))
    from conftest import load_reference

    out = tmp_path / "edges.npy"
    p = mpirun(n, "-c", _GATHER_EDGES, str(out))
    assert p.returncode == 0, p.stderr
    ref, _ = load_reference("scale11-ef16-seed4-9")
    np.testing.assert_array_equal(np.load(out), ref)


def test_roots_are_the_embedded_ones(checks):
    for c in checks.values():
        assert c["roots"] == c["roots_embedded"] == checks[1]["roots"]


def test_every_tree_valid_and_validators_agree(checks):
    for c in checks.values():
        assert len(c["searches"]) == 2 * 3 * 2
        for s in c["searches"]:
            assert s["valid"], s
            assert s["dist"] == s["embedded"], s
        assert len({s["nedge"] for s in c["searches"] if s["root"] == c["roots"][0]}) == 1
        for v in c["verdicts"]:
            assert v["dist"] == v["embedded"] and v["dist"][0] is not None, v
        assert [v["dist"][0] for v in c["verdicts"]] == ["parent-visited", "tree-edge-in-graph",
                                                         "component"]


def test_sort_unique_sends_fewer_bytes(checks):
    for n, c in checks.items():
        sent = {}
        for s in c["searches"]:
            if s["algorithm"] == "topdown-queue":
                sent[s["prune"]] = sent.get(s["prune"], 0) + s["sent_bytes"]
        if n == 1:
            assert set(sent.values()) == {0}
        else:
            assert 0 < sent["sort-unique"] < sent["none"] / 2, sent
            assert sent["bitmap"] <= sent["sort-unique"], sent


def _official(stdout):
    return {l[:32].rstrip().rstrip(":").replace(":     !", ""): l[32:].strip()
            for l in stdout.splitlines() if not l.startswith("#") and l[:1].strip()
            and ":" in l[:32]}


def test_run_under_mpiexec_prints_once_with_levels_and_json(warm_cache, tmp_path):
    from pygraph500 import build_csr, choose_roots, kronecker

    out = tmp_path / "r.json"
    p = graph500_mpi(3, "run", "--scale", "10", "--roots", "4", "--prune", "none", "--levels",
                     "--json", str(out))
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("SCALE:") == 1 and p.stdout.count("# levels of the search") == 1
    off = _official(p.stdout)
    assert off["num_mpi_processes"] == "3" and off["NBFS"] == "4"
    assert "# per process" in p.stdout and "direction-optimizing, --prune none" in p.stdout
    doc = json.loads(out.read_text())
    assert doc["official"]["num_mpi_processes"] == 3 and doc["valid"]
    assert doc["parameters"]["num_mpi_processes"] == 3
    assert doc["parameters"]["prune"] == "none" and doc["distributed"]["prune"] == "none"
    assert doc["distributed"]["mpi_library"].startswith(("MPICH", "Open MPI", "Intel"))
    assert len(doc["distributed"]["per_rank"]["local_vertices"]) == 3
    lv = doc["runs"][0]["levels"]
    for key in ("comp_time", "comm_time", "sent_bytes", "received_bytes", "nlf", "nlf_pruned"):
        assert len(lv[0]["per_rank"][key]) == 3
    assert sum(x["sent_bytes"] for x in lv) == sum(x["received_bytes"] for x in lv) > 0
    assert doc["roots"] == choose_roots(build_csr(kronecker(10)).degree() > 0, (2, 3), 4).tolist()
    assert any("oversubscribed" in l for l in doc["labels"]) == (3 > (os.cpu_count() or 1))


def test_run_topdown_p4_scale14(warm_cache):
    p = graph500_mpi(4, "run", "--scale", "14", "--roots", "2",
                     "--algorithm", "topdown-queue", "--quiet")
    assert p.returncode == 0, p.stderr
    off = _official(p.stdout)
    assert off["num_mpi_processes"] == "4" and off["SCALE"] == "14" and off["NBFS"] == "2"


@pytest.mark.parametrize("args,needle", [
    (["run", "--scale", "-1"], "--scale must be an integer"),
    (["run", "--scale", "8", "--algorithm", "bottomup"], "distributed engine runs"),
    (["run", "--scale", "8", "--json", "/nonexistent-dir/x.json"], "cannot write"),
    (["run", "--scale", "x"], "invalid int value"),
    (["run", "--scale", "8", "--backend", "gpu"], "--backend gpu: "),
])
def test_bad_parameter_reported_once(args, needle):
    if "gpu" in args:
        from pygraph500.backend.arrays import gpu_status
        if gpu_status()[0] is not None:
            pytest.skip("this machine has a GPU: --backend gpu is not an error here")
    p = graph500_mpi(3, *args, timeout=120)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr and p.stdout == ""
    assert p.stderr.count(needle) == 1, p.stderr
    if needle != "invalid int value":
        assert len([l for l in p.stderr.splitlines() if l.strip()]) == 1, p.stderr


def test_bad_input_every_rank_finds_is_reported_once(warm_cache):
    """A graph of self-loops only has no search key: every rank finds it at once, and the job
    ends with rank 0's one line, not one per rank."""
    p = graph500_mpi(3, "run", "--scale", "1", "--edgefactor", "2", "--roots", "2", "--quiet",
                     timeout=120)
    assert p.returncode == 2, (p.returncode, p.stderr)
    ours = [l for l in p.stderr.splitlines() if l.startswith("graph500:")]
    assert ours == ["graph500: error on rank 0 of 3: no search key: no vertex of the graph has "
                    "an edge to another vertex (self-loops do not count)"], p.stderr


@pytest.mark.parametrize("mode,phase", [("raise", "search"), ("kill", "construction")])
def test_a_failing_rank_ends_the_job(mode, phase, warm_cache):
    env = _env(PYGRAPH500_FAIL_RANK="1", PYGRAPH500_FAIL_PHASE=phase, PYGRAPH500_FAIL_MODE=mode)
    t0 = time.monotonic()
    p = graph500_mpi(3, "run", "--scale", "10", "--roots", "2", "--quiet", env=env, timeout=120)
    elapsed = time.monotonic() - t0
    assert p.returncode != 0
    assert elapsed < 60, elapsed
    assert "SCALE:" not in p.stdout
    if mode == "raise":
        line = "graph500: error on rank 1 of 3: RuntimeError: injected failure in search"
        assert p.stderr.count(line) == 1, p.stderr
        assert "Traceback" not in p.stderr


@pytest.mark.parametrize("cuda_aware", ["auto", "1"])
def test_one_stand_in_device_per_rank(cuda_aware, warm_cache, tmp_path):
    """--backend gpu under mpiexec with NumPy standing in for two devices per node: ranks
    0, 1, 2 take devices 0, 1, 0; this MPICH wheel is not CUDA-aware, so messages are staged
    through host memory unless PYGRAPH500_CUDA_AWARE=1 says otherwise; every tree valid."""
    out = tmp_path / "r.json"
    env = _env(PYGRAPH500_GPU_STANDIN="2")
    env.pop("PYGRAPH500_CUDA_AWARE", None)
    if cuda_aware != "auto":
        env["PYGRAPH500_CUDA_AWARE"] = cuda_aware
    p = graph500_mpi(3, "run", "--scale", "11", "--roots", "4", "--backend", "gpu", "--quiet",
                     "--json", str(out), env=env)
    assert p.returncode == 0, p.stderr
    assert _official(p.stdout)["num_mpi_processes"] == "3"
    doc = json.loads(out.read_text())
    info = doc["distributed"]
    assert doc["valid"] and info["per_rank"]["device_id"] == [0, 1, 0]
    assert "standing in for GPU 0 of 2" in info["device"]
    if cuda_aware == "auto":
        assert info["device_exchange"].startswith("staged through host memory")
        assert "MPIX_Query_cuda_support() = 0" in info["device_exchange"]
    else:
        assert info["device_exchange"].startswith("device buffers handed to MPI directly")
    assert "# NOTE: one GPU per process" in p.stdout


@pytest.mark.gpu
def test_one_gpu_per_rank_on_a_device(warm_cache, tmp_path):
    """On a machine with a GPU: two ranks on CuPy give the CPU engine's edge counts."""
    from pygraph500.backend.arrays import gpu_status

    if gpu_status()[0] is None:
        pytest.skip("no CUDA device")
    runs = {}
    for backend in ("cpu", "gpu"):
        out = tmp_path / f"{backend}.json"
        p = graph500_mpi(2, "run", "--scale", "16", "--roots", "8", "--backend", backend,
                         "--quiet", "--json", str(out))
        assert p.returncode == 0, p.stderr
        runs[backend] = json.loads(out.read_text())
    assert runs["gpu"]["valid"] and "GPU" in runs["gpu"]["distributed"]["device"]
    assert ([r["nedge"] for r in runs["gpu"]["runs"]]
            == [r["nedge"] for r in runs["cpu"]["runs"]])


def test_a_json_that_cannot_be_written_is_one_line_after_the_results(warm_cache, tmp_path):
    """Issue 38: the official block is printed before --json is written; a failed write is one
    line and exit status 2, not an abort of every rank."""
    env = _env(PYGRAPH500_FAIL_WRITE="ENOSPC@2")
    p = graph500_mpi(2, "run", "--scale", "10", "--roots", "4", "-q", "--json",
                     str(tmp_path / "r.json"), env=env, timeout=120)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert _official(p.stdout)["num_mpi_processes"] == "2"
    assert [l for l in p.stderr.splitlines() if l.strip()] == [
        f"graph500: error: cannot write {tmp_path / 'r.json'}: No space left on device "
        "(injected at write 2)"], p.stderr
    assert os.listdir(tmp_path) == []


@pytest.fixture
def launched():
    """Starts ``mpiexec -n P python -m pygraph500 ...`` and kills what is left of it (ranks
    included) when the test ends, whatever happened."""
    import psutil

    started = []

    def launch(n, *args):
        p = subprocess.Popen([MPIEXEC, "-n", str(n), sys.executable, "-m", "pygraph500",
                              *args], env=_env(), text=True, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        started.append((p, psutil.Process(p.pid)))
        return p

    yield launch
    for p, proc in started:
        if p.poll() is None:
            for child in proc.children(recursive=True) + [proc]:
                try:
                    child.kill()
                except psutil.NoSuchProcess:
                    pass
            p.wait()


def _ranks(launcher):
    """The rank processes an mpiexec started (its descendants running pygraph500)."""
    import psutil

    found = []
    for child in psutil.Process(launcher.pid).children(recursive=True):
        try:
            if "pygraph500" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


def test_an_interrupt_is_said_once_for_all_ranks(warm_cache, launched):
    """Ctrl-C to mpiexec reaches every rank: one line says so, not one per rank, and the job
    ends even when ranks wait in a collective for a rank that is gone."""
    import signal

    p = launched(3, "run", "--scale", "16", "--roots", "64", "-q")
    deadline = time.monotonic() + 60
    while len(_ranks(p)) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.5)  # importing, generating or searching
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    ours = [l for l in err.splitlines() if l.startswith("graph500:")]
    assert ours == ["graph500: interrupted on rank 0 of 3 (SIGINT)"], err
    assert p.returncode == 130 and "Traceback" not in err


def test_rank0_interrupted_before_mpi_starts_still_ends_the_launch(warm_cache, launched):
    """Rank 0 interrupted while importing, before it joins MPI, while the other ranks wait
    inside MPI's initialisation for it (which ends only with every rank in it): rank 0 joins
    MPI to abort the launch, rather than leave them waiting for ever."""
    import signal

    import psutil

    p = launched(3, "run", "--scale", "16", "--roots", "64", "-q")
    deadline = time.monotonic() + 60
    rank0 = None
    while rank0 is None and time.monotonic() < deadline:
        for rank in _ranks(p):
            try:
                if rank.environ().get("PMI_RANK") == "0" and any(
                        "_multiarray_umath" in m.path for m in rank.memory_maps()):
                    rank0 = rank
            except psutil.NoSuchProcess:
                pass
        time.sleep(0.002)
    assert rank0 is not None, "rank 0 never started its imports"
    rank0.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    ours = [l for l in err.splitlines() if l.startswith("graph500:")]
    assert ours == ["graph500: interrupted on rank 0 of 3 (SIGINT)"], err
    assert p.returncode != 0 and "Traceback" not in err


def test_ranks_killed_after_the_results_do_not_fail_the_run(warm_cache, launched):
    """A SIGTERM to the ranks once the official block is out (they are finishing: MPI's
    finalisation, the interpreter's) changes nothing: exit status 0, no banner."""
    import signal

    import psutil

    for _ in range(5):
        p = launched(2, "run", "--scale", "12", "--roots", "4", "-q")
        lines = []
        for line in p.stdout:
            lines.append(line)
            if line.startswith("bfs  stddev_validate"):
                break
        hit = 0
        for rank in _ranks(p):
            try:
                rank.send_signal(signal.SIGTERM)
                hit += 1
            except psutil.NoSuchProcess:
                pass
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, (p.returncode, err)
        assert "BAD TERMINATION" not in err and "graph500:" not in err, err
        assert _official("".join(lines))["NBFS"] == "4"
        if hit:
            return
    pytest.skip("the ranks had exited before the signal could reach them, five times")
