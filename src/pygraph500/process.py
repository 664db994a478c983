"""The process a command runs in: its place in a launch, and how it ends when a signal comes.

Light on purpose (standard library only): the `graph500` command imports it before anything
heavy, so a signal during numba's or scipy's import is already handled.

Launch. ``launched_rank`` and ``launched_size`` read the variables an MPI launcher (mpiexec,
mpirun, srun) sets in every process it starts; no MPI call is made.

Signals. ``handled_signals()`` (the command's entry point) makes SIGINT, SIGTERM and SIGHUP
raise ``Interrupted`` in the main thread, so every ``with`` and ``finally`` on the way out runs
and the command exits with 128 + the first signal, saying so in one line (``interrupted_line``).
A watcher thread, told of every signal at once (the interpreter's wakeup fd), sees it through:

- until the code that ends the command takes it (``command_ending``), it raises it again
  every REPEAT_AFTER seconds, since an exception raised where Python swallows it (a callback
  from C) would leave the command running; every RETRY_AFTER seconds while it could not be
  raised at all yet (a short command whose imports and kernel loading take most of its time
  must not finish with the interrupt still waiting). It is not raised inside an import (a C
  extension cut in its initialisation cannot be imported again, and C code that imports
  reports the error and goes on) nor inside a callback from compiled code (llvmlite's, while
  numba compiles or loads a kernel: LLVM would go on with a callback left undone; numba's
  unpickling of a namedtuple class a kernel returns: its caller would call NULL); there the
  watcher raises it after. Raised, it is not raised again for REPEAT_AFTER seconds, so the
  ``finally`` blocks on the way out run undisturbed;
- when the main thread cannot take it at all for LAST_RESORT_AFTER seconds (waiting outside
  the interpreter: an MPI collective whose peers are gone, a compiled kernel that released the
  interpreter's lock), it ends the process itself: the temporaries removed, the line said, an
  MPI launch aborted. A kernel that holds the lock holds the watcher too: the interrupt is
  then taken when the kernel returns (seconds at most here: every long computation is a
  sequence of kernels).

In an MPI launch the launcher signals every rank, and rank 0 speaks for them all: another
rank waits (``let_rank0_speak``) until rank 0 has said so and ended the launch, and speaks
itself only when it is still running after that (it was signalled alone).

Two things keep the files clean whenever a signal comes:

- ``temporaries``: files being written (outputs' temporaries, copies of input streams), so
  that the command removes whatever is left of them (``remove_temporaries``) when it ends on
  a signal;
- ``deferred()``: a section a signal must not split (creating a temporary and recording it;
  renaming a command's outputs into place): a signal that comes inside it is raised at its
  end, and the watcher waits for it.

``command_ending()`` says the command is ending (its results are out, or an error or the
interrupt has reached the code that ends it): signals are ignored from then on, so a late
kill cannot turn a finished run into a failed one, nor break the ending.
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import time

from .errors import Interrupted

__all__ = ["launched_rank", "launched_size", "handled_signals", "deferred", "temporaries",
           "remove_temporaries", "command_ending", "signal_received", "interrupted_line",
           "abort_launch", "join_mpi", "let_rank0_speak", "SIGNALS"]

# Variables a launcher sets in every process it starts: (rank variable, size variable).
_LAUNCH_VARS = (
    ("PMI_RANK", "PMI_SIZE"),                              # MPICH hydra, Intel MPI
    ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),      # Open MPI
    ("MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"),        # MVAPICH
    ("PMIX_RANK", None),                                   # any PMIx launcher
    ("SLURM_PROCID", "SLURM_STEP_NUM_TASKS"),              # srun (a job step, not sbatch)
)


def _launch_var(which: int) -> int | None:
    for pair in _LAUNCH_VARS:
        name = pair[which]
        if name is None:
            continue
        if which == 0 and name == "SLURM_PROCID" and "SLURM_STEP_NUM_TASKS" not in os.environ:
            continue  # inside sbatch but not srun: not an MPI launch
        value = os.environ.get(name)
        if value is not None:
            try:
                return int(value)
            except ValueError:
                continue
    return None


def launched_rank() -> int | None:
    """This process's rank as the launcher says (no MPI call), None when not launched."""
    return _launch_var(0)


