"""The browser chat: a Gradio app over one ``Assistant``.

    serve(assistant, host="127.0.0.1", port=7860, mcp=False, ingest_if_empty=True)   # `assistant ui`
    demo = build_app(assistant); url = launch(demo, port=0, prevent_thread_lock=True)  # tests, embedding

Tabs: **Chat** (streamed answers with ``[n]`` citation badges, a sources panel with each cited
abstract and its evidence sentence highlighted, follow-ups, k and LLM controls, filters by file,
year, venue, decision and keyword), **Library**
(every paper, searchable, filterable by source file) and **Add abstracts** (upload .txt/.jsonl/.csv
with progress and a report). Named API endpoints ``/chat`` and ``/search`` serve programs, and MCP
clients with ``mcp=True``.

Safe by default: bound to 127.0.0.1, no share link, analytics off (``analytics_enabled=False``; nothing
here changes the environment), no file outside Gradio's own upload cache is served, writes from a
page of another site are refused (``SameOriginWrites``), every API refusal is one line naming the
field and the fix, and everything shown is HTML-escaped (see ``ui.web_render``).

This module deliberately has no ``from __future__ import annotations``: ``gr.api`` reads the
endpoint functions' type hints at runtime.
"""

import html
import importlib.util
import logging
import re
import shutil
import socket
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

import gradio as gr
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse

from assistant.errors import AssistantError, ConfigError, InputError, StoreError
from assistant.filters import FACETS
from assistant.settings import LLM_CHOICES

from . import web_render as render
from .web_style import CSS, HEAD, theme

log = logging.getLogger(__name__)

MAX_UPLOAD_MB = 20
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024
API_CONVERSATIONS = 1000  # API conversations remembered at once
UPLOAD_TYPES = (".txt", ".jsonl", ".csv")
K_MAX = 10
SEARCH_K_MAX = 100  # the API's /search may list more papers than an answer cites
ALL_FILES = "All files"
EXAMPLES = ("which papers reduce reasoning token usage?", "tell me about PoLR", "benchmarks for legal reasoning",
            "which papers make LLM agents better at information seeking?")
STAGES = {"reading": "Reading files", "embedding": "Embedding new abstracts"}
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
FILTER_LABELS = {"file": "Source file", "year": "Year", "venue": "Venue", "decision": "Decision", "keyword": "Keywords",
                 "contribution": "Contribution"}
FILTER_CHOICES_MAX = 1000  # values listed per filter; with more, the first ones are listed (keywords can be typed)
# Gradio's queue looks for new events every 1 ms while it is empty, and for progress every 10 ms: 4.6% of a
# core with nobody connected (bench/idle.py). Polling every 100 ms and 250 ms brings an idle app under
# 0.5%; an event then waits at most 100 ms to start (50 ms on average), which a question or search
# that takes a second does not feel.
QUEUE_POLL_SECONDS = 0.1
PROGRESS_POLL_SECONDS = 0.25
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


