"""benchmarks/bench_fold_levels.py: the 2D fold's communication by level on the emulated
network adds up to the whole. (No per-level bound: what the network adds to one level can
include the delay a peer brought into it, more than the level's own messages take, and a
level's share can be negative when it absorbs delay counted before it; only a run's total
is the network's whole delay.)"""
import os
import subprocess
import sys

_PATH = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "bench_fold_levels.py")


def test_fold_levels_add_up_to_the_whole():
    done = subprocess.run([sys.executable, _PATH, "--scale", "10", "--procs", "4", "--roots",
                           "2", "--repeats", "1", "--network",
                           "latency=20us,bandwidth=1GB/s"],
                          capture_output=True, text=True, timeout=600, check=True)
    rows = [line.split() for line in done.stdout.splitlines()
            if line and not line.startswith(("#", "level"))]
    levels, total = rows[:-1], rows[-1]
    assert total[0] == "all" and len(levels) >= 3
    assert [int(r[0]) for r in levels] == list(range(len(levels)))
    for exchange in (1, 2):  # pipelined, at-once
        per_level = [float(r[exchange]) for r in levels]
        searches = [int(r[5]) for r in levels]
        assert abs(sum(u * n for u, n in zip(per_level, searches)) / searches[0]
                   - float(total[exchange])) < 1e-3 * max(1.0, float(total[exchange]))
    assert all(float(r[4]) > 0 for r in levels)  # every level's fold sends its headers
    searches = [int(r[5]) for r in levels]
    assert searches[0] == 2 and searches == sorted(searches, reverse=True)
