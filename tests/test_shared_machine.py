"""The run's wait policy on a shared machine (issue 17, item 3): a bounded spin and a note when
other processes compete for the cores at the start; nothing on a free machine; the user's own
setting wins."""
import os

import pytest

from pygraph500.backend import threads


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "KMP_BLOCKTIME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    return monkeypatch


def test_free_machine_changes_nothing(clean_env):
    clean_env.setattr(threads, "_runnable_others", lambda: 0.2)
    assert threads.shared_machine(2) is None
    assert "GOMP_SPINCOUNT" not in os.environ


def test_one_free_core_is_enough_for_one_thread(clean_env):
    clean_env.setattr(threads, "_runnable_others", lambda: 1.0)
    assert threads.shared_machine(1) is None
    note = threads.shared_machine(None)  # all cores wanted
    assert note is not None and "2 threads" in note


def test_busy_machine_bounded_spin_and_note(clean_env):
    clean_env.setattr(threads, "_runnable_others", lambda: 1.0)
    note = threads.shared_machine(2)
    assert "timings may be disturbed" in note and "GOMP_SPINCOUNT=1000" in note
    assert os.environ["GOMP_SPINCOUNT"] == threads.BOUNDED_SPIN


def test_the_users_policy_wins(clean_env):
    clean_env.setattr(threads, "_runnable_others", lambda: 3.0)
    clean_env.setenv("OMP_WAIT_POLICY", "active")
    note = threads.shared_machine(2)
    assert "timings may be disturbed" in note and "GOMP_SPINCOUNT" not in note
    assert "GOMP_SPINCOUNT" not in os.environ


def test_run_queue_is_read_here():
    others = threads._runnable_others(samples=2, interval=0.0)
    if os.path.exists("/proc/stat"):
        assert others is not None and others >= 0
    else:
        assert others is None