def launched_size() -> int | None:
    """The number of processes the launcher started (None when unknown or not launched)."""
    return _launch_var(1)


SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                if hasattr(signal, name))
REPEAT_AFTER = 0.5       # seconds between raisings of an interrupt the command has not taken
RETRY_AFTER = 0.02       # seconds between tries while no raising has been possible yet
LAST_RESORT_AFTER = 3.0  # seconds after which the watcher ends a process that cannot take it
# seconds by which an interrupted rank 0 has said so and ended its launch (its watcher's last
# resort, then the grace its abort gives the launcher to forward the line)
RANK0_ENDS_WITHIN = LAST_RESORT_AFTER + 3.0

temporaries: set[str] = set()  # paths to remove if the command ends on a signal
# Python code that compiled code calls back, where an exception must not be raised, as
# (a fragment of the file's path, the function or None for any): LLVM's callbacks while numba
# compiles or loads a kernel (the exception is swallowed and LLVM goes on with what the
# callback left undone), and numba's unpickling of a class when a kernel returns a namedtuple
# (the kernel's wrapper calls what it returns unchecked: a segfault)
_CALLED_FROM_C = ((f"{os.sep}llvmlite{os.sep}", None),
                  (f"{os.sep}numba{os.sep}core{os.sep}serialize.py", "_numba_unpickle"))


class _State:
    depth = 0           # deferred() sections open
    pending = None      # a signal that came inside one
    raised = None       # the first signal: the command's exit status is 128 + it
    ending = False      # command_ending() was called: signals are ignored
    command = 0         # which handled_signals() block: a watcher serves its own only
    thrown_at = None    # when the interrupt was last raised (time.monotonic())


def _on_signal(signum, frame):
    if _State.ending:
        return
    _State.raised = _State.raised or signum
    if _State.depth:
        _State.pending = signum
        return
    now = time.monotonic()
    if _State.thrown_at is not None and now - _State.thrown_at < REPEAT_AFTER:
        return  # raised a moment ago: its ``finally`` blocks run undisturbed
    if _unsafe(frame):
        return  # the watcher raises it again soon, after the import or the callback
    _State.thrown_at = now
    raise Interrupted(_State.raised)


def _unsafe(frame) -> bool:
    """Whether an exception raised in ``frame`` could be lost or break a module: inside an
    import (an extension module cut in its initialisation cannot be imported again; C code
    that imports prints the error and goes on) or a callback from compiled code."""
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith("<frozen importlib") or any(
                path in code.co_filename and function in (None, code.co_name)
                for path, function in _CALLED_FROM_C):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def deferred():
    """A section no signal splits: one that comes inside is raised when the section ends."""
    _State.depth += 1
    try:
        yield
    finally:
        _State.depth -= 1
        if _State.depth == 0 and _State.pending is not None:
            _State.pending = None
            if not _State.ending:
                raise Interrupted(_State.raised)


def signal_received() -> int | None:
    """The first signal the command received (None: none came)."""
    return _State.raised


def command_ending() -> None:
    """The command is ending: its results are out, or an error or the interrupt has reached
    the code that ends it. Signals are ignored from now on."""
    _State.ending = True


def remove_temporaries() -> None:
    """Remove every temporary still recorded (the command is ending on a signal)."""
    for path in list(temporaries):
        with contextlib.suppress(OSError):
            os.unlink(path)
        temporaries.discard(path)


def interrupted_line(signum: int, prog: str = "graph500") -> str:
    """The one line an interrupted command says (with its rank in an MPI launch)."""
    size = launched_size() or 1
    where = f" on rank {launched_rank()} of {size}" if size > 1 else ""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    return f"{prog}: interrupted{where} ({name})"


def join_mpi() -> None:
    """Initialise MPI here, if this process is one of several a launcher started and has not
    yet (a rank of a command whose every rank joins MPI, interrupted before it did): the
    other ranks may be waiting inside MPI's initialisation for this one, which ends only
    with every rank in it, and ``abort_launch`` needs it. Before ``let_rank0_speak``: rank 0
    may be waiting there for this rank."""
    if (launched_size() or 1) > 1 and "mpi4py.MPI" not in sys.modules:
        with contextlib.suppress(ImportError):
            import mpi4py.MPI  # noqa: F401


