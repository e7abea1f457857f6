"""Warm search latency on a large store: dense, BM25 and hybrid (k=5), side by side, with where the time goes.

Each of the 200 queries is run in all three modes, interleaved, after warm-up queries have
loaded the encoder, the Chroma collections and the BM25 index:

- ``dense``: query embedding, Chroma nearest-chunk search (60 chunks, as hybrid uses), best
  chunk per paper, top 5 paper records from Chroma;
- ``bm25``: BM25 over papers (bm25s), top 5 paper records from Chroma;
- ``hybrid``: ``Assistant.search(query, k=5)``, the real thing (both, plus coverage and the gate).

Time is split into query embedding (``Embedder.embed``), Chroma (every call on the two
collections), BM25 (``LexicalIndex.search`` and ``.coverage``) and the rest, by wrapping those
calls with ``time.perf_counter``; nothing in ``assistant/`` is modified.

    python bench/ingest.py --sizes 20000 --baseline-sizes '' --keep-home $BENCH/home-20k
    python bench/search.py --home $BENCH/home-20k --backend onnx-int8

Queries: dev-set questions, "what is NAME?" for invented method names in the store, and
phrases cut from its abstracts (deterministic, seed 0). The store must hold a bench/generate.py
corpus made with seed 0 for the name queries to have answers.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

COMPONENTS = ("embedding", "chroma", "bm25")


class Clock:
    """Accumulates time per component; nested calls are charged to the innermost one only."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self._stack: list[list] = []

    def wrap(self, component: str, func):
        def timed(*args, **kwargs):
            frame = [component, 0.0]  # [name, time spent in nested timed calls]
            self._stack.append(frame)
            started = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - started
                self._stack.pop()
                self.spent[component] += elapsed - frame[1]
                if self._stack:
                    self._stack[-1][1] += elapsed

        return timed

    def take(self) -> dict[str, float]:
        spent, self.spent = dict(self.spent), defaultdict(float)
        return spent


class TimedCollection:
    """A Chroma collection whose calls are timed as 'chroma' (and, for --detail, per collection and method)."""

    def __init__(self, inner, clock: Clock, label: str, detail: dict | None = None) -> None:
        self._inner = inner
        self._clock = clock
        self._label = label
        self._detail = detail

    def __getattr__(self, name):
        value = getattr(self._inner, name)
        if not callable(value):
            return value
        timed = self._clock.wrap("chroma", value)
        if self._detail is None:
            return timed
        key = f"{self._label}.{name}"

        def counted(*args, **kwargs):
            started = time.perf_counter()
            try:
                return timed(*args, **kwargs)
            finally:
                self._detail[key] = self._detail.get(key, 0.0) + time.perf_counter() - started
                self._detail[key + " calls"] = self._detail.get(key + " calls", 0) + 1

        return counted


def instrument(assistant, clock: Clock, detail: dict | None = None) -> None:
    searcher = assistant.searcher  # opens the store
    store, lexical, embedder = searcher.store, searcher.lexical, searcher.embedder
    store._chunks = TimedCollection(store._chunks, clock, "chunks", detail)
    store._papers = TimedCollection(store._papers, clock, "papers", detail)
    embedder.embed = clock.wrap("embedding", embedder.embed)
    for name in ("scores", "paper_coverage", "coverage"):  # ``search`` goes through ``scores``
        setattr(lexical, name, clock.wrap("bm25", getattr(lexical, name)))


def dense_search(assistant, query: str, k: int):
    from assistant.search import CANDIDATE_CHUNKS
    from assistant.reading.query_focus import focus

    searcher = assistant.searcher
    vector = searcher.embedder.embed_query(focus(query))
    best: dict[str, float] = {}
    for _cid, score, meta in searcher.store.query_chunks(vector, CANDIDATE_CHUNKS):
        best[meta["paper_id"]] = max(score, best.get(meta["paper_id"], -1.0))
    top = sorted(best, key=best.get, reverse=True)[:k]
    return searcher.store.get_papers(top)


def bm25_search(assistant, query: str, k: int):
    from assistant.reading.query_focus import focus

    searcher = assistant.searcher
    hits = searcher.lexical.search(focus(query), k)
    return searcher.store.get_papers([pid for pid, _ in hits])


