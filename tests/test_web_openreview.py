"""The browser on a slice of the real ICLR 2026 export: titles link to their OpenReview pages, the sources show
each paper's primary area and TL;DR, and the area filter restricts the cited papers (real chromium)."""

from __future__ import annotations

import gzip
import json
from collections import Counter

import pytest

from .conftest import ROOT
from .test_web import CHROMIUM, _open_page, _serve, ask, browser, choose_filter, only_local_requests  # noqa: F401

CORPUS = ROOT.parent / "shared" / "corpus" / "iclr2026.jsonl.gz"
QUESTION = "which papers improve large language models?"

needs_browser = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian chromium at /usr/bin/chromium")


@pytest.fixture(scope="module")
def export_rows():
    if not CORPUS.exists():
        pytest.skip(f"the ICLR 2026 corpus is not at {CORPUS} (shared/ beside the repository)")
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for number, line in enumerate(fh) if number % 200 == 0]


@pytest.fixture(scope="module")
def export_server(export_rows, embedder, tmp_path_factory):
    from assistant import Assistant, Settings

    folder = tmp_path_factory.mktemp("web-openreview")
    sliced = folder / "iclr2026-slice.jsonl.gz"
    with gzip.open(sliced, "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(row) + "\n" for row in export_rows)
    assistant = Assistant(Settings.from_env(env={}, home=folder / "home", llm="none"), embedder=embedder)
    assert assistant.ingest([sliced]).added == len(export_rows)
    demo = _serve(assistant)
    yield demo
    demo.close()


def _offered(page, facet: str) -> list[str]:
    """The values a filter dropdown offers, read at once (the list is redrawn while it opens)."""
    page.click(f"#filter-{facet} input")
    page.wait_for_selector("li[role=option]")
    offered = page.eval_on_selector_all("li[role=option]", "items => items.map(i => i.getAttribute('aria-label'))")
    page.keyboard.press("Escape")
    return offered


def _cards(page) -> list[dict]:
    cards = page.locator("#sources-panel .sources > .src").all()
    return [{"title": card.locator(".src-title").inner_text(),
             "link": card.locator(".src-title a.src-link").evaluate(
                 "a => ({href: a.href, target: a.target, rel: a.rel})") if card.locator(".src-title a").count() else None,
             "area": " ".join(card.locator(".label.primary-area").all_inner_texts()),
             "tldr": card.locator(".tldr").count() == 1} for card in cards]


@needs_browser
def test_titles_link_to_openreview_and_the_area_filter_restricts_the_sources(browser, export_server, export_rows):  # noqa: F811
    by_title = {" ".join(row["title"].split()): row for row in export_rows}
    context, page = _open_page(browser, export_server.url)
    try:
        page.click("#filters .label-wrap")
        page.wait_for_selector("#filter-area", state="visible")
        assert set(_offered(page, "area")) == {row["primary_area"] for row in export_rows}
        assert "accepted" in _offered(page, "decision")

        ask(page, QUESTION)
        everywhere = _cards(page)
        assert len({card["area"] for card in everywhere}) >= 2, everywhere  # the filter below has work to do
        for card in everywhere:
            row = by_title[" ".join(card["title"].split())]
            assert card["link"] == {"href": row["openreview_url"], "target": "_blank", "rel": "noopener noreferrer"}
            assert card["area"] == row["primary_area"] and card["tldr"] == bool(row["tldr"])

        area = Counter(card["area"] for card in everywhere).most_common(1)[0][0]
        choose_filter(page, "area", area)
        page.wait_for_function("document.querySelector('#filters .label-wrap').innerText.includes('only area')")
        ask(page, QUESTION)
        restricted = _cards(page)
        assert restricted and {card["area"] for card in restricted} == {area}
        assert len(restricted) < len(everywhere) or {c["title"] for c in restricted} < {c["title"] for c in everywhere}
        only_local_requests(page, export_server)
    finally:
        context.close()


# -- the browser's sources panel ---------------------------------------------------------------------------
def _citation(**paper):
    from assistant.answer import Citation

    return Citation(1, "p1", "S$^2$-Guidance: <b>bold</b>", [{"file": "a.jsonl", "position": 1, "path": "/a"}],
                    "It improves by 90\\%.", "We show it. It improves by 90\\%.", paper=paper)


@pytest.mark.parametrize("url, linked", [
    ("https://openreview.net/forum?id=AbCdEfGh12", True),
    ("http://example.org/paper", True),
    ("javascript:alert(1)", False),
    ("file:///etc/passwd", False),
    ('https://x.org/"onmouseover="alert(1)', False),
    (None, False),
])
def test_source_card_links_the_title_only_to_a_web_page(url, linked):
    from ui.web_render import source_card

    card = source_card(1, _citation(**({"url": url} if url else {})))
    assert ("<a class=\"src-link\"" in card) == linked
    assert "&lt;b&gt;bold&lt;/b&gt;" in card and "<b>bold</b>" not in card  # the title escaped, linked or not
    if linked:
        assert f'href="{url}" target="_blank" rel="noopener noreferrer"' in card
    # LaTeX shown as the text it writes (the stored abstract and the API's evidence keep it as written)
    assert "90%" in card and "90\\%" not in card and "S²-Guidance" in card, card


def test_source_card_shows_area_decision_and_tldr_escaped():
    from ui.web_render import source_card

    card = source_card(1, _citation(primary_area="reinforcement learning", decision="Accept (Oral)",
                                    tldr="Guidance <script>x</script> twice."))
    assert '<span class="label primary-area" title="primary area">reinforcement learning</span>' in card
    assert '<span class="label decision" title="decision">Accept (Oral)</span>' in card
    assert '<p class="tldr"><b>TL;DR:</b> Guidance &lt;script&gt;x&lt;/script&gt; twice.</p>' in card
    assert ".tldr" not in source_card(1, _citation()) and "tldr" not in source_card(1, _citation())


def test_a_gzipped_export_can_be_uploaded(make_assistant, tmp_path):
    """The browser's upload takes a .jsonl.gz as `assistant ingest` does; another .gz is refused by name."""
    from ui.web_app import WebApp

    app = WebApp(make_assistant())
    export = tmp_path / "reviewed.jsonl.gz"
    with gzip.open(export, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"id": "AbCdEfGh12", "title": "FooBench", "primary_area": "datasets and benchmarks",
                             "abstract": "We introduce FooBench, a benchmark of 500 chemistry problems for language "
                                         "models; they solve only 12% of them."}) + "\n")
    archive = tmp_path / "slides.pdf.gz"
    archive.write_bytes(gzip.compress(b"%PDF-1.4"))
    report = app.add_files([str(export), str(archive)])
    assert "slides.pdf.gz" in report and "gzipped: .jsonl.gz" in report
    (paper,) = app.assistant.papers()
    assert paper.url == "https://openreview.net/forum?id=AbCdEfGh12" and paper.primary_area == "datasets and benchmarks"


def test_answer_text_shows_quoted_latex_as_text_and_keeps_its_marks():
    from ui.web_render import answer_html

    shown = answer_html("- **S$^2$-Guidance: a title** [1]: \u201creducing token usage by up to 90\\%, in $O(\\sqrt{T})$\u201d")
    assert "<strong>S²-Guidance: a title</strong>" in shown and "90%" in shown and "O(√T)" in shown, shown
    assert "\\%" not in shown and "$" not in shown, shown
