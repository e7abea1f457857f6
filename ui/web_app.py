"""What the browser chat does, apart from its layout: one ``WebApp`` per app (chat turns streamed into the
page, "Show more", filters, the library, uploads) and the named API endpoints' work (``api_chat``,
``api_search``). The layout is ``ui.web_layout``, the server ``ui.web_launch``; ``ui.web`` gathers them.

Every refusal of the API is one line naming the field and the fix, and is logged here; everything
shown is HTML-escaped by ``ui.web_render``.
"""

import html
import logging
import re
import reprlib
import shutil
import threading
from collections import OrderedDict
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import gradio as gr

from assistant.core import MAX_PAGE
from assistant.errors import AssistantError, InputError, StoreError
from assistant.filters import FACETS, decision_groups
from assistant.settings import LLM_CHOICES
from ingest.parse import file_kind

from . import web_render as render
from .web_limits import AnswerLimits
from .web_numbers import whole_number

log = logging.getLogger("ui.web")

MAX_UPLOAD_MB = 20
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024
API_CONVERSATIONS = 1000  # API conversations remembered at once
# Longest conversation id an API caller may send: longer ids are refused, not cut, so two ids that share a
# prefix never share a history.
CONVERSATION_ID_CHARS = 200
UPLOAD_TYPES = (".txt", ".jsonl", ".csv", ".gz")  # .gz: one of the others gzipped (papers.jsonl.gz)
K_MAX = 10
SEARCH_K_MAX = 100  # the API's /search may list more papers than an answer cites
ALL_FILES = "All files"
EXAMPLES = ("which papers reduce reasoning token usage?", "tell me about PoLR", "benchmarks for legal reasoning",
            "which papers make LLM agents better at information seeking?")
STAGES = {"reading": "Reading files", "embedding": "Embedding new abstracts"}
FILTER_LABELS = {"file": "Source file", "year": "Year", "venue": "Venue", "decision": "Decision",
                 "area": "Primary area", "keyword": "Keywords", "contribution": "Contribution"}
FILTER_CHOICES_MAX = 1000  # values listed per filter; with more, the first ones are listed (keywords can be typed)


# -- shared state ------------------------------------------------------------------------------
@dataclass
class Session:
    """One browser tab: its conversation (for follow-ups) and the turns on its page."""

    conversation: Any
    turns: list = field(default_factory=list)
    counter: int = 0
    stream: Any = None
    stop: threading.Event | None = None  # the answer being written stops once it is set
    busy: bool = False

    @property
    def paged_turn(self):
        """The last turn if it is a finished list answer with later pages ("Show more" continues it), else None."""
        last = self.turns[-1] if self.turns else None
        return last if last is not None and last.more and not last.pending else None


def warn(message: str) -> None:
    """A toast in the page; Gradio renders its text as HTML, so escape it."""
    gr.Warning(html.escape(message, quote=False))


def first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0].rstrip(".")


def dropdown_filters(values: Any) -> dict[str, list[str]]:
    """The filter dropdowns' values (one list per field, in ``FACETS`` order) as ``{field: [values]}``."""
    chosen: dict[str, list[str]] = {}
    for facet, value in zip(FACETS, values):
        listed = value if isinstance(value, (list, tuple)) else [value]
        picked = [str(v).strip() for v in listed if v not in (None, "")]
        if picked:
            chosen[facet] = picked
    return chosen


def safe_file_name(name: str) -> str:
    """The uploaded file's own name, reduced to characters safe in a path."""
    base = Path(name.replace("\\", "/")).name
    cleaned = re.sub(r"[^\w.\- ]+", "_", base).strip(" .")[:120]
    return cleaned or "upload.txt"


