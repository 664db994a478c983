"""What a search of a user's DataFrame costs through the Python API, built once or on every
call: the Graph500 Kronecker edges at ``--scale`` with sparse ids (each id times 1000 plus
7, so ``from_pandas`` compacts them), then

- ``from_pandas`` once (the ids compacted), the first ``pygraph500.bfs`` of that GraphFile
  (kernel 1 runs, and its graph is kept) and the median of ``--repeats`` later ones (the
  search alone);
- ``pygraph500.bfs(df, root)`` on the DataFrame itself, the median of ``--repeats`` calls
  (compaction and kernel 1 on every call).

Each call as the user times it (``perf_counter`` around it), after one untimed call that
loads the kernels. ``--parts``: also the compaction's parts on the source ids: numpy's
``np.unique`` against ``np.sort`` (what ``graph.relabel.distinct_ids`` does, with a mask),
``distinct_ids`` of both columns, and ``lookup_labels`` of one column.

    python benchmarks/bench_graph_reuse.py [--scale 16] [--repeats 5] [--threads 2] [--parts]
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--parts", action="store_true")
    args = ap.parse_args()
    import pandas as pd

    import pygraph500 as pg
    from pygraph500.generator import kronecker

    e = kronecker(args.scale, 16)
    df = pd.DataFrame({"from_id": e.src * 1000 + 7, "to_id": e.dst * 1000 + 7})
    root = int(df["from_id"].iloc[0])
    pg.bfs(df, root, threads=args.threads)  # loads the kernels
    box = {}
    made = timed(lambda: box.setdefault("g", pg.from_pandas(df, "from_id", "to_id")))
    g = box["g"]
    first = timed(lambda: pg.bfs(g, root, threads=args.threads))
    later = [timed(lambda: pg.bfs(g, root, threads=args.threads)) for _ in range(args.repeats)]
    each = [timed(lambda: pg.bfs(df, root, threads=args.threads)) for _ in range(args.repeats)]
    print(f"SCALE {args.scale}: {len(df):,} edges, {g.num_vertices:,} vertices after "
          f"compaction ({g.relabelled}); ms: from_pandas {made * 1e3:.1f}, first bfs of it "
          f"{first * 1e3:.1f}, later ones {np.median(later) * 1e3:.2f} (median of "
          f"{args.repeats}); bfs of the DataFrame itself {np.median(each) * 1e3:.1f} a call")
    if args.parts:
        from pygraph500.graph.relabel import distinct_ids, lookup_labels

        src, dst = df["from_id"].to_numpy(), df["to_id"].to_numpy()
        hi = int(max(src.max(), dst.max())) + 1
        box["labels"] = distinct_ids(src, dst, hi)
        ids = src.copy()
        print(f"  parts, s: np.unique of one column {timed(lambda: np.unique(src)):.2f}, "
              f"np.sort of it {timed(lambda: np.sort(src)):.2f}; distinct_ids of both "
              f"{timed(lambda: distinct_ids(src, dst, hi)):.2f}; lookup_labels of one "
              f"{timed(lambda: lookup_labels(box['labels'], ids, ids)):.2f}")


if __name__ == "__main__":
    main()
