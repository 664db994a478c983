"""The one run loop (benchmark.loop) on a stand-in Engine: the Graph500 order of work, whatever
the engine (embedded, distributed, a future kernel 3 or 2D engine)."""
from dataclasses import dataclass

import numpy as np
import pytest

from pygraph500.benchmark import Engine, RunConfig, run_engine, run_trials
from pygraph500.errors import InputError


@dataclass
class Verdict:
    valid: bool
    nedge: int
    rule: str | None = None
    message: str = ""


class Recorder(Engine):
    """Records every call; the search from ``bad`` gives an invalid result."""

    def __init__(self, bad=None):
        self.calls, self.bad = [], bad

    def begin(self, phase):
        self.calls.append(("begin", phase))

    def warm_up(self):
        self.calls.append(("warm_up",))

    def load(self):
        self.calls.append(("load",))

    def build(self):
        self.calls.append(("build",))

    def roots(self):
        return np.array([5, 7, 9], dtype=np.int64)

    def search(self, root):
        self.calls.append(("search", root))
        return {"root": root}

    def validate(self, result, root):
        self.calls.append(("validate", root))
        return Verdict(root != self.bad, 10 * root, None if root != self.bad else "rule", "m")

    def count_edges(self, result):
        self.calls.append(("count", result["root"]))
        return 3

    def levels(self, result):
        self.calls.append(("levels", result["root"]))
        return [{"level": 0}]

    def result_fields(self):
        return dict(num_vertices=16, num_edges=32, threads=1)


def test_warm_up_search_then_one_timed_search_and_validation_per_root():
    engine = Recorder()
    runs = run_trials(engine, engine.roots(), record_levels=False)
    searches = [c for c in engine.calls if c[0] in ("search", "validate")]
    assert searches == [("search", 5), ("search", 5), ("validate", 5), ("search", 7),
                        ("validate", 7), ("search", 9), ("validate", 9)]
    assert [r.nedge for r in runs] == [50, 70, 90] and all(r.levels == [] for r in runs)
    assert not any(c[0] == "levels" for c in engine.calls)  # nobody asked for them


def test_stops_at_the_first_invalid_result_and_counts_without_validation():
    engine = Recorder(bad=7)
    runs = run_trials(engine, engine.roots(), record_levels=True)
    assert [r.valid for r in runs] == [True, False] and runs[1].rule == "rule"
    assert runs[0].levels == [{"level": 0}]
    engine = Recorder()
    runs = run_trials(engine, engine.roots(), validate=False)
    assert [(r.nedge, r.valid, r.validate_time) for r in runs] == [(3, None, -1.0)] * 3


def test_run_engine_phases_in_order():
    engine = Recorder()
    result = run_engine(engine, RunConfig.of(scale=4, num_roots=3))
    phases = [c for c in engine.calls if c[0] in ("warm_up", "load", "build", "begin")][:5]
    assert phases == [("warm_up",), ("begin", "generation"), ("load",),
                      ("begin", "construction"), ("build",)]
    assert result.valid and result.roots.tolist() == [5, 7, 9] and result.num_vertices == 16
    assert list(result.official())[:3] == ["SCALE", "edgefactor", "NBFS"]


def _cold(monkeypatch, cold):
    from pygraph500.benchmark import loop
    monkeypatch.setattr(loop, "compiled_before", lambda: not cold)
    monkeypatch.setattr(loop, "note_compiled", lambda: None)
    monkeypatch.setattr(loop, "compile_ahead", lambda engine: None)


class Reader(Recorder):
    """An engine whose ``load`` reads the user's input (the file engine)."""

    reads_input = True

    def __init__(self, refuse=False):
        super().__init__()
        self.refuse = refuse

    def load(self):
        super().load()
        if self.refuse:
            raise InputError("bad.csv:2: negative weight")


def _order(engine):
    return [c[0] for c in engine.calls if c[0] in ("warm_up", "load", "build")]


def test_a_users_input_is_read_before_the_warm_up(monkeypatch):
    """Compiling the kernels takes a minute or more on a cold cache (and some of them on a
    partly warm one): a bad file is refused first, and a good one is read first; a
    generated graph comes after the warm-up, which its timed generation needs."""
    for cold in (True, False):
        _cold(monkeypatch, cold)
        engine = Reader(refuse=True)
        with pytest.raises(InputError, match="bad.csv:2"):
            run_engine(engine, RunConfig.of(scale=4, num_roots=3))
        assert _order(engine) == ["load"]
        engine = Reader()
        run_engine(engine, RunConfig.of(scale=4, num_roots=3))
        assert _order(engine) == ["load", "warm_up", "build"]
        engine = Recorder()
        run_engine(engine, RunConfig.of(scale=4, num_roots=3))
        assert _order(engine) == ["warm_up", "load", "build"]
