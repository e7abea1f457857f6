"""Papers ranked before any reading of the question: field-weighted BM25 and paper-level dense similarity, fused.

Each paper gets these signals for a query:

- ``bm25``: BM25 over its title (twice) and abstract, divided by the best paper's score for the query;
- ``keywords``: BM25 over its authors' keywords, divided likewise (0 when the data has none);
- ``dense``: cosine similarity of the query to the paper's mean chunk vector (``PaperVectors``);
- ``chunk``: cosine similarity of the query to its best chunk, for the papers of the pool only.

``score = sum(WEIGHTS[f] * signal[f])``. The weights are fitted, not chosen: ``scripts/fit_ranking.py``
searches them on the tldr and keyword questions of the papers of the corpus's ``fit`` half
(``bench/corpus_sets.py``), and ``bench/retrieval.py`` reports them on the other half beside BM25, dense-only
and reciprocal-rank fusion. Max-normalising BM25 makes its weight mean the same at 49 papers and at 20,000.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


# Fitted by `python scripts/fit_ranking.py --home <store of the 19,622 papers>` on the fit half: MRR@10 .968 on
# its tldr and name questions (docs/retrieval.md). The dense weight is fixed at 1.
WEIGHTS = {"bm25": 1.60, "keywords": 0.30, "dense": 1.0, "chunk": 1.00}
POOL = 200  # papers given the chunk signal, from the best of the first three
# A question describing one paper puts that paper far ahead of the next; one asking for papers on a topic does not.
# Fitted at 19,622 papers by `scripts/fit_ranking.py --home STORE --known` (the fit half): with the first paper at
# least KNOWN_GAP ahead of the second and scoring at least KNOWN_SCORE, 91% of the tldrs pass, 98.9% of those with
# their paper first, and 4.5% of the "papers on <keyword>" questions (docs/retrieval.md).
KNOWN_GAP = 0.30
KNOWN_SCORE = 2.40
# and its best chunk near the question in meaning: BM25 is divided by the best paper's, so the first paper's score is
# high whenever any paper holds the question's words, even on a question on nothing the store holds. 0.50 is the
# cosine under which no paper is near a list question (``search.UNKNOWN_DENSE``).
KNOWN_CHUNK = 0.50
KNOWN_KEPT = 8  # known-item answers kept (``PaperRanker.known_item``)


@dataclass
class Ranked:
    id: str
    score: float
    bm25: float
    keywords: float
    dense: float
    chunk: float


@dataclass
class Order:
    """Every paper's fused score but for the chunk signal, which ``score`` adds from the caller's best chunk."""

    ids: list[str]
    first: np.ndarray
    row: dict[str, int]
    chunk_weight: float
    signal: np.ndarray | None = None  # (papers, 3): bm25, keywords, dense, as ``PaperRanker.signals`` gives them

    def best(self, n: int) -> list[str]:
        n = min(n, len(self.ids))
        if n <= 0:
            return []
        top = np.argpartition(-self.first, n - 1)[:n]
        return [self.ids[i] for i in top[np.argsort(-self.first[top])] if np.isfinite(self.first[i])]

    def score(self, paper_id: str, chunk: float) -> float:
        row = self.row.get(paper_id)
        return (float(self.first[row]) if row is not None else 0.0) + self.chunk_weight * chunk

    def signals_of(self, paper_id: str) -> tuple[float, float, float]:
        """The paper's (bm25, keywords, dense) signals; zeros for a paper the vectors lack yet."""
        row = self.row.get(paper_id)
        if row is None or self.signal is None:
            return 0.0, 0.0, 0.0
        bm25, keywords, dense = (float(v) for v in self.signal[row])
        return bm25, keywords, dense if np.isfinite(dense) else 0.0


