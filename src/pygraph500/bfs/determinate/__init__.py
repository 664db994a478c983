"""The determinate BFS of paper 003 (Fresh Breeze): trees of chunks (``chunk_trees``), a
spawn/join task runtime on threads (``runtime``), the paper's tasks (``tasks``) and the
search (``search``: ``bfs_determinate``, registered as ``determinate``)."""
from .search import bfs_determinate, chunk_graph

__all__ = ["bfs_determinate", "chunk_graph"]
