"""The documentation a newcomer reads: a one-page README whose example runs, a MkDocs site
that builds with ``--strict`` (a broken link or a page missing from the nav fails), a CLI
reference made from the parsers (every option of every command on the page), an API
reference with every public name, and packaging files that agree on the version."""
import argparse
import html
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")


def _text(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_the_readme_is_one_page_with_no_links_that_break_on_a_package_index():
    text = _text(README)
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\(([^)]+)\)", text)
    assert links, "the README links the Graph500 site at least"
    assert [u for u in links if not u.startswith("https://")] == []


def test_the_readme_python_example_runs(tmp_path):
    """The README's Python block, run as a user would paste it, prints the answer table by
    name and the benchmark's harmonic mean."""
    (block,) = re.findall(r"```python\n(.*?)```", _text(README), re.S)
    done = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert re.search(r"vertex\s+distance\s+predecessor", done.stdout), done.stdout
    assert "Valjean" in done.stdout
    assert float(done.stdout.split()[-1]) > 0


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d",
                           str(out)], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return out


def _page_text(site, page: str) -> str:
    raw = _text(os.path.join(site, page, "index.html"))
    return html.unescape(re.sub(r"<[^>]+>", "", raw))


def _commands(parser, prog="graph500"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prog} {name}", sub
                yield from _commands(sub, f"{prog} {name}")


def test_the_cli_reference_has_every_option_of_every_command(site):
    from pygraph500.cli import build_parser

    page = _page_text(site, "cli")
    sections = re.split(r"\n(?=graph500 \w+¶)", page)
    by_command = {s.split("¶")[0].strip(): s for s in sections if s.startswith("graph500 ")}
    commands = dict(_commands(build_parser()))
    assert set(commands) <= set(by_command), sorted(set(commands) - set(by_command))
    for prog, parser in commands.items():
        for action in parser._actions:
            if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
                continue
            for option in action.option_strings or [action.metavar or action.dest]:
                assert option in by_command[prog], (prog, option)


def test_the_api_reference_renders_every_public_name(site):
    import pygraph500

    page = _page_text(site, "api-reference")
    missing = [n for n in pygraph500.__all__ if not re.search(rf"\b{re.escape(n)}\b", page)]
    assert missing == []


def test_the_formats_page_shows_the_registrys_table(site):
    """docs/graphs.md's table is made from pygraph500.io's registry when the site builds."""
    from pygraph500.io import REGISTRY

    page = _page_text(site, "graphs")
    for f in REGISTRY.values():
        row = re.search(rf"\n{re.escape(f.name)}\n.*", page)
        assert row, f.name
        assert all(s in page for s in f.suffixes), f.name


def test_the_algorithms_page_shows_every_registered_algorithm(site):
    from pygraph500.bfs import ALGORITHMS
    from pygraph500.sssp import ALGORITHMS as SSSP_ALGORITHMS

    page = _page_text(site, "algorithms")
    table = page[page.index("Every algorithm, with its options"):]
    for registry in (ALGORITHMS, SSSP_ALGORITHMS):
        for name in registry.names():
            assert re.search(rf"\n{re.escape(name)}( \(default\))?\n", table), name


def test_license_citation_and_changelog_agree_with_the_package():
    import yaml

    import pygraph500

    citation = yaml.safe_load(_text(os.path.join(ROOT, "CITATION.cff")))
    assert citation["version"] == pygraph500.__version__
    assert citation["license"] == "MIT"
    assert "MIT License" in _text(os.path.join(ROOT, "LICENSE"))
    assert f"## {pygraph500.__version__}" in _text(os.path.join(ROOT, "CHANGELOG.md"))
    assert f'version = "{pygraph500.__version__}"' in _text(os.path.join(ROOT, "pyproject.toml"))