# -- shared state ------------------------------------------------------------------------------
@dataclass
class Session:
    """One browser tab: its conversation (for follow-ups) and the turns on its page."""

    conversation: Any
    turns: list = field(default_factory=list)
    counter: int = 0
    stream: Any = None
    busy: bool = False
    last_plan: Any = None  # the plan of the last list answer, for "Show more"


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

    # -- sessions ------------------------------------------------------------------------
    def new_session(self) -> Session:
        return Session(self.assistant.conversation())

    def _views(self, session: Session, question: Any = None):
        last = session.turns[-1] if session.turns else None
        more = last is not None and bool(last.more) and not last.pending
        return (render.chat_html(session.turns), render.sources_html(session.turns),
                gr.update() if question is None else question, gr.update(visible=more))

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
        yield from self._answer(session, question, lambda: self.assistant.stream(
            question, conversation=session.conversation, llm=self._llm(llm), k=self._k(k), where=chosen), chosen)

    def show_more(self, k: Any, llm: str, session: Session | None, *filters: Any):
        """The next page of the last list answer, as a turn of its own."""
        session = session if session is not None else self.new_session()
        plan = session.last_plan
        if plan is None or session.busy:
            warn("Nothing more to show: “Show more” pages through a list answer." if plan is None else
                 "Still answering the last question: wait for it, or press Stop.")
            yield self._views(session)
            return
        page = replace(plan, page=plan.page + 1)
        chosen = dropdown_filters(filters)
        yield from self._answer(session, f"{plan.question} (page {page.page})", lambda: self.assistant.stream(
            page.question, llm=self._llm(llm), k=self._k(k), where=chosen, plan=page), chosen)

    def _answer(self, session: Session, question: str, start: Callable[[], Any], chosen: dict):
        """Stream one answer into the page. Always finishes: errors end up in the page, not in a spinner."""
        session.busy = True
        session.counter += 1
        turn = render.Turn(session.counter, question)
        session.turns.append(turn)
        try:
            yield self._views(session, question="")
            stream = None
            try:
                turn.scope = render.filter_scope(chosen)
                stream = start()
                session.stream = stream
                turn.plan_line = stream.plan.line()
                turn.citations = list(stream.citations)
                turn.stage = "Writing the answer…"
                yield self._views(session)
                for piece in stream:
                    turn.text += piece
                    yield self._views(session)
                answer = stream.answer
                turn.text, turn.citations = answer.answer, list(answer.citations)
                turn.model, turn.note, turn.complete = answer.model, answer.note, answer.complete
                turn.comparison = answer.comparison
                if answer.synthesis and answer.synthesis["sentences"]:
                    turn.synthesized_by = answer.synthesis["model"]
                shown = answer.citations[-1].n if answer.citations else 0
                turn.more = max(0, answer.total - shown) if stream.plan.paged and answer.complete else 0
                session.last_plan = stream.plan if turn.more else None
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
            turn.pending = False
            session.stream = None
            session.busy = False

    def ask_example(self, text: str, k: Any, llm: str, session: Session | None, *filters: Any):
        yield from self.respond(text, k, llm, session, *filters)

    def stop(self, session: Session | None) -> None:
        stream = session.stream if session is not None else None
        if stream is not None:
            stream.cancel()

    def new_chat(self, session: Session | None):
        if session is not None:
            self.stop(session)
            session.conversation = self.assistant.conversation()
            session.turns = []
            session.last_plan = None
        return render.chat_html([]), render.EMPTY_SOURCES, gr.update(visible=False)

    def _k(self, k: Any) -> int:
        try:
            return max(1, min(K_MAX, int(k)))
        except (TypeError, ValueError):
            return min(K_MAX, self.assistant.settings.k)

    def _api_k(self, k: Any, most: int) -> int:
        """``k`` from an API caller: unset means the setting; anything else must be a whole number."""
        if k in (None, ""):
            return min(most, self.assistant.settings.k)
        if isinstance(k, float) and k.is_integer():  # JSON clients (MCP) may send 5.0
            k = int(k)
        try:
            value = int(str(k).strip()) if not isinstance(k, (bool, float)) else None
        except ValueError:
            value = None
        if value is None or not 1 <= value <= most:
            raise gr.Error(html.escape(f"k={k!r} is not a number of papers. Pass a whole number from 1 to {most} "
                                       "(or leave it out for the default); filters go in the argument after it, "
                                       "`where`.", quote=False), print_exception=False)
        return value

    def _llm(self, llm: Any) -> str:
        return llm if llm in LLM_CHOICES else self.assistant.settings.llm

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
            name = backend.name if backend is not None else "no LLM"
            short = name.split(":", 1)[1] if choice != "auto" and name.startswith(f"{choice}:") else name
            rows.append((choice, True, short, f"{name}. {note}" if note else name))
        return rows

    def backend_view(self, current: str | None = None):
        """The LLM dropdown: each choice labelled with its model or "unavailable", the reasons below it."""
        rows = self.backend_rows()
        choices = [(f"{c} · {short}" if ok else f"{c} · unavailable", c) for c, ok, short, _ in rows]
        value = current if current in LLM_CHOICES else self.assistant.settings.llm
        problems = [f"{c}: {first_sentence(detail)}" for c, ok, _, detail in rows if not ok]
        return gr.update(choices=choices, value=value, info="; ".join(problems) or "all backends available")

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
                except AssistantError as exc:
                    warn(str(exc))
                    self._papers = []
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

    def header(self) -> str:
        papers = self.papers()
        return render.header_html(len(papers), len(render.source_files(papers)))

    def library_view(self, text: str = "", source: str | None = None) -> str:
        papers = self.papers()
        chosen = None if source in (None, "", ALL_FILES) else source
        return render.library_html(render.filter_papers(papers, text, chosen), len(papers))

    def library_refresh(self, text: str = "", source: str | None = None, force: bool = True):
        """Re-read the store's papers (on page load only when their number changed) and redraw the library."""
        papers = self.current_papers(force)
        files = render.source_files(papers)
        value = source if source in files else ALL_FILES
        return (self.library_view(text, value), gr.update(choices=[ALL_FILES, *files], value=value),
                render.header_html(len(papers), len(files)))

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

    def add_files(self, files: Any, progress: Callable | None = None) -> str:
        """Copy uploads under the store's home with their own names, ingest them, report what happened."""
        items = [f for f in (files or []) if f]
        if not items:
            warn("Choose one or more .txt, .jsonl or .csv files first.")
            return '<div class="ingest-report muted">No file chosen.</div>'
        folder = self.upload_folder()
        folder.mkdir(parents=True, exist_ok=True)
        targets: list[Path] = []
        names: dict[str, str] = {}
        read: list[str] = []
        rejected: list[tuple[str, str]] = []
        for item in items:
            src = Path(item if isinstance(item, (str, Path)) else getattr(item, "path", None) or item.name)
            original = Path(getattr(item, "orig_name", None) or src.name).name
            if src.suffix.lower() not in UPLOAD_TYPES:
                rejected.append((original, "is not a .txt, .jsonl or .csv file"))
                continue
            try:
                size = src.stat().st_size
            except OSError as exc:
                rejected.append((original, f"could not be read ({exc.strerror or exc})"))
                continue
            if size > MAX_UPLOAD_BYTES:
                rejected.append((original, f"is {size / 1024 / 1024:.1f} MB; the limit is {MAX_UPLOAD_MB} MB per file"))
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
            warn("Nothing was added: " + "; ".join(f"{n} {r}" for n, r in rejected))
            return render.ingest_html(None, [], rejected)

        def report_progress(done: int, total: int, stage: str) -> None:
            if progress is not None:
                label = STAGES.get(stage, stage.capitalize())
                progress((done, total) if total else None, desc=f"{label} ({done}/{total})",
                         unit="files" if stage == "reading" else "papers")

        try:
            report = self.assistant.ingest(targets, progress=report_progress)
        except AssistantError as exc:
            warn(str(exc))
            return render.ingest_html(None, [], [*rejected, *((n, str(exc)) for n in read)])
        finally:
            with self._papers_lock:
                self._papers = None
            self._forget_unused_uploads(targets)
        data = report.as_dict()
        data["skipped"] = [{"path": names.get(str(s["path"]), names.get(Path(str(s["path"])).name, Path(str(s["path"])).name)),
                            "reason": s["reason"]} for s in data.get("skipped", [])]
        if data["skipped"] or rejected:
            warn(f"Some input was skipped: see the report ({len(data['skipped']) + len(rejected)}).")
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
            conversation = self.api_conversation(str(conversation_id)[:200]) if conversation_id else None
            stream = self.assistant.stream(question, conversation=conversation, llm=self._llm(llm),
                                           k=self._api_k(k, K_MAX), where=where, page=self._api_page(page))
            for _ in stream:
                pass
            data = stream.answer.as_dict()
            details = {key: data[key] for key in ("plan", "total", "comparison", "synthesis", "complete", "model", "note")
                       if key in data}
            return data["answer"], data["citations"], details

        return self._api_call("chat", answer)

    def api_search(self, query: Any, k: Any = None, where: Any = None, page: Any = 1) -> list[dict]:
        return self._api_call("search", lambda: [api_hit(h) for h in self.assistant.search(
            query, k=self._api_k(k, SEARCH_K_MAX), where=where, page=self._api_page(page))])

    @staticmethod
    def _api_page(page: Any) -> int:
        """``page`` of a list answer as a whole number (the library bounds it), or an error naming it."""
        if page in (None, ""):
            return 1
        if isinstance(page, bool) or not isinstance(page, (int, float, str)):
            raise InputError(f"page is a {type(page).__name__}, not a number.", "Pass page as a whole number from 1.")
        try:
            number = float(page)
        except ValueError:
            raise InputError(f"page={str(page)[:40]!r} is not a number.", "Pass page as a whole number from 1.") from None
        if number != int(number):
            raise InputError(f"page={page} is not a whole number.", "Pass page as a whole number from 1.")
        return int(number)

    @staticmethod
    def _api_call(endpoint: str, work: Callable[[], Any]) -> Any:
        """Run one API request: every refusal reaches the caller as one line naming the field and the
        fix (``gr.Error``), and is logged here; nothing a caller sends takes the server down."""
        try:
            return work()
        except gr.Error as exc:
            log.info("/%s refused: %s", endpoint, exc)
            raise
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


