"""One reproduction page per source document: each of its tables and figures with its status
here, the paper's printed numbers beside ours, their ratio and why they differ.

Every script of this folder (``NNN_<paper>.py``) builds a ``Page``, adds one ``Item`` per
table or figure of its document (in the document's order) and writes it with ``write`` into
``docs/papers/`` (``--out``), where the documentation site shows it. ``--tiny`` runs every
item at a size the tests can afford (seconds), so no script rots.

A status is one of ``STATUSES``: reproduced (machine-independent quantities within the stated
tolerance), reproduced in shape (machine-dependent quantities: the same curve rises, the same
crossover, said in words), or not reproducible here (with the reason, e.g. 1366 nodes).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import unicodedata
from dataclasses import dataclass, field

REPRODUCED = "reproduced"
SHAPE = "reproduced in shape"
NOT_HERE = "not reproducible here"
STATUSES = (REPRODUCED, SHAPE, NOT_HERE)
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "papers")


def ratio(ours, paper) -> str:
    """ours / paper as text, "-" where either is missing or the paper's is zero."""
    if ours is None or paper is None or paper == 0:
        return "-"
    return f"{ours / paper:.2f}"


def within(ours, paper, tolerance: float) -> bool:
    """Whether ours is within ``tolerance`` (a fraction) of the paper's number."""
    return paper != 0 and abs(ours - paper) <= tolerance * abs(paper)


@dataclass
class Item:
    """One table or figure of the document: what it shows, its status here, the rows that
    set the paper's numbers beside ours (``columns`` names them; the last columns are
    conventionally paper, ours, ratio, why) and the words that say its shape."""
    name: str                      # "Table 4.1", "Fig. 10"
    status: str
    summary: str                   # what the item shows, one line
    columns: tuple = ()
    rows: list = field(default_factory=list)
    words: str = ""                # the shape in words, the tolerance, or why not here

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")

    def add(self, *cells) -> None:
        if len(cells) != len(self.columns):
            raise ValueError(f"{self.name}: {len(cells)} cells for {len(self.columns)} columns")
        self.rows.append(tuple(cells))

    def markdown(self) -> str:
        out = [f"## {self.name}: {self.summary}", "", f"**Status: {self.status}.**", ""]
        if self.words:
            out += [self.words, ""]
        if self.rows:
            out.append("| " + " | ".join(self.columns) + " |")
            out.append("|" + "---|" * len(self.columns))
            out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in self.rows]
            out.append("")
        return "\n".join(out)


@dataclass
class Page:
    """A document's reproduction: its title, the command that made the page, its items."""
    paper: str                     # "000"
    title: str
    command: str
    intro: str = ""
    items: list = field(default_factory=list)

    def item(self, *args, **kwargs) -> Item:
        it = Item(*args, **kwargs)
        self.items.append(it)
        return it

    def markdown(self) -> str:
        head = [f"# Paper {self.paper}: {self.title}", "",
                f"Made by `{self.command}` on {datetime.date.today().isoformat()} "
                f"({platform.machine()}, {os.cpu_count()} cores, Python "
                f"{platform.python_version()}).", ""]
        if self.intro:
            head += [self.intro, ""]
        head += ["| table or figure | status |", "|---|---|"]
        head += [f"| [{it.name}](#{_anchor(it)}) | {it.status} |" for it in self.items]
        return "\n".join(head + [""] + [it.markdown() for it in self.items])

    def write(self, path: str) -> str:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.markdown())
        return path


def arguments(description: str, page_name: str) -> argparse.ArgumentParser:
    """The options every reproduction script takes: ``--tiny`` and ``--out``."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--tiny", action="store_true",
                   help="every item at a size the tests afford (seconds), not the paper's")
    p.add_argument("--out", default=os.path.join(DOCS, page_name),
                   help=f"the Markdown page to write (default docs/papers/{page_name})")
    return p


def _cell(value) -> str:
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1e4 else f"{value:,.0f}"
    return str(value).replace("|", "\\|")


def _anchor(item: Item) -> str:
    """The heading's id as Python-Markdown's ``toc`` makes it (its default slugify)."""
    text = unicodedata.normalize("NFKD", f"{item.name}: {item.summary}")
    text = re.sub(r"[^\w\s-]", "", text.encode("ascii", "ignore").decode()).strip().lower()
    return re.sub(r"[-\s]+", "-", text)
