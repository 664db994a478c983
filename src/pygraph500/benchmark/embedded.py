"""The embedded engines: kernel 1 and the searches in this process, compiled (numba) on the CPU
or on the array backend (NumPy / CuPy: kernel 1 then runs on the device too, thesis Fig. 4.1).

``EmbeddedEngine`` runs on the Kronecker generator's graph; ``FileEngine`` on a user's graph
read with ``io.read_graph`` (``run --input``: graph_generation is the read time, roots by the
reference rule over the file's N vertices; ``graph500 bfs FILE``: one given root).

Validation against the CSR (``validation="csr"``, the CPU default) lets the generated run
hold no tuples at all: ``load`` makes them piece by piece and kernel 1 counts each piece while
it is in cache (the counting time goes to construction_time, the generator's to
graph_generation), ``build`` makes them again and places them. With ``validation="tuples"``
(and on the array backends) the whole list is made and kept, as the reference does without
REUSE_CSR_FOR_VALIDATION.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ..backend.arrays import get_backend
from ..backend.memory import estimate_run_bytes, require_memory
from ..backend.threads import set_threads
from ..bfs import get_algorithm
from ..generator import kronecker
from ..generator.tuples import KroneckerTuples
from ..graph import EdgeList, build_csr
from ..graph.build import count_tuples, place_tuples
from ..graph.build_array import build_csr_array
from ..graph.relabel import (degree_in_original_labels, search_in_original_labels,
                             sssp_in_original_labels)
from ..errors import InputError
from ..io import read_graph, read_weights
from ..validate import (count_component_edges, count_component_edges_csr, validate,
                        validate_csr, validate_sssp, validate_sssp_csr)
from .compile_ahead import TINY_ROOT, tiny_bfs_tree, tiny_edges
from .config import RunConfig, hybrid_side, search_labels
from .engine import Engine
from .roots import choose_roots

__all__ = ["EmbeddedEngine", "FileEngine"]


def graph_bytes(graph) -> int:
    """Bytes of the searched graph's arrays (on whichever device holds them)."""
    if graph is None:
        return 0
    arrays = (graph.indptr, graph.indices, graph.weights, graph.tuple_degree,
              graph.original_label, graph.new_label)
    return int(sum(a.nbytes for a in arrays if a is not None))


