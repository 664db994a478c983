"""Readers and writers: users' graphs (formats), edge lists, parent arrays, JSON; all writes atomic."""
from .files import (atomic_writer, check_writable, read_edges, read_parents, write_edges,
                    write_json, write_search_table, write_text_edges)
from .formats import FORMATS, GraphFile, convert_graph, detect_format, read_graph, write_graph

__all__ = ["atomic_writer", "check_writable", "read_edges", "read_parents", "write_edges",
           "write_json", "write_text_edges", "write_search_table",
           "FORMATS", "GraphFile", "read_graph", "write_graph", "convert_graph", "detect_format"]
