"""The composition root: one ``Assistant`` built from one ``Settings``; every front end is a client of it."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Iterable

from .embedding import Embedder
from .errors import AssistantError, InputError, StoreError
from .reading.references import BACK_TO, GROUP_REFERENCE, MEMBERSHIP, leans_on_an_answer, of_the_store, points_inside
from .filters import Filter
from .llm import Stoppable
from .plan import FORMS, Plan, beyond_the_set, broadened, make_plan, unanchored
from .reading.for_answering import read_for_answering
from .reading.question_text import asked
from .reading.question_forms import is_compare
from .results import PaperHit
from .settings import SETTINGS_PAGE, Settings, bundled_corpus
from .store import IndexSpec, Store, write_lock


@dataclass
class Found:
    """What ``Assistant.find`` returns: the plan, the papers of the page asked for, and how many in all."""

    plan: Plan
    hits: list[PaperHit]
    total: int
    empty_topics: list[str]
    unsure: int = 0  # papers besides these that may answer (a list's relevance decision is unsure of them)
    none_on_all: list[str] = field(default_factory=list)  # what the question combines, when no paper is on all of it

    @property
    def more(self) -> int:
        """Papers that answer the query on later pages (a list query finds one page)."""
        return self.plan.later(len(self.hits), self.total)

    @property
    def next_page(self) -> int | None:
        """The page that lists the next of the ``more`` papers, or None when this page is the last."""
        return self.plan.page_after(self.more)

    def as_dict(self) -> dict:
        return {"plan": self.plan.as_dict(), "total": self.total, "more": self.more, "next_page": self.next_page,
                "results": [h.as_dict() for h in self.hits], "empty_topics": self.empty_topics,
                "unsure": self.unsure, "none_on_all": self.none_on_all}


MAX_PAGE = 10_000  # pages of a list answer: 200,000 papers at 20 a page
# How sure the kind classifier must be that a question asks for the best papers on a topic to overrule the rules'
# contribution reading (overruling their list reading too lost on dev, docs/retrieval.md): held out (leave-one-set-out over 35 sets), 96% of its readings at p >= 0.9 are right
# (scripts/train_kinds.py); 82% of the corpus's tldrs (descriptions of one paper) are read as topic, 64% at 0.7.
KIND_SURE = 0.90


class Assistant:
    """Search and answer over a store of paper abstracts.

    >>> assistant = Assistant(Settings.from_env())
    >>> assistant.ingest()                       # the bundled ICLR 2026 abstracts
    >>> assistant.search("which papers reduce reasoning token usage", k=5)
    """

    def __init__(self, settings: Settings | None = None, *, embedder: Embedder | None = None) -> None:
        self.settings = settings or Settings.from_env()
        self._embedder = embedder
        self._backends: dict[str, object] = {}  # concrete backend name -> backend (None for "none")
        self._proposals: dict[tuple, dict | None] = {}  # (backend, question, filters) -> the model's plan proposal
        self._venues: tuple[str, list, list] | None = None  # (store revision, its venues, its years)
        self._facets: tuple[str, dict] | None = None  # (store revision, its filter values) for area= and decision=

    # -- parts, built on first use so that `--help` and cheap commands stay fast -----
    @cached_property
    def embedder(self) -> Embedder:
        return self._embedder or Embedder.from_settings(self.settings)

    @cached_property
    def store(self) -> Store:
        return Store(self.settings)

    def _spec(self) -> IndexSpec:
        s = self.settings
        return IndexSpec(self.embedder.name, self.embedder.dimension, s.chunk_tokens, s.chunk_overlap)

    def _open_for_reading(self) -> bool:
        return self.store.open(self._spec(), create=False)

    def _open_existing(self) -> bool:
        """Open the store for listing (no model needed), following other processes' writes."""
        if not self.store.open(None, create=False):
            return False
        self.store.follow_other_writers()
        return self.store.open(None, create=False)

    # -- the library API -----------------------------------------------------------
    def ingest(self, paths: Iterable[Path | str] | None = None, *, progress=None, rebuild: bool = False):
        """Add abstracts from files or folders (default: the bundled corpus). Returns an ``IngestReport``."""
        from ingest.pipeline import ingest_paths

        targets = list(paths) if paths else [bundled_corpus()]
        with write_lock(self.settings):
            self.store.follow_other_writers(force=True)  # start from what another process added
            report = ingest_paths(targets, store=self.store, embedder=self.embedder, settings=self.settings,
                                  progress=progress, rebuild=rebuild)
            if report.changed:  # pay the indexing here, not on the next query
                self.lexical.sync()
                self.ranker.keywords.sync()
                self.ranker.vectors.ensure_current()
        return report

    def ingest_openreview(self, venue_id: str, *, progress=None, rebuild: bool = False, page_size: int | None = None):
        """Download a venue's submissions from OpenReview (``ASSISTANT_OPENREVIEW_URL``) into
        ``<home>/downloads/``, resuming an interrupted download, then ingest that file.
        Returns ``(Fetched, IngestReport)``."""
        from ingest.openreview import PAGE_LIMIT, download_name, fetch

        dest = self.settings.home / "downloads" / f"{download_name(venue_id)}.jsonl"
        fetched = fetch(venue_id, dest, base_url=self.settings.openreview_url, progress=progress,
                        page_size=page_size or PAGE_LIMIT)
        return fetched, self.ingest([fetched.path], progress=progress, rebuild=rebuild)

    @cached_property
    def lexical(self):
        from .lexical import LexicalIndex, index_folder

        s = self.settings
        return LexicalIndex(self.store, index_folder(s.home, s.collection, s.chroma_url))

    @cached_property
    def searcher(self):
        from .search import HybridSearcher

        if not self._open_for_reading():
            raise StoreError("The store is empty.", "Run `assistant ingest` to load the bundled abstracts, or `assistant ingest PATH`.")
        return HybridSearcher(self.store, self.embedder, self.lexical, self.ranker)

    @cached_property
    def ranker(self):
        """The order of papers before any reading of the question (``retrieval.ranking``), over the BM25 index,
        the keyword field's and the paper vectors, which live beside the BM25 index."""
        from .lexical import LexicalIndex
        from .retrieval.paper_vectors import PaperVectors
        from .retrieval.ranking import PaperRanker

        if not self._open_for_reading():
            raise StoreError("The store is empty.", "Run `assistant ingest` to load the bundled abstracts, or `assistant ingest PATH`.")
        folder = self.lexical.folder
        vectors = PaperVectors(self.store, folder.with_name(f"{folder.name}-vectors"))
        return PaperRanker(self.store, self.lexical, vectors, LexicalIndex(self.store, folder, field="keywords"))

    def search(self, query: str, k: int | None = None, *, where: Filter | dict[str, Any] | str | None = None,
               page: int = 1, page_size: int | None = SETTINGS_PAGE) -> list[PaperHit]:
        """The papers relevant to ``query``, best first, possibly none: at most ``k`` for a topic
        question, a page of every relevant paper for a list question (see ``find``). ``where``: a
        ``Filter``, or what ``Filter.parse`` reads (``"year=2026; file=a.txt"``, ``{"year": 2026}``)."""
        return self.find(query, k=k, where=where, page=page, page_size=page_size).hits

    def find(self, query: str, k: int | None = None, *, where: Filter | dict[str, Any] | str | None = None,
             page: int = 1, page_size: int | None = SETTINGS_PAGE, conversation=None):
        """Plan ``query`` and find its papers: a ``Found`` with the plan, the page of hits and the total."""
        where = self._filter(where)
        plan = self.plan(query, where=where, page=page, page_size=page_size, conversation=conversation, name="query")
        plan, selection = self._selected(plan, k=k, where=where)
        return Found(plan, selection.page(plan), selection.total, selection.empty_topics, selection.unsure,
                     selection.none_on_all)

    def _selected(self, plan: Plan, *, k: int | None, where):
        """``plan`` and its selection; when no paper has the kind a "mainly" question asks for as its main
        contribution, the broadened plan (``plan.broadened``) and its papers instead, and when no paper of the last
        answer fits a follow-up, the best papers of the whole store on it (``plan.beyond_the_set``)."""
        selection = self.select(plan, k=k, where=where)
        if selection.described_several:  # "what's hot in RL this year?" names no paper, and describes none clearly
            plan = replace(plan, kind="topic", form=FORMS["topic"], source=f"{plan.source}, no one paper described")
            selection = self.select(plan, k=k, where=where)
        wider = (broadened(plan) or beyond_the_set(plan)) if not selection.hits else None
        if wider is not None:
            found = self.select(wider, k=k, where=where)
            plan, selection = (wider, found) if found.hits else (plan, selection)
        from .selection import apart

        if plan.kind == "compare" and plan.restrict_to is not None and (selection.found or 0) > len(selection.hits) > 1:
            plan = replace(plan, compared_best=len(selection.hits))  # the plan line says which of the set it compares
        selection = self._with_the_described(plan, selection, where, self._check_k(k))
        return plan, apart(plan, selection, self.searcher)  # no paper on all the question combines: say so

    def _with_the_described(self, plan: Plan, selection, where, k: int):
        """``selection`` with the paper the question describes first, when the ranking core finds that it describes
        one (``PaperRanker.known_item``) and the plan's reading left it out: "a method that retrieves logits from a
        small reference set to improve decoding" read as asking for methods. Not for a plan about given papers
        (a follow-up, a comparison, a named paper), nor for a page after the first."""
        from .results import PaperHit
        from .selection import Selection

        if plan.restrict_to is not None or plan.kind in ("compare", "named", "out_of_scope") or plan.like \
                or plan.unanchored or not plan.query.strip() or getattr(plan, "page", 1) != 1:
            return selection
        where = self._filter(where)
        allowed = self.store.paper_ids(where)
        vector = self.embedder.embed_query(plan.query)
        known = self.ranker.known_item(plan.query, vector, allowed=allowed)
        if known is None or any(h.id == known.id for h in selection.hits):
            return selection
        records = self.store.get_papers([known.id])
        if known.id not in records:
            return selection
        meta, text = records[known.id]
        best = self.ranker.vectors.best_chunks([known.id], vector).get(known.id)
        passage = text[best[2][0]:best[2][1]] if best and best[2][0] >= 0 else ""
        hit = PaperHit.from_store(known.id, meta, text, score=known.score, passage=passage)
        found = None if selection.found is None else selection.found + 1
        hits = [hit, *selection.hits] if plan.paged else [hit, *selection.hits][:k]
        return Selection(hits, selection.empty_topics, selection.store, found, selection.unsure)

    def understand(self, question: str, conversation=None, *, where: Filter | dict[str, Any] | str | None = None,
                   llm: str | None = None) -> Plan:
        """The one reading of ``question`` (with the ``conversation`` it follows): its ``Plan``. Answering reads the
        plan, never the question's text again (``stream(question, plan=...)``; tests/test_understand.py)."""
        return self.plan(question, where=where, conversation=conversation, llm=llm, propose=True)

    def plan(self, question: str, *, where: Filter | dict[str, Any] | str | None = None, page: int = 1,
             page_size: int | None = SETTINGS_PAGE, conversation=None, name: str = "question",
             llm: str | None = None, propose: bool = False, stop: threading.Event | None = None) -> Plan:
        """The question plan (``assistant.plan``): its kind, topics, papers and answer form. With a capable
        ``llm`` backend, a follow-up the rules can only read together with the last question is rewritten
        by the model into a standalone question, if the rules accept the rewrite; with ``propose`` (answers,
        not searches) the model may propose the plan of any other question (``plan_proposal``). Once
        ``stop`` is set (Stop, a deadline), the model's reading is given up for the rules' own."""
        from .reading.query_focus import focus, topics

        # misspelt words read as the papers spell them first: "how is DeepEyes diffrent from RAPID?" compares
        question = asked(self.searcher.lexical.respelled(self._check_question(question, name)))
        if conversation is None or not conversation.answered:
            question = of_the_store(question)  # "which of these papers ...?" asked first
        parsed, question = self._said_venues(question, self._filter(where))
        where = str(parsed or "") or None  # the plan shows the filters as text
        resolved = conversation.resolve(question) if conversation is not None else None
        _spelled, named = self.searcher.lexical.read_names(focus(question))
        named = self._named_not_in_passing(focus(question), named, parsed)
        if resolved is not None and named and resolved.restrict_to is not None and not resolved.pick_one \
                and not resolved.adding and not is_compare(question) and (not GROUP_REFERENCE.search(question) or (
                    MEMBERSHIP.search(question) and not set(named) & set(resolved.restrict_to))
                    or BACK_TO.match(question)):  # "Going back to NuRL: what did they find?" is about NuRL
            # "tell me more about LASER-D" names its paper ("compare it to LASER-D" needs "it"); "is ZeroSiam
            # among them?" when it is not: the paper asked about
            resolved = None
        if resolved is not None and named and resolved.restrict_to is None and not (resolved.switch_to or resolved.like):
            resolved = None  # "tell me more about LASER-D" names what it asks about: not read with the last question
        if not named and leans_on_an_answer(question) and (conversation is None or not conversation.answered) \
                and not points_inside(question):
            plan = unanchored(question, where)  # "how do they differ?" first: there is no "they"
        elif resolved is not None and resolved.switch_to:
            query = resolved.switch_to
            plan = make_plan(query, query=focus(query), topics=[focus(t) for t in topics(query)], named=named,
                             filters=where)
            if plan.kind in ("topic", "list") and resolved.last_kinds.contributions:  # "and in physics?" after benchmarks
                plan.kind, plan.form = "contribution", "list"
                resolved.last_kinds.give(plan)
            elif plan.kind == "topic" and (resolved.last_kind in ("list", "contribution", "followup", "compare")
                                           or resolved.besides):
                plan.kind, plan.form = "list", "list"  # "and for robotics?" after a list, "are there others on X?"
            plan.question, plan.resolution, plan.besides = question, resolved.why, list(resolved.besides or [])
        else:
            query = resolved.query if resolved is not None and resolved.rewritten and resolved.restrict_to is None else question
            condensed = self._condensed(question, conversation, llm, stop) if query is not question else None
            if condensed is not None:
                query, resolved.why, source = condensed  # the model's standalone question, checked by the rules
            if query is not question:
                named = self.searcher.lexical.read_names(focus(query))[1]
            plan = make_plan(question, query=focus(query), topics=[focus(t) for t in topics(query)], named=named,
                             filters=where, followup=resolved if resolved is not None and (
                                 resolved.restrict_to or resolved.like or resolved.left_out) else None)
            if resolved is not None and resolved.rewritten and not plan.resolution:
                plan.resolution = resolved.why
            if condensed is not None:
                plan.source = source
            elif resolved is None and propose:
                plan = self._proposed(plan, named, llm, parsed, stop)
        if resolved is None and plan.source == "rules":
            plan = self._as_the_kind_model_reads(plan)
        read_for_answering(plan, self._venue_words(plan.question))
        if plan.kind == "compare" and plan.restrict_to is not None:
            self._add_compared(plan, parsed)
        page = self._check_page(page)
        if page_size == SETTINGS_PAGE:
            page_size = self.settings.page_size
        if page_size is not None and (not isinstance(page_size, int) or not 1 <= page_size <= self.settings.max_k):
            raise InputError(f"page_size={page_size!r} is out of range.",
                             f"Use 1 to {self.settings.max_k} papers a page, or None for every paper.")
        plan.page, plan.page_size = page, page_size
        return plan

    @cached_property
    def kinds(self):
        """The question-kind classifier (``reading.kinds``), its weights read once."""
        from .reading.kinds import KindClassifier

        return KindClassifier.load()

    def _as_the_kind_model_reads(self, plan: Plan) -> Plan:
        """``plan`` as a question on a topic when the rules read a kind of contribution and the learned
        kind classifier is sure (``KIND_SURE``) that it asks for the best papers on a topic: a question describing
        one paper ("We introduce a toolkit to analyze the reversibility of unlearning") is no request for every
        tool. Not for a list of every paper, of the papers a question does not fit, or with nothing to search."""
        if plan.kind != "contribution" or plan.whole_store or plan.exclude or not plan.query.strip():
            return plan
        (kind, probability), = self.kinds.predict(self.embedder.embed([plan.question]), [plan.question])
        if kind != "topic" or probability < KIND_SURE:
            return plan
        return replace(plan, kind="topic", form=FORMS["topic"], contributions=[], mainly=False, data_use=None,
                       method_form=None, every_kind=False, examples=[], examples_of="", means=[], without="",
                       not_kind=(), training="", saves="", source="rules, kind model")

    def _named_not_in_passing(self, text: str, named: list[str], where: Filter | None) -> list[str]:
        """``named``, or none when the question describes another paper and names these in passing: the ranking
        core finds that it describes one paper (``PaperRanker.known_item``) and it is none of them ("We present
        FVQ, a tokenizer ... for VAR" describes FVQ's paper, not the paper titled "VAR: ...")."""
        if not named:
            return named
        known = self.ranker.known_item(text, self.embedder.embed_query(text), allowed=self.store.paper_ids(where))
        return named if known is None or known.id in named else []

    def _add_compared(self, plan: Plan, where: Filter | None) -> None:
        """'How does it compare to TTM?' after an answer: the paper it is set against, by a name too short for the
        speller ('TTM', 'ECA') or a description ('the PRM calibration paper'), found as a comparison finds each
        of its papers (``selection.compared_paper``), and added to the plan's papers."""
        from .reading.question_text import REFERENCES
        from .selection import compared_paper

        said = plan.compared
        names = [n for n in said if n.lower() not in REFERENCES]
        # set against the last answer ("it", "they") and some name found no paper yet; "how do their goals differ?"
        # sets nothing against them
        if len(names) > len(plan.added) and len(names) < len(said):
            for name in names:
                hit = compared_paper(name, self.searcher, where, plan.restrict_to)
                if hit is not None and hit.id not in plan.restrict_to:
                    plan.restrict_to.append(hit.id)
                    plan.papers.append(hit.id)
                    plan.added.append(hit.id)

    def _store_venues(self) -> tuple[list, list]:
        """The store's venues and years, read once a store revision (every record: 1.8 s at 20,000 papers)."""
        revision = self.store.revision() if self._open_existing() else ""
        if self._venues is None or self._venues[0] != revision:
            facets = self.facets()
            self._venues = (revision, facets["venue"], facets["year"])
        return self._venues[1], self._venues[2]

    def _venue_words(self, question: str) -> list[str]:
        """The words ``question`` says as a venue that no abstract holds ("NeurIPS" of "NeurIPS papers on RL")."""
        from .venues import venue_like

        return venue_like(question, self.lexical.unknown_words(question))

    def _said_venues(self, question: str, parsed: Filter | None) -> tuple[Filter | None, str]:
        """The filters with the venue or year the question says ("Which ICLR 2026 papers ...", see
        ``venues.said_venues``), and the question without it; both unchanged when it says none the store
        holds, or the filters choose a venue or year already."""
        from .venues import MAY_SAY_A_VENUE, said_venues

        if not MAY_SAY_A_VENUE.search(question) or (parsed is not None and {"venue", "year"} & set(parsed.fields)):
            return parsed, question
        # a venue is a word no abstract holds ("ICLR"): "GRPO" or "LLM" read no records (at 20,000 papers, reading
        # every record for the store's venues took 1.8 s, once a store revision)
        unknown = set(self.searcher.lexical.unknown_words(question)) if self._open_for_reading() else set()
        if not unknown & set(MAY_SAY_A_VENUE.findall(question)):
            return parsed, question
        items, rest = said_venues(question, *self._store_venues())
        if not items:
            return parsed, question
        given = [(field, value) for field, values in (parsed.terms if parsed is not None else ()) for value in values]
        return Filter(Filter.of(given + items).terms, parsed.paper_ids if parsed is not None else None), rest

    def _capable_backend(self, llm: str | None, stop: threading.Event | None = None):
        """The backend ``llm`` names when it is capable (``synthesis.capable``), else None; its calls
        give up once ``stop`` is set."""
        from .synthesis import capable

        if llm == "none" or (llm is None and self.settings.llm == "none"):
            return None
        try:
            backend, _note = self.backend(llm)
        except AssistantError:
            return None  # the answer will say why the backend cannot be used
        if not capable(backend):
            return None
        return Stoppable(backend, stop) if stop is not None else backend

    def _condensed(self, question: str, conversation, llm: str | None,
                   stop: threading.Event | None = None) -> tuple[str, str, str] | None:
        """(standalone question, why, plan source) from a capable backend, when its rewrite passes the
        rules' check."""
        from .synthesis import condense

        backend = self._capable_backend(llm, stop) if conversation.turns else None
        if backend is None:
            return None
        last = conversation.turns[-1]
        try:
            standalone = condense(backend, question, last.question, last.citation_titles[:10])
        except AssistantError:
            return None
        if not standalone:
            return None
        return standalone, f"rewritten by {backend.name}: {standalone}", f"rules, with {backend.name}'s rewrite"

    def _proposed(self, plan: Plan, named: list[str], llm: str | None, where: Filter | None,
                  stop: threading.Event | None = None) -> Plan:
        """``plan``, or a capable backend's proposal for it when the rules accept that (``plan_proposal``).
        A question's proposal is remembered, so its later pages are planned alike."""
        from .plan_proposal import propose, review
        from .search import LIST_GATE

        backend = self._capable_backend(llm, stop) if self.settings.llm_plans and plan.kind != "out_of_scope" else None
        if backend is None:
            return plan
        key = (backend.name, plan.question, plan.filters)
        if key not in self._proposals:
            try:
                self._proposals[key] = propose(backend, plan.question)
            except AssistantError as exc:
                plan.source = f"rules ({backend.name} could not plan: {exc.message})"
                return plan
            while len(self._proposals) > 256:
                self._proposals.pop(next(iter(self._proposals)))
        def finds(text: str) -> bool:
            return any(c.relevance >= LIST_GATE.abstain or c.named for c in self.searcher.candidates(text, where=where))

        return review(self._proposals[key], plan, named=named, model=backend.name, finds=finds)

    def compare_plan(self, paper_ids: list[str], why: str = "", *,
                     where: Filter | dict[str, Any] | str | None = None) -> Plan:
        """A plan comparing these papers side by side (the chat's ``/compare 1 3``), of those matching ``where``."""
        if len(paper_ids) < 2:
            raise InputError("A comparison needs two papers or more.", "Name two source numbers, e.g. /compare 1 3.")
        question = f"compare {len(paper_ids)} papers"
        return Plan(question=question, kind="compare", query="", form="comparison", papers=list(paper_ids),
                    restrict_to=list(paper_ids), resolution=why or f"{len(paper_ids)} chosen papers",
                    filters=str(self._filter(where) or "") or None)

    def select(self, plan: Plan, *, k: int | None = None, where: Filter | dict[str, Any] | str | None = None):
        """The papers ``plan`` cites (a ``selection.Selection``): retrieval and the plan decide, never the model."""
        from .search import Gate
        from .selection import select

        s = self.settings
        return select(plan, self.searcher, k=self._check_k(k), topic_gate=Gate(s.min_score, s.relative_score),
                      where=self._filter(where))

    def papers(self, where: Filter | dict[str, Any] | str | None = None) -> list[PaperHit]:
        """Every paper in the store (with its full abstract), ordered by title."""
        where = self._filter(where)
        if not self._open_existing():
            return []
        return sorted((PaperHit.from_store(pid, meta, text or "") for pid, meta, text in
                       self.store.iter_papers(include_text=True, where=where)), key=lambda p: p.title.lower())

    def facets(self, papers: list[PaperHit] | None = None) -> dict[str, list]:
        """The filter values the store's papers have, for offering filters:
        ``{"file": [...], "year": [2026, ...], "venue": [...], "decision": [...], "keyword": [...]}``
        (see ``filters.facet_values``). Given ``papers`` (what ``papers()`` returned), from those
        instead of reading every record again."""
        from .filters import facet_values

        if papers is not None:
            return facet_values({**p.metadata, "files": sorted({s["file"] for s in p.sources})} for p in papers)
        if not self._open_existing():
            return facet_values([])
        return facet_values(meta for _pid, meta, _text in self.store.iter_papers())

    def stats(self) -> dict[str, int]:
        if not self.store.open(None, create=False):
            return {"papers": 0, "chunks": 0}
        papers, chunks = self.store.counts()
        return {"papers": papers, "chunks": chunks}

    # -- answers ---------------------------------------------------------------------
    def conversation(self):
        """A new conversation: pass it to ``stream``/``ask`` for follow-ups; ``reset()`` starts over."""
        from .conversation import Conversation

        return Conversation()

    def backend(self, choice: str | None = None):
        """(backend or None, note) for ``choice`` (default: settings.llm). A model is loaded once and
        reused; ``auto`` looks for Ollama again on every call."""
        from .llm import make_backend, resolve_auto

        choice = choice or self.settings.llm
        note = ""
        if choice == "auto":
            choice, note = resolve_auto(self.settings)
        if choice not in self._backends:
            self._backends[choice] = make_backend(self.settings, choice)
        return self._backends[choice], note

    def stream(self, question: str, *, conversation=None, llm: str | None = None, k: int | None = None,
               where: Filter | dict[str, Any] | str | None = None, page: int | None = None,
               page_size: int | None = SETTINGS_PAGE, plan: Plan | None = None, stop: threading.Event | None = None):
        """Start answering: returns an ``AnswerStream`` (iterate for text; ``.citations`` at once; ``.answer`` after).
        ``stop``: once set (a server's deadline), the model is no longer waited on, in reading the question
        or in writing; papers it did not write about are quoted.
        ``plan``: answer this plan instead of planning ``question`` (``compare_plan``), under the filters and page
        size it records; with ``page``, that page of it: ``stream(answer.question, plan=answer.plan,
        page=answer.next_page)`` is a list answer's next page."""
        from .answer import AnswerStream
        from .conversation import Turn
        from .evidence import quotes

        if plan is None:
            where = self._filter(where)
            plan = self.plan(question, where=where, page=1 if page is None else page, page_size=page_size,
                             conversation=conversation, llm=llm, propose=True, stop=stop)
        else:
            plan = self._page_of(plan, page, where, page_size)
            where = self._filter(plan.filters)
        plan, selection = self._selected(plan, k=k, where=where)
        from .selection import counted

        selection = counted(plan, selection, self.searcher, where)  # "82 papers are on this; the 5 best"
        hits = selection.page(plan)
        evidence = quotes(plan, hits, self.embedder, self.lexical)
        # why auto chose its backend is the backend's state, shown once by each front end, not in every answer
        backend = self.backend(llm)[0] if hits else None
        model = backend.name if backend is not None else "none"

        def remember(answer) -> None:
            if conversation is not None:
                conversation.add(Turn(plan.question, plan.query, answer.answer,
                                      [h.id for h in selection.hits], [h.title for h in selection.hits], plan.kind,
                                      conversation.kinds_for(plan),
                                      list(plan.restrict_to) if plan.restrict_to is not None else None))

        from .synthesis import capable

        synthesize = capable(backend) and plan.form in ("comparison", "list", "quotes")
        unknown = self.lexical.unknown_words(plan.query) if not hits and plan.kind == "list" and plan.query else []
        said = plan.venue_words if not hits and plan.query else []
        venues = self._store_venues()[0] if said else []  # what the store holds instead
        if said:  # "papers from NeurIPS about agents": the venue no abstract holds is why
            unknown = list(dict.fromkeys([*unknown, *said]))
        return AnswerStream(plan, hits, evidence, backend, model, self.settings.max_tokens,
                            self.stats()["papers"], on_done=remember, filtered=bool(where),
                            empty_topics=selection.empty_topics, total=selection.total, synthesize=synthesize,
                            unsure=selection.unsure, none_on_all=selection.none_on_all,
                            unknown_words=unknown, venues=venues, stop=stop)

    def ask(self, question: str, **options):
        """Answer ``question`` in full; returns an ``Answer`` (text, model, citations with evidence)."""
        stream = self.stream(question, **options)
        for _ in stream:
            pass
        return stream.answer

    async def astream(self, question: str, **options):
        """``stream`` for asyncio: yields text pieces without blocking the event loop."""
        import asyncio

        stream = await asyncio.to_thread(self.stream, question, **options)
        iterator = iter(stream)
        done = object()
        while (piece := await asyncio.to_thread(next, iterator, done)) is not done:
            yield piece

    def _check_question(self, question: Any, name: str = "question") -> str:
        """The question (or search query) as clean text, or an InputError naming ``name`` and the fix."""
        if question is not None and not isinstance(question, str):
            raise InputError(f"The {name} is a {type(question).__name__}, not text.", f"Pass the {name} as a string.")
        question = (question or "").replace("\x00", "").strip()
        if not question:
            raise InputError(f"The {name} is empty.", "Type a question about the papers.")
        limit = self.settings.max_question_chars
        if len(question) > limit:
            raise InputError(f"The {name} is {len(question):,} characters; the limit is {limit:,}.",
                             "Shorten it to the question itself (or raise ASSISTANT_MAX_QUESTION_CHARS).")
        try:
            question.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InputError(f"The {name} holds a character that is not text (U+{ord(question[exc.start]):04X}, "
                             "a lone surrogate).", f"Send the {name} as valid UTF-8 text.") from None
        return question

    def _page_of(self, plan: Plan, page: Any, where: Any, page_size: Any) -> Plan:
        """``plan`` at ``page`` (None: the page it has), as a copy. ``where`` and ``page_size`` are refused:
        a plan is answered under the filters and page size it records."""
        if self._filter(where) is not None or page_size != SETTINGS_PAGE:
            raise InputError("A plan is answered under the filters and page size it records.",
                             "Pass where and page_size when planning (plan, compare_plan), and only page with a plan.")
        return plan if page is None else replace(plan, page=self._check_page(page))

    @staticmethod
    def _check_page(page: Any) -> int:
        """``page`` as a page number from 1 to ``MAX_PAGE``, or an InputError."""
        if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= MAX_PAGE:
            raise InputError(f"page={page!r} is not a page.", f"Pages count from 1 (to {MAX_PAGE:,}).")
        return page

    def _check_k(self, k: Any) -> int:
        """``k`` (None: the setting) as a number of papers from 1 to ``max_k``, or an InputError."""
        if k is None:
            return min(self.settings.k, self.settings.max_k)
        most = self.settings.max_k
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= most:
            raise InputError(f"k={k!r} is not a number of papers from 1 to {most}.",
                             f"Pass k from 1 to {most} (or raise ASSISTANT_MAX_K).")
        return k

    def filters(self, where: Any) -> Filter | None:
        """``where`` as a ``Filter`` of the values the store holds (``Filter.resolved``); ``InputError`` when it
        names a field, area or decision there is not. None for no filter."""
        return self._filter(where)

    def _filter(self, where: Any) -> Filter | None:
        """``where`` in any form ``Filter.parse`` reads, parsed once here for everything below."""
        parsed = Filter.parse(where, max_values=self.settings.max_filter_values)
        if parsed.needs_resolving:  # "decision=accepted", "area=reinforcement learning": as the store holds them
            parsed = parsed.resolved(self._store_facets())
        return parsed or None

    def _store_facets(self) -> dict[str, list]:
        """The store's filter values, read once a store revision (every record: 1.8 s at 20,000 papers)."""
        revision = self.store.revision() if self._open_existing() else ""
        if self._facets is None or self._facets[0] != revision:
            self._facets = (revision, self.facets())
        return self._facets[1]

    def retriever(self, k: int | None = None, where: Filter | dict[str, Any] | str | None = None):
        """A llama-index ``BaseRetriever`` over this store, for any llama-index app."""
        from .retriever import PaperRetriever

        return PaperRetriever(self, k=k, where=self._filter(where))
