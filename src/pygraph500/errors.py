"""The error hierarchy, and how its messages show values. The CLI maps every Graph500Error
(InputError, ResourceError, OutputError) to one line and exit status 2, and Interrupted to one
line and 128 + the signal. A message shows numbers as Python prints them (``shown``: ``3``, never
``np.int64(3)``) and bytes from a user's file only escaped (``excerpt``, ``plain_text``): a binary
file must not reach the terminal. Standard library only: the command imports this first.
"""

_ARRAY_ITEMS = 16  # a longer array is shown by its shape and dtype


def excerpt(data, limit: int = 40) -> str:
    """Bytes from a user's file, quoted: printable ASCII as it is, every other byte as
    ``\\xNN``, at most ``limit`` bytes and then "..."."""
    raw = bytes(data[:limit])
    text = "".join(chr(b) if 32 <= b < 127 and b not in (39, 92) else f"\\x{b:02x}" for b in raw)
    return f"'{text}'" + ("..." if len(data) > limit else "")


def plain_text(text: str, limit: int = 200) -> str:
    """``text`` as it is when it is printable ASCII, else its UTF-8 bytes through ``excerpt``:
    a library's error text can quote a file's bytes."""
    if text.isascii() and text.isprintable():
        return text
    return excerpt(text.encode("utf-8", "backslashreplace"), limit)


def _is_numpy(value) -> bool:
    return type(value).__module__ == "numpy"


def _plain(value):
    if _is_numpy(value) and hasattr(value, "item") and getattr(value, "ndim", 1) == 0:
        return value.item()
    if type(value) in (tuple, list):
        return type(value)(_plain(v) for v in value)
    return value


def shown(value) -> str:
    """``repr(value)`` with NumPy scalars, also inside a tuple or list, as the Python values
    they hold: a user's ``np.int64(3)`` reads ``3``, a string keeps its quotes, a short array
    reads as a list."""
    if _is_numpy(value) and getattr(value, "ndim", 0) > 0:
        if value.size > _ARRAY_ITEMS:
            return f"an array of shape {value.shape} and dtype {value.dtype}"
        return repr(value.tolist())
    return repr(_plain(value))


class Graph500Error(Exception):
    """Base class of every error pygraph500 raises on purpose."""


class InputError(Graph500Error, ValueError):
    """Bad input: the message says what is wrong and where (file, line, value). ``param``:
    the parameter at fault as the message names it, where there is one (a front end says it
    in its own words: the CLI replaces that name by its flag)."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


class ResourceError(Graph500Error, MemoryError):
    """A run would not fit: the message says how much it needs and how much there is."""


class ValidationError(Graph500Error):
    """A BFS tree broke a Graph500 rule (raised only where a caller asks for it)."""


class OutputError(Graph500Error, OSError):
    """A file could not be written (a full disk, no permission, an I/O error): the message
    names the path and the system's reason; nothing half-written is left behind."""


class Interrupted(KeyboardInterrupt):
    """A signal (SIGINT, SIGTERM, SIGHUP) stopped the command; it exits with 128 + ``signum``."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def signal_name(self) -> str:
        import signal

        return signal.Signals(self.signum).name
