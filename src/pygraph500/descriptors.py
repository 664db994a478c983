"""What an algorithm is and can do, said once: the ``Algorithm`` record of every BFS and SSSP
algorithm, which the registries (``bfs.ALGORITHMS``, ``sssp.ALGORITHMS``) hold.

The CLI's choices and help, the run configuration's checks, ``graph500 info --algorithms``
and the tests' traits all read these records, so adding an algorithm is its module, its
record in the registry and its test. A record is called as its function is
(``ALGORITHMS[name](graph, root, **options)``); an option the function does not take is
refused with one line naming the algorithm and the option. The options are the function's
keyword-only parameters (names and defaults come from its signature; the record gives each
its help).
"""
from __future__ import annotations

import contextlib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Callable

from .errors import InputError

__all__ = ["Algorithm", "Option", "Registry"]


@dataclass(frozen=True)
class Option:
    """One keyword option of an algorithm: its name, default (from the signature) and help."""

    name: str
    default: object
    help: str


@dataclass(frozen=True)
class Algorithm:
    """One algorithm of a kernel, and its capabilities.

    ``option_help`` names every keyword-only parameter of ``function`` (a test holds them
    equal). ``backends``: where it runs (``"cpu"`` alone: compiled code or scipy on the host;
    an array algorithm runs on every array backend). ``directions``: the directions its BFS
    levels take. ``python_levels``: each level is a step driven from Python (tens of
    microseconds), so a graph of thousands of levels is slow by nature, as it is for
    bottom-up only searches, which rescan the unvisited vertices each level.
    ``examines_every_edge``: every level reads every adjacency entry. ``prepare(graph)``:
    the form of the graph it searches instead of the CSR, built once and timed as
    construction. ``directed``: it only follows out-edges (top-down BFS levels, pushed
    relaxations), so it searches a directed graph (``CSRGraph.directed``) correctly; the
    others refuse one."""

    name: str
    kernel: str                      # "bfs" (kernel 2) or "sssp" (kernel 3)
    function: Callable
    summary: str                     # what it is, one sentence (help, info, docs)
    source: str = ""                 # the paper or thesis section it comes from
    option_help: Mapping[str, str] = field(default_factory=dict)
    backends: tuple[str, ...] = ("cpu",)
    distributed: bool = False        # the distributed engine runs it (mpiexec)
    directions: tuple[str, ...] = ("top-down",)
    python_levels: bool = False
    examines_every_edge: bool = False
    prepare: Callable | None = None
    directed: bool = False           # searches a directed graph's out-edges correctly

    @property
    def options(self) -> tuple[Option, ...]:
        """The keyword options the function takes, with defaults and help."""
        params = inspect.signature(self.function).parameters.values()
        return tuple(Option(p.name, p.default, self.option_help.get(p.name, ""))
                     for p in params if p.kind is p.KEYWORD_ONLY)

    def takes(self, option: str) -> bool:
        """Whether the function takes ``option``."""
        return option in self.option_help

    @property
    def deterministic(self) -> bool:
        """Whether it gives the canonical tree when asked (``deterministic=True``)."""
        return self.takes("deterministic")

    @property
    def on_devices(self) -> bool:
        """Whether it runs on a GPU (backend "gpu")."""
        return "gpu" in self.backends

    def check_options(self, options) -> None:
        """InputError naming the first option the function does not take."""
        for name in options:
            if name not in self.option_help:
                takes = ", ".join(self.option_help) or "none"
                raise InputError(f"{self.kernel.upper()} algorithm {self.name} takes no option "
                                 f"{name!r} (its options: {takes})")

    def __call__(self, graph, root, **options):
        self.check_options(options)
        if getattr(graph, "directed", False) and not self.directed:
            raise InputError(f"{self.kernel.upper()} algorithm {self.name} searches undirected "
                             f"graphs only (its levels read in-edges); graph500 info "
                             f"--algorithms says which search directed ones")
        return self.function(graph, root, **options)


class Registry(Mapping):
    """name -> Algorithm for one kernel, in the order registered (the first is the default
    unless ``default`` names another)."""

    def __init__(self, kernel: str, algorithms, default: str):
        self.kernel = kernel
        self._by_name = {a.name: a for a in algorithms}
        assert all(a.kernel == kernel for a in algorithms) and default in self._by_name
        self.default = default

    def __getitem__(self, name) -> Algorithm:
        return self._by_name[name]

    def __iter__(self):
        return iter(self._by_name)

    def __len__(self):
        return len(self._by_name)

    @contextlib.contextmanager
    def including(self, record: Algorithm):
        """The registry with ``record`` added while the block runs (a test's algorithm)."""
        assert record.kernel == self.kernel and record.name not in self._by_name
        self._by_name[record.name] = record
        try:
            yield self
        finally:
            del self._by_name[record.name]

    def directed_names(self) -> tuple[str, ...]:
        """The algorithms that search directed graphs."""
        return self.names(lambda a: a.directed)

    def get_algorithm(self, name: str) -> Algorithm:
        """The record of ``name``; InputError naming the known ones otherwise."""
        try:
            return self._by_name[name]
        except KeyError:
            raise InputError(f"unknown {self.kernel.upper()} algorithm {name!r}; known: "
                             f"{', '.join(sorted(self._by_name))}") from None

    def names(self, where: Callable[[Algorithm], bool] = lambda a: True) -> tuple[str, ...]:
        """The names of the algorithms for which ``where(record)`` holds."""
        return tuple(n for n, a in self._by_name.items() if where(a))

    def help_text(self) -> str:
        """The choices line of ``--algorithm``'s help."""
        return f"{', '.join(self._by_name)} (default {self.default}; graph500 info --algorithms)"

    def table(self) -> str:
        """Markdown: every algorithm, what it is, where it runs and its options."""
        rows = [f"| name | what it is | runs on | options |", "|---|---|---|---|"]
        for a in self._by_name.values():
            where = (", ".join(a.backends) + (", distributed" if a.distributed else "")
                     + ("; directed graphs" if a.directed else ""))
            opts = "; ".join(f"`{o.name}` (`{_shown(o.default)}`): {o.help}" for o in a.options)
            default = " (default)" if a.name == self.default else ""
            source = f" [{a.source}]" if a.source else ""
            rows.append(f"| `{a.name}`{default} | {a.summary}{source} | {where} | {opts} |")
        return "\n".join(rows)


def _shown(default) -> str:
    """A default as a reader writes it: ``numpy.float32`` for that type, else its repr."""
    return f"numpy.{default.__name__}" if isinstance(default, type) else repr(default)
