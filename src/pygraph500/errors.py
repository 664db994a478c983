"""The error hierarchy: the CLI maps InputError/ResourceError to one line and exit status 2."""


class Graph500Error(Exception):
    """Base class of every error pygraph500 raises on purpose."""


class InputError(Graph500Error, ValueError):
    """Bad input: the message says what is wrong and where (file, line, value)."""


class ResourceError(Graph500Error, MemoryError):
    """A run would not fit: the message says how much it needs and how much there is."""


class ValidationError(Graph500Error):
    """A BFS tree broke a Graph500 rule (raised only where a caller asks for it)."""