def queries(n: int, corpus_size: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """(warm-up queries, measured queries), deterministic."""
    from bench.generate import Generator

    rng = random.Random(seed)
    dev = [json.loads(line)["question"] for line in (ROOT / "tests" / "data" / "dev.jsonl").read_text().splitlines() if line.strip()]
    gen = Generator(0)
    rows = [gen.abstract(i) for i in range(corpus_size)]
    picked = rng.sample(rows, k=min(len(rows), n))
    out = list(dev)
    for i, row in enumerate(picked):
        if len(out) >= n + 20:
            break
        if i % 2 == 0:
            out.append(rng.choice(("what is {}?", "tell me about {}", "{}")).format(row["name"]))
        else:
            words = rng.choice([s for s in row["abstract"].split(". ") if len(s.split()) > 10]).split()
            start = rng.randrange(0, max(1, len(words) - 8))
            out.append(" ".join(words[start:start + rng.randint(4, 9)]).strip(",.;:"))
    rng.shuffle(out)
    return out[:20], out[20:20 + n]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[index]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True, help="ASSISTANT_HOME of the store to search")
    parser.add_argument("--backend", default="onnx-int8", help="encoder runtime the store was built with (its name must match)")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--detail", action="store_true", help="also split Chroma time by collection and call, per mode")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    from assistant import Assistant, Settings
    from assistant.embedding import Embedder

    settings = Settings.from_env(env={}, home=args.home, llm="none")
    assistant = Assistant(settings, embedder=Embedder(backend=args.backend))
    started = time.perf_counter()
    stats = assistant.stats()
    assistant.searcher.lexical.ensure_current()
    assistant.embedder.embed_query("load the encoder")
    print(f"store: {stats['papers']:,} papers in {stats['chunks']:,} chunks ({args.home}), encoder {args.backend}; "
          f"opened in {time.perf_counter() - started:.1f}s", flush=True)
    warm, measured = queries(args.queries, stats["papers"])

    clock = Clock()
    detail: dict | None = {} if args.detail else None
    instrument(assistant, clock, detail)
    modes = {"dense": lambda q: dense_search(assistant, q, args.k),
             "bm25": lambda q: bm25_search(assistant, q, args.k),
             "hybrid": lambda q: assistant.search(q, k=args.k)}
    for q in warm:
        for run in modes.values():
            run(q)
    clock.take()

    latency: dict[str, list[float]] = {m: [] for m in modes}
    parts: dict[str, dict[str, float]] = {m: defaultdict(float) for m in modes}
    calls: dict[str, dict[str, float]] = {m: defaultdict(float) for m in modes}
    for q in measured:
        for mode, run in modes.items():
            if detail is not None:
                detail.clear()
            assistant.searcher.forget_recent()  # a search timed, not a lookup of one kept
            t = time.perf_counter()
            run(q)
            latency[mode].append(time.perf_counter() - t)
            for component, seconds in clock.take().items():
                parts[mode][component] += seconds
            for key, value in (detail or {}).items():
                calls[mode][key] += value

    print(f"{len(measured)} queries, k={args.k}, warm; milliseconds")
    print(f"{'mode':<8} {'p50':>7} {'p95':>7} {'mean':>7} {'max':>7}   " + "  ".join(f"{c:>9}" for c in COMPONENTS) + "      other")
    results = {}
    for mode in modes:
        ms = [x * 1000 for x in latency[mode]]
        total = sum(latency[mode])
        shares = {c: parts[mode].get(c, 0.0) / total for c in COMPONENTS}
        shares["other"] = max(0.0, 1 - sum(shares.values()))
        results[mode] = {"p50_ms": percentile(ms, 50), "p95_ms": percentile(ms, 95), "mean_ms": statistics.mean(ms),
                         "max_ms": max(ms), "share": shares}
        r = results[mode]
        print(f"{mode:<8} {r['p50_ms']:>7.1f} {r['p95_ms']:>7.1f} {r['mean_ms']:>7.1f} {r['max_ms']:>7.1f}   "
              + "  ".join(f"{shares[c]:>9.0%}" for c in COMPONENTS) + f"  {shares['other']:>9.0%}")
    print("(shares: of each mode's total time: query embedding, Chroma calls, BM25 search + coverage, the rest)")
    if detail is not None:
        print("Chroma calls per query (mean ms, calls):")
        for mode in modes:
            keys = sorted((k for k in calls[mode] if not k.endswith(" calls")), key=lambda k: -calls[mode][k])
            print(f"  {mode:<8} " + ", ".join(f"{k} {calls[mode][k] / len(measured) * 1000:.1f} ms x{calls[mode][k + ' calls'] / len(measured):.1f}"
                                           for k in keys))
    if args.json:
        print(json.dumps({"papers": stats["papers"], "chunks": stats["chunks"], "backend": args.backend, **results}))


if __name__ == "__main__":
    main()
