"""TRANSITIONAL: the old import path ``pygraph500.io.formats``; delete once no module
imports it (use ``pygraph500.io``)."""
from .graph_file import GraphFile, convert_graph, read_graph, write_graph  # noqa: F401
from .registry import FORMATS, detect_format  # noqa: F401
