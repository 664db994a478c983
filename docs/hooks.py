"""MkDocs hooks: the pages made from elsewhere, so nothing is copied by hand.

- ``cli.md``: every command's options, from the argparse parsers themselves;
- ``api-reference.md``: every public name of ``pygraph500``, from its docstring;
- ``design.md``: ARCHITECTURE.md; ``results-log.md``: benchmarks/RESULTS.md (the dated log);
- the formats table of ``graphs.md`` (at ``FORMATS_MARK``), from ``pygraph500.io``'s registry;
- the algorithms tables of ``algorithms.md`` (at ``ALGORITHMS_MARK``), from the BFS and SSSP
  registries, as ``graph500 info --algorithms`` prints them.
"""
from __future__ import annotations

import argparse
import os

from mkdocs.structure.files import File

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDED = {"design.md": "ARCHITECTURE.md", "results-log.md": "benchmarks/RESULTS.md"}
FORMATS_MARK = "<!-- formats table -->"
ALGORITHMS_MARK = "<!-- algorithms table -->"


def on_files(files, config):
    files.append(File.generated(config, "cli.md", content=cli_reference()))
    files.append(File.generated(config, "api-reference.md", content=api_reference()))
    for page, source in INCLUDED.items():
        with open(os.path.join(ROOT, source), encoding="utf-8") as f:
            files.append(File.generated(config, page, content=_site_links(f.read())))
    return files


def on_page_markdown(markdown, page, config, files):
    if FORMATS_MARK in markdown:
        from pygraph500.io.registry import formats_table

        markdown = markdown.replace(FORMATS_MARK, formats_table())
    if ALGORITHMS_MARK in markdown:
        from pygraph500.bfs import ALGORITHMS
        from pygraph500.sssp import ALGORITHMS as SSSP_ALGORITHMS

        tables = (f"### BFS (kernel 2)\n\n{ALGORITHMS.table()}\n\n"
                  f"### SSSP (kernel 3)\n\n{SSSP_ALGORITHMS.table()}")
        markdown = markdown.replace(ALGORITHMS_MARK, tables)
    return markdown


def _site_links(text: str) -> str:
    """Links into the repository's files are not pages: they are shown as code."""
    import re

    return re.sub(r"\[([^\]]*)\]\((?!https?://|#)[^)]*\)", r"`\1`", text)


def subcommands(parser: argparse.ArgumentParser, prog: str = "graph500"):
    """(full command, parser) for the parser and each subcommand under it, depth first."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from subcommands(sub, f"{prog} {name}")


def cli_reference() -> str:
    from pygraph500.cli import build_parser

    out = ["# Command line reference", "",
           "Made from the `graph500` command's own parsers when the site is built: this is "
           "what `graph500 COMMAND --help` prints, one section per command. Exit status: 0 "
           "success, 1 an invalid BFS tree or SSSP result, 2 bad input or a run that will "
           "not fit (one line on stderr, nothing half-written), 128 + the signal when "
           "interrupted.", ""]
    for prog, parser in subcommands(build_parser()):
        if prog == "graph500":
            continue
        out += [f"## `{prog}`", "", _escape(parser.description or ""), "",
                "```text", parser.format_usage().strip(), "```", ""]
        for group in parser._action_groups:
            rows = [_row(prog, a) for a in group._group_actions
                    if a.help is not argparse.SUPPRESS
                    and not isinstance(a, argparse._HelpAction)]
            if not rows:
                continue
            out += [f"**{_escape(group.title)}**", "", "| argument | meaning |", "|---|---|",
                    *rows, ""]
    return "\n".join(out)


def _row(prog: str, action: argparse.Action) -> str:
    names = ", ".join(action.option_strings) or action.metavar or action.dest
    if action.option_strings and action.nargs != 0:
        metavar = action.metavar or (
            "{" + ",".join(map(str, action.choices)) + "}" if action.choices
            else action.dest.upper())
        names += f" {metavar}"
    text = action.help or ""
    if "%" in text:
        text = text % dict(vars(action), prog=prog)
    if action.choices and action.option_strings and action.metavar:
        text += f" One of: {', '.join(map(str, action.choices))}."
    return f"| `{names}` | {_escape(text)} |"


def _escape(text: str) -> str:
    return " ".join(text.replace("|", "\\|").replace("<", "&lt;").split())


# the public names by where they are defined, in the order the reference shows them
API_SECTIONS = {"api": "Searches on your graph", "io": "Graph files", "graph": "Graphs",
                "generator": "Generators", "bfs": "BFS algorithms (kernel 2)",
                "sssp": "SSSP (kernel 3)", "validate": "Validation",
                "benchmark": "The benchmark", "errors": "Errors"}


def api_reference() -> str:
    """One section per home module of ``pygraph500.__all__`` (its ``_HOMES``, the one list
    of public names), each name rendered by mkdocstrings."""
    import pygraph500

    homes = pygraph500._HOMES
    missing = set(homes.values()) - set(API_SECTIONS)
    if missing:
        raise ValueError(f"docs/hooks.py: no API_SECTIONS entry for {sorted(missing)}")
    out = ["# API reference", "",
           "Every public name of `pygraph500`, rendered from its docstring. The conventions "
           "(what a call takes and returns, beside scipy, networkx and cuGraph) are on the "
           "[Python API](python-api.md) page.", ""]
    for home, title in API_SECTIONS.items():
        out += [f"## {title}", ""]
        out += [f"::: {_defined_at(home, name)}\n" for name in homes if homes[name] == home]
    return "\n".join(out)


def _defined_at(home: str, name: str) -> str:
    """The dotted path where ``name`` is defined (``pygraph500.generator.kronecker`` is also
    a module's name: the function lives in ``...generator.kronecker.kronecker``)."""
    import importlib

    obj = getattr(importlib.import_module(f"pygraph500.{home}"), name)
    if isinstance(obj, type) or callable(obj) and hasattr(obj, "__qualname__"):
        return f"{obj.__module__}.{obj.__qualname__}"
    return f"pygraph500.{home}.{name}"
