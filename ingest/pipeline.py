"""Ingestion: parse -> dedupe -> skip unchanged -> chunk -> embed -> write, streamed in windows.

llama-index's ``SentenceSplitter`` does the chunking (``ingest.chunking``). Embedding and writes are our own
code rather than ``IngestionPipeline`` + ``ChromaVectorStore`` because we need three things
those do not give: skipping unchanged papers by content hash *before* embedding, a
paper-level record written after its chunks (crash safety, see ``assistant.store``), and
embedding one window while the previous one is written.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from assistant import schema
from assistant.embedding import Embedder
from assistant.memory import release_free_memory
from assistant.settings import Settings
from assistant.store import IndexSpec, Store

from .chunking import Chunker
from .contributions import TRAINING_FREE, VERSION as LABELLER_VERSION
from .main_contribution import read as read_contributions
from .names import derive_title
from .parse import parse_file, discover
from .records import Record, Skipped

Progress = Callable[[int, int, str], None]
WINDOW = 256  # papers embedded per step: bounds memory whatever the corpus size


@dataclass
class IngestReport:
    papers: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    relabelled: int = 0  # stored papers given new contribution labels and main contribution (no re-embedding)
    chunks: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    seconds: float = 0.0
    rebuilt: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed or self.relabelled or self.rebuilt)

    def as_dict(self) -> dict:
        return {"papers": self.papers, "added": self.added, "updated": self.updated, "removed": self.removed,
                "unchanged": self.unchanged, "relabelled": self.relabelled, "chunks": self.chunks,
                "skipped": [s.as_dict() for s in self.skipped], "seconds": round(self.seconds, 2)}


@dataclass
class Paper:
    """One unique abstract with every place it was found."""

    id: str
    text: str
    metadata: dict
    sources: list[dict]

    @classmethod
    def merge(cls, records: list[Record]) -> "Paper":
        first = records[0]
        metadata: dict = {}
        for rec in records:
            for key, value in rec.metadata.items():
                metadata.setdefault(key, value)
        sources = sorted({rec.source.as_dict()["path"] + f"#{rec.source.position}": rec.source.as_dict() for rec in records}.values(),
                         key=lambda s: (s["file"], s["position"]))
        return cls(first.id, first.text, metadata, sources)


def ingest_paths(paths: Iterable[Path | str], *, store: Store, embedder: Embedder, settings: Settings,
                 progress: Progress | None = None, rebuild: bool = False) -> IngestReport:
    started = time.perf_counter()
    report = IngestReport()
    paths_list = list(paths)
    files, report.skipped = discover(paths_list)
    records: list[Record] = []
    authoritative: set[str] = set()  # files read cleanly: what they no longer hold is removed
    for number, path in enumerate(files, 1):
        found, problems = parse_file(path)
        records.extend(found)
        report.skipped.extend(problems)
        if found and not problems:
            authoritative.add(str(path.resolve()))
        if progress:
            progress(number, len(files), "reading")

    # A folder is authoritative for what it holds: a file deleted from it takes its papers along.
    folders = [str(Path(p).expanduser().resolve()) + os.sep for p in paths_list if Path(p).expanduser().is_dir()]

    grouped: dict[str, list[Record]] = {}
    for rec in records:
        grouped.setdefault(rec.id, []).append(rec)
    incoming = {pid: Paper.merge(recs) for pid, recs in grouped.items()}
    del records, grouped  # from here on each paper is held once, and dropped once written

    spec = IndexSpec(embedder.name, embedder.dimension, settings.chunk_tokens, settings.chunk_overlap)
    if rebuild:
        store.drop()
        report.rebuilt = True
    if incoming or store.exists():
        store.open(spec, create=bool(incoming))
    existing = {pid: meta for pid, meta, _ in store.iter_papers()}

    to_add: list[Paper] = []
    to_update: list[tuple[str, dict]] = []
    to_remove: list[str] = []
    for meta in existing.values():
        for source in schema.read_sources(meta):
            if source["path"].startswith(tuple(folders)) and not Path(source["path"]).exists():
                authoritative.add(source["path"])
    for pid, meta in existing.items():
        old_sources = schema.read_sources(meta)
        kept = [s for s in old_sources if s["path"] not in authoritative]
        new = incoming.get(pid)
        merged = _merge_sources(kept, new.sources if new else [])
        # what the data says now (a field read since the paper was stored, a decision made since): no re-embedding
        refreshed = schema.with_data_fields(meta, new.metadata) if new is not None else meta
        if not merged:
            to_remove.append(pid)
        elif merged != old_sources or refreshed != meta:
            to_update.append((pid, schema.with_sources(refreshed, merged)))
        elif new is not None:
            report.unchanged += 1
    to_add = [paper for pid, paper in incoming.items() if pid not in existing]
    incoming.clear()

    removed = set(to_remove)
    to_relabel = [pid for pid, meta in existing.items() if pid not in removed and meta.get(schema.LABELLER_KEY) != LABELLER_VERSION]
    changing = bool(to_add or to_update or to_remove or to_relabel)
    if changing:  # stamped before writing too, so a killed run still leaves the BM25 index marked stale
        store.bump_revision()  # every lexical index of this store syncs on its next use
    if to_remove:
        store.delete_papers(to_remove)
    store.update_metadata(dict(to_update))
    report.relabelled = _relabel(store, to_relabel)
    report.added = len(to_add)
    with _encoder_for(len(to_add), embedder, settings) as encoder:
        _embed_and_write(to_add, store=store, encoder=encoder, chunker=Chunker(embedder, settings) if to_add else None,
                         progress=progress)

    if changing:
        store.bump_revision()  # every lexical index of this store syncs on its next use
    report.updated, report.removed = len(to_update), len(to_remove)
    report.papers, report.chunks = store.counts()
    report.seconds = time.perf_counter() - started
    return report


def _relabel(store: Store, paper_ids: list[str]) -> int:
    """Give stored papers the current labeller's contribution labels (on their records and chunks), main
    contribution and data uses (on their records), and a title derived again when the data gave none (the
    BM25 index re-reads a retitled paper on its next sync).

    Only metadata is written (Chroma merges it into what a record has), so nothing is re-embedded.
    Chunk ids are ``{paper}:{i}`` for i below the paper's ``n_chunks``, so they are updated by id
    in one call per batch (as ``Store.update_metadata`` does), not looked up by a metadata filter, which is
    slow on a large store. Chunks go first and the paper's
    version last: a run killed in between relabels that paper again next time."""
    for batch in store.batches(paper_ids, 500):
        found = store.get_papers(batch)
        chunk_ids: list[str] = []
        chunk_metas: list[dict] = []
        paper_metas: list[dict] = []
        for pid in batch:
            if pid not in found:  # deleted meanwhile by another client of a Chroma server
                continue
            meta, text = found[pid]
            read = read_contributions(schema.given_title(meta), text)
            chunks = schema.chunk_ids(meta, pid)
            chunk_ids += chunks
            chunk_metas += [{"contributions": read.labels}] * len(chunks)
            paper_metas.append({**_label_metadata(read),
                                **({} if schema.given_title(meta) else {"title": derive_title(text)})})
        for part in store.batches(list(range(len(chunk_ids)))):
            store.chunks.update(ids=[chunk_ids[i] for i in part], metadatas=[chunk_metas[i] for i in part])
        if paper_metas:
            store.papers.update(ids=[pid for pid in batch if pid in found], metadatas=paper_metas)
    return len(paper_ids)


def _label_metadata(read) -> dict:
    """What a paper record holds of its labelling (``ingest.main_contribution.read``), and by which rules."""
    return {"contributions": read.labels, schema.MAIN_CONTRIBUTION: read.main, schema.DATA_USES: ",".join(read.data_uses),
            schema.METHOD_FORMS: ",".join(read.method_forms), schema.TRAINING_FREE: TRAINING_FREE in read.method_forms,
            schema.SAVINGS: ",".join(read.savings), **{schema.SAVES[phase]: phase in read.savings for phase in schema.SAVES},
            schema.LABELLER_KEY: LABELLER_VERSION}


def _merge_sources(kept: list[dict], new: list[dict]) -> list[dict]:
    by_key = {(s["path"], s["position"]): s for s in kept + new}
    return sorted(by_key.values(), key=lambda s: (s["file"], s["position"], s["path"]))


@dataclass
class _Window:
    """One step of the ingest: up to WINDOW papers, chunked and ready to embed."""

    paper_ids: list[str]
    paper_texts: list[str]
    paper_metas: list[dict]
    chunk_ids: list[str]
    chunk_texts: list[str]
    chunk_metas: list[dict]


def _prepare(window: list[Paper], chunker: Chunker) -> _Window:
    out = _Window([p.id for p in window], [p.text for p in window], [], [], [], [])
    for paper, pieces in zip(window, chunker.split_all(out.paper_texts)):
        given = paper.metadata.get("title")
        meta = schema.paper_metadata(given or derive_title(paper.text), bool(given), paper.metadata, paper.sources,
                                     len(pieces))
        read = read_contributions(str(given or ""), paper.text)
        meta.update(_label_metadata(read))
        out.paper_metas.append(meta)
        for index, (piece, span) in enumerate(zip(pieces, schema.spans(paper.text, pieces))):
            out.chunk_ids.append(schema.chunk_id(paper.id, index))
            out.chunk_texts.append(piece)
            out.chunk_metas.append(schema.chunk_metadata(paper.id, meta, span))
    return out


def _encoder_for(new_papers: int, embedder: Embedder, settings: Settings):
    """The encoder of this ingest: in a child process when there are several windows to overlap.

    One window has nothing to overlap with, and the child costs ~1 s to start and a second
    copy of the model; torch keeps its own threads in this process (ingest.encoder_process).
    """
    if settings.embed_process and embedder.backend != "torch" and new_papers > WINDOW:
        from .encoder_process import EncoderProcess

        return EncoderProcess(embedder)
    return nullcontext(embedder)


def _embed_and_write(papers: list[Paper], *, store: Store, encoder, chunker: Chunker | None,
                     progress: Progress | None) -> None:
    """Three stages at once: window i+1 is chunked and window i-1 written while window i is embedded.

    An encoder in a child process (``ingest.encoder_process``) is sent window i+1 before
    window i's vectors are collected, so it goes from one window to the next without a pause.

    The encoder's kernels run without the GIL on every core; chunking (llama-index's splitter)
    and Chroma's embedded writes are Python that holds it. Run one after another, they left the
    cores half idle (ingest used ~1.6 of 2); each in its own thread, the GIL-bound stages fill
    the time the encoder leaves.

    Consumes ``papers``: each window is taken off the list, so a paper's text is freed once
    it has been written and the corpus is never held whole while Chroma's index grows.
    """
    if not papers:
        return
    total = len(papers)
    if progress:  # the bar starts now, so its rate and time left count the first window too
        progress(0, total, "embedding")
    papers.reverse()  # windows are popped off the end, in the original order

    def next_window() -> list[Paper]:
        return [papers.pop() for _ in range(min(WINDOW, len(papers)))]

    ahead = hasattr(encoder, "send")  # a child process takes the next window while this one is finished
    pending: Future | None = None
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="chunker") as chunking, \
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="chroma-writer") as writer:
        upcoming: Future | None = None

        def chunked() -> _Window | None:
            """The window being chunked (None after the last), and the next one set going."""
            nonlocal upcoming
            ready = upcoming.result() if upcoming is not None else None
            upcoming = chunking.submit(_prepare, next_window(), chunker) if papers else None
            return ready

        window: _Window | None = _prepare(next_window(), chunker)
        chunked()
        if ahead:
            encoder.send(window.chunk_texts)
        done = 0
        while window is not None:
            if ahead:  # queue the next window first, so the child never waits for this process
                following = chunked()
                if following is not None:
                    encoder.send(following.chunk_texts)
                vectors = encoder.receive()
            else:  # the next window is chunked while this one is embedded
                vectors = encoder.embed(window.chunk_texts)
                following = chunked()
            window.chunk_texts.clear()
            if pending is not None:
                pending.result()
                release_free_memory()
            pending = writer.submit(_write_window, store, window, vectors)
            done += len(window.paper_ids)
            if progress:
                progress(done, total, "embedding")
            window = following
        if pending is not None:
            pending.result()


def _write_window(store: Store, window: _Window, vectors) -> None:
    store.upsert_chunks(window.chunk_ids, vectors, window.chunk_metas)
    store.upsert_papers(window.paper_ids, window.paper_texts, window.paper_metas)  # commit marker, written last