# -- the page -----------------------------------------------------------------------------------
def build_app(assistant) -> gr.Blocks:
    """The Gradio app for ``assistant``. Launch it with ``launch(app, ...)``, which adds the styles,
    limits and safety settings (a plain ``app.launch()`` has none of them)."""
    app = WebApp(assistant)
    settings = assistant.settings
    default_k = max(1, min(K_MAX, settings.k))
    default_llm = settings.llm
    private = {"api_visibility": "private"}

    with gr.Blocks(title="Research assistant", analytics_enabled=False, delete_cache=(3600, 86400),
                   fill_width=True) as demo:
        # Gradio deep-copies a State's initial value for every new browser session. (A callable initial
        # value would do too, but Gradio exposes it as a public API endpoint.)
        session = gr.State(app.new_session())
        header = gr.HTML(render.header_html(0, 0), elem_id="app-header", js_on_load=None)
        with gr.Tabs():
            with gr.Tab("Chat", id="chat", elem_id="tab-chat"):
                with gr.Row(equal_height=False):
                    with gr.Column(scale=7, min_width=420):
                        with gr.Row(elem_id="controls"):
                            k = gr.Slider(1, K_MAX, value=default_k, step=1, label="Papers to cite (k)",
                                          scale=2, elem_id="k")
                            llm = gr.Dropdown(choices=list(LLM_CHOICES), value=default_llm, label="Answer written by",
                                              info="checking which language models are available…", scale=3,
                                              elem_id="llm")
                            new_chat = gr.Button("New chat", scale=1, min_width=110, elem_id="new-chat")
                        with gr.Accordion(render.filters_label(""), open=False, elem_id="filters") as filters_box:
                            with gr.Row(elem_id="filter-row"):
                                filter_boxes = [
                                    gr.Dropdown(choices=[], value=[], multiselect=True, label=FILTER_LABELS[facet],
                                                visible=False, allow_custom_value=facet == "keyword", min_width=150,
                                                elem_id=f"filter-{facet}")
                                    for facet in FACETS]
                                clear_filters = gr.Button("Clear", size="sm", scale=0, min_width=70,
                                                          elem_id="clear-filters")
                        chat_log = gr.HTML(render.chat_html([]), elem_id="chat-log", js_on_load=None,
                                           autoscroll=True, min_height=430, max_height=430)
                        with gr.Row(elem_id="ask-row"):
                            question = gr.Textbox(placeholder="Ask about the papers… e.g. which papers reduce "
                                                  "reasoning token usage?", show_label=False, lines=1, max_lines=4,
                                                  scale=8, autofocus=True, elem_id="question", container=False)
                            ask = gr.Button("Ask", variant="primary", scale=1, min_width=80, elem_id="ask")
                            stop = gr.Button("Stop", scale=1, min_width=80, elem_id="stop")
                        more = gr.Button("Show more", size="sm", visible=False, elem_id="show-more")
                        with gr.Row(elem_id="examples-row"):
                            example_buttons = [gr.Button(text, size="sm", elem_classes=["example"]) for text in EXAMPLES]
                    with gr.Column(scale=5, min_width=360):
                        sources = gr.HTML(render.EMPTY_SOURCES, elem_id="sources-panel", js_on_load=None,
                                          min_height=650, max_height=650)
            with gr.Tab("Library", id="library", elem_id="tab-library"):
                with gr.Row():
                    lib_text = gr.Textbox(label="Search titles and abstracts", placeholder="e.g. token pruning",
                                          scale=3, elem_id="library-search")
                    lib_source = gr.Dropdown(choices=[ALL_FILES], value=ALL_FILES, label="Source file", scale=2,
                                             elem_id="library-source")
                library = gr.HTML(elem_id="library", js_on_load=None)
            with gr.Tab("Add abstracts", id="add", elem_id="tab-add"):
                gr.Markdown(
                    f"Upload **.txt** (an optional header line such as `ICLR 2026 Papers`, then abstracts separated "
                    f"by blank lines), **.jsonl** or **.csv** (an `abstract` field, optionally `title`, `authors`, "
                    f"`year`, …). Up to {MAX_UPLOAD_MB} MB per file. Abstracts already in the library are not embedded "
                    f"again; uploading a file with the same name again replaces what it added before.")
                files = gr.File(file_count="multiple", file_types=list(UPLOAD_TYPES), type="filepath",
                                label="Abstract files", elem_id="upload")
                add = gr.Button("Add to library", variant="primary", elem_id="add-files")
                report = gr.HTML(elem_id="ingest-report", js_on_load=None)

        # chat
        chat_inputs, chat_outputs = [question, k, llm, session, *filter_boxes], [chat_log, sources, question, more]
        answer_queue = {"concurrency_id": "answer", "concurrency_limit": 2, "show_progress": "hidden"}
        ask.click(app.respond, chat_inputs, chat_outputs, **answer_queue, **private)
        question.submit(app.respond, chat_inputs, chat_outputs, **answer_queue, **private)
        for button, text in zip(example_buttons, EXAMPLES):
            button.click(partial(app.ask_example, text), [k, llm, session, *filter_boxes], chat_outputs,
                         **answer_queue, **private)
        stop.click(app.stop, [session], None, queue=False, **private)
        new_chat.click(app.new_chat, [session], [chat_log, sources, more], queue=False, **private)
        more.click(app.show_more, [k, llm, session, *filter_boxes], chat_outputs, **answer_queue, **private)

        # chat filters: the values the store's papers have, read on page load and after an upload
        for box in filter_boxes:
            box.change(app.filters_label, filter_boxes, filters_box, queue=False, show_progress="hidden", **private)
        clear_filters.click(app.clear_filters, None, [*filter_boxes, filters_box], queue=False, **private)

        # library
        lib_text.change(app.library_view, [lib_text, lib_source], library, show_progress="hidden",
                       trigger_mode="always_last", **private)
        lib_source.change(app.library_view, [lib_text, lib_source], library, show_progress="hidden", **private)

        # uploads
        def add_files(paths, progress=gr.Progress()):
            return app.add_files(paths, progress)

        add.click(add_files, [files], report, concurrency_id="ingest", concurrency_limit=1, **private).then(
            app.library_refresh, [lib_text, lib_source], [library, lib_source, header], **private).then(
            app.filters_view, filter_boxes, [*filter_boxes, filters_box], show_progress="hidden", **private)

        # page load: library, header, which LLMs are available
        demo.load(partial(app.library_refresh, force=False), [lib_text, lib_source], [library, lib_source, header],
                  **private)
        demo.load(app.backend_view, [llm], [llm], show_progress="hidden", **private)
        demo.load(app.filters_view, filter_boxes, [*filter_boxes, filters_box], show_progress="hidden", **private)

        # the API: /chat and /search (MCP tools with mcp=True)
        def chat(question: str, k: int = default_k, llm: str = default_llm,
                 conversation_id: str = "", where: str | dict = "", page: int = 1) -> tuple[str, list[dict], dict]:
            """Answer a question about the paper abstracts, citing the papers used as [n].

            Args:
                question: the question, e.g. "which papers reduce reasoning token usage?"
                k: most papers to cite, 1 to 10
                llm: who writes the answer: auto, ollama, local or none (quotes the abstracts)
                conversation_id: any string naming a conversation; calls with the same id share a
                    history, so "what about the second one?" refers to that conversation's last answer
                where: only consider papers matching these filters, e.g. "year=2026; file=a.txt", or a dict
                    {"year": 2026, "file": ["a.txt", "b.txt"]}. Fields: file, year, venue, decision, keyword,
                    contribution; several values of one field match any of them (at most 100 values in all).
                    Empty (the default): every paper.
                page: for a list question ("which papers ..."), which page of 20 papers to answer with
            Returns:
                the answer text with [n] markers; the cited papers as a list of
                {n, id, title, sources, evidence, text, topic, contributions}; and details: {plan (the
                question's kind, topics, paper set and answer form), total (papers that answer it, on
                every page), comparison (for a comparison: one row per paper, {n, problem, approach,
                evaluated_on, result}, quoted from the abstracts), synthesis (a capable model's checked
                paragraph, if any), complete, model, note}
            """
            return app.api_chat(question, k, llm, conversation_id, where, page)

        def search(query: str, k: int = default_k, where: str | dict = "", page: int = 1) -> list[dict]:
            """Find the papers relevant to a query; returns only papers judged relevant, best first (possibly none).

            Args:
                query: what to look for, e.g. "tell me about PoLR"
                k: most papers to return, 1 to 100
                where: only consider papers matching these filters, e.g. "year=2026; venue=ICLR 2026", or a
                    dict {"decision": "Accept (oral)", "keyword": ["llm", "agents"]}. Fields: file, year,
                    venue, decision, keyword, contribution; several values of one field match any of them
                    (at most 100 values in all). Empty (the default): every paper.
                page: for a list query ("papers on ..."), which page of 20 papers to return
            Returns:
                a list of {id, title, sources: [{file, position}], score, text, passage, topic, contributions}
            """
            return app.api_search(query, k, where, page)

        gr.api(chat, api_name="chat", concurrency_id="answer", concurrency_limit=2)
        gr.api(search, api_name="search", concurrency_id="answer", concurrency_limit=2)

    demo.queue(default_concurrency_limit=2)
    calm_queue(demo)
    demo.web_app = app  # for tests and embedding
    demo.store_home = Path(settings.home)
    return demo


