"""The output discipline (io/outputs.py): temporaries renamed into place, devices and FIFOs
written in place, symlinks followed, outputs committed together, every OSError one
OutputError; and every writing command under an injected failure at each of its writes."""
import errno
import os
import stat
import subprocess
import sys
import threading

import numpy as np
import pytest

from pygraph500 import kronecker
from pygraph500.errors import InputError, OutputError
from pygraph500.io import (FAIL_WRITE, atomic_writer, check_outputs, write_graph, write_json,
                           written_together)
from pygraph500.io import outputs

from test_cli_fuzz import run_cli


def leftovers(directory):
    """Temporaries left in ``directory`` (none may ever be)."""
    return [f for f in os.listdir(directory) if f.startswith(".tmp-")]


def test_new_file_gets_umask_mode_and_old_file_keeps_its_mode(tmp_path):
    new, old = tmp_path / "new.bin", tmp_path / "old.bin"
    umask = os.umask(0o022)
    try:
        with atomic_writer(str(new)) as f:
            f.write(b"x")
        old.write_bytes(b"old")
        old.chmod(0o640)
        with atomic_writer(str(old)) as f:
            f.write(b"new")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_bytes() == b"new"
    assert leftovers(tmp_path) == []


def test_failed_block_leaves_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "t.bin"
    path.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_writer(str(path)) as f:
            f.write(b"half")
            raise RuntimeError("writer failed")
    assert path.read_bytes() == b"old" and leftovers(tmp_path) == []


def test_symlink_is_followed_and_stays_a_link(tmp_path):
    target, link = tmp_path / "real.json", tmp_path / "link.json"
    target.write_text("{}")
    link.symlink_to(target)
    write_json({"a": 1}, str(link))
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == '{\n "a": 1\n}\n'
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "made.json")
    write_json([], str(dangling))
    assert dangling.is_symlink() and (tmp_path / "made.json").read_text() == "[]\n"


def test_character_device_is_written_in_place():
    with atomic_writer("/dev/null") as f:
        f.write(b"x" * 1000)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_full_device_is_one_output_error():
    with pytest.raises(OutputError, match=r"^cannot write /dev/full: No space left on device$"):
        with atomic_writer("/dev/full") as f:
            f.write(b"x" * (1 << 16))
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "f.bin"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    with atomic_writer(str(fifo)) as f:
        f.write(b"through the fifo")
    reader.join(10)
    assert got == [b"through the fifo"] and stat.S_ISFIFO(fifo.stat().st_mode)
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_device_node_is_never_renamed_over(tmp_path):
    """`generate --out <a character device>` as root: the device stays a device (a node of
    /dev/null's numbers made in tmp_path, so a failure cannot break the machine's)."""
    node = tmp_path / "null"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    rc, _, err = run_cli("generate", "--scale", "5", "--out", node, "-q")
    assert rc == 0, err
    assert stat.S_ISCHR(node.stat().st_mode) and leftovers(tmp_path) == []


def test_outputs_naming_one_file_are_refused(tmp_path):
    a = tmp_path / "a.bin"
    a.write_bytes(b"old")
    (tmp_path / "link.bin").symlink_to(a)
    os.link(a, tmp_path / "hard.bin")
    for other in ("a.bin", "link.bin", "hard.bin"):
        with pytest.raises(InputError, match="are the same file"):
            check_outputs(("--out", str(a)), ("--weights", str(tmp_path / other)))
    check_outputs(("--out", str(a)), ("--weights", str(tmp_path / "b.bin")), ("x", None))


def test_commands_refuse_outputs_naming_one_file_before_any_work(tmp_path):
    same = tmp_path / "same.bin"
    rc, _, err = run_cli("generate", "-s", "10", "--out", same, "--weights", same, "-q")
    assert rc == 2 and err == (f"graph500: error: --out {same} and --weights {same} are the "
                               "same file; give each output its own\n")
    assert os.listdir(tmp_path) == []
    rc, _, err = run_cli("generate", "-s", "10", "--out", tmp_path / "g.bin", "--weights",
                         tmp_path / "g.bin.json", "-q")
    assert rc == 2 and "its description" in err and os.listdir(tmp_path) == []


