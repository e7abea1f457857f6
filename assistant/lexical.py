"""BM25 over papers (title twice, then abstract), persisted beside the store and kept in step with it.

Every ingest that changes the store stamps a new revision on the papers collection; the
index on disk records the revision it was built from and is rebuilt only when the two
differ (after an ingest, or when another client changed a shared Chroma server). Queries
never rebuild it otherwise. bm25s has no incremental add, and at 20k abstracts a rebuild
takes a few seconds, so rebuilding once per changing ingest is the cheaper design.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import threading
from pathlib import Path

import numpy as np

from .store import Store

REVISION_KEY = "revision"


def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


def index_folder(home: Path, collection: str, chroma_url: str | None) -> Path:
    where = hashlib.sha1((chroma_url or "embedded").encode()).hexdigest()[:8]
    return home / "lexical" / f"{collection}-{where}"


class LexicalIndex:
    def __init__(self, store: Store, folder: Path) -> None:
        self.store = store
        self.folder = folder
        self._lock = threading.Lock()
        self._model = None
        self._df = np.zeros(0)
        self._ids: list[str] = []
        self._revision: str | None = None
        self._stem = _stemmer()

    # -- keeping in step ---------------------------------------------------------
    def tokenize(self, texts: list[str]) -> list[list[str]]:
        import bm25s

        return bm25s.tokenize(texts, stopwords="en", stemmer=self._stem, return_ids=False, show_progress=False,
                              token_pattern=r"(?u)\b\w\w+\b")

    def _store_revision(self) -> str:
        return str((self.store.papers.metadata or {}).get(REVISION_KEY, "0"))

    def ensure_current(self) -> None:
        with self._lock:
            revision = self._store_revision()
            if self._model is not None and revision == self._revision:
                return
            if not self._load(revision):
                self._build(revision)

    def _load(self, revision: str) -> bool:
        import bm25s

        stamp = self.folder / "stamp.json"
        try:
            meta = json.loads(stamp.read_text())
            if meta.get("revision") != revision:
                return False
            self._model = bm25s.BM25.load(str(self.folder / "bm25"), load_corpus=False, show_progress=False)
            self._ids = meta["ids"]
            self._df = _document_frequencies(self._model)
        except (OSError, ValueError, KeyError):
            return False
        self._revision = revision
        return True

    def _build(self, revision: str) -> None:
        import bm25s

        ids, texts = [], []
        for pid, meta, text in self.store.iter_papers(include_text=True):
            ids.append(pid)
            title = meta.get("title", "")
            texts.append(f"{title}. {title}. {text}")
        model = bm25s.BM25()
        if texts:
            model.index(self.tokenize(texts), show_progress=False)
        tmp = self.folder.with_suffix(".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        if texts:
            model.save(str(tmp / "bm25"), show_progress=False)
        (tmp / "stamp.json").write_text(json.dumps({"revision": revision, "ids": ids}))
        shutil.rmtree(self.folder, ignore_errors=True)
        tmp.rename(self.folder)  # readers see the old index or the new one, never half of one
        self._model, self._ids, self._revision = (model if texts else None), ids, revision
        self._df = _document_frequencies(self._model) if texts else np.zeros(0)

    # -- querying ------------------------------------------------------------------
    def search(self, query: str, n: int) -> list[tuple[str, float]]:
        self.ensure_current()
        if self._model is None or not self._ids:
            return []
        tokens = self.tokenize([query])
        if not tokens or not tokens[0]:
            return []
        docs, scores = self._model.retrieve(tokens, k=min(n, len(self._ids)), show_progress=False, n_threads=1)
        return [(self._ids[int(d)], float(s)) for d, s in zip(docs[0], scores[0]) if s > 0]

    def idf(self, term: str) -> float:
        """Inverse document frequency; a term the corpus lacks counts as rare."""
        n = max(len(self._ids), 1)
        column = self._model.vocab_dict.get(term) if self._model is not None else None
        df = int(self._df[column]) if column is not None and column < len(self._df) else 0
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def coverage(self, query: str, texts: dict[str, str]) -> dict[str, float]:
        """IDF-weighted share of the query's distinct terms found in each text.

        A ratio, not a raw BM25 score, so it means the same whatever the corpus size.
        """
        self.ensure_current()
        terms = set(self.tokenize([query])[0])
        if not terms or not texts:
            return {pid: 0.0 for pid in texts}
        weights = {t: self.idf(t) for t in terms}
        total = sum(weights.values()) or 1.0
        out = {}
        for (pid, _), words in zip(texts.items(), self.tokenize(list(texts.values()))):
            present = terms.intersection(words)
            out[pid] = sum(weights[t] for t in present) / total
        return out


def _document_frequencies(model) -> np.ndarray:
    """Documents per term, read off bm25s's term-major sparse score matrix."""
    return np.diff(np.asarray(model.scores["indptr"]))


def bump_revision(store: Store) -> None:
    """Mark the store changed, so every lexical index built from it knows to rebuild."""
    meta = dict(store.papers.metadata or {})
    meta[REVISION_KEY] = hashlib.sha1(np.random.bytes(16)).hexdigest()[:16]
    store.papers.modify(metadata=meta)
