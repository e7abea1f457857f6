"""Regenerate docs/screenshot.png: the browser chat answering "which papers reduce reasoning token usage"
with the sources panel showing a cited abstract and its highlighted evidence sentence.

    .venv/bin/python tests/web_fixtures/make_screenshot.py [--home STORE_FOLDER] [--out docs/screenshot.png]

Without --home it loads the bundled corpus into a temporary store first (about half a minute).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

QUESTION = "which papers reduce reasoning token usage"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, help="a store holding the bundled corpus (default: a fresh temp store)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from assistant import Assistant, Settings
    from ui.web import build_app, launch

    with tempfile.TemporaryDirectory() as tmp:
        assistant = Assistant(Settings.from_env(env={}, home=args.home or Path(tmp) / "home", llm="none"))
        if assistant.stats()["papers"] == 0:
            assistant.ingest()
        assistant.search("warm up", k=1)
        demo = build_app(assistant)
        url = launch(demo, port=0, prevent_thread_lock=True)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto(url)
                page.wait_for_function("(document.querySelector('#app-header')?.innerText || '').includes('papers from')")
                page.wait_for_function("!(document.querySelector('#llm')?.innerText || 'checking').includes('checking')")
                page.fill("#question textarea", QUESTION)
                page.press("#question textarea", "Enter")
                page.wait_for_function("document.querySelector('#chat-log .turn') && "
                                       "!document.querySelector('#chat-log .a.pending')")
                page.locator("#chat-log a.cite").last.click()  # open the last source, evidence highlighted
                page.wait_for_timeout(1800)  # smooth scroll and the highlight flash
                # scrolled back to the top of the panel, as a reader would: the question, both papers, the highlight
                page.evaluate("""() => { for (let el = document.querySelector('#sources-panel .src'); el; el = el.parentElement)
                                           if (el.scrollTop > 0) el.scrollTop = 0; }""")
                page.wait_for_timeout(300)
                page.mouse.move(5, 5)
                args.out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out))
                browser.close()
        finally:
            demo.close()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
