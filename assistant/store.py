"""Chroma storage: one collection of chunks (the vectors searched) and one of papers.

A paper record is written only after all of its chunks, so it is the commit marker:
an ingest killed half-way leaves at most chunks without a paper, which search ignores
and the next ingest overwrites (chunk ids are deterministic). The chunk collection
records the embedding model and chunking, and refuses to open under another model.

Schema 2 keeps each text once. A chunk record holds its vector and where it lies in its
paper's abstract (``start``/``end`` character offsets), not a copy of the text: Chroma
indexes every stored document for full-text search, which was ~45% of the cost of a chunk
write, and search already reads the paper records of its candidates, so a passage is a slice
of text in hand. A paper record holds the abstract and metadata; Chroma requires a vector
per record, and papers are only ever fetched by id, so theirs is a one-number placeholder
rather than a 384-dimension vector that would grow the in-memory HNSW index by ~2.4 KB a
paper for nothing.
"""

from __future__ import annotations

import os
import threading
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator
from urllib.parse import urlparse

import numpy as np

from . import schema
from .errors import ModelMismatchError, StoreBusyError, StoreError
from .filters import FIELDS, LIST_KEYS, Filter
from .locks import LockBusy, locked
from .settings import Settings

PLACEHOLDER = np.ones((1, 1), dtype=np.float32)  # a paper record's vector (see above)
# Papers per read when listing them all. Chroma's embedded client holds ~35 KB per paper of a page while
# it answers (a page of 2,000 paper records raised the peak RSS by 105 MB, of 500 by 50 MB, of 250 by 32 MB,
# reading 20k records in 1.0, 1.0 and 1.5 s; docs/benchmarks.md, "Design decisions").
PAGE = 500
# Paper ids per Chroma call when a filter restricts to papers: each id is one SQL variable, and SQLite
# refuses a statement with over 32,766 ("too many SQL variables"); Chroma answered a 30,000-id `$in`.
ID_BATCH = 1000
FOLLOW_EVERY = 1.0  # seconds between checks for another process's writes
REVISION_KEY = "revision"
REBUILD = ("Re-ingest with `assistant ingest --rebuild PATH ...`, naming the files or folders you loaded "
           "(without PATH it loads the bundled abstracts)")


# What a damaged or unwritable store's own failures say (SQLite's, Chroma's Rust bindings', Python's own), so
# each ends as one line naming the folder and the fix instead of a 70-line traceback.
DAMAGED_DATABASE = ("database disk image is malformed", "file is not a database", "database or disk is full")
DAMAGED_INDEX = ("error getting embedding", "hnsw", "index_metadata", "unpickling", "pickle", "data_level0",
                 "link_lists", "length.bin", "header.bin", "segment reader", "nothing found on disk")
UNWRITABLE = ("readonly database", "read-only", "permission denied", "unable to open database file")


def store_failure(exc: BaseException, folder: Path) -> StoreError | None:
    """The StoreError saying what is wrong with the store in ``folder`` that ``exc`` shows, or None when
    ``exc`` is not a damaged or unwritable store (a bad request, say). The exceptions ``exc`` arose from
    count too: Chroma's client, failing to open a damaged database, fails again as it cleans up
    ("'RustBindingsAPI' object has no attribute 'bindings'")."""
    chain: list[BaseException] = []
    while exc is not None and exc not in chain and len(chain) < 10:
        chain.append(exc)
        exc = exc.__cause__ or exc.__context__
    for each in chain:
        failure = _store_failure(each, folder)
        if failure is not None:
            return failure
    return None


def _store_failure(exc: BaseException, folder: Path) -> StoreError | None:
    said = f"{type(exc).__name__}: {exc}".lower()
    detail = " ".join(str(exc).split())[:160] or type(exc).__name__
    if isinstance(exc, PermissionError) or any(s in said for s in UNWRITABLE):
        return StoreError(f"The store in {folder} cannot be written by this user ({detail}).",
                          f"Give this user write permission on {folder} and the files in it (its owner can run "
                          f"`chmod -R u+w,g+w` or `chown -R`), or set ASSISTANT_HOME to a folder of your own.")
    if any(s in said for s in DAMAGED_DATABASE):
        return StoreError(f"The store in {folder} is damaged: its database chroma.sqlite3 cannot be read ({detail}).",
                          f"Move the folder aside (`mv {folder} {folder}.damaged`), then load the abstracts again "
                          "with `assistant ingest PATH ...` (without PATH: the bundled abstracts).")
    if any(s in said for s in DAMAGED_INDEX):
        return StoreError(f"The store in {folder} is damaged: a file of its vector index cannot be read ({detail}).",
                          REBUILD + ".")
    return None


