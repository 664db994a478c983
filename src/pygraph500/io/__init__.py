"""Users' files in and out: edge-list formats (one module each, ``registry`` lists them),
Graph500 edge lists, parent arrays, search tables, JSON.

Modules: ``registry`` (the formats: name, suffixes, magic bytes or sniffing rule, reader,
writer; ``detect_format``), ``graph_file`` (``GraphFile``, ``read_graph``, ``write_graph``,
``convert_graph``), one module per format (each named by its record in
``registry.REGISTRY``: ``Format.module``), ``edge_list_files`` (EdgeList to and from
g500 / text files), ``weight_files`` (kernel 3's float32 weight files and weight checks),
``result_files`` (parents, search tables, JSON), ``file_access`` (checks before reading;
streams and devices as inputs), ``outputs`` (how every file is written: temporaries renamed
into place, outputs committed together, every OSError one line), ``chunked_io`` (chunked reading
and writing), ``text_kernels`` (compiled text parser and formatter).
"""
from .. import primitives  # noqa: F401  (first: numba's package cache, before any kernel)
from .edge_list_files import (describe_generated, description_path, edge_list_format,
                              read_description, read_edges, write_edges, write_text_edges)
from .file_access import STDIN, check_readable, readable_input
from .outputs import (FAIL_WRITE, atomic_writer, check_outputs, check_writable,
                      writes_in_place, written_together)
from .graph_file import GraphFile, convert_graph, read_graph, write_graph
from .registry import FORMATS, REGISTRY, Format, detect_format, format_named
from .result_files import (SEARCH_TABLE_SUFFIXES, SearchAnswer, check_search_table_path,
                           read_answer, read_distances, write_json, write_search_table)
from .weight_files import read_weights, write_weights

__all__ = ["atomic_writer", "written_together", "check_outputs", "writes_in_place", "FAIL_WRITE",
           "check_writable", "check_readable", "readable_input", "STDIN",
           "read_edges", "edge_list_format", "describe_generated", "description_path",
           "read_description",
           "read_answer", "SearchAnswer", "read_distances",
           "write_edges", "write_json", "write_text_edges", "write_search_table",
           "check_search_table_path", "SEARCH_TABLE_SUFFIXES",
           "FORMATS", "REGISTRY", "Format", "format_named", "GraphFile", "read_graph",
           "write_graph", "convert_graph", "detect_format", "read_weights", "write_weights"]
