"""Retrieval on the real corpus, side by side: BM25, dense-only, reciprocal-rank fusion, the ranking core, and
the assistant itself.

    python bench/retrieval.py --home STORE                  # the store holds the papers of --every
    python bench/retrieval.py --home STORE --every 10 --n 200 --json

STORE is a store made by `assistant ingest` of the same slice of ``../shared/corpus/iclr2026.jsonl.gz`` (every
``--every``-th line; ``--make`` ingests it first). Question sets come from the data (``bench/corpus_sets.py``):
tldrs and coined names as known-item questions (R@1, R@10, MRR@10), and "papers on <keyword>" as list
questions (precision and recall of the answer against the papers carrying the keyword). Only the ``report``
half of each set is scored unless ``--half all``; the ranking core's weights were fitted on the other half.

The systems:
- ``bm25``: bm25s over the title twice plus the abstract, English stop words, PyStemmer's English stemmer;
- ``dense``: cosine to each paper's mean chunk vector (the store's own chunk vectors);
- ``rrf``: reciprocal-rank fusion (k=60) of those two;
- ``core``: ``assistant.retrieval.ranking.PaperRanker`` (fitted weights), without the keyword field on the
  keyword questions (their gold is the keyword field);
- ``assistant``: ``Assistant.find(question, k=10)`` for known items, every page of ``Assistant.find(question)``
  for lists (the relevance decision gives the cut), ``--llm none``.
Lists from BM25, dense and RRF are cut at fixed depths (50 and 200), as no score of theirs says where to stop.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.corpus_sets import CORPUS, keyword_set, name_set, read_corpus, tldr_set  # noqa: E402

SYSTEMS = ("bm25", "dense", "rrf", "core", "assistant")
LIST_CUTS = (50, 200)


class Bench:
    """The baselines and the systems under test, over one store and the corpus slice it holds."""

    def __init__(self, home: Path, papers: list[dict]) -> None:
        from assistant import Assistant, Settings
        from assistant.retrieval.ranking import PaperRanker

        self.assistant = Assistant(Settings.from_env(env={}, home=home, llm="none"))
        searcher = self.assistant.searcher
        self.store, self.embedder = searcher.store, self.assistant.embedder
        self.vectors = searcher.vectors
        self.vectors.ensure_current()
        self.by_ext = {str(meta.get("ext_id")): pid for pid, meta, _ in self.store.iter_papers()}
        self.to_ext = {pid: ext for ext, pid in self.by_ext.items()}
        missing = [p["id"] for p in papers if p["id"] not in self.by_ext]
        if missing:
            sys.exit(f"bench/retrieval.py: {len(missing)} papers of the slice are not in {home} "
                     f"(first: {missing[0]}); ingest the same --every slice, or pass --make")
        self.core = searcher.ranker
        self.core_no_keywords = PaperRanker(self.store, searcher.lexical, self.vectors, None,
                                            weights={**self.core.weights, "keywords": 0.0})
        self._bm25(papers)

    def _bm25(self, papers: list[dict]) -> None:
        import bm25s
        import Stemmer

        self.stem = Stemmer.Stemmer("english")
        self.bm25_ids = [p["id"] for p in papers]
        corpus = [f"{p['title']} {p['title']} {p['abstract']}" for p in papers]
        self.bm25 = bm25s.BM25()
        self.bm25.index(bm25s.tokenize(corpus, stopwords="en", stemmer=self.stem, show_progress=False),
                        show_progress=False)

    # -- each system's ranking, as OpenReview ids ------------------------------------
    def rank_bm25(self, query: str, n: int) -> list[str]:
        import bm25s

        tokens = bm25s.tokenize([query], stopwords="en", stemmer=self.stem, show_progress=False)
        if not tokens.vocab:
            return []
        docs, scores = self.bm25.retrieve(tokens, k=min(n, len(self.bm25_ids)), show_progress=False)
        return [self.bm25_ids[d] for d, s in zip(docs[0], scores[0]) if s > 0]

    def rank_dense(self, vector: np.ndarray, n: int) -> list[str]:
        sims = self.vectors.similarities(vector)
        best = np.argsort(-sims)[:n]
        return [self.to_ext[self.vectors.ids[i]] for i in best]

    def rank_rrf(self, query: str, vector: np.ndarray, n: int, depth: int = 1000) -> list[str]:
        fused: dict[str, float] = {}
        for ranking in (self.rank_bm25(query, depth), self.rank_dense(vector, depth)):
            for rank, pid in enumerate(ranking, 1):
                fused[pid] = fused.get(pid, 0.0) + 1.0 / (60 + rank)
        return sorted(fused, key=fused.get, reverse=True)[:n]

    def rank_core(self, query: str, vector: np.ndarray, n: int, keywords: bool = True) -> list[str]:
        ranker = self.core if keywords else self.core_no_keywords
        return [self.to_ext[r.id] for r in ranker.rank(query, vector, n=n)]

    def ask_assistant(self, query: str, k: int | None, keywords: bool = True) -> list[str]:
        """The assistant's answer; without ``keywords`` its ranking core does not read the keyword field (the gold
        of the keyword questions)."""
        self.assistant.searcher.forget_recent()
        weights = self.assistant.ranker.weights
        held, weights["keywords"] = weights.get("keywords", 0.0), weights.get("keywords", 0.0) if keywords else 0.0
        try:
            found = self.assistant.find(query, k=k, page_size=None if k is None else 20)
        finally:
            weights["keywords"] = held
        return [self.to_ext.get(h.id, h.id) for h in found.hits]


def known_item(bench: Bench, questions: list[dict], systems: list[str]) -> dict[str, dict]:
    ranks: dict[str, list[int | None]] = {s: [] for s in systems}
    seconds: dict[str, list[float]] = {s: [] for s in systems}
    for q in questions:
        vector = bench.embedder.embed_query(q["query"])
        gold = q["gold"][0]
        for system in systems:
            start = time.perf_counter()
            ranking = {"bm25": lambda: bench.rank_bm25(q["query"], 10), "dense": lambda: bench.rank_dense(vector, 10),
                       "rrf": lambda: bench.rank_rrf(q["query"], vector, 10),
                       "core": lambda: bench.rank_core(q["query"], vector, 10),
                       "assistant": lambda: bench.ask_assistant(q["query"], 10)}[system]()
            seconds[system].append(time.perf_counter() - start)
            ranks[system].append(ranking.index(gold) + 1 if gold in ranking[:10] else None)
    out = {}
    for system, found in ranks.items():
        out[system] = {"R@1": sum(r == 1 for r in found) / len(found),
                       "R@10": sum(r is not None for r in found) / len(found),
                       "MRR@10": sum(1 / r for r in found if r) / len(found),
                       "p50_s": statistics.median(seconds[system]),
                       "p95_s": float(np.percentile(seconds[system], 95))}
    return out


def lists(bench: Bench, questions: list[dict], systems: list[str]) -> dict[str, dict]:
    rows: dict[str, list[tuple[float, float]]] = {}
    for q in questions:
        gold = set(q["gold"])
        vector = bench.embedder.embed_query(q["query"])
        answers: dict[str, list[str]] = {}
        for system in systems:
            if system == "assistant":
                answers["assistant"] = bench.ask_assistant(q["query"], None, keywords=False)
                continue
            for cut in LIST_CUTS:
                answers[f"{system}@{cut}"] = {
                    "bm25": lambda: bench.rank_bm25(q["query"], cut), "dense": lambda: bench.rank_dense(vector, cut),
                    "rrf": lambda: bench.rank_rrf(q["query"], vector, cut),
                    "core": lambda: bench.rank_core(q["query"], vector, cut, keywords=False)}[system]()
        for name, answer in answers.items():
            hit = len(gold & set(answer))
            rows.setdefault(name, []).append((hit / len(answer) if answer else 0.0, hit / len(gold)))
    return {name: {"P": statistics.mean(p for p, _ in r), "R": statistics.mean(x for _, x in r)}
            for name, r in rows.items()}


def make_store(home: Path, every: int) -> None:
    from assistant import Assistant, Settings

    with tempfile.TemporaryDirectory(prefix="bench-slice-") as tmp:
        path = Path(tmp) / f"iclr2026-every{every}.jsonl.gz"
        with gzip.open(CORPUS, "rt", encoding="utf-8") as src, gzip.open(path, "wt", encoding="utf-8") as out:
            for number, line in enumerate(src):
                if number % every == 0:
                    out.write(line)
        Assistant(Settings.from_env(env={}, home=home, llm="none")).ingest([path])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--every", type=int, default=1, help="the store holds every N-th paper of the corpus")
    parser.add_argument("--n", type=int, default=200, help="questions per set (before the half is taken)")
    parser.add_argument("--half", default="report", choices=["fit", "report", "all"])
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--sets", default="tldr,name,keyword")
    parser.add_argument("--make", action="store_true", help="ingest the slice into --home first")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.make:
        make_store(args.home, args.every)
    papers = read_corpus(CORPUS, every=args.every)
    bench = Bench(args.home, papers)
    systems = args.systems.split(",")
    keep = (lambda qs: qs) if args.half == "all" else (lambda qs: [q for q in qs if q["half"] == args.half])
    report: dict = {"papers": len(papers), "half": args.half}
    sets = args.sets.split(",")
    if "tldr" in sets:
        report["tldr"] = known_item(bench, keep(tldr_set(papers, args.n)), systems)
    if "name" in sets:
        report["name"] = known_item(bench, keep(name_set(papers, args.n)), systems)
    if "keyword" in sets:
        report["keyword"] = lists(bench, keep(keyword_set(papers, max(args.n // 4, 10))), systems)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"{report['papers']:,} papers, the {args.half} half of each set")
    for name in ("tldr", "name"):
        if name in report:
            print(f"\n{name} -> paper     R@1    R@10  MRR@10   p50 s   p95 s")
            for system, m in report[name].items():
                print(f"  {system:<14} {m['R@1']:.3f}  {m['R@10']:.3f}  {m['MRR@10']:.3f}  {m['p50_s']:.3f}  {m['p95_s']:.3f}")
    if "keyword" in report:
        print("\npapers on <keyword>     P      R")
        for system, m in report["keyword"].items():
            print(f"  {system:<18} {m['P']:.3f}  {m['R']:.3f}")


if __name__ == "__main__":
    main()
