"""Fit the ranking core's weights (``assistant.retrieval.ranking.WEIGHTS``) on the ``fit`` half of the corpus's own
question sets: tldr -> paper and coined name -> paper, scored by MRR@10, and "papers on <keyword>" (the keyword
field withheld), scored by average precision over the top 200.

    python scripts/fit_ranking.py --home STORE [--every 1] [--n 600]
    python scripts/fit_ranking.py --home STORE --known    # the known-item thresholds (KNOWN_GAP, KNOWN_SCORE)

STORE holds the corpus slice (see bench/retrieval.py). Each question's signals are read once for every paper; the
grid is then searched in memory. The dense weight is fixed at 1 (only ratios matter). Prints the best weights and
the grid's neighbourhood, so that a flat optimum shows as one.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus_sets import CORPUS, keyword_set, name_set, read_corpus, tldr_set  # noqa: E402
from bench.retrieval import Bench  # noqa: E402

GRID = {"bm25": [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.3, 1.6, 2.0], "keywords": [0.0, 0.05, 0.1, 0.2, 0.3],
        "chunk": [0.0, 0.25, 0.5, 1.0]}
POOL = 100


def prepared(bench: Bench, questions: list[dict], keywords: bool) -> list[tuple]:
    """Per question: the signals of its pool of papers (bm25, keywords, dense, chunk) and which are gold."""
    out = []
    for q in questions:
        vector = bench.embedder.embed_query(q["query"])
        ids, signal = bench.core.signals(q["query"], vector)
        if not keywords:
            signal[:, 1] = 0.0
        # the pool: every paper any grid point could put first, approximated by the best of two orders
        by_dense = np.argsort(-signal[:, 2])[:POOL]
        by_bm25 = np.argsort(-signal[:, 0])[:POOL]
        pool = np.unique(np.concatenate([by_dense, by_bm25]))
        chunk = bench.core.best_chunks([ids[i] for i in pool], vector)
        rows = np.column_stack([signal[pool], [chunk.get(ids[i], 0.0) for i in pool]])
        gold = {bench.by_ext[g] for g in q["gold"] if g in bench.by_ext}
        out.append((rows, np.asarray([ids[i] in gold for i in pool]), len(gold)))
    return out


def mrr(prepared_set, w: np.ndarray) -> float:
    total = 0.0
    for rows, gold, _ in prepared_set:
        order = np.argsort(-(rows @ w))[:10]
        hits = np.flatnonzero(gold[order])
        total += 1.0 / (hits[0] + 1) if len(hits) else 0.0
    return total / len(prepared_set)


def average_precision(prepared_set, w: np.ndarray, depth: int = 200) -> float:
    total = 0.0
    for rows, gold, n_gold in prepared_set:
        order = np.argsort(-(rows @ w))[:depth]
        hits = gold[order]
        precision = np.cumsum(hits) / np.arange(1, len(hits) + 1)
        total += float((precision * hits).sum()) / max(n_gold, 1)
    return total / len(prepared_set)


def known_thresholds(bench: Bench, described: list[dict], topical: list[dict]) -> None:
    """The gap and score past which the first paper is taken as the one described: as many tldrs as can be, while
    at most 5% of the keyword questions (which describe no one paper) pass and 95% of the tldrs passing have
    their paper first."""
    def tops(questions):
        out = []
        for q in questions:
            ranked = bench.core.rank(q["query"], bench.embedder.embed_query(q["query"]), n=2)
            out.append((ranked[0].score - ranked[1].score, ranked[0].score, bench.to_ext[ranked[0].id] in q["gold"]))
        return np.asarray(out, dtype=np.float64)
    d, t = tops(described), tops(topical)
    rows = []
    for gap in np.arange(0.04, 0.52, 0.02):
        for score in np.arange(0.6, 3.02, 0.08):
            fired = (d[:, 0] >= gap) & (d[:, 1] >= score)
            wrong = ((t[:, 0] >= gap) & (t[:, 1] >= score)).mean()
            right = d[fired, 2].mean() if fired.any() else 0.0
            rows.append((fired.mean(), right, wrong, gap, score))
    ok = [r for r in rows if r[2] <= 0.05 and r[1] >= 0.95]
    print(f"{len(d)} tldr and {len(t)} keyword questions of the fit half")
    print("  tldrs passing  their paper first  keyword questions passing  gap   score")
    for r in sorted(ok, key=lambda r: (-r[0], -r[3], -r[4]))[:8]:  # ties: the larger gap, then the higher score
        print(f"  {r[0]:.3f}          {r[1]:.3f}              {r[2]:.3f}                      {r[3]:.2f}  {r[4]:.2f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--n", type=int, default=600)
    parser.add_argument("--known", action="store_true", help="fit the known-item thresholds instead of the weights")
    args = parser.parse_args(argv)
    papers = read_corpus(CORPUS, every=args.every)
    bench = Bench(args.home, papers)
    fit = lambda qs: [q for q in qs if q["half"] == "fit"]  # noqa: E731
    if args.known:
        known_thresholds(bench, fit(tldr_set(papers, args.n)), fit(keyword_set(papers, args.n // 3)))
        return
    known = prepared(bench, fit(tldr_set(papers, args.n)) + fit(name_set(papers, args.n // 2)), keywords=True)
    topical = prepared(bench, fit(keyword_set(papers, args.n // 6)), keywords=False)
    results = []
    for b, k, c in itertools.product(GRID["bm25"], GRID["keywords"], GRID["chunk"]):
        w_known = np.asarray([b, k, 1.0, c])
        w_topic = np.asarray([b, 0.0, 1.0, c])
        results.append((mrr(known, w_known), average_precision(topical, w_topic), b, k, c))
    # one objective: known-item MRR and list average precision, each divided by its best over the grid
    best_mrr = max(r[0] for r in results) or 1.0
    best_ap = max(r[1] for r in results) or 1.0
    results.sort(key=lambda r: r[0] / best_mrr + r[1] / best_ap, reverse=True)
    print(f"{len(known)} known-item and {len(topical)} keyword questions of the fit half, {len(papers):,} papers")
    print("  MRR@10   AP@200   bm25  keywords  chunk")
    for r in results[:12]:
        print(f"  {r[0]:.3f}    {r[1]:.3f}    {r[2]:.2f}  {r[3]:.2f}      {r[4]:.2f}")


if __name__ == "__main__":
    main()