def calm_queue(demo: gr.Blocks) -> None:
    """Poll Gradio's queue every QUEUE_POLL_SECONDS instead of every millisecond, so an idle app is idle.

    Gradio has no option for these intervals (gradio/queueing.py ``Queue.sleep_when_free``, 1 ms, and
    ``progress_update_sleep_when_free``, 10 ms), so this one function sets them;
    tests/test_hostile_input.py fails if Gradio renames them."""
    queue = demo._queue
    for name, seconds in (("sleep_when_free", QUEUE_POLL_SECONDS), ("progress_update_sleep_when_free", PROGRESS_POLL_SECONDS)):
        if not hasattr(queue, name):
            raise AttributeError(f"gradio's Queue has no {name} any more: see calm_queue")
        setattr(queue, name, seconds)


class SameOriginWrites:
    """ASGI middleware: refuse a write (POST, PUT, PATCH, DELETE) that a browser sends from another site.

    Gradio's ``strict_cors`` only withholds the CORS headers, so a page on another site can still make
    a browser POST a file to /gradio_api/upload or run an event through /queue/join; it just cannot read
    the answer. A request whose ``Origin`` header names another host or port than the one it was sent
    to is refused with 403; requests without an ``Origin`` (gradio_client, curl, MCP clients) and
    loopback names for this same port (127.0.0.1, localhost, [::1]) pass."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] in WRITE_METHODS:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            origin = headers.get("origin")
            if origin is not None and not same_origin(origin, headers.get("host", "")):
                log.warning("refused a %s to %s from origin %r", scope["method"], scope.get("path"), origin)
                response = PlainTextResponse(f"Cross-origin request refused: {origin[:100]} may not write to this app. "
                                             "Open the app at its own address.", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def same_origin(origin: str, host: str) -> bool:
    """Whether a browser's ``Origin`` is this server, reached as ``host`` (the Host header)."""
    try:
        sent, here = urlsplit(origin), urlsplit(f"//{host}")
        if sent.scheme not in ("http", "https") or not sent.hostname:
            return False
        sent_port = sent.port or (443 if sent.scheme == "https" else 80)
        here_port = here.port or 80
    except ValueError:  # a malformed port
        return False
    if sent.hostname == here.hostname and sent_port == here_port:
        return True
    loopback = {"127.0.0.1", "localhost", "::1"}
    return sent.hostname in loopback and here.hostname in loopback and sent_port == here_port