class EmbeddedEngine(Engine):
    """The benchmark in this process on the generated graph of ``config``; kernel 3 (SSSP)
    on the same weighted graph when the run asks for it."""

    kernels = ("bfs", "sssp")

    def __init__(self, config: RunConfig):
        config.check()
        self.config = config
        graph, search, backend = config.graph, config.search, config.execution.backend
        self.threads = set_threads(config.execution.threads)
        self.bfs = get_algorithm(search.algorithm)
        self.hybrid_notes = []
        if search.algorithm == "hybrid":  # kernel 1 on the CPU; --backend is the array side's
            self.backend = get_backend("cpu")
            array_side, self.hybrid_notes = hybrid_side(config)
        else:
            cpu_only = not self.bfs.on_devices or self.config.sort_vertices or search.weighted
            auto_cpu = backend == "auto" and cpu_only
            self.backend = array_side = get_backend("cpu" if auto_cpu else backend)
            if auto_cpu:
                self.backend.note = ("--backend auto: this algorithm (or --sort-vertices, or "
                                     "kernel 3) runs on the CPU only")
        if search.validation == "csr" and self.backend.is_gpu:
            raise InputError(f"validation csr runs on the CPU backend; backend "
                             f"{self.backend.name} validates against the tuples", "validation")
        self.validation = search.validation or ("tuples" if self.backend.is_gpu else "csr")
        if graph.input is None:
            self.num_vertices = 1 << graph.scale
            self.num_edges = graph.edgefactor << graph.scale
            require_memory(estimate_run_bytes(self.num_vertices, self.num_edges,
                                              search.weighted, self.validation, self.threads),
                           f"SCALE {graph.scale}, edgefactor {graph.edgefactor}")
        # Kernel 2's output is the parent array (the validator derives levels itself); on a
        # GPU it stays there until the clock has stopped (see ``fetch``).
        device = {"backend": array_side, "on_device": True}
        self.search_options = dict(depth=False, **search.options,
                                   **{k: v for k, v in device.items() if self.bfs.takes(k)})
        self.sssp = None
        if search.weighted:
            from ..sssp import get_algorithm as sssp_algorithm

            self.sssp = sssp_algorithm(search.sssp_algorithm)
        self.edges = self.graph = None
        self.tuples = self.counted = None  # csr validation: the tuple source and its counts

    def kernel1(self, edges):
        """The array backend builds on its device; the CPU relabels when asked."""
        if self.backend.is_gpu:
            return build_csr_array(edges, self.backend)
        return build_csr(edges, self.config.sort_vertices)

    @property
    def on_csr(self) -> bool:
        """Whether validation (and the TEPS count) reads kernel 1's CSR, not the tuples."""
        return self.validation == "csr"

    def warm_up(self) -> None:
        """Every kernel of the run's path once, on a SCALE 4 graph: from its highest-degree
        vertex, and on a device also from a lowest-degree one. On that graph the first goes
        bottom-up from its first level and the second starts top-down, so that between them
        every CuPy and numba.cuda kernel of a direction-optimizing search compiles (or loads)
        here, not inside a timed search (a CuPy kernel's first compile takes 0.1-3 s)."""
        g, search = self.config.graph, self.config.search
        tiny = KroneckerTuples(4, 1, g.seed, weights=search.weighted, piece=5)
        if self.on_csr:
            graph = place_tuples(tiny, count_tuples(tiny), g.sort_vertices)
        else:
            tiny = tiny.edge_list()
            graph = self.kernel1(tiny)
        self.graph, self.edges = graph, tiny
        deg = self.backend.to_host(graph.degree())
        roots = [int(np.argmax(deg))]
        if self.backend.is_gpu:
            roots.append(int(np.argmin(np.where(deg > 0, deg, deg.max() + 1))))
        if graph.relabelled:
            roots = [int(graph.original_label[r]) for r in roots]
        for kernel in search.kernels:
            self.use_kernel(kernel)
            for root in roots:
                warm = self.fetch(self.search(root))
                if search.validate:
                    self.validate(warm, root)
                self.count_edges(warm)
        self.use_kernel(search.kernels[0])
        self.graph = self.edges = None

    def warm_up_parts(self) -> dict[str, float]:
        """The search, the generator, and kernel 1 with the checks of a search's result:
        independent once each has its own tiny inputs (``compile_ahead``), with the CPU
        seconds each takes alone on a cold cache. None on a device backend (its kernels are
        not numba's)."""
        if self.backend.is_gpu:
            return {}
        return {"search": 18.0, "generator": 5.5, "kernel 1 and checks": 14.0}

    def warm_up_part(self, name: str) -> None:
        """One of ``warm_up_parts``, through the engine's own methods, as ``warm_up`` calls
        them, on ``compile_ahead.tiny_edges``."""
        g, search = self.config.graph, self.config.search
        tiny = tiny_edges(search.weighted)
        if name == "generator":
            if self.on_csr:  # the generator as ``load`` calls it
                for _ in KroneckerTuples(4, 1, g.seed, weights=search.weighted, piece=5).chunks():
                    pass
            else:
                kronecker(4, 1, g.seed, weights=search.weighted)
            choose_roots(np.ones(16, dtype=bool), g.seed, 1)
        elif name == "kernel 1 and checks":  # the checks of a BFS tree that scipy found
            self.graph, self.edges = self.kernel1(tiny), tiny
            if "bfs" in search.kernels:
                self.use_kernel("bfs")
                tree = SimpleNamespace(parent=tiny_bfs_tree(tiny))
                if search.validate:
                    self.validate(tree, TINY_ROOT)
                self.count_edges(tree)
                self.use_kernel(search.kernels[0])
        elif name == "search":  # on kernel 1's plain CSR made by NumPy when it is that
            plain = not (search.weighted or g.sort_vertices)
            self.graph = build_csr_array(tiny, self.backend) if plain else self.kernel1(tiny)
            self.edges = tiny
            for kernel in search.kernels:
                self.use_kernel(kernel)
                warm = self.fetch(self.search(TINY_ROOT))
                if kernel == "sssp" and search.validate:  # BFS trees: "kernel 1 and checks"
                    self.validate(warm, TINY_ROOT)
            self.use_kernel(search.kernels[0])
        else:
            raise NotImplementedError(name)
        self.graph = self.edges = None

    def load(self) -> None:
        """The tuples: all of them (tuples validation), or made piece by piece and counted
        (kernel 1's first pass) without being kept (csr validation)."""
        g, search = self.config.graph, self.config.search
        if self.on_csr:
            self.tuples = KroneckerTuples(g.scale, g.edgefactor, g.seed,
                                          weights=search.weighted)
            self.counted = count_tuples(self.tuples)
        else:
            self.edges = kronecker(g.scale, g.edgefactor, g.seed, weights=search.weighted)

    def split_load(self, seconds: float) -> tuple[float, float]:
        if self.tuples is None:
            return seconds, 0.0
        made = min(seconds, self.tuples.generation_seconds)
        return made, seconds - made

    def build(self) -> None:
        """Kernel 1, and whatever form of the graph the BFS algorithm searches instead of the
        CSR (its ``prepare``, e.g. determinate's trees of chunks): construction, timed."""
        if self.counted is not None:  # the second pass makes the tuples again
            self.graph = place_tuples(self.tuples, self.counted, self.config.sort_vertices)
            self.counted = None
        else:
            self.graph = self.kernel1(self.edges)
        if self.bfs.prepare is not None and "bfs" in self.config.search.kernels:
            self.bfs.prepare(self.graph)
        self.backend.synchronize()

    def roots(self) -> np.ndarray:
        if self.backend.is_gpu:
            degree = np.diff(self.backend.to_host(self.graph.indptr))
        else:
            degree = degree_in_original_labels(self.graph)
        return choose_roots(degree > 0, self.config.graph.seed, self.config.search.num_roots)

    def source_labels(self) -> list[str]:
        """Notes on where the graph came from (none for the generator's)."""
        return []

    def labels(self, roots: np.ndarray) -> list[str]:
        note = [self.backend.note] if self.backend.note else []
        return (note + self.hybrid_notes + self.source_labels()
                + search_labels(self.config, roots))

    def search(self, root: int):
        if self.kernel == "sssp":
            return sssp_in_original_labels(self.sssp, self.graph, root)
        return search_in_original_labels(self.bfs, self.graph, root, **self.search_options)

    def fetch(self, result):
        result.parent = self.backend.to_host(result.parent)
        return result

    def validate(self, result, root: int):
        if self.on_csr:
            if self.kernel == "sssp":
                return validate_sssp_csr(self.graph, result.parent, result.distance, root)
            return validate_csr(self.graph, result.parent, root)
        if self.kernel == "sssp":
            return validate_sssp(self.edges, result.parent, result.distance, root)
        return validate(self.edges, result.parent, root)

    def count_edges(self, result) -> int:
        if self.on_csr:
            return count_component_edges_csr(self.graph, result.parent)
        return count_component_edges(self.edges, result.parent)

    def levels(self, result) -> list[dict]:
        if self.kernel == "sssp":
            return result.phases.as_dicts()
        return result.levels.as_dicts()

    def result_fields(self) -> dict:
        return dict(num_vertices=self.num_vertices, num_edges=self.num_edges,
                    threads=self.threads, backend=self.backend.name, device=self.backend.device,
                    validation=self.validation if self.config.search.validate else None,
                    graph_bytes=graph_bytes(self.graph))