def _chroma_folder(settings: Settings) -> Path:
    return settings.home / "chroma"


@contextmanager
def failing_clearly(settings: Settings, folder: Path | None = None) -> Iterator[None]:
    """Run the block, a damaged or unwritable store's failure raised as a one-line StoreError naming
    ``folder`` (default: the Chroma folder)."""
    try:
        yield
    except StoreError:
        raise
    except Exception as exc:
        if settings.chroma_url:
            raise
        failure = store_failure(exc, folder or _chroma_folder(settings))
        if failure is None:
            raise
        raise failure from exc


class GuardedCollection:
    """A Chroma collection whose calls fail as one-line StoreErrors when the store is damaged or unwritable
    (``store_failure``); everything else is the collection's own."""

    def __init__(self, collection, settings: Settings) -> None:
        self._collection = collection
        self._settings = settings

    def __getattr__(self, name: str):
        value = getattr(self._collection, name)
        if not callable(value):
            return value

        def call(*args, **kwargs):
            with failing_clearly(self._settings):
                return value(*args, **kwargs)

        return call


@dataclass(frozen=True)
class IndexSpec:
    """What the vectors in a store were made with. Two specs that differ never share a store."""

    embed_model: str
    dimension: int
    chunk_tokens: int
    chunk_overlap: int

    def as_metadata(self) -> dict[str, Any]:
        return {"embed_model": self.embed_model, "embed_dim": self.dimension, "chunk_tokens": self.chunk_tokens,
                "chunk_overlap": self.chunk_overlap, "schema": schema.SCHEMA}


def make_client(settings: Settings):
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False)
    if settings.chroma_url:
        url = urlparse(settings.chroma_url if "://" in settings.chroma_url else f"http://{settings.chroma_url}")
        try:
            return chromadb.HttpClient(host=url.hostname or "localhost", port=url.port or (443 if url.scheme == "https" else 8000),
                                       ssl=url.scheme == "https", settings=chroma_settings)
        except Exception as exc:  # chromadb raises ValueError/ConnectError variants here
            raise StoreError(f"Cannot reach the Chroma server at {settings.chroma_url} ({exc}).",
                             "Start it with `chroma run --path DIR`, or unset ASSISTANT_CHROMA_URL to use the embedded store.") from None
    path = settings.home / "chroma"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"Cannot create the data folder {path} ({exc.strerror}).",
                         "Set ASSISTANT_HOME to a folder you can write to.") from None
    if not writable(path):
        path = read_only_copy(path)
    try:
        with failing_clearly(settings):
            return chromadb.PersistentClient(path=str(path), settings=chroma_settings)
    except StoreError:
        # Chroma keeps the half-started System of a folder it failed to open, and the next client of it
        # fails otherwise ("Could not connect to tenant default_tenant"): forget it, so the next try reads
        # the folder again (once it is repaired, say)
        forget_folder(str(path))
        raise


def writable(folder: Path) -> bool:
    database = folder / "chroma.sqlite3"
    return os.access(folder, os.W_OK) and (not database.exists() or os.access(database, os.W_OK))


def read_only_copy(folder: Path) -> Path:
    """A private copy of a store this process may only read, in the temp folder, deleted at exit.

    Chroma's embedded client writes to its database as it opens it (even to read), so a shared store
    one may not write is searched from a copy: the copy is taken when the store is opened, and a write
    to the store itself fails first with a one-line StoreError (``write_lock``)."""
    import atexit
    import shutil
    import tempfile

    copy = Path(tempfile.mkdtemp(prefix="assistant-read-only-")) / "chroma"
    atexit.register(shutil.rmtree, copy.parent, ignore_errors=True)
    try:
        shutil.copytree(folder, copy)
    except (OSError, shutil.Error) as exc:
        shutil.rmtree(copy.parent, ignore_errors=True)
        raise StoreError(f"The store in {folder} cannot be written by this user, and copying it to read it failed "
                         f"({exc}).", f"Give this user write permission on {folder}, or free space in "
                         f"{copy.parent.parent}.") from None
    return copy


