"""Progress on stderr: one self-overwriting line, only on a terminal and without --quiet."""
from __future__ import annotations

import sys
import time


class Progress:
    """Callable ``progress(phase, done, total)``; a no-op when disabled."""

    def __init__(self, enabled: bool | None = None, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._start = time.perf_counter()
        self._phase = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if phase != self._phase:
            self._phase = phase
            self._start = time.perf_counter()
        elapsed = time.perf_counter() - self._start
        counter = f" {done}/{total}" if total > 1 else (" done" if done == total else " ...")
        end = "\n" if done == total else ""
        self.stream.write(f"\r{phase}:{counter} ({elapsed:.1f} s)\x1b[K{end}")
        self.stream.flush()
