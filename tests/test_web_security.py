"""The web app under hostile requests and load: no files leak, no foreign origin is allowed,
oversized uploads are refused, API conversations stay apart, and answers keep coming during an ingest."""

from __future__ import annotations

import json
import shutil
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

QUESTIONS = ["which papers reduce reasoning token usage", "proof simplification for Lean",
             "virtual cell perturbation prediction", "legal reasoning benchmark in English and German",
             "token pruning for long video MLLMs", "world model for robot policy evaluation",
             "data synthesis for information-seeking agents", "text-to-image generation by inverting CLIP"]


@pytest.fixture(scope="module")
def app(corpus_home, embedder, tmp_path_factory):
    from assistant import Assistant, Settings
    from ui.web import build_app, free_port, launch

    home = tmp_path_factory.mktemp("websec") / "home"
    shutil.copytree(corpus_home, home)
    settings = Settings.from_env(env={}, home=home, llm="none", ollama_host=f"http://127.0.0.1:{free_port()}")
    demo = build_app(Assistant(settings, embedder=embedder))
    demo.url = launch(demo, port=0, prevent_thread_lock=True)
    yield demo
    demo.close()


def fetch(url: str, headers: dict | None = None, data: bytes | None = None, method: str | None = None):
    request = urllib.request.Request(url, headers=headers or {}, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_files_outside_the_app_are_refused(app):
    chroma = next(app.store_home.rglob("chroma.sqlite3"))
    targets = ["gradio_api/file=/etc/passwd", "file=/etc/passwd", f"gradio_api/file={chroma}",
               "gradio_api/file=../../../../etc/passwd", "gradio_api/file=..%2F..%2F..%2F..%2Fetc%2Fpasswd",
               "static/../../../../etc/passwd", "assets/..%2f..%2f..%2fetc%2fpasswd",
               f"gradio_api/file={app.store_home}/chroma/../chroma/chroma.sqlite3"]
    for target in targets:
        status, _headers, body = fetch(app.url + target)
        assert status in (400, 403, 404, 405), (target, status)
        assert b"root:x:0" not in body and b"SQLite format" not in body, target


def test_a_foreign_origin_gets_no_cors_allowance(app):
    for path, method in (("config", "GET"), ("gradio_api/info", "GET"), ("gradio_api/call/search", "OPTIONS")):
        headers = {"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}
        _status, response_headers, _ = fetch(app.url + path, headers=headers, method=method)
        allowed = {k.lower(): v for k, v in response_headers.items()}.get("access-control-allow-origin")
        assert allowed not in ("*", "http://evil.example"), (path, allowed)


def test_oversized_upload_is_refused(app):
    from ui.web import MAX_UPLOAD_BYTES

    boundary = "----assistanttest"
    payload = b"x" * (MAX_UPLOAD_BYTES + 1024)
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.txt\"\r\n"
            "Content-Type: text/plain\r\n\r\n").encode() + payload + f"\r\n--{boundary}--\r\n".encode()
    status, _headers, text = fetch(app.url + "gradio_api/upload", data=body,
                                   headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    assert status == 413, (status, text[:200])


def test_eight_api_conversations_keep_their_histories_apart(app):
    from gradio_client import Client

    def converse(index: int) -> tuple[str, str]:
        client = Client(app.url, verbose=False)
        conversation = f"user-{index}"
        _text, first, _details = client.predict(QUESTIONS[index], 3, "none", conversation, api_name="/chat")
        _text, follow, _details = client.predict("what about the first one?", 3, "none", conversation, api_name="/chat")
        return first[0]["id"], [c["id"] for c in follow]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(converse, range(8)))
    firsts = [first for first, _ in results]
    assert len(set(firsts)) == 8  # eight different topics
    for first, follow in results:
        assert follow == [first]  # each follow-up resolved against its own conversation


def test_answers_keep_coming_while_an_ingest_runs(app, tmp_path):
    from gradio_client import Client

    sentences = [s for s in QUESTIONS]
    rows = [{"abstract": f"We introduce Load{i}Net, a method for {sentences[i % 8]} that is evaluated on "
                         f"benchmark number {i} with strong results across many settings and ablations."}
            for i in range(300)]
    upload = tmp_path / "load.jsonl"
    upload.write_text("\n".join(json.dumps(r) for r in rows))
    done = threading.Event()
    searched = threading.Event()
    report: list[str] = []

    def hold_the_ingest(*_args, **_kwargs) -> None:
        # The ingest pauses inside its embedding stage (the store's write lock held) until the
        # searches below have run, so the test does not depend on how fast this machine embeds.
        if not searched.is_set() and "Embedding" in _kwargs.get("desc", ""):
            searched.wait(timeout=120)

    def ingest() -> None:
        report.append(app.web_app.add_files([str(upload)], progress=hold_the_ingest))
        done.set()

    writer = threading.Thread(target=ingest)
    writer.start()
    client = Client(app.url, verbose=False)
    answered_during = 0
    started = time.monotonic()
    while not done.is_set() and time.monotonic() - started < 600:
        hits = client.predict("proof simplification for Lean", 3, api_name="/search")
        # ProofOptimizer, or (once the ingest has written them) the uploaded abstracts that say those words
        assert hits[0]["title"].startswith("ProofOptimizer") or "proof simplification for Lean" in hits[0]["text"]
        answered_during += not done.is_set()
        if answered_during >= 3:
            searched.set()
    searched.set()
    writer.join(timeout=600)
    assert answered_during >= 3, "search should answer while the ingest runs"
    assert "300" in report[0]
    assert client.predict("tell me about Load7Net", 3, api_name="/search")[0]["title"].startswith("Load7Net")


def test_mcp_flag_serves_chat_and_search_as_tools(app, corpus_home, embedder, tmp_path):
    """A real MCP client (the `mcp` package) lists the tools and calls search over SSE."""
    import asyncio

    from mcp import ClientSession
    from mcp.client.sse import sse_client

    from assistant import Assistant, Settings
    from ui.web import build_app, launch

    demo = build_app(Assistant(Settings.from_env(env={}, home=app.store_home, llm="none"), embedder=embedder))
    url = launch(demo, port=0, mcp=True, prevent_thread_lock=True)

    async def call_search() -> tuple[set[str], str]:
        async with sse_client(url + "gradio_api/mcp/sse") as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {tool.name for tool in (await session.list_tools()).tools}
                result = await session.call_tool("search", {"query": "tell me about PoLR", "k": 3})
                return tools, " ".join(getattr(part, "text", "") for part in result.content)

    try:
        status, _headers, body = fetch(url + "gradio_api/mcp/schema")
        assert status == 200 and {"chat", "search"} <= {tool["name"] for tool in json.loads(body)}
        tools, text = asyncio.run(asyncio.wait_for(call_search(), timeout=120))
        assert {"chat", "search"} <= tools
        assert "PoLR" in text and "Path of Least Resistance" in text
    finally:
        demo.close()
