"""The question plan in the browser chat and its API: the plan line, a list that pages with
"Show more" (under the filters of the first page), contribution labels on the sources, a follow-up
comparison table, and how the page and the API read k and page (real Chromium driven by Playwright,
and gradio_client), on a copy of the bundled-corpus store."""

from __future__ import annotations

import re
import shutil

import pytest

from .test_web import (SHOTS, _free_port, _open_page, _serve, ask, browser, choose_filter,  # noqa: F401
                       latest_sources, needs_browser, shot)

PAGE = 3  # papers a page here, so that a list question of the bundled corpus has several pages
LIST_QUESTION = "which papers use reinforcement learning?"
FILE = "004_6909a62b24dbb033.txt"  # a source file holding several of the list's papers, not all


@pytest.fixture(scope="module")
def paged_server(corpus_home, embedder, tmp_path_factory):
    from assistant import Assistant, Settings

    home = tmp_path_factory.mktemp("paged") / "home"
    shutil.copytree(corpus_home, home)
    settings = Settings.from_env(env={}, home=home, llm="none", page_size=PAGE,
                                 ollama_host=f"http://127.0.0.1:{_free_port()}")
    demo = _serve(Assistant(settings, embedder=embedder))
    yield demo
    demo.close()


@pytest.fixture
def page(browser, paged_server):  # noqa: F811
    context, pg = _open_page(browser, paged_server.url)
    yield pg
    context.close()


def badges(turn) -> list[int]:
    return sorted({int(n) for n in turn.locator("a.cite").evaluate_all("els => els.map(e => e.dataset.n)")})


@needs_browser
def test_a_list_question_pages_with_show_more(page):
    ask(page, LIST_QUESTION)
    first = page.locator("#chat-log .turn").last
    text = first.inner_text()
    assert "list question: every paper on use reinforcement learning" in text
    total = int(text.split(" papers in the store answer this")[0].split()[-1])
    assert total > 2 * PAGE and f"1\u2013{PAGE}:" in text
    assert badges(first) == [1, 2, 3] and f"{total - PAGE} more" in text
    assert text.count(f"{total - PAGE} more") == 1  # the page's own hint, beside its button
    assert page.locator("#sources-panel .label").count() >= PAGE  # each paper's kinds of contribution

    more = page.locator("#show-more")
    assert more.is_visible()
    more.click()
    page.wait_for_function("document.querySelectorAll('#chat-log .turn').length == 2 && "
                           "!document.querySelector('#chat-log .a.pending')", timeout=60_000)
    second = page.locator("#chat-log .turn").last
    assert f"{LIST_QUESTION} (page 2)" in second.inner_text()
    assert badges(second) == [4, 5, 6] and f"{PAGE + 1}\u2013{2 * PAGE}:" in second.inner_text()
    panel = page.locator("#sources-panel").inner_text()
    assert "(page 2)" in panel and "Sources of earlier answers" in panel
    shot(page, "list-pages")

    page.click("#new-chat")
    page.wait_for_function("document.querySelectorAll('#chat-log .turn').length == 0")
    assert not more.is_visible()


def short_titles(titles) -> list[str]:
    return [t.split(":")[0].strip() for t in titles]


