"""CSV edge lists (also compressed): ``source,target[,weight]`` a line, comma- or
tab-separated, with an optional header line naming the columns.

What a file is, told from its first lines (``csv_layout``):

- the separator: a comma when the first data line has one, else a tab (blank-separated files
  are SNAP's format, ``--format snap``);
- the header: the first line that is not a ``#``/``%`` comment, when one of its fields is
  a name: one that begins with neither a digit, a sign nor a point and is not ``nan`` or
  ``inf`` (so a first data line with a bad id or weight is an error, never taken for a
  header); a UTF-8 byte order mark before it is passed over;
- the columns: a header naming any of ``source``/``src``/``from``/``u``,
  ``target``/``destination``/``dst``/``to``/``v``, ``weight``/``w`` (any case, any order)
  gives them by name, and its columns with other names are ignored (Gephi's
  ``Source,Target,Type,Id,Weight`` reads as it is): they are named, so no value can be taken for another. Otherwise (no
  header, or one naming none of them) the columns are ``source, target[, weight]`` and a
  line has 2 or 3: a fourth, unnamed column is refused, it could be anything.

Every data line has as many fields as the first (or the header); fields are not quoted;
blanks around a field are dropped. Ids and weights are read as in SNAP files (non-negative
integers, relabelled when sparse; weights float64, or kernel 3's checked float32) by the
same chunked reader and compiled parser (``snap_text.read_snap`` with a ``TextLayout``).
"""
from __future__ import annotations

from ..errors import InputError, excerpt
from .snap_text import HEAD_BYTES, TextLayout, read_head, read_snap, write_snap
from .text_kernels import IGNORED, SOURCE, TARGET, WEIGHT
from .weight_files import NO_WEIGHTS_HINT

__all__ = ["read_csv", "write_csv", "csv_layout", "COLUMN_NAMES"]

# The header names of the columns read, by what they hold (lower case).
# The API reads a DataFrame's columns by them too.
COLUMN_NAMES = {SOURCE: ("source", "src", "from", "u"),
                TARGET: ("target", "destination", "dst", "to", "v"), WEIGHT: ("weight", "w")}
_ROLE_OF = {name.encode(): role for role, names in COLUMN_NAMES.items() for name in names}
_ROLE_NAME = {SOURCE: "source", TARGET: "target", WEIGHT: "weight", IGNORED: "ignored"}
_BOM = b"\xef\xbb\xbf"
_SEPARATORS = {44: "comma", 9: "tab"}
_BLANKS = b" \t\r\x0b\x0c"   # what the parser passes over around a field (but the separator)


def _data_lines(head: bytes, skip: int):
    """(line number, byte offset after the line, the line) of the first two lines of
    ``head[skip:]`` that are neither blank nor comments; a line cut by HEAD_BYTES is left out."""
    found = []
    offset = skip
    lines = head[skip:].split(b"\n")
    if len(head) >= HEAD_BYTES:
        lines = lines[:-1]
    for number, raw in enumerate(lines, 1):
        offset += len(raw) + 1
        text = raw.strip()
        if text and text[:1] not in (b"#", b"%"):
            found.append((number, offset, raw))
            if len(found) == 2:
                break
    return found


def _separator(text: bytes) -> int | None:
    """The separator byte of a line: a comma when it has one, else a tab; None otherwise."""
    return next((sep for sep in _SEPARATORS if bytes([sep]) in text), None)


def _fields(line: bytes, sep: int | None) -> list[bytes]:
    """The fields of a line as the parser splits it (a tab separator ends a field, even
    the last), blanks and quotes around each dropped."""
    if sep is None:
        return [line.strip()]
    line = line.strip(_BLANKS.replace(bytes([sep]), b""))
    return [f.strip().strip(b"\"'").strip() for f in line.split(bytes([sep]))]


def _is_name(field: bytes) -> bool:
    """Begins with neither a digit, a sign nor a point, and is not a number (nan, inf)."""
    if not field or field[:1] in b"0123456789+-.":
        return False
    try:
        float(field)
    except ValueError:
        return True
    return False