class FileEngine(EmbeddedEngine):
    """The benchmark in this process on a user's graph file (``config.graph.input``).

    ``read_options``: more of ``read_graph``'s (relabel, directed). ``root``: search only from
    this vertex (the file's id) instead of the reference's roots. ``search_options``: the
    algorithm's options instead of the benchmark's. ``check_memory``: ResourceError when the
    graph read will not fit the run's estimate.
    """

    load_phase = None  # read_graph reports the bytes read itself
    reads_input = True

    def __init__(self, config: RunConfig, progress=None, *, read_options: dict | None = None,
                 root: int | None = None, search_options: dict | None = None,
                 check_memory: bool = True):
        super().__init__(config)
        self.progress = progress
        self.read_options = read_options or {}
        self.root = root
        self.root_vertex = None
        if search_options is not None:
            self.search_options = search_options
        self.check_memory = check_memory
        self.source = self.read = None  # what ``load`` read; the edge list it searches

    def warm_up(self) -> None:
        """The run's warm-up, then the checks of deep BFS trees: a user's file may hold a path
        or a mesh, whose levels the validators keep in int16 or int32 (``bfs_tree._narrow``),
        kernels compiled apart from the tiny graph's int8 ones, and whose parent walks run
        long enough for pointer jumping (``bfs_tree.WALK_CAP``). Compiled here, untimed; else
        inside the one timed validation, printed as its time (5-6 s on a first run)."""
        super().warm_up()
        if not (self.config.search.validate and "bfs" in self.config.search.kernels):
            return
        self.use_kernel("bfs")
        for n in (200, 40_000):  # a path: depths past int8's, then past int16's range
            src = np.arange(n - 1, dtype=np.int64)
            self.edges = EdgeList(src, src + 1, n)
            self.graph = self.kernel1(self.edges)
            parent = np.arange(1, n + 1, dtype=np.int64)  # rooted at its last vertex: the
            parent[n - 1] = n - 1                        # walk from vertex 0 is n - 1 long
            self.validate(SimpleNamespace(parent=parent), n - 1)
        self.use_kernel(self.config.search.kernels[0])
        self.graph = self.edges = None

    def load(self) -> None:
        g, search = self.config.graph, self.config.search
        given = g.unit_weights or g.input_weights is not None  # weights from elsewhere
        self.source = read_graph(g.input, format=g.input_format,
                                 num_vertices=g.num_vertices, progress=self.progress,
                                 weights=search.weighted and not given, **self.read_options)
        self.edges = self.read = e = self.source.edges
        if not (search.weighted and given):
            return
        if g.input_weights is not None and self.source.weights is not None:
            raise InputError(f"{g.input} holds its own weights; input_weights are for a file "
                             "without them", "input_weights")
        w = (np.ones(e.num_edges, dtype=np.float32) if g.unit_weights
             else read_weights(g.input_weights, count=e.num_edges))
        self.edges = self.read = type(e)(e.src, e.dst, e.num_vertices, w)

    def build(self) -> None:
        self.edges = self.read  # the warm-up's tiny graphs may have come in between
        super().build()

    def fits(self) -> None:
        self.num_vertices, self.num_edges = self.edges.num_vertices, self.edges.num_edges
        if self.root is not None:
            self.root_vertex = self.source.vertex(self.root)  # InputError for an unknown id
        if self.check_memory:
            require_memory(estimate_run_bytes(self.num_vertices, self.num_edges,
                                              self.config.search.weighted),
                           f"the graph of {self.config.graph.input}")

    def roots(self) -> np.ndarray:
        if self.root_vertex is not None:
            return np.array([self.root_vertex], dtype=np.int64)
        return super().roots()

    def source_labels(self) -> list[str]:
        s = self.source
        return [f"graph read from {self.config.graph.input} ({s.format}, {self.num_vertices} "
                f"vertices, {self.num_edges} edge tuples"
                + (", directed, searched as undirected" if s.directed else "")
                + (", ids relabelled 0..N-1, roots reported in the file's ids" if s.relabelled
                   else "")
                + "): graph_generation is the read time, SCALE = ceil(log2 N), edgefactor = "
                  "M/N rounded"]

    def result_fields(self) -> dict:
        return dict(super().result_fields(), source=self.source)