class PaperRanker:
    """Ranks every paper of the store for a query (``rank``), from the indexes the searcher keeps."""

    def __init__(self, store, lexical, vectors, keywords=None, weights: dict | None = None) -> None:
        self.store = store
        self.lexical = lexical  # title and abstract (``assistant.lexical.LexicalIndex``)
        self.keywords = keywords  # the keyword field, or None
        self.vectors = vectors  # ``PaperVectors``
        self.weights = dict(weights or WEIGHTS)
        self._aligned: dict[str, tuple] = {}  # field -> (its row dict, vectors revision, rows)
        self._known: dict[tuple, Ranked | None] = {}  # (query, store revision, weights) -> ``known_item``, the last few

    def signals(self, query: str, vector: np.ndarray, allowed: set[str] | None = None,
                text_scores=None) -> tuple[list[str], np.ndarray]:
        """Every paper's id and its (bm25, keywords, dense) signals, one row a paper, in ``PaperVectors`` order.
        ``text_scores``: the title-and-abstract BM25 scores of ``query``, when the caller has them."""
        dense = self.vectors.similarities(vector)
        ids = self.vectors.ids
        out = np.zeros((len(ids), 3), dtype=np.float32)
        out[:, 2] = dense
        for column, (field, index) in enumerate((("bm25", self.lexical), ("keywords", self.keywords))):
            if index is None or not self.weights.get(field):
                continue
            scores = text_scores if field == "bm25" and text_scores is not None else index.scores(query)
            values = self._in_vector_order(field, scores)
            best = float(values.max()) if len(values) else 0.0
            if best > 0:
                out[:, column] = values / best
        if allowed is not None:  # a paper the filters leave out is never ranked
            keep = np.fromiter((pid in allowed for pid in ids), bool, len(ids))
            out[~keep, :2] = 0.0
            out[~keep, 2] = -np.inf  # the dense weight is fixed at 1: their fused score is -inf
        return ids, out

    def order(self, query: str, vector: np.ndarray, *, allowed: set[str] | None = None, text_scores=None) -> "Order":
        """The fused score of every paper without its chunk signal, for a caller that has its own chunks."""
        ids, signal = self.signals(query, vector, allowed, text_scores)
        return Order(ids, self._first(signal), self.vectors.row, self.weights.get("chunk", 0.0), signal)

    def _first(self, signal: np.ndarray) -> np.ndarray:
        """The fused score but for the chunk signal, of every row of ``signals``."""
        w = self.weights
        return w["bm25"] * signal[:, 0] + w.get("keywords", 0.0) * signal[:, 1] + w["dense"] * signal[:, 2]

    def rank(self, query: str, vector: np.ndarray, *, n: int = 50, allowed: set[str] | None = None) -> list[Ranked]:
        """The ``n`` best papers for ``query`` (its embedding ``vector``), best first."""
        ids, signal = self.signals(query, vector, allowed)
        if not ids:
            return []
        w = self.weights
        first = self._first(signal)
        pool = min(max(POOL, n), len(ids))
        best = np.argpartition(-first, pool - 1)[:pool]
        chunk = self.best_chunks([ids[i] for i in best], vector) if w.get("chunk") else {}
        ranked = [Ranked(ids[i], float(first[i] + w.get("chunk", 0.0) * chunk.get(ids[i], 0.0)),
                         float(signal[i, 0]), float(signal[i, 1]), float(signal[i, 2]), chunk.get(ids[i], 0.0))
                  for i in best]
        ranked.sort(key=lambda r: r.score, reverse=True)
        return [r for r in ranked if np.isfinite(r.score)][:n]

    def known_item(self, query: str, vector: np.ndarray, *, allowed: set[str] | None = None) -> Ranked | None:
        """The paper ``query`` describes, when the ranking says it describes one (``KNOWN_GAP``), else None. One
        question asks it twice (whether a name is read in passing, and whether the answer left the paper out), so
        the last few answers without filters are kept, for the store revision they were made at."""
        key = (query, self.store.revision(), tuple(self.weights.values())) if allowed is None else None
        if key is not None and key in self._known:
            return self._known[key]
        found = self._known_item(query, vector, allowed)
        if key is not None:
            self._known[key] = found
            while len(self._known) > KNOWN_KEPT:
                self._known.pop(next(iter(self._known)))
        return found

    def _known_item(self, query: str, vector: np.ndarray, allowed: set[str] | None) -> Ranked | None:
        top = self.rank(query, vector, n=2, allowed=allowed)
        if not top or top[0].score < KNOWN_SCORE or top[0].chunk < KNOWN_CHUNK:
            return None
        return top[0] if len(top) == 1 or top[0].score - top[1].score >= KNOWN_GAP else None

    def best_chunks(self, paper_ids: list[str], vector: np.ndarray) -> dict[str, float]:
        """Each paper's best chunk similarity to ``vector``."""
        return {pid: best[0] for pid, best in self.vectors.best_chunks(paper_ids, vector).items()}

    def _in_vector_order(self, field: str, scores) -> np.ndarray:
        """BM25 scores (in the lexical index's row order) laid out in ``PaperVectors`` order. The row map is
        made once for each pair of index versions (made per query it costs ~10 ms at 20,000 papers); the index's
        row dict is held with it, so a new one is never mistaken for it."""
        held = self._aligned.get(field)
        if held is None or held[0] is not scores.row or held[1] != self.vectors.revision:
            rows = np.asarray([scores.row.get(pid, -1) for pid in self.vectors.ids], dtype=np.int64)
            held = self._aligned[field] = (scores.row, self.vectors.revision, rows)
        rows = held[2]
        out = np.zeros(len(rows), dtype=np.float32)
        present = rows >= 0
        out[present] = scores.values[rows[present]]
        return out
