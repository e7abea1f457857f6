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

The parts: ``ui.web_app`` (what the page and the API do), ``ui.web_layout`` (the page),
``ui.web_launch`` (the server); this module gathers their public names.
"""

from .web_app import (API_CONVERSATIONS, K_MAX, MAX_UPLOAD_BYTES, MAX_UPLOAD_MB, SEARCH_K_MAX, UPLOAD_TYPES, Session,
                      WebApp, api_hit, dropdown_filters)
from .web_launch import (SameOriginWrites, free_port, launch, mcp_available, prepare, require_mcp, same_origin, serve,
                         wait_until_interrupted)
from .web_layout import PROGRESS_POLL_SECONDS, QUEUE_POLL_SECONDS, build_app, calm_queue

__all__ = ["API_CONVERSATIONS", "K_MAX", "MAX_UPLOAD_BYTES", "MAX_UPLOAD_MB", "PROGRESS_POLL_SECONDS",
           "QUEUE_POLL_SECONDS", "SEARCH_K_MAX", "UPLOAD_TYPES", "SameOriginWrites", "Session", "WebApp", "api_hit",
           "build_app", "calm_queue", "dropdown_filters", "free_port", "launch", "mcp_available", "prepare",
           "require_mcp", "same_origin", "serve", "wait_until_interrupted"]
