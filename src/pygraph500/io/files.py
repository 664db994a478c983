"""TRANSITIONAL: the old import path ``pygraph500.io.files``; delete once no module
imports it (use ``pygraph500.io``)."""
from .edge_list_files import read_edges, write_edges, write_text_edges  # noqa: F401
from .file_access import atomic_writer, check_writable  # noqa: F401
from .result_files import (check_search_table_path, read_parents, write_json,  # noqa: F401
                           write_search_table)
