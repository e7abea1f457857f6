"""BM25 over papers (title twice, then abstract), persisted beside the store and updated incrementally.

Why our own index rather than bm25s's: a bm25s index cannot add or remove documents, so
every ingest would re-tokenize and rebuild the whole corpus (seconds at 20k abstracts, on
every change, in every client of a shared Chroma server). Here the index is a list of
segments, as in Lucene: each sync with the store tokenizes only the papers that are new or
retitled, writes them as one new segment, and records removed papers as deleted. BM25's
corpus statistics (document frequencies, mean length) are summed over the live documents
when the segments are loaded, so scores equal those of an index built from scratch.
Segments are merged when there are too many or too many deleted rows. Tokens: ``bm25_tokens``;
the files: ``bm25_files``.

Every ingest that changes the store stamps a new revision on the papers collection; an
index whose manifest records another revision syncs by comparing the store's paper ids and
titles with its own (metadata only), so it follows other clients of a shared server too.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
from scipy import sparse

from .bm25_files import Segment, clear, read_index, read_manifest, write_index
from .bm25_tokens import stemmer, tokenize
from .latex import search_forms
from .locks import locked
from .memory import release_free_memory
from .query_words import topic_words
from .spelling import NameSpeller
from .typos import EnglishWords, a_verb_form, respelled
from .store import Store

K1, B = 1.5, 0.75  # BM25 (Lucene's variant), bm25s's defaults
MAX_SEGMENTS = 8
MAX_DELETED_SHARE = 0.25
FETCH = 512  # papers read from the store per request when syncing


def index_folder(home: Path, collection: str, chroma_url: str | None) -> Path:
    where = hashlib.sha1((chroma_url or "embedded").encode()).hexdigest()[:8]
    return home / "lexical" / f"{collection}-{where}"


# Prefixes that make a word from a word, whatever the field: "unlabeled", "non-stationary", "multilingual",
# "self-supervised" (not "re-", "co-", "pro-": "recommender" and "protein" are no "commender" or "tein")
_PREFIX = re.compile(r"^(?:un|non|semi|self|multi|pre|post|sub|inter|intra|over|under)-?(?=\w{4})")


@dataclass
class Scores:
    """One query's BM25 scores over the live papers (as the index stood when they were computed)."""

    ids: list[str]
    row: dict[str, int]
    values: np.ndarray

    def top(self, n: int) -> list[tuple[str, float]]:
        """The ``n`` best papers with a score above 0, best first."""
        n = min(n, int(np.count_nonzero(self.values)))
        if n <= 0:
            return []
        best = np.argpartition(-self.values, n - 1)[:n]
        best = best[np.argsort(-self.values[best], kind="stable")]
        return [(self.ids[i], float(self.values[i])) for i in best]

    def of(self, paper_id: str) -> float:
        row = self.row.get(paper_id)
        return 0.0 if row is None else float(self.values[row])


FIELDS = ("text", "keywords")  # what a paper's document is: its title twice and abstract, or its keywords