class Store:
    """The two collections of one index. Creation is lazy: reading an empty store creates nothing."""

    def __init__(self, settings: Settings, client=None) -> None:
        self.settings = settings
        self.client = client or make_client(settings)
        self.chunk_name = f"{settings.collection}-chunks"
        self.paper_name = f"{settings.collection}-papers"
        self._chunks = None
        self._papers = None
        self._checked = 0.0
        self._spec: IndexSpec | None = None  # checked when the store was opened, and again on reopening
        self._reopening = threading.Lock()
        self._metadata: tuple[str, dict[str, dict]] | None = None  # (revision, every paper's metadata)

    # -- opening -----------------------------------------------------------------
    def exists(self) -> bool:
        with failing_clearly(self.settings):
            names = {getattr(c, "name", c) for c in self.client.list_collections()}
        return self.chunk_name in names and self.paper_name in names

    def open(self, spec: IndexSpec | None, create: bool = False) -> bool:
        """Open the collections, checking ``spec``. Returns False when the store is empty and ``create`` is off."""
        if self._chunks is not None:
            if spec is not None and self._spec is None:  # opened for listing first, now for vectors
                self._check(self._chunks.metadata or {}, spec)
                self._spec = spec
            return True
        if not self.exists():
            if not create:
                return False
            if spec is None:
                raise StoreError("Cannot create a store without an index spec.")
        config = {"hnsw": {"space": "cosine"}}
        meta = spec.as_metadata() if spec else None
        with failing_clearly(self.settings):
            chunks = GuardedCollection(self.client.get_or_create_collection(
                self.chunk_name, configuration=config, metadata=meta, embedding_function=None), self.settings)
            papers = GuardedCollection(self.client.get_or_create_collection(
                self.paper_name, configuration=config, metadata=meta, embedding_function=None), self.settings)
        if spec is not None:
            self._check(chunks.metadata or {}, spec)
            self._spec = spec
        self._chunks, self._papers = chunks, papers
        return True

    # -- other processes' writes ----------------------------------------------------
    def revision(self) -> str:
        """The stamp every changing ingest puts on the papers collection (as this client last saw it)."""
        return str((self.papers.metadata or {}).get(REVISION_KEY, "0"))

    def bump_revision(self) -> None:
        meta = dict(self.papers.metadata or {})
        meta[REVISION_KEY] = os.urandom(8).hex()
        self.papers.modify(metadata=meta)

    def follow_other_writers(self, force: bool = False) -> None:
        """See what another process wrote since this one opened the store (at most once a second).

        Embedded Chroma keeps each folder's vectors in memory, one copy per process, and never
        reloads them: a long-running process (the web app) would not find papers that
        `assistant ingest` added from a terminal (chroma-core/chroma#3792). When the papers
        collection's revision stamp
        (or the collection itself) changed on disk, the store is opened again from disk. A
        Chroma server holds the only copy, so clients of one need none of this."""
        if self.settings.chroma_url or self._papers is None:
            return
        now = time.monotonic()
        if not force and now - self._checked < FOLLOW_EVERY:
            return
        self._checked = now
        try:
            with failing_clearly(self.settings):
                fresh = self.client.get_collection(self.paper_name)
        except StoreError:
            raise
        except Exception:  # dropped by another process (a rebuild); chromadb raises NotFoundError/ValueError
            fresh = None
        if fresh is not None and fresh.id == self._papers.id and \
                (fresh.metadata or {}).get(REVISION_KEY) == (self._papers.metadata or {}).get(REVISION_KEY):
            return
        with self._reopening:
            self._reopen()

    def _reopen(self) -> None:
        forget_shared_system(self.client)
        client = make_client(self.settings)
        fresh = Store(self.settings, client)
        found = fresh.open(self._spec, create=False)  # another model now: ModelMismatchError, not mixed vectors
        self.client = client
        self._chunks, self._papers = (fresh._chunks, fresh._papers) if found else (None, None)

    def _check(self, found: dict, spec: IndexSpec) -> None:
        wanted = spec.as_metadata()
        if found.get("embed_model") != wanted["embed_model"] or found.get("embed_dim") != wanted["embed_dim"]:
            raise ModelMismatchError(
                f"The store '{self.settings.collection}' was built with the embedding model "
                f"{found.get('embed_model')!r} ({found.get('embed_dim')} dims), but this run uses {spec.embed_model!r} "
                f"({spec.dimension} dims); their vectors cannot be mixed.",
                f"{REBUILD}, or point ASSISTANT_HOME / ASSISTANT_COLLECTION at another store.")
        if found.get("schema", 1) != schema.SCHEMA:
            raise ModelMismatchError(
                f"The store '{self.settings.collection}' was written by an earlier version of the assistant "
                f"(store schema {found.get('schema', 1)}; this version reads and writes schema {schema.SCHEMA}).",
                f"{REBUILD}, or point ASSISTANT_HOME / ASSISTANT_COLLECTION at another store.")
        if (found.get("chunk_tokens"), found.get("chunk_overlap")) != (spec.chunk_tokens, spec.chunk_overlap):
            raise ModelMismatchError(
                f"The store '{self.settings.collection}' was chunked at {found.get('chunk_tokens')}/{found.get('chunk_overlap')} "
                f"word pieces, but the settings ask for {spec.chunk_tokens}/{spec.chunk_overlap}.",
                f"{REBUILD}, or set ASSISTANT_CHUNK_TOKENS/ASSISTANT_CHUNK_OVERLAP back.")

    def drop(self) -> None:
        for name in (self.chunk_name, self.paper_name):
            try:
                self.client.delete_collection(name)
            except Exception:  # chromadb raises NotFoundError/ValueError by version; absent is fine
                pass
        self._chunks = self._papers = None

    @property
    def chunks(self):
        if self._chunks is None:
            raise StoreError("The store is empty.", "Run `assistant ingest` first.")
        return self._chunks

    @property
    def papers(self):
        if self._papers is None:
            raise StoreError("The store is empty.", "Run `assistant ingest` first.")
        return self._papers

    # -- reading ---------------------------------------------------------------
    def counts(self) -> tuple[int, int]:
        if self._chunks is None:
            return 0, 0
        return self._papers.count(), self._chunks.count()

    def iter_papers(self, include_text: bool = False, where: Filter | None = None,
                    include_meta: bool = True, also: dict | None = None) -> Iterator[tuple[str, dict | None, str | None]]:
        """Every paper record ``where`` allows (and Chroma's condition ``also`` on paper records' own keys):
        (id, metadata or None, abstract or None)."""
        if self._papers is None:
            return
        if ((where is not None and where.has_terms) or also is not None) and _plain(also):
            # Chroma evaluates a metadata condition page by page (offset paging), each page scanning again: at
            # 20,000 papers a contribution label took it 60 s; the whole table is read in 0.7 s, once a revision
            table = self.metadata()
            ids = table if where is None or where.paper_ids is None else [pid for pid in where.paper_ids if pid in table]
            chosen = [pid for pid in ids if (where is None or where.allows(table[pid])) and _meets(table[pid], also)]
            texts = self.get_papers(chosen) if include_text else {}
            for pid in chosen:
                yield (pid, dict(table[pid]) if include_meta else None,
                       texts[pid][1] if pid in texts else None)
            return
        include = (["metadatas"] if include_meta else []) + (["documents"] if include_text else [])
        clause = _both(chroma_where(where), also)
        pages = (chroma_call(self._papers.get, ids=part, include=include, where=clause) for part in _id_batches(where)) \
            if where is not None and where.paper_ids is not None else self._pages(include, clause)
        for page in pages:
            for i, pid in enumerate(page["ids"]):
                yield (pid, page["metadatas"][i] if include_meta else None,
                       page["documents"][i] if include_text else None)

    def _pages(self, include: list[str], clause: dict | None) -> Iterator[dict]:
        offset = 0
        while True:
            page = chroma_call(self._papers.get, include=include, limit=PAGE, offset=offset, where=clause)
            yield page
            if len(page["ids"]) < PAGE:
                return
            offset += PAGE

    def metadata(self) -> dict[str, dict]:
        """Every paper's metadata record, read once for each revision of the store (``revision``)."""
        revision = self.revision()
        held = self._metadata
        if held is None or held[0] != revision:
            held = self._metadata = (revision, {pid: meta for pid, meta, _ in self.iter_papers()})
        return held[1]

    def paper_ids(self, where: Filter | None) -> set[str] | None:
        """The ids of the papers ``where`` allows, for what holds no metadata (BM25); None: every paper."""
        if not where:
            return None
        if not where.has_terms:
            return set(where.paper_ids or ())
        return {pid for pid, _meta, _text in self.iter_papers(where=where, include_meta=False)}

    def get_papers(self, ids: list[str]) -> dict[str, tuple[dict, str]]:
        if not ids or self._papers is None:
            return {}
        found: dict[str, tuple[dict, str]] = {}
        for start in range(0, len(ids), ID_BATCH):
            got = self._papers.get(ids=ids[start:start + ID_BATCH], include=["metadatas", "documents"])
            found.update({pid: (got["metadatas"][i], got["documents"][i]) for i, pid in enumerate(got["ids"])})
        return found

    def query_chunks(self, vector, n: int, where: Filter | None = None) -> list[tuple[str, float, dict]]:
        """(chunk id, cosine similarity, metadata), best first; ``passage(meta, text)`` gives the chunk's text.

        A paper-id restriction of any size is asked in batches of ``ID_BATCH`` ids, and the best
        ``n`` of all batches kept. No ``count()`` first: Chroma returns fewer than ``n`` when it holds
        fewer, and the extra call cost ~11 ms per query on a 20k store."""
        embedding = [list(map(float, vector))]
        clause = chroma_where(where)
        clauses = [clause] if where is None or where.paper_ids is None else \
            [_both(clause, {"paper_id": {"$in": part}}) for part in _id_batches(where)]
        found: list[tuple[str, float, dict]] = []
        for each in clauses:
            res = chroma_call(self.chunks.query, query_embeddings=embedding, n_results=n, where=each,
                              include=["metadatas", "distances"])
            found += [(cid, 1.0 - float(dist), meta) for cid, dist, meta in
                      zip(res["ids"][0], res["distances"][0], res["metadatas"][0])]
        return found if len(clauses) == 1 else sorted(found, key=lambda hit: hit[1], reverse=True)[:n]

    # -- writing ---------------------------------------------------------------
    def batches(self, items: list, size: int | None = None) -> Iterable[list]:
        size = size or max(1, min(1000, self.client.get_max_batch_size()))
        for start in range(0, len(items), size):
            yield items[start:start + size]

    def upsert_chunks(self, ids, vectors, metadatas) -> None:
        for part in self.batches(list(range(len(ids)))):
            self.chunks.upsert(ids=[ids[i] for i in part], embeddings=np.asarray(vectors, dtype=np.float32)[part],
                               metadatas=[metadatas[i] for i in part])

    def upsert_papers(self, ids, texts, metadatas) -> None:
        for part in self.batches(list(range(len(ids)))):
            self.papers.upsert(ids=[ids[i] for i in part], embeddings=np.repeat(PLACEHOLDER, len(part), axis=0),
                               documents=[texts[i] for i in part], metadatas=[metadatas[i] for i in part])

    def update_metadata(self, papers: dict[str, dict]) -> None:
        """Change what is known about papers (their sources, say) without re-embedding them: each paper
        record gets its new metadata, and its chunks the part they share (``schema.shared_with_chunks``).

        Chunk ids come from the records (``schema.chunk_ids``) and are written in batches, chunks first:
        looking each paper's chunks up by a metadata filter cost 32 ms a paper on a 3,000-paper store.
        A run killed in between leaves chunks ahead of their paper, which the next ingest writes again."""
        for batch in self.batches(list(papers), 500):
            chunk_ids: list[str] = []
            chunk_metas: list[dict] = []
            for pid in batch:
                shared = schema.shared_with_chunks(papers[pid])
                ids = schema.chunk_ids(papers[pid], pid)
                chunk_ids += ids
                chunk_metas += [shared] * len(ids)
            for part in self.batches(list(range(len(chunk_ids)))):
                self.chunks.update(ids=[chunk_ids[i] for i in part], metadatas=[chunk_metas[i] for i in part])
            self.papers.update(ids=batch, metadatas=[papers[pid] for pid in batch])

    def delete_papers(self, ids: list[str]) -> None:
        """Paper record first, so a crash in between leaves only orphan chunks, never a paper without chunks."""
        for part in self.batches(ids, 200):
            self.papers.delete(ids=part)
            self.chunks.delete(where={"paper_id": {"$in": part}})


