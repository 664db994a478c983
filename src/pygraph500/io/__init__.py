"""Readers and writers: edge lists (binary and text), parent arrays, JSON; all writes atomic."""
from .files import (atomic_writer, check_writable, read_edges, read_parents, write_edges,
                    write_json, write_text_edges)

__all__ = ["atomic_writer", "check_writable", "read_edges", "read_parents", "write_edges",
           "write_json", "write_text_edges"]
