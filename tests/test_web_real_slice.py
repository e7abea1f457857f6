"""The browser chat on a real slice of ICLR 2026 (every 10th paper of ``../shared/corpus``, 1,963 papers), with the
settings a new user has: the writer left on "auto" and no Ollama running (real chromium, the real encoder)."""

from __future__ import annotations

import re

import pytest

from .test_web import CHROMIUM, LATEST_QUESTION, _free_port, _open_page, _serve, ask, browser, shot  # noqa: F401

needs_browser = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian chromium at /usr/bin/chromium")
LONG_LIST = "which papers are about diffusion language models?"


@pytest.fixture(scope="module")
def slice_server(real_slice, embedder):
    from assistant import Assistant, Settings

    settings = Settings.from_env(env={}, home=real_slice, ollama_host=f"http://127.0.0.1:{_free_port()}", llm_timeout=5)
    assert settings.llm == "auto"
    assistant = Assistant(settings, embedder=embedder)
    assistant.search("warm up", k=1)
    demo = _serve(assistant)
    yield demo
    demo.close()


@pytest.fixture
def page(browser, slice_server):  # noqa: F811
    context, pg = _open_page(browser, slice_server.url)
    yield pg
    context.close()


def last_turn(page):
    return page.locator("#chat-log .turn").last


@needs_browser
def test_with_no_ollama_auto_writes_with_quotes_and_the_next_question_can_be_asked(page):
    """Item 1: "auto" without a capable backend does not pick the 135M model, so a list answer is whole quotes
    and the Ask button is free again as soon as it ends."""
    ask(page, LONG_LIST)
    turn = last_turn(page)
    assert "written by none" in turn.locator(".meta").inner_text(), turn.locator(".meta").inner_text()
    assert turn.locator("a.cite").count() >= 5
    assert page.locator("#ask").is_enabled() and page.locator("#question textarea").is_editable()


@needs_browser
def test_new_questions_come_into_view_over_long_real_answers(page):
    """Item 2: each new question is at the top of the chat box while its (long) answer streams."""
    for number, question in enumerate([LONG_LIST, "which papers are about test-time adaptation?",
                                       "any new benchmarks for LLM agents?"], 1):
        ask(page, question)
        at = page.evaluate(LATEST_QUESTION)
        assert at["tall"], f"answer {number} is shorter than the chat box"
        assert -1 <= at["top"] < 40 and at["bottom"] >= -1, f"question {number} is not at the top of the box: {at}"
    assert page.evaluate("window.scrollY") < 5, "the chat box scrolls, not the page"


@needs_browser
def test_how_do_they_differ_after_a_long_list_compares_the_best_few_in_a_table_that_fits(page):
    """Items 3 and 4: "how do they differ?" after a long list compares its best k, says so, and the table fits a
    1,280 px window."""
    page.set_viewport_size({"width": 1280, "height": 900})
    ask(page, LONG_LIST)
    listed = int(re.search(r"([\d,]+) papers in the store", last_turn(page).inner_text()).group(1).replace(",", ""))
    ask(page, "how do they differ?")
    turn = last_turn(page)
    table = turn.locator("table.comparison")
    rows = table.locator("tbody tr").count()
    assert 2 <= rows < listed, (rows, listed)
    assert f"Comparing the {rows} best of the last answer's {listed:,} papers" in turn.inner_text()
    sizes = table.evaluate("""t => ({table: t.getBoundingClientRect().width,
        paper: t.querySelector('thead th').getBoundingClientRect().width,
        cells: [...t.querySelectorAll('tbody td')].map(td => td.getBoundingClientRect().width)})""")
    assert sizes["paper"] <= 0.3 * sizes["table"] and min(sizes["cells"]) >= 140, sizes
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    shot(page, "real-slice-comparison")


@needs_browser
def test_a_question_is_read_from_its_own_words_and_nothing_combines_what_none_is_on(page):
    """Items 5 and 6: "protein folding with quantum computers" says that no paper is on both and shows the
    nearest on each; the next question, which leans on nothing, is not read together with it."""
    ask(page, "which papers are on protein folding with quantum computers?")
    text = last_turn(page).inner_text()
    assert "No paper in the store is on both protein folding and quantum computers" in text, text[:400]
    assert "On protein folding:" in text, text[:600]
    assert "On quantum computers:" in text, text[:900]
    ask(page, "What's hot in RL this year?")
    turn = last_turn(page)
    plan = turn.locator(".plan-line").inner_text()
    assert "protein" not in plan.lower() and "named paper" not in plan.lower(), plan
