"""One vector per paper, the normalised mean of its chunk vectors, and every chunk vector, for exact paper-level search.

Why: ranking papers by their single best sentence chunk is the weak point at conference scale. On 100
paraphrased known-item questions over the 19,622 ICLR 2026 papers, the mean of a paper's chunk vectors finds
81 in its top 10 where the best chunk finds 71 (docs/retrieval.md has the current figures and command).

Why not Chroma: the paper collection's records carry a one-number placeholder vector, so a collection of
paper vectors would be a second store to keep in step; and an exact dot product over 20,000 x 384 floats
takes ~3 ms, under what an approximate index costs to ask. The chunk vectors in Chroma stay the truth:
this index is derived from them, saved beside the BM25 index (``vectors.npy``, ``vector-ids.json``, a manifest
with the store's revision) and brought up to date as the BM25 index is, reading only the chunks of papers
it lacks.

The chunk vectors are kept too (``chunks.npy``, float16, memory-mapped: 83 MB at 19,622 papers, read by the
pages a query touches), with each chunk's span of its abstract, so a paper's best chunk is a product of a few
rows: read from Chroma by id for the 200 papers of a pool it took 0.3-0.75 s.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

from .. import schema
from ..locks import locked, replacing, write_atomic
from ..store import Store

FORMAT = 2  # 2: the chunk vectors and spans too
NO_SPAN = -1  # a chunk the splitter did not cut verbatim from the abstract: its text is in Chroma
FETCH = 256  # papers whose chunk vectors are read from the store per request


class PaperVectors:
    """The mean chunk vector of every paper of ``store``, as a (papers x dimension) matrix."""

    def __init__(self, store: Store, folder: Path) -> None:
        self.store = store
        self.folder = folder
        self._lock = threading.Lock()
        self._revision: str | None = None
        self.ids: list[str] = []
        self.row: dict[str, int] = {}
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self.chunks = np.zeros((0, 0), dtype=np.float16)  # every chunk vector, papers' chunks in a run
        self.spans = np.zeros((0, 2), dtype=np.int32)  # each chunk's (start, end) in its abstract
        self.starts = np.zeros(1, dtype=np.int64)  # paper row i's chunks are rows starts[i]:starts[i + 1]

    def ensure_current(self) -> None:
        with self._lock:
            revision = self.store.revision()
            if revision == self._revision:
                return
            self.folder.mkdir(parents=True, exist_ok=True)
            with locked(self.folder / ".lock"):
                if not self._load() or self._manifest().get("revision") != revision:
                    self._sync(revision)
            self._revision = revision

    @property
    def revision(self) -> str | None:
        """The store revision the vectors are of (None before the first ``ensure_current``)."""
        return self._revision

    def similarities(self, vector: np.ndarray) -> np.ndarray:
        """Cosine similarity of ``vector`` (unit length) to every paper, in the order of ``ids``."""
        self.ensure_current()
        if not len(self.ids):
            return np.zeros(0, dtype=np.float32)
        return self.matrix @ np.asarray(vector, dtype=np.float32)

    def of(self, paper_ids: list[str]) -> np.ndarray:
        """The vectors of ``paper_ids`` (a zero vector for a paper not indexed yet)."""
        self.ensure_current()
        out = np.zeros((len(paper_ids), self.matrix.shape[1] if self.matrix.size else 0), dtype=np.float32)
        for i, pid in enumerate(paper_ids):
            row = self.row.get(pid)
            if row is not None:
                out[i] = self.matrix[row]
        return out

    def best_chunks(self, paper_ids: list[str], vector: np.ndarray) -> dict[str, tuple[float, int, tuple[int, int]]]:
        """Each indexed paper's best chunk: (cosine similarity, chunk index, its span of the abstract)."""
        self.ensure_current()
        rows = [(pid, self.row[pid]) for pid in paper_ids if pid in self.row]
        if not rows or not self.chunks.size:
            return {}
        pieces = [np.arange(self.starts[r], self.starts[r + 1]) for _, r in rows]
        sims = self.chunks[np.concatenate(pieces)].astype(np.float32) @ np.asarray(vector, dtype=np.float32)
        out, at = {}, 0
        for (pid, r), piece in zip(rows, pieces):
            if len(piece):
                best = int(np.argmax(sims[at:at + len(piece)]))
                out[pid] = (float(sims[at + best]), best, tuple(int(x) for x in self.spans[piece[best]]))
            at += len(piece)
        return out

    # -- on disk -------------------------------------------------------------------
    def _manifest(self) -> dict:
        try:
            manifest = json.loads((self.folder / "vectors.json").read_text())
            return manifest if manifest.get("format") == FORMAT else {}
        except (OSError, ValueError):
            return {}

    def _load(self) -> bool:
        """Read the folder; False when it holds no usable index (none, of another format, or damaged)."""
        manifest = self._manifest()
        empty = ([], np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float16), np.zeros((0, 2), np.int32),
                 np.zeros(1, np.int64))
        try:
            loaded = (json.loads((self.folder / "vector-ids.json").read_text()), np.load(self.folder / "vectors.npy"),
                      np.load(self.folder / "chunks.npy", mmap_mode="r"), np.load(self.folder / "spans.npy"),
                      np.load(self.folder / "starts.npy")) if manifest else empty
        except (OSError, ValueError):
            loaded = empty
        ids, matrix, chunks, spans, starts = loaded
        if len(ids) != len(matrix) or len(starts) != len(ids) + 1 or starts[-1] != len(chunks) or len(chunks) != len(spans):
            loaded = empty  # damaged: rebuilt from the store
        self._set(*loaded)
        return loaded is not empty

    def _set(self, ids: list[str], matrix: np.ndarray, chunks: np.ndarray, spans: np.ndarray, starts: np.ndarray) -> None:
        self.ids, self.matrix = ids, np.ascontiguousarray(matrix, dtype=np.float32)
        self.chunks, self.spans, self.starts = chunks, spans, starts
        self.row = {pid: i for i, pid in enumerate(ids)}

    def _sync(self, revision: str) -> None:
        """Keep the papers the store still has, and read the chunk vectors of those it lacks."""
        stored = {pid: meta for pid, meta, _ in self.store.iter_papers(include_text=False)}
        keep = [i for i, pid in enumerate(self.ids) if pid in stored]
        ids = [self.ids[i] for i in keep]
        means = [self.matrix[keep]] if keep else []
        kept_chunks = [np.arange(self.starts[i], self.starts[i + 1]) for i in keep]
        counts = [len(c) for c in kept_chunks]
        chunk_rows = np.concatenate(kept_chunks) if kept_chunks else np.zeros(0, np.int64)
        chunks = [np.asarray(self.chunks[chunk_rows], dtype=np.float16)] if len(chunk_rows) else []
        spans = [self.spans[chunk_rows]] if len(chunk_rows) else []
        fresh = [pid for pid in stored if pid not in self.row]
        for start in range(0, len(fresh), FETCH):
            part = fresh[start:start + FETCH]
            wanted = [cid for pid in part for cid in schema.chunk_ids(stored[pid], pid)]
            got = self.store.chunks.get(ids=wanted, include=["embeddings", "metadatas"])
            per_paper: dict[str, list] = {}
            for cid, emb, meta in zip(got["ids"], got["embeddings"], got["metadatas"]):
                span = (meta["start"], meta["end"]) if "start" in meta else (NO_SPAN, NO_SPAN)
                per_paper.setdefault(meta["paper_id"], []).append((int(cid.rsplit(":", 1)[1]), emb, span))
            for pid in part:
                if pid not in per_paper:
                    continue  # no chunks: an interrupted ingest, written again by the next one
                rows = sorted(per_paper[pid], key=lambda item: item[0])
                block = np.asarray([emb for _, emb, _ in rows], dtype=np.float32)
                mean = block.mean(axis=0)
                means.append((mean / max(float(np.linalg.norm(mean)), 1e-9))[None, :])
                chunks.append(block.astype(np.float16))
                spans.append(np.asarray([span for _, _, span in rows], dtype=np.int32))
                counts.append(len(rows))
                ids.append(pid)
        width = _dimension(means, chunks)
        matrix = np.concatenate(means) if means else np.zeros((0, width), np.float32)
        chunk_matrix = np.concatenate(chunks) if chunks else np.zeros((0, width), np.float16)
        span_matrix = np.concatenate(spans) if spans else np.zeros((0, 2), np.int32)
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        for name, array in (("vectors", matrix), ("chunks", chunk_matrix), ("spans", span_matrix), ("starts", starts)):
            with replacing(self.folder / f"{name}.npy") as partial, partial.open("wb") as out:
                np.save(out, array)
        write_atomic(self.folder / "vector-ids.json", json.dumps(ids))
        write_atomic(self.folder / "vectors.json", json.dumps({"format": FORMAT, "revision": revision,
                                                               "papers": len(ids), "chunks": len(chunk_matrix)}))
        self._load()



def _dimension(means: list, chunks: list) -> int:
    return means[0].shape[1] if means else chunks[0].shape[1] if chunks else 0