def abort_launch(status: int) -> None:
    """End every process of this MPI launch now (MPI_Abort), when this process is one of
    several a launcher started and MPI is running here (an embedded run may have MPI loaded
    only to report on it)."""
    mpi = sys.modules.get("mpi4py.MPI")
    if ((launched_size() or 1) > 1 and mpi is not None and mpi.Is_initialized()
            and not mpi.Is_finalized()):
        mpi.COMM_WORLD.Abort(status)


def _watch(wakeup, command):
    """The watcher thread of one handled_signals() block (see the module docstring)."""
    with wakeup:
        _see_through(wakeup, command)


def _see_through(wakeup, command):
    import _thread

    while True:
        try:
            got = wakeup.recv(64)
        except OSError:
            return
        if not got or _State.command != command:
            return
        signums = [b for b in got if b in SIGNALS]
        if not signums or _State.ending:
            continue
        first = _State.raised or signums[0]
        waited = 0.0
        while not _State.ending and _State.command == command:
            pause = RETRY_AFTER if _State.thrown_at is None else REPEAT_AFTER
            time.sleep(pause)
            waited += pause
            if _State.ending or _State.command != command or _State.depth:
                continue
            if waited >= LAST_RESORT_AFTER:
                _end_now(_State.raised or first)
            _thread.interrupt_main(_State.raised or first)


def let_rank0_speak() -> None:
    """In a rank other than 0 of a launch, interrupted: wait until rank 0, which the launcher
    signalled too, has said so and ended the launch (this process with it). A rank still
    alive after that was signalled alone, and speaks for itself."""
    if launched_rank() not in (None, 0):
        time.sleep(RANK0_ENDS_WITHIN)


def _end_now(signum):
    """End the process from the watcher: the main thread cannot take the interrupt."""
    _State.ending = True
    remove_temporaries()
    let_rank0_speak()
    # straight to the file descriptor: the main thread may hold sys.stderr's lock
    os.write(2, (interrupted_line(signum) + "\n").encode("utf-8", "backslashreplace"))
    abort_launch(128 + signum)
    os._exit(128 + signum)


@contextlib.contextmanager
def handled_signals(ignore_after: bool = False):
    """SIGINT, SIGTERM and SIGHUP raise ``Interrupted`` inside the block (main thread only;
    elsewhere the block runs as it is; a signal the process was started ignoring stays
    ignored). The previous handlers come back after it, unless ``ignore_after`` (a command's
    process, about to exit): then these signals are ignored, through the interpreter's
    finalisation too, so a late signal cannot fail a finished command."""
    import socket
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield  # signals are the main thread's business
        return
    _State.depth, _State.pending, _State.raised, _State.ending = 0, None, None, False
    _State.thrown_at = None
    _State.command += 1
    wakeup, notify = socket.socketpair()
    notify.setblocking(False)
    old_fd = signal.set_wakeup_fd(notify.fileno(), warn_on_full_buffer=False)
    threading.Thread(target=_watch, args=(wakeup, _State.command), name="signals",
                     daemon=True).start()
    hook = sys.unraisablehook

    def quiet(unraisable):  # an interrupt Python swallowed is raised again, not reported
        if not isinstance(unraisable.exc_value, Interrupted):
            hook(unraisable)

    sys.unraisablehook = quiet
    # the handlers last, with the watcher in place; the ones ignored at the start stay so
    previous = {s: signal.getsignal(s) for s in SIGNALS}
    previous = {s: h for s, h in previous.items() if h is not signal.SIG_IGN}
    try:
        for s in previous:
            signal.signal(s, _on_signal)
        yield
    finally:
        _State.ending = True
        sys.unraisablehook = hook
        for s, handler in previous.items():
            signal.signal(s, signal.SIG_IGN if ignore_after else handler)
        signal.set_wakeup_fd(old_fd)
        notify.close()  # the watcher reads the end of its socket and stops
