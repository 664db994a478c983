"""Progress on stderr: one self-overwriting line on a terminal, without --quiet. Without a
terminal (a log, a batch job) only the slow first compile is said, a line as it starts and
one as it ends, so that a long silent wait has its reason in the log."""
from __future__ import annotations

import sys
import time


class Progress:
    """Callable ``progress(phase, done, total)``; a no-op when disabled (``enabled=False``:
    --quiet; None: a terminal's line, else the compile's two lines)."""

    def __init__(self, enabled: bool | None = None, stream=None):
        self.stream = stream or sys.stderr
        terminal = self.stream.isatty()
        self.enabled = terminal if enabled is None else enabled
        self.logged = enabled is None and not terminal
        self._start = time.perf_counter()
        self._phase = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            if self.logged and phase.startswith("compiling") and done in (0, total):
                self._line(phase, done, total)
            return
        if phase != self._phase:
            self._phase = phase
            self._start = time.perf_counter()
        elapsed = time.perf_counter() - self._start
        counter = f" {done}/{total}" if total > 1 else (" done" if done == total else " ...")
        end = "\n" if done == total else ""
        self.stream.write(f"\r{phase}:{counter} ({elapsed:.1f} s)\x1b[K{end}")
        self.stream.flush()

    def _line(self, phase: str, done: int, total: int) -> None:
        """A plain line for a log: the phase starting, or done with its seconds."""
        if done == 0:
            self._start = time.perf_counter()
            self.stream.write(f"{phase} ...\n")
        else:
            self.stream.write(f"{phase}: done ({time.perf_counter() - self._start:.1f} s)\n")
        self.stream.flush()