def chroma_where(where: Filter | None) -> dict | None:
    """A Filter's field conditions as Chroma's ``where`` (paper ids are handled by the callers, in batches).
    The Filter caps how many values it holds, so the expression stays far below the depth at which
    Chroma's SQLite refuses it (1,000 alternatives: "Expression tree is too large") or crashes."""
    if where is None:
        return None
    clauses = []
    for field, values in where.terms:
        key = FIELDS[field]
        if key in LIST_KEYS:
            options = [{key: {"$contains": v}} for v in values]
            clauses.append(options[0] if len(options) == 1 else {"$or": options})
        else:
            clauses.append({key: values[0]} if len(values) == 1 else {key: {"$in": list(values)}})
    return _both(*clauses) if clauses else None


def _plain(clause: dict | None) -> bool:
    """Whether ``_meets`` reads ``clause``: keys equal to a value, ``$lt``, ``$or`` of such (what the labels use)."""
    if clause is None:
        return True
    if set(clause) == {"$or"}:
        return all(_plain(part) for part in clause["$or"])
    return all(not key.startswith("$") and (not isinstance(value, dict) or set(value) == {"$lt"})
               for key, value in clause.items())


def _meets(meta: dict, clause: dict | None) -> bool:
    """Chroma's reading of a ``_plain`` condition on one record: a key it lacks meets no condition on it."""
    if clause is None:
        return True
    if "$or" in clause:
        return any(_meets(meta, part) for part in clause["$or"])
    for key, value in clause.items():
        held = meta.get(key)
        if held is None:
            return False
        if isinstance(value, dict):
            if not (isinstance(held, (int, float)) and held < value["$lt"]):
                return False
        elif held != value:
            return False
    return True