@needs_browser
def test_show_more_keeps_the_filters_of_the_first_page(page, paged_server):
    filtered = paged_server.web_app.assistant.find(LIST_QUESTION, where=f"file={FILE}", page_size=None)
    everything = paged_server.web_app.assistant.find(LIST_QUESTION, page_size=None)
    assert filtered.total > PAGE and [h.id for h in everything.hits[PAGE:2 * PAGE]] != \
        [h.id for h in filtered.hits[PAGE:2 * PAGE]]
    page.click("#filters .label-wrap")
    page.wait_for_selector("#filter-file", state="visible")
    choose_filter(page, "file", FILE)
    page.wait_for_function(f"document.querySelector('#filters .label-wrap').innerText.includes('only file {FILE}')")
    ask(page, LIST_QUESTION)
    first = page.locator("#chat-log .turn").last
    assert f"{filtered.total} papers matching the filters answer this" in first.inner_text()
    assert short_titles(t for t, _ in latest_sources(page)) == short_titles(h.title for h in filtered.hits[:PAGE])

    page.click("#clear-filters")  # the boxes change; the next page keeps the filters its first page had
    page.wait_for_function("document.querySelector('#filters .label-wrap').innerText.includes('all papers')")
    page.click("#show-more")
    page.wait_for_function("document.querySelectorAll('#chat-log .turn').length == 2 && "
                           "!document.querySelector('#chat-log .a.pending')", timeout=60_000)
    second = page.locator("#chat-log .turn").last
    assert f"{PAGE + 1}\u2013{2 * PAGE}:" in second.inner_text() and badges(second) == [4, 5, 6]
    assert f"{filtered.total} papers matching the filters answer this" in second.inner_text()
    assert short_titles(t for t, _ in latest_sources(page)) == \
        short_titles(h.title for h in filtered.hits[PAGE:2 * PAGE])
    assert all(FILE in files for _, files in latest_sources(page))
    assert f"only file {FILE}" in second.locator(".meta").inner_text()


@needs_browser
def test_a_follow_up_comparison_shows_a_table(page):
    ask(page, "which papers reduce reasoning token usage?")
    ask(page, "how do they differ?")
    turn = page.locator("#chat-log .turn").last
    assert "comparison of the" in turn.inner_text() and "papers of the last answer" in turn.inner_text()
    table = turn.locator("table.comparison")
    assert table.count() == 1
    heads = table.locator("thead th").all_inner_texts()
    assert heads == ["Paper", "Problem", "Approach", "Evaluated on", "Headline result"]
    rows = table.locator("tbody tr")
    names = [rows.nth(i).locator("th").inner_text() for i in range(rows.count())]
    assert any("PoLR" in n for n in names) and any("LASER-D" in n for n in names)
    assert rows.nth(0).locator("a.cite").count() == 1  # a citation badge per row
    assert "AIME2024" in table.inner_text() and "64" in table.inner_text()  # LASER-D's numbers, as written
    # build/screenshots/comparison.png (docs/comparison.png): this turn whole, the chat log unclipped
    page.add_style_tag(content="#chat-log .html-container { max-height: none !important; }")
    SHOTS.mkdir(parents=True, exist_ok=True)
    turn.screenshot(path=str(SHOTS / "comparison.png"))


@needs_browser
def test_follow_ups_by_number_and_the_others_in_the_page(page):
    ask(page, "Which papers reduce the cost of LLM reasoning at inference time?")
    listed = badges(page.locator("#chat-log .turn").last)
    ask(page, "compare the first two")
    turn = page.locator("#chat-log .turn").last
    assert "comparison of papers [1], [2] of the last answer" in turn.inner_text()
    assert turn.locator("table.comparison tbody tr").count() == 2
    ask(page, "what about the other ones?")
    turn = page.locator("#chat-log .turn").last
    text = turn.inner_text()
    assert "that the last answer left out" in text  # the plan line
    rest = len(listed) - 2
    assert rest >= 1 and len(badges(turn)) == rest
    assert ("The paper the last answer left out:" if rest == 1 else f"The {rest} papers the last answer left out:") in text