class WebApp:
    """What the page does, independent of its layout (tests call these methods directly)."""

    def __init__(self, assistant) -> None:
        self.assistant = assistant
        self._papers: list | None = None
        self._papers_lock = threading.Lock()
        self._facets: tuple[list, dict] | None = None  # (the library they were read from, the filter values)
        self._api_lock = threading.Lock()
        self._api_conversations: OrderedDict[str, Any] = OrderedDict()
        self.limits = AnswerLimits(assistant.settings)
        self.store_problem: str | None = None  # why the store could not be read, shown in the page's header

    # -- sessions ------------------------------------------------------------------------
    def new_session(self) -> Session:
        return Session(self.assistant.conversation())

    def _views(self, session: Session, question: Any = None):
        return (render.chat_html(session.turns), render.sources_html(session.turns),
                gr.update() if question is None else question, gr.update(visible=session.paged_turn is not None))

    # -- chat ----------------------------------------------------------------------------
    def respond(self, question: str, k: Any, llm: str, session: Session | None, *filters: Any):
        """Stream one answer into the page. Always finishes: errors end up in the page, not in a spinner.
        ``filters``: the filter dropdowns' values (lists), in ``FACETS`` order; none means every paper."""
        session = session if session is not None else self.new_session()
        question = (question or "").strip()
        if not question:
            warn("Type a question about the papers first.")
            yield self._views(session)
            return
        if session.busy:
            warn("Still answering the last question: wait for it, or press Stop.")
            yield self._views(session)
            return
        chosen = dropdown_filters(filters)
        yield from self._answer(session, question, lambda stop: self.assistant.stream(
            question, conversation=session.conversation, llm=self._llm(llm), k=self._k(k), where=chosen, stop=stop),
            render.filter_scope(chosen), llm)

    def show_more(self, k: Any, llm: str, session: Session | None):
        """The next page of the last list answer, as a turn of its own, under the filters of its first page
        (whatever the filter boxes hold now)."""
        session = session if session is not None else self.new_session()
        last = session.paged_turn
        if last is None or session.busy:
            warn("Still answering the last question: wait for it, or press Stop." if session.busy else
                 "Nothing more to show: “Show more” pages through a list answer.")
            yield self._views(session)
            return
        plan, page = last.plan, last.next_page
        yield from self._answer(session, f"{plan.question} (page {page})", lambda stop: self.assistant.stream(
            plan.question, llm=self._llm(llm), k=self._k(k), plan=plan, page=page, stop=stop), last.scope, llm)

    def _answer(self, session: Session, question: str, start: Callable[[threading.Event], Any], scope: str, llm: Any):
        """Stream one answer written by ``llm`` into the page under the filters ``scope`` names; ``start(stop)``
        begins it, and Stop or the deadline set ``stop``. Always finishes: errors end up in the page, not in
        a spinner."""
        session.busy = True
        session.counter += 1
        turn = render.Turn(session.counter, question)
        session.turns.append(turn)
        bounds = ExitStack()  # a model's slot and the answer's deadline (``web_limits``)
        try:
            yield self._views(session, question="")
            stream = None
            try:
                turn.scope = scope
                bounds.enter_context(self.limits.model_slot(self._llm(llm)))
                session.stop = threading.Event()  # Stop reaches the model while the question is read, too
                fired = bounds.enter_context(self.limits.deadline(session.stop))
                stream = start(session.stop)
                session.stream = stream
                turn.plan_line = stream.plan.line()
                turn.citations = list(stream.citations)
                turn.stage = "Writing the answer…"
                yield self._views(session)
                for piece in stream:
                    turn.text += piece
                    yield self._views(session)
                bounds.close()
                answer = stream.answer
                self.limits.say_if_stopped(fired, answer)
                turn.text, turn.citations = answer.answer, list(answer.citations)
                turn.model, turn.note, turn.complete = answer.model, answer.note, answer.complete
                turn.comparison = answer.comparison
                if answer.synthesis and answer.synthesis["sentences"]:
                    turn.synthesized_by = answer.synthesis["model"]
                turn.more = answer.more if answer.complete else 0
                turn.plan, turn.next_page = answer.plan, answer.next_page
                if not answer.complete and answer.note:
                    warn(answer.note)
            except AssistantError as exc:
                turn.error = self._error_text(exc)
                warn(turn.error)
            except Exception as exc:  # never leave the page waiting on a traceback
                log.exception("answering %r failed", question)
                turn.error = f"Unexpected error ({type(exc).__name__}: {exc}). The terminal running the app has details."
                warn(turn.error)
            turn.pending = False
            session.stream = None
            yield self._views(session)
        finally:  # also when the browser goes away mid-answer
            bounds.close()
            turn.pending = False
            session.stream = None
            session.busy = False

    def ask_example(self, text: str, k: Any, llm: str, session: Session | None, *filters: Any):
        yield from self.respond(text, k, llm, session, *filters)

    def stop(self, session: Session | None) -> None:
        if session is None:
            return
        if session.stop is not None:
            session.stop.set()
        if session.stream is not None:
            session.stream.cancel()

    def new_chat(self, session: Session | None):
        if session is not None:
            self.stop(session)
            session.conversation = self.assistant.conversation()
            session.turns = []
        return render.chat_html([]), render.EMPTY_SOURCES, gr.update(visible=False)

    def _k(self, k: Any, most: int = K_MAX) -> int:
        """``k`` from the page or an API caller, at most ``most`` and the settings' ``max_k``; left out, the
        setting."""
        settings = self.assistant.settings
        most = min(most, settings.max_k)
        return whole_number(k, "k", most, default=min(most, settings.k), what="a number of papers")

    @staticmethod
    def _page(page: Any) -> int:
        """``page`` of a list answer from an API caller; left out, the first."""
        return whole_number(page, "page", MAX_PAGE, default=1, what="a page number")

    def _llm(self, llm: Any) -> str:
        """``llm`` from the page or an API caller: one of ``LLM_CHOICES``; left out, the setting."""
        if llm is None or (isinstance(llm, str) and not llm.strip()):
            return self.assistant.settings.llm
        if isinstance(llm, str) and llm.strip() in LLM_CHOICES:
            return llm.strip()
        raise InputError(f"llm={reprlib.repr(llm)} is not an answer backend.",
                         f"Pass one of: {', '.join(LLM_CHOICES)}, or leave llm out for {self.assistant.settings.llm}.")

    @staticmethod
    def _conversation_id(conversation_id: Any) -> str:
        """An API caller's conversation id as text of at most CONVERSATION_ID_CHARS; blank: no conversation."""
        if conversation_id is None:
            return ""
        if not isinstance(conversation_id, (str, int)) or isinstance(conversation_id, bool):
            raise InputError(f"conversation_id is a {type(conversation_id).__name__}, not text.",
                             "Pass the conversation id as a string.")
        text = str(conversation_id).strip()
        if len(text) > CONVERSATION_ID_CHARS:
            raise InputError(f"conversation_id is {len(text):,} characters; the limit is {CONVERSATION_ID_CHARS}.",
                             f"Name conversations with ids of at most {CONVERSATION_ID_CHARS} characters "
                             "(a UUID is 36).")
        return text

    def _error_text(self, exc: AssistantError) -> str:
        text = str(exc)
        if isinstance(exc, StoreError) and self._paper_count() == 0:
            text += " In the browser: add files in the Add abstracts tab."
        return text

    # -- LLM backends ----------------------------------------------------------------------
    def backend_rows(self) -> list[tuple[str, bool, str, str]]:
        """(choice, usable, short label, full detail) for each LLM choice."""
        rows = []
        for choice in LLM_CHOICES:
            if choice == "none":
                rows.append((choice, True, "quotes the abstracts", "No LLM: answers quote each paper's evidence sentence."))
                continue
            try:
                backend, note = self.assistant.backend(choice)
            except AssistantError as exc:
                rows.append((choice, False, "unavailable", str(exc)))
                continue
            except Exception as exc:  # a broken backend must not break the page
                rows.append((choice, False, "unavailable", f"{type(exc).__name__}: {exc}"))
                continue
            name = backend.name if backend is not None else "quotes the abstracts"
            short = name.split(":", 1)[1] if choice != "auto" and name.startswith(f"{choice}:") else name
            rows.append((choice, True, short, f"{name}. {note}" if note else name))
        return rows

    def backend_view(self, current: str | None = None):
        """The LLM dropdown: each choice labelled with its model or "unavailable", the reasons below it."""
        rows = self.backend_rows()
        choices = [(f"{c} · {short}" if ok else f"{c} · unavailable", c) for c, ok, short, _ in rows]
        value = current if current in LLM_CHOICES else self.assistant.settings.llm
        problems = [f"{c}: {first_sentence(detail)}" for c, ok, _, detail in rows if not ok]
        auto = next(detail for c, _, _, detail in rows if c == "auto")  # what auto chose, and why: said here once
        problems = [p for p in problems if p.split(": ", 1)[1] not in auto]  # a reason auto gives is said once
        return gr.update(choices=choices, value=value,
                         info="; ".join([f"auto: {auto}", *problems]) if problems or auto != "quotes the abstracts"
                         else "all backends available")

    # -- library -------------------------------------------------------------------------
    def warm(self) -> None:
        """Read the library now, so the first page load finds it cached: that reads every paper
        record, ~2 s at 20,000 papers, which the page would otherwise wait for."""
        self.facets()

    def papers(self, refresh: bool = False) -> list:
        with self._papers_lock:
            if self._papers is None or refresh:
                try:
                    self._papers = self.assistant.papers()
                    self.store_problem = None
                except AssistantError as exc:
                    warn(str(exc))
                    self._papers, self.store_problem = [], str(exc)
            return self._papers

    def current_papers(self, force: bool = False) -> list:
        """The library, read again when ``force`` is set or when the store's number of papers has
        changed since it was read (say an `assistant ingest` in a terminal)."""
        cached = self._papers
        return self.papers(refresh=force or (cached is not None and len(cached) != self._paper_count()))

    def _paper_count(self) -> int:
        try:
            return int(self.assistant.stats()["papers"])
        except AssistantError:
            return 0

    def library_view(self, text: str = "", source: str | None = None) -> str:
        papers = self.papers()
        chosen = None if source in (None, "", ALL_FILES) else source
        return render.library_html(render.filter_papers(papers, text, chosen), len(papers))

    def library_refresh(self, text: str = "", source: str | None = None, force: bool = True):
        """Re-read the store's papers (on page load only when their number changed) and redraw the library."""
        papers = self.current_papers(force)
        files = render.source_files(papers)
        value = source if source in files else ALL_FILES
        header = render.header_html(len(papers), len(files))
        if self.store_problem:  # a damaged or unwritable store: said on the page, for as long as it lasts
            header += f'<div class="store-problem" role="alert">{html.escape(self.store_problem)}</div>'
        return (self.library_view(text, value), gr.update(choices=[ALL_FILES, *files], value=value), header)

    # -- chat filters ----------------------------------------------------------------------
    def facets(self) -> dict[str, list]:
        """The store's filter values, taken from the library this app holds (one read of the store
        for both), which is read again after an upload, or when the number of papers changed (say an
        `assistant ingest` in a terminal)."""
        papers = self.current_papers()
        known = self._facets
        if known is None or known[0] is not papers:
            known = self._facets = (papers, self.assistant.facets(papers))
        return known[1]

    def filters_label(self, *filters: Any):
        """The Filters box's title, naming the active filters."""
        return gr.update(label=render.filters_label(render.filter_scope(dropdown_filters(filters))))

    def filters_view(self, *filters: Any):
        """One dropdown per field, offering the values the store's papers have (a field none has is
        hidden) and keeping the chosen values still present; then the Filters box's title."""
        facets = self.facets()
        updates = []
        for facet, chosen in zip(FACETS, filters):
            values = [str(v) for v in facets.get(facet, [])]
            if facet == "decision":  # "accepted", "oral", ... first, then each decision the papers have
                values = [*decision_groups(values), *values]
            listed = values[:FILTER_CHOICES_MAX]
            keep = [v for v in (chosen or []) if v in values or (facet == "keyword" and v)]
            info = None
            if len(values) > len(listed):
                info = f"the first {len(listed):,} of {len(values):,} are listed"
                info += "; type others" if facet == "keyword" else ""
            updates.append(gr.update(choices=listed, value=keep, visible=bool(values), info=info))
        kept = dropdown_filters([u.get("value") for u in updates])
        return (*updates, gr.update(label=render.filters_label(render.filter_scope(kept))))

    def clear_filters(self):
        return (*(gr.update(value=[]) for _ in FACETS), gr.update(label=render.filters_label("")))

    # -- uploads -------------------------------------------------------------------------
    def upload_folder(self) -> Path:
        return Path(self.assistant.settings.home) / "uploads"

    @staticmethod
    def upload_refusal(name: str, size: int, suffix: str | None = None) -> str | None:
        """Why a file named ``name`` of ``size`` bytes is not read (None: it is); ``suffix``: that of the
        uploaded copy, when it has one (Gradio keeps the file's own)."""
        kind = (Path(name).suffix if suffix is None else suffix).lower()
        if kind not in UPLOAD_TYPES or file_kind(Path(name)) is None:
            return "is not a .txt, .jsonl or .csv file (or one gzipped: .jsonl.gz)"
        if size > MAX_UPLOAD_BYTES:
            return f"is {size / 1024 / 1024:.1f} MB; the limit is {MAX_UPLOAD_MB} MB per file"
        return None

    def refused_uploads(self, data: Any) -> tuple[str, list[tuple[str, str]]]:
        """The files the page kept from uploading (too large, or not a kind it reads: ``web_style.upload_check``
        sends their names and sizes on each choice of files), as the report beside the upload box, until
        the next choice replaces it; and the same list for ``add_files`` to report again."""
        listed = data.get("files") if isinstance(data, dict) else None
        refused = []
        for item in listed[:100] if isinstance(listed, list) else []:
            if not isinstance(item, dict):
                continue
            name = Path(str(item.get("name") or "").replace("\\", "/")).name[:200] or "a file"
            size = item.get("size")
            size = int(size) if isinstance(size, (int, float)) and not isinstance(size, bool) and size >= 0 else 0
            reason = self.upload_refusal(name, size)
            if reason:
                refused.append((name, reason))
        return (render.ingest_html(None, [], refused) if refused else ""), refused

    def add_files(self, files: Any, progress: Callable | None = None, refused: Any = None) -> str:
        """Copy uploads under the store's home with their own names, ingest them, report what happened (in
        the report only, so each problem is said once); ``refused``: the files the page did not upload
        (``refused_uploads``), reported with the rest."""
        items = [f for f in (files or []) if f]
        rejected: list[tuple[str, str]] = [(str(n), str(r)) for n, r in (refused or [])]
        if not items and not rejected:
            return ('<div class="ingest-report muted">No file chosen: choose one or more .txt, .jsonl or .csv '
                    'files.</div>')
        folder = self.upload_folder()
        folder.mkdir(parents=True, exist_ok=True)
        targets: list[Path] = []
        names: dict[str, str] = {}
        read: list[str] = []
        for item in items:
            src = Path(item if isinstance(item, (str, Path)) else getattr(item, "path", None) or item.name)
            original = Path(getattr(item, "orig_name", None) or src.name).name
            try:
                reason = self.upload_refusal(original, src.stat().st_size, src.suffix)
            except OSError as exc:
                reason = self.upload_refusal(original, 0, src.suffix) or f"could not be read ({exc.strerror or exc})"
            if reason:
                rejected.append((original, reason))
                continue
            dest = folder / safe_file_name(original)
            if dest.suffix.lower() != src.suffix.lower():
                dest = dest.with_name(dest.name + src.suffix.lower())
            shutil.copyfile(src, dest)
            targets.append(dest)
            for key in (str(dest), str(dest.resolve()), dest.name):
                names[key] = original
            read.append(original)
        if not targets:
            return '<div class="ingest-report muted">Nothing was added.</div>' + render.ingest_html(None, [], rejected)

        def report_progress(done: int, total: int, stage: str) -> None:
            if progress is not None:
                label = STAGES.get(stage, stage.capitalize())
                progress((done, total) if total else None, desc=f"{label} ({done}/{total})",
                         unit="files" if stage == "reading" else "papers")

        try:
            report = self.assistant.ingest(targets, progress=report_progress)
        except AssistantError as exc:
            return render.ingest_html(None, [], [*rejected, *((n, str(exc)) for n in read)])
        finally:
            with self._papers_lock:
                self._papers = None
            self._forget_unused_uploads(targets)
        data = report.as_dict()
        data["skipped"] = [{"path": names.get(str(s["path"]), names.get(Path(str(s["path"])).name, Path(str(s["path"])).name)),
                            "reason": s["reason"]} for s in data.get("skipped", [])]
        return render.ingest_html(data, read, rejected, names)

    def _forget_unused_uploads(self, copies: list[Path]) -> None:
        """Delete the uploaded copies the store holds no paper from (skipped, binary, or adding nothing),
        so the uploads folder keeps only the files behind the library."""
        for copy in copies:
            try:
                held = self.assistant.papers(where={"file": copy.name})
            except AssistantError:
                held = []
            if not any(s.get("path") == str(copy.resolve()) for p in held for s in p.sources):
                copy.unlink(missing_ok=True)

    # -- API (also MCP tools) ---------------------------------------------------------------
    def api_conversation(self, conversation_id: str):
        """The API's conversation for this id (created on first use), so other apps can ask follow-ups.
        The oldest are forgotten past API_CONVERSATIONS."""
        with self._api_lock:
            conversation = self._api_conversations.pop(conversation_id, None) or self.assistant.conversation()
            self._api_conversations[conversation_id] = conversation
            while len(self._api_conversations) > API_CONVERSATIONS:
                self._api_conversations.popitem(last=False)
            return conversation

    def api_chat(self, question: Any, k: Any = None, llm: Any = None, conversation_id: Any = "",
                 where: Any = None, page: Any = 1) -> tuple[str, list[dict], dict]:
        def answer() -> tuple[str, list[dict], dict]:
            name, backend, most, which = self._conversation_id(conversation_id), self._llm(llm), self._k(k), self._page(page)
            conversation = self.api_conversation(name) if name else None
            stop = threading.Event()
            with self.limits.model_slot(backend), self.limits.deadline(stop) as fired:
                stream = self.assistant.stream(question, conversation=conversation, llm=backend, k=most, where=where,
                                               page=which, stop=stop)
                for _piece in stream:
                    pass
            self.limits.say_if_stopped(fired, stream.answer)
            data = stream.answer.as_dict()
            details = {key: data[key] for key in ("plan", "total", "more", "next_page", "comparison", "synthesis",
                                                  "complete", "model", "note") if key in data}
            return data["answer"], data["citations"], details

        return self._api_call("chat", answer)

    def api_search(self, query: Any, k: Any = None, where: Any = None, page: Any = 1) -> list[dict]:
        return self._api_call("search", lambda: [api_hit(h) for h in self.assistant.search(
            query, k=self._k(k, SEARCH_K_MAX), where=where, page=self._page(page))])

    @staticmethod
    def _api_call(endpoint: str, work: Callable[[], Any]) -> Any:
        """Run one API request: every refusal reaches the caller as one line naming the field and the
        fix (``gr.Error``), and is logged here; nothing a caller sends takes the server down."""
        try:
            return work()
        except AssistantError as exc:
            log.warning("/%s refused: %s", endpoint, exc, exc_info=exc.__cause__ is not None)
            raise gr.Error(html.escape(str(exc), quote=False), print_exception=False) from None
        except Exception as exc:
            log.exception("/%s failed", endpoint)
            raise gr.Error(html.escape(f"The /{endpoint} request failed ({type(exc).__name__}). Check its arguments "
                                       "(question or query: text; k: a whole number; where: filters like "
                                       "\"year=2026\"); the server log has details.", quote=False),
                           print_exception=False) from None


def api_hit(hit) -> dict:
    """``hit.as_dict()`` without the sources' server paths: gradio_client takes any dict holding a
    "path" for a file to download (and the server rightly refuses to serve it)."""
    data = hit.as_dict()
    data["sources"] = [{k: v for k, v in s.items() if k != "path"} for s in data["sources"]]
    return data