def test_generate_into_a_pipe_through_dev_stdout(tmp_path):
    """`generate -o /dev/stdout | ...`: /dev/stdout on a pipe is a /proc link to "pipe:[N]",
    which no path reaches; it is written in place, the tuples' int64 pairs and nothing
    else, no description, nothing left in the working directory."""
    e = kronecker(6, 4)
    done = subprocess.run([sys.executable, "-m", "pygraph500", "generate", "-s", "6", "-e",
                           "4", "-o", "/dev/stdout", "-q"], cwd=tmp_path, capture_output=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    pairs = np.frombuffer(done.stdout, dtype="<i8").reshape(-1, 2)
    np.testing.assert_array_equal(pairs, np.column_stack([e.src, e.dst]))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("argv", [
    ["generate", "-s", "5", "--out", "-"],
    ["generate", "-s", "5", "--out", "g.bin", "--weights", "-"],
    ["run", "-s", "5", "--json", "-"],
])
def test_dash_is_no_output_name(tmp_path, argv, monkeypatch):
    """``-`` reads stdin where a command takes input; as an output it was a file named "-"
    (and "-.json"): refused in one line, nothing written."""
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli(*argv, "-q")
    assert rc == 2 and out == ""
    assert err == ("graph500: error: cannot write -: it reads stdin as an input; name the "
                   "output file (/dev/stdout writes to standard output)\n")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("target", ["/proc/x.bin", "/proc/self/x.bin", "/sys/x.bin"])
def test_an_output_where_no_file_can_be_made_is_one_line(target):
    rc, _, err = run_cli("generate", "-s", "5", "--out", target, "-q")
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith(f"graph500: error: cannot write "
                                                               f"{target}: "), err


def test_group_is_all_new_or_all_old(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_bytes(b"old a")
    b.write_bytes(b"old b")
    with written_together(str(a), str(b)):
        with atomic_writer(str(a)) as f:
            f.write(b"new a")
        assert a.read_bytes() == b"old a"  # nothing renamed before the group ends
        with atomic_writer(str(b)) as f:
            f.write(b"new b")
    assert (a.read_bytes(), b.read_bytes()) == (b"new a", b"new b")
    with pytest.raises(ValueError):
        with written_together(str(a), str(b)):
            with atomic_writer(str(a)) as f:
                f.write(b"newer a")
            raise ValueError("the second output failed")
    assert (a.read_bytes(), b.read_bytes()) == (b"new a", b"new b")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("code", ["ENOSPC", "EIO", "EDQUOT", "EROFS", "EACCES", "ENAMETOOLONG"])
def test_each_step_failing_is_one_output_error_and_the_group_stays_old(tmp_path, monkeypatch,
                                                                        code):
    """open, write, fsync and rename of a group of three, each failing in turn: one
    OutputError naming the path and the reason; the three files as they were (a failed
    rename undoes the renames before it)."""
    paths = [tmp_path / n for n in ("e.bin", "w.bin", "e.bin.json")]
    for p in paths:
        p.write_bytes(b"old " + p.name.encode())
    k = 0
    while True:
        k += 1
        monkeypatch.setenv(FAIL_WRITE, f"{code}@{k}")
        try:
            with written_together(*map(str, paths)):
                for p in paths:
                    with atomic_writer(str(p)) as f:
                        f.write(b"new ")
                        f.write(p.name.encode())
        except OutputError as exc:
            failing = paths[(k - 1) // 4] if k <= 12 else paths[k - 13]  # its path is named
            assert str(exc).startswith(f"cannot write {failing}: {os.strerror(getattr(errno, code))}")
            assert [p.read_bytes() for p in paths] == [b"old " + p.name.encode() for p in paths]
            assert leftovers(tmp_path) == []
            continue
        break
    assert k == 3 * 4 + 3 + 1  # open, two writes and fsync of each, three renames; then none
    assert [p.read_bytes() for p in paths] == [b"new " + p.name.encode() for p in paths]


# Every command that writes, with what it writes: (argv, outputs relative to tmp_path).
def _commands(tmp_path):
    from pygraph500.generator import kronecker
    from pygraph500.io import GraphFile

    edges = kronecker(7, 8, weights=True)
    graph = GraphFile(edges)
    write_graph(graph, str(tmp_path / "in.txt"))
    write_graph(GraphFile(edges, weights=edges.weight), str(tmp_path / "w.txt"))
    rc, _, err = run_cli("run", "--scale", "6", "--roots", "2", "--json", tmp_path / "r0.json", "-q")
    assert rc == 0, err
    return [
        (["generate", "-s", "7", "--out", "e.bin", "--weights", "w.bin", "-q"],
         ["e.bin", "w.bin", "e.bin.json"]),
        (["generate", "-s", "6", "--out", "e.txt", "-q"], ["e.txt", "e.txt.json"]),
        (["bfs", "in.txt", "--root", "1", "--out", "t.csv", "-q"], ["t.csv"]),
        (["bfs", "in.txt", "--root", "1", "--out", "t.npy", "--distances", "-q"], ["t.npy"]),
        (["sssp", "w.txt", "--root", "1", "--out", "s.csv", "-q"], ["s.csv"]),
        (["convert", "in.txt", "c.mtx", "-q"], ["c.mtx"]),
        (["convert", "in.txt", "c.npz", "-q"], ["c.npz"]),
        (["convert", "in.txt", "c.p48", "-q"], ["c.p48"]),
        (["run", "-s", "6", "--roots", "2", "--json", "r.json", "-q"], ["r.json"]),
        (["plot", "r0.json", "--out", "figs"], ["figs/teps.png", "figs/levels.png",
                                               "figs/level_times.png"]),
        (["apsp", "--n", "24", "--json", "a.json"], ["a.json"]),
    ]


def test_every_writing_command_fails_cleanly_at_every_write(tmp_path, monkeypatch):
    """Issue 38: ENOSPC at the K-th open/write/fsync/rename of each command, for every K
    the command reaches (every K up to 40, then every 7th): exit 2, one line naming the
    file, no temporary, every old output as it was; with no failure the outputs are new."""
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "figs").mkdir()
    for argv, outs in _commands(tmp_path):
        for o in outs:
            (tmp_path / o).write_bytes(b"old " + o.encode())
        ops = []
        real_step = outputs._Group.step
        monkeypatch.setattr(outputs._Group, "step", lambda self, *a: (ops.append(a), real_step(self, *a))[1])
        monkeypatch.setenv(FAIL_WRITE, "ENOSPC@1000000000")
        rc, out, err = run_cli(*argv)
        monkeypatch.setattr(outputs._Group, "step", real_step)
        assert rc == 0, (argv, err)
        written = {o: (tmp_path / o).read_bytes() for o in outs}
        assert all(v != b"old " + o.encode() for o, v in written.items()), argv
        for o in outs:
            (tmp_path / o).write_bytes(b"old " + o.encode())
        steps = len(ops)
        for k in [k for k in range(1, steps + 1) if k <= 40 or k % 7 == 0]:
            monkeypatch.setenv(FAIL_WRITE, f"ENOSPC@{k}")
            rc, out, err = run_cli(*argv)
            lines = err.strip().splitlines()
            assert rc == 2 and len(lines) == 1, (argv, k, err)
            assert lines[0].startswith("graph500: error: cannot write ") and \
                "No space left on device" in lines[0], (argv, k, err)
            assert leftovers(tmp_path) == [] and leftovers(tmp_path / "figs") == [], (argv, k)
            for o in outs:
                assert (tmp_path / o).read_bytes() == b"old " + o.encode(), (argv, k, o)
            if argv[0] == "run":  # the results are printed before the JSON is written
                assert "bfs  harmonic_mean_TEPS" in out, (argv, k)
        monkeypatch.delenv(FAIL_WRITE)


def test_bad_fault_spec_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv(FAIL_WRITE, "ENOSPC")
    with pytest.raises(InputError, match="ERRNO@K"):
        write_json({}, str(tmp_path / "x.json"))


def test_numpy_and_json_outputs_read_back(tmp_path):
    """A document larger than a write buffer and an array go through whole."""
    doc = {"runs": [{"time": i * 0.5, "levels": list(range(50))} for i in range(500)]}
    write_json(doc, str(tmp_path / "big.json"))
    import json

    assert json.loads((tmp_path / "big.json").read_text()) == doc
    a = np.arange(100_000, dtype=np.int64)
    with atomic_writer(str(tmp_path / "a.npy")) as f:
        np.save(f, a)
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), a)


def test_disk_writing_starts_while_a_large_output_is_written(tmp_path, monkeypatch):
    """Every WRITEBACK_EVERY bytes the temporary's disk writing is started (so the fsync
    before the rename waits for the last part only); the bytes are the bytes written."""
    calls = []
    real = outputs._start_writeback()
    assert real is not None  # Linux: sync_file_range is there

    def start(fd, offset, nbytes, flags):
        calls.append((offset, nbytes, flags))
        return real(fd, offset, nbytes, flags)

    monkeypatch.setattr(outputs, "WRITEBACK_EVERY", 1000)
    monkeypatch.setattr(outputs, "_start_writeback", lambda: start)
    data = os.urandom(10_000)
    with atomic_writer(str(tmp_path / "x.bin")) as f:
        for i in range(0, len(data), 500):
            f.write(data[i:i + 500])
    assert (tmp_path / "x.bin").read_bytes() == data
    assert calls == [(0, 0, 2)] * 10