def test_api_chat_returns_the_plan_pages_and_the_comparison(paged_server):
    from gradio_client import Client

    client = Client(paged_server.url, verbose=False)
    text, citations, details = client.predict(LIST_QUESTION, 5, "none", api_name="/chat")
    assert details["plan"]["kind"] == "list" and details["total"] > 2 * PAGE
    assert details["more"] == details["total"] - PAGE and details["next_page"] == 2  # how many more, and where
    assert f"{details['more']} more" not in text
    assert [c["n"] for c in citations] == [1, 2, 3] and all("contributions" in c for c in citations)
    text, citations, details = client.predict(LIST_QUESTION, 5, "none", "", "", 2, api_name="/chat")
    assert [c["n"] for c in citations] == [4, 5, 6] and "[4]" in text and details["plan"]["page"] == 2
    assert details["more"] == details["total"] - 2 * PAGE and details["next_page"] == (3 if details["more"] else None)
    hits = client.predict(LIST_QUESTION, 5, "", 2, api_name="/search")
    assert [h["id"] for h in hits] == [c["id"] for c in citations]

    text, citations, details = client.predict("How does ZeroSiam differ from Test-Time Matching (TTM)?", 5, "none",
                                              api_name="/chat")
    assert details["plan"]["kind"] == "compare"
    assert [row["n"] for row in details["comparison"]] == [c["n"] for c in citations] == [1, 2]
    with pytest.raises(Exception, match=re.escape("page='soon' is not a page number. Pass a whole number from 1 to "
                                                  "10,000, or leave page out for 1.")):
        client.predict(LIST_QUESTION, 5, "none", "", "", "soon", api_name="/chat")


def test_k_and_page_are_read_alike_by_the_page_and_the_api(paged_server):
    """One parser for k (the slider, /chat, /search) and page (/chat, /search): "2.0" is 2 for both,
    "abc", "2.5", 0 and a filter are refused alike, naming the field, its range and the fix."""
    from gradio_client import Client

    from assistant.errors import InputError

    app = paged_server.web_app
    assert app._k("2.0") == app._k(2.0) == app._k(" 2 ") == 2 and app._page("2.0") == app._page(2.0) == 2
    assert app._k(None) == app._k("") == 5 and app._page(None) == app._page("") == 1
    refusals = {"k": "k={!r} is not a number of papers. Pass a whole number from 1 to 10, or leave k out for 5.",
                "page": "page={!r} is not a page number. Pass a whole number from 1 to 10,000, or leave page out "
                        "for 1."}
    for name, read, too_many in (("k", app._k, 11), ("page", app._page, 10_001)):
        for bad in ("abc", "2.5", 0, "0", -3, True, too_many, str(too_many), "1e3", [2]):
            with pytest.raises(InputError) as refused:
                read(bad)
            assert str(refused.value) == refusals[name].format(bad), (name, bad)
    with pytest.raises(InputError, match=re.escape("k='year=2026' is not a number of papers. Pass a whole number "
                                                   "from 1 to 10, or leave k out for 5. Filters go in `where`.")):
        app._k("year=2026")

    client = Client(paged_server.url, verbose=False)
    second = client.predict(LIST_QUESTION, 5, "", 2, api_name="/search")
    assert second and client.predict(LIST_QUESTION, "5.0", "", "2.0", api_name="/search") == second
    _text, citations, details = client.predict(LIST_QUESTION, "5.0", "none", "", "", "2.0", api_name="/chat")
    assert [c["id"] for c in citations] == [h["id"] for h in second] and details["plan"]["page"] == 2
    for k, page, refusal in (("abc", 1, "k='abc' is not a number of papers. Pass a whole number from 1 to 100"),
                             (5, "abc", "page='abc' is not a page number. Pass a whole number from 1 to 10,000"),
                             ("2.5", 1, "k='2.5' is not a number of papers"), (5, "2.5", "page='2.5' is not a page")):
        with pytest.raises(Exception, match=re.escape(refusal)):
            client.predict(LIST_QUESTION, k, "", page, api_name="/search")
    with pytest.raises(Exception, match=re.escape("k='abc' is not a number of papers. Pass a whole number from 1 "
                                                  "to 10,")):
        client.predict(LIST_QUESTION, "abc", "none", api_name="/chat")

    with pytest.warns(UserWarning):
        *_, (chat, _, _, _) = list(app.respond(LIST_QUESTION, "abc", "none", app.new_session()))  # the slider's k
    assert "k=&#x27;abc&#x27; is not a number of papers" in chat and "error-box" in chat