# -- launching ----------------------------------------------------------------------------------
def mcp_available() -> bool:
    return importlib.util.find_spec("mcp") is not None


def require_mcp() -> None:
    if not mcp_available():
        raise ConfigError("Serving MCP tools needs Gradio's MCP extra, which is not installed.",
                          'Install it with `pip install "gradio[mcp]"`, or run without --mcp.')


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def launch(demo: gr.Blocks, *, host: str = "127.0.0.1", port: int = 7860, mcp: bool = False,
           prevent_thread_lock: bool = True, quiet: bool = True) -> str:
    """Start the server with the safe defaults; returns the local URL. ``port=0`` picks a free port."""
    if mcp:
        require_mcp()
    port = port or free_port(host)
    blocked = [str(getattr(demo, "store_home", ""))] if getattr(demo, "store_home", None) else None
    try:
        _, url, _ = demo.launch(
            server_name=host, server_port=port, share=False, inbrowser=False, prevent_thread_lock=prevent_thread_lock,
            quiet=quiet, show_error=False, max_file_size=MAX_UPLOAD_BYTES, allowed_paths=None, blocked_paths=blocked,
            ssr_mode=False, pwa=False, mcp_server=bool(mcp), enable_monitoring=False, footer_links=["api"],
            run_history=False, strict_cors=True, theme=theme(), css=CSS, head=HEAD,
            app_kwargs={"middleware": [Middleware(SameOriginWrites)]})
    except OSError as exc:
        raise ConfigError(f"Cannot listen on {host}:{port}: {exc}.",
                          "Pass --port with a free port, or stop the program using this one.") from None
    return url