class LexicalIndex:
    def __init__(self, store: Store, folder: Path, field: str = "text") -> None:
        if field not in FIELDS:
            raise ValueError(f"unknown field {field!r}")
        self.store = store
        self.folder = folder if field == "text" else folder.with_name(f"{folder.name}-{field}")
        self.field = field
        self._lock = threading.Lock()
        self._stem = stemmer()
        self._revision: str | None = None
        self._vocab: dict[str, int] = {}
        self._segments: list[Segment] = []
        # the live documents, merged from the segments for querying
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._by_term: sparse.csc_matrix | None = None
        self._norm = np.zeros(0, dtype=np.float32)
        self._df = np.zeros(0, dtype=np.int64)
        self._speller = NameSpeller([])
        self.english = EnglishWords()  # words a query may hold that are no slips ('enumerate'), nor names
        self._titles: dict[str, str] = {}

    def _signature(self, meta: dict) -> str:
        """What the paper's document is made of, as kept in a segment: a paper whose signature changed is
        indexed again (its title, or for the keyword field its keywords)."""
        if self.field == "keywords":
            return "; ".join(str(k) for k in (meta.get("keywords") or []))
        return str(meta.get("title", ""))

    def _document(self, meta: dict, text: str) -> str:
        if self.field == "keywords":
            return ". ".join(str(k) for k in (meta.get("keywords") or []))
        title = str(meta.get("title", ""))
        forms = " ".join(search_forms(title))  # "S$^2$-Guidance" is typed "S2-Guidance"
        return f"{title}. {title}. {forms + '. ' if forms else ''}{text}"

    # -- tokens --------------------------------------------------------------------
    def tokenize(self, texts: list[str]) -> list[list[str]]:
        return tokenize(texts, self._stem)

    # -- keeping in step with the store ---------------------------------------------
    def ensure_current(self) -> None:
        """Bring the index up to the store's revision: load what is on disk, then index what changed."""
        with self._lock:
            revision = self.store.revision()
            if self._by_term is not None and revision == self._revision:
                return
            with self._held_folder() as manifest:
                if manifest.get("revision") != self._revision or self._by_term is None:
                    manifest = self._load(manifest)
                try:
                    if manifest.get("revision") != revision:
                        self._sync(revision)
                    self._merge_live()
                except BaseException:
                    self._by_term, self._revision = None, None  # half-synced: reload from disk next time
                    raise
                self._revision = revision

    def sync(self) -> None:
        """Bring the index on disk up to the store's revision, as an ingest's last step, without building
        the structures a query uses: the next query loads them from disk (0.1 s at 20k papers). At 20k
        that building, a column-wise copy of the whole matrix with its names, is what set the ingest's peak.
        A process that had already built them (the web app) keeps answering from them until then."""
        with self._lock:
            revision = self.store.revision()
            with self._held_folder() as manifest:
                if manifest.get("revision") == revision:
                    return
                try:
                    self._load(manifest)
                    self._sync(revision)
                finally:  # the disk is ahead of what queries here read now: they reload it when next asked
                    self._segments, self._revision = [], None
                    release_free_memory()

    @contextmanager
    def _held_folder(self) -> Iterator[dict]:
        """The folder, locked, and its manifest: processes sharing a home take turns syncing it (held
        for the sync only)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with locked(self.folder / ".lock"):
            yield read_manifest(self.folder)

    def _load(self, manifest: dict) -> dict:
        """Read the index on disk; returns its manifest, or {} when there is none usable (then it
        starts empty and syncs).

        The vocabulary is replaced in one assignment: a query running in another thread (the web app
        while an upload is ingested) never sees it empty."""
        loaded = read_index(self.folder, manifest) if manifest else None
        if loaded is None:  # none, of an older format, or damaged: rebuilt from the store
            self._vocab, self._segments = {}, []
            clear(self.folder)
            return {}
        self._vocab, self._segments = loaded
        return manifest

    def _sync(self, revision: str) -> None:
        """Index the papers the store has and this index lacks (or holds with another title)."""
        stored = {pid: self._signature(meta) for pid, meta, _ in self.store.iter_papers(include_text=False)}
        release_free_memory()  # reading every paper's metadata leaves ~70 MB free but resident at 20k
        held: dict[str, str] = {}
        for seg in self._segments:
            for row in seg.live():
                pid, title = seg.ids[row], seg.titles[row]
                if stored.get(pid) == title and pid not in held:
                    held[pid] = title
                else:  # removed from the store, retitled, or a duplicate row
                    seg.deleted.add(row)
        fresh = [pid for pid, title in stored.items() if held.get(pid) != title]
        if fresh:
            self._segments.append(self._index(fresh))
        if len(self._segments) > MAX_SEGMENTS or self._deleted_share() > MAX_DELETED_SHARE:
            self._compact()
        self._write(revision)

    def _index(self, paper_ids: list[str]) -> Segment:
        """Tokenize papers into a new segment, FETCH at a time: neither their texts nor their
        tokens are held beyond one batch (at 20k papers that held ~200 MB at the peak)."""
        ids, titles = [], []
        indptr, indices, data = [0], [], []
        for start in range(0, len(paper_ids), FETCH):
            batch = self.store.get_papers(paper_ids[start:start + FETCH])
            texts = []
            for pid, (meta, text) in batch.items():
                ids.append(pid)
                titles.append(self._signature(meta))
                texts.append(self._document(meta, text))
            batch_terms, batch_counts = [], []
            for tokens in self.tokenize(texts) if texts else []:
                terms, counts = np.unique(np.fromiter((self._vocab.setdefault(t, len(self._vocab)) for t in tokens),
                                                      np.int32, len(tokens)), return_counts=True)
                batch_terms.append(terms)
                batch_counts.append(counts)
                indptr.append(indptr[-1] + len(terms))
            if batch_terms:  # one array per batch, not two small ones per paper (~100 bytes of overhead each)
                indices.append(np.concatenate(batch_terms))
                data.append(np.concatenate(batch_counts).astype(np.float32))
            del batch, texts, batch_terms, batch_counts
            release_free_memory()  # the batch's texts and tokens, and the store client's read buffers
        join = (lambda parts, dtype: np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype))
        counts = sparse.csr_matrix((join(data, np.float32), join(indices, np.int32), np.asarray(indptr, np.int64)),
                                   shape=(len(ids), len(self._vocab)))
        return Segment.new(counts, ids, titles)

    def _deleted_share(self) -> float:
        total = sum(len(seg.ids) for seg in self._segments)
        return sum(len(seg.deleted) for seg in self._segments) / total if total else 0.0

    def _compact(self) -> None:
        """Merge every segment into one, dropping deleted rows (no re-tokenizing)."""
        live, ids, titles = self._live_rows()
        self._segments = [Segment.new(live, ids, titles)]

    def _write(self, revision: str) -> None:
        write_index(self.folder, revision, self._vocab, self._segments)

    def _live_rows(self) -> tuple[sparse.csr_matrix, list[str], list[str]]:
        width = len(self._vocab)
        blocks, ids, titles = [], [], []
        for seg in self._segments:
            keep = seg.live()
            block = seg.counts[keep] if seg.deleted else seg.counts  # no copy when every row is live
            if block.shape[1] != width:
                block = block.copy() if block is seg.counts else block
                block.resize((len(keep), width))  # older segments know fewer terms
            blocks.append(block)
            ids += [seg.ids[i] for i in keep]
            titles += [seg.titles[i] for i in keep]
        if len(blocks) == 1:
            return blocks[0], ids, titles
        matrix = sparse.vstack(blocks, format="csr") if blocks else sparse.csr_matrix((0, width), dtype=np.float32)
        return matrix, ids, titles

    def _merge_live(self) -> None:
        matrix, self._ids, titles = self._live_rows()
        if self.field == "text":  # the keyword field's segments keep keywords where titles are kept
            self._speller = NameSpeller(titles, self._ids, words=self.english, compound_papers=self._compound_papers)
            self._titles = dict(zip(self._ids, titles))
        self._row = {pid: row for row, pid in enumerate(self._ids)}
        self._by_term = matrix.tocsc()
        lengths = np.asarray(matrix.sum(axis=1)).ravel()
        mean = lengths.mean() if len(lengths) else 1.0
        self._norm = (K1 * (1 - B + B * lengths / max(mean, 1e-9))).astype(np.float32)
        self._df = np.diff(self._by_term.indptr)

    def titles(self) -> dict[str, str]:
        """Every paper's id and title, as indexed (in step with the store): a list of most of the store needs
        no more until it shows a page, and reading 20,000 paper records for them takes 1-2 s."""
        self.ensure_current()
        return self._titles

    # -- querying ------------------------------------------------------------------
    def read_names(self, query: str) -> tuple[str, list[str]]:
        """The query with papers' names written as their titles write them ('LaserD' -> 'LASER-D'), and
        the papers it names ('tell me about PoLR'), in the order it names them."""
        self.ensure_current()
        return self._speller.read(query)

    def respelled(self, query: str) -> str:
        """The query with misspelt long words written as the papers write them ('adaptaton' -> 'adaptation',
        ``typos``)."""
        self.ensure_current()
        return respelled(query, self._stem.stemWord, self._papers_holding, self.english)

    def _compound_papers(self, name: str) -> int:
        """How many papers hold a hyphenated name's words joined, as the index keeps a hyphenated word whole too."""
        tokens = self.tokenize([name])[0] if name else []
        return self._papers_holding(max(tokens, key=len)) if tokens else 0

    def _papers_holding(self, term: str) -> int:
        column = self._vocab.get(term)
        return int(self._df[column]) if column is not None and column < len(self._df) else 0

    def search(self, query: str, n: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """The ``n`` best papers by BM25, as (paper id, score), score > 0; only ``allowed`` ones if given."""
        return self.scores(query, allowed).top(n)

    def scores(self, query: str, allowed: set[str] | None = None) -> "Scores":
        """Every live paper's BM25 score for ``query`` (0 for papers outside ``allowed``), computed once
        so a search can take the best ones and read its other candidates' scores from the same pass."""
        self.ensure_current()
        tokens = self.tokenize([query])
        matrix = self._by_term
        width = matrix.shape[1] if matrix is not None else 0  # an ingest in another thread may have added terms since
        terms = sorted({self._vocab[t] for t in (tokens[0] if tokens else []) if self._vocab.get(t, width) < width})
        values = np.zeros(len(self._ids), dtype=np.float32)
        for term in terms:
            rows = matrix.indices[matrix.indptr[term]:matrix.indptr[term + 1]]
            tf = matrix.data[matrix.indptr[term]:matrix.indptr[term + 1]]
            values[rows] += self._idf_of(term) * tf * (K1 + 1) / (tf + self._norm[rows])
        if allowed is not None:
            keep = np.zeros(len(self._ids), dtype=bool)
            keep[[self._row[pid] for pid in allowed if pid in self._row]] = True
            values[~keep] = 0.0
        return Scores(self._ids, self._row, values)

    def _idf_of(self, column: int | None) -> float:
        n = max(len(self._ids), 1)
        df = int(self._df[column]) if column is not None and column < len(self._df) else 0
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def idf(self, term: str) -> float:
        """Inverse document frequency; a term the corpus lacks counts as rare."""
        return self._idf_of(self._vocab.get(term))

    def term_shares(self, query: str) -> dict[str, float]:
        """Each distinct term of what the query is about (``topic_words``) with its share of their total IDF
        (the shares sum to 1). A caller reading several things off one query passes them on (``shares=``)."""
        self.ensure_current()
        weights = {t: self.idf(t) for t in set(self.tokenize([topic_words(query)])[0])}
        total = sum(weights.values()) or 1.0
        return {t: w / total for t, w in weights.items()}

    def unknown_share(self, query: str, shares: dict[str, float] | None = None) -> float:
        """The share of ``query``'s coverage (``term_shares``) in terms no paper of the index holds: "protein" in
        "protein structure prediction" asked of a store without a paper on proteins. Not the whole-word forms of
        hyphenated words ("mixtureofexperts"), which count only when their parts are unknown too."""
        shares = self.term_shares(query) if shares is None else shares
        joined = {t for w in re.findall(r"\w+(?:-\w+)+", topic_words(query)) for t in self.tokenize([w.replace("-", "")])[0]}
        unknown = {term for term in shares if term not in joined and self._unknown(term)}
        if not unknown:  # most questions: the word list is not read
            return 0.0
        # a verb's form ("writes", "built") says how the topic is asked, not what field it is in
        said = {t for w in topic_words(query).split() if set(terms := self.tokenize([w])[0]) & unknown
                and a_verb_form(w.lower(), self.english) for t in terms}
        return sum(shares[term] for term in unknown - said)

    def unknown_words(self, query: str) -> list[str]:
        """The words of what ``query`` is about (``topic_words``) that no paper of the index holds, as typed:
        "protein" of "papers on protein structure prediction"."""
        self.ensure_current()
        words = dict.fromkeys(w.strip("'") for w in topic_words(query).split())
        return [w for w in words if (terms := self.tokenize([w.replace("-", " ")])[0])
                and all(map(self._unknown, terms))]

    def _unknown(self, term: str) -> bool:
        """Whether no paper of the index holds ``term``, nor the word it makes with a prefix taken off: "unlabeled"
        is no word of a field the store lacks when its papers hold "labeled" (``_PREFIX``)."""
        if self._vocab.get(term) is not None:
            return False
        prefix = _PREFIX.match(term)
        return prefix is None or self._vocab.get(term[prefix.end():]) is None

    def coverage(self, query: str, texts: dict[str, str], shares: dict[str, float] | None = None) -> dict[str, float]:
        """IDF-weighted share of the query's distinct terms found in each text.

        A ratio, not a raw BM25 score, so it means the same whatever the corpus size.
        """
        shares = self.term_shares(query) if shares is None else shares
        if not shares or not texts:
            return {pid: 0.0 for pid in texts}
        return {pid: sum(shares[t] for t in shares.keys() & set(words))
                for pid, words in zip(texts, self.tokenize(list(texts.values())))}

    def paper_coverage(self, query: str, paper_ids: list[str], shares: dict[str, float] | None = None) -> dict[str, float]:
        """``coverage`` of indexed papers (title and abstract), read off the index instead of
        tokenizing their text again; papers the index lacks are left out."""
        shares = self.term_shares(query) if shares is None else shares
        known = [pid for pid in paper_ids if pid in self._row]
        rows = np.asarray([self._row[pid] for pid in known], dtype=np.int64)
        found = np.zeros(len(known))
        matrix = self._by_term
        for term, share in shares.items():
            column = self._vocab.get(term)
            if column is not None and matrix is not None and column < matrix.shape[1]:
                found[np.isin(rows, matrix.indices[matrix.indptr[column]:matrix.indptr[column + 1]])] += share
        return dict(zip(known, found.tolist()))

    def describe(self) -> dict:
        """What is indexed: revision, live papers, segments and deleted rows (for tests and `stats`)."""
        self.ensure_current()
        return {"revision": self._revision, "papers": len(self._ids),
                "segments": [seg.name for seg in self._segments],
                "deleted": sum(len(seg.deleted) for seg in self._segments)}