def _header_roles(path, number, names) -> tuple[int, ...]:
    """The roles of the header's columns; InputError when it names no source or target
    column, or one role twice."""
    roles = tuple(_ROLE_OF.get(n, IGNORED) for n in names)
    where = f"{path}:{number}"
    for role, accepted in COLUMN_NAMES.items():
        count = roles.count(role)
        if count > 1:
            raise InputError(f"{where}: the header names {count} {_ROLE_NAME[role]} columns: "
                             f"{excerpt(b','.join(names), 80)}")
        if count == 0 and role != WEIGHT:
            raise InputError(f"{where}: the header names no {_ROLE_NAME[role]} column "
                             f"({'/'.join(accepted)}): {excerpt(b','.join(names), 80)}")
    return roles


def csv_layout(path: str, head: bytes, weights: bool = False) -> TextLayout:
    """The layout of a CSV file from its first HEAD_BYTES (see the module docstring);
    InputError naming the line when no layout fits."""
    skip = len(_BOM) if head.startswith(_BOM) else 0
    found = _data_lines(head, skip)
    if not found:
        raise InputError(f"{path}: no edges" if len(head) < HEAD_BYTES
                         else f"{path}: no data line in the first {HEAD_BYTES} bytes")
    first = found[0]
    header = first if any(_is_name(f) for f in _fields(first[2], _separator(first[2]))) else None
    if header and len(found) < 2:
        raise InputError(f"{path}: no edges after the header (line {header[0]})")
    number, _, text = found[1] if header else first
    sep = _separator(text) or (_separator(header[2]) if header else None)
    if sep is None:
        raise InputError(f"{path}:{number}: no comma or tab between the columns "
                         f"({excerpt(text.strip(), 60)}); blank-separated files are --format snap")
    kind = f"{_SEPARATORS[sep]}-separated"
    if header:
        names = [f.lower() for f in _fields(header[2], sep)]
        named = any(n in _ROLE_OF for n in names)
        roles = (_header_roles(path, header[0], names) if named
                 else (SOURCE, TARGET, WEIGHT)[:len(names)])
        width = len(names)
        if not named and width not in (2, 3):
            raise InputError(f"{path}:{header[0]}: the header has {width} columns and names "
                             f"none of source, target, weight: expected 2 or 3 (source, target"
                             f"[, weight]), or a header naming them")
        shown = ", ".join(_ROLE_NAME[r] for r in roles)
        expected = (f"{width} {kind} columns ({shown}) as the header on line {header[0]} "
                    + ("names them" if named else "has them"))
        skip, skip_lines = header[1], header[0]
    else:
        width = len(_fields(text, sep))
        if width not in (2, 3):
            raise InputError(f"{path}:{number}: {width} columns; expected 2 or 3 (source, "
                             f"target[, weight]), or a header line naming the columns to read")
        roles = (SOURCE, TARGET, WEIGHT)[:width]
        expected = f"{width} {kind} columns (source, target{', weight' if width == 3 else ''})"
        skip_lines = 0
    if weights and WEIGHT not in roles:
        raise InputError(f"{path}:{number}: no weight column (a third one, or one named "
                         f"weight or w); {NO_WEIGHTS_HINT}")
    return TextLayout(sep=sep, roles=roles, width=width, skip=skip, skip_lines=skip_lines,
                      expected=expected)


def read_csv(path, size, limit, report, weights=False):
    """(src, dst, weights, directed, n_hint, labels) of a CSV edge list, read in chunks by
    the SNAP reader once the first lines have told the layout. Undirected: CSV says nothing."""
    return read_snap(path, size, limit, report, weights,
                     layout=csv_layout(path, read_head(path), weights))


def write_csv(graph, path, report) -> None:
    """Write a GraphFile as ``source,target[,weight]`` lines under that header (atomically,
    in the user's ids): what spreadsheets, pandas and Gephi read."""
    header = "source,target" + (",weight" if graph.weights is not None else "") + "\n"
    write_snap(graph, path, report, header=header, separator=",")
