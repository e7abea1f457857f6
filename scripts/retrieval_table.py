"""Compare ranking and gating choices on a labelled question set; prints Markdown tables.

    ASSISTANT_HOME=STORE_FOLDER .venv/bin/python scripts/retrieval_table.py tests/data/dev.jsonl

Every method ranks the same candidate pool (dense top chunks + BM25 top papers), so the
table isolates the scoring choice.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assistant import Assistant, Settings  # noqa: E402
from assistant.batch import read_eval_set  # noqa: E402


def rrf(c, ranks, k=60):
    return sum(1.0 / (k + r[c.id]) for r in ranks if c.id in r)


def main(path: str) -> None:
    assistant = Assistant(Settings.from_env())
    rows = read_eval_set(Path(path))
    texts = {p.id: p.text for p in assistant.papers()}
    data = []
    for row in rows:
        expected = {pid for pid, t in texts.items() if any(s in t for s in row["relevant"])}
        data.append((expected, assistant.searcher.candidates(row["question"])))

    def by_rank(ranked_of):
        recall, mrr = [], []
        for expected, cands in data:
            if not expected:
                continue
            ranked = [c.id for c in ranked_of(cands)]
            recall.append(len(set(ranked[:5]) & expected) / len(expected))
            mrr.append(next((1 / i for i, pid in enumerate(ranked[:10], 1) if pid in expected), 0.0))
        return sum(recall) / len(recall), sum(mrr) / len(mrr)

    def sort(key):
        return lambda cands: sorted(cands, key=key, reverse=True)

    def rrf_rank(cands):
        dense = {c.id: i for i, c in enumerate(sorted(cands, key=lambda c: c.dense, reverse=True), 1)}
        lexical = {c.id: i for i, c in enumerate(sorted([c for c in cands if c.bm25 > 0], key=lambda c: c.bm25, reverse=True), 1)}
        return sorted(cands, key=lambda c: rrf(c, [dense, lexical]), reverse=True)

    methods = {
        "dense only (best-chunk cosine)": sort(lambda c: c.dense),
        "BM25 only": sort(lambda c: c.bm25),
        "RRF(dense, BM25), k=60": rrf_rank,
        "dense + 0.35 x BM25/max": lambda cs: sorted(cs, key=lambda c: c.dense + 0.35 * c.bm25 / max(max(x.bm25 for x in cs), 1e-9), reverse=True),
    }
    for w in (0.2, 0.35, 0.5, 1.0):
        methods[f"dense + {w} x IDF coverage{' (chosen)' if w == 0.35 else ''}"] = sort(lambda c, w=w: c.dense + w * c.lexical)
    print("| ranking | recall@5 | MRR@10 |\n| --- | --- | --- |")
    for name, ranker in methods.items():
        r, m = by_rank(ranker)
        print(f"| {name} | {r:.3f} | {m:.3f} |")

    print("\n| gate on relevance = dense + 0.35 x coverage | precision | recall | F1 | abstention |\n| --- | --- | --- | --- | --- |")
    for floor, share in ((0.55, 0.0), (0.62, 0.0), (0.70, 0.0), (0.0, 0.85), (0.55, 0.85), (0.62, 0.80), (0.62, 0.85), (0.62, 0.90)):
        P, R, A = [], [], []
        for expected, cands in data:
            top = cands[0].relevance if cands else 0.0
            kept = [c.id for c in cands if c.relevance >= max(floor, share * top)][:5]
            if not expected:
                A.append(not kept)
                continue
            P.append(len(set(kept) & expected) / len(kept) if kept else 0.0)
            R.append(len(set(kept) & expected) / len(expected))
        p, r = sum(P) / len(P), sum(R) / len(R)
        f = 2 * p * r / (p + r) if p + r else 0.0
        label = f"min {floor:.2f}, {share:.2f} x best" + (" (chosen)" if (floor, share) == (0.62, 0.85) else "")
        print(f"| {label} | {p:.3f} | {r:.3f} | {f:.3f} | {sum(A) / len(A):.3f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/dev.jsonl")
