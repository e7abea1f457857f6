"""The BM25 index at conference scale: a full build, an incremental add, a removal and queries,
against bm25s, which must rebuild from scratch on every change (docs/retrieval.md), side by side.

The store is an in-memory stand-in with the same read methods as ``assistant.store.Store``, so
the figures are the index's own work, not Chroma's; no embedding model is loaded.

    python bench/lexical.py --n 20000 --add 200
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant.lexical import LexicalIndex  # noqa: E402
from bench.generate import Generator, names  # noqa: E402


class MemoryStore:
    """The reads LexicalIndex makes of a Store, over a dict of papers."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[dict, str]] = {}
        self.papers = self
        self.metadata = {"revision": "0"}

    def put(self, abstracts: list[dict]) -> None:
        for row in abstracts:
            pid = hashlib.sha1(row["abstract"].encode()).hexdigest()[:16]
            self.rows[pid] = ({"title": row.get("title", "")}, row["abstract"])
        self.bump()

    def remove(self, ids: list[str]) -> None:
        for pid in ids:
            self.rows.pop(pid, None)
        self.bump()

    def revision(self) -> str:
        return self.metadata["revision"]

    def bump(self) -> None:
        self.metadata = {"revision": hashlib.sha1(str(time.perf_counter()).encode()).hexdigest()[:16]}

    def iter_papers(self, include_text: bool = False, where=None):
        for pid, (meta, text) in self.rows.items():
            yield pid, meta, text if include_text else None

    def get_papers(self, ids: list[str]) -> dict:
        return {pid: self.rows[pid] for pid in ids if pid in self.rows}


def bm25s_rebuild(index: LexicalIndex, store: MemoryStore, folder: Path) -> None:
    """The previous design: re-tokenize every paper, build with bm25s, save."""
    import bm25s

    texts = [f"{m['title']}. {m['title']}. {t}" for m, t in store.rows.values()]
    model = bm25s.BM25()
    model.index(index.tokenize(texts), show_progress=False)
    shutil.rmtree(folder, ignore_errors=True)
    model.save(str(folder), show_progress=False)


def clock(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20000, help="papers in the store")
    parser.add_argument("--add", type=int, default=200, help="papers added (and then removed) incrementally")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args(argv)

    gen = Generator(seed=0)
    rows = [gen.abstract(i) for i in range(args.n + args.add)]
    store = MemoryStore()
    store.put(rows[:args.n])
    work = Path(tempfile.mkdtemp(prefix="bench-lexical-"))
    index = LexicalIndex(store, work / "ours")
    figures = {}
    figures["full build: ours"] = clock(index.ensure_current)
    figures["full build: bm25s"] = clock(lambda: bm25s_rebuild(index, store, work / "bm25s"))

    store.put(rows[args.n:])
    figures[f"add {args.add}: ours (one new segment)"] = clock(index.ensure_current)
    figures[f"add {args.add}: bm25s rebuild"] = clock(lambda: bm25s_rebuild(index, store, work / "bm25s"))
    added = list(store.rows)[-args.add:]
    store.remove(added)
    figures[f"remove {args.add}: ours (rows marked deleted)"] = clock(index.ensure_current)
    figures[f"remove {args.add}: bm25s rebuild"] = clock(lambda: bm25s_rebuild(index, store, work / "bm25s"))

    reopened = LexicalIndex(store, work / "ours")
    figures["load from disk: ours"] = clock(reopened.ensure_current)

    queries = [f"what is {name}" for name in names(args.queries // 2)]
    queries += [text.split(". ")[1][:80] if ". " in text else text[:80] for _, text in
                list(store.rows.values())[:args.queries - len(queries)]]
    for q in queries[:20]:
        reopened.search(q, 20)
    times = sorted(clock(lambda q=q: reopened.search(q, 20)) * 1000 for q in queries)
    shutil.rmtree(work, ignore_errors=True)

    print(f"BM25 index, {args.n:,} papers (synthetic, bench/generate.py), in-memory store stand-in")
    for label, seconds in figures.items():
        print(f"  {label:<45} {seconds:8.2f} s")
    print(f"  query (top 20), {len(times)} queries: p50 {statistics.median(times):.1f} ms, "
          f"p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms")


if __name__ == "__main__":
    main()
