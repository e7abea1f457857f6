"""Serving the browser chat: ``launch`` with the safe defaults (127.0.0.1, no share link, no analytics,
writes from other sites refused by ``SameOriginWrites``), and ``serve`` for `assistant ui`.
"""

import importlib.util
import logging
import socket
import threading
from typing import Callable
from urllib.parse import urlsplit

import gradio as gr
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse

from assistant.errors import AssistantError, ConfigError, StoreError

from .web_app import MAX_UPLOAD_BYTES
from .web_layout import build_app
from .web_style import CSS, HEAD, theme

log = logging.getLogger("ui.web")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


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
    return sent.hostname in LOCAL_HOSTS and here.hostname in LOCAL_HOSTS and sent_port == here_port


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
    try:
        prepare(assistant, ingest_if_empty)
    except StoreError as exc:  # a damaged or unwritable store: the page says so too, and the server runs on
        print(f"note: {exc}", flush=True)
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
