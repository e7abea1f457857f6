"""The browser chat's page: tabs, controls and the events that wire them to a ``WebApp``, and the named
API endpoints ``/chat`` and ``/search`` (MCP tools with ``mcp=True``).

This module deliberately has no ``from __future__ import annotations``: ``gr.api`` reads the
endpoint functions' type hints at runtime.
"""

from functools import partial
from pathlib import Path

import gradio as gr

from assistant.filters import FACETS
from assistant.settings import LLM_CHOICES

from . import web_render as render
from .web_app import ALL_FILES, EXAMPLES, FILTER_LABELS, K_MAX, MAX_UPLOAD_BYTES, MAX_UPLOAD_MB, UPLOAD_TYPES, WebApp
from .web_style import upload_check

# Gradio's queue looks for new events every 1 ms while it is empty, and for progress every 10 ms: 4.6% of a
# core with nobody connected (bench/idle.py). Polling every 100 ms and 250 ms brings an idle app under
# 0.5%; an event then waits at most 100 ms to start (50 ms on average), which a question or search
# that takes a second does not feel.
QUEUE_POLL_SECONDS = 0.1
PROGRESS_POLL_SECONDS = 0.25
# Gradio queues each concurrency id apart: a search never waits behind answers (which took a lone /search from
# 0.2 s to 31.7 s when they shared one queue of two). Answers by a model are limited further (``web_limits``).
ANSWER_QUEUE = {"concurrency_id": "answer", "concurrency_limit": 2}
SEARCH_QUEUE = {"concurrency_id": "search", "concurrency_limit": 2}


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
                        # not Gradio's autoscroll to the bottom: web_style.HEAD scrolls to each new question
                        chat_log = gr.HTML(render.chat_html([]), elem_id="chat-log", js_on_load=None,
                                           autoscroll=False, min_height=430, max_height=430)
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
                    f"`year`, …), or any of them gzipped (**.jsonl.gz**, an OpenReview export). Up to {MAX_UPLOAD_MB} MB per file. Abstracts already in the library are not embedded "
                    f"again; uploading a file with the same name again replaces what it added before.")
                files = gr.File(file_count="multiple", file_types=list(UPLOAD_TYPES), type="filepath",
                                label="Abstract files", elem_id="upload")
                add = gr.Button("Add to library", variant="primary", elem_id="add-files")
                # why the files Gradio would refuse were not uploaded, then what Add did (web_style.upload_check)
                report = gr.HTML(elem_id="ingest-report", js_on_load=upload_check(MAX_UPLOAD_BYTES, UPLOAD_TYPES))
                refused = gr.State([])

        # chat
        chat_inputs, chat_outputs = [question, k, llm, session, *filter_boxes], [chat_log, sources, question, more]
        answer_queue = {**ANSWER_QUEUE, "show_progress": "hidden"}
        ask.click(app.respond, chat_inputs, chat_outputs, **answer_queue, **private)
        question.submit(app.respond, chat_inputs, chat_outputs, **answer_queue, **private)
        for button, text in zip(example_buttons, EXAMPLES):
            button.click(partial(app.ask_example, text), [k, llm, session, *filter_boxes], chat_outputs,
                         **answer_queue, **private)
        stop.click(app.stop, [session], None, queue=False, **private)
        new_chat.click(app.new_chat, [session], [chat_log, sources, more], queue=False, **private)
        more.click(app.show_more, [k, llm, session], chat_outputs, **answer_queue, **private)

        # chat filters: the values the store's papers have, read on page load and after an upload
        for box in filter_boxes:
            box.change(app.filters_label, filter_boxes, filters_box, queue=False, show_progress="hidden", **private)
        clear_filters.click(app.clear_filters, None, [*filter_boxes, filters_box], queue=False, **private)

        # library
        lib_text.change(app.library_view, [lib_text, lib_source], library, show_progress="hidden",
                       trigger_mode="always_last", **private)
        lib_source.change(app.library_view, [lib_text, lib_source], library, show_progress="hidden", **private)

        # uploads
        def add_files(paths, refused_files, progress=gr.Progress()):
            return app.add_files(paths, progress, refused_files)

        def refused_uploads(event: gr.EventData):
            return app.refused_uploads(event._data)

        report.refused(refused_uploads, None, [report, refused], queue=False, show_progress="hidden", **private)
        add.click(add_files, [files, refused], report, concurrency_id="ingest", concurrency_limit=1, **private).then(
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
                conversation_id: any string of at most 200 characters naming a conversation; calls with
                    the same id share a history, so "what about the second one?" refers to that conversation's last answer
                where: only consider papers matching these filters, e.g. "year=2026; file=a.txt", or a dict
                    {"year": 2026, "file": ["a.txt", "b.txt"]}. Fields: file, year, venue, decision (or a group:
                    accepted, oral, withdrawn, ...), area (a primary area or a part of one), keyword,
                    contribution; several values of one field match any of them (at most 100 values in all).
                    Empty (the default): every paper.
                page: for a list question ("which papers ..."), which page of 20 papers to answer with,
                    1 to 10,000 (details' next_page names the next one)
            Returns:
                the answer text with [n] markers; the cited papers as a list of {n, id, title, sources,
                evidence, text, topic, contributions, main_contribution, method_forms, savings, url, primary_area,
                tldr, decision}; and details: {plan (the
                question's kind, topics, paper set and answer form), total (papers that answer it, on
                every page), more (papers on later pages), next_page (the page that lists them, or
                null), comparison (for a comparison: one row per paper, {n, problem, approach,
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
                    dict {"decision": "accepted", "area": "reinforcement learning"}. Fields: file, year,
                    venue, decision (or accepted, oral, withdrawn, ...), area (or a part of one), keyword,
                    contribution; several values of one field match any of them
                    (at most 100 values in all). Empty (the default): every paper.
                page: for a list query ("papers on ..."), which page of 20 papers to return, 1 to 10,000
            Returns:
                a list of {id, title, sources: [{file, position}], score, text, passage, topic, contributions,
                main_contribution, data_uses, method_forms, savings, url, primary_area, tldr, decision}
            """
            return app.api_search(query, k, where, page)

        gr.api(chat, api_name="chat", **ANSWER_QUEUE)
        gr.api(search, api_name="search", **SEARCH_QUEUE)

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