def prepare(assistant, ingest_if_empty: bool = True, out: Callable[[str], None] = print) -> None:
    """Load the bundled corpus into an empty store (with progress on the terminal), then warm up search."""
    papers = assistant.stats()["papers"]
    if papers == 0 and ingest_if_empty:
        from .progress import progress_bar

        out("The store is empty: loading the bundled ICLR 2026 abstracts (only this once)…")
        with progress_bar() as progress:
            report = assistant.ingest(progress=progress)
        out(f"{report.added} papers added in {report.seconds:.1f}s; the store holds {report.papers} papers "
            f"in {report.chunks} chunks.")
        for item in report.skipped:
            out(f"skipped {item.path}: {item.reason}")
    elif papers == 0:
        out("The store is empty: add abstracts in the browser (Add abstracts tab) or with `assistant ingest`.")
    if assistant.stats()["papers"]:
        out("Loading the embedding model and the search index…")
        try:
            assistant.search("warm up", k=1)
        except AssistantError as exc:
            out(f"note: {exc}")


def serve(assistant, host: str = "127.0.0.1", port: int = 7860, mcp: bool = False,
          ingest_if_empty: bool = True) -> None:
    """`assistant ui`: ingest the bundled corpus if the store is empty, then serve the app until Ctrl-C."""
    if mcp:
        require_mcp()
    prepare(assistant, ingest_if_empty)
    demo = build_app(assistant)
    threading.Thread(target=demo.web_app.warm, name="warm-library", daemon=True).start()
    url = launch(demo, host=host, port=port, mcp=mcp, prevent_thread_lock=True, quiet=True)
    print(f"Research assistant: {url}  (Ctrl-C to stop)", flush=True)
    if host not in LOCAL_HOSTS:
        print(f"warning: listening on {host}, so other machines can reach this app (it has no login).", flush=True)
    if mcp:
        print(f"MCP tools (chat, search): {url.rstrip('/')}/gradio_api/mcp/", flush=True)
    try:
        wait_until_interrupted()
    except KeyboardInterrupt:
        print("Stopping.", flush=True)
    finally:
        demo.close()


def wait_until_interrupted() -> None:
    """Sleep until Ctrl-C (a KeyboardInterrupt ends the wait). Not ``demo.block_thread()``: that wakes
    every 100 ms to check whether the app still runs, 0.1% of a core for nothing."""
    threading.Event().wait()