def _both(*clauses: dict | None) -> dict | None:
    present = [c for c in clauses if c]
    return None if not present else present[0] if len(present) == 1 else {"$and": present}


def _id_batches(where: Filter) -> Iterator[list[str]]:
    ids = sorted(where.paper_ids or ())
    for start in range(0, len(ids), ID_BATCH):
        yield ids[start:start + ID_BATCH]


def chroma_call(method, **kwargs):
    """``method(**kwargs)``, with Chroma's own failures (``InternalError``, ``InvalidArgumentError``, ...)
    turned into a StoreError that front ends show as one line."""
    from chromadb.errors import ChromaError

    try:
        return method(**kwargs)
    except ChromaError as exc:
        raise StoreError(f"The store could not answer this request (Chroma: {type(exc).__name__}: {str(exc)[:200]}).",
                         "Try fewer filter values or a shorter question; the server log has details.") from exc


def forget_shared_system(client) -> None:
    """Make the next client of this folder load it from disk.

    Chroma shares one ``System`` per folder within a process and has no public call to reload it:
    ``client.close()`` stops the System under queries other threads are running, and
    ``SharedSystemClient.clear_system_cache()`` drops every folder's (chroma-core/chroma#3792). So
    this one wrapper forgets our folder's entry in Chroma's registry; the old System lives on for
    in-flight queries and is then collected. ``tests/test_hostile_input.py`` fails if Chroma
    changes the registry under it."""
    forget_folder(getattr(client, "_identifier", None))


def forget_folder(identifier: str | None) -> None:
    """Forget Chroma's shared ``System`` of one folder (its identifier is the folder's path); see above."""
    from chromadb.api.shared_system_client import SharedSystemClient

    SharedSystemClient._identifier_to_system.pop(identifier, None)
    SharedSystemClient._identifier_to_refcount.pop(identifier, None)


@contextmanager
def write_lock(settings: Settings) -> Iterator[None]:
    """One writer per embedded store: a second one gets a clear message instead of corrupting it."""
    if settings.chroma_url:  # the server serialises writes itself
        yield
        return
    path = settings.home / f".{settings.collection}.write.lock"
    with ExitStack() as held:
        with failing_clearly(settings, settings.home):
            settings.home.mkdir(parents=True, exist_ok=True)
            if not os.access(settings.home, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
                raise PermissionError(f"Permission denied: {path}")
            try:
                held.enter_context(locked(path, wait=False))
            except LockBusy:
                holder = path.read_text().strip() or "another process"
                raise StoreBusyError(f"The store in {settings.home} is in use: {holder} is writing to it.",
                                     "Wait for that ingest to finish, then run the command again.") from None
            path.write_text(f"process {os.getpid()}")
        yield
